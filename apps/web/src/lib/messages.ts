import type { EdgetoolUIMessage } from '@edgetool/ai';

/** The conversation without its last user message and everything after it: the way out of a refused request. */
export function withoutLastTurn(messages: readonly EdgetoolUIMessage[]): EdgetoolUIMessage[] {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]?.role === 'user') return messages.slice(0, index);
  }
  return [...messages];
}

/** A message's text parts joined, for a screen reader announcement. */
export function messageText(message: EdgetoolUIMessage): string {
  return message.parts
    .flatMap((part) => (part.type === 'text' && part.text.trim() !== '' ? [part.text.trim()] : []))
    .join('\n');
}
