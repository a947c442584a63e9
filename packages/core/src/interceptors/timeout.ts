import { defineInterceptor, failure } from '../chain/interceptor.ts';
import type { ToolContext, ToolInterceptor, ToolOutcome } from '../chain/types.ts';
import { ToolError } from '../errors/tool-error.ts';
import { abortError, raceSignal } from '../executor/race-signal.ts';
import { noteAbandoned } from './abandoned.ts';
import { isTimerDelay, MAX_TIMER_MS } from './timer-delay.ts';

/**
 * Fails the call with a `timeout` error after `ms` and aborts the signal the tool sees.
 * The call returns on time even if the tool ignores its signal and hangs, and at once when the caller aborts.
 */
/* @__NO_SIDE_EFFECTS__ */
export function timeout(ms: number): ToolInterceptor {
  // A delay past a timer's 32 bits fires after 1 ms: the call would time out at once.
  if (!isTimerDelay(ms)) throw new TypeError(`timeout(ms): ms must be a number of milliseconds from 1 to ${MAX_TIMER_MS}; got ${String(ms)}.`);
  // Not an `async` function: its promise and `await` cost each call with a time limit (~0.1 µs); the steps are the same.
  return defineInterceptor('timeout', (ctx, next) => {
    const outer = ctx.signal;
    // The tool's signal: aborted when the time runs out or the caller aborts, by the one listener below, instead of an
    // `AbortSignal.any([outer, own])` per call (~1.3 µs in Node, and weak references its sources keep until collected).
    const controller = new AbortController();
    let end: (outcome: ToolOutcome) => void = () => {};
    let fail: (error: unknown) => void = () => {};
    // Settled by whichever comes first: the layers inside, the time limit or the caller's abort (no `Promise.race`).
    const ended = new Promise<ToolOutcome>((resolve, reject) => {
      end = resolve;
      fail = reject;
    });
    // Set when this layer gives up on the layers inside (the time ran out, or the caller aborted).
    let gaveUp = false;
    const aborted = () => failure(abortError(outer, { toolName: ctx.tool.name, callId: ctx.call.id }));
    const onAbort = () => {
      gaveUp = true;
      controller.abort(outer.reason);
      end(aborted());
    };
    if (outer.aborted) controller.abort(outer.reason);
    else outer.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      // Made when the time runs out: an error captures a stack, which cost a call that ends in time ~6 µs in Node.
      const error = new ToolError('timeout', `Tool "${ctx.tool.name}" did not finish within ${ms} ms.`, { toolName: ctx.tool.name, callId: ctx.call.id, retryable: true });
      gaveUp = true;
      controller.abort(error);
      end(failure(error));
    }, ms);
    // When the layer ends: the timer does not outlive the call of a tool that ignores its signal, and the tool's signal
    // follows the caller's only while the call runs (a listener per call must not stay on a long-lived signal).
    const done = () => {
      clearTimeout(timer);
      outer.removeEventListener('abort', onAbort);
    };
    let running: Promise<ToolOutcome>;
    try {
      running = next({ signal: controller.signal });
    } catch (error) {
      done();
      return Promise.reject(error);
    }
    // Aborted before or while the tool started: the call ends now.
    if (outer.aborted) {
      running.catch(() => {});
      noteAbandoned(ctx, running);
      done();
      return Promise.resolve(aborted());
    }
    running.then(end, fail);
    return ended.then(
      (outcome) => {
        // Given up on (time ran out, or the caller aborted) while the tool may still run: a layer outside may wait for it
        // to end (a cache empties itself again when a write it gave up on ends).
        if (gaveUp) noteAbandoned(ctx, running);
        done();
        return outcome;
      },
      (error: unknown) => {
        done();
        throw error;
      },
    );
  }, { abandons: true });
}

/**
 * Runs one of the tool's own functions that come before it (`check`, a `needsApproval` function, `approvalReason`) within
 * the tool's `timeoutMs`, and stops waiting when `ctx.signal` aborts: a hung one ends as a `timeout` (or `aborted`)
 * `ToolError` the model reads, and a late rejection is handled here.
 */
export async function withinToolTime<T>(ctx: ToolContext, what: string, run: () => T | PromiseLike<T>): Promise<T> {
  const value = run();
  if (typeof (value as { then?: unknown } | null)?.then !== 'function') return value as T;
  const { tool, call } = ctx;
  const meta = { toolName: tool.name, callId: call.id };
  const ms = tool.policy.timeoutMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timed = new Promise<T>((resolve, reject) => {
    // The error is made only when the time runs out (see `timeout`).
    if (ms !== undefined) timer = setTimeout(() => reject(new ToolError('timeout', `Tool "${tool.name}" was not run: its ${what} did not finish within ${ms} ms.`, meta)), ms);
    Promise.resolve(value).then(resolve, reject);
  });
  try {
    return await raceSignal(timed, ctx.signal, (signal) => Promise.reject(abortError(signal, meta)));
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
