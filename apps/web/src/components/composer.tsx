import { type FormEvent, type KeyboardEvent, type MouseEvent, type ReactElement, type RefObject, useId, useState } from 'react';
import { MAX_MESSAGE_CHARS, messageLimitState } from '../lib/message-limit.ts';

/** Clicking Send or Stop must not take focus from the message box: the next key belongs to the text, not to Stop. */
const keepFocus = (event: MouseEvent) => event.preventDefault();

const count = new Intl.NumberFormat('en');

/** Why the composer holds the next message, and the way to what it waits for. */
export interface ComposerHold {
  /** What waits, for the notice ("1 call waits for your approval above."). */
  readonly text: string;
  /** What the user does first, a sentence ("Approve or deny the pending action first."): said again when a send is held. */
  readonly todo: string;
  /** A second try sends anyway (the user was told what the message gives up); otherwise nothing goes until the hold ends. */
  readonly soft?: boolean | undefined;
  /** Takes the user to what waits (scrolls to it and focuses it). */
  readonly onShow: () => void;
}

/**
 * The message box: Enter sends, Shift+Enter adds a line; Stop (or Escape in the box) aborts while a turn runs. Focus
 * stays in the box after sending, and a message over {@link MAX_MESSAGE_CHARS} is refused here, before the server would
 * refuse it.
 * While `hold` is set (a call waits for approval, or a decision waits to be sent again) the box stays editable but
 * nothing is sent: a new message would leave that call unanswered, so the notice says what to do first and Send and
 * Enter wait for it. The
 * notice describes the box rather than being announced itself: the chat's announcer tells that a call waits.
 */
export function Composer(props: {
  readonly busy: boolean;
  readonly hold?: ComposerHold | undefined;
  readonly onSend: (text: string) => void;
  readonly onStop: () => void;
  readonly inputRef: RefObject<HTMLTextAreaElement | null>;
}): ReactElement {
  const { busy, hold, onSend, onStop, inputRef } = props;
  const [text, setText] = useState('');
  // Set when the user tries to send while held: the notice is stressed (and read out again) until the hold ends.
  const [nudged, setNudged] = useState(false);
  const limitId = useId();
  const holdId = useId();
  const limit = messageLimitState(text.length);
  if (hold === undefined && nudged) setNudged(false);
  const send = (event?: FormEvent) => {
    event?.preventDefault();
    inputRef.current?.focus();
    const trimmed = text.trim();
    if (trimmed === '' || busy || limit === 'over') return;
    if (hold !== undefined && !(hold.soft === true && nudged)) {
      setNudged(true);
      return;
    }
    onSend(trimmed);
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'Enter' && !event.shiftKey) send(event);
    // Escape in the box does what Stop does, while Stop shows; the typed text stays. Only here, so it takes nothing from
    // a control that closes on Escape (the drawer makes the chat inert; a date input keeps its own popup's Escape).
    else if (event.key === 'Escape' && busy && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      onStop();
    }
  };
  const describedBy = [hold === undefined ? '' : holdId, limit === 'ok' ? '' : limitId].filter((id) => id !== '').join(' ');
  return (
    <>
      {hold === undefined ? null : (
        <div className={`composer-hold${nudged ? ' composer-hold-nudged' : ''}`} data-testid="composer-hold">
          {/* Not a live region: the chat's announcer already says that a call waits, and the box this describes reads it. */}
          <p id={holdId} data-testid="composer-blocked" data-nudged={nudged ? 'true' : 'false'}>
            {hold.text} {hold.todo}
          </p>
          {nudged ? (
            <span className="visually-hidden" role="alert">
              Not sent. {hold.todo}
            </span>
          ) : null}
          <button type="button" className="button ghost small" data-testid="show-pending" onClick={hold.onShow}>
            Show it
          </button>
        </div>
      )}
      <form className={`composer${limit === 'over' ? ' composer-over' : ''}`} onSubmit={send}>
        <textarea
          ref={inputRef}
          data-testid="chat-input"
          aria-label="Message"
          aria-invalid={limit === 'over' ? true : undefined}
          aria-describedby={describedBy === '' ? undefined : describedBy}
          placeholder="Ask about an order, your time zone, or say “add 2 coffee beans to my cart”…"
          rows={1}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {/* Keyed apart: React would otherwise turn the clicked Stop into the submit button in place, before the click's
            default action, and the browser would then submit the form, sending what the user was typing. */}
        {busy ? (
          <button
            key="stop"
            type="button"
            className="button stop"
            data-testid="stop"
            aria-keyshortcuts="Escape"
            title="Stop (Escape in the message box)"
            onMouseDown={keepFocus}
            onClick={onStop}
          >
            <span className="stop-square" aria-hidden="true" />
            Stop
          </button>
        ) : (
          <button key="send" type="submit" className="button primary send" data-testid="send" onMouseDown={keepFocus} disabled={text.trim() === '' || limit === 'over' || (hold !== undefined && hold.soft !== true)}>
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
