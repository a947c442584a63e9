import { dataByCallId, EDIT_PART, type EditPartData, TICKET_PART, type TicketPartData, toolParts } from '@edgetool/ai';
import type { UIMessageChunk } from 'ai';
import type { ApprovalNote } from './browser-state.ts';
import type { MessageLike } from './plan.ts';

/**
 * The answers this browser wrote into a message that its response has not carried to the server yet (a browser
 * tool's result, an approval decision, with the human's edited arguments), by call id, as the chunks that write them.
 * A replay of the answer (a resumed turn, from its `start`) writes the message again without them; put back, the call
 * does not run or ask twice. An approval of a call whose arguments could be edited takes its edit from the message or
 * from `approvals` (the hook's note, saved in `browserState`); with neither (the message lost its edit part, a chunk
 * after it rewrote the message, and nothing was noted) it is left out: put back alone, the call could run unedited.
 */
export function browserAnswers(message: MessageLike | undefined, approvals: Readonly<Record<string, ApprovalNote>> = {}): ReadonlyMap<string, readonly UIMessageChunk[]> {
  const answers = new Map<string, readonly UIMessageChunk[]>();
  if (message === undefined) return answers;
  const tickets = dataByCallId<TicketPartData>(message, TICKET_PART);
  const edits = dataByCallId<EditPartData>(message, EDIT_PART);
  for (const part of toolParts(message)) {
    const { toolCallId } = part;
    const handedOver = tickets.get(toolCallId)?.purpose === 'client-result';
    const p = part as { state: string; output?: unknown; errorText?: string; approval?: { id: string; approved?: boolean; reason?: string } };
    if (handedOver && p.state === 'output-available') answers.set(toolCallId, [{ type: 'tool-output-available', toolCallId, output: p.output }]);
    else if (handedOver && p.state === 'output-error') answers.set(toolCallId, [{ type: 'tool-output-error', toolCallId, errorText: p.errorText ?? '' }]);
    else if (p.state === 'approval-responded' && p.approval?.approved !== undefined) {
      const { id, approved, reason } = p.approval;
      const response: UIMessageChunk = { type: 'tool-approval-response', approvalId: id, approved, ...(reason === undefined ? {} : { reason }) };
      // The edit part of the message, or the one noted beside it (a later chunk of the response may have dropped it).
      const note = approved && Object.hasOwn(approvals, toolCallId) ? approvals[toolCallId] : undefined;
      const edit = approved ? (edits.get(toolCallId) ?? (note !== undefined && 'input' in note ? { toolCallId, input: note.input } : undefined)) : undefined;
      if (edit !== undefined) answers.set(toolCallId, [response, { type: EDIT_PART, id: toolCallId, data: edit }]);
      else if (!approved || note !== undefined || tickets.get(toolCallId)?.editable === undefined) answers.set(toolCallId, [response]);
    }
  }
  return answers;
}

/**
 * The answer to put back after a replayed chunk: the browser's result after the call's `tool-input-available`, the
 * decision (and its edit) after its `tool-approval-request` (the same request: its approval id). Empty for any other.
 */
export function answerAfter(chunk: UIMessageChunk, answers: ReadonlyMap<string, readonly UIMessageChunk[]>): readonly UIMessageChunk[] {
  if (chunk.type !== 'tool-input-available' && chunk.type !== 'tool-approval-request') return [];
  const answer = answers.get(chunk.toolCallId);
  const first = answer?.[0];
  if (answer === undefined || first === undefined) return [];
  if (chunk.type === 'tool-input-available') return first.type === 'tool-approval-response' ? [] : answer;
  return first.type === 'tool-approval-response' && first.approvalId === chunk.approvalId ? answer : [];
}
