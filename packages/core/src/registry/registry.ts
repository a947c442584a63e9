import { toInterceptor } from '../chain/interceptor.ts';
import type { InterceptorLike, ToolCall, ToolInterceptor } from '../chain/types.ts';
import type { ToolError } from '../errors/tool-error.ts';
import { withAvailable } from '../tool/available.ts';
import { copyTool } from '../tool/copy-tool.ts';
import { logLeftOut } from '../tool/left-out.ts';
import { isTool } from '../tool/define-tool.ts';
import type { AnyTool, AvailabilityCheck, ToolsDeps } from '../tool/types.ts';
import { loadAbortError, raceSignal } from '../executor/race-signal.ts';
import type { Folded } from './folded.ts';
import { checked, listedNames } from './checked.ts';
import { type Lookups, listOnce, visit } from './cycle.ts';
import { delegatingResolver, staticResolver, type ToolResolver } from './resolvers.ts';

/** What happens to a failed call: `report` it to the model as a readable error (default), or `throw` it. */
export type ErrorPolicy = 'report' | 'throw';

/** Decides per failure whether it goes to the model or is thrown to the caller. */
export type ErrorProcessor = ErrorPolicy | ((error: ToolError, call: ToolCall) => ErrorPolicy);

/** Options for {@link createRegistry}. `TDeps` types the run that `available` is asked with. */
export interface RegistryOptions<TDeps = unknown> {
  readonly tools?: readonly AnyTool[];
  readonly resolvers?: readonly ToolResolver[];
  /**
   * Interceptors for every tool of this registry (after the global ones, before the tool's own), wherever it is used:
   * nested in another registry, inside that one's.
   */
  readonly interceptors?: readonly InterceptorLike[];
  /** What happens to a failed call of its tools (default `'report'`); nested in another registry, set here, it wins. */
  readonly onError?: ErrorProcessor;
  /**
   * Whether a run may see and call this registry's tools at all (an admin module, a paid plan): every tool it resolves,
   * from its list or its resolvers (other registries included), is available only when this says `true` AND the
   * tool's own `policy.available` does. Asked first, fail closed; hidden tools are unknown tools, as with the tool's own.
   */
  readonly available?: AvailabilityCheck<TDeps> | undefined;
  /**
   * Receives each tool that {@link ToolRegistry.tools} could not load (a lazy module that failed, a resolver that threw),
   * which is then left out of the list, so that one broken tool does not take every turn down with it. A call of it still
   * fails alone, with the load error. Default: `console.error`. A handler that throws makes `tools()` reject with that
   * error: `(error) => { throw error; }` checks at startup that every tool loads.
   */
  readonly onLoadError?: ((error: unknown, name: string) => void) | undefined;
}

/**
 * A set of tools with unique names, its interceptors and its error policy. `TDeps` is what its tools need in
 * `ctx.run.deps` (from `createRegistry({ tools })` with `withDeps` tools; `unknown` otherwise), so that an executor or
 * chat agent made from it is typed by them.
 */
export interface ToolRegistry<TDeps = unknown> extends ToolResolver {
  readonly interceptors: readonly ToolInterceptor[];
  readonly onError: ErrorProcessor;
  /**
   * Every tool, loading lazy ones (to describe them to the model). A tool that cannot be loaded is left out and given
   * to {@link RegistryOptions.onLoadError}; so is one still loading when `signal` aborts (a `timeout` or `aborted` `ToolError`).
   */
  tools(options?: { readonly signal?: AbortSignal | undefined }): Promise<readonly AnyTool[]>;
  /** Types only: the deps its tools need. Never set at run time. */
  readonly '~deps'?: TDeps;
}

/**
 * Creates a registry from tools and resolvers. Duplicate names throw `duplicate-tool` here. Made from a list of
 * `withDeps` tools, it is typed by the deps they need (tools from resolvers are only known at run time), and so is the
 * run its `available` is asked with; without such tools, by the run `available` is written for.
 */
