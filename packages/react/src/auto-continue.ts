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
  const message = lastAssistantMessage(messages);
  if (message === undefined) return false;
  let lastStep = -1;
  message.parts.forEach((part, index) => {
    if ((part as { type?: unknown }).type === 'step-start') lastStep = index;
  });
  const calls = toolParts({ parts: message.parts.slice(lastStep + 1) });
  if (calls.length === 0) return false;
  const settled = calls.every((part) => SETTLED.has(part.state) && (part as { preliminary?: unknown }).preliminary !== true);
  if (!settled) return false;
  const seals = dataByCallId<SealPartData>(message, SEAL_PART);
  return calls.some(
    (part) => part.state === 'approval-responded' || ((part.state === 'output-available' || part.state === 'output-error') && !seals.has(part.toolCallId)),
  );
}
