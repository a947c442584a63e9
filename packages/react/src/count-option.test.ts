import { describe, expect, it } from 'vitest';
import { countOption } from './count-option.ts';

// The words of the TypeError `useEdgeChat` throws for a bad count option, as the hook calls the check (its name, its
// default and its minimum): maxAutoContinuations from 0, maxOutputBytes, maxResponseChars and maxResponseParts from 1.
const OPTIONS = [
  { name: 'maxAutoContinuations', fallback: 10, min: 0 },
  { name: 'maxOutputBytes', fallback: 256 * 1024, min: 1 },
  { name: 'maxResponseChars', fallback: 1_000_000, min: 1 },
  { name: 'maxResponseParts', fallback: 5_000, min: 1 },
] as const;

describe.each(OPTIONS)('countOption: $name', ({ name, fallback, min }) => {
  const check = (value: unknown) => () => countOption(name, value as number | undefined, fallback, min);

  it('not given: the default; a whole number from the minimum, or Infinity: as given', () => {
    expect(countOption(name, undefined, fallback, min)).toBe(fallback);
    expect(countOption(name, min, fallback, min)).toBe(min);
    expect(countOption(name, 3, fallback, min)).toBe(3);
    expect(countOption(name, Number.MAX_SAFE_INTEGER, fallback, min)).toBe(Number.MAX_SAFE_INTEGER);
    expect(countOption(name, Number.POSITIVE_INFINITY, fallback, min)).toBe(Number.POSITIVE_INFINITY);
  });

  it('below the minimum: a TypeError that names the option, the minimum and the value', () => {
    expect(check(min - 1)).toThrow(new TypeError(`useEdgeChat: ${name} must be a whole number from ${min}, or Infinity; got ${min - 1}.`));
    expect(check(-5)).toThrow(`useEdgeChat: ${name} must be a whole number from ${min}, or Infinity; got -5.`);
    expect(check(Number.NEGATIVE_INFINITY)).toThrow(`useEdgeChat: ${name} must be a whole number from ${min}, or Infinity; got -Infinity.`);
  });

  it('not a whole number, or of the wrong type (from untyped code): the same words, with what was given', () => {
    for (const [value, shown] of [
      [2.5, '2.5'],
      [Number.NaN, 'NaN'],
      [2 ** 53, '9007199254740992'],
      ['3', '3'],
      [null, 'null'],
      [true, 'true'],
      [{}, '[object Object]'],
    ] as const) {
      expect(check(value), String(shown)).toThrow(new TypeError(`useEdgeChat: ${name} must be a whole number from ${min}, or Infinity; got ${shown}.`));
    }
  });
});
