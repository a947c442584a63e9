import { type AnyTool, type RunContext, ToolError, type ToolCallResult, type ToolExecutor } from '@edgetool/core';
import type { UIMessageChunk } from 'ai';
import { runsOnCaller } from './ai-tools.ts';
import { cutArgumentsText, unfinishedArgumentsText } from './cut-arguments.ts';
import type { ExecutionMode } from './protocol.ts';

/**
 * What the model and the UI read for a call of a step the model ended other than by `stop` or `tool-calls`
 * (Anthropic's `max_tokens` after a whole `tool_use` block, `refusal`, `compaction`): the AI SDK runs none of its calls.
 */
export const UNRUN_CALL_TEXT =
  "Not run: the model's answer ended early (output token limit, content filter or another stop) after this call, and no call of such an answer runs. Call it again if it is still needed.";

/**
 * Whether the AI SDK ran none of the calls of a step that ended for `reason`: it runs them only after `stop` and
 * `tool-calls` (its `isToolExecutionAllowedFinishReason`), not at the token limit, a content filter or `other`.
 */
export const runsNoCalls = (reason: string | undefined): boolean => reason !== undefined && reason !== 'stop' && reason !== 'tool-calls';

/** The `aborted` result ({@link UNRUN_CALL_TEXT}) of a call the AI SDK did not run because of how its step ended. */
export function unrunResult(executor: ToolExecutor, call: { readonly id: string; readonly name: string; readonly input: unknown }, run: RunContext): Promise<ToolCallResult> {
  const { id, name, input } = call;
  return executor.refuse({ id, name, arguments: JSON.stringify(input) ?? '{}' }, new ToolError('aborted', UNRUN_CALL_TEXT, { toolName: name, callId: id }), { run });
}

/**
 * The server calls of a turn that nothing answered: no result, no approval request, not the caller's to run. The AI SDK
 * leaves the calls of a step that ended early so (it runs none, {@link runsNoCalls}); left as they were, the message kept them
 * `input-available` for ever and the next turn's prompt dropped them, so the model never learnt they did not run.
 * `answer` gives each an `aborted` result (`UNRUN_CALL_TEXT`) as a `tool-output-error` chunk, for the turn's trailer.
 */
export function createUnrunCalls(options: { readonly tools: ReadonlyMap<string, AnyTool>; readonly mode: ExecutionMode }) {
  const open = new Map<string, { readonly toolName: string; readonly input: unknown }>();
  // Calls whose arguments were still streaming, with the text that came (made at the first such call).
  let streaming: Map<string, { readonly toolName: string; readonly dynamic: boolean; text: string }> | undefined;
  return {
    /** Notes what `chunk` says of a call; call it for every chunk of the turn, in order. */
    saw(chunk: UIMessageChunk): void {
      switch (chunk.type) {
        case 'tool-input-start':
          if (chunk.providerExecuted === true) return;
          streaming ??= new Map();
          streaming.set(chunk.toolCallId, { toolName: chunk.toolName, dynamic: chunk.dynamic === true, text: '' });
          return;
        case 'tool-input-delta': {
          const call = streaming?.get(chunk.toolCallId);
          if (call !== undefined) call.text += chunk.inputTextDelta;
          return;
        }
        case 'tool-input-available': {
          streaming?.delete(chunk.toolCallId);
          const tool = options.tools.get(chunk.toolName);
          if (chunk.providerExecuted !== true && tool !== undefined && !runsOnCaller(tool, options.mode)) open.set(chunk.toolCallId, { toolName: chunk.toolName, input: chunk.input });
          return;
        }
        case 'tool-approval-request':
        case 'tool-output-available':
        case 'tool-output-error':
        case 'tool-output-denied':
        case 'tool-input-error':
          streaming?.delete(chunk.toolCallId);
          open.delete(chunk.toolCallId);
          return;
        default:
          return;
      }
    },
    /**
     * After a turn whose last step ended for `reason`: a result for each call nothing answered when the reason is one
     * after which the AI SDK runs no call ({@link runsNoCalls}), and the chunk that carries it; none otherwise.
     */
    async answer(
      reason: string | undefined,
      { executor, run }: { readonly executor: ToolExecutor; readonly run: RunContext },
    ): Promise<{ result: ToolCallResult; chunk: UIMessageChunk }[]> {
      if (!runsNoCalls(reason) || (open.size === 0 && (streaming === undefined || streaming.size === 0))) return [];
      const answered: { result: ToolCallResult; chunk: UIMessageChunk }[] = [];
      // A call whose arguments never ended (the Responses API's `response.incomplete` inside a function call's
      // arguments, a stream cut there): the provider never made it a call, so nothing said why it did not run.
      for (const [toolCallId, { toolName, dynamic, text }] of streaming ?? []) {
        const call = { id: toolCallId, name: toolName, arguments: text };
        const meta = { toolName, callId: toolCallId };
        const error = reason === 'length' ? new ToolError('invalid-json', cutArgumentsText(toolName), meta) : new ToolError('aborted', unfinishedArgumentsText(toolName), meta);
        const result = await executor.refuse(call, error, { run });
        answered.push({ result, chunk: { type: 'tool-input-error', toolCallId, toolName, input: text, errorText: result.content, ...(dynamic ? { dynamic } : {}) } });
      }
      streaming?.clear();
      for (const [toolCallId, { toolName, input }] of open) {
        const result = await unrunResult(executor, { id: toolCallId, name: toolName, input }, run);
        answered.push({ result, chunk: { type: 'tool-output-error', toolCallId, errorText: result.content } });
      }
      open.clear();
      return answered;
    },
  };
}