export function createRegistry<const TTools extends readonly AnyTool[]>(
  options: RegistryOptions<ToolsDeps<TTools>> & { readonly tools: TTools },
): ToolRegistry<ToolsDeps<TTools>>;
export function createRegistry<TDeps = unknown>(options?: RegistryOptions<TDeps>): ToolRegistry<TDeps>;
/* @__NO_SIDE_EFFECTS__ */
export function createRegistry(options: RegistryOptions = {}): ToolRegistry {
  const { available, onError, onLoadError = logLeftOut } = options;
  if (available !== undefined && typeof available !== 'function') throw new TypeError('createRegistry: available must be a function (run) => boolean.');
  if (typeof onLoadError !== 'function') throw new TypeError('createRegistry: onLoadError must be a function (error, name) => void.');
  const interceptors = (options.interceptors ?? []).map(toInterceptor);
  // Each tool is handed out as a copy with this registry's interceptors before its own, `available` AND-ed into its
  // `policy.available` and this registry's `onError` unless one nested deeper set one: so they go wherever the tool goes
  // (a registry containing this one wraps the copy in turn). Made once per tool: the same object on every lookup (the
  // executor builds a tool's chain once per tool object). A registry with none of the three hands out the tools themselves.
  const copies = new WeakMap<AnyTool, AnyTool>();
  const fold = (tool: AnyTool | undefined): AnyTool | undefined => {
    if (tool === undefined || !(available || onError || interceptors.length)) return tool;
    let out = copies.get(tool);
    if (out === undefined) {
      out = copyTool(available === undefined ? tool : withAvailable(tool, available), {
        interceptors: { value: [...interceptors, ...tool.interceptors], enumerable: true },
        '~onError': { value: (tool as Folded)['~onError'] ?? onError },
      });
      // A copy looked up again (its own list's, through a resolver of this registry) is not copied again.
      copies.set(tool, out).set(out, out);
    }
    return out;
  };
  // Its own list is folded now (a list that is not one of tools is refused by `staticResolver`).
  const own = options.tools?.map((tool) => (isTool(tool) ? (fold(tool) as AnyTool) : tool));
  const resolvers = own?.length ? [staticResolver(own), ...(options.resolvers ?? [])] : [...(options.resolvers ?? [])];
  const resolver = resolvers.length === 1 ? (resolvers[0] as ToolResolver) : delegatingResolver(resolvers);
  // The names its resolvers are looking up while they run: asked for one again before they answer (A's resolver asks
  // B, B's asks A back), or found in `via` (after an `await`), the registry is in a cycle of resolvers built by hand,
  // which fails with `resolver-cycle` (a stack overflow, or a lookup that never settles, otherwise); so does a lookup of
  // a name too many lookups wait for (a cycle through a resolver of one's own that drops `via`).
  const lookups: Lookups = { asking: [], waiting: new Map() };
  // The objects its resolvers handed out that were checked to be tools: once per tool, not per lookup.
  const seen = new WeakSet<object>();
  // A registry of its own list alone hands out its Map's tools as they are: they were checked and folded when it was
  // made, and a Map finds nothing for a name that is not a string (one call per lookup instead of four).
  const resolve: ToolResolver['resolve'] = options.resolvers?.length
    ? (name, signal, via) => {
        if (typeof name !== 'string') return undefined;
        const found = visit(registry, lookups, resolver, name, signal, via);
        return found instanceof Promise ? found.then((tool) => fold(checked(name, tool, seen))) : fold(checked(name, found, seen));
      }
    : resolver.resolve;
  const registry: ToolRegistry & Folded = {
    kind: 'edgetool.resolver',
    names: options.resolvers?.length ? listOnce(() => listedNames(resolver.names())) : () => resolver.names(),
    resolve,
    interceptors,
    onError: onError ?? 'report',
    // Tells the executor that this registry's tools carry its interceptors (and its `onError`, when set here).
    '~onError': onError,
    async tools(options) {
      const signal = options?.signal;
      const load = async (name: string) => {
        try {
          const found = resolve(name, signal);
          // A resolver that ignores the signal is not waited for past it either.
          return found instanceof Promise ? await raceSignal(found, signal, (aborted) => Promise.reject(loadAbortError(aborted, name))) : found;
        } catch (error) {
          onLoadError(error, name);
          return undefined;
        }
      };
      const all = await Promise.all(registry.names().map(load));
      return all.filter((tool): tool is AnyTool => tool !== undefined);
    },
  };
  return registry;
}

/** True for registries made by {@link createRegistry}. */
export function isRegistry(value: unknown): value is ToolRegistry {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'edgetool.resolver' && 'tools' in value;
}
