import type { ChatErrorInfo } from '@edgetool/react';
import type { ReactElement } from 'react';

const TITLES: Readonly<Record<ChatErrorInfo['kind'], string>> = {
  unreachable: 'Server unreachable',
  refused: 'The server refused the request',
  server: 'The server failed',
  stream: 'The answer stopped with an error',
};

/** A clear, dismissible error: what happened, the server's code and message, and what to do. */
export function ErrorBanner(props: { readonly error: ChatErrorInfo; readonly onDismiss?: (() => void) | undefined; readonly onRetry?: (() => void) | undefined }): ReactElement {
  const { error, onDismiss, onRetry } = props;
  const hint =
    error.kind === 'unreachable' ? (
      <>
        Start the worker with <code>pnpm --filter @edgetool/worker dev</code> (it listens on 127.0.0.1:8787). This page checks again every few seconds.
      </>
    ) : error.code === 'ticket-invalid' || error.status === 403 ? (
      'Tickets are single-use and bound to one call: a replayed, changed or expired continuation is refused. Send a new message to go on.'
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
