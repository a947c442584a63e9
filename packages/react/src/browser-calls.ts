import type { CallTrace } from './trace.ts';

/** What the browser did or does for one call: run it (client tool), or authorise its server run (manual mode). */
export interface BrowserCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
  readonly kind: 'run' | 'authorise';
  /**
   * The `client-result` ticket the server handed the call over with (`run` only): the nonce in it makes the call's
   * `ctx.idempotencyKey`, as the server keys the result it takes.
   */
  readonly ticket?: string | undefined;
  /** The approval request the authorisation answers (`authorise` only). */
  readonly approvalId: string | undefined;
  /** `awaiting-approval`: the browser chain's approval layer waits for a human. */
  readonly status: 'running' | 'awaiting-approval' | 'done' | 'cancelled';
  /** One trace per pass through the browser chain (a paused approval, then the approved run). */
  readonly traces: readonly CallTrace[];
  /** What the human who approves reads beside the arguments: the server's words, or the browser tool's (`policy.approvalReason`). */
  readonly requestReason?: string | undefined;
}

/** Browser calls by tool call id. */
export type BrowserCalls = ReadonlyMap<string, BrowserCall>;

/** Returns a copy with one call created or changed. */
export function updateBrowserCall(calls: BrowserCalls, call: BrowserCall): BrowserCalls {
  const next = new Map(calls);
  next.set(call.toolCallId, call);
  return next;
}

/**
 * Returns a copy where every running or waiting call is cancelled (the user pressed stop, or the conversation left the
 * answer), except those in `keep`; the same map when none is.
 */
export function cancelBrowserCalls(calls: BrowserCalls, keep?: ReadonlySet<string>): BrowserCalls {
  let changed = false;
  const next = new Map(calls);
  for (const [id, call] of calls) {
    if ((call.status === 'running' || call.status === 'awaiting-approval') && keep?.has(id) !== true) {
      next.set(id, { ...call, status: 'cancelled' });
      changed = true;
    }
  }
  return changed ? next : calls;
}
