import { type RateLimiter, withDeps } from '@edgetool/core';

/** What the demo tools need from the request: handed to the executor as `createRunContext({ deps })`. */
export interface DemoDeps {
  readonly db: D1Database;
  /** Spends send_email's rate limit (the EMAIL_LIMITER binding); without it send_email refuses to run. */
  readonly emailLimiter?: RateLimiter | undefined;
  /**
   * Whose budget send_email's rate limit spends: the client's address as the Worker sees it (`clientAddress`, from
   * `CF-Connecting-IP`), which a client cannot change for free as it can its conversation id. Default `LOCAL_CLIENT` (`'local'`).
   */
  readonly client?: string | undefined;
  /** Clock for "today" and timestamps (default `new Date()`); tests pin it. */
  readonly now?: () => Date;
}

/** `defineTool` with `ctx.run.deps` typed as {@link DemoDeps}. */
export const { defineTool: defineDemoTool } = withDeps<DemoDeps>();

/** The current time from the deps' clock. */
export function nowFrom(deps: DemoDeps | undefined): Date {
  return deps?.now?.() ?? new Date();
}

/** The deps, or a clear error when a caller forgot `createRunContext({ deps })`. */
export function requireDeps(deps: DemoDeps | undefined, toolName: string): DemoDeps {
  if (deps === undefined || deps === null || typeof deps.db?.prepare !== 'function') {
    throw new TypeError(`Tool "${toolName}" needs run deps with a D1 database: createRunContext({ deps: { db: env.DB } }).`);
  }
  return deps;
}
