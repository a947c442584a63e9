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

/**
 * Whether an answer holds nothing that came from the model: no words, no call, only the step marks `useChat` writes
 * as a response begins. A server's error before the first word leaves such a message (its `start` chunk made it).
 */
export function isEmptyAnswer(message: EdgetoolUIMessage): boolean {
  return (
    message.role === 'assistant' &&
    message.parts.every((part) => part.type === 'step-start' || ((part.type === 'text' || part.type === 'reasoning') && part.text.trim() === ''))
  );
}
