import { ToolError } from '../errors/tool-error.ts';
import { loadAbortError, raceSignal } from '../executor/race-signal.ts';
import { isTimerDelay } from '../interceptors/timer-delay.ts';
import { isTool } from '../tool/define-tool.ts';
import { isToolName } from '../tool/tool-name.ts';
import type { AnyTool } from '../tool/types.ts';
import { listedNames } from './checked.ts';
import { type Lookups, listOnce, visit } from './cycle.ts';

/** Finds tools by name. `resolve` may be async (lazy loading); `names` is always known up front. */
export interface ToolResolver {
  readonly kind: 'edgetool.resolver';
  /** Every name this resolver can resolve. */
  names(): readonly string[];
  /**
   * The tool, or `undefined` for an unknown name. Names come from the model: never use them as raw keys. `signal` is the
   * caller's (a call's, or `tools({ signal })`): a lazy load may stop waiting when it aborts; resolvers may ignore it.
   * `via` lists the resolvers already looking this name up: one that asks another for the same name passes both on, so
   * that a cycle of them fails with `resolver-cycle` at once, even after an `await`, instead of never settling.
   */
  resolve(name: string, signal?: AbortSignal, via?: readonly ToolResolver[]): AnyTool | undefined | Promise<AnyTool | undefined>;
}

function duplicate(name: string): ToolError {
  return new ToolError('duplicate-tool', `Duplicate tool name "${name}": tool names must be unique in a registry.`, { toolName: name });
}

/** A fixed list of tools. A duplicate name is an error here, never a silent skip. */
/* @__NO_SIDE_EFFECTS__ */
export function staticResolver(tools: readonly AnyTool[]): ToolResolver {
  const byName = new Map<string, AnyTool>();
  for (const tool of tools) {
    if (!isTool(tool)) throw new TypeError('staticResolver: every entry must be a tool made by defineTool().');
    if (byName.has(tool.name)) throw duplicate(tool.name);
    byName.set(tool.name, tool);
  }
  const names = [...byName.keys()];
  return { kind: 'edgetool.resolver', names: () => names, resolve: (name) => byName.get(name) };
}

/**
 * Asks each resolver in turn; the first that knows the name wins. Names must not overlap when it is made (a duplicate
 * throws); a resolver may get tools later (names are read again on a miss and by `names()`). One that leads back to
 * it (a cycle) fails the lookup, or the listing, with `resolver-cycle`.
 */
/* @__NO_SIDE_EFFECTS__ */
export function delegatingResolver(resolvers: readonly ToolResolver[]): ToolResolver {
  const list = [...resolvers];
  let owner = owners(list, true);
  // The names it is looking up while its resolvers run (see `visit`).
  const lookups: Lookups = { asking: [], waiting: new Map() };
  const self: ToolResolver = {
    kind: 'edgetool.resolver',
    names: listOnce(() => {
      owner = owners(list, false);
      return [...owner.keys()];
    }),
    resolve(name, signal, via) {
      if (!owner.has(name)) owner = owners(list, false);
      return visit(self, lookups, owner.get(name), name, signal, via);
    },
  };
  return self;
}

/** Which resolver answers each name: the first that lists it; with `strict`, a name listed twice throws `duplicate-tool`. */
function owners(resolvers: readonly ToolResolver[], strict: boolean): Map<string, ToolResolver> {
  const owner = new Map<string, ToolResolver>();
  for (const resolver of resolvers) {
    for (const name of listedNames(resolver.names())) {
      if (!owner.has(name)) owner.set(name, resolver);
      else if (strict) throw duplicate(name);
    }
  }
  return owner;
}

/** A module exporting a tool as default, or the tool itself. */
export type LazyToolModule = AnyTool | { readonly default: AnyTool };

/** Options for {@link lazyResolver}. */
export interface LazyResolverOptions {
  /**
   * Milliseconds a module may take to load (default 10 000): a load still pending then is given up, with a `timeout`
   * `ToolError`, and not kept, whether or not its caller passed a signal. `Infinity` waits as long as the caller does.
   */
  readonly loadTimeoutMs?: number | undefined;
}

