import { dataByCallId, SEAL_PART, type SealPartData, toolParts } from '@edgetool/ai';
import { lastAssistantMessage, type MessageLike } from './plan.ts';

/**
 * Before a new user message: takes back the browser results in the last assistant message that the server never
 * sealed (a browser tool's output or error whose continuation failed or was stopped). The server refuses an unsealed
 * result once it is no longer in the last assistant message, so each becomes a pending call again, which it ignores.
 * Approval decisions stay: the server takes an answered approval in an earlier message (its ticket only has to be the
 * server's), and the model reads what became of the call (its recorded result when it ran, before its answer was lost;
 * else that its outcome is unknown; a denial as denied). Taken back, a call that ran would vanish from what the model
 * reads. Returns `undefined` when there is nothing to take back.
 */
export function withdrawUnsentAnswers<T extends MessageLike>(messages: readonly T[]): T[] | undefined {
  const message = lastAssistantMessage(messages);
  if (message === undefined) return undefined;
  const seals = dataByCallId<SealPartData>(message, SEAL_PART);
  const unsent = new Set(
    toolParts(message)
      .filter((part) => (part.state === 'output-available' || part.state === 'output-error') && !seals.has(part.toolCallId))
      .map((part) => part.toolCallId),
  );
  if (unsent.size === 0) return undefined;
  const parts = message.parts.map((part) => {
    const p = part as { toolCallId?: unknown; output?: unknown; errorText?: unknown };
    if (typeof p.toolCallId !== 'string' || !unsent.has(p.toolCallId)) return part;
    const { output: _output, errorText: _errorText, ...rest } = p;
    return { ...rest, state: 'input-available' };
  });
  return [...messages.slice(0, -1), { ...message, parts }];
}
