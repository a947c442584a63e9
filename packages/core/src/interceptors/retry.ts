import { defineInterceptor } from '../chain/interceptor.ts';
import type { ToolInterceptor } from '../chain/types.ts';
import type { CallContext } from '../context/tool-context.ts';
import type { ToolError } from '../errors/tool-error.ts';

/** Options for {@link retry}. */
export interface RetryOptions {
  /** Extra attempts after the first. */
  readonly retries: number;
  /** Wait before the first retry, doubled each time (default 0). */
  readonly delayMs?: number;
  /** Which failures to retry (default: `execution-failed` and `timeout`). */
  readonly when?: (error: ToolError) => boolean;
}

const RETRYABLE = new Set(['execution-failed', 'timeout']);

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Runs the rest of the chain again on retryable failures. The executor adds it only for
 * `read` tools with `policy.retries`, since a retried write could apply twice.
 */
/* @__NO_SIDE_EFFECTS__ */
export function retry(options: RetryOptions): ToolInterceptor {
  const when = options.when ?? ((error: ToolError) => error.retryable || RETRYABLE.has(error.code));
  return defineInterceptor(
    'retry',
    async (ctx, next) => {
      let outcome = await next();
      for (let attempt = 1; attempt <= options.retries; attempt++) {
        if (outcome.type !== 'error' || !when(outcome.error) || ctx.signal.aborted) break;
        await sleep((options.delayMs ?? 0) * 2 ** (attempt - 1), ctx.signal);
        if (ctx.signal.aborted) break;
        (ctx as CallContext).attempt = attempt + 1;
        outcome = await next();
      }
      return outcome;
    },
    { reentrant: true },
  );
}
