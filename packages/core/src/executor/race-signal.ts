// Not in the barrel: how the executor and the MCP client stop waiting for a promise when the caller aborts.
import { ToolError } from '../errors/tool-error.ts';

/**
 * The error of a call its caller aborted: the abort's own reason when it is a `ToolError` (a timeout), `timeout` when it
 * is a `TimeoutError` (the caller's `AbortSignal.timeout()`, so retry rules and the model read a time limit), else `aborted`.
 */
export function abortError(signal: AbortSignal, meta: { toolName: string; callId: string }): ToolError {
  return fromAbort(signal, meta, `The call of "${meta.toolName}" did not finish within the caller's time limit.`, `The call of "${meta.toolName}" was aborted by the caller.`);
}

/** True for the reason of a signal that timed out (`AbortSignal.timeout()`'s `TimeoutError`, from any realm). */
export function isTimeoutReason(reason: unknown): boolean {
  return typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError';
}

/**
 * The error of a tool load its caller stopped waiting for (`registry.tools({ signal })`, `resolve(name, signal)`): the
 * abort's own `ToolError`, `timeout` for a `TimeoutError`, else `aborted`.
 */
export function loadAbortError(signal: AbortSignal, name: string): ToolError {
  return fromAbort(signal, { toolName: name }, `The tool "${name}" did not load within the caller's time limit.`, `Loading the tool "${name}" was aborted by the caller.`);
}

/** The abort's own `ToolError`; for a `TimeoutError`, a retryable `timeout` saying `timedOut`; else `aborted` saying `aborted`. */
function fromAbort(signal: AbortSignal, meta: { toolName: string; callId?: string }, timedOut: string, aborted: string): ToolError {
  const { reason } = signal;
  if (ToolError.isInstance(reason)) return reason;
  if (isTimeoutReason(reason)) return new ToolError('timeout', timedOut, { ...meta, cause: reason, retryable: true });
  return new ToolError('aborted', aborted, { ...meta, cause: reason });
}

/**
 * Settles as `promise` does, or with what `onAbort` returns (a value, or a rejected promise) as soon as `signal`
 * aborts, whichever comes first; without a signal, `promise` itself. The abort listener goes when `promise` settles,
 * and a rejection of `promise` after the abort is handled here (Node ends a process on an unhandled one).
 */
export function raceSignal<T, A>(promise: Promise<T>, signal: AbortSignal | undefined, onAbort: (signal: AbortSignal) => A | Promise<A>): Promise<T | A> {
  if (signal === undefined) return promise;
  if (signal.aborted) {
    // Nobody waits for `promise` now: its rejection (a fetch given the aborted signal rejects) must not go unhandled.
    promise.catch(() => {});
    return Promise.resolve(onAbort(signal));
  }
  return new Promise<T | A>((resolve, reject) => {
    const abort = () => resolve(onAbort(signal));
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}
