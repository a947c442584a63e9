import { dataByCallId, TICKET_PART, type TicketPartData, toolParts } from '@edgetool/ai';
import type { UIMessageChunk } from 'ai';
import type { MessageLike } from './plan.ts';

/**
 * The answers this browser wrote into a message that its response has not carried to the server yet (a browser
 * tool's result, an approval decision), by call id, as the chunks that write them. A replay of the answer (a resumed
 * turn, from its `start`) writes the message again without them; put back, the call does not run or ask twice.
 */
export function browserAnswers(message: MessageLike | undefined): ReadonlyMap<string, UIMessageChunk> {
  const answers = new Map<string, UIMessageChunk>();
  if (message === undefined) return answers;
  const tickets = dataByCallId<TicketPartData>(message, TICKET_PART);
  for (const part of toolParts(message)) {
    const { toolCallId } = part;
    const handedOver = tickets.get(toolCallId)?.purpose === 'client-result';
    const p = part as { state: string; output?: unknown; errorText?: string; approval?: { id: string; approved?: boolean; reason?: string } };
    if (handedOver && p.state === 'output-available') answers.set(toolCallId, { type: 'tool-output-available', toolCallId, output: p.output });
    else if (handedOver && p.state === 'output-error') answers.set(toolCallId, { type: 'tool-output-error', toolCallId, errorText: p.errorText ?? '' });
    else if (p.state === 'approval-responded' && p.approval?.approved !== undefined) {
      const { id, approved, reason } = p.approval;
      answers.set(toolCallId, { type: 'tool-approval-response', approvalId: id, approved, ...(reason === undefined ? {} : { reason }) });
    }
  }
  return answers;
}

/**
 * The answer to put back after a replayed chunk: the browser's result after the call's `tool-input-available`, the
 * decision after its `tool-approval-request` (the same request: its approval id).
 */
export function answerAfter(chunk: UIMessageChunk, answers: ReadonlyMap<string, UIMessageChunk>): UIMessageChunk | undefined {
  if (chunk.type !== 'tool-input-available' && chunk.type !== 'tool-approval-request') return undefined;
  const answer = answers.get(chunk.toolCallId);
  if (answer === undefined) return undefined;
  if (chunk.type === 'tool-input-available') return answer.type === 'tool-approval-response' ? undefined : answer;
  return answer.type === 'tool-approval-response' && answer.approvalId === chunk.approvalId ? answer : undefined;
}
