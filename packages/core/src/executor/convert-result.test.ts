import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineTool } from '../tool/define-tool.ts';
import { createExecutor } from './executor.ts';

/** Runs a tool that returns `output` and gives the call's outcome type, error code and model text. */
async function returning(output: () => unknown) {
  const tool = defineTool({ name: 'give', description: '', input: v.object({}), execute: output });
  const result = await createExecutor({ registry: [tool] }).execute({ id: 'c1', name: 'give', arguments: {} });
  return { type: result.outcome.type, code: result.outcome.type === 'error' ? result.outcome.error.code : undefined, content: result.content };
}

describe('an output JSON writes as "{}" although it holds something', () => {
  it.each([
    ['a Map', () => new Map([['A-1001', 'shipped']]), /a Map \(return an object or an array: Object\.fromEntries\(map\), \[\.\.\.set\]\)/],
    ['a Set', () => new Set(['A-1001']), /a Set \(return an object or an array/],
    ['a generator', () => (function* () { yield 1; })(), /an iterator or a generator \(return its value; report progress with ctx\.progress\(\)\)/],
    ['an async generator', () => (async function* () { yield 1; })(), /an iterator or a generator/],
    ['an Error returned rather than thrown', () => new RangeError('A-1001 is not known'), /an Error returned rather than thrown/],
    ['an instance whose state is in # fields', () => new (class Order { readonly #id = 'A-1001'; id(): string { return this.#id; } })(), /an instance of Order with no JSON fields \(give it a toJSON\(\), or return a plain object\)/],
  ])('%s is invalid-output that says what it was, not a silent "{}"', async (_what, output, message) => {
    const result = await returning(output);
    expect(result).toMatchObject({ type: 'error', code: 'invalid-output' });
    expect(result.content).toMatch(/^Error \(invalid-output\): The result of "give" could not be converted for the model: /);
    expect(result.content).toMatch(message);
    expect(result.content).toMatch(/converts to "\{\}" in JSON, which tells the model nothing/);
  });

  it('an empty plain object, one without a prototype and an instance with fields or a toJSON still succeed', async () => {
    expect(await returning(() => ({}))).toEqual({ type: 'success', code: undefined, content: '{}' });
    expect(await returning(() => Object.create(null))).toEqual({ type: 'success', code: undefined, content: '{}' });
    class Order {
      readonly id = 'A-1001';
    }
    expect(await returning(() => new Order())).toEqual({ type: 'success', code: undefined, content: '{"id":"A-1001"}' });
    class Masked {
      readonly #id = 'A-1001';
      toJSON(): object {
        return { id: this.#id };
      }
    }
    expect(await returning(() => new Masked())).toEqual({ type: 'success', code: undefined, content: '{"id":"A-1001"}' });
    expect(await returning(() => new Map())).toMatchObject({ type: 'error', code: 'invalid-output' });
    // An array, a date and an empty class's JSON are what they say.
    expect(await returning(() => [])).toEqual({ type: 'success', code: undefined, content: '[]' });
    expect(await returning(() => new Date(0))).toEqual({ type: 'success', code: undefined, content: '"1970-01-01T00:00:00.000Z"' });
  });
});
