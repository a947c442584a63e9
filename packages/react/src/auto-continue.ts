import { dataByCallId, SEAL_PART, type SealPartData, toolParts } from '@edgetool/ai';
import { lastAssistantMessage, type MessageLike } from './plan.ts';

const SETTLED = new Set(['output-available', 'output-error', 'output-denied', 'approval-responded']);

/**
 * `sendAutomaticallyWhen` for edgetool chats: continue when every call of the last step is answered
 * and at least one answer came from this browser (an approval decision, or a result the server has
 * not sealed). Unlike `lastAssistantMessageIsCompleteWithToolCalls` alone, it never resends a turn
 * that the server finished itself (return-direct tools, or the step limit reached after tool calls).
 */
export function shouldContinue({ messages }: { readonly messages: readonly MessageLike[] }): boolean {
  return continuationOf(messages) !== undefined;
}

/**
 * The continuation {@link shouldContinue} would send, as a key: the last assistant message and the state of each call of
 * its last step; `undefined` when it would send none. The same key after the response to that very continuation
 * finished means the server answered without taking its answers (no seal, no new step): sending it again would only
 * get the same answer.
 */
export function continuationOf(messages: readonly MessageLike[]): string | undefined {
  const message = lastAssistantMessage(messages);
  if (message === undefined) return undefined;
  let lastStep = -1;
  message.parts.forEach((part, index) => {
    if ((part as { type?: unknown }).type === 'step-start') lastStep = index;
  });
  const calls = toolParts({ parts: message.parts.slice(lastStep + 1) });
  if (calls.length === 0) return undefined;
  const settled = calls.every((part) => SETTLED.has(part.state) && (part as { preliminary?: unknown }).preliminary !== true);
  if (!settled) return undefined;
  const seals = dataByCallId<SealPartData>(message, SEAL_PART);
  const answered = calls.some(
    (part) => part.state === 'approval-responded' || ((part.state === 'output-available' || part.state === 'output-error') && !seals.has(part.toolCallId)),
  );
  return answered ? JSON.stringify([message.id, calls.map((part) => [part.toolCallId, part.state])]) : undefined;
}
