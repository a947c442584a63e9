// Not in the barrel: the executor's fast path of parseArguments.

/**
 * Text that `parseArguments`' prototype-key check may match, or that needs its guard of `JSON.parse` (a
 * backslash): the arguments of most calls have none of them, and are then parsed with nothing else.
 */
export const NOT_PLAIN: RegExp = /__proto__|constructor|\\/;

/** What {@link plainArguments} returns for arguments it leaves to `parseArguments`. */
export const UNREAD: unique symbol = Symbol('unread');

/** The last character of a key `parseJson` sends through its slow parser (see `parseJson`: V8 can hand back such a key). */
const BACKSLASH = 92;

/**
 * The value of arguments `parseArguments` would give as `JSON.parse` gives it, with no result object made for it: the
 * executor's common case, text of a primitive or of a flat object (no object or array in it) whose keys are neither
 * prototype key (`__proto__`, `constructor`) and do not end in a backslash. It reads the parsed keys, not the text: a
 * scan of the text for those words cost more than the walk of a few keys. A nested value (or one with such a key) is
 * kept when its text has neither word nor a backslash ({@link NOT_PLAIN}), as parseArguments would keep it, so nested
 * arguments are parsed once. Anything else, malformed JSON and blank text included, is {@link UNREAD}: `parseArguments`
 * reads it (and reports it) as before.
 */
export function plainArguments(raw: unknown): unknown {
  if (typeof raw !== 'string' || raw.trim() === '') return UNREAD;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return UNREAD;
  }
  if (typeof value !== 'object' || value === null) return value;
  // A value the walk below does not clear is read as parseArguments' own first line reads it: text that cannot spell
  // either key or a backslash is its `JSON.parse` (kept, not parsed again there); any other is left to it.
  if (Array.isArray(value)) return NOT_PLAIN.test(raw) ? UNREAD : value;
  // JSON makes own data properties only (an inherited enumerable key, from a polluted prototype, is checked too).
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (key === '__proto__' || key === 'constructor' || key.charCodeAt(key.length - 1) === BACKSLASH || (typeof item === 'object' && item !== null)) {
      return NOT_PLAIN.test(raw) ? UNREAD : value;
    }
  }
  return value;
}
