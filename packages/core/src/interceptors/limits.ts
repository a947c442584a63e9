import { defineInterceptor } from '../chain/interceptor.ts';
import type { ToolContext, ToolInterceptor } from '../chain/types.ts';
import type { RunContext } from '../context/run-context.ts';
import type { AnyTool } from '../tool/types.ts';
import { countCalls, policyCallCounts, refused } from './call-count.ts';

/**
 * Decides whether one more call may run now. The Cloudflare Workers Rate Limiting binding
 * (`env.MY_LIMITER`, configured under `ratelimits` in wrangler) is one as it is; {@link memoryRateLimiter}
 * is one for a single process.
 */
export interface RateLimiter {
  /** Takes one unit of `key`'s budget: `success: false` when it is spent. */
  limit(options: { key: string }): Promise<{ success: boolean }> | { success: boolean };
}

/** A rate limit: `policy.rateLimit`, or the options of {@link rateLimit}. */
export interface RateLimitPolicy<TDeps = unknown> {
  /**
   * The limiter, or a function of the call that finds it (`(ctx) => ctx.run.deps.limiter` for a Workers
   * binding, which exists per request). A function that returns no limiter refuses the call: a missing
   * binding never turns the limit off silently.
   */
  readonly limiter: RateLimiter | ((ctx: ToolContext<unknown, TDeps>) => RateLimiter | undefined);
  /**
   * Whose budget a call spends (default: the tool's name and `ctx.run.userId`, so each user has a budget per
   * tool; calls without a user share one).
   */
  readonly key?: ((ctx: ToolContext<unknown, TDeps>) => string) | undefined;
}

/**
 * Throws a `TypeError` unless `limiter` is a {@link RateLimiter} or a function (that finds one per call). `where`
 * names the option in the message. Shared by {@link rateLimit} and `policy.rateLimit`, which checks it at definition.
 */
export function checkLimiter(limiter: unknown, where: string): void {
  if (typeof limiter !== 'function' && typeof (limiter as { limit?: unknown } | null | undefined)?.limit !== 'function') {
    throw new TypeError(`${where} must have a limit({ key }) method (a Workers rate limit binding, memoryRateLimiter()), or be a function returning one.`);
  }
}

/** Throws a `TypeError` unless `max` is a positive integer (`where` names it). Shared by {@link callLimit} and `policy.maxCallsPerRun`. */
export function checkMaxCalls(max: unknown, where: string): void {
  if (!Number.isInteger(max) || (max as number) < 1) throw new TypeError(`${where} must be a positive integer.`);
}

/** The budget key of a call by default: the tool and the user. */
function defaultKey(ctx: ToolContext): string {
  return `${ctx.tool.name}:${ctx.run.userId ?? '(anonymous)'}`;
}

/**
 * Refuses a call with `rate-limited` when its key's budget is spent, so a model (or a user driving it) cannot
 * call an expensive or risky tool faster than the limiter allows. A limiter that fails refuses the call too
 * (fail closed). As `policy.rateLimit` it runs after the approval, so a call waiting for a human spends
 * nothing (a limiter cannot give a unit back); as an interceptor of your own it runs where you put it.
 */
/* @__NO_SIDE_EFFECTS__ */
export function rateLimit<TDeps = unknown>(options: RateLimitPolicy<TDeps>): ToolInterceptor<unknown, unknown, TDeps> {
  const { limiter, key = defaultKey } = options;
  checkLimiter(limiter, 'rateLimit: `limiter`');
  return defineInterceptor<unknown, unknown, TDeps>('rate-limit', async (ctx, next) => {
    const found = typeof limiter === 'function' ? limiter(ctx) : limiter;
    if (typeof found?.limit !== 'function') {
      return refused(ctx as ToolContext, `Tool "${ctx.tool.name}" has a rate limit but no rate limiter is configured here, so it was not run.`);
    }
    let allowed: boolean;
    try {
      allowed = (await found.limit({ key: key(ctx) })).success === true;
    } catch (cause) {
      return refused(ctx as ToolContext, `Tool "${ctx.tool.name}" was not run: its rate limiter failed.`, cause);
    }
    if (!allowed) {
      return refused(ctx as ToolContext, `Tool "${ctx.tool.name}" is rate limited: too many calls right now, so this one was not run. Do not call it again in this turn; tell the user to try again later.`);
    }
    return next();
  });
}

