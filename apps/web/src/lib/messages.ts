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

/** A call's states once it is answered: a result, an error, a denial, or the user's decision the server has to act on. */
const ANSWERED_CALL: ReadonlySet<string> = new Set(['output-available', 'output-error', 'output-denied', 'approval-responded']);

/**
 * Whether a tool part is a call that is answered (its final result, an error, a denial, the user's decision), sealed by
 * the server or not: what the model reads next, so the card shows what the user saw before the model went on.
 */
export function isAnsweredCall(part: { readonly state?: string; readonly preliminary?: boolean }): boolean {
  return ANSWERED_CALL.has(part.state ?? '') && part.preliminary !== true;
}

/**
 * Whether a tool part is a call the user approved that has no outcome yet (`approval-responded`, approved): once its
 * continuation goes out, the server runs it before the model reads anything, and its card says so ("running").
 */
export function isApprovedRun(part: { readonly state?: string; readonly approval?: { readonly approved?: boolean } | undefined }): boolean {
  return part.state === 'approval-responded' && part.approval?.approved === true;
}

/**
 * Whether the current step of an answer (its parts after its last step mark) shows nothing new yet: no words, and no
 * call but those already answered (a continuation's, whose results the model is reading). While the answer streams the
 * model is thinking then, after the response's `start`, between two steps, or after the answers went out: the row would
 * show nothing that moves. Not while the server runs a call the user approved (`isApprovedRun`): its card says it runs,
 * and the model is not asked until its result came. Reasoning is not shown by this app, so it does not count.
 */
export function awaitsContent(message: EdgetoolUIMessage): boolean {
  if (message.role !== 'assistant') return false;
  let from = 0;
  message.parts.forEach((part, index) => {
    if (part.type === 'step-start') from = index + 1;
  });
  return message.parts.slice(from).every((part) => {
    if (part.type === 'text') return part.text.trim() === '';
    if (part.type.startsWith('tool-') || part.type === 'dynamic-tool') {
      const call = part as { state?: string; preliminary?: boolean; approval?: { approved?: boolean } };
      return isAnsweredCall(call) && !isApprovedRun(call);
    }
    return true;
  });
}

/**
 * The call ids more than one tool part of the conversation holds: a hostile or buggy server sent a second call with an
 * id the conversation already had (ours renames a model's repeats). The page runs one call per id (the repeat's card says
 * "not run"), but such a history is refused by our Worker for every later request (a 403 `duplicate-call`).
 */
export function repeatedCallIds(messages: readonly EdgetoolUIMessage[]): ReadonlySet<string> {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.parts) {
      if (!(part.type.startsWith('tool-') || part.type === 'dynamic-tool') || !('toolCallId' in part)) continue;
      const id = (part as { toolCallId: unknown }).toolCallId;
      if (typeof id !== 'string') continue;
      if (seen.has(id)) repeated.add(id);
      seen.add(id);
    }
  }
  return repeated;
}
