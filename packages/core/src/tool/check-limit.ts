// Not in the barrel: the one time limit of what lists tools (`availableTools`, an unknown tool's list in the executor,
// a client result's own tool), so that a check or a resolver of one's own that never answers holds no request.
import { ToolError } from '../errors/tool-error.ts';
import { raceSignal } from '../executor/race-signal.ts';

/**
 * Each answer as it settled, or `null` for one still pending after 10 s or when `signal` aborts (one timer for them
 * all, cleared at the end; none when every answer is there already). Answers are not `null`; one that rejects in
 * time rejects the whole.
 */
export async function withinCheckLimit<T>(answers: readonly (T | Promise<T>)[], signal: AbortSignal | undefined): Promise<(T | null)[]> {
  if (!answers.some((answer) => answer instanceof Promise)) return answers as T[];
  let end = (_late?: null) => {};
  const ended = new Promise<null | undefined>((resolve) => {
    end = resolve;
  });
  const late = raceSignal(ended, signal, () => null);
  const timer = setTimeout(end, 10_000, null);
  try {
    return await Promise.all(answers.map((answer) => (answer instanceof Promise ? (Promise.race([answer, late]) as Promise<T | null>) : answer)));
  } finally {
    clearTimeout(timer);
    end();
  }
}

/** The error of `what` (`The availability check of "x"`) that did not answer within 10 s, or before `signal` aborted. */
export function lateError(what: string, meta: { readonly toolName: string; readonly callId?: string }, signal: AbortSignal | undefined): ToolError {
  return signal?.aborted
    ? new ToolError('aborted', `${what} did not answer before the run's signal aborted.`, meta)
    : new ToolError('timeout', `${what} did not answer within 10 s.`, { ...meta, retryable: true });
}
