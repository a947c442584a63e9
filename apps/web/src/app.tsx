import type { ExecutionMode } from '@edgetool/ai';
import { type ChatErrorInfo, useEdgeChat, useUserQuestions } from '@edgetool/react';
import { type ReactElement, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Composer } from './components/composer.tsx';
import { ErrorBanner } from './components/error-banner.tsx';
import { Header } from './components/header.tsx';
import { MessageView } from './components/message-view.tsx';
import { SidePanel } from './components/side-panel.tsx';
import { useServerInfo } from './lib/server-info.ts';
import { browserTools, cart, dateInput } from './tools/browser-tools.ts';

/** Prompts that show each part of the demo (the offline model also understands `/tool_name {json}`). */
const SUGGESTIONS: readonly { readonly label: string; readonly text: string }[] = [
  { label: 'Look up an order', text: 'What is the status of order A-1001?' },
  { label: 'Move a delivery (approval)', text: 'Change the delivery date of order A-1001 to 2026-12-24' },
  { label: 'My time zone (browser)', text: 'What is my browser time zone?' },
  { label: 'Pick a date (browser)', text: '/pick_date {"question":"Which delivery date suits you?"}' },
  { label: 'Add to cart (browser)', text: '/cart_add {"name":"coffee beans","quantity":2,"price":12.5}' },
  { label: 'Empty the cart (asks first)', text: '/cart_clear {}' },
];

const UNREACHABLE: ChatErrorInfo = {
  kind: 'unreachable',
  status: undefined,
  code: 'unreachable',
  message: 'The edgetool server does not answer at /api.',
};

/** The demo chat. */
export function App(): ReactElement {
  const server = useServerInfo();
  const [mode, setMode] = useState<ExecutionMode>('internal');
  const [chatId, setChatId] = useState(() => crypto.randomUUID());
  const serverTools = useMemo(() => server.tools.filter((tool) => tool.policy.runsOn !== 'client'), [server.tools]);
  const chat = useEdgeChat({ id: chatId, mode, tools: browserTools, serverTools });
  const questions = useUserQuestions(dateInput);
  const { recheck } = server;

  const model = chat.model ?? server.model;
  const streaming = chat.status === 'streaming' || chat.status === 'submitted';
  const error = chat.chatError ?? (server.status === 'unreachable' ? UNREACHABLE : undefined);
  const { clearError } = chat;
  // A request that could not reach the server: check the server again, the banner follows.
  useEffect(() => {
    if (chat.chatError?.kind === 'unreachable') recheck();
  }, [chat.chatError, recheck]);

  const bottom = useRef<HTMLDivElement>(null);
  const lastMessage = chat.messages.at(-1);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when the conversation grows or changes.
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end', behavior: 'smooth' });
  }, [chat.messages.length, lastMessage?.parts.length, chat.pendingApprovals.length, questions.length]);

  const send = useCallback((text: string) => void chat.sendMessage({ text }), [chat.sendMessage]);
  const newChat = useCallback(() => {
    void chat.stop();
    setChatId(crypto.randomUUID());
  }, [chat.stop]);

  const actions = {
    onApprove: chat.approve,
    onDeny: chat.deny,
    onChooseDate: (id: string, date: string) => dateInput.answer(id, date),
    onCancelDate: (id: string) => dateInput.decline(id, 'The user closed the date picker without choosing a date.'),
  };
  const thinking = chat.status === 'submitted' && lastMessage?.role === 'user';

  return (
    <div className="app">
      <Header server={server.status} model={model} mode={mode} onMode={setMode} onNewChat={newChat} />
      <div className="layout">
        <main className="chat">
          {error ? (
            <ErrorBanner
              error={error}
              onDismiss={chat.chatError ? clearError : undefined}
              onRetry={chat.chatError ? (chat.chatError.kind === 'unreachable' ? recheck : undefined) : recheck}
            />
          ) : null}
          <div className="messages" data-testid="messages" aria-live="polite">
            {chat.messages.length === 0 ? (
              <section className="welcome" data-testid="welcome">
                <h2>Tool calls you can see and trust</h2>
                <p>
                  Every call runs through one typed edgetool chain, on the server or in this browser, and every continuation carries a signed,
                  single-use ticket. Switch to <strong>manual</strong> to route every call through your browser first.
                </p>
                <div className="suggestions">
                  {SUGGESTIONS.map((s) => (
                    <button key={s.label} type="button" className="suggestion" data-testid="suggestion" onClick={() => send(s.text)} disabled={chat.busy}>
                      <span>{s.label}</span>
                      <small>{s.text}</small>
                    </button>
                  ))}
                </div>
              </section>
            ) : (
              chat.messages.map((message) => (
                <MessageView
                  key={message.id}
                  message={message}
                  toolCalls={chat.toolCalls}
                  questions={questions}
                  streaming={streaming && message === lastMessage}
                  {...actions}
                />
              ))
            )}
            {thinking ? (
              <div className="message message-assistant" data-testid="thinking">
                <div className="avatar" aria-hidden="true">
                  et
                </div>
                <div className="typing" role="status" aria-label="The model is thinking">
                  <span />
                  <span />
                  <span />
                </div>
              </div>
            ) : null}
            <div ref={bottom} />
          </div>
          <footer className="composer-area">
            {chat.pendingApprovals.length > 0 ? (
              <p className="pending-note" data-testid="pending-approvals">
                {chat.pendingApprovals.length === 1 ? '1 call waits' : `${chat.pendingApprovals.length} calls wait`} for your approval above.
              </p>
            ) : null}
            <Composer busy={chat.busy} onSend={send} onStop={() => void chat.stop()} />
            <p className="composer-hint">
              Mode <strong data-testid="mode-label">{mode}</strong> applies from the next request. Enter sends · Shift+Enter adds a line.
            </p>
          </footer>
        </main>
        <SidePanel serverTools={serverTools} browserTools={browserTools} cart={cart} />
      </div>
    </div>
  );
}
