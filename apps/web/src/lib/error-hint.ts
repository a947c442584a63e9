import type { ChatErrorInfo } from '@edgetool/react';
import type { ServerInfo } from './server-info.ts';

/** What the error banner knows beside the error: the server's state now, and whether any of the answer had come. */
export interface BannerContext {
  /** What the last health check found (the header shows the same). */
  readonly server: ServerInfo['status'];
  /**
   * The last message is not the user's: part of an answer came (or the request was a continuation of one). An answer
   * an error ended before any of it came is dropped by the page (`isEmptyAnswer`, lib/messages.ts), so it is not one.
   */
  readonly answered: boolean;
  /**
   * The last answer holds answers the server has not taken (an approval, a denial, a browser result) and nothing is on
   * its way (`continuationUnsent`, lib/unsent.ts): the request that failed was the continuation carrying them, and
   * nothing of its answer came. Default `false`.
   */
  readonly unsent?: boolean | undefined;
  /**
   * The last answer ends at its calls' answers with none of the model's words after them (`endsAtAnswers`,
   * lib/unsent.ts): the request failed before the model's next step came (its provider failed on the first step, the
   * connection closed after the results). Sent again, the server goes on from those answers. Default `false`.
   */
  readonly atAnswers?: boolean | undefined;
  /**
   * The call ids the conversation holds more than once (`repeatedCallIds`, lib/messages.ts): a server repeated one. A
   * refusal that names one of them is the Worker's `duplicate-call`, which every message of this chat meets again.
   */
  readonly repeated?: ReadonlySet<string> | undefined;
}

/** Whether the server refused a request for its size: the history is resent with every request, so it fails again. */
export function isTooLarge(error: Pick<ChatErrorInfo, 'status' | 'code'>): boolean {
  return error.status === 413 || error.code === 'payload-too-large';
}

const TITLES: Readonly<Record<ChatErrorInfo['kind'], string>> = {
  unreachable: 'Server unreachable',
  refused: 'The server refused the request',
  server: 'The server failed',
  stream: 'The answer stopped with an error',
  unreadable: 'The answer could not be read',
};

/**
 * What the banner shows for a restored conversation whose last message is the user's: the page was reloaded (or
 * closed) before any of its answer came. It is not sent again by itself, since the server may have acted on it (run a
 * call) before the reload; Retry sends it, once the user asks.
 */
export const UNANSWERED: ChatErrorInfo = {
  kind: 'unreachable',
  status: undefined,
  code: 'unanswered',
  message: 'The page was reloaded before any of the answer to your message came.',
};

/**
 * The banner's title; a request that got no answer while the server answers its health check is not "unreachable", and
 * the server's error before any of the answer came did not stop an answer.
 */
export function errorTitle(error: ChatErrorInfo, context?: BannerContext): string {
  if (error.code === UNANSWERED.code) return 'Your message got no answer';
  if (error.kind === 'stream' && context?.answered === false) return 'The answer failed before any of it came';
  return error.kind === 'unreachable' && context?.server === 'online' ? 'The request got no answer' : TITLES[error.kind];
}

/**
 * The banner's words for the error. The hook's words for a request that got no answer say the server is down; once its
 * health check answers, they would contradict the hint beside them ("The server answers again"), so they say what
 * happened to the request: it got no answer, or its answer was cut off once part of it had come. An unreadable answer
 * is told in words too (never the AI SDK's parse error), whether any of it had come.
 */
export function errorMessage(error: ChatErrorInfo, context: BannerContext): string {
  if (error.kind === 'unreadable') {
    return context.answered && context.unsent !== true
      ? 'Part of the answer came, then a line that is not part of a chat answer: the rest could not be read.'
      : 'None of the answer could be read: the server sent a line that is not part of a chat answer.';
  }
  if (error.code === UNANSWERED.code || error.kind !== 'unreachable' || error.status !== undefined || context.server !== 'online') return error.message;
  if (context.answered && context.unsent !== true) return 'The connection closed before the answer ended.';
  return error.code === 'stream-cut'
    ? 'The connection closed before any of the answer came.'
    : 'The request failed before the server answered it (the connection was refused or dropped).';
}

/**
 * The advice for an answer that stopped at its calls' answers: `unsent` while the server has not taken some of them (the
 * user's decisions are kept and go again), `goes-on` once it has (their results came, the model's words did not).
 */
function goesOnFrom(context: BannerContext): 'unsent' | 'goes-on' | undefined {
  return context.unsent === true ? 'unsent' : context.atAnswers === true ? 'goes-on' : undefined;
}

/** Refusals that a later try may not meet: a rate limit's window, a request that took too long. */
const PASSING_REFUSALS: ReadonlySet<number | undefined> = new Set([408, 429]);

/**
 * Which advice the error banner gives: how to start the server, that it answers again and Retry sends the request
 * (`back`), that the server's error came before any of the answer and Retry sends the message again (`failed`), that
 * the user's answers to the calls are kept and Retry sends them again (`unsent`), that the calls' results came and Retry
 * asks the model to go on from them (`goes-on`), or that the answer so far stays and a new message goes on (`cut`), to
 * wait before Retry (`later`, a rate limit), why a continuation was refused (a ticket), that the page must be opened from the server's own origin, or that the conversation is too large
 * to send; that nothing of an unreadable answer came and Retry sends the request again (`resend`); that a message a
 * reload left unanswered is not sent by itself (`reloaded`); that the conversation holds a call id twice, which the
 * server refuses for every message of this chat, so a new chat goes on (`repeated`); `undefined`: none.
 */
