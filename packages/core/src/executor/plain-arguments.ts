// Not in the barrel: the executor's fast path of parseArguments.

/**
 * Text that `parseArguments`' prototype-key check may match, or that needs its guard of `JSON.parse` (a
 * backslash). One test: the arguments of most calls have none of them, and are then parsed with nothing else.
 */
export const NOT_PLAIN: RegExp = /__proto__|constructor|\\/;

/** What {@link plainArguments} returns for arguments it leaves to `parseArguments`. */
export const UNREAD: unique symbol = Symbol('unread');

/**
 * The value of arguments `parseArguments` would only `JSON.parse` (text that is not blank and has no backslash and
 * neither key), with no result object made for it: the executor's common case. Anything else, malformed JSON included,
 * is {@link UNREAD}: `parseArguments` reads it (and reports it) as before.
 */
export function plainArguments(raw: unknown): unknown {
  if (typeof raw !== 'string' || NOT_PLAIN.test(raw) || raw.trim() === '') return UNREAD;
  try {
    return JSON.parse(raw);
  } catch {
    return UNREAD;
  }
}
