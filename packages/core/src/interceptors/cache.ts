import { defineInterceptor, failure } from '../chain/interceptor.ts';
import type { ToolContext, ToolInterceptor, ToolOutcome } from '../chain/types.ts';
import { contextKey, type ContextKey } from '../context/context-key.ts';
import { abortError } from '../executor/race-signal.ts';
import { canonicalJson } from '../tickets/canonical-json.ts';
import { abandonedKey } from './abandoned.ts';
import { backgroundTimer, isTimerDelay, MAX_TIMER_MS } from './timer-delay.ts';

/** A cached result: the tool's output as its `execute` returned it (plain JSON data, a copy). */
export interface CachedOutput {
  readonly output: unknown;
}

/**
 * Where {@link cache} keeps results. {@link memoryCacheStore} is one for a single process (a Node server, a browser
 * tab, one Worker isolate); a store of your own (Workers KV, the Cache API, Redis) gets the same calls. Keys hold the
 * tool's name, the scope and the canonical JSON of the input, so they may be long: hash them if your store limits keys
 * (KV: 512 bytes). A store that throws or rejects counts as a miss (`get`) or is ignored (`set`, `clear`): a broken
 * cache never fails a call.
 */
export interface CacheStore {
  /** The entry stored under `key`, or `undefined` when there is none or it expired. */
  get(key: string): CachedOutput | undefined | Promise<CachedOutput | undefined>;
  /** Stores `value` under `key` for `ttlMs` milliseconds (`Infinity`: until evicted or cleared). */
  set(key: string, value: CachedOutput, ttlMs: number): void | Promise<void>;
  /** Drops every entry. Needed for `clearOnWrite` (the default) and the interceptor's `clear()`. */
  clear?(): void | Promise<void>;
  /**
   * Drops the entry under `key`. Optional: {@link cache} calls it for a save that was still on its way when the cache
   * was cleared (a remote store may apply it after the clear); a store without it is cleared again instead.
   */
  delete?(key: string): void | Promise<void>;
}

/** Options for {@link cache}. */
export interface CacheOptions<TDeps = unknown> {
  /** How long a result is served from the cache, in milliseconds (`Infinity`: until evicted or cleared). */
  readonly ttlMs: number;
  /** Where results are kept (default: a {@link memoryCacheStore} of 1,000 entries and 8 Mi characters, one per `cache()`). */
  readonly store?: CacheStore | undefined;
  /**
   * Who may share a cached result: calls whose scope, tool name and input are equal share one. Return `undefined` to
   * leave a call uncached. Default: the user (`ctx.run.userId`), or, for a run without one, its conversation, so one
   * person's data is never served to another. A chat's conversation id is the client's: when what a tool reads depends
   * on who asks by other means (a session in `deps`), set the run's `userId` or pass a scope that names them.
   */
  readonly scope?: ((ctx: ToolContext<unknown, TDeps>) => string | undefined) | undefined;
  /**
   * Empties the cache when a `write` or `destructive` tool runs through this interceptor (it succeeded or failed, so it
   * may have changed what reads return); for one that ended while its tool went on (a timeout, an abort), see
   * `abandonedWriteMs`. Default `true`; a
   * store without `clear()` then throws at `cache()`. Only calls that pass through this interceptor count: put it on the
   * executor or the registry, not on one tool, to see writes.
   */
  readonly clearOnWrite?: boolean | undefined;
  /** The largest output kept, in characters of its JSON text, about (default 65,536): larger ones are not cached. */
  readonly maxOutputSize?: number | undefined;
  /**
   * How long, at most, a `write` or `destructive` call that ended for its caller while its tool went on (its `timeoutMs`,
   * the caller's abort) keeps the cache from storing results, in milliseconds (default 60,000; `0`: not at all). Until
   * the tool ends, a read cannot tell whether it saw the write: results are served and shared as usual but not kept. A
   * tool that ends sooner ends the wait, and the cache is emptied again then; one that never ends holds it this long.
   */
  readonly abandonedWriteMs?: number | undefined;
}

