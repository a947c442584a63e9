import { encodeBase64Url } from './base64url.ts';
import { sha256Digest } from './hmac-sha256.ts';

/**
 * Deterministic JSON of a value: object keys sorted (UTF-16 code units) at every depth, no whitespace.
 * For JSON data the output equals RFC 8785 (JCS). Otherwise it follows `JSON.stringify` so a value and
 * its JSON round trip hash the same (`toJSON` is called; `undefined`, functions and symbols are dropped
 * from objects and become `null` in arrays), but it throws a `TypeError` where that would silently lose
 * data: cycles, `BigInt`, `NaN`/`Infinity`, non-plain objects without `toJSON` (`Map`, `Set`, class
 * instances, typed arrays) and a top-level value with no JSON form (`undefined`, a function, a symbol).
 */
export function canonicalJson(value: unknown): string {
  const out = write(value, '', []);
  if (out === undefined) throw new TypeError(`canonicalJson: a top-level ${typeof value} has no JSON form`);
  return out;
}

/** Base64url SHA-256 of the canonical JSON of tool arguments: equal for equal data whatever the key order. */
export async function hashArguments(args: unknown): Promise<string> {
  return encodeBase64Url(await sha256Digest(new TextEncoder().encode(canonicalJson(args))));
}

/**
 * Returns `undefined` for values that `JSON.stringify` omits (the caller drops or nulls them). Builds strings
 * directly (no arrays to join); `ancestors` needs no cleanup on a throw, since the whole call is abandoned.
 */
function write(input: unknown, key: string | number, ancestors: object[]): string | undefined {
  let value = input;
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: (key: string) => unknown }).toJSON(String(key));
  }
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} at ${where(key)} has no JSON form`);
      // What JSON.stringify writes for a finite number (ToString; -0 is "0"), without a call into it.
      return String(value);
    case 'bigint':
      throw new TypeError(`canonicalJson: a BigInt at ${where(key)} has no JSON form`);
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return 'null';
  const object = value as object;
  if (ancestors.includes(object)) throw new TypeError(`canonicalJson: a cycle at ${where(key)}`);
  ancestors.push(object);
  let out: string;
  if (Array.isArray(object)) {
    out = '[';
    for (let i = 0; i < object.length; i++) {
      if (i > 0) out += ',';
      out += write(object[i], i, ancestors) ?? 'null';
    }
    out += ']';
  } else {
    if (!isPlainObject(object)) {
      const name = (object as { constructor?: { name?: unknown } }).constructor?.name;
      throw new TypeError(`canonicalJson: ${typeof name === 'string' ? name : 'a non-plain object'} at ${where(key)} is not plain JSON data`);
    }
    out = '{';
    const names = sortedKeys(object);
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      const member = write((object as Record<string, unknown>)[name], name, ancestors);
      if (member === undefined) continue;
      if (out.length > 1) out += ',';
      out += `${quote(name)}:${member}`;
    }
    out += '}';
  }
  ancestors.pop();
  return out;
}

/**
 * `JSON.stringify(text)` for a string: short strings with nothing to escape (no quote, backslash, control character or
 * surrogate) are quoted here, which is several times cheaper than the call; anything else is left to it.
 */
function quote(text: string): string {
  if (text.length > 64) return JSON.stringify(text);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x20 || unit === 0x22 || unit === 0x5c || (unit >= 0xd800 && unit <= 0xdfff)) return JSON.stringify(text);
  }
  return `"${text}"`;
}

/**
 * An object's own enumerable string keys in UTF-16 code unit order (what `Array.prototype.sort` gives strings). Most
 * objects have a few keys, often in order already: those are checked, or sorted by insertion, without `sort`'s cost.
 */
function sortedKeys(object: object): string[] {
  const keys = Object.keys(object);
  const n = keys.length;
  if (n > 16) return keys.sort();
  for (let i = 1; i < n; i++) {
    const key = keys[i] as string;
    if ((keys[i - 1] as string) < key) continue;
    // Out of order: insert it where it belongs among those before it (all in order).
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > key) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

/** `Object.prototype` or `null` as prototype, from any realm (iframes, `vm` contexts). */
function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

function where(key: string | number): string {
  return key === '' ? 'the top level' : `key ${JSON.stringify(String(key))}`;
}
