import { type FormEvent, type KeyboardEvent, type ReactElement, useState } from 'react';

/** The message box: Enter sends, Shift+Enter adds a line; Stop aborts while a turn runs. */
export function Composer(props: { readonly busy: boolean; readonly onSend: (text: string) => void; readonly onStop: () => void }): ReactElement {
  const { busy, onSend, onStop } = props;
  const [text, setText] = useState('');
  const send = (event?: FormEvent) => {
    event?.preventDefault();
    const trimmed = text.trim();
    if (trimmed === '' || busy) return;
    onSend(trimmed);
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) send(event);
  };
  return (
    <form className="composer" onSubmit={send}>
      <textarea
        data-testid="chat-input"
        aria-label="Message"
        placeholder="Ask about an order, your time zone, or say “add 2 coffee beans to my cart”…"
        rows={1}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {busy ? (
        <button type="button" className="button stop" data-testid="stop" onClick={onStop}>
          <span className="stop-square" aria-hidden="true" />
          Stop
        </button>
      ) : (
        <button type="submit" className="button primary send" data-testid="send" disabled={text.trim() === ''}>
          Send
        </button>
      )}
    </form>
  );
}
