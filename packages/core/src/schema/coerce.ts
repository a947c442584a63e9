import type { JsonSchema } from './input-schema.ts';

const NUMERIC = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

function types(schema: JsonSchema): readonly unknown[] {
  const type = schema.type;
  return Array.isArray(type) ? type : type === undefined ? [] : [type];
}

/**
 * Lenient coercion for models that quote primitives: guided by the JSON Schema, turns `"3"` into 3
 * and `"true"` into true where a number or boolean is expected. Everything else is left as is,
 * and the result is still validated. Never writes `__proto__`-like keys (no prototype pollution).
 */
export function coerceToSchema(value: unknown, schema: JsonSchema | undefined): unknown {
  if (schema === undefined) return value;
  const kinds = types(schema);
  if (typeof value === 'string') {
    if (kinds.includes('string')) return value;
    if ((kinds.includes('number') || kinds.includes('integer')) && NUMERIC.test(value)) {
      const n = Number(value);
      if (Number.isFinite(n) && (!kinds.includes('integer') || kinds.includes('number') || Number.isInteger(n))) return n;
    }
    if (kinds.includes('boolean')) {
      const lower = value.trim().toLowerCase();
      if (lower === 'true') return true;
      if (lower === 'false') return false;
    }
    return value;
  }
  if (Array.isArray(value)) {
    const items = schema.items;
    if (typeof items !== 'object' || items === null || Array.isArray(items)) return value;
    return value.map((item) => coerceToSchema(item, items as JsonSchema));
  }
  if (typeof value === 'object' && value !== null) {
    const props = schema.properties;
    if (typeof props !== 'object' || props === null) return value;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      const sub = Object.hasOwn(props, key) ? ((props as Record<string, JsonSchema>)[key] as JsonSchema) : undefined;
      Object.defineProperty(out, key, { value: coerceToSchema(item, sub), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}
