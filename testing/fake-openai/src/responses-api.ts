import type { ReplyPlan, StreamPlan } from './plan';
import { splitArguments } from './split';

type Item = Record<string, unknown>;

function usageOf(plan: ReplyPlan): Record<string, unknown> {
  return {
    input_tokens: plan.inputTokens,
    input_tokens_details: { cached_tokens: plan.cachedInputTokens },
    output_tokens: plan.outputTokens,
    output_tokens_details: { reasoning_tokens: plan.reasoningTokens },
    total_tokens: plan.inputTokens + plan.outputTokens,
  };
}

function incompleteReason(plan: ReplyPlan): string | undefined {
  if (plan.finishReason === 'length') return 'max_output_tokens';
  if (plan.finishReason === 'content_filter') return 'content_filter';
  return undefined;
}

function messageItem(plan: ReplyPlan, status: 'in_progress' | 'completed'): Item {
  return {
    type: 'message',
    id: plan.messageId,
    status,
    role: 'assistant',
    content: status === 'completed' ? [{ type: 'output_text', text: plan.text, annotations: [], logprobs: [] }] : [],
  };
}

function functionCallItem(call: ReplyPlan['toolCalls'][number], status: 'in_progress' | 'completed'): Item {
  return {
    type: 'function_call',
    id: call.itemId,
    call_id: call.id,
    name: call.name,
    arguments: status === 'completed' ? call.arguments : '',
    status,
  };
}

function reasoningItem(reasoning: NonNullable<ReplyPlan['reasoning']>, status: 'in_progress' | 'completed'): Item {
  const done = status === 'completed';
  return {
    type: 'reasoning',
    id: reasoning.id,
    summary: done ? [{ type: 'summary_text', text: reasoning.summary }] : [],
    encrypted_content: done ? reasoning.encryptedContent : null,
  };
}

function compactionItem(compaction: NonNullable<ReplyPlan['compaction']>): Item {
  return { type: 'compaction', id: compaction.id, encrypted_content: compaction.encryptedContent };
}

/** The output items a reply produces, in output order (a compaction, reasoning, then the message, then function calls). */
export function responseOutputItems(plan: ReplyPlan): Item[] {
  const items: Item[] = [];
  if (plan.compaction !== undefined) items.push(compactionItem(plan.compaction));
  if (plan.reasoning !== undefined) items.push(reasoningItem(plan.reasoning, 'completed'));
  if (plan.textDeltas.length > 0) items.push(messageItem(plan, 'completed'));
  for (const call of plan.toolCalls) items.push(functionCallItem(call, 'completed'));
  return items;
}

function responseObject(plan: ReplyPlan, phase: 'in_progress' | 'done'): Item {
  const reason = incompleteReason(plan);
  const done = phase === 'done';
  return {
    id: plan.responseId,
    object: 'response',
    created_at: plan.created,
    status: done ? (reason === undefined ? 'completed' : 'incomplete') : 'in_progress',
    error: null,
    incomplete_details: done && reason !== undefined ? { reason } : null,
    model: plan.model,
    output: done ? responseOutputItems(plan) : [],
    parallel_tool_calls: true,
    usage: done ? usageOf(plan) : null,
  };
}

/** Renders a reply as a non-streamed Responses API body. */
export function responsesJson(plan: ReplyPlan): Record<string, unknown> {
  return responseObject(plan, 'done');
}

/** Renders a reply as Responses API stream events (`response.created` … `response.completed`). */
export function responsesEvents(plan: ReplyPlan): StreamPlan {
  const events: unknown[] = [];
  const emit = (type: string, fields: Record<string, unknown>): void => {
    events.push({ type, sequence_number: events.length, ...fields });
  };
  // Events before `contentEnd` are sent even by a hanging turn: none without content.
  let contentEnd = 0;

  emit('response.created', { response: responseObject(plan, 'in_progress') });
  emit('response.in_progress', { response: responseObject(plan, 'in_progress') });

  let outputIndex = 0;
  if (plan.compaction !== undefined) {
    emit('response.output_item.added', { output_index: outputIndex, item: compactionItem(plan.compaction) });
    emit('response.output_item.done', { output_index: outputIndex, item: compactionItem(plan.compaction) });
    outputIndex += 1;
  }
  if (plan.reasoning !== undefined) {
    const at = { item_id: plan.reasoning.id, output_index: outputIndex, summary_index: 0 };
    emit('response.output_item.added', { output_index: outputIndex, item: reasoningItem(plan.reasoning, 'in_progress') });
    emit('response.reasoning_summary_part.added', { ...at, part: { type: 'summary_text', text: '' } });
    emit('response.reasoning_summary_text.delta', { ...at, delta: plan.reasoning.summary });
    emit('response.reasoning_summary_text.done', { ...at, text: plan.reasoning.summary });
    emit('response.reasoning_summary_part.done', { ...at, part: { type: 'summary_text', text: plan.reasoning.summary } });
    emit('response.output_item.done', { output_index: outputIndex, item: reasoningItem(plan.reasoning, 'completed') });
    outputIndex += 1;
  }
  if (plan.textDeltas.length > 0) {
    const itemId = plan.messageId;
    const at = { item_id: itemId, output_index: outputIndex, content_index: 0 };
    emit('response.output_item.added', { output_index: outputIndex, item: messageItem(plan, 'in_progress') });
    emit('response.content_part.added', { ...at, part: { type: 'output_text', text: '', annotations: [] } });
    for (const delta of plan.textDeltas) emit('response.output_text.delta', { ...at, delta, logprobs: [] });
    contentEnd = events.length;
    emit('response.output_text.done', { ...at, text: plan.text, logprobs: [] });
    emit('response.content_part.done', { ...at, part: { type: 'output_text', text: plan.text, annotations: [] } });
    emit('response.output_item.done', { output_index: outputIndex, item: messageItem(plan, 'completed') });
    outputIndex += 1;
  }
  for (const call of plan.toolCalls) {
    const at = { item_id: call.itemId, output_index: outputIndex };
    emit('response.output_item.added', { output_index: outputIndex, item: functionCallItem(call, 'in_progress') });
    for (const delta of splitArguments(call.arguments)) {
      emit('response.function_call_arguments.delta', { ...at, delta });
    }
    contentEnd = events.length;
    emit('response.function_call_arguments.done', { ...at, arguments: call.arguments });
    emit('response.output_item.done', { output_index: outputIndex, item: functionCallItem(call, 'completed') });
    outputIndex += 1;
  }

  if (plan.streamError !== undefined) {
    // Fail right after the last delta, before any `.done` event.
    const { message, code } = plan.streamError;
    const failed = events.slice(0, contentEnd);
    failed.push({ type: 'error', sequence_number: contentEnd, code: code ?? 'server_error', message, param: null });
    return { events: failed, contentEnd };
  }
  const done = responseObject(plan, 'done');
  emit(done.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: done });
  return { events, contentEnd };
}
