import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ToolContext } from '../chain/types.ts';
import { defineTool } from '../tool/define-tool.ts';
import { isToolName } from '../tool/tool-name.ts';
import type { AnyTool, ToolDefinition } from '../tool/types.ts';

/**
 * What `@tool({...})` takes: a tool definition without `execute` (the method is the body); `name` defaults to the method
 * name. `TOutput` is what the method returns, as its `output` schema (or `toModelOutput`'s parameter) says.
 */
export type ToolMethodOptions<TSchema extends StandardSchemaV1, TOutput = unknown> = Omit<ToolDefinition<TSchema, TOutput>, 'execute' | 'name'> & {
  readonly name?: string;
};

interface Marked {
  readonly options: ToolMethodOptions<StandardSchemaV1, unknown>;
  readonly methodName: string;
}

// The @tool method names of each object, recorded by the decorator's initializer: an instance's as it is built (its
// classes' @tool methods, base class first, so a subclass's @tool on the same name replaces the base's), a class's static
// ones when it is defined. Keyed by name, not by function: a decorator written above @tool replaces the function, and
// scanTools runs whatever the object has under the name. No `Symbol.metadata` needed (TypeScript passes no metadata when
// it is undefined at run time).
const recorded = new WeakMap<object, Map<PropertyKey, Marked>>();
// The method names @tool was applied to, instance and static apart, per class where the compiler passes decorator
// metadata (esbuild, native decorators) and per function where it does not (TypeScript without `Symbol.metadata`): a
// second @tool on one method throws, with other decorators between the two or, per function, right above the first.
const applied = new WeakMap<object, Set<PropertyKey>>();
const appliedStatic = new WeakMap<object, Set<PropertyKey>>();
// The prototypes of the instances @tool recorded methods for (the class they were built by). An object of one of them
// with no record of its own was not built by `new` (a Proxy of an instance, `Object.create()`): scanTools refuses it.
const built = new WeakSet<object>();
// The instances scanTools has scanned. A @tool method recorded for one of them later was set up after the scan: a base
// class's field or constructor scanned the instance before a subclass's methods (their initializers run after `super()`).
const scanned = new WeakSet<object>();

/**
 * Standard (TC39) method decorator that marks a method as a tool; `scanTools` collects them.
 * The method receives the validated, typed input and the call's context; with an `output` schema, it must return (or
 * resolve to) what the schema gives, and `toModelOutput` gets that.
 */
export function tool<const TSchema extends StandardSchemaV1, TOutput = unknown>(
  options: ToolMethodOptions<TSchema, TOutput>,
): <This>(
  method: (
    this: This,
    input: StandardSchemaV1.InferOutput<TSchema>,
    ctx: ToolContext<StandardSchemaV1.InferOutput<TSchema>>,
  ) => NoInfer<Awaited<TOutput>> | Promise<NoInfer<Awaited<TOutput>>>,
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
    // Refused here, where it is written (scanTools would refuse it only when it scans the method, without saying which).
    const name = options.name ?? context.name;
    if (!isToolName(name)) {
      const fix = options.name === undefined ? ': give it a `name`.' : '.';
      throw new TypeError(`@tool() on the method ${String(context.name)}: ${JSON.stringify(name)} is no tool name (1-64 letters, digits, "_" or "-")${fix}`);
    }
    const key = context.name;
    const owner: object = (context.metadata as object | undefined) ?? method;
    const taken = context.static ? appliedStatic : applied;
    const keys = taken.get(owner) ?? new Set();
    if (keys.has(key)) throw new TypeError(`@tool() twice on the method ${String(key)}: give each tool a method of its own.`);
    taken.set(owner, keys.add(key));
    const mark: Marked = { options: options as ToolMethodOptions<StandardSchemaV1, unknown>, methodName: String(key) };
    // `this` is the instance being built (an instance method) or the class (a static one).
    const isStatic = context.static;
    context.addInitializer(function () {
      if (!isStatic && scanned.has(this as object)) {
        const of = (this as { constructor?: { name?: unknown } }).constructor?.name;
        throw new TypeError(
          `@tool() method ${String(key)}${typeof of === 'string' && of ? ` of ${of}` : ''} was set up after scanTools() ran on the instance ` +
            "(in a base class's constructor or field, which run before a subclass's): scan the instance once it is built, " +
            'for example in a getter: get tools() { return scanTools(this); }.',
        );
      }
      recorded.set(this as object, (recorded.get(this as object) ?? new Map()).set(key, mark));
      if (!isStatic) built.add(Object.getPrototypeOf(this));
    });
  };
}

/** Options for {@link scanTools}. */
export interface ScanOptions {
  /** Keep only these tool names. */
  readonly only?: readonly string[];
}

function collect(holder: object, bindTo: object, seen: Set<PropertyKey>, out: AnyTool[], only: ReadonlySet<string> | undefined): void {
  for (const [key, mark] of recorded.get(holder) ?? []) {
    if (seen.has(key)) continue;
    seen.add(key); // A subclass's static @tool method of the same name wins over its base class's.
    const name = mark.options.name ?? mark.methodName;
    if (only && !only.has(name)) continue;
    // The method the object has now: wrapped by the decorators above @tool, or a subclass's override.
    const method: unknown = (bindTo as Record<PropertyKey, unknown>)[key];
    if (typeof method !== 'function') throw new TypeError(`scanTools: the @tool method ${String(key)} is not a function on this object.`);
    out.push(defineTool({ ...mark.options, name, execute: (input, ctx) => method.call(bindTo, input, ctx) }) as AnyTool);
  }
}

/**
 * Turns the `@tool` methods of an object into tools bound to it: instance methods along the
 * prototype chain plus the static methods of its class. Pass a class to get its static tools only.
 * Throws for a Proxy of an instance (Vue `reactive()`, a MobX observable): scan the instance itself.
 */
export function scanTools(target: object, options: ScanOptions = {}): AnyTool[] {
  const only = options.only ? new Set(options.only) : undefined;
  const out: AnyTool[] = [];
  const ctor = typeof target === 'function' ? target : (target as { constructor?: unknown }).constructor;
  if (typeof target !== 'function') {
    // A Proxy cannot be unwrapped, and its tools bound to it would break on the class's #private fields: refused, not [].
    if (!recorded.has(target) && built.has(Object.getPrototypeOf(target))) {
      throw new TypeError('scanTools: a Proxy of an instance (Vue reactive(), MobX observable) or an Object.create() copy has no tools: scan the instance.');
    }
    scanned.add(target);
    collect(target, target, new Set(), out, only);
  }
  if (typeof ctor === 'function') {
    // Static tools, inherited ones included, bound to the class they were called on.
    const seen = new Set<PropertyKey>();
    for (let cls: object | null = ctor; cls; cls = Object.getPrototypeOf(cls)) collect(cls, ctor, seen, out, only);
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
