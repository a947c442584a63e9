import { toInterceptor } from '../chain/interceptor.ts';
import type { InterceptorLike, ToolCall, ToolInterceptor } from '../chain/types.ts';
import type { ToolError } from '../errors/tool-error.ts';
import type { AnyTool, ToolsDeps } from '../tool/types.ts';
import { delegatingResolver, staticResolver, type ToolResolver } from './resolvers.ts';

/** What happens to a failed call: `report` it to the model as a readable error (default), or `throw` it. */
export type ErrorPolicy = 'report' | 'throw';

/** Decides per failure whether it goes to the model or is thrown to the caller. */
export type ErrorProcessor = ErrorPolicy | ((error: ToolError, call: ToolCall) => ErrorPolicy);

/** Options for {@link createRegistry}. */
export interface RegistryOptions {
  readonly tools?: readonly AnyTool[];
  readonly resolvers?: readonly ToolResolver[];
  /** Interceptors for every tool of this registry (after the global ones, before the tool's own). */
  readonly interceptors?: readonly InterceptorLike[];
  readonly onError?: ErrorProcessor;
}

/**
 * A set of tools with unique names, its interceptors and its error policy. `TDeps` is what its tools need in
 * `ctx.run.deps` (from `createRegistry({ tools })` with `withDeps` tools; `unknown` otherwise), so that an executor or
 * chat agent made from it is typed by them.
 */
export interface ToolRegistry<TDeps = unknown> extends ToolResolver {
  readonly interceptors: readonly ToolInterceptor[];
  readonly onError: ErrorProcessor;
  /** Every tool, loading lazy ones (to describe them to the model). */
  tools(): Promise<readonly AnyTool[]>;
  /** Types only: the deps its tools need. Never set at run time. */
  readonly '~deps'?: TDeps;
}

/**
 * Creates a registry from tools and resolvers. Duplicate names throw `duplicate-tool` here. Made from a list of
 * `withDeps` tools, it is typed by the deps they need (tools from resolvers are only known at run time).
 */
export function createRegistry<const TTools extends readonly AnyTool[]>(options: RegistryOptions & { readonly tools: TTools }): ToolRegistry<ToolsDeps<TTools>>;
export function createRegistry(options?: RegistryOptions): ToolRegistry;
/* @__NO_SIDE_EFFECTS__ */
export function createRegistry(options: RegistryOptions = {}): ToolRegistry {
  const resolvers = options.tools?.length ? [staticResolver(options.tools), ...(options.resolvers ?? [])] : [...(options.resolvers ?? [])];
  const resolver = resolvers.length === 1 ? (resolvers[0] as ToolResolver) : delegatingResolver(resolvers);
  return {
    kind: 'edgetool.resolver',
    names: () => resolver.names(),
    resolve: (name) => (typeof name === 'string' ? resolver.resolve(name) : undefined),
    interceptors: (options.interceptors ?? []).map(toInterceptor),
    onError: options.onError ?? 'report',
    async tools() {
      const all = await Promise.all(resolver.names().map((name) => resolver.resolve(name)));
      return all.filter((tool): tool is AnyTool => tool !== undefined);
    },
  };
}

/** True for registries made by {@link createRegistry}. */
export function isRegistry(value: unknown): value is ToolRegistry {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'edgetool.resolver' && 'tools' in value;
}
