import type { ModelContent, ModelContentPart } from './model-content.ts';

/**
 * How many characters of one tool result the model reads when the tool's policy sets no `maxContentChars`: about
 * 25,000 tokens of English or JSON. A longer result reaches the model cut, with a note that says so.
 */
export const DEFAULT_MAX_CONTENT_CHARS = 100_000;

/** The smallest `policy.maxContentChars`: room for the note that says what was left out, and some of the result. */
export const MIN_MAX_CONTENT_CHARS = 1_000;

/** The share of the characters kept that comes from the result's start; the rest comes from its end. */
const HEAD_SHARE = 0.8;

/** `n` with thousands separators, the same in every runtime (no `Intl`). */
function digits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The note that stands where a result was cut: what the model missed, and what it can do about it. */
function cutNote(omitted: number, total: number, max: number): string {
  return (
    `\n\n[… ${digits(omitted)} of ${digits(total)} characters left out here: this result is longer than the ` +
    `${digits(max)} characters you may read of one tool result. If you need what is missing, call the tool again ` +
    'for less of it (a narrower query, one page).]\n\n'
  );
}

/** Whether the UTF-16 unit at `index` of `text` is the first half of a surrogate pair. */
function isHighSurrogate(text: string, index: number): boolean {
  const unit = text.charCodeAt(index);
  return unit >= 0xd800 && unit <= 0xdbff;
}

/** Whether the UTF-16 unit at `index` of `text` is the second half of a surrogate pair. */
function isLowSurrogate(text: string, index: number): boolean {
  const unit = text.charCodeAt(index);
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/**
 * `text` with only `keep` of its characters, its start and its end, around the note for `total` and `max`; a surrogate
 * pair is never split (a lone half is what some providers refuse as invalid UTF-8).
 */
function cutText(text: string, keep: number, total: number, max: number, omittedElsewhere: number): string {
  let head = Math.min(text.length, Math.floor(keep * HEAD_SHARE));
  let tail = Math.min(text.length - head, keep - head);
  if (head > 0 && isHighSurrogate(text, head - 1)) head -= 1;
  if (tail > 0 && isLowSurrogate(text, text.length - tail)) tail -= 1;
  const omitted = text.length - head - tail + omittedElsewhere;
  return `${text.slice(0, head)}${cutNote(omitted, total, max)}${tail > 0 ? text.slice(text.length - tail) : ''}`;
}

/**
 * What the model reads of a tool result, at most `max` characters of text (`policy.maxContentChars`): a longer text
 * keeps its start and its end around a note that says how much was left out and what to do. In parts, the text parts
 * share the bound in order (the one that crosses it is cut, the later ones are left out); images and documents stay, as
 * they are not text. `Infinity` changes nothing; a bound under {@link MIN_MAX_CONTENT_CHARS} throws a `RangeError`. The
 * executor applies it to every result and failure it reports, so a result the model reads now and the same result in a
 * later request's history read the same.
 */
export function boundModelContent(content: ModelContent, max: number): ModelContent {
  if (max === Number.POSITIVE_INFINITY) return content;
  if (!Number.isSafeInteger(max) || max < MIN_MAX_CONTENT_CHARS) {
    throw new RangeError(`The bound of a tool result must be a whole number of characters from ${MIN_MAX_CONTENT_CHARS}, or Infinity; got ${max}.`);
  }
  if (typeof content === 'string') {
    if (content.length <= max) return content;
    // The note's length with the largest count it can hold: the kept text plus the real note never passes `max`.
    return cutText(content, max - cutNote(content.length, content.length, max).length, content.length, max, 0);
  }
  let total = 0;
  for (const part of content) if (part.type === 'text') total += part.text.length;
  if (total <= max) return content;
  let left = max - cutNote(total, total, max).length;
  let after = total;
  const bounded: ModelContentPart[] = [];
  let cut = false;
  for (const part of content) {
    if (part.type !== 'text') {
      bounded.push(part);
      continue;
    }
    after -= part.text.length;
    if (cut) continue;
    if (part.text.length <= left) {
      bounded.push(part);
      left -= part.text.length;
      continue;
    }
    // This part crosses the bound: it carries the note, which counts the text parts after it too.
    bounded.push({ type: 'text', text: cutText(part.text, left, total, max, after) });
    cut = true;
  }
  return bounded;
}

