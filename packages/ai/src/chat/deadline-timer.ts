// Not in the barrel: the one lazy timer of the chat loop's model time limits (the text turn's `responseMs`, the UI
// turn's first-chunk and chunk limits).

/** The longest delay a timer takes (a longer one fires at once in every runtime). */
const LONGEST_DELAY = 2_147_483_647;

/**
 * A deadline kept with one timer for a whole turn, not a timer cleared and set again each time the deadline moves:
 * moving it only notes when it now runs out, and the timer, when it fires, calls `expire` if the deadline has passed or
 * waits for what is left. A timer set for later than a new, nearer deadline is set again.
 */
export interface DeadlineTimer {
  /** The deadline is `ms` from now (a deadline that is not a number runs out when the timer next fires). */
  set(ms: number): void;
  /** No deadline runs. The timer stays until it fires (a deadline set before then reuses it). */
  clear(): void;
  /** Whether a deadline runs. */
  running(): boolean;
  /** No deadline runs, and the timer is cleared (a pending one would keep a Node process alive). */
  close(): void;
}

/** A {@link DeadlineTimer} that calls `expire` once per deadline that runs out. */
export function deadlineTimer(expire: () => void): DeadlineTimer {
  let deadline: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerAt = 0;
  const fire = (): void => {
    timer = undefined;
    if (deadline === undefined) return;
    const left = deadline - Date.now();
    // Not `left > 0` alone: a deadline that is not a number (NaN) runs out at once.
    if (left > 0) schedule(left);
    else {
      deadline = undefined;
      expire();
    }
  };
  const schedule = (delay: number): void => {
    const wait = Math.min(delay, LONGEST_DELAY);
    timerAt = Date.now() + wait;
    timer = setTimeout(fire, wait);
  };
  return {
    set: (ms) => {
      deadline = Date.now() + ms;
      // The timer fires at its time or before the deadline; one set for a later time is set again.
      if (timer !== undefined && !(timerAt > deadline)) return;
      if (timer !== undefined) clearTimeout(timer);
      schedule(ms);
    },
    clear: () => {
      deadline = undefined;
    },
    running: () => deadline !== undefined,
    close: () => {
      deadline = undefined;
      if (timer === undefined) return;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
