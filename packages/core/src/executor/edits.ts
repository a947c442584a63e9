import type { ModelContent } from '../tool/model-content.ts';

/** One argument a human changed when approving a call (`ApprovalDecision.input`). */
export interface ArgumentEdit {
  /** The top-level argument, or `''` when the arguments are not an object and changed as a whole. */
  readonly key: string;
  /** What the model proposed (`undefined`: the human added the argument). */
  readonly from: unknown;
  /** What the call ran with (`undefined`: the human removed the argument). */
  readonly to: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The keys of `value` that JSON keeps: an object's key set to `undefined` is no key (an in-process caller's form object). */
const definedKeys = (value: object): string[] =>
  Array.isArray(value) ? Object.keys(value) : Object.keys(value).filter((key) => (value as Record<string, unknown>)[key] !== undefined);

/** Whether two JSON values are the same (key order aside). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = definedKeys(a);
  if (keys.length !== definedKeys(b).length) return false;
  return keys.every((key) => same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** {@link same}, where values too deep to compare (the stack runs out) count as changed: the edit is then judged. */
function sameOrTooDeep(a: unknown, b: unknown): boolean {
  try {
    return same(a, b);
  } catch {
    return false;
  }
}

/**
 * The top-level arguments that differ between what the model proposed and what a human edited, in the order of the
 * proposal (then added ones). Empty when nothing changed. Arguments that are not objects compare as a whole (key `''`).
 */
export function argumentEdits(proposed: unknown, edited: unknown): ArgumentEdit[] {
  if (!isRecord(proposed) || !isRecord(edited)) return sameOrTooDeep(proposed, edited) ? [] : [{ key: '', from: proposed, to: edited }];
  const edits: ArgumentEdit[] = [];
  for (const key of new Set([...Object.keys(proposed), ...Object.keys(edited)])) {
    if (!sameOrTooDeep(proposed[key], edited[key])) edits.push({ key, from: proposed[key], to: edited[key] });
  }
  return edits;
}

/**
 * What a tool's `policy.editable` says of a human's `edits`: `undefined` when it allows them all, else the refusal in
 * the tool's words, e.g. `lets a human edit only "new_date" (changed: "order_id")`. The executor's refusal and
 * `useEdgeChat`'s `approve(id, { input })` read the rule from this one place.
 */
export function refusedEdits(editable: boolean | readonly string[], edits: readonly ArgumentEdit[]): string | undefined {
  if (editable === true) return undefined;
  const refused = edits.filter((edit) => editable === false || !editable.includes(edit.key));
  if (refused.length === 0) return undefined;
  const names = refused.map((edit) => (edit.key === '' ? 'the arguments as a whole' : `"${edit.key}"`)).join(', ');
  const allowed = editable === false ? 'lets a human edit none of its arguments' : `lets a human edit only ${editable.map((key) => `"${key}"`).join(', ')}`;
  return `${allowed} (changed: ${names})`;
}

/**
 * `edits` with each value as `mask` masks it inside the arguments (`executor.redactInput`: the fields `redact()` hides),
 * for the note the model reads; an absent value stays absent (the note says added or removed).
 */
export function maskEdits(edits: readonly ArgumentEdit[], mask: (input: unknown) => unknown): ArgumentEdit[] {
  const masked = (key: string, value: unknown): unknown => {
    if (value === undefined) return value;
    if (key === '') return mask(value);
    // Defined, not assigned: an argument named `__proto__` would set the prototype instead.
    return (mask(Object.defineProperty({}, key, { value, enumerable: true })) as Record<string, unknown> | null)?.[key];
  };
  return edits.map(({ key, from, to }) => ({ key, from: masked(key, from), to: masked(key, to) }));
}

/** A value for the note, cut to a readable length. */
function shown(value: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(value) ?? String(value);
  } catch {
    // A value JSON cannot hold, from a caller that passed objects: a BigInt reads well as a string; an object (a
    // cycle, or nested deeper than the stack, where String() of an array would recurse too) does not.
    json = typeof value === 'object' && value !== null ? '(a value JSON cannot show)' : String(value);
  }
  return json.length > 200 ? `${json.slice(0, 200)}…` : json;
}

/** How the note of {@link editNote} starts (the changes follow, then {@link EDIT_NOTE_END}). */
export const EDIT_NOTE_START = 'The user edited your arguments before approving this call: ';
/** How the note of {@link editNote} ends. */
export const EDIT_NOTE_END = '. The outcome below is for the edited arguments.';

/** What the model reads before a result whose arguments a human edited: each change, then that the outcome is theirs. */
export function editNote(edits: readonly ArgumentEdit[]): string {
  const changes = edits.map(({ key, from, to }) => {
    const name = key === '' ? 'the arguments' : key;
    if (to === undefined) return `${name} removed (you proposed ${shown(from)})`;
    return from === undefined ? `${name} set to ${shown(to)}` : `${name} changed from ${shown(from)} to ${shown(to)}`;
  });
  return `${EDIT_NOTE_START}${changes.join('; ')}${EDIT_NOTE_END}`;
}

/** The model's content for a call with edited arguments: the note first (a text part before parts). */
export function withEditNote(content: ModelContent, edits: readonly ArgumentEdit[] | undefined): ModelContent {
  if (edits === undefined || edits.length === 0) return content;
  const note = editNote(edits);
  return typeof content === 'string' ? `${note}\n${content}` : [{ type: 'text', text: note }, ...content];
}
