import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { jsonEqual, jsonValue } from '../test-support/arbitraries.ts';
import { defineTool } from '../tool/define-tool.ts';
import { createExecutor } from './executor.ts';
import { PROTOTYPE_KEY_TEXT, parseArguments, parseJson, prototypeKeyIssues } from './parse-arguments.ts';
import { parseJsonSlowly } from './parse-json-slowly.ts';

/** The keys of an object as UTF-16 code units, so a lone surrogate or a backslash shows plainly. */
const codes = (value: unknown): string[][] => Object.keys(value as object).map((key) => [...key].map((c) => c.charCodeAt(0).toString(16)));

let primer = 0;
/**
 * Leaves behind what triggers the engine bug: an object whose keys are `<first>` then one ending in a backslash.
 * Each test uses its own first key, so tests do not depend on each other's leftovers.
 */
function prime(lastKey: string): string {
  const first = `primer_${++primer}`;
  JSON.parse(JSON.stringify({ [first]: 0, [lastKey]: 1 }));
  return first;
}

describe('parseJson: JSON.parse, without the V8 13 key bug', () => {
  it.each([
    ['a newline', '\\n', '\n'],
    ['a quote', '\\"', '"'],
    ['a unicode escape', '\\u0041', 'A'],
    ['a lone surrogate', '\\ud800', '\ud800'],
  ])('keeps a one-character key written as %s after an object had a "\\\\" key in its place', (_name, escaped, key) => {
    const first = prime('\\');
    const text = `{"${first}":0,"${escaped}":1}`;
    expect(codes(parseJson(text))).toEqual(codes({ [first]: 0, [key]: 1 }));
  });

  it('keeps a longer key that ends in an escape ("x\\n" after "x\\\\")', () => {
    const first = prime('x\\');
    expect(codes(parseJson(`{"${first}":0,"x\\n":1}`))).toEqual(codes({ [first]: 0, 'x\n': 1 }));
  });

  it('keeps real keys that end in a backslash, nested and in arrays', () => {
    const value = { 'a\\': { '\\': [1, { 'b\\': null }] }, '\\': '\\', c: 'x\ny' };
    expect(jsonEqual(parseJson(JSON.stringify(value)), value)).toBe(true);
    expect(jsonEqual(parseJson(JSON.stringify([value, value])), [value, value])).toBe(true);
  });

  it('through the executor: the tool sees the key the model sent', async () => {
    let seen: unknown;
    const bag = defineTool({
      name: 'bag',
      description: 'Takes any object.',
      input: v.record(v.string(), v.unknown()),
      execute: (input) => {
        seen = input;
        return 'ok';
      },
    });
    const first = prime('\\');
    const result = await createExecutor({ registry: [bag] }).execute({ id: 'c1', name: 'bag', arguments: `{"${first}":0,"\\n":1}` });
    expect(result.outcome.type).toBe('success');
    expect(codes(seen)).toEqual(codes({ [first]: 0, '\n': 1 }));
  });

  it('walks nesting as deep as JSON.parse accepts without overflowing', () => {
    const depth = 100_000;
    const text = `${'['.repeat(depth)}"\\n"${']'.repeat(depth)}`;
    let value = parseJson(text);
    for (let i = 0; i < depth; i++) value = (value as unknown[])[0];
    expect(value).toBe('\n');
  });
});

