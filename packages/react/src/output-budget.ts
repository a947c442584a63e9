import { dataByCallId, TICKET_PART, type TicketPartData, toolParts, utf8Bytes } from '@edgetool/ai';
import { lastAssistantMessage, type MessageLike } from './plan.ts';

/** The bytes of an output's JSON, as a request carries it (`undefined` goes as `null`). */
export function outputBytes(output: unknown): number {
  return utf8Bytes(JSON.stringify(output ?? null));
}

/**
 * The bytes the other browser outputs of a call's step take in the request that carries them (the step's
 * continuation): those already in the last assistant message (calls of the same step handed to this browser with a
 * `client-result` ticket and answered with an output), and those accepted but not written there yet (`pending`, by
 * call id). 0 when the last assistant message does not hold the call.
 */
export function stepOutputBytes(messages: readonly MessageLike[], toolCallId: string, pending: ReadonlyMap<string, number>): number {
  const message = lastAssistantMessage(messages);
  if (message === undefined) return 0;
  // The parts of each step, as `step-start` parts divide them.
  const steps: unknown[][] = [[]];
  for (const part of message.parts) {
    if ((part as { type?: unknown }).type === 'step-start') steps.push([]);
    else steps.at(-1)?.push(part);
  }
  const step = steps.find((parts) => toolParts({ parts }).some((part) => part.toolCallId === toolCallId));
  if (step === undefined) return 0;
  const tickets = dataByCallId<TicketPartData>(message, TICKET_PART);
  let bytes = 0;
  for (const part of toolParts({ parts: step })) {
    if (part.toolCallId === toolCallId || tickets.get(part.toolCallId)?.purpose !== 'client-result') continue;
    if (part.state === 'output-available') bytes += outputBytes(part.output);
    else if (!part.state.startsWith('output-')) bytes += pending.get(part.toolCallId) ?? 0;
  }
  return bytes;
}
