import {
  type AnyTool,
  isToolAvailable,
  parseArguments,
  type RunContext,
  type ToolCall,
  type ToolCallResult,
  ToolError,
  toToolError,
  type ToolExecutor,
} from '@edgetool/core';
import type { ToolCallRepairFunction, ToolSet } from 'ai';
import { cutArgumentsText } from './cut-arguments.ts';

/** Options for {@link repairToolCallFor}. */
export interface InvalidCallOptions {
  /** The request-level context of the turn. */
  readonly run: RunContext;
  /** Receives each refused call's result, as the tools' `onResult` receives a finished call's. */
  readonly onResult?: ((result: ToolCallResult) => void) | undefined;
  /** Ids of the calls whose arguments the output token limit cut off (`callIdRenamer` finds them): they say so. */
  readonly cut?: ReadonlySet<string> | undefined;
}

/**
 * The AI SDK's `repairToolCall` for edgetool's loops. The AI SDK hands it every call it cannot parse (arguments that
 * are not JSON, a tool that does not exist, keys it refuses) before it gives up on the call. It repairs nothing: it
 * answers the call the way edgetool does, with the executor's typed error (`invalid-json`, also for the keys, which the
 * executor refuses too; `unknown-tool`; nothing runs), gives the result to `onResult` and `onTrace` like any failed
 * call's, and makes the AI SDK's error read as edgetool's text. The AI SDK then reports that text wherever it reports the call: to the model in the next step, in
 * the UI stream (`tool-input-error`, an `output-error` part) and in the text turn's messages.
 */
export function repairToolCallFor(executor: ToolExecutor, options: InvalidCallOptions): ToolCallRepairFunction<ToolSet> {
  return async ({ toolCall, error, abortSignal }) => {
    const call: ToolCall = { id: toolCall.toolCallId, name: toolCall.toolName, arguments: toolCall.input };
    const result =
      options.cut?.has(call.id) === true
        ? await executor.refuse(call, new ToolError('invalid-json', cutArgumentsText(call.name), { toolName: call.name, callId: call.id }), { run: options.run })
        : await refuse(executor, call, options, { signal: abortSignal, reason: error.message });
    options.onResult?.(result);
    readsAs(error, result.content);
    return null;
  };
}

/** The result of a call the AI SDK refused: the executor's own, where edgetool refuses it too before anything runs. */
async function refuse(
  executor: ToolExecutor,
  call: ToolCall,
  options: InvalidCallOptions,
  { signal, reason }: { signal: AbortSignal | undefined; reason: string },
): Promise<ToolCallResult> {
  const meta = { toolName: call.name, callId: call.id };
  const parsed = parseArguments(call.arguments, meta);
  // Not JSON, or a key that could change an object's prototype: the executor stops at its parse (invalid-json), before
  // it resolves or runs anything.
  if (!parsed.ok) return executor.execute(call, { run: options.run, signal });
  let tool: AnyTool | undefined;
  try {
    tool = await executor.registry.resolve(call.name);
  } catch (thrown) {
    return executor.refuse(call, toToolError(thrown, meta), { run: options.run });
  }
  // No such tool, or one this run may not see: the executor stops at its lookup (unknown-tool, naming the tools the run
  // may call).
  if (tool === undefined || !(await isToolAvailable(tool, options.run))) return executor.execute(call, { run: options.run, signal });
  // JSON the executor reads but the AI SDK refused for a reason of its own. It must not run: the AI SDK has given up
  // on the call.
  const issues = [{ path: '(root)', message: reason }];
  return executor.refuse(call, new ToolError('invalid-input', `Invalid arguments for "${tool.name}".`, { ...meta, issues }), { run: options.run });
}

/**
 * The AI SDK reports a call it could not parse with `String(error)` of its own error (the model's tool result, the UI
 * stream's `tool-input-error`, the text turn's messages), and keeps that error object for it: it now reads as edgetool's
 * text. The error is made for this one call, so nothing else sees the change.
 */
function readsAs(error: object, text: string): void {
  Object.defineProperty(error, 'message', { value: text, configurable: true, writable: true });
  Object.defineProperty(error, 'toString', { value: () => text, configurable: true, writable: true });
}
