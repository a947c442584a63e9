// Not in the barrel: how registries and the executor check what resolvers of one's own (and registries built by hand)
// hand out, so that a wrong answer is a failure of the call, never a crash or another tool run in its place.
import { isTool } from '../tool/define-tool.ts';
import type { AnyTool } from '../tool/types.ts';

/**
 * What a resolver handed out for `name`, checked (resolvers may be user code): `null` is no tool, as `undefined` is;
 * anything but a tool of that name throws, which the executor reports as that call's failure instead of rejecting.
 * `seen` holds the objects already found to be tools: their shape is checked once, their name on every lookup.
 */
export function checked(name: string, found: unknown, seen: WeakSet<object>): AnyTool | undefined {
  if (found === undefined || found === null) return undefined;
  if (!seen.has(found as object)) {
    if (!isTool(found)) throw new TypeError(`The resolver of "${name}" returned something that is not a tool made by defineTool().`);
    seen.add(found);
  }
  const tool = found as AnyTool;
  if (tool.name !== name) throw new TypeError(`The resolver of "${name}" returned the tool "${tool.name}".`);
  return tool;
}

/**
 * The names a resolver's `names()` listed, checked: anything but an array throws a `TypeError` (a string was read letter
 * by letter); an entry that is not a string (no model can call it) and a repeat (the same tool twice) are left out.
 */
export function listedNames(names: unknown): string[] {
  if (!Array.isArray(names)) throw new TypeError('A resolver\'s names() returned something that is not a list of names.');
  return [...new Set(names.filter((name): name is string => typeof name === 'string'))];
}
