// The executor's fast path of argument parsing against parseArguments: on any JSON value's text (pretty-printed or
// not), with a key that could change a prototype, a backslash, blank or malformed text, and values that are not text,
// plainArguments either gives what parseArguments gives as its value or leaves the arguments to it (UNREAD).
// Runs per runtime: 500 values + 500 texts. Failures print fast-check's seed and path.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseArguments } from './parse-arguments.ts';
import { plainArguments, UNREAD } from './plain-arguments.ts';

const meta = { toolName: 't', callId: 'c1' };

/** Text any argument may be: JSON of any value, with the pieces the fast path must leave alone put in somewhere. */
const text = fc.oneof(
  fc.json(),
  fc.tuple(fc.json(), fc.nat(), fc.constantFrom('__proto__', 'constructor', '\\', '\\u005f', ' ', '', '{', '"', 'x')).map(([json, at, piece]) => {
    const i = at % (json.length + 1);
    return json.slice(0, i) + piece + json.slice(i);
  }),
  fc.constantFrom('', '   ', '\n', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}', '{"a\\\\":1}', '{"a":', 'null'),
);

/** A primitive, or an object of primitives whose keys are neither prototype key and do not end in a backslash. */
function isFlat(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) return false;
  return Object.entries(value).every(
    ([key, item]) => key !== '__proto__' && key !== 'constructor' && !key.endsWith('\\') && (typeof item !== 'object' || item === null),
  );
}

describe('plainArguments', () => {
  it('gives parseArguments’ value for text it reads, and leaves every other text to it', () => {
    fc.assert(
      fc.property(text, (raw) => {
        const fast = plainArguments(raw);
        const full = parseArguments(raw, meta);
        if (fast === UNREAD) {
          // Left alone: text whose value needs a check (an array, a nested object, a prototype key or a key ending in a
          // backslash) and whose text may spell one, or that parseArguments refuses or reads as {}.
          const plain = raw.trim() !== '' && full.ok && (isFlat(full.value) || !/__proto__|constructor|\\/.test(raw));
          expect(plain).toBe(false);
          return;
        }
        expect(full.ok).toBe(true);
        expect(fast).toStrictEqual((full as { value: unknown }).value);
      }),
      { numRuns: 1000 },
    );
  });

  it('reads flat text whatever its values spell (a backslash, either prototype word) and nested text that spells neither, and leaves the rest', () => {
    const read = ['{"note":"line 1\\nline 2","path":"C:\\\\tmp"}', '{"word":"constructor","other":"__proto__"}', '"a\\"b"', '42'];
    for (const raw of read) expect(plainArguments(raw)).toStrictEqual(JSON.parse(raw));
    const unread = ['{"__proto__":1}', '{"constructor":1}', '{"a\\\\":1}', '', ' ', '{"a":'];
    for (const raw of unread) expect(plainArguments(raw)).toBe(UNREAD);
    // Nested values are left only when their text needs parseArguments' checks (either word, a backslash); without them
    // they are read here, so the executor parses them once (parseArguments would only `JSON.parse` them again).
    const nested = ['{"a":{"b":1}}', '{"a":[1]}', '[1,2]'];
    for (const raw of nested) expect(plainArguments(raw)).toStrictEqual(JSON.parse(raw));
    const nestedSuspect = ['{"a":{"b":"x\\ny"}}', '{"a":{"__proto__":1}}', '[{"constructor":1}]', '{"a":{"c":"constructor"}}'];
    for (const raw of nestedSuspect) expect(plainArguments(raw)).toBe(UNREAD);
  });

  it('leaves arguments that are not text to parseArguments (undefined means {}, objects are checked for keys)', () => {
    for (const raw of [undefined, null, 1, {}, { __proto__: null }, [], JSON.parse('{"__proto__":{}}')]) expect(plainArguments(raw)).toBe(UNREAD);
  });
});
