import { ToolError } from '../errors/tool-error.ts';
import { parseJsonSlowly } from './parse-json-slowly.ts';

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
