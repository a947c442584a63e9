import type { ChatErrorInfo } from '@edgetool/react';
import type { ReactElement } from 'react';

const TITLES: Readonly<Record<ChatErrorInfo['kind'], string>> = {
  unreachable: 'Server unreachable',
  refused: 'The server refused the request',
  server: 'The server failed',
  stream: 'The answer stopped with an error',
};

/** Whether the server refused a request for its size: the history is resent with every request, so it fails again. */
export function isTooLarge(error: ChatErrorInfo): boolean {
  return error.status === 413 || error.code === 'payload-too-large';
}

/** A clear, dismissible error: what happened, the server's code and message, and what to do. */
export function ErrorBanner(props: {
  readonly error: ChatErrorInfo;
  readonly onDismiss?: (() => void) | undefined;
  readonly onRetry?: (() => void) | undefined;
  /** For a refused oversized request: drop the last message (and what followed it) from the conversation. */
  readonly onRemoveLast?: (() => void) | undefined;
  readonly onNewChat?: (() => void) | undefined;
}): ReactElement {
  const { error, onDismiss, onRetry, onRemoveLast, onNewChat } = props;
  const hint =
    error.kind === 'unreachable' ? (
      <>
        Start the worker with <code>pnpm --filter @edgetool/worker dev</code> (it listens on 127.0.0.1:8787). This page checks again every few seconds.
      </>
    ) : error.code === 'ticket-invalid' || error.status === 403 ? (
      'Tickets are single-use and bound to one call: a replayed, changed or expired continuation is refused. Send a new message to go on.'
    ) : isTooLarge(error) ? (
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
          {TITLES[error.kind]}
          {error.status ? ` (HTTP ${error.status})` : ''}
        </strong>
        <span className="error-message">
          {error.code !== 'unreachable' && error.code !== 'stream-error' ? <code>{error.code}</code> : null} {error.message}
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