/** How many calls of `tool` have passed its `maxCallsPerRun` limit in `run` so far (a `callLimit()` of your own counts apart). */
export function runCallCount(run: RunContext<unknown>, tool: AnyTool): number {
  return policyCallCounts.get(run)?.get(tool.name) ?? 0;
}

/**
 * Lets at most `max` calls of a tool run in one run (one request, one chat turn) and refuses the rest with
 * `rate-limited`, telling the model to answer with what it has. It stops a model that loops on one tool. The
 * executor adds one for `policy.maxCallsPerRun`, before the approval, so a call the limit refuses never asks a
 * human. A call that ends waiting (for an approval, or for the client to run it) gives its unit back. Each limit counts
 * on its own: as a global interceptor it limits every tool to `max` calls, apart from the tool's own `maxCallsPerRun`.
 */
/* @__NO_SIDE_EFFECTS__ */
export function callLimit(max: number): ToolInterceptor {
  checkMaxCalls(max, 'callLimit(max): max');
  return countCalls(max, new WeakMap());
}

/** Options for {@link memoryRateLimiter}. */
export interface MemoryRateLimiterOptions {
  /** Calls allowed per key in each period. */
  readonly limit: number;
  /** The period in milliseconds. */
  readonly periodMs: number;
  /** The most keys kept at once (default 10,000): when full, expired keys go first, then the oldest. */
  readonly maxKeys?: number | undefined;
  /** Milliseconds now (default `Date.now`); for tests. */
  readonly now?: (() => number) | undefined;
}

/**
 * A {@link RateLimiter} in memory: `limit` calls per key in each `periodMs` window, the window starting at the
 * key's first call. It limits one process (a Node server, a browser tab, one Worker isolate): across Worker
 * isolates use the Workers Rate Limiting binding, or a limiter over your own store.
 */
/* @__NO_SIDE_EFFECTS__ */
export function memoryRateLimiter(options: MemoryRateLimiterOptions): RateLimiter {
  const { limit, periodMs, maxKeys = 10_000, now = Date.now } = options;
  if (!Number.isInteger(limit) || limit < 1) throw new TypeError('memoryRateLimiter: limit must be a positive integer.');
  if (!(periodMs > 0)) throw new TypeError('memoryRateLimiter: periodMs must be a positive number.');
  if (!Number.isInteger(maxKeys) || maxKeys < 1) throw new TypeError('memoryRateLimiter: maxKeys must be a positive integer.');
  // Insertion order is the order windows started in: a key is moved to the end when its window restarts.
  const windows = new Map<string, { start: number; used: number }>();
  return {
    limit({ key }) {
      const time = now();
      let window = windows.get(key);
      if (window !== undefined && time - window.start >= periodMs) {
        windows.delete(key);
        window = undefined;
      }
      if (window === undefined) {
        if (windows.size >= maxKeys) evict(windows, time, periodMs, maxKeys);
        window = { start: time, used: 0 };
        windows.set(key, window);
      }
      if (window.used >= limit) return { success: false };
      window.used++;
      return { success: true };
    },
  };
}

/** Drops expired windows (the oldest come first), then the oldest live ones until there is room for one more. */
function evict(windows: Map<string, { start: number }>, time: number, periodMs: number, maxKeys: number): void {
  for (const [key, window] of windows) {
    if (windows.size < maxKeys && time - window.start < periodMs) break;
    windows.delete(key);
  }
}
