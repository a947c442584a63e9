/**
 * A count option of `useEdgeChat` checked: a whole number from `min`, or `Infinity`; `fallback` when it is not given
 * (`maxAutoContinuations`: from 0, default 10; `maxOutputBytes`: from 1, default 256 KiB; `maxResponseChars`: from 1,
 * default 1,000,000; `maxResponseParts`: from 1, default 5,000). Anything else (a fraction,
 * `NaN`, a number below `min`, a value of another type from untyped code) is a `TypeError` that names the option.
 */
export function countOption(
  name: 'maxAutoContinuations' | 'maxOutputBytes' | 'maxResponseChars' | 'maxResponseParts',
  value: number | undefined,
  fallback: number,
  min: number,
): number {
  if (value === undefined) return fallback;
  if (value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && value >= min)) return value;
  throw new TypeError(`useEdgeChat: ${name} must be a whole number from ${min}, or Infinity; got ${String(value)}.`);
}
