import { type ArgumentEdit, argumentEdits } from '@edgetool/core';

/** One argument the user may change on an approval card, with the control that suits its value. */
export interface EditField {
  readonly key: string;
  /** `date`: YYYY-MM-DD text; `text`: one line; `long-text`: a paragraph; `number`; `json`: anything else, as JSON. */
  readonly kind: 'date' | 'text' | 'long-text' | 'number' | 'json';
  /** The model's value, as the control shows it. */
  readonly initial: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The fields of an approval card for the arguments the server lets the user edit (`ToolCallView.editable`). */
export function editFields(input: unknown, editable: true | readonly string[] | undefined): EditField[] {
  if (editable === undefined || !isRecord(input)) return [];
  const keys = editable === true ? Object.keys(input) : editable;
  return keys.map((key) => {
    const value = input[key];
    if (typeof value === 'string') {
      const kind = DATE.test(value) ? 'date' : value.includes('\n') || value.length > 80 ? 'long-text' : 'text';
      return { key, kind, initial: value };
    }
    if (typeof value === 'number') return { key, kind: 'number', initial: String(value) };
    // An argument the model left out: text, the common case for an optional field (a reason, a note).
    if (value === undefined) return { key, kind: 'text', initial: '' };
    return { key, kind: 'json', initial: JSON.stringify(value, null, 2) };
  });
}

/** What the user's values make of the model's arguments. */
export type EditedInput =
  /** `input`: the whole edited arguments, or `undefined` when nothing changed (approve as the model asked). */
  | { readonly ok: true; readonly input: unknown; readonly edits: readonly ArgumentEdit[] }
  | { readonly ok: false; readonly key: string; readonly message: string };

/** The model's arguments with the user's values in the fields (an emptied optional field is left out again). */
export function editedInput(input: unknown, fields: readonly EditField[], values: Readonly<Record<string, string>>): EditedInput {
  if (!isRecord(input)) return { ok: true, input: undefined, edits: [] };
  const edited: Record<string, unknown> = { ...input };
  for (const field of fields) {
    const text = values[field.key] ?? field.initial;
    if (text === field.initial) continue;
    if (text.trim() === '' && input[field.key] === undefined) {
      delete edited[field.key];
      continue;
    }
    if (field.kind === 'date') {
      // The date control gives '' when it is emptied or holds a date it cannot read: there is no date to send.
      if (!DATE.test(text)) return { ok: false, key: field.key, message: `${field.key}: enter a date.` };
      edited[field.key] = text;
    } else if (field.kind === 'number') {
      const number = Number(text);
      if (text.trim() === '' || !Number.isFinite(number)) return { ok: false, key: field.key, message: `${field.key}: enter a number.` };
      edited[field.key] = number;
    } else if (field.kind === 'json') {
      try {
        edited[field.key] = JSON.parse(text) as unknown;
      } catch {
        return { ok: false, key: field.key, message: `${field.key}: enter valid JSON.` };
      }
    } else {
      edited[field.key] = text;
    }
  }
  const edits = argumentEdits(input, edited);
  return { ok: true, input: edits.length > 0 ? edited : undefined, edits };
}

/** The user's edits, for a line on the card: `new_date 2026-12-24 → 2026-12-27; reason set to "holiday"`. */
export function describeEdits(edits: readonly ArgumentEdit[]): string {
  const shown = (value: unknown) => (typeof value === 'string' ? (value.length > 60 ? `"${value.slice(0, 59)}…"` : `"${value}"`) : JSON.stringify(value));
  return edits
    .map(({ key, from, to }) => (to === undefined ? `${key} removed` : from === undefined ? `${key} set to ${shown(to)}` : `${key} ${shown(from)} → ${shown(to)}`))
    .join('; ');
}
