import { UI_MESSAGE_STREAM_HEADERS, type UIMessageChunk } from 'ai';
import { ResumableStoreError } from './store.ts';

/** Longest turn id taken from a client. */
const MAX_TURN_ID_LENGTH = 100;

/** The turn id a client sent, if it is one (a short printable string); otherwise `undefined`. */
export function readTurnId(value: string | null | undefined): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_TURN_ID_LENGTH && /^[\x21-\x7e]+$/.test(value) ? value : undefined;
}

/** One SSE event of the UI message stream, as `createUIMessageStreamResponse` writes it. */
export const sseEvent = (chunk: UIMessageChunk): string => `data: ${JSON.stringify(chunk)}\n\n`;
/** The SSE stream's last event. */
export const SSE_DONE = 'data: [DONE]\n\n';

/** The response headers of a UI message stream, over `init`'s. */
export function sseHeaders(headers?: HeadersInit): Headers {
  const merged = new Headers(headers);
  for (const [name, value] of Object.entries(UI_MESSAGE_STREAM_HEADERS)) if (!merged.has(name)) merged.set(name, value);
  return merged;
}

/** Calls a store method; a throw or rejection becomes a {@link ResumableStoreError}. */
export async function storeCall<T>(operation: ResumableStoreError['operation'], call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw ResumableStoreError.isInstance(error) ? error : new ResumableStoreError(operation, error);
  }
}
