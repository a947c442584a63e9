import type { EdgetoolUIMessage } from '@edgetool/ai';
import { shouldContinue, type ToolCallView } from '@edgetool/react';
import type { FailedRequest } from './chat-storage.ts';
import { isTooLarge, retryAction } from './error-hint.ts';
import { isAnsweredCall } from './messages.ts';

/** What {@link continuationUnsent} reads beside the messages. */
export interface UnsentState {
  /** A response streams or a browser tool runs (`useEdgeChat`'s `busy`): a continuation is on its way, or not due yet. */
  readonly busy: boolean;
  /** The last request of this chat failed (`useChat`'s status `error`). */
  readonly failed: boolean;
  /** This page sent a request of this chat since it loaded. */
  readonly sentHere: boolean;
}

/**
 * Whether the last answer holds answers the server has not taken (an approval, a denial, a browser result), due to
 * go as a continuation, with nothing on its way: the continuation that carried them failed (no answer, a gateway's
 * 502 or 504), or the page was reloaded before it went or came back. Sending it again is safe: the ticket of a call
 * the server never saw is still unused, and one whose call ran is answered from the result the server recorded. Not
 * while it is on its way, and not after a request of this page that ended without an error (stopped on purpose).
 */
export function continuationUnsent(messages: readonly EdgetoolUIMessage[], state: UnsentState): boolean {
  if (state.busy || !shouldContinue({ messages })) return false;
  return state.failed || !state.sentHere;
}

/**
 * Whether the last message is an answer that ends at its calls' answers: every call of its last step with calls is
 * answered (a result, an error, a denial, the user's decision, sealed by the server or not) and no words follow them
 * (only step marks and data parts, such as seals). The model's next words are what is missing. Sent again, such a
 * conversation asks the server to go on from those answers: one it has not taken is the same continuation (a call that
 * ran is answered from its record, never run twice), one it sealed is history, which claims and runs nothing.
 */
export function endsAtAnswers(messages: readonly EdgetoolUIMessage[]): boolean {
  const message = messages.at(-1);
  if (message?.role !== 'assistant') return false;
  let calls = 0;
  for (let index = message.parts.length - 1; index >= 0; index--) {
    const part = message.parts[index] as { type: string; state?: string; text?: string; preliminary?: boolean };
    if (part.type === 'step-start') {
      if (calls > 0) return true;
    } else if (part.type === 'text' || part.type === 'reasoning') {
      if ((part.text ?? '').trim() !== '') return calls > 0;
    } else if (part.type.startsWith('tool-') || part.type === 'dynamic-tool') {
      if (!isAnsweredCall(part)) return false;
      calls++;
    } else if (!part.type.startsWith('data-')) return false;
  }
  return calls > 0;
}

/**
 * Whether the last answer ended at its calls' results because its request failed (`failed`: this page's last request
 * of the chat, or the one kept with the conversation across a reload), with nothing on its way: the answer offers Retry,
 * which asks the model again for its words on those results (the server goes on from the results it sealed and runs
 * nothing again). Only then: an answer the server's step limit or token budget ended there, or the user's stop, ends
 * at its results too, and the messages alone cannot tell them apart. Not while the server has not taken some of the
 * answers (`continuationUnsent`: the card's Retry sends them), nor after a refusal a new try would meet again (a 403).
 */
export function goesOnAfterFailure(messages: readonly EdgetoolUIMessage[], failed: FailedRequest | undefined, state: Pick<UnsentState, 'busy'>): boolean {
  if (state.busy || failed === undefined || messages.at(-1)?.id !== failed.messageId) return false;
  if (!endsAtAnswers(messages) || shouldContinue({ messages })) return false;
  return retryAction(failed.error, { server: 'online', answered: true, atAnswers: true }) === 'resend';
}

