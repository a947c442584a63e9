import type { LanguageModelV4ToolResultPart } from '@ai-sdk/provider';
import { EDIT_NOTE_END, EDIT_NOTE_START } from '@edgetool/core';
import { nounIn, WORDINGS, type Wording } from './wording.ts';
import { humanize, splitIdentifier } from './words.ts';

const MAX_FIELDS = 6;
const MAX_ITEMS = 5;
const MAX_TEXT = 160;

/**
 * One readable sentence per tool result: key fields of objects, counts of lists, honest failures and denials; its fixed
 * phrases in the user's language (`wording`), the tools' values and field names as they gave them.
 */
export function summarizeToolResults(results: readonly LanguageModelV4ToolResultPart[], wording: Wording = WORDINGS.en): string {
  const sentences = results.map((result) => summarizeOne(result, wording));
  if (sentences.length <= 1) return sentences[0] ?? wording.noResults;
  return `${wording.happened}\n${sentences.map((sentence) => `- ${sentence}`).join('\n')}`;
}

/**
 * A result whose arguments the user edited before approving starts with edgetool's note (`editNote`): the changes, and
 * the result after it. `undefined` for any other text.
 */
function splitEditNote(text: string): { readonly changes: string; readonly rest: string } | undefined {
  if (!text.startsWith(EDIT_NOTE_START)) return undefined;
  const end = text.indexOf(`${EDIT_NOTE_END}\n`);
  if (end < 0) return undefined;
  return { changes: text.slice(EDIT_NOTE_START.length, end), rest: text.slice(end + EDIT_NOTE_END.length + 1) };
}

function summarizeOne(result: LanguageModelV4ToolResultPart, w: Wording): string {
  const output = result.output;
  const note = output.type === 'text' || output.type === 'error-text' ? splitEditNote(output.value) : undefined;
  if (note === undefined) return summarizeOutput(result.toolName, output, w);
  // The user's edits first, so the answer says what ran.
  return w.withEdit(clip(note.changes), summarizeOutput(result.toolName, { ...output, value: note.rest } as typeof output, w));
}

function summarizeOutput(name: string, output: LanguageModelV4ToolResultPart['output'], w: Wording): string {
  switch (output.type) {
    case 'execution-denied':
      return denied(name, output.reason, w);
    case 'error-text':
      return failed(name, output.value, w);
    case 'error-json':
      return failed(name, errorMessage(output.value) ?? formatValue(output.value), w);
    case 'text': {
      const text = output.value.trim();
      if (text.length === 0) return w.finishedEmpty(name);
      // Tools' JSON results reach the model as text (edgetool's content): read them as JSON again.
      const json = parseJson(text);
      return json === undefined ? `${name}: ${clip(text)}` : summarizeJson(name, json, w);
    }
    case 'content': {
      const text = output.value
        .filter((part) => part.type !== 'file')
        .map((part) => (part.type === 'text' ? part.text : `[${part.type}]`))
        .join(' ')
        .trim();
      const files = describeFiles(output.value.flatMap((part) => (part.type === 'file' ? [part] : [])), w);
      if (text.length === 0) return `${w.returned(name, files ?? w.nonText)}.`;
      return files === undefined ? `${name}: ${clip(text)}` : w.withFiles(name, files, clip(text));
    }
    case 'json':
      return summarizeJson(name, output.value, w);
    default:
      return w.finished(name);
  }
}

/** A clock's result as a sentence in the user's language, its weekday named in it; `undefined` for any other record. */
function clockOf(record: Readonly<Record<string, unknown>>, w: Wording): string | undefined {
  const { time_zone: zone, local_date: date, local_time: time, utc_offset: offset } = record;
  if (typeof zone !== 'string' || typeof date !== 'string' || typeof time !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^\d{2}:\d{2}/.test(time)) return undefined;
  const weekday = new Date(`${date}T00:00:00Z`).toLocaleDateString(w.language, { weekday: 'long', timeZone: 'UTC' });
  return w.clockIs(zone, time.slice(0, 5), weekday, date, typeof offset === 'string' ? offset : '');
}

/**
 * The files of a result, for a sentence: `an image`, `3 images`, `the document invoice.pdf`, `2 documents (a.pdf,
 * b.pdf)`, `a document and an image`; `undefined` for none.
 */
function describeFiles(files: readonly { readonly mediaType: string; readonly filename?: string | undefined }[], w: Wording): string | undefined {
  const images = files.filter((file) => file.mediaType.startsWith('image')).length;
  const documents = files.filter((file) => !file.mediaType.startsWith('image'));
  const names = documents.map((file) => file.filename).filter((filename) => filename !== undefined);
  const named = names.length === documents.length ? names.map((filename) => clip(filename)) : [];
  const several = `${w.documents(documents.length)}${named.length > 0 ? ` (${named.join(', ')})` : ''}`;
  const described = [documents.length === 0 ? '' : documents.length > 1 ? several : w.document(named[0]), images === 0 ? '' : w.images(images)].filter(
    (words) => words !== '',
  );
  return described.length === 0 ? undefined : described.join(` ${w.and} `);
}