export function errorHint(
  error: ChatErrorInfo,
  context?: BannerContext,
):
  | 'unreachable'
  | 'back'
  | 'failed'
  | 'unsent'
  | 'goes-on'
  | 'cut'
  | 'resend'
  | 'reloaded'
  | 'later'
  | 'ticket'
  | 'repeated'
  | 'origin'
  | 'too-large'
  | undefined {
  // The server's own error in the middle of an answer (its model failed): what came stays, a new message goes on. Before
  // any of it came (the page drops the empty answer it left), nothing stays and Retry sends the message again; before any
  // of a continuation's answer came, or right after the calls' results, Retry sends the answers again.
  if (error.kind === 'stream') return context === undefined ? undefined : (goesOnFrom(context) ?? (context.answered ? 'cut' : 'failed'));
  // The server answered, with a line that is not a chat chunk: whether it is up has no part in the advice.
  if (error.kind === 'unreadable') return (context === undefined ? undefined : goesOnFrom(context)) ?? (context?.answered === true ? 'cut' : 'resend');
  if (error.kind === 'unreachable') {
    if (context?.server !== 'online') return 'unreachable';
    if (error.code === UNANSWERED.code) return 'reloaded';
    return goesOnFrom(context) ?? (context.answered ? 'cut' : 'back');
  }
  if (error.status === 429) return 'later';
  // The server's own 403 for a page of another origin: a new message is refused the same way, tickets have no part in it.
  if (error.code === 'forbidden-origin') return 'origin';
  // Any other 403 of the server's own (a JSON body with its code) is about the answers it was sent; a 403 page of a
  // firewall or a proxy in front of it (read as `http-403`) is not, and gets no advice about tickets.
  if (refusedForRepeat(error, context) !== undefined) return 'repeated';
  if (error.code === 'ticket-invalid' || (error.status === 403 && error.code !== 'http-403')) return 'ticket';
  return isTooLarge(error) ? 'too-large' : undefined;
}

/**
 * The call id a refusal is about when the conversation holds it twice (`context.repeated`): the Worker refuses any
 * history with one call id in two parts (`duplicate-call`, 403 `ticket-invalid`), so each new message, Retry or Ask again
 * in this chat is refused the same way. Its advice to send a new message did not fit. An id over 64 characters comes back
 * cut, as the server names it (its first 48 and its length). `undefined`: another refusal.
 */
export function refusedForRepeat(error: Pick<ChatErrorInfo, 'status' | 'code' | 'toolCallId'>, context: BannerContext | undefined): string | undefined {
  const named = error.toolCallId;
  if (error.status !== 403 || error.code !== 'ticket-invalid' || named === undefined || context?.repeated === undefined) return undefined;
  for (const id of context.repeated) if (id === named || (id.length > 64 && named === `${id.slice(0, 48)}… (${id.length} characters)`)) return id;
  return undefined;
}

/**
 * Whether `error` ended the last answer after part of it had come (the server's error mid-answer, a connection that
 * closed, a line that could not be read): that answer is marked cut short, as a stopped one is. Without the mark it
 * looked finished once the banner was dismissed, or after a reload. Not an error that came in place of the answer (an
 * HTTP status), nor a continuation whose decisions never reached the server (`context.unsent`).
 */
export function cutByError(error: ChatErrorInfo, context: BannerContext): boolean {
  // An answer that stopped at its calls' answers is cut short too, until a Retry goes on with it (the page takes the mark
  // off then); the mark keeps it from looking finished after a dismissed banner or a reload.
  if (!context.answered || context.unsent === true || error.code === UNANSWERED.code) return false;
  return error.kind === 'stream' || error.kind === 'unreadable' || (error.kind === 'unreachable' && error.status === undefined);
}

/**
 * What the banner's Retry does: `resend` the request that failed, as it was; `recheck` the server; `undefined`: no
 * Retry. A request that got no answer at all is sent again: a question of the user, or a continuation with the user's
 * answers to the calls (`context.unsent`: a network error, or a gateway's 502 or 504 with no body of ours). Once part
 * of an answer came, sending the conversation again would not be the request that failed: Retry only checks the server
 * while it is down, and once it answers there is nothing to retry (a new message goes on). Without a failed request
 * (the server banner): a check.
 *
 * An unreadable answer (a stream line that is not a chat chunk) follows the same rule as a cut one: sent again when
 * nothing of it came, not once part of it did. So does the server's error in the stream (its model failed): before
 * the first word it is sent again, as the server's 5xx is; after it, a new message goes on. An answer that stopped at
 * its calls' answers, with none of the model's words after them (`context.unsent`, `context.atAnswers`), is sent again
 * whatever ended it: the server takes the same answers again, or goes on from the results it sealed, and runs no call
 * twice (an approved call it took but never started is not run either: the model reads that its outcome is unknown).
 * A message a reload left unanswered ({@link UNANSWERED}) is sent again.
 *
 * A rate limit (429, 408) or the server's own 5xx is sent again too, whatever the last message: its HTTP error came in
 * place of the stream, so nothing of the answer came and the messages are the request that failed. A continuation
 * sent again never runs a call twice: a call the server never saw runs now (its ticket is unused), and one that ran
 * before the answer was lost (a gateway timed out while the call went on) is answered with the result the server
 * recorded. Other refusals would come again.
 */
export function retryAction(error: ChatErrorInfo | undefined, context: BannerContext): 'resend' | 'recheck' | undefined {
  if (error === undefined) return 'recheck';
  const goesOn = context.unsent === true || context.atAnswers === true;
  if (error.kind === 'stream') return !context.answered || goesOn ? 'resend' : undefined;
  if (error.kind === 'server' || (error.kind === 'refused' && PASSING_REFUSALS.has(error.status))) return 'resend';
  if (error.kind !== 'unreachable' && error.kind !== 'unreadable') return undefined;
  if (!context.answered || goesOn) return 'resend';
  return context.server === 'online' || error.kind === 'unreadable' ? undefined : 'recheck';
}
