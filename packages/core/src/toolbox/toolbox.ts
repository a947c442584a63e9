import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ToolContext } from '../chain/types.ts';
import { defineTool } from '../tool/define-tool.ts';
import type { AnyTool, ToolDefinition } from '../tool/types.ts';

/** What `@tool({...})` takes: a tool definition without `execute` (the method is the body); `name` defaults to the method name. */
export type ToolMethodOptions<TSchema extends StandardSchemaV1> = Omit<ToolDefinition<TSchema, unknown>, 'execute' | 'name'> & {
  readonly name?: string;
};

interface Marked {
  readonly options: ToolMethodOptions<StandardSchemaV1>;
  readonly methodName: string;
}

// Keyed by the method function itself: no `Symbol.metadata` needed, so it works with every
// decorator implementation (native, TypeScript, esbuild) and leaves no global state behind.
const marked = new WeakMap<object, Marked>();

/**
 * Standard (TC39) method decorator that marks a method as a tool; `scanTools` collects them.
 * The method receives the validated, typed input and the call's context.
 */
export function tool<const TSchema extends StandardSchemaV1>(
  options: ToolMethodOptions<TSchema>,
): <This, TReturn>(
  method: (this: This, input: StandardSchemaV1.InferOutput<TSchema>, ctx: ToolContext<StandardSchemaV1.InferOutput<TSchema>>) => TReturn,
  context: ClassMethodDecoratorContext<This>,
) => void {
  return (method, context) => {
    // TypeScript's `experimentalDecorators` calls `(target, propertyKey, descriptor)`: the second argument is a key, not a context.
    if (typeof context !== 'object' || context === null) {
      throw new TypeError(
        '@tool() is a standard (TC39) decorator but was called as a legacy one: turn off `experimentalDecorators` in tsconfig.json ' +
          '(or compile this file without it).',
      );
    }
    if (context.kind !== 'method') throw new TypeError('@tool() can only decorate methods.');
    if (context.private) throw new TypeError(`@tool() cannot decorate the private method ${String(context.name)}.`);
    if (typeof context.name === 'symbol' && options.name === undefined) {
      throw new TypeError(`@tool() on the method ${String(context.name)} needs a \`name\`: a symbol is no tool name.`);
    }
    if (marked.has(method)) throw new TypeError(`@tool() twice on the method ${String(context.name)}: give each tool a method of its own.`);
    marked.set(method, { options: options as ToolMethodOptions<StandardSchemaV1>, methodName: String(context.name) });
  };
}

/** Options for {@link scanTools}. */
export interface ScanOptions {
  /** Keep only these tool names. */
  readonly only?: readonly string[];
}

function collect(holder: object, bindTo: object, seen: Set<PropertyKey>, out: AnyTool[], only: ReadonlySet<string> | undefined): void {
  // Symbol keys too: a method named by a symbol is a tool under the name its decorator gives it.
  for (const key of Reflect.ownKeys(holder)) {
    if (key === 'constructor' || seen.has(key)) continue;
    const descriptor = Object.getOwnPropertyDescriptor(holder, key);
    const value: unknown = descriptor?.value;
    if (typeof value !== 'function') continue;
    seen.add(key); // The most derived definition of a name wins, decorated or not.
    const mark = marked.get(value);
    if (mark === undefined) continue;
    const name = mark.options.name ?? mark.methodName;
    if (only && !only.has(name)) continue;
    const method = value as (input: unknown, ctx: ToolContext) => unknown;
    out.push(defineTool({ ...mark.options, name, execute: (input, ctx) => method.call(bindTo, input, ctx) }) as AnyTool);
  }
}

/**
 * Turns the `@tool` methods of an object into tools bound to it: instance methods along the
 * prototype chain plus the static methods of its class. Pass a class to get its static tools only.
 */
export function scanTools(target: object, options: ScanOptions = {}): AnyTool[] {
  const only = options.only ? new Set(options.only) : undefined;
  const out: AnyTool[] = [];
  const ctor = typeof target === 'function' ? target : (target as { constructor?: unknown }).constructor;
  if (typeof target !== 'function') {
    const seen = new Set<PropertyKey>();
    for (let proto = Object.getPrototypeOf(target); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      collect(proto, target, seen, out, only);
    }
  }
  if (typeof ctor === 'function' && ctor !== Object) {
    // Static tools, inherited ones included, bound to the class they were called on.
    // Nothing seen yet: a class's own `name`, `length` and `prototype` are no functions, unless a static method is named so.
    const seen = new Set<PropertyKey>();
    for (let cls: object | null = ctor; cls && cls !== Function.prototype; cls = Object.getPrototypeOf(cls)) collect(cls, ctor, seen, out, only);
  }
  const names = new Set<string>();
  for (const t of out) {
    if (names.has(t.name)) throw new TypeError(`scanTools: two methods define the tool "${t.name}".`);
    names.add(t.name);
  }
  if (only) {
    const missing = [...only].filter((name) => !names.has(name));
    if (missing.length) throw new TypeError(`scanTools: no @tool method named ${missing.map((m) => `"${m}"`).join(', ')}.`);
  }
  return out;
}
