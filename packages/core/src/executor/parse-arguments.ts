import { ToolError, type ToolIssue } from '../errors/tool-error.ts';
import { formatIssuePath } from '../schema/input-schema.ts';
import { parseJsonSlowly } from './parse-json-slowly.ts';
import { NOT_PLAIN } from './plain-arguments.ts';

const SNIPPET = 120;
/**
 * What text needs to spell a key {@link prototypeKeyIssues} looks for: either key, or a `\u` escape (`"\u005f_proto__"`).
 * One regular expression: a little faster here than three `includes`.
 */
const SUSPECT = /__proto__|constructor|\\u/;

/** What the model reads about a key the executor refuses (see {@link prototypeKeyIssues}). */
export const PROTOTYPE_KEY_TEXT = 'A key that could change an object’s prototype is not accepted: leave it out.';

/**
 * Parses a model's raw arguments. Text is JSON-parsed (empty text means `{}`, which models send
 * for tools without parameters); anything else is taken as already parsed. Malformed JSON is a
 * typed `invalid-json` error, never an exception. So are arguments, text or parsed, with a key that could change an
 * object's prototype (an own `__proto__`, a `constructor` object with an own `prototype`), which the AI SDK's parser
 * and `useChat` refuse too; that error comes with the parsed `value`, for masking.
 */
export function parseArguments(
  raw: unknown,
  meta: { toolName: string; callId: string },
): { ok: true; value: unknown } | { ok: false; error: ToolError; value?: unknown } {
  if (raw === undefined) return { ok: true, value: {} };
  let value: unknown = raw;
  let issues: ToolIssue[];
  try {
    if (typeof raw === 'string') {
      if (raw.trim() === '') return { ok: true, value: {} };
      if (!NOT_PLAIN.test(raw)) return { ok: true, value: JSON.parse(raw) };
      value = parseJson(raw);
      // The fast path: text that cannot spell either key is not walked.
      if (!SUSPECT.test(raw)) return { ok: true, value };
    }
    issues = prototypeKeyIssues(value);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const snippet = typeof raw !== 'string' ? '' : raw.length > SNIPPET ? ` Received: ${raw.slice(0, SNIPPET)}… (${raw.length} chars)` : ` Received: ${raw}`;
    return {
      ok: false,
      error: new ToolError('invalid-json', `The arguments for "${meta.toolName}" are not valid JSON (${detail}).${snippet}`, { ...meta, cause: error }),
    };
  }
  if (issues.length === 0) return { ok: true, value };
  const paths = issues.map((issue) => issue.path).join(', ');
  const message = `The arguments for "${meta.toolName}" have a key that could change an object’s prototype: ${paths}.`;
  return { ok: false, value, error: new ToolError('invalid-json', message, { ...meta, issues }) };
}

/**
 * The keys the AI SDK's JSON parser refuses (an own `__proto__`, a `constructor` object with an own `prototype`), as
 * issues with their paths (`items[1].__proto__`), outermost first. Walks arrays and plain objects (what JSON makes),
 * each once.
 */
export function prototypeKeyIssues(value: unknown): ToolIssue[] {
  const issues: ToolIssue[] = [];
  if (typeof value !== 'object' || value === null) return issues;
  // The objects to walk, and for each the index of the one it is in and its key there (its path, built only to report).
  const nodes: unknown[] = [value];
  const parents: number[] = [-1];
  const keys: PropertyKey[] = [''];
  const report = (at: number, ...tail: string[]) => {
    const path: PropertyKey[] = tail;
    for (let i = at; i > 0; i = parents[i] as number) path.unshift(keys[i] as PropertyKey);
    issues.push({ path: formatIssuePath(path), message: PROTOTYPE_KEY_TEXT });
  };
  // Each object is walked once (a cycle ends); made only for nested arguments.
  let seen: Set<unknown> | undefined;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as object;
    const array = Array.isArray(node);
    const proto: unknown = Object.getPrototypeOf(node);
    // Not JSON data (a Date, a Map, a class instance): left to the schema.
    if (!array && proto !== Object.prototype && proto !== null && Object.getPrototypeOf(proto) !== null) continue;
    for (const key of Object.keys(node)) {
      const item: unknown = (node as Record<string, unknown>)[key];
      if (key === '__proto__') report(i, key);
      else if (key === 'constructor' && typeof item === 'object' && item !== null && Object.hasOwn(item, 'prototype')) report(i, key, 'prototype');
      else if (typeof item === 'object' && item !== null) {
        if (seen === undefined) {
          seen = new Set();
          seen.add(value);
        }
        if (seen.has(item)) continue;
        seen.add(item);
        nodes.push(item);
        parents.push(i);
        keys.push(array ? Number(key) : key);
      }
    }
  }
  return issues;
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
