import { type FormEvent, type KeyboardEvent, type MouseEvent, type ReactElement, type RefObject, useId, useState } from 'react';
import { MAX_MESSAGE_CHARS, messageLimitState } from '../lib/message-limit.ts';

/** Clicking Send or Stop must not take focus from the message box: the next key belongs to the text, not to Stop. */
const keepFocus = (event: MouseEvent) => event.preventDefault();

const count = new Intl.NumberFormat('en');

/**
 * The message box: Enter sends, Shift+Enter adds a line; Stop aborts while a turn runs. Focus stays in the box
 * after sending, and a message over {@link MAX_MESSAGE_CHARS} is refused here, before the server would refuse it.
 */
export function Composer(props: {
  readonly busy: boolean;
  readonly onSend: (text: string) => void;
  readonly onStop: () => void;
  readonly inputRef: RefObject<HTMLTextAreaElement | null>;
}): ReactElement {
  const { busy, onSend, onStop, inputRef } = props;
  const [text, setText] = useState('');
  const limitId = useId();
  const limit = messageLimitState(text.length);
  const send = (event?: FormEvent) => {
    event?.preventDefault();
    inputRef.current?.focus();
    const trimmed = text.trim();
    if (trimmed === '' || busy || limit === 'over') return;
    onSend(trimmed);
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) send(event);
  };
  return (
    <>
      <form className={`composer${limit === 'over' ? ' composer-over' : ''}`} onSubmit={send}>
        <textarea
          ref={inputRef}
          data-testid="chat-input"
          aria-label="Message"
          aria-invalid={limit === 'over' ? true : undefined}
          aria-describedby={limit === 'ok' ? undefined : limitId}
          placeholder="Ask about an order, your time zone, or say “add 2 coffee beans to my cart”…"
          rows={1}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {busy ? (
          <button type="button" className="button stop" data-testid="stop" onMouseDown={keepFocus} onClick={onStop}>
            <span className="stop-square" aria-hidden="true" />
            Stop
          </button>
        ) : (
          <button type="submit" className="button primary send" data-testid="send" onMouseDown={keepFocus} disabled={text.trim() === '' || limit === 'over'}>
            Send
          </button>
        )}
      </form>
      {limit === 'ok' ? null : (
        <p className={`composer-limit composer-limit-${limit}`} id={limitId} data-testid="composer-limit" data-state={limit}>
          <span className="composer-count">
            {count.format(text.length)} / {count.format(MAX_MESSAGE_CHARS)} characters
          </span>
          {limit === 'over' ? (
            <span role="alert">Too long to send: shorten it to {count.format(MAX_MESSAGE_CHARS)} characters, or split it into several messages.</span>
          ) : null}
        </p>
      )}
    </>
  );
}