function summarizeJson(name: string, value: unknown, w: Wording, noun?: string): string {
  if (value === null || value === undefined) return w.nothing(name);
  if (Array.isArray(value)) {
    if (value.length === 0) return w.none(name);
    const shown = value.slice(0, MAX_ITEMS).map((item) => formatItem(item, w));
    return endSentence(w.results(name, value.length, shown.join('; '), Math.max(0, value.length - MAX_ITEMS)));
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (record.ok === false || Object.hasOwn(record, 'error')) {
      const message = errorMessage(record.error ?? record) ?? formatValue(record.error ?? record);
      return isDenial(record.error ?? record) ? denied(name, message, w) : failed(name, message, w);
    }
    // A clock's `{ time_zone, local_date, local_time, weekday, utc_offset }`, and a sum's `{ expression, result }`: said as
    // a person says them ("In Asia/Tokyo it is 21:00 on Friday, …", "15 / 100 * 240 = 36"), not as a list of fields.
    const clock = clockOf(record, w);
    if (clock !== undefined) return clock;
    if (typeof record.expression === 'string' && (typeof record.result === 'number' || typeof record.result === 'string')) {
      return `${clip(record.expression)} = ${record.result}.`;
    }
    // `{ found: false, order_id, message }`: the message is advice for a model; the user gets a plain sentence.
    if (record.found === false) return notFound(name, record, w);
    // `{ found: true, order: {...} }`: the one nested object is what matters, and its key names it.
    const objectKeys = Object.keys(record).filter((key) => isRecord(record[key]));
    if (objectKeys.length === 1 && Object.keys(record).length <= 3) {
      const key = objectKeys[0] as string;
      return summarizeJson(name, record[key], w, humanize(key));
    }
    // One thing (it has an id or a status) is described, even when it holds a list (an order and its items).
    if (labelKeyOf(record) !== undefined || statusKeyOf(record) !== undefined) return describeEntity(name, record, w, noun);
    // `{ days_threshold: 3, count: 2, orders: [...] }`: one list with scalar context is about that list.
    const listKeys = Object.keys(record).filter((key) => Array.isArray(record[key]));
    const onlyScalarsBeside = Object.keys(record).every((key) => listKeys.includes(key) || !isRecord(record[key]));
    if (listKeys.length === 1 && onlyScalarsBeside) {
      return summarizeJson(name, record[listKeys[0] as string], w);
    }
    return endSentence(w.returned(name, formatFields(record, w)));
  }
  return endSentence(w.returned(name, formatValue(value)));
}

/**
 * One record, status first: `Order A-1007 is shipped, delivery date 2026-11-26 (1 day late).`, then its other
 * fields. Without a status it reads `getUser returned id 7, name Ana, …` as before.
 */
function describeEntity(name: string, record: Record<string, unknown>, w: Wording, noun = nounOf(name, record)): string {
  const statusKey = statusKeyOf(record);
  if (statusKey === undefined) return endSentence(w.returned(name, formatFields(record, w)));
  const labelKey = labelKeyOf(record);
  const dateKey = dateKeyOf(record);
  const delayKey = delayKeyOf(record);
  const label = labelKey === undefined ? undefined : formatValue(record[labelKey]);
  const subject = noun === undefined ? label : `${capitalize(nounIn(w, noun))}${label === undefined ? '' : ` ${label}`}`;
  const status = formatValue(record[statusKey]).replace(/_/g, ' ');
  let lead = subject === undefined ? w.status(name, status) : w.is(subject, status);
  if (dateKey !== undefined) lead += `, ${nounIn(w, humanize(dateKey))} ${formatValue(record[dateKey])}`;
  const delay = delayKey === undefined ? 0 : (record[delayKey] as number);
  if (delay > 0) lead += w.late(delay);
  const shown = new Set([labelKey, statusKey, dateKey, delayKey]);
  const rest = Object.fromEntries(Object.entries(record).filter(([key, value]) => !shown.has(key) && value !== undefined));
  const details = Object.keys(rest).length > 0 ? ` ${w.details} ${formatFields(rest, w, 4)}` : '';
  return endSentence(`${endSentence(lead)}${details}`);
}

function notFound(name: string, record: Record<string, unknown>, w: Wording): string {
  const labelKey = labelKeyOf(record);
  if (labelKey === undefined) return w.notFoundAny(name);
  const noun = nounOf(name, record);
  const what = noun === undefined ? formatValue(record[labelKey]) : `${nounIn(w, noun)} ${formatValue(record[labelKey])}`;
  return w.notFound(what, /id$/i.test(labelKey) ? 'id' : humanize(labelKey));
}

const LABEL_KEYS: readonly string[] = ['id', 'name', 'title', 'orderId', 'order_id'];
/** `order_id`, `orderId`: an id key that names what it identifies. */
const NOUN_ID = /^[a-z]+(_id|Id)$/;

function labelKeyOf(record: Record<string, unknown>): string | undefined {
  const known = LABEL_KEYS.find((key) => isScalar(record[key]) && record[key] !== null);
  return known ?? Object.keys(record).find((key) => NOUN_ID.test(key) && typeof record[key] === 'string');
}