describe('parseJsonSlowly: the careful parser behind parseJson', () => {
  it.each([
    ['{}', {}],
    ['[]', []],
    [' { "a" : [ 1 , -0.5e2 , true , false , null , "x" ] , "b" : { } } ', { a: [1, -50, true, false, null, 'x'], b: {} }],
    ['"\\u00e9\\n\\/\\\\"', 'é\n/\\'],
    ['1e21', 1e21],
    ['-0', -0],
    ['{"a":1,"b":2,"a":3}', { a: 3, b: 2 }],
  ])('parses %s as JSON.parse does', (text, expected) => {
    expect(parseJsonSlowly(text)).toEqual(expected);
    expect(Object.keys(parseJsonSlowly(text) as object)).toEqual(Object.keys(JSON.parse(text) as object));
  });

  it('keeps an own "__proto__" key as data, not as the prototype', () => {
    const value = parseJsonSlowly('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each(['', ' ', '{', '}', '{"a"}', '{"a":}', '{"a":1,}', '[1,]', '[1 2]', '01', '1.', '.5', '+1', 'tru', 'NaN', "'a'", '{a:1}', '"\u0001"', '"\\x"', '{"a":1}x', '[', '"abc'])(
    'refuses %j with a SyntaxError, as JSON.parse does',
    (text) => {
      expect(() => JSON.parse(text)).toThrow(SyntaxError);
      expect(() => parseJsonSlowly(text)).toThrow(SyntaxError);
    },
  );

  it('gives back any JSON value it is handed (hostile keys, lone surrogates, nesting), compact or indented', () => {
    fc.assert(
      fc.property(jsonValue, fc.constantFrom(undefined, 2, '\t'), (value, indent) => {
        expect(jsonEqual(parseJsonSlowly(JSON.stringify(value, null, indent)), value)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  describe.each([10_000, 100_000])('nesting %i deep, with keys ending in a backslash (what sends text here)', (depth) => {
    /** Walks down `depth` levels, each an array or an object with only the key `key(level)`, and returns what is at the bottom. */
    const bottom = (value: unknown, key: (level: number) => string | undefined): unknown => {
      let at = value;
      for (let level = 0; level < depth; level++) {
        const name = key(level);
        const keys = typeof at === 'object' && at !== null && !Array.isArray(at) ? Object.keys(at) : undefined;
        if (name === undefined ? !Array.isArray(at) || at.length !== 1 : keys?.length !== 1 || keys[0] !== name) {
          throw new Error(`level ${level} is ${JSON.stringify(at)?.slice(0, 40)}`);
        }
        at = name === undefined ? (at as unknown[])[0] : (at as Record<string, unknown>)[name];
      }
      return at;
    };

    it('reads nested arrays', () => {
      const text = `${'['.repeat(depth)}{"k\\\\":"\\n"}${']'.repeat(depth)}`;
      expect(bottom(parseJsonSlowly(text), () => undefined)).toEqual({ 'k\\': '\n' });
    });

    it('reads nested objects', () => {
      const text = `${'{"a\\\\":'.repeat(depth)}[1,"x"]${'}'.repeat(depth)}`;
      expect(bottom(parseJsonSlowly(text), () => 'a\\')).toEqual([1, 'x']);
    });

    it('reads arrays and objects in turn, with white space, through parseJson and parseArguments', () => {
      const key = (level: number) => (level % 2 === 0 ? undefined : `${level % 3}\\`);
      const open: string[] = [];
      const close: string[] = [];
      for (let level = 0; level < depth; level++) {
        const name = key(level);
        open.push(name === undefined ? '[ ' : `{ ${JSON.stringify(name)} : `);
        close.push(name === undefined ? ' ]' : '\n}');
      }
      const text = `${open.join('')}null${close.reverse().join('')}`;
      expect(bottom(parseJsonSlowly(text), key)).toBe(null);
      expect(bottom(parseJson(text), key)).toBe(null);
      const parsed = parseArguments(text, { toolName: 'bag', callId: 'c1' });
      expect(parsed.ok).toBe(true);
      if (parsed.ok) expect(bottom(parsed.value, key)).toBe(null);
    });

    it('through the executor: the tool gets the value', async () => {
      let seen: unknown;
      const deep = defineTool({
        name: 'deep',
        description: 'Takes anything under `tree`.',
        input: v.object({ tree: v.unknown() }),
        execute: (input) => {
          seen = input.tree;
          return 'ok';
        },
      });
      const tree = `${'{"a\\\\":['.repeat(depth / 2)}"\\\\"${']}'.repeat(depth / 2)}`;
      const result = await createExecutor({ registry: [deep] }).execute({ id: 'c1', name: 'deep', arguments: `{"tree":${tree}}` });
      expect(result.outcome.type).toBe('success');
      expect(bottom(seen, (level) => (level % 2 === 0 ? 'a\\' : undefined))).toBe('\\');
    });

    it('refuses unclosed nesting with a SyntaxError, as JSON.parse does', () => {
      const unclosed = ['['.repeat(depth), `${'{"a\\\\":'.repeat(depth)}1${'}'.repeat(depth - 1)}`, `${'['.repeat(depth)}1${']'.repeat(depth)}]`];
      for (const text of unclosed) {
        expect(() => JSON.parse(text)).toThrow(SyntaxError);
        expect(() => parseJsonSlowly(text)).toThrow(SyntaxError);
      }
    });
  });

  it('accepts and refuses exactly what parseJson does, on JSON-like junk', () => {
    const junk = fc.array(fc.constantFrom('{', '}', '[', ']', ',', ':', '"a"', '"\\\\"', '"\\n"', '1', '-2.5e3', 'true', 'null', ' ', '\n', 'x', '"'), { maxLength: 14 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(junk, (text) => {
        const attempt = (parse: (t: string) => unknown) => {
          try {
            return { ok: true, value: parse(text) };
          } catch (error) {
            return { ok: false, syntax: error instanceof SyntaxError };
          }
        };
        const fast = attempt(parseJson);
        const slow = attempt(parseJsonSlowly);
        expect(slow.ok).toBe(fast.ok);
        if (fast.ok && slow.ok) expect(jsonEqual(slow.value, fast.value)).toBe(true);
        else expect(slow).toEqual({ ok: false, syntax: true });
      }),
      { numRuns: 2000 },
    );
  });
});

describe('parseArguments', () => {
  const meta = { toolName: 'bag', callId: 'c1' };

  it('reads empty text as {}, takes non-text as parsed, and types malformed JSON as invalid-json', () => {
    expect(parseArguments('  ', meta)).toEqual({ ok: true, value: {} });
    expect(parseArguments(undefined, meta)).toEqual({ ok: true, value: {} });
    const value = { a: 1 };
    expect(parseArguments(value, meta)).toEqual({ ok: true, value });
    const bad = parseArguments('{"a":', meta);
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.code).toBe('invalid-json');
      expect(bad.error.message).toContain('Received: {"a":');
    }
  });
});

describe('parseArguments: keys that could change an object’s prototype are refused, as the AI SDK refuses them', () => {
  const meta = { toolName: 'bag', callId: 'c1' };
  const refusal = (raw: unknown) => {
    const parsed = parseArguments(raw, meta);
    return parsed.ok ? undefined : { code: parsed.error.code, message: parsed.error.message, paths: parsed.error.issues?.map((i) => i.path) };
  };

  it.each([
    ['an own __proto__', '{"a":1,"__proto__":{"isAdmin":true}}', ['__proto__']],
    ['a nested one and one in an array', '{"a":{"__proto__":{}},"b":[1,{"__proto__":null}]}', ['a.__proto__', 'b[1].__proto__']],
    ['a constructor object with an own prototype', '{"meta":[{"constructor":{"prototype":{"isAdmin":true}}}]}', ['meta[0].constructor.prototype']],
    ['a key spelled with escapes', '{"\\u005f_proto__":{},"\\u0063onstructor":{"prototyp\\u0065":1}}', ['__proto__', 'constructor.prototype']],
    ['a root array', '[{"__proto__":1}]', ['[0].__proto__']],
  ])('refuses text with %s as invalid-json naming each key', (_what, text, paths) => {
    const message = `The arguments for "bag" have a key that could change an object’s prototype: ${paths.join(', ')}.`;
    expect(refusal(text)).toEqual({ code: 'invalid-json', message, paths });
  });

  it('gives the refused arguments back as read, for masking', () => {
    const parsed = parseArguments('{"password":"x","__proto__":{}}', meta);
    expect(parsed.ok).toBe(false);
    expect('value' in parsed && Object.hasOwn(parsed.value as object, '__proto__')).toBe(true);
    expect(parseArguments('{"a":', meta)).not.toHaveProperty('value');
  });

  it.each([
    '{"prototype":{"a":1},"proto":1,"__proto":2,"_proto_":3}',
    '{"constructor":"x","b":{"constructor":{"name":"Object"}},"c":{"constructor":[1]},"d":{"constructor":null}}',
    '{"text":"__proto__ and constructor.prototype are only words here","q":"\\u005f_proto__"}',
    '{"a":{"b":{"prototype":{"constructor":1}}}}',
  ])('accepts keys and strings that only look alike: %s', (text) => {
    const parsed = parseArguments(text, meta);
    expect(parsed.ok).toBe(true);
    expect(jsonEqual(parsed.ok && parsed.value, JSON.parse(text))).toBe(true);
  });

  it('walks no text that cannot spell either key', () => {
    const walks = vi.spyOn(Object, 'getPrototypeOf');
    try {
      expect(parseArguments('{"a":{"b":[1,{"c":"x\\n"}]},"d":"é"}', meta).ok).toBe(true);
      expect(walks).not.toHaveBeenCalled();
      expect(parseArguments('{"a":{"constructor":1}}', meta).ok).toBe(true);
      expect(walks).toHaveBeenCalled();
    } finally {
      walks.mockRestore();
    }
  });

  it('refuses already-parsed arguments with such a key too: JSON.parse made elsewhere, or a null-prototype object', () => {
    expect(refusal(JSON.parse('{"a":[{"__proto__":{"isAdmin":true}}]}'))?.paths).toEqual(['a[0].__proto__']);
    const bare: unknown = Object.defineProperty(Object.create(null), '__proto__', { value: { isAdmin: true }, enumerable: true });
    expect(refusal({ nested: bare })?.paths).toEqual(['nested.__proto__']);
    expect(refusal({ constructor: { prototype: {} } })?.paths).toEqual(['constructor.prototype']);
  });

  it('accepts an object literal’s __proto__ (a prototype, not a key), and leaves objects JSON never makes to the schema', () => {
    expect(parseArguments({ __proto__: { inherited: true }, a: 1 }, meta).ok).toBe(true);
    const withKey = <T extends object>(target: T): T => Object.defineProperty(target, '__proto__', { value: { isAdmin: true }, enumerable: true });
    class Query {}
    expect(parseArguments({ q: withKey(new Query()), at: withKey(new Date(0)), m: new Map([['__proto__', 1]]) }, meta).ok).toBe(true);
    expect(parseArguments({ q: withKey({}) }, meta).ok).toBe(false);
  });

  it('walks a cyclic or shared value once, and refuses what throws as it is read, without throwing', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    cyclic.again = [cyclic, cyclic];
    expect(parseArguments(cyclic, meta).ok).toBe(true);
    cyclic.bad = JSON.parse('{"__proto__":1}');
    expect(refusal(cyclic)?.paths).toEqual(['bad.__proto__']);
    const root = JSON.parse('{"__proto__":1}') as Record<string, unknown>;
    root.self = root;
    expect(refusal(root)?.paths, 'a cycle back to the root names its key once').toEqual(['__proto__']);
    const getter = Object.defineProperty({}, 'x', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(refusal({ getter })).toEqual({ code: 'invalid-json', message: 'The arguments for "bag" are not valid JSON (boom).', paths: undefined });
  });

  it('prototypeKeyIssues names each key, outermost first, with the text the model reads', () => {
    const value = JSON.parse(
      '{"a":{"__proto__":{"x":1}},"constructor":{"prototype":{}},"b":[{"c":{"constructor":{"prototype":1}}}],"d":{"constructor":{"name":"x"}}}',
    );
    expect(prototypeKeyIssues(value)).toEqual(
      ['constructor.prototype', 'a.__proto__', 'b[0].c.constructor.prototype'].map((path) => ({ path, message: PROTOTYPE_KEY_TEXT })),
    );
    expect(prototypeKeyIssues({ prototype: {}, proto: 1, constructor: 'x' })).toEqual([]);
  });
});
