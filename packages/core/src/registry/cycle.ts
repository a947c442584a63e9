// Not in the barrel: how registries and delegating resolvers refuse a cycle of resolvers (a stack overflow, or a lookup
// that never settles, otherwise).
import { ToolError } from '../errors/tool-error.ts';
import type { ToolResolver } from './resolvers.ts';

/** The error of a cycle of resolvers: of a lookup of `name`, or of a listing of names when there is none. */
export function cycleError(name?: string): ToolError {
  const what = name === undefined ? 'Listing the tools' : `Resolving "${name}"`;
  const fix = 'a registry or resolver is among those it delegates to, directly or through others; take it out of them.';
  return new ToolError('resolver-cycle', `${what} went round a cycle of resolvers: ${fix}`, { toolName: name });
}

/**
 * Asks `target` for `name` on behalf of `self`, unless `self` is already looking it up: asked again before it answers
 * (`asking`: a resolver that delegates back synchronously), or found in `via` (one that does so after an `await`, passing
 * `via` on), it is a cycle, which throws `resolver-cycle`. `target` gets `via` with `self` added.
 */
export function visit(
  self: ToolResolver,
  asking: string[],
  target: ToolResolver | undefined,
  name: string,
  signal: AbortSignal | undefined,
  via: readonly ToolResolver[] | undefined,
): ReturnType<ToolResolver['resolve']> {
  if (asking.includes(name) || via?.includes(self)) throw cycleError(name);
  asking.push(name);
  try {
    return target?.resolve(name, signal, via === undefined ? [self] : [...via, self]);
  } finally {
    asking.pop();
  }
}

/** `names` that throws `resolver-cycle` when it is asked again before it returns (a resolver that lists it back). */
export function listOnce(names: () => readonly string[]): () => readonly string[] {
  let listing = false;
  return () => {
    if (listing) throw cycleError();
    listing = true;
    try {
      return names();
    } finally {
      listing = false;
    }
  };
}
