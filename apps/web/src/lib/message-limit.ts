/**
 * The longest message the composer sends (characters). The server refuses request bodies over 512 KB
 * (`MAX_CHAT_BODY_BYTES` in apps/worker/src/api/chat.ts), and every request carries the whole history:
 * a per-message cap keeps one paste from making the conversation unsendable.
 */
export const MAX_MESSAGE_CHARS = 20_000;

/** From this share of the limit on, the composer shows a counter. */
const NEAR_SHARE = 0.8;

/** Where a draft stands against {@link MAX_MESSAGE_CHARS}: `ok`, `near` (show a counter) or `over` (refuse to send). */
export function messageLimitState(length: number, max: number = MAX_MESSAGE_CHARS): 'ok' | 'near' | 'over' {
  if (length > max) return 'over';
  return length >= max * NEAR_SHARE ? 'near' : 'ok';
}
