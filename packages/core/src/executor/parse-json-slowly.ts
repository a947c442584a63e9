/** A string token; `JSON.parse` then checks its escapes and refuses raw control characters. */
const STRING = /"(?:[^"\\]|\\.)*"/y;
const ATOM = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
const SPACE = /[ \t\n\r]*/y;

/** An array or object being read: the values read so far, and for an object the key of the value being read. */
type Open = { readonly array: unknown[] } | { readonly object: Record<string, unknown>; key: string };

/**
 * A JSON parser that builds objects and arrays itself and leaves each string, number and literal to
 * `JSON.parse` (which reads those right). Same result as a correct `JSON.parse`: own `__proto__` keys,
 * the last of duplicate keys. Slow, and used only where `parseJson` cannot trust the fast path.
 * It keeps the arrays and objects it is inside on a stack of its own, so any nesting `JSON.parse` reads, it reads.
 */
export function parseJsonSlowly(text: string): unknown {
  let at = 0;
  const match = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = at;
    const found = pattern.exec(text)?.[0];
    if (found !== undefined) at = pattern.lastIndex;
    return found;
  };
  const fail = (): never => {
    throw new SyntaxError(at < text.length ? `Unexpected character ${JSON.stringify(text[at])} at position ${at}` : 'Unexpected end of JSON input');
  };
  /** The next token matching `pattern`, after white space. */
  const token = (pattern: RegExp): string | undefined => {
    match(SPACE);
    return match(pattern);
  };
  const next = (): string | undefined => {
    match(SPACE);
    return text[at];
  };
  /** Consumes `char` when it comes next (after white space). */
  const skip = (char: string): boolean => {
    if (next() !== char) return false;
    at++;
    return true;
  };
  const eat = (char: string) => {
    if (!skip(char)) fail();
  };
  /** An object's key and the colon after it. */
  const key = (): string => {
    const read = JSON.parse(token(STRING) ?? fail()) as string;
    eat(':');
    return read;
  };
  const open: Open[] = [];
  for (;;) {
    // Read a value, or open an array or object and go on with its first value.
    let value: unknown;
    if (skip('{')) {
      const object: Record<string, unknown> = {};
      if (!skip('}')) {
        open.push({ object, key: key() });
        continue;
      }
      value = object;
    } else if (skip('[')) {
      const array: unknown[] = [];
      if (!skip(']')) {
        open.push({ array });
        continue;
      }
      value = array;
    } else {
      value = JSON.parse(token(STRING) ?? token(ATOM) ?? fail());
    }
    // Put the value where it belongs; each array or object it completes is in turn the value of the one around it.
    for (;;) {
      const inner = open.at(-1);
      if (inner === undefined) {
        if (next() !== undefined) fail();
        return value;
      }
      if ('array' in inner) {
        inner.array.push(value);
        if (skip(',')) break;
        eat(']');
        value = inner.array;
      } else {
        Object.defineProperty(inner.object, inner.key, { value, enumerable: true, writable: true, configurable: true });
        if (skip(',')) {
          inner.key = key();
          break;
        }
        eat('}');
        value = inner.object;
      }
      open.pop();
    }
  }
}
