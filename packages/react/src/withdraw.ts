import { dataByCallId, SEAL_PART, type SealPartData, toolParts } from '@edgetool/ai';
import { editPartCall } from './edits.ts';
import { lastAssistantMessage, type MessageLike } from './plan.ts';

/**
 * Before a new user message: takes back answers in the last assistant message that the server never
 * accepted (an approval decision or a browser result whose continuation failed or was stopped).
 * The server refuses such answers once they are no longer in the last assistant message, so they
 * become pending calls again, which it ignores. The edits sent with a withdrawn approval go with it. Returns
 * `undefined` when there is nothing to take back.
 */
export function withdrawUnsentAnswers<T extends MessageLike>(messages: readonly T[]): T[] | undefined {
  const message = lastAssistantMessage(messages);
  if (message === undefined) return undefined;
  const seals = dataByCallId<SealPartData>(message, SEAL_PART);
  const unsent = new Set(
    toolParts(message)
      .filter((part) => part.state === 'approval-responded' || ((part.state === 'output-available' || part.state === 'output-error') && !seals.has(part.toolCallId)))
      .map((part) => part.toolCallId),
  );
  if (unsent.size === 0) return undefined;
  const kept = message.parts.filter((part) => {
    const edited = editPartCall(part);
    return edited === undefined || !unsent.has(edited);
  });
  const parts = kept.map((part) => {
    const p = part as { toolCallId?: unknown; state?: unknown; approval?: { id: string; approved?: boolean; reason?: string } };
    if (typeof p.toolCallId !== 'string' || !unsent.has(p.toolCallId)) return part;
    if (p.state === 'approval-responded') {
      const { approved: _approved, reason: _reason, ...request } = p.approval ?? { id: '' };
      return { ...p, state: 'approval-requested', approval: request };
    }
    const { output: _output, errorText: _errorText, ...rest } = p as typeof p & { output?: unknown; errorText?: unknown };
    return { ...rest, state: 'input-available' };
  });
  return [...messages.slice(0, -1), { ...message, parts }];
}
