// Not in the barrel: how registries and delegating resolvers refuse a cycle of resolvers (a stack overflow, or a lookup
// that never settles, otherwise).
import { ToolError } from '../errors/tool-error.ts';
import type { ToolResolver } from './resolvers.ts';

/** The error of a cycle of resolvers: of a lookup of `name`, or of a listing of names when there is none. */
export function cycleError(name?: string, waiting?: number): ToolError {
  const what = name === undefined ? 'Listing the tools' : `Resolving "${name}"`;
  // Met by counting: a resolver of one's own in the cycle dropped `via` after an `await` (see `NESTED_LOOKUPS`).
  const count = waiting === undefined ? '' : ` (${waiting} lookups of it were waiting on one another; a resolver of one's own must pass \`via\` on)`;
  const fix = 'a registry or resolver is among those it delegates to, directly or through others; take it out of them.';
  return new ToolError('resolver-cycle', `${what} went round a cycle of resolvers${count}: ${fix}`, { toolName: name });
}

/**
 * How many lookups of one name a registry or delegating resolver lets wait at once. A cycle through a resolver of
 * one's own that drops `via` after an `await` adds one for every round and none of them ends: past this many, the next
 * is refused as a cycle, which ends them all. Calls of one tool at the same time (its module still loading) wait too,
 * so the bound is far above what one server waits on at once.
 */
export const NESTED_LOOKUPS = 1000;

/** What a registry or delegating resolver knows of its lookups under way (see `visit`). */
export interface Lookups {
  /** The names its resolvers are being asked for synchronously, innermost last. */
  readonly asking: string[];
  /** How many lookups of each name wait for an asynchronous answer. */
  readonly waiting: Map<string, number>;
}

/**
 * Asks `target` for `name` on behalf of `self`, unless `self` is already looking it up: asked again before it answers
 * (`asking`: a resolver that delegates back synchronously), or found in `via` (one that does so after an `await`, passing
 * `via` on), it is a cycle, which throws `resolver-cycle`; so is a lookup of a name `NESTED_LOOKUPS` lookups already wait
 * for (one that drops `via`). `target` gets `via` with `self` added.
 */
export function visit(
  self: ToolResolver,
  lookups: Lookups,
  target: ToolResolver | undefined,
  name: string,
  signal: AbortSignal | undefined,
  via: readonly ToolResolver[] | undefined,
): ReturnType<ToolResolver['resolve']> {
  const { asking, waiting } = lookups;
  if (asking.includes(name) || via?.includes(self)) throw cycleError(name);
  const count = waiting.get(name) ?? 0;
  if (count >= NESTED_LOOKUPS) throw cycleError(name, count);
  asking.push(name);
  let found: ReturnType<ToolResolver['resolve']>;
  try {
    found = target?.resolve(name, signal, via === undefined ? [self] : [...via, self]);
  } finally {
    asking.pop();
  }
  if (!(found instanceof Promise)) return found;
  waiting.set(name, count + 1);
  return found.finally(() => {
    const left = (waiting.get(name) as number) - 1;
    if (left) waiting.set(name, left);
    else waiting.delete(name);
  });
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
