import type { AnyTool, TicketSigner, ToolCallResult } from '@edgetool/core';
import type { UIMessageChunk } from 'ai';
import { runsOnCaller } from './ai-tools.ts';
import { type ExecutionMode, SEAL_PART, type SealPartData, TICKET_PART, type TicketPartData, TRACE_PART, type TracePartData } from './protocol.ts';
import { sealSubject } from './proofs.ts';
import type { AcceptedResult } from './verify-continuation.ts';

/** Options for {@link createProofTransform}. */
export interface ProofTransformOptions {
  readonly tickets: TicketSigner;
  readonly conversationId: string;
  readonly mode: ExecutionMode;
  readonly tools: ReadonlyMap<string, AnyTool>;
  readonly sealTtlMs: number;
  /** Inputs of calls from earlier responses (approved calls run now, before the first step). */
  readonly inputs: ReadonlyMap<string, { readonly toolName: string; readonly input: unknown }>;
  /** Client results accepted in this request: sealed right after `start`. */
  readonly accepted: readonly AcceptedResult[];
  /** Finished calls of this request, by tool call id (for trace parts). */
  readonly results: ReadonlyMap<string, ToolCallResult>;
  /** Verified approval decisions of this request (denials are sealed with their reason). */
  readonly decisions: ReadonlyMap<string, { readonly approved: boolean; readonly reason?: string | undefined }>;
}

type DataChunk = { type: string; id: string; data: unknown };

/**
 * Adds edgetool's proofs to the AI SDK's UI message stream, using exactly what the client will hold:
 * a ticket beside each approval request and each call handed to the client, a seal beside each
 * result this server produced or accepted, and the call's trace for UIs.
 */
export function createProofTransform(options: ProofTransformOptions): TransformStream<UIMessageChunk, UIMessageChunk> {
  const { tickets, conversationId, mode, tools, sealTtlMs, results } = options;
  const inputs = new Map(options.inputs);
  let started = false;

  const seal = async (
    toolCallId: string,
    toolName: string,
    input: unknown,
    result: { output: unknown } | { errorText: string } | { deniedReason: string | null },
  ): Promise<DataChunk> => {
    const data: SealPartData = {
      toolCallId,
      toolName,
      seal: await tickets.sign(sealSubject({ toolName, toolCallId, input, result, conversationId }), { ttlMs: sealTtlMs }),
    };
    return { type: SEAL_PART, id: toolCallId, data };
  };

  const ticket = async (toolCallId: string, toolName: string, input: unknown, purpose: TicketPartData['purpose']): Promise<DataChunk> => {
    const data: TicketPartData = {
      toolCallId,
      toolName,
      purpose,
      runsOn: tools.get(toolName)?.policy.runsOn ?? 'server',
      ticket: await tickets.sign({ purpose, toolName, callId: toolCallId, args: input, conversationId }),
    };
    return { type: TICKET_PART, id: toolCallId, data };
  };

  const trace = (toolCallId: string): DataChunk | undefined => {
    const result = results.get(toolCallId);
    if (!result) return undefined;
    const data: TracePartData = {
      toolCallId,
      toolName: result.call.name,
      side: 'server',
      outcome: result.outcome.type,
      errorCode: result.outcome.type === 'error' ? result.outcome.error.code : undefined,
      durationMs: result.durationMs,
      spans: result.spans.map(({ name, kind, depth, start, duration, outcome }) => ({ name, kind, depth, start, duration, outcome })),
    };
    return { type: TRACE_PART, id: toolCallId, data };
  };

  return new TransformStream<UIMessageChunk, UIMessageChunk>({
    async transform(chunk, controller) {
      const emit = (extra: DataChunk | undefined) => extra && controller.enqueue(extra as UIMessageChunk);
      // Proofs go out before the chunk they prove: a client never holds a result without its seal, or a
      // call without its ticket, even if it stops the stream in between. `start` opens the message first.
      if (chunk.type === 'start') controller.enqueue(chunk);
      switch (chunk.type) {
        case 'start':
          if (!started) {
            started = true;
            for (const a of options.accepted) emit(await seal(a.toolCallId, a.toolName, a.input, a.result));
          }
          break;
        case 'tool-input-available': {
          inputs.set(chunk.toolCallId, { toolName: chunk.toolName, input: chunk.input });
          const tool = tools.get(chunk.toolName);
          if (tool && runsOnCaller(tool, mode)) emit(await ticket(chunk.toolCallId, chunk.toolName, chunk.input, 'client-result'));
          break;
        }
        case 'tool-approval-request': {
          const call = inputs.get(chunk.toolCallId);
          if (call && !('isAutomatic' in chunk && chunk.isAutomatic)) emit(await ticket(chunk.toolCallId, call.toolName, call.input, 'approval'));
          break;
        }
        case 'tool-output-available':
        case 'tool-output-error': {
          if (chunk.type === 'tool-output-available' && chunk.preliminary) break;
          const call = inputs.get(chunk.toolCallId);
          if (!call) break;
          const result = chunk.type === 'tool-output-available' ? { output: chunk.output } : { errorText: chunk.errorText };
          emit(await seal(chunk.toolCallId, call.toolName, call.input, result));
          emit(trace(chunk.toolCallId));
          break;
        }
        case 'tool-output-denied': {
          const call = inputs.get(chunk.toolCallId);
          if (call) emit(await seal(chunk.toolCallId, call.toolName, call.input, { deniedReason: options.decisions.get(chunk.toolCallId)?.reason ?? null }));
          break;
        }
        case 'tool-input-error':
          // The AI SDK rejected the call before execution (unparsable input, unknown tool): the part
          // becomes `output-error` in history, so it needs a seal like any result.
          inputs.set(chunk.toolCallId, { toolName: chunk.toolName, input: chunk.input });
          emit(await seal(chunk.toolCallId, chunk.toolName, chunk.input, { errorText: chunk.errorText }));
          break;
      }
      if (chunk.type !== 'start') controller.enqueue(chunk);
    },
  });
}
