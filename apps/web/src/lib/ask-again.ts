import { MAX_MESSAGE_CHARS } from './message-limit.ts';

/**
 * The message "Ask again" sends for a call whose ticket expired before the user answered it, or whose answer the server
 * refused for good (`why: 'refused'`, a used ticket): a sentence any model understands, and the call itself as a
 * `/tool_name {json}` line, which the offline model reads as that very call. The line is left out when the input has no
 * JSON form or would make the message longer than the composer allows.
 */
export function askAgainText(call: { readonly toolName: string; readonly input: unknown }, why: 'expired' | 'refused' = 'expired'): string {
  const sentence =
    why === 'expired'
      ? `The ${call.toolName} call expired before I answered it. Please ask me again.`
      : `The server refused my answer to the ${call.toolName} call. Please ask me again.`;
  let json: string | undefined;
  try {
    json = JSON.stringify(call.input ?? {});
  } catch {
    json = undefined;
  }
  const line = json === undefined ? undefined : `/${call.toolName} ${json}`;
  return line === undefined || sentence.length + 1 + line.length > MAX_MESSAGE_CHARS ? sentence : `${sentence}\n${line}`;
}
