import { toInterceptor } from '../chain/interceptor.ts';
import type { InterceptorLike, ToolCall, ToolInterceptor } from '../chain/types.ts';
import type { ToolError } from '../errors/tool-error.ts';
import { withAvailable } from '../tool/available.ts';
import { isTool } from '../tool/define-tool.ts';
import type { AnyTool, AvailabilityCheck, ToolsDeps } from '../tool/types.ts';
import { loadAbortError, raceSignal } from '../executor/race-signal.ts';
import { delegatingResolver, staticResolver, type ToolResolver } from './resolvers.ts';

/** What happens to a failed call: `report` it to the model as a readable error (default), or `throw` it. */
export type ErrorPolicy = 'report' | 'throw';

/** Decides per failure whether it goes to the model or is thrown to the caller. */
export type ErrorProcessor = ErrorPolicy | ((error: ToolError, call: ToolCall) => ErrorPolicy);

/** Options for {@link createRegistry}. `TDeps` types the run that `available` is asked with. */
export interface RegistryOptions<TDeps = unknown> {
  readonly tools?: readonly AnyTool[];
  readonly resolvers?: readonly ToolResolver[];
  /** Interceptors for every tool of this registry (after the global ones, before the tool's own). */
  readonly interceptors?: readonly InterceptorLike[];
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
  const { available, onLoadError = logLoadError } = options;
  if (available !== undefined && typeof available !== 'function') throw new TypeError('createRegistry: available must be a function (run) => boolean.');
  if (typeof onLoadError !== 'function') throw new TypeError('createRegistry: onLoadError must be a function (error, name) => void.');
  const resolvers = options.tools?.length ? [staticResolver(options.tools), ...(options.resolvers ?? [])] : [...(options.resolvers ?? [])];
  const resolver = resolvers.length === 1 ? (resolvers[0] as ToolResolver) : delegatingResolver(resolvers);
  // With `available`, each tool is handed out as a copy that asks it too, made once per tool: the same object on every
  // lookup (the executor builds a tool's chain once per tool object), and a nested registry's own check stays inside.
  const gated = new WeakMap<AnyTool, AnyTool>();
  const gate = (tool: AnyTool | undefined): AnyTool | undefined => {
    if (tool === undefined || available === undefined) return tool;
    let out = gated.get(tool);
    if (out === undefined) {
      out = withAvailable(tool, available);
      gated.set(tool, out);
    }
    return out;
  };
  // A registry of its own list alone hands out its Map's tools as they are: they were checked when it was made, none is
  // gated, and a Map finds nothing for a name that is not a string (one call per lookup instead of four).
  const resolve =
    options.resolvers?.length || available !== undefined
      ? (name: string, signal?: AbortSignal) => {
          if (typeof name !== 'string') return undefined;
          const found = resolver.resolve(name, signal);
          return found instanceof Promise ? found.then((tool) => gate(checked(name, tool))) : gate(checked(name, found));
        }
      : resolver.resolve;
  return {
    kind: 'edgetool.resolver',
    names: () => resolver.names(),
    resolve,
    interceptors: (options.interceptors ?? []).map(toInterceptor),
    onError: options.onError ?? 'report',
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
      const all = await Promise.all(resolver.names().map(load));
      return all.filter((tool): tool is AnyTool => tool !== undefined);
    },
  };
}

/** The default {@link RegistryOptions.onLoadError}: the server's log, since the model is not told. */
function logLoadError(error: unknown, name: string): void {
  console.error(`edgetool: the tool "${name}" could not be loaded and is left out of the tools the model is shown:`, error);
}

/**
 * What a resolver handed out for `name`, checked (resolvers may be user code): `null` is no tool, as `undefined` is;
 * anything but a tool of that name throws, which the executor reports as that call's failure instead of rejecting.
 */
function checked(name: string, found: unknown): AnyTool | undefined {
  if (found === undefined || found === null) return undefined;
  if (!isTool(found)) throw new TypeError(`The resolver of "${name}" returned something that is not a tool made by defineTool().`);
  if (found.name !== name) throw new TypeError(`The resolver of "${name}" returned the tool "${found.name}".`);
  return found;
}

/** True for registries made by {@link createRegistry}. */
export function isRegistry(value: unknown): value is ToolRegistry {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'edgetool.resolver' && 'tools' in value;
}
