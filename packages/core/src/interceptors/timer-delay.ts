// Not in the barrel: the one rule for a time limit a timer can keep, shared by tool policies, `timeout()` and the
// MCP client's limits.

/** The longest delay `setTimeout` keeps (a signed 32-bit count of milliseconds, about 24.8 days): a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Whether `ms` is a delay a timer can keep: a number of milliseconds from 1 to {@link MAX_TIMER_MS}. */
export function isTimerDelay(ms: unknown): ms is number {
  return typeof ms === 'number' && ms > 0 && ms <= MAX_TIMER_MS;
}

/**
 * A timer that bounds bookkeeping (a cache's hold, a save that never settles) and so must not keep a Node or Deno
 * process alive: `unref` where the runtime's timers have it (browsers and Workers return a number and have no event
 * loop to hold).
 */
export function backgroundTimer(run: () => void, ms: number): ReturnType<typeof setTimeout> {
  const timer = setTimeout(run, ms);
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
