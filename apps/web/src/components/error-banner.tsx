import type { ChatErrorInfo } from '@edgetool/react';
import type { ReactElement } from 'react';
import { API_BASE, type ApiAddress } from '../lib/api-address.ts';
import { type BannerContext, errorHint, errorMessage, errorTitle, refusedForRepeat, UNANSWERED } from '../lib/error-hint.ts';

/** A clear, dismissible error: what happened, the server's code and message, and what to do now. */
export function ErrorBanner(props: {
  readonly error: ChatErrorInfo;
  /** The server's state now and whether part of an answer came: the title and advice follow them. */
  readonly context: BannerContext;
  /** Where the API is: a server that does not answer is named there, with the command that starts it on that port. */
  readonly api: ApiAddress;
  readonly onDismiss?: (() => void) | undefined;
  readonly onRetry?: (() => void) | undefined;
  /** For a refused oversized request: drop the last message (and what followed it) from the conversation. */
  readonly onRemoveLast?: (() => void) | undefined;
  readonly onNewChat?: (() => void) | undefined;
}): ReactElement {
  const { error, context, api, onDismiss, onRetry, onRemoveLast, onNewChat } = props;
  const kind = errorHint(error, context);
  const message = errorMessage(error, context);
  const hint =
    kind === 'unreachable' ? (
      api.start === undefined ? (
        'This page checks again every few seconds.'
      ) : (
        <>
          Start the worker with <code>{api.start}</code> (
          {api.proxied ? `vite, which serves this page, passes ${API_BASE} on to ${api.host}` : `it serves this page and its API on ${api.host}`}). This page
          checks again every few seconds.
        </>
      )
    ) : kind === 'back' ? (
      'The server answers again: Retry sends the request again.'
    ) : kind === 'failed' ? (
      'Nothing of the answer came: Retry sends your message again.'
    ) : kind === 'unsent' ? (
      `${error.kind === 'unreachable' ? 'The server answers again, and your' : 'Your'} answer to the call is kept: Retry sends it again. ` +
      'A call that already ran does not run twice; the server answers with its recorded result (or, when it cannot tell whether the call ran, ' +
      'says its outcome is unknown).'
    ) : kind === 'goes-on' ? (
      `${error.kind === 'unreachable' ? 'The server answers again. ' : ''}The calls' results came, the model's answer to them did not: Retry asks for it ` +
      'again. Nothing runs again; the model goes on from those results.'
    ) : kind === 'cut' ? (
      `${error.kind === 'unreachable' ? 'The server answers again. ' : ''}The answer so far stays; it is not asked for again, since part of it had come. ` +
      'Send a new message to go on.'
    ) : kind === 'resend' ? (
      'Nothing of the answer came: Retry sends the request again. If it fails the same way, something between this page and the server changes its answers.'
    ) : kind === 'reloaded' ? (
      'It is not sent again by itself, since the server may have acted on it before the reload: Retry sends it again.'
    ) : kind === 'later' ? (
      'The server takes only so many requests at a time: wait a moment, then Retry sends the same request again.'
    ) : kind === 'ticket' ? (
      'Tickets are single-use and bound to one call: a replayed, changed or expired continuation is refused. Send a new message to go on.'
    ) : kind === 'repeated' ? (
      `The server sent a second call with the id ${refusedForRepeat(error, context)} (its card above says "not run"), and it refuses a ` +
      'conversation that holds one call id twice: every message, Retry or Ask again in this chat is refused the same way. New chat goes on (this ' +
      'conversation is not kept).'
    ) : kind === 'origin' ? (
      'The server only takes requests from pages it serves itself: open the chat at the server’s own address.'
    ) : kind === 'too-large' ? (
      'The conversation is too large to send: every request carries the whole history, so each new message would be refused too. ' +
      'Remove the last message, or start a new chat.'
    ) : undefined;
  return (
    <div className={`error-banner error-${error.kind}`} role="alert" data-testid="error-banner" data-kind={error.kind} data-code={error.code} data-status={error.status ?? ''}>
      <div className="error-icon" aria-hidden="true">
        !
      </div>
      <div className="error-text">
        <strong>
          {errorTitle(error, context)}
          {error.status ? ` (HTTP ${error.status})` : ''}
        </strong>
        <span className="error-message">
          {error.code !== 'unreachable' && error.code !== 'stream-error' && error.code !== UNANSWERED.code ? <code>{error.code}</code> : null} {message}
        </span>
        {hint ? <span className="error-hint">{hint}</span> : null}
      </div>
      <div className="error-actions">
        {onRemoveLast ? (
          <button type="button" className="button small" data-testid="error-remove-last" onClick={onRemoveLast}>
            Remove last message
          </button>
        ) : null}
        {onNewChat ? (
          <button type="button" className="button ghost small" data-testid="error-new-chat" onClick={onNewChat}>
            New chat
          </button>
        ) : null}
        {onRetry ? (
          <button type="button" className="button ghost small" data-testid="error-retry" onClick={onRetry}>
            Retry
          </button>
        ) : null}
        {onDismiss ? (
          <button type="button" className="button ghost small" data-testid="error-dismiss" onClick={onDismiss} aria-label="Dismiss">
            Dismiss
          </button>
        ) : null}
      </div>
    </div>
  );
}