/**
 * The refusal that ended the last answer's continuation for good: the server refused the request that carried the
 * user's answers (`failed`: this page's last request of the chat, or the one kept with the conversation across a
 * reload) in a way a new try meets again (a 403 for a used or invalid ticket, a 400). Their cards say why instead of
 * offering Retry, and what can still be done (see {@link refusedDecisionText}); `undefined` while Retry may still work
 * (no answer came, a gateway's 5xx, a rate limit) or the failure is not about the last answer.
 */
export function refusedContinuation(
  messages: readonly EdgetoolUIMessage[],
  failed: FailedRequest | undefined,
  state: Pick<UnsentState, 'busy'>,
): FailedRequest['error'] | undefined {
  if (state.busy || failed === undefined || messages.at(-1)?.id !== failed.messageId || !shouldContinue({ messages })) return undefined;
  return retryAction(failed.error, { server: 'online', answered: true, unsent: true }) === undefined ? failed.error : undefined;
}

/** A refused ticket's reason (`ChatErrorInfo.reason`) as the card says it, after "the server refused it: ". */
const TICKET_REASONS: Readonly<Record<string, string>> = {
  replayed: 'its ticket had already been used (another tab, or another copy of this conversation, sent an answer first)',
  conflict: 'the call had already been answered otherwise (another tab, or another copy of this conversation, answered first), and that answer stands',
  expired: 'its ticket had expired, so nothing ran',
};

/**
 * What the card of a call whose decision the server refused says (`refusedContinuation`): what was refused, why (the
 * ticket's reason, or the server's words), that Retry would meet the same refusal, and what is left: an approval can be
 * asked for again (the model asks anew, with a new ticket), a new message goes on either way; a conversation too large
 * to send goes on in a new chat only.
 */
export function refusedDecisionText(decision: 'approval' | 'denial', error: FailedRequest['error'], toolCallId: string): string {
  const other = error.toolCallId !== undefined && error.toolCallId !== toolCallId;
  const { reason } = error;
  const known = error.code === 'ticket-invalid' && reason !== undefined && Object.hasOwn(TICKET_REASONS, reason) ? TICKET_REASONS[reason] : undefined;
  const words = error.message.trim().replace(/\.$/, '');
  const why = other
    ? `the request that carried it was refused for another call (${error.toolCallId}): ${words}`
    : error.code === 'ticket-invalid'
      ? (known ?? 'the server did not accept its ticket (it was changed, or signed with a key the server no longer has), so nothing ran')
      : `the server refused the request that carried it (${error.status === undefined ? '' : `HTTP ${error.status}, `}${error.code}: ${words})`;
  const next = isTooLarge(error)
    ? 'The conversation is too large to send: a new chat goes on.'
    : decision === 'approval'
      ? 'Ask again has the model ask for the call anew; a new message goes on without it.'
      : 'A new message goes on without it.';
  return `Your ${decision} was refused: ${why}. Sending it again would be refused the same way. ${next}`;
}

/**
 * The decision a card shows as not taken by the server yet (`approval` or `denial`): a call of the last answer that
 * the user approved or denied, whose continuation has not brought its outcome. `undefined` for any other call.
 */
export function unsentDecision(view: Pick<ToolCallView, 'status' | 'partState'>): 'approval' | 'denial' | undefined {
  if (view.partState !== 'approval-responded') return undefined;
  return view.status === 'approved' ? 'approval' : view.status === 'denied' ? 'denial' : undefined;
}

/**
 * Whether the last message is the user's and got no answer, with nothing on its way and no request of this chat sent
 * by this page: the page was reloaded (or closed) before any of its answer came. It is not sent again by itself: the
 * server may have acted on it (run a call) before the reload. The app says so and offers Retry instead (`UNANSWERED`, lib/error-hint.ts).
 */
export function unansweredAfterReload(messages: readonly EdgetoolUIMessage[], state: Pick<UnsentState, 'busy' | 'sentHere'>): boolean {
  return !state.busy && !state.sentHere && messages.at(-1)?.role === 'user';
}