function statusKeyOf(record: Record<string, unknown>): string | undefined {
  return ['status', 'state'].find((key) => typeof record[key] === 'string');
}

/** The date that matters most: a delivery or due date before any other (`previous_date`, `updated_at` last). */
function dateKeyOf(record: Record<string, unknown>): string | undefined {
  const dates = Object.keys(record).filter((key) => typeof record[key] === 'string' && /date|due|(^|_)eta$/i.test(key));
  return dates.find((key) => /deliver|due|eta|arriv|ship/i.test(key)) ?? dates.find((key) => !/previous|old|created|updated/i.test(key));
}

function delayKeyOf(record: Record<string, unknown>): string | undefined {
  return Object.keys(record).find((key) => /delay|late/i.test(key) && /day/i.test(key) && typeof record[key] === 'number');
}

/** What one record is, for a sentence: its `<noun>_id` key (the label first), else the tool's one noun (`getOrder`). */
function nounOf(name: string, record: Record<string, unknown>): string | undefined {
  const idKey = [labelKeyOf(record), ...Object.keys(record)].find((key) => key !== undefined && NOUN_ID.test(key));
  if (idKey !== undefined) return humanize(idKey.replace(/_?[Ii]d$/, ''));
  const words = splitIdentifier(name).filter((word) => !VERBS.has(word));
  return words.length === 1 ? words[0] : undefined;
}

const VERBS: ReadonlySet<string> = new Set('get set list show find fetch query search look lookup check read load'.split(' '));

function parseJson(text: string): unknown {
  if (!/^[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function denied(name: string, reason: string | undefined, w: Wording): string {
  const why = reason !== undefined && reason.trim().length > 0 ? ` (${clip(reason.trim())})` : '';
  return w.denied(name, why);
}

function failed(name: string, message: string, w: Wording): string {
  const text = message.replace(/^(?:[A-Za-z_]*Error:\s*)+/, '').trim() || message;
  return w.failed(name, clip(text));
}

function isDenial(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'approval-denied' || code === 'execution-denied';
}

function errorMessage(error: unknown): string | undefined {
  if (typeof error === 'string') return error;
  if (typeof error !== 'object' || error === null) return undefined;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' ? message : undefined;
}

function formatItem(item: unknown, w: Wording): string {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return formatValue(item);
  const record = item as Record<string, unknown>;
  const labelKey = LABEL_KEYS.find((key) => isScalar(record[key]));
  const rest = Object.fromEntries(Object.entries(record).filter(([key]) => key !== labelKey));
  const fields = formatFields(rest, w, 3);
  if (labelKey === undefined) return fields;
  return fields.length > 0 ? `${formatValue(record[labelKey])} (${fields})` : formatValue(record[labelKey]);
}

function formatFields(record: Record<string, unknown>, w: Wording, max = MAX_FIELDS): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (parts.length >= max) break;
    if (value === undefined) continue;
    if (Array.isArray(value)) parts.push(`${key}: ${formatList(value, w)}`);
    else if (typeof value === 'object' && value !== null) parts.push(`${key}: ${formatNested(value as Record<string, unknown>)}`);
    else parts.push(`${key} ${formatValue(value)}`);
  }
  return parts.length > 0 ? parts.join(', ') : w.emptyObject;
}

/**
 * A short list of named things by name (`1 × Mechanical keyboard`), of a few words by them, in the tool's words (an
 * audit's reasons: "status is delayed, running 9 days late"; it said "2 items"), anything else by its length.
 */
function formatList(list: readonly unknown[], w: Wording): string {
  const words = list.length <= 3 && list.every((item) => typeof item === 'string' && item.length > 0 && item.length <= 60) ? (list as string[]) : [];
  if (words.length > 0) return words.join(', ');
  const labels = list.length <= 3 ? list.map((item) => (isRecord(item) ? itemLabel(item) : undefined)) : [];
  if (labels.length > 0 && labels.every((label) => label !== undefined)) return labels.join(', ');
  return w.items(list.length);
}

function itemLabel(record: Record<string, unknown>): string | undefined {
  const labelKey = ['name', 'title', 'id'].find((key) => typeof record[key] === 'string');
  if (labelKey === undefined) return undefined;
  const count = ['qty', 'quantity', 'count'].map((key) => record[key]).find((value) => typeof value === 'number');
  return count === undefined ? formatValue(record[labelKey]) : `${count} × ${formatValue(record[labelKey])}`;
}

function formatNested(record: Record<string, unknown>): string {
  const scalars = Object.entries(record).filter(([, value]) => isScalar(value));
  return scalars.length === 0
    ? '{…}'
    : scalars
        .slice(0, 3)
        .map(([key, value]) => `${key} ${formatValue(value)}`)
        .join(', ');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Ends a sentence with a period unless it already ends with one (a value such as `…check the id.`). */
function endSentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

function isScalar(value: unknown): boolean {
  return ['string', 'number', 'boolean'].includes(typeof value) || value === null;
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return clip(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  try {
    return clip(JSON.stringify(value) ?? String(value));
  } catch {
    return String(value);
  }
}

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}
