import type { ApprovalDecision, RunContext, ToolCallResult, ToolExecutor } from '@edgetool/core';
import type { ToolModelMessage } from 'ai';
import { toToolOutput } from './chat/tool-output.ts';

/** A tool call as the AI SDK reports it (`result.toolCalls`). */
export interface ModelToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
}

/** What {@link executeToolCalls} returns. */
export interface ExecutedToolCalls {
  /** Every call's result, in call order. */
  readonly results: readonly ToolCallResult[];
  /** The tool message to append to the conversation (finished calls only). */
  readonly messages: ToolModelMessage[];
  /** Calls that wait for an approval or for the client (not in `messages`). */
  readonly pending: readonly ToolCallResult[];
}

/**
 * Executes a model response's tool calls through the edgetool chain and returns the tool messages to
 * append, for code that drives the loop itself (the JVM's `executeToolCalls`). Pair with tools that
 * have no `execute` on the AI SDK side, or with `toolChoice` handling of your own.
 */
export async function executeToolCalls(options: {
  readonly executor: ToolExecutor;
  readonly toolCalls: readonly ModelToolCall[];
  readonly run?: RunContext;
  readonly signal?: AbortSignal;
  readonly approvals?: ReadonlyMap<string, ApprovalDecision>;
  /** Images in tool results reach the model as images (default `true`; `false` for a model that cannot take them: their text). */
  readonly images?: boolean;
  /** PDF documents in tool results reach the model as documents (default `true`; `false` for a model that cannot take them: their text). */
  readonly documents?: boolean;
}): Promise<ExecutedToolCalls> {
  const files = { images: options.images ?? true, documents: options.documents ?? true };
  const calls = options.toolCalls.map((c) => ({ id: c.toolCallId, name: c.toolName, arguments: c.input }));
  const results = await options.executor.executeAll(calls, {
    ...(options.run ? { run: options.run } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.approvals ? { approvals: options.approvals } : {}),
  });
  const done = results.filter((r) => r.outcome.type === 'success' || r.outcome.type === 'error');
  const messages: ToolModelMessage[] = done.length
    ? [
        {
          role: 'tool',
          content: done.map((r) => ({
            type: 'tool-result' as const,
            toolCallId: r.call.id,
            toolName: r.call.name,
            output: r.isError ? { type: 'error-text' as const, value: r.content } : toToolOutput(r.parts ?? r.content, files),
          })),
        },
      ]
    : [];
  return { results, messages, pending: results.filter((r) => !done.includes(r)) };
}
