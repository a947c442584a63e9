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
  const next = (): string | undefined => {
    match(SPACE);
    return text[at];
  };
  const eat = (char: string) => {
    if (next() !== char) fail();
    at++;
  };
  /** After an element: true when a comma says another follows. */
  const more = (): boolean => {
    if (next() !== ',') return false;
    at++;
    return true;
  };
  const value = (): unknown => {
    const char = next();
    if (char === '{') {
      at++;
      const object: Record<string, unknown> = {};
      if (next() === '}') {
        at++;
        return object;
      }
      do {
        if (next() !== '"') fail();
        const key = JSON.parse(match(STRING) ?? fail()) as string;
        eat(':');
        Object.defineProperty(object, key, { value: value(), enumerable: true, writable: true, configurable: true });
      } while (more());
      eat('}');
      return object;
    }
    if (char === '[') {
      at++;
      const array: unknown[] = [];
      if (next() === ']') {
        at++;
        return array;
      }
      do array.push(value());
      while (more());
      eat(']');
      return array;
    }
    return JSON.parse((char === '"' ? match(STRING) : match(ATOM)) ?? fail());
  };
  const result = value();
  if (next() !== undefined) fail();
  return result;
}