/** The interceptor {@link cache} returns: a {@link ToolInterceptor} with a way to empty its cache. */
export interface CacheInterceptor<TDeps = unknown> extends ToolInterceptor<unknown, unknown, TDeps> {
  /** Empties the cache (the store's `clear()`); results of calls running now are not kept. */
  clear(): Promise<void>;
}

/** Set to `true` on a call's context when its result came from the cache (an outer interceptor reads it). */
export const cacheHitKey: ContextKey<true> = /* @__PURE__ */ contextKey<true>('edgetool.cache-hit');

/**
 * Serves repeated calls of `read` tools from a cache: a call whose tool, input (by value, any key order) and scope
 * (default: the user) equal an earlier successful one within `ttlMs` gets that result without running the tool, and
 * identical calls running at the same time run the tool once. Only calls that could not differ are cached: a `read`
 * tool that never asks for approval and has no `check` (a cache would answer calls those would refuse), a successful
 * result that is plain JSON data (strings, numbers, booleans, `null`, arrays and plain objects; not a `Date`, a `Map`
 * or a class instance, which a copy would change), up to `maxOutputSize`. Every other call passes through. Results are
 * copied in and out, so a caller that changes its result does not change the cache; an output schema still checks
 * each result. A hit skips everything inside this interceptor: the policy layers (call and rate limits) and the
 * interceptors after it. Results that were current when cached may be stale when served: keep `ttlMs` short for data
 * that changes, and note that `clearOnWrite` empties only this cache (one isolate's memory, or your store).
 */
