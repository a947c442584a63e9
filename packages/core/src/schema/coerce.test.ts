import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { coerceToSchema } from './coerce.ts';
import { deriveJsonSchema, type JsonSchema } from './input-schema.ts';

const coerce = (value: unknown, schema: JsonSchema) => coerceToSchema(value, schema);

describe('coerceToSchema: nullable fields', () => {
  it('coerces inside anyOf with null, the shape valibot derives for v.nullable', () => {
    const schema = deriveJsonSchema(v.object({ n: v.nullable(v.number()), flag: v.nullish(v.boolean()), label: v.nullable(v.string()) }));
    expect(schema.properties).toMatchObject({ n: { anyOf: [{ type: 'number' }, { type: 'null' }] } });
    expect(coerce({ n: '5', flag: 'true', label: '7' }, schema)).toEqual({ n: 5, flag: true, label: '7' });
    expect(coerce({ n: 'null', flag: 'null', label: 'null' }, schema)).toEqual({ n: null, flag: null, label: 'null' });
    expect(coerce({ n: null, flag: false, label: null }, schema)).toEqual({ n: null, flag: false, label: null });
    expect(coerce({ n: '5x', flag: 'yes', label: 'a' }, schema)).toEqual({ n: '5x', flag: 'yes', label: 'a' });
  });

  it('coerces with a type array, as other converters write nullable', () => {
    const schema = { type: 'object', properties: { n: { type: ['integer', 'null'] }, flag: { type: ['boolean', 'null'] } } };
    expect(coerce({ n: '5', flag: 'false' }, schema)).toEqual({ n: 5, flag: false });
    expect(coerce({ n: 'null', flag: 'null' }, schema)).toEqual({ n: null, flag: null });
    expect(coerce({ n: '5.5', flag: 'NULL' }, schema)).toEqual({ n: '5.5', flag: 'NULL' }); // not an integer; only the exact "null"
  });

  it('follows oneOf and nested branches, and nullable objects and arrays', () => {
    expect(coerce('3', { oneOf: [{ type: 'integer' }, { type: 'null' }] })).toBe(3);
    expect(coerce('3', { anyOf: [{ anyOf: [{ type: 'boolean' }, { type: 'number' }] }, { type: 'null' }] })).toBe(3);
    const schema = deriveJsonSchema(v.object({ order: v.nullable(v.object({ qty: v.number() })), ids: v.nullable(v.array(v.number())) }));
    expect(coerce({ order: { qty: '2' }, ids: ['1', '2'] }, schema)).toEqual({ order: { qty: 2 }, ids: [1, 2] });
  });

  it('leaves a value alone where a branch may take it as it is or several branches may hold it', () => {
    expect(coerce('5', deriveJsonSchema(v.union([v.string(), v.number()])))).toBe('5');
    expect(coerce('5', deriveJsonSchema(v.union([v.literal('5'), v.number()])))).toBe('5');
    expect(coerce('5', deriveJsonSchema(v.union([v.unknown(), v.number()])))).toBe('5');
    expect(coerce('5', { anyOf: [true, { type: 'number' }] })).toBe('5');
    expect(coerce('5', deriveJsonSchema(v.union([v.literal('4'), v.number()])))).toBe(5);
    const twoObjects = deriveJsonSchema(v.union([v.object({ a: v.number() }), v.object({ a: v.string() })]));
    expect(coerce({ a: '1' }, twoObjects)).toEqual({ a: '1' });
    expect(coerce({ a: '1' }, { type: 'object', properties: { a: true } })).toEqual({ a: '1' });
  });
});

describe('coerceToSchema: prototype keys', () => {
  it('never writes __proto__ (no prototype pollution), even for arguments that reach it with one', () => {
    const schema = deriveJsonSchema(v.record(v.string(), v.number()));
    const coerced = coerce(JSON.parse('{"__proto__":{"polluted":true},"a":"1"}'), schema) as Record<string, unknown>;
    expect(Object.getPrototypeOf(coerced)).toBe(Object.prototype);
    expect(coerced.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
