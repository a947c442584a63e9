// Not in the barrel: the counting behind `callLimit()` and `policy.maxCallsPerRun`. Each limit counts on its own, so a
// global `callLimit()` and a tool's `maxCallsPerRun` do not spend each other's units.
import { defineInterceptor, failure } from '../chain/interceptor.ts';
import type { ToolContext, ToolInterceptor, ToolOutcome } from '../chain/types.ts';
import type { RunContext } from '../context/run-context.ts';
import { ToolError } from '../errors/tool-error.ts';

/**
 * Calls per tool name in each run, kept off the run itself so that forked runs (sub-agents) count on their own. By name,
 * not by tool object: a resolver may build a tool anew for every lookup (tools kept in a database).
 */
export type CallCounts = WeakMap<RunContext<unknown>, Map<string, number>>;

/** The counts of `policy.maxCallsPerRun`, one for every executor (the chat loop reads them: `runCallCount`). */
export const policyCallCounts: CallCounts = new WeakMap();

/**
 * Lets at most `max` calls of each tool through per run, counted in `counts`; a call that ends waiting (for an approval,
 * or for the client to run it) gives its unit back.
 */
export function countCalls(max: number, counts: CallCounts): ToolInterceptor {
  return defineInterceptor('call-limit', (ctx, next) => {
    let perTool = counts.get(ctx.run);
    if (perTool === undefined) {
      perTool = new Map();
      counts.set(ctx.run, perTool);
    }
    const { tool } = ctx;
    const used = perTool.get(tool.name) ?? 0;
    if (used >= max) {
      const times = max === 1 ? 'once' : `${max} times`;
      const message = `Tool "${tool.name}" may run at most ${times} per request, and it already has; this call was not run. Do not call it again now: answer with what you have.`;
      return Promise.resolve(refused(ctx, message));
    }
    // Taken before the call goes on, so parallel calls of one step cannot all pass.
    const counted = perTool;
    counted.set(tool.name, used + 1);
    return next().then((outcome) => {
      if (outcome.type === 'approval-required' || outcome.type === 'client-pending') counted.set(tool.name, (counted.get(tool.name) ?? 1) - 1);
      return outcome;
    });
  });
}

/** A call a limit refused: `rate-limited`, with the words the model reads. */
export function refused(ctx: ToolContext, message: string, cause?: unknown): ToolOutcome {
  return failure(new ToolError('rate-limited', message, { toolName: ctx.tool.name, callId: ctx.call.id, cause }));
}
