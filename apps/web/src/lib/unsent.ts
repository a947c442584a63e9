import type { EdgetoolUIMessage } from '@edgetool/ai';
import { shouldContinue, type ToolCallView } from '@edgetool/react';
import type { FailedRequest } from './chat-storage.ts';
import { retryAction } from './error-hint.ts';
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
