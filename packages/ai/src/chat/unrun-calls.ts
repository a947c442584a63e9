import { type AnyTool, type RunContext, ToolError, type ToolCallResult, type ToolExecutor } from '@edgetool/core';
import type { UIMessageChunk } from 'ai';
import { runsOnCaller } from './ai-tools.ts';
import type { ExecutionMode } from './protocol.ts';

/**
 * What the model and the UI read for a call of a step the model ended at its output token limit or its content filter
 * (Anthropic's `max_tokens` after a whole `tool_use` block, `refusal`): the AI SDK runs no call of such a step.
 */
export const UNRUN_CALL_TEXT =
  "Not run: the model's answer was cut off (output token limit or content filter) after this call, and no call of a cut answer runs. Call it again if it is still needed.";

/** The finish reasons after which the AI SDK runs none of the step's calls (its `isToolExecutionAllowedFinishReason`). */
const CUT_REASONS: ReadonlySet<string> = new Set(['length', 'content-filter']);

/** Whether the AI SDK ran none of the calls of a step that ended for `reason` (token limit, content filter). */
export const runsNoCalls = (reason: string | undefined): boolean => reason !== undefined && CUT_REASONS.has(reason);

/** The `aborted` result ({@link UNRUN_CALL_TEXT}) of a call the AI SDK did not run because its step was cut. */
export function unrunResult(executor: ToolExecutor, call: { readonly id: string; readonly name: string; readonly input: unknown }, run: RunContext): Promise<ToolCallResult> {
  const { id, name, input } = call;
  return executor.refuse({ id, name, arguments: JSON.stringify(input) ?? '{}' }, new ToolError('aborted', UNRUN_CALL_TEXT, { toolName: name, callId: id }), { run });
}

/**
 * The server calls of a turn that nothing answered: no result, no approval request, not the caller's to run. The AI SDK
 * leaves the calls of a step cut at the token limit so (it runs none); left as they were, the message kept them
 * `input-available` for ever and the next turn's prompt dropped them, so the model never learnt they did not run.
 * `answer` gives each an `aborted` result (`UNRUN_CALL_TEXT`) as a `tool-output-error` chunk, for the turn's trailer.
 */
export function createUnrunCalls(options: { readonly tools: ReadonlyMap<string, AnyTool>; readonly mode: ExecutionMode }) {
  const open = new Map<string, { readonly toolName: string; readonly input: unknown }>();
  return {
    /** Notes what `chunk` says of a call; call it for every chunk of the turn, in order. */
    saw(chunk: UIMessageChunk): void {
      switch (chunk.type) {
        case 'tool-input-available': {
          const tool = options.tools.get(chunk.toolName);
          if (chunk.providerExecuted !== true && tool !== undefined && !runsOnCaller(tool, options.mode)) open.set(chunk.toolCallId, { toolName: chunk.toolName, input: chunk.input });
          return;
        }
        case 'tool-approval-request':
        case 'tool-output-available':
        case 'tool-output-error':
        case 'tool-output-denied':
        case 'tool-input-error':
          open.delete(chunk.toolCallId);
          return;
        default:
          return;
      }
    },
    /**
     * After a turn whose last step ended for `reason`: a result for each call nothing answered when the reason is one
     * after which the AI SDK runs no call (`length`, `content-filter`), and the chunk that carries it; none otherwise.
     */
    async answer(
      reason: string | undefined,
      { executor, run }: { readonly executor: ToolExecutor; readonly run: RunContext },
    ): Promise<{ result: ToolCallResult; chunk: UIMessageChunk }[]> {
      if (!runsNoCalls(reason) || open.size === 0) return [];
      const answered: { result: ToolCallResult; chunk: UIMessageChunk }[] = [];
      for (const [toolCallId, { toolName, input }] of open) {
        const result = await unrunResult(executor, { id: toolCallId, name: toolName, input }, run);
        answered.push({ result, chunk: { type: 'tool-output-error', toolCallId, errorText: result.content } });
      }
      open.clear();
      return answered;
    },
  };
}