/* @__NO_SIDE_EFFECTS__ */
export function cache<TDeps = unknown>(options: CacheOptions<TDeps>): CacheInterceptor<TDeps> {
  const { ttlMs, scope = defaultScope, clearOnWrite = true, maxOutputSize = 65_536, abandonedWriteMs = 60_000 } = options ?? ({} as CacheOptions<TDeps>);
  if (typeof ttlMs !== 'number' || !(ttlMs > 0)) throw new TypeError('cache: ttlMs must be a positive number of milliseconds (Infinity for no expiry).');
  if (typeof scope !== 'function') throw new TypeError('cache: scope must be a function of the call returning a string (or undefined: not cached).');
  if (typeof maxOutputSize !== 'number' || !(maxOutputSize > 0)) throw new TypeError('cache: maxOutputSize must be a positive number.');
  if (abandonedWriteMs !== 0 && !isTimerDelay(abandonedWriteMs)) {
    throw new TypeError(`cache: abandonedWriteMs must be 0 or a number of milliseconds from 1 to ${MAX_TIMER_MS}; got ${String(abandonedWriteMs)}.`);
  }
  const store = options.store ?? memoryCacheStore();
  if (typeof store?.get !== 'function' || typeof store.set !== 'function') throw new TypeError('cache: store must have get(key) and set(key, value, ttlMs) methods.');
  if (clearOnWrite && typeof store.clear !== 'function') {
    throw new TypeError('cache: this store has no clear(), which clearOnWrite (on by default) needs; pass clearOnWrite: false to keep entries until ttlMs.');
  }
  // Results of calls that started before the latest clear are not kept: they may have read what a write changed.
  let generation = 0;
  const running = new Map<string, Promise<CachedOutput | undefined>>();
  // Writes that ended for their callers while their tools go on: while any does, no result is kept.
  let holds = 0;
  /** Starts one such hold; the function it returns ends it (once), at the latest after `abandonedWriteMs`. */
  const hold = (): (() => void) => {
    if (abandonedWriteMs === 0) return () => {};
    holds++;
    let held = true;
    const release = (): void => {
      if (!held) return;
      held = false;
      clearTimeout(expiry);
      holds--;
      // A read that started during the hold may have read before the write landed: it is not kept either.
      generation++;
    };
    const expiry = backgroundTimer(release, abandonedWriteMs);
    return release;
  };
  const clear = async (): Promise<void> => {
    generation++;
    running.clear();
    try {
      await store.clear?.();
    } catch {
      // A broken cache never fails a call; entries then expire by ttlMs.
    }
  };
  const unsave = async (key: string): Promise<void> => {
    try {
      await (store.delete === undefined ? store.clear?.() : store.delete(key));
    } catch {
      // As for clear(): the entry then expires by ttlMs.
    }
  };
  /**
   * A write: the cache is emptied when it ends for the layers outside (a success or an error), or at once when its caller
   * aborts. When it ended so while the tool goes on (a timeout inside gave up on it, or the abort), no result is kept
   * until the tool ends (bounded by `abandonedWriteMs`), and the cache is emptied again then.
   */
  const write = async (ctx: ToolContext<unknown, TDeps>, next: () => Promise<ToolOutcome>): Promise<ToolOutcome> => {
    let release: (() => void) | undefined;
    const gaveUp = (): void => {
      if (release !== undefined) return;
      // Held before the clear: a read that ends while a store of your own clears is not kept.
      release = hold();
      void clear();
    };
    const { signal } = ctx;
    // The executor answers an aborted call at once while the tool (with no time limit inside) may still run and land.
    if (signal.aborted) gaveUp();
    else signal.addEventListener('abort', gaveUp, { once: true });
    let outcome: ToolOutcome;
    try {
      outcome = await next();
    } catch (error) {
      release?.();
      throw error;
    } finally {
      signal.removeEventListener('abort', gaveUp);
    }
    // A layer inside gave up on the write (its timeout, the caller's abort) and the tool goes on: what it changes when it
    // ends would be hidden by reads kept meanwhile, so none is kept until then and the cache is emptied again then.
    const abandoned = ctx.get(abandonedKey);
    if (outcome.type === 'success' || outcome.type === 'error') {
      if (abandoned !== undefined) release ??= hold();
      await clear();
    }
    if (abandoned === undefined) release?.();
    else {
      const ended = (): void => {
        void clear();
        release?.();
      };
      void abandoned.then(ended, ended);
    }
    return outcome;
  };
  const interceptor = defineInterceptor<unknown, unknown, TDeps>('cache', async (ctx, next) => {
    const key = cacheKey(ctx, scope);
    if (key === undefined) {
      if (!clearOnWrite || ctx.tool.policy.effects === 'read') return next();
      return write(ctx, next);
    }
    let stored: CachedOutput | undefined;
    try {
      stored = await store.get(key);
    } catch {
      stored = undefined;
    }
    // A store of your own may hand back anything: what is not { output } of plain JSON data is a miss.
    const cached = stored === undefined ? NOT_JSON : jsonCopy((stored as { output?: unknown } | null)?.output, maxOutputSize);
    if (cached !== NOT_JSON) return hit(ctx, cached);
    const leader = running.get(key);
    if (leader !== undefined) {
      const shared = await waitFor(leader, ctx.signal);
      if (shared === ABORTED) return failure(abortError(ctx.signal, { toolName: ctx.tool.name, callId: ctx.call.id }));
      // The first call failed, or its result is not kept: this one runs on its own.
      return shared === undefined ? next() : hit(ctx, jsonCopy(shared.output, Number.POSITIVE_INFINITY));
    }
    const started = generation;
    let settle!: (value: CachedOutput | undefined) => void;
    const mine = new Promise<CachedOutput | undefined>((resolve) => {
      settle = resolve;
    });
    running.set(key, mine);
    let kept: CachedOutput | undefined;
    try {
      const outcome = await next();
      if (outcome.type === 'success' && started === generation && holds === 0) {
        const copy = jsonCopy(outcome.output, maxOutputSize);
        if (copy !== NOT_JSON) kept = { output: copy };
      }
      return outcome;
    } finally {
      settle(kept);
      const done = (): void => {
        if (running.get(key) === mine) running.delete(key);
      };
      if (kept === undefined) done();
      else {
        // Not awaited: the call does not wait for a remote store. Calls that come meanwhile share this one's result, for
        // ttlMs at most: a save that never settles must not serve it for good, nor keep its entry in `running`.
        let saving: void | Promise<void>;
        try {
          saving = store.set(key, kept, ttlMs);
        } catch {
          saving = undefined;
        }
        if (saving instanceof Promise) {
          const expiry = backgroundTimer(done, Math.min(ttlMs, MAX_TIMER_MS));
          const saved = (): void => {
            clearTimeout(expiry);
            done();
            // A clear came while the save was on its way: a remote store may have applied the save after the clear,
            // so the entry (read before a write) is dropped now.
            if (started !== generation) void unsave(key);
          };
          saving.then(saved, saved);
        } else done();
      }
    }
  });
  return Object.assign(interceptor, { clear }) as CacheInterceptor<TDeps>;
}

