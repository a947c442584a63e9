// Not in the barrel: how a registry hands out its tools changed (`withAvailable`, its interceptors).
import type { AnyTool } from './types.ts';

/** A copy of `tool` with `changes` (property descriptors): the rest is its own, the same `execute`, the same lazy JSON Schema. */
export function copyTool(tool: AnyTool, changes: PropertyDescriptorMap): AnyTool {
  // Descriptors, not a spread: a spread would read the lazy `jsonSchema` getter now.
  return Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(tool), ...changes }) as AnyTool;
}
