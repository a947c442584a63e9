import { toInterceptor } from '../chain/interceptor.ts';
import type { InterceptorLike, ToolCall, ToolInterceptor } from '../chain/types.ts';
import type { ToolError } from '../errors/tool-error.ts';
import type { AnyTool } from '../tool/types.ts';
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

/** A set of tools with unique names, its interceptors and its error policy. */
export interface ToolRegistry extends ToolResolver {
  readonly interceptors: readonly ToolInterceptor[];
  readonly onError: ErrorProcessor;
  /** Every tool, loading lazy ones (to describe them to the model). */
  tools(): Promise<readonly AnyTool[]>;
}

/** Creates a registry from tools and resolvers. Duplicate names throw `duplicate-tool` here. */
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
