import { canonicalJson } from '@edgetool/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonForm, toJsonValue } from './proofs.ts';

/** The canonical text of a value, or the error's type when it has none. */
function canonical(make: () => unknown): string {
  try {
    return canonicalJson(make());
  } catch (error) {
    return `throws ${(error as Error).constructor.name}`;
  }
}

describe('jsonForm: the JSON form of a seal subject without a round trip for JSON data', () => {
  it('canonicalises exactly as the JSON round trip does, for any value (property)', () => {
    const values = fc.anything({
      withBigInt: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withTypedArray: true,
      withSparseArray: true,
      withBoxedValues: true,
      withUnicodeString: true,
    });
    fc.assert(
      fc.property(values, (value) => {
        const subject = { input: value, output: [value, { nested: value }] };
        expect(canonical(() => jsonForm(subject))).toBe(canonical(() => toJsonValue(subject)));
      }),
      { numRuns: 2000 },
    );
    // 2,000 random values take 2–4 s on this machine; a busy one needs more than the default 5 s.
  }, 30_000);

  it('returns JSON data itself (no copy) and takes the round trip for anything else', () => {
    const data = { a: [1, 'x', null, true, { b: -0 }], c: undefined };
    expect(jsonForm(data)).toBe(data);
    const date = new Date(0);
    expect(jsonForm({ when: date })).toEqual({ when: '1970-01-01T00:00:00.000Z' });
    expect(jsonForm({ n: Number.NaN, m: new Map([[1, 2]]) })).toEqual({ n: null, m: {} });
    expect(jsonForm(undefined)).toBeNull();
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => jsonForm(cycle)).toThrow(TypeError);
  });
});
