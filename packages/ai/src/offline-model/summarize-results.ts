import type { LanguageModelV4ToolResultPart } from '@ai-sdk/provider';

const MAX_FIELDS = 6;
const MAX_ITEMS = 5;
const MAX_TEXT = 160;

/** One readable sentence per tool result: key fields of objects, counts of lists, honest failures and denials. */
export function summarizeToolResults(results: readonly LanguageModelV4ToolResultPart[]): string {
  const sentences = results.map((result) => summarizeOne(result));
  if (sentences.length <= 1) return sentences[0] ?? 'There were no tool results to report.';
  return `Here is what happened:\n${sentences.map((sentence) => `- ${sentence}`).join('\n')}`;
}

function summarizeOne(result: LanguageModelV4ToolResultPart): string {
  const name = result.toolName;
  const output = result.output;
  switch (output.type) {
    case 'execution-denied':
      return denied(name, output.reason);
    case 'error-text':
      return failed(name, output.value);
    case 'error-json':
      return failed(name, errorMessage(output.value) ?? formatValue(output.value));
    case 'text': {
      const text = output.value.trim();
      if (text.length === 0) return `${name} finished without output.`;
      // Tools' JSON results reach the model as text (edgetool's content): read them as JSON again.
      const json = parseJson(text);
      return json === undefined ? `${name}: ${clip(text)}` : summarizeJson(name, json);
    }
    case 'content': {
      const text = output.value
        .map((part) => (part.type === 'text' ? part.text : `[${part.type}]`))
        .join(' ')
        .trim();
      return text.length === 0 ? `${name} returned non-text content.` : `${name}: ${clip(text)}`;
    }
    case 'json':
      return summarizeJson(name, output.value);
    default:
      return `${name} finished.`;
  }
}

function summarizeJson(name: string, value: unknown): string {
  if (value === null || value === undefined) return `${name} returned nothing.`;
  if (Array.isArray(value)) {
    if (value.length === 0) return `${name} returned no results.`;
    const shown = value.slice(0, MAX_ITEMS).map((item) => formatItem(item));
    const more = value.length > MAX_ITEMS ? `; and ${value.length - MAX_ITEMS} more` : '';
    const noun = value.length === 1 ? 'result' : 'results';
    return `${name} returned ${value.length} ${noun}: ${shown.join('; ')}${more}.`;
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (record.ok === false || Object.hasOwn(record, 'error')) {
      const message = errorMessage(record.error ?? record) ?? formatValue(record.error ?? record);
      return isDenial(record.error ?? record) ? denied(name, message) : failed(name, message);
    }
    // `{ found: true, order: {...} }`: the one nested object is what matters.
    const objectKeys = Object.keys(record).filter((key) => typeof record[key] === 'object' && record[key] !== null && !Array.isArray(record[key]));
    if (objectKeys.length === 1 && Object.keys(record).length <= 3) return summarizeJson(name, record[objectKeys[0] as string]);
    // `{ days_threshold: 3, count: 2, orders: [...] }`: one list with scalar context is about that list.
    const listKeys = Object.keys(record).filter((key) => Array.isArray(record[key]));
    const onlyScalarsBeside = Object.keys(record).every((key) => listKeys.includes(key) || typeof record[key] !== 'object' || record[key] === null);
    if (listKeys.length === 1 && onlyScalarsBeside) {
      return summarizeJson(name, record[listKeys[0] as string]);
    }
    return `${name} returned ${formatFields(record)}.`;
  }
  return `${name} returned ${formatValue(value)}.`;
}

function parseJson(text: string): unknown {
  if (!/^[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function denied(name: string, reason: string | undefined): string {
  const why = reason !== undefined && reason.trim().length > 0 ? ` (${clip(reason.trim())})` : '';
  return `${name} was not run because the request was denied${why}, so the action was not performed.`;
}

function failed(name: string, message: string): string {
  const text = message.replace(/^(?:[A-Za-z_]*Error:\s*)+/, '').trim() || message;
  return `The tool failed: ${name} reported "${clip(text)}".`;
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

function formatItem(item: unknown): string {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return formatValue(item);
  const record = item as Record<string, unknown>;
  const labelKey = ['id', 'name', 'title', 'orderId', 'order_id'].find((key) => isScalar(record[key]));
  const rest = Object.fromEntries(Object.entries(record).filter(([key]) => key !== labelKey));
  const fields = formatFields(rest, 3);
  if (labelKey === undefined) return fields;
  return fields.length > 0 ? `${formatValue(record[labelKey])} (${fields})` : formatValue(record[labelKey]);
}

function formatFields(record: Record<string, unknown>, max = MAX_FIELDS): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (parts.length >= max) break;
    if (value === undefined) continue;
    if (Array.isArray(value)) parts.push(`${key}: ${value.length} ${value.length === 1 ? 'item' : 'items'}`);
    else if (typeof value === 'object' && value !== null) parts.push(`${key}: ${formatNested(value as Record<string, unknown>)}`);
    else parts.push(`${key} ${formatValue(value)}`);
  }
  return parts.length > 0 ? parts.join(', ') : 'an empty object';
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
