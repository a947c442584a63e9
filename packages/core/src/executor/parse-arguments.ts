import { ToolError } from '../errors/tool-error.ts';

const SNIPPET = 120;

/**
 * Parses a model's raw arguments. Text is JSON-parsed (empty text means `{}`, which models send
 * for tools without parameters); anything else is taken as already parsed. Malformed JSON is a
 * typed `invalid-json` error, never an exception.
 */
export function parseArguments(raw: unknown, meta: { toolName: string; callId: string }): { ok: true; value: unknown } | { ok: false; error: ToolError } {
  if (typeof raw !== 'string') return { ok: true, value: raw === undefined ? {} : raw };
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: parseJson(raw) };
  } catch (error) {
    const snippet = raw.length > SNIPPET ? `${raw.slice(0, SNIPPET)}… (${raw.length} chars)` : raw;
    const detail = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: new ToolError('invalid-json', `The arguments for "${meta.toolName}" are not valid JSON (${detail}). Received: ${snippet}`, {
        toolName: meta.toolName,
        callId: meta.callId,
        cause: error,
      }),
    };
  }
}

/**
 * `JSON.parse`, guarded against a V8 bug (Node 24 and 26; not Node 22, workerd or Chromium): once an object
 * had a key ending in a backslash (`"a\\"`), a later object with the same keys before it gets that key in
 * place of one ending in another escape (`"a\n"`). The text needs an escape to be hit, so text without a
 * backslash is returned as parsed; otherwise a key ending in a backslash, which real arguments hardly have,
 * sends the text through {@link parseJsonSlowly}. See docs/reliability.md.
 */
export function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  return text.includes('\\') && hasKeyEndingInBackslash(value) ? parseJsonSlowly(text) : value;
}

/** Walks with a stack of its own, so no nesting that `JSON.parse` accepts can overflow it. */
function hasKeyEndingInBackslash(root: unknown): boolean {
  const pending = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
      continue;
    }
    for (const key of Object.keys(value)) {
      if (key.endsWith('\\')) return true;
      pending.push((value as Record<string, unknown>)[key]);
    }
  }
  return false;
}

/** A string token; `JSON.parse` then checks its escapes and refuses raw control characters. */
const STRING = /"(?:[^"\\]|\\.)*"/y;
const ATOM = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
const SPACE = /[ \t\n\r]*/y;

/**
 * A JSON parser that builds objects and arrays itself and leaves each string, number and literal to
 * `JSON.parse` (which reads those right). Same result as a correct `JSON.parse`: own `__proto__` keys,
 * the last of duplicate keys. Slow, and used only where {@link parseJson} cannot trust the fast path.
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
