// Not in the barrel: how a layer that gives up on the layers inside it (timeout) tells the layers outside (cache).
import type { ToolContext, ToolOutcome } from '../chain/types.ts';
import { contextKey, type ContextKey } from '../context/context-key.ts';

/** The layers inside a call that a layer gave up on and that still run: settled once every one of them has ended. */
export const abandonedKey: ContextKey<Promise<unknown>> = /* @__PURE__ */ contextKey<Promise<unknown>>('edgetool.abandoned');

/** Notes on `ctx` that `running` goes on after its layer gave up on it (a time limit, the caller's abort). */
export function noteAbandoned(ctx: ToolContext, running: Promise<ToolOutcome>): void {
  const before = ctx.get(abandonedKey);
  ctx.set(abandonedKey, before === undefined ? running : Promise.allSettled([before, running]));
}
