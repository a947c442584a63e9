import type { ReactElement } from 'react';

/**
 * The "model is thinking" dots where the answer will be, with words for a screen reader going through the
 * conversation. Not a live region: one that comes with its text is often never read, and the chat's announcer speaks
 * for it (each finished answer). In its own row before the answer's message exists, in the answer's row after it.
 */
export function Thinking(props: { readonly row: boolean }): ReactElement {
  const indicator = (
    <>
      <div className="typing" aria-hidden="true">
        <span />
        <span />
        <span />
      </div>
      <span className="visually-hidden">The model is thinking…</span>
    </>
  );
  if (!props.row) {
    return (
      <div className="thinking" data-testid="thinking">
        {indicator}
      </div>
    );
  }
  return (
    <div className="message message-assistant" data-testid="thinking">
      <div className="avatar" aria-hidden="true">
        et
      </div>
      {indicator}
    </div>
  );
}