/**
 * Loads each tool's module on first use, once, even when several calls ask at the same time.
 * Keeps a Worker's cold start small: `lazyResolver({ query_order: () => import('./orders.ts') })`.
 * A load that fails, that outlives `loadTimeoutMs`, or that every caller stops waiting for (each signal aborted first;
 * a caller without one waits till it settles), is not kept: the next use loads again.
 */
/* @__NO_SIDE_EFFECTS__ */
export function lazyResolver(loaders: Readonly<Record<string, () => Promise<LazyToolModule>>>, options: LazyResolverOptions = {}): ToolResolver {
  const { loadTimeoutMs = 10_000 } = options;
  if (!isTimerDelay(loadTimeoutMs) && loadTimeoutMs !== Infinity) throw new TypeError('lazyResolver: loadTimeoutMs must be from 1 to 2147483647 ms, or Infinity.');
  const names = Object.keys(loaders);
  // A key no tool can have would be offered to the model by names() and fail every load.
  const unusable = names.find((name) => !isToolName(name));
  if (unusable !== undefined) {
    throw new TypeError(`lazyResolver: ${JSON.stringify(unusable)} is no tool name (1-64 letters, digits, "_" or "-"): key each loader by its tool's name.`);
  }
  const notLoader = names.find((name) => typeof loaders[name] !== 'function');
  if (notLoader !== undefined) throw new TypeError(`lazyResolver: the loader of "${notLoader}" is not a function: give a function that returns the tool or its module (a dynamic import of its file).`);
  // Each load under way and who waits for it: callers with a signal are counted (one that stops waiting leaves), one
  // without stays till it settles (`held`). A load is given up on only when nobody waits any longer.
  const loading = new Map<string, { readonly promise: Promise<AnyTool>; waiters: number; held: boolean }>();
  // Loaded tools are handed out as they are: no signal can take them back.
  const loaded = new Map<string, AnyTool>();
  return {
    kind: 'edgetool.resolver',
    names: () => names,
    resolve(name, signal) {
      if (!Object.hasOwn(loaders, name)) return undefined;
      const done = loaded.get(name);
      if (done !== undefined) return done;
      let load = loading.get(name);
      if (load === undefined) {
        const loader = loaders[name] as () => Promise<LazyToolModule>;
        // A module that never loads (a chunk fetch that never answers) would hold every use of the tool, and `tools()`.
        const limit = loadTimeoutMs === Infinity ? undefined : AbortSignal.timeout(loadTimeoutMs);
        const timedOut = () => Promise.reject(new ToolError('timeout', `The tool "${name}" did not load within ${loadTimeoutMs} ms.`, { toolName: name, retryable: true }));
        // A loader that returns the tool or module itself (JavaScript, `require`) or throws is taken as a promise of it.
        const exported = new Promise<LazyToolModule>((resolve) => resolve(loader()));
        const promise = raceSignal(exported, limit, timedOut).then((mod) => {
          // A module that is not an object (null from a loader with a bug) has no default: it did not export a tool.
          const tool = isTool(mod) ? mod : typeof mod === 'object' && mod !== null ? (mod as { default?: unknown }).default : undefined;
          if (!isTool(tool)) throw new TypeError(`lazyResolver: the module for "${name}" did not export a tool (as default or itself).`);
          if (tool.name !== name) throw new TypeError(`lazyResolver: the module for "${name}" exported a tool named "${tool.name}".`);
          loaded.set(name, tool);
          return tool;
        });
        const started = { promise, waiters: 0, held: false };
        // A failed load may be retried by a later call (a load given up on may already have made way for a newer one).
        promise.catch(() => forget(name, started));
        loading.set(name, started);
        load = started;
      }
      const waited = load;
      if (signal === undefined) {
        waited.held = true;
        return waited.promise;
      }
      waited.waiters++;
      return raceSignal(waited.promise, signal, (aborted) => {
        // A load nobody waits for any longer is not kept: one that never settles would hold every later call. Another
        // caller still waiting keeps it (one call that stopped waiting made the next load the module again).
        waited.waiters--;
        if (!waited.held && waited.waiters === 0) forget(name, waited);
        return Promise.reject(loadAbortError(aborted, name));
      });
    },
  };

  function forget(name: string, load: { readonly promise: Promise<AnyTool> }): void {
    if (loading.get(name) === load) loading.delete(name);
  }
}
