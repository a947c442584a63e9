import type { AnyTool, ToolCallResult } from '@edgetool/core';
import type { StopCondition, ToolSet } from 'ai';
import { runsOnCaller } from './ai-tools.ts';
import type { ExecutionMode } from './protocol.ts';

/** The signals that are set, as one (`undefined` when none is). */
export function anySignal(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  return present.length > 1 ? AbortSignal.any(present) : present[0];
}

/** The AI SDK's `abortSignal` option, left out when there is no signal. */
export function abortOption(signal: AbortSignal | undefined): { abortSignal?: AbortSignal } {
  return signal ? { abortSignal: signal } : {};
}

/** Model steps per turn when `maxSteps` is not set. */
export const DEFAULT_MAX_STEPS = 8;

/**
 * Whether any of the turn's tools can need an approval in this mode. When none can, the loop passes no
 * `toolApproval` to the AI SDK, which then skips the per-call check (the tool set is fixed for the turn).
 */
export function mayAsk(tools: Iterable<AnyTool>, mode: ExecutionMode): boolean {
  for (const tool of tools) {
    if (runsOnCaller(tool, mode)) continue;
    if (mode === 'manual' || tool.policy.needsApproval !== false) return true;
  }
  return false;
}

/**
 * Stops the loop when every call of the last step is a return-direct tool that succeeded; `text()` is then their
 * outputs as the model would have read them (`undefined` while the loop has not stopped that way).
 */
export function returnDirectStop(results: ReadonlyMap<string, ToolCallResult>): { stop: StopCondition<ToolSet>; text: () => string | undefined } {
  let ids: string[] | undefined;
  return {
    stop: ({ steps }) => {
      const calls = steps.at(-1)?.toolCalls ?? [];
      if (calls.length === 0 || !calls.every((c) => results.get(c.toolCallId)?.returnDirect)) return false;
      ids = calls.map((c) => c.toolCallId);
      return true;
    },
    text: () => ids?.map((id) => results.get(id)?.content ?? '').join('\n\n'),
  };
}
