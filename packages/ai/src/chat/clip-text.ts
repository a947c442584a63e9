// Not in the barrel: how the chat loop's errors name what a client chose (a call id, a tool name, a message id).

/** The longest client-chosen string an error message repeats whole; a longer one is cut to a prefix. */
export const MAX_ECHOED_CHARS = 64;

/**
 * `text` as an error message names it: whole up to {@link MAX_ECHOED_CHARS} characters, else its first 48 with an
 * ellipsis and its length. A refusal that repeated a client's 400 KB call id in full made an 800 KB error body.
 */
export function clipped(text: string): string {
  if (typeof text !== 'string') return clipped(String(text));
  return text.length <= MAX_ECHOED_CHARS ? text : `${text.slice(0, 48)}… (${text.length} characters)`;
}
