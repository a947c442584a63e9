import { type ArgumentEdit, argumentEdits, type JsonSchema, type JsonSchemaValidator } from '@edgetool/core';
import { jsonText } from './format.ts';

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

/**
 * Whether `text` is a YYYY-MM-DD day that exists (not 2027-02-29 or 2026-13-01): the only values a date control shows;
 * it shows any other one as empty.
 */
function isCalendarDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  return year > 0 && month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The control a JSON Schema asks for (`type`, or its one non-null form: `['number', 'null']`, `anyOf [..., null]`, as
 * strict mode writes an optional argument); `undefined` when it says no one type.
 */
function schemaKind(schema: unknown): EditField['kind'] | undefined {
  if (!isRecord(schema)) return undefined;
  if (Array.isArray(schema.anyOf)) {
    const forms = schema.anyOf.filter((form) => !(isRecord(form) && form.type === 'null'));
    return forms.length === 1 ? schemaKind(forms[0]) : undefined;
  }
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type) => type !== 'null');
  if (types.length !== 1) return undefined;
  const [type] = types;
  if (type === 'number' || type === 'integer') return 'number';
  if (type === 'string') return schema.format === 'date' ? 'date' : 'text';
  return type === 'boolean' || type === 'object' || type === 'array' ? 'json' : undefined;
}

/**
 * The fields of an approval card for the arguments the server lets the user edit (`ToolCallView.editable`). The
 * model's value decides each control; for an argument the model left out, the tool's input `schema` does (from
 * `GET /api/tools`), so an optional number is sent back as a number.
 */
export function editFields(input: unknown, editable: true | readonly string[] | undefined, schema?: JsonSchema): EditField[] {
  if (editable === undefined || !isRecord(input)) return [];
  const keys = editable === true ? Object.keys(input) : editable;
  const properties = isRecord(schema?.properties) ? schema.properties : {};
  return keys.map((key) => {
    const value = input[key];
    if (typeof value === 'string') {
      // A date that does not exist stays text, so the user sees what the model asked and can correct it.
      const kind = isCalendarDate(value) ? 'date' : value.includes('\n') || value.length > 80 ? 'long-text' : 'text';
      return { key, kind, initial: value };
    }
    if (typeof value === 'number') return { key, kind: 'number', initial: String(value) };
    // An argument the model left out: what its schema asks for, else text (the common case: a reason, a note).
    if (value === undefined) return { key, kind: (Object.hasOwn(properties, key) ? schemaKind(properties[key]) : undefined) ?? 'text', initial: '' };
    return { key, kind: 'json', initial: jsonText(value, 2) };
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
      if (!isCalendarDate(text)) return { ok: false, key: field.key, message: `${field.key}: enter a date.` };
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

/**
 * The fields whose value the user changed from the model's: while any is, the tool's words on the card
 * (`requestReason`) describe the arguments as proposed, not as they would be approved.
 */
export function changedFields(fields: readonly EditField[], values: Readonly<Record<string, string>>): string[] {
  return fields.filter((field) => values[field.key] !== undefined && values[field.key] !== field.initial).map((field) => field.key);
}

/** The user's edits, for a line on the card: `new_date 2026-12-24 → 2026-12-27; reason set to "holiday"`. */
export function describeEdits(edits: readonly ArgumentEdit[]): string {
  const shown = (value: unknown) => (typeof value === 'string' ? (value.length > 60 ? `"${value.slice(0, 59)}…"` : `"${value}"`) : jsonText(value));
  return edits
    .map(({ key, from, to }) => (to === undefined ? `${key} removed` : from === undefined ? `${key} set to ${shown(to)}` : `${key} ${shown(from)} → ${shown(to)}`))
    .join('; ');
}

/** A value the user typed that the tool's input schema refuses, in the words the card shows. */
export interface EditIssue {
  readonly key: string;
  readonly message: string;
}

type ValidationResult = ReturnType<JsonSchemaValidator['~standard']['validate']>;

/** The first issue of `result` in one of the fields the user changed, as `key: message`. */
function issueIn(result: Awaited<ValidationResult>, keys: readonly string[]): EditIssue | undefined {
  for (const issue of result.issues ?? []) {
    const [first] = issue.path ?? [];
    const key = typeof first === 'object' && first !== null ? first.key : first;
    if (typeof key === 'string' && keys.includes(key)) return { key, message: `${key}: ${issue.message}` };
  }
  return undefined;
}

/**
 * What the tool's input schema (`jsonSchema(schema)` of `GET /api/tools`) finds wrong in the edited arguments, in the
 * fields the user changed (`keys`): the server checks them the same way, and an edit it refuses ends the call
 * unperformed, so the card names the field before the approval goes. Synchronous once core's validator has loaded.
 */
export function editIssue(
  validator: JsonSchemaValidator | undefined,
  input: unknown,
  keys: readonly string[],
): EditIssue | undefined | Promise<EditIssue | undefined> {
  if (validator === undefined || keys.length === 0) return undefined;
  const result = validator['~standard'].validate(input);
  return result instanceof Promise ? result.then((settled) => issueIn(settled, keys)) : issueIn(result, keys);
}
