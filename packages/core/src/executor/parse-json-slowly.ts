/** A string token; `JSON.parse` then checks its escapes and refuses raw control characters. */
const STRING = /"(?:[^"\\]|\\.)*"/y;
const ATOM = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
const SPACE = /[ \t\n\r]*/y;

/**
 * A JSON parser that builds objects and arrays itself and leaves each string, number and literal to
 * `JSON.parse` (which reads those right). Same result as a correct `JSON.parse`: own `__proto__` keys,
 * the last of duplicate keys. Slow, and used only where `parseJson` cannot trust the fast path.
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
  const value = (): unknown => {
    if (skip('{')) {
      const object: Record<string, unknown> = {};
      if (skip('}')) return object;
      do {
        const key = JSON.parse(token(STRING) ?? fail()) as string;
        eat(':');
        Object.defineProperty(object, key, { value: value(), enumerable: true, writable: true, configurable: true });
      } while (skip(','));
      eat('}');
      return object;
    }
    if (skip('[')) {
      const array: unknown[] = [];
      if (skip(']')) return array;
      do array.push(value());
      while (skip(','));
      eat(']');
      return array;
    }
    return JSON.parse(token(STRING) ?? token(ATOM) ?? fail());
  };
  const result = value();
  if (next() !== undefined) fail();
  return result;
}
