import { peekTicket } from '@edgetool/core';
import { dataByCallId, SEAL_PART, type SealPartData, TICKET_PART, type TicketPartData, toolParts } from '@edgetool/ai';
import { lastAssistantMessage, type MessageLike } from './plan.ts';

/** A call the server still has to take an answer for, and when its ticket expires (epoch ms, read unverified). */
export interface OpenCall {
  readonly toolCallId: string;
  readonly expiresAt: number;
}

/**
 * The calls of the last assistant message whose answer the server has not taken yet: waiting for a decision or a
 * browser result, or answered here and not sent (no seal yet). Each has a ticket, and the server takes the answer only
 * while that ticket is valid. The expiry is read from the ticket without checking it (`peekTicket`): it only tells a UI
 * when asking is pointless; the server decides.
 */
export function openCalls(messages: readonly MessageLike[]): OpenCall[] {
  const message = lastAssistantMessage(messages);
  if (message === undefined) return [];
  const tickets = dataByCallId<TicketPartData>(message, TICKET_PART);
  const seals = dataByCallId<SealPartData>(message, SEAL_PART);
  const open: OpenCall[] = [];
  for (const part of toolParts(message)) {
    const answered = part.state === 'output-available' || part.state === 'output-error' || part.state === 'output-denied';
    if (part.state === 'input-streaming' || (answered && seals.has(part.toolCallId))) continue;
    const expiresAt = peekTicket(tickets.get(part.toolCallId)?.ticket)?.exp;
    if (expiresAt !== undefined) open.push({ toolCallId: part.toolCallId, expiresAt });
  }
  return open;
}

/** Which open calls have expired at `now`, and when the next one will (`undefined`: none left to wait for). */
export function expiredCalls(messages: readonly MessageLike[], now: number): { readonly expired: string[]; readonly next: number | undefined } {
  const expired: string[] = [];
  let next: number | undefined;
  for (const call of openCalls(messages)) {
    if (call.expiresAt <= now) expired.push(call.toolCallId);
    else next = Math.min(next ?? call.expiresAt, call.expiresAt);
  }
  return { expired, next };
}
