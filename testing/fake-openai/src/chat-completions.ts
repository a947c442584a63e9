import type { ReplyPlan, StreamPlan } from './plan';
import { splitArguments } from './split';

function usageOf(plan: ReplyPlan): Record<string, unknown> {
  return {
    prompt_tokens: plan.inputTokens,
    completion_tokens: plan.outputTokens,
    total_tokens: plan.inputTokens + plan.outputTokens,
    prompt_tokens_details: { cached_tokens: plan.cachedInputTokens },
    completion_tokens_details: { reasoning_tokens: plan.reasoningTokens },
  };
}

/** Renders a reply as a non-streamed `chat.completion` body. */
export function chatCompletionJson(plan: ReplyPlan): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: plan.textDeltas.length > 0 ? plan.text : null,
    refusal: null,
  };
  if (plan.toolCalls.length > 0) {
    message.tool_calls = plan.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id: plan.responseId,
    object: 'chat.completion',
    created: plan.created,
    model: plan.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: plan.finishReason }],
    usage: usageOf(plan),
  };
}

/** Renders a reply as `chat.completion.chunk` events (without the trailing `[DONE]`). */
export function chatCompletionEvents(plan: ReplyPlan): StreamPlan {
  const base = { id: plan.responseId, object: 'chat.completion.chunk', created: plan.created, model: plan.model };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): unknown => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const events: unknown[] = [];
  let first = true;

  if (plan.textDeltas.length > 0) {
    events.push(chunk({ role: 'assistant', content: '' }));
    first = false;
    for (const delta of plan.textDeltas) events.push(chunk({ content: delta }));
  }
  plan.toolCalls.forEach((call, index) => {
    const head = {
      tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
    };
    events.push(chunk(first ? { role: 'assistant', content: null, ...head } : head));
    first = false;
    for (const piece of splitArguments(call.arguments)) {
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  const contentEnd = events.length;
  if (plan.streamError !== undefined) {
    events.push({
      error: {
        message: plan.streamError.message,
        type: 'server_error',
        param: null,
        code: plan.streamError.code ?? null,
      },
    });
    return { events, contentEnd };
  }
  if (first) events.push(chunk({ role: 'assistant', content: '' }));
  events.push(chunk({}, plan.finishReason));
  events.push({ ...base, choices: [], usage: usageOf(plan) });
  return { events, contentEnd };
}