/** The default scope: the user, or for a run without one, its conversation. */
function defaultScope(ctx: ToolContext): string {
  return ctx.run.userId === undefined ? `conversation:${ctx.run.conversationId}` : `user:${ctx.run.userId}`;
}

/**
 * The key of a call that may be cached, else `undefined`: a `read` tool that never asks and has no check, a scope, and
 * an input with a canonical JSON form.
 */
function cacheKey<TDeps>(ctx: ToolContext<unknown, TDeps>, scope: (ctx: ToolContext<unknown, TDeps>) => string | undefined): string | undefined {
  const { policy, name } = ctx.tool;
  if (policy.effects !== 'read' || policy.needsApproval !== false || policy.check !== undefined) return undefined;
  const who = scope(ctx);
  if (who === undefined) return undefined;
  if (typeof who !== 'string') throw new TypeError(`cache: scope returned ${typeof who}, not a string or undefined.`);
  let input: string;
  try {
    input = canonicalJson(ctx.input);
  } catch {
    return undefined;
  }
  return `${name}\n${who}\n${input}`;
}

/** A hit: the output (a copy), the call marked. */
function hit(ctx: ToolContext, output: unknown): ToolOutcome {
  ctx.set(cacheHitKey, true);
  return { type: 'success', output };
}

const ABORTED: unique symbol = Symbol('aborted');

/** The first call's result, or {@link ABORTED} when this call's signal aborts first. */
function waitFor(leader: Promise<CachedOutput | undefined>, signal: AbortSignal): Promise<CachedOutput | undefined | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve) => {
    const abort = (): void => resolve(ABORTED);
    signal.addEventListener('abort', abort, { once: true });
    void leader.then((value) => {
      signal.removeEventListener('abort', abort);
      resolve(value);
    });
  });
}

const NOT_JSON: unique symbol = Symbol('not JSON');

/** What a value that is no object or array counts toward a JSON size (its text, about): {@link jsonCopy} and {@link jsonSize}. */
const leafSize = (item: unknown): number => (typeof item === 'string' ? item.length + 2 : typeof item === 'number' ? 8 : typeof item === 'boolean' ? 5 : 4);
/** What an object's key counts toward a JSON size (quoted, with its colon and comma). */
const keySize = (name: string): number => name.length + 3;

/**
 * A deep copy of `value` when it is plain JSON data of at most about `max` characters as JSON, else {@link NOT_JSON}:
 * only strings, finite numbers, booleans, `null`, arrays and plain objects (no functions, no cycles, no `undefined` in
 * an array). Keys are copied as data (`__proto__` included), never through a setter.
 */
function jsonCopy(value: unknown, max: number): unknown {
  let size = 0;
  const ancestors: object[] = [];
  const copy = (item: unknown): unknown => {
    if (typeof item !== 'object' || item === null) {
      if (item !== null && typeof item !== 'string' && typeof item !== 'boolean' && !(typeof item === 'number' && Number.isFinite(item))) return NOT_JSON;
      size += leafSize(item);
      return size > max ? NOT_JSON : item;
    }
    if (ancestors.includes(item)) return NOT_JSON;
    ancestors.push(item);
    let out: unknown[] | Record<string, unknown>;
    if (Array.isArray(item)) {
      out = [];
      for (let i = 0; i < item.length; i++) {
        const member = copy(item[i]);
        if (member === NOT_JSON) return NOT_JSON;
        out.push(member);
      }
    } else {
      const proto: unknown = Object.getPrototypeOf(item);
      // A plain object's own `toJSON` is a function, which is not data: no special case.
      if (proto !== null && Object.getPrototypeOf(proto) !== null) return NOT_JSON;
      out = {};
      for (const name of Object.keys(item)) {
        size += keySize(name);
        const member = copy((item as Record<string, unknown>)[name]);
        if (member === NOT_JSON) return NOT_JSON;
        // Defined, not assigned: a "__proto__" key stays a key.
        Object.defineProperty(out, name, { value: member, writable: true, enumerable: true, configurable: true });
      }
    }
    ancestors.pop();
    return out;
  };
  return copy(value);
}

