/** A typed key for attributes on a {@link ToolContext} or {@link RunContext}; identity, not name, decides. */
export interface ContextKey<T> {
  readonly id: symbol;
  readonly name: string;
  /** Phantom field carrying the value type; never set. */
  readonly __type?: T;
}

/** Creates a typed context key. Two keys with the same name are still different keys. */
/* @__NO_SIDE_EFFECTS__ */
export function contextKey<T>(name: string): ContextKey<T> {
  return { id: Symbol(name), name };
}

/** A small typed attribute map; the `Map` is created on first `set` (most calls never need it). */
export class Attributes {
  private declare attrs: Map<symbol, unknown> | undefined;

  // Assigned, not an initialized class field: V8 defines such a field on every new object (define semantics), which
  // cost each call context (one per tool call) about 30 ns with CallContext's `attempt` (executor bench, paired).
  constructor() {
    this.attrs = undefined;
  }

  /** The value stored under `key`, or `undefined`. */
  get<T>(key: ContextKey<T>): T | undefined {
    return this.attrs?.get(key.id) as T | undefined;
  }

  /** Stores `value` under `key`. */
  set<T>(key: ContextKey<T>, value: T): void {
    if (this.attrs === undefined) this.attrs = new Map();
    this.attrs.set(key.id, value);
  }

  /** Whether `key` has a value. */
  has(key: ContextKey<unknown>): boolean {
    return this.attrs?.has(key.id) ?? false;
  }

  /** Removes `key`. */
  delete(key: ContextKey<unknown>): boolean {
    return this.attrs?.delete(key.id) ?? false;
  }
}
