import { describe, expect, it } from 'vitest';
import { canonicalJson, hashArguments } from './canonical-json.ts';

describe('canonicalJson', () => {
  it('sorts object keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 2, a: 1 })).toBe('{"a":1,"b":2}');
    expect(canonicalJson({ z: { y: 1, x: [{ d: 4, c: 3 }] }, a: [] })).toBe('{"a":[],"z":{"x":[{"c":3,"d":4}],"y":1}}');
  });

  it('keeps array order, including nested arrays', () => {
    expect(canonicalJson([3, [2, [1, { b: 0, a: 0 }]], []])).toBe('[3,[2,[1,{"a":0,"b":0}]],[]]');
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });

  it('sorts keys by UTF-16 code units, like RFC 8785', () => {
    expect(canonicalJson({ é: 1, z: 2, Z: 3, '10': 4, '9': 5, '': 6 })).toBe('{"":6,"10":4,"9":5,"Z":3,"z":2,"é":1}');
  });

  it('writes primitives like JSON.stringify', () => {
    expect(canonicalJson('a"\n\u2028')).toBe(JSON.stringify('a"\n\u2028'));
    expect(canonicalJson(1e21)).toBe('1e+21');
    expect(canonicalJson(-0)).toBe('0');
    expect(canonicalJson(0.1)).toBe('0.1');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(true)).toBe('true');
  });

  it('quotes strings and keys exactly as JSON.stringify does on both sides of its own quoting (64 characters)', () => {
    // Short strings with nothing to escape are quoted without JSON.stringify; anything else goes through it.
    for (const text of ['', 'plain', 'x'.repeat(64), 'x'.repeat(65), `${'x'.repeat(63)}"`, `${'x'.repeat(64)}\n`, 'a\\b', '\u001f', ' ~\u007f', '\ud83d\ude00', '\udc00x', 'é\u2028']) {
      expect(canonicalJson(text)).toBe(JSON.stringify(text));
      expect(canonicalJson({ [text]: text })).toBe(`{${JSON.stringify(text)}:${JSON.stringify(text)}}`);
    }
    for (const n of [0, -0, 1e21, 1e-7, -1.5, 2 ** 53, Number.MAX_VALUE, Number.MIN_VALUE]) expect(canonicalJson([n])).toBe(`[${JSON.stringify(n)}]`);
  });

  it('sorts keys that come out of order, in order, or many (its own sort up to 16 keys, Array.prototype.sort above)', () => {
    const keys = Array.from({ length: 40 }, (_, i) => `k${String(i).padStart(2, '0')}`);
    for (const n of [2, 3, 16, 17, 40]) {
      const some = keys.slice(0, n);
      const expected = `{${some.map((k) => `"${k}":1`).join(',')}}`;
      for (const order of [some, [...some].reverse(), [...some.slice(1), some[0] as string]]) {
        expect(canonicalJson(Object.fromEntries(order.map((k) => [k, 1])))).toBe(expected);
      }
    }
  });

  it('drops undefined, function and symbol members and nulls them in arrays, like JSON.stringify', () => {
    const value = { a: undefined, b: () => 1, c: Symbol('s'), d: [undefined, () => 1], [Symbol('k')]: 1, e: 1 };
    expect(canonicalJson(value)).toBe('{"d":[null,null],"e":1}');
  });

  it('hashes a value and its JSON round trip the same', () => {
    const value = { when: new Date(0), list: [undefined, 1], nested: { skip: undefined, keep: 'x' } };
    expect(canonicalJson(value)).toBe(canonicalJson(JSON.parse(JSON.stringify(value))));
    expect(canonicalJson(value)).toBe('{"list":[null,1],"nested":{"keep":"x"},"when":"1970-01-01T00:00:00.000Z"}');
  });

  it('accepts null-prototype objects and shared (non-cyclic) references', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { b: 1, a: 2 });
    expect(canonicalJson(bare)).toBe('{"a":2,"b":1}');
    const shared = { x: 1 };
    expect(canonicalJson({ p: shared, q: [shared] })).toBe('{"p":{"x":1},"q":[{"x":1}]}');
  });

  it('keeps an own "__proto__" key from JSON.parse', () => {
    expect(canonicalJson(JSON.parse('{"__proto__":{"a":1},"b":2}'))).toBe('{"__proto__":{"a":1},"b":2}');
  });

  it('throws a TypeError for data JSON would lose or cannot write', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const cyclicArray: unknown[] = [];
    cyclicArray.push({ back: cyclicArray });
    class Point {
      x = 1;
    }
    for (const bad of [
      cyclic,
      cyclicArray,
      { n: 1n },
      { n: Number.NaN },
      [Number.POSITIVE_INFINITY],
      new Map([['a', 1]]),
      { s: new Set([1]) },
      new Point(),
      new Uint8Array(2),
      undefined,
      () => 1,
      Symbol('s'),
    ]) {
      expect(() => canonicalJson(bad)).toThrow(TypeError);
    }
  });
});

describe('hashArguments', () => {
  it('is 43 characters of base64url (SHA-256)', async () => {
    expect(await hashArguments({})).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('matches a known SHA-256 vector', async () => {
    // sha256('{"a":1,"b":2}')
    const expected = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('{"a":1,"b":2}')));
    const b64 = btoa(String.fromCharCode(...expected)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(await hashArguments({ b: 2, a: 1 })).toBe(b64);
  });

  it('equals the SHA-256 of WebCrypto on both sides of the small-message limit', async () => {
    for (const text of ['x', 'y'.repeat(5000)]) {
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify({ text }))));
      const b64 = btoa(String.fromCharCode(...digest)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      expect(await hashArguments({ text })).toBe(b64);
    }
  });

  it('is the same whatever the key order, at any depth', async () => {
    const a = await hashArguments({ a: 1, b: { c: [1, { d: 2, e: 3 }], f: null } });
    const b = await hashArguments({ b: { f: null, c: [1, { e: 3, d: 2 }] }, a: 1 });
    expect(a).toBe(b);
  });

  it('changes with any value, type or array order change', async () => {
    const base = { a: 1, b: { c: [1, { d: 2 }] } };
    const variants: unknown[] = [
      { a: 2, b: { c: [1, { d: 2 }] } },
      { a: '1', b: { c: [1, { d: 2 }] } },
      { a: 1, b: { c: [1, { d: 3 }] } },
      { a: 1, b: { c: [{ d: 2 }, 1] } },
      { a: 1, b: { c: [1, { d: 2 }, null] } },
      { a: 1, b: { c: [1, { d: 2, e: null }] } },
      { a: 1, b: { c: [1, { D: 2 }] } },
      { a: 1 },
      [base],
    ];
    const hashes = new Set([await hashArguments(base), ...(await Promise.all(variants.map(hashArguments)))]);
    expect(hashes.size).toBe(variants.length + 1);
  });
});