/** Options for {@link memoryCacheStore}. */
export interface MemoryCacheStoreOptions {
  /** The most entries kept at once (default 1,000): when full, expired entries go first, then the least recently used. */
  readonly maxEntries?: number | undefined;
  /**
   * The most output kept at once, in characters of its JSON, about (default 8 Mi, 8,388,608): a bound on memory that
   * entries alone do not give (1,000 results of `cache()`'s 64 KB each would be 64 MB or more, half a Worker's memory).
   * When full, expired entries go first, then the least recently used; a larger output is not kept.
   */
  readonly maxSize?: number | undefined;
  /** Milliseconds now (default `Date.now`); for tests. */
  readonly now?: (() => number) | undefined;
}

/** The store {@link memoryCacheStore} makes: a {@link CacheStore} whose methods answer at once. */
export interface MemoryCacheStore extends CacheStore {
  get(key: string): CachedOutput | undefined;
  set(key: string, value: CachedOutput, ttlMs: number): void;
  clear(): void;
  delete(key: string): void;
}

/**
 * A {@link CacheStore} in memory, bounded by `maxEntries` and `maxSize` (least recently used first out). It serves one
 * process: in Workers each isolate has its own, and a write in one isolate does not clear another's (keep `ttlMs` short,
 * or use a shared store).
 */
/* @__NO_SIDE_EFFECTS__ */
export function memoryCacheStore(options: MemoryCacheStoreOptions = {}): MemoryCacheStore {
  const { maxEntries = 1000, maxSize = 8 * 1024 * 1024, now = Date.now } = options;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new TypeError('memoryCacheStore: maxEntries must be a positive integer.');
  if (typeof maxSize !== 'number' || !(maxSize > 0)) throw new TypeError('memoryCacheStore: maxSize must be a positive number.');
  // Insertion order is recency: a hit moves its entry to the end.
  const entries = new Map<string, { value: CachedOutput; expiresAt: number; size: number }>();
  let total = 0;
  const drop = (key: string): void => {
    const entry = entries.get(key);
    if (entry === undefined) return;
    entries.delete(key);
    total -= entry.size;
  };
  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      if (entry.expiresAt <= now()) {
        total -= entry.size;
        return undefined;
      }
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value, ttlMs) {
      drop(key);
      const size = jsonSize(value?.output, maxSize);
      if (size > maxSize) return;
      const full = (): boolean => entries.size >= maxEntries || total + size > maxSize;
      if (full()) {
        const time = now();
        for (const [name, entry] of entries) if (entry.expiresAt <= time) drop(name);
        for (const name of entries.keys()) {
          if (!full()) break;
          drop(name);
        }
      }
      entries.set(key, { value, expiresAt: now() + ttlMs, size });
      total += size;
    },
    clear() {
      entries.clear();
      total = 0;
    },
    delete: drop,
  };
}

/** The size of `value`'s JSON as {@link jsonCopy} counts it; past `max` (or for a cycle) it stops, at more than `max`. */
function jsonSize(value: unknown, max: number): number {
  let size = 0;
  const ancestors: object[] = [];
  const count = (item: unknown): void => {
    if (size > max) return;
    if (typeof item !== 'object' || item === null) size += leafSize(item);
    else if (ancestors.includes(item)) size = Number.POSITIVE_INFINITY;
    else {
      ancestors.push(item);
      if (Array.isArray(item)) for (const member of item) count(member);
      else {
        for (const name of Object.keys(item)) {
          size += keySize(name);
          count((item as Record<string, unknown>)[name]);
        }
      }
      ancestors.pop();
    }
  };
  count(value);
  return size;
}
