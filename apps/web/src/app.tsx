import type { ExecutionMode } from '@edgetool/ai';
import { CallsPendingError, type ChatErrorInfo, useEdgeChat, useUserQuestions } from '@edgetool/react';
import { type ReactElement, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Composer, type ComposerHold } from './components/composer.tsx';
import { ErrorBanner } from './components/error-banner.tsx';
import { Header } from './components/header.tsx';
import { MessageView } from './components/message-view.tsx';
import { AUTO_STEP_CHOICES, SidePanel } from './components/side-panel.tsx';
import { Thinking } from './components/thinking.tsx';
import { type Announcement, announcerRegions } from './lib/announcer.ts';
import { API_BASE, type ApiAddress, apiAddress, DEV_API_TARGET } from './lib/api-address.ts';
import { askAgainText } from './lib/ask-again.ts';
import { browserStorage, CHAT_KEY_PREFIX, cutShort, type FailedRequest, openChatStore, type SaveResult, type SavedChat, tabStorage } from './lib/chat-storage.ts';
import { continuationHeldText } from './lib/continuation-held.ts';
import { type BannerContext, cutByError, errorHint, isTooLarge, retryAction, UNANSWERED } from './lib/error-hint.ts';
import { awaitsContent, isEmptyAnswer, messageText, repeatedCallIds, withoutLastTurn } from './lib/messages.ts';
import { type RetryRefusal, retryRefusedText, stillWaiting } from './lib/retry-refused.ts';
import { continuationUnsent, endsAtAnswers, goesOnAfterFailure, refusedContinuation, unansweredAfterReload, unsentDecision } from './lib/unsent.ts';
import { useServerInfo } from './lib/server-info.ts';
import { useAnnouncer } from './lib/use-announcer.ts';
import { useConversationCopy } from './lib/use-conversation-copy.ts';
import { useFocusReturn } from './lib/use-focus-return.ts';
import { useMediaQuery } from './lib/use-media-query.ts';
import { useStickToBottom } from './lib/use-stick-to-bottom.ts';
import { browserTools, cart, dateInput } from './tools/browser-tools.ts';

/** Where the side panel is a drawer over the chat rather than a column (styles.css has the same width). */
const DRAWER_QUERY = '(max-width: 960px)';

/** Prompts that show each part of the demo (the offline model also understands `/tool_name {json}`). */
const SUGGESTIONS: readonly { readonly label: string; readonly text: string }[] = [
  { label: 'Look up an order', text: 'What is the status of order A-1001?' },
  { label: 'Move a delivery (approval)', text: 'Change the delivery date of order A-1001 to 2026-12-24' },
  { label: 'Chart the orders (image)', text: 'Show me a chart of the orders' },
  { label: 'An invoice (PDF)', text: 'Show me the invoice for A-1001' },
  { label: 'My time zone (browser)', text: 'What is my browser time zone?' },
  { label: 'Pick a date (browser)', text: '/pick_date {"question":"Which delivery date suits you?"}' },
  { label: 'Add to cart (browser)', text: '/cart_add {"name":"coffee beans","quantity":2,"price":12.5}' },
  { label: 'Empty the cart (asks first)', text: '/cart_clear {}' },
];

/** No answers cut short. */
const NONE: readonly string[] = [];

/** The banner of a server that does not answer its health check: where this page reaches it. */
const unreachable = (api: ApiAddress): ChatErrorInfo => ({
  kind: 'unreachable',
  status: undefined,
  code: 'unreachable',
  message: `The edgetool server does not answer at ${api.url}.`,
});

/** The demo chat. */
export function App(): ReactElement {
  const server = useServerInfo(API_BASE);
  // This tab's conversation before a reload (id, mode, messages, what the browser knew beside them), if it kept one;
  // each tab keeps its own, see lib/chat-storage.ts.
  const [store] = useState(() => openChatStore({ local: browserStorage(), session: tabStorage() }));
  const [restored, setRestored] = useState(() => store.load());
  const [mode, setMode] = useState<ExecutionMode>(restored?.mode ?? 'internal');
  const [chatId, setChatId] = useState(() => restored?.id ?? crypto.randomUUID());
  // How many continuations the page sends by itself in a row (the side panel's setting): then the answer waits for
  // Continue (the 'limit' notice). This page's choice; a reload starts at the default.
  const [autoSteps, setAutoSteps] = useState(AUTO_STEP_CHOICES[0] ?? 10);
  const serverTools = useMemo(() => server.tools.filter((tool) => tool.policy.runsOn !== 'client'), [server.tools]);
  // What the approval editor reads for an argument the model left out (an optional number stays a number).
  const inputSchemas = useMemo(() => new Map(serverTools.map((tool) => [tool.name, tool.jsonSchema])), [serverTools]);
  const chat = useEdgeChat({
    id: chatId,
    mode,
    api: `${API_BASE}/chat`,
    tools: browserTools,
    serverTools,
    // As the Worker's agent: what a browser tool throws by mistake stays in this console; a ToolError reaches the model.
    toolErrorMessage: 'hide-unexpected',
    // A reload (or a dropped connection) mid-answer reads the rest of the answer from the Worker, which goes on with it.
    resume: true,
    maxAutoContinuations: autoSteps,
    ...(restored !== undefined && restored.id === chatId ? { messages: restored.messages, browserState: restored.browser } : {}),
  });
  const questions = useUserQuestions(dateInput);
  const { recheck } = server;
  // Where this page's API requests go: its own origin, where the Worker that served it listens, or the Worker `vite`
  // (dev or preview) passes them on to, as its answers say (a build under `vite preview` is the Worker's build).
  const api = useMemo(() => apiAddress(window.location.href, server.proxiedTo ?? (import.meta.env.DEV ? DEV_API_TARGET : undefined)), [server.proxiedTo]);

  const model = chat.model ?? server.model;
  const streaming = chat.status === 'streaming' || chat.status === 'submitted';
  const { clearError } = chat;
  // A request that could not reach the server: check the server again, the banner follows.
  useEffect(() => {
    if (chat.chatError?.kind === 'unreachable') recheck();
  }, [chat.chatError, recheck]);

  const lastMessage = chat.messages.at(-1);
  // How this page's last request of this chat ended, kept past a dismissed banner (a decision it carried stays unsent).
  // A failed one names the message that was last then, and is saved with the conversation (see `failedRequest`).
  const lastRequest = useRef<
    { readonly chatId: string; readonly failed: boolean; readonly error?: ChatErrorInfo; readonly messageId?: string | undefined } | undefined
  >(undefined);
  if (streaming) lastRequest.current = { chatId, failed: false };
  else if (chat.status === 'error' && !(lastRequest.current?.chatId === chatId && lastRequest.current.failed)) {
    lastRequest.current = { chatId, failed: true, messageId: lastMessage?.id, ...(chat.chatError === undefined ? {} : { error: chat.chatError }) };
  }
  const sent = lastRequest.current?.chatId === chatId ? lastRequest.current : undefined;
  // The last request of this chat when it failed: this page's, or before this page sent any, the one saved with the
  // conversation. The messages alone cannot tell an answer an error ended at its calls' results from one the step limit
  // (or a stop) ended there; this can, so Retry is offered after a reload too, and only for the first.
  const failedRequest = useMemo((): FailedRequest | undefined => {
    if (sent === undefined) return restored?.id === chatId ? restored.failed : undefined;
    if (!sent.failed || sent.messageId === undefined || sent.error === undefined) return undefined;
    const { kind, status, code, message, reason, toolCallId } = sent.error;
    const named = { ...(reason === undefined ? {} : { reason }), ...(toolCallId === undefined ? {} : { toolCallId }) };
    return { messageId: sent.messageId, error: { kind, status, code, message, ...named } };
  }, [sent, restored, chatId]);
  // Saved whenever a turn settles (not on every streamed token), and once more when the page goes away, so a reload
  // mid-answer keeps what had arrived. A conversation that cannot be kept says so under the composer.
  const settled = !streaming;
  // Answers of this chat an error cut short after part of them came (found below, once the banner knows): marked and
  // saved as stopped ones are. The hook's own list holds the user's stops.
  const [cutAnswers, setCutAnswers] = useState<{ readonly chatId: string; readonly ids: readonly string[] }>({ chatId, ids: [] });
  const cutIds = cutAnswers.chatId === chatId ? cutAnswers.ids : NONE;
  const browser = useMemo(
    () => (cutIds.length === 0 ? chat.browserState : { ...chat.browserState, stopped: [...new Set([...chat.browserState.stopped, ...cutIds])] }),
    [chat.browserState, cutIds],
  );
  const current: SavedChat = { id: chatId, mode, messages: chat.messages, browser, failed: failedRequest };
  const latestChat = useRef(current);
  // Read when the page goes away: an answer still streaming then was cut short, and comes back marked so.
  latestChat.current = cutShort(current, chat.status === 'streaming');
  const [saveResult, setSaveResult] = useState<SaveResult>('saved');
  useEffect(() => {
    if (settled) setSaveResult(store.save({ id: chatId, mode, messages: chat.messages, browser, failed: failedRequest }));
  }, [store, settled, chatId, mode, chat.messages, browser, failedRequest]);
  useEffect(() => {
    const onPageHide = () => store.save(latestChat.current);
    window.addEventListener('pagehide', onPageHide);
    return () => window.removeEventListener('pagehide', onPageHide);
  }, [store]);

  // A new chat offers the conversation saved most recently in another tab (or a closed one); other tabs' saves update it.
  const [savedElsewhere, setSavedElsewhere] = useState(0);
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || event.key.startsWith(CHAT_KEY_PREFIX)) setSavedElsewhere((n) => n + 1);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
  const empty = chat.messages.length === 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: savedElsewhere counts other tabs' saves, which change what the store reads.
  const offer = useMemo(() => (empty ? store.latestElsewhere() : undefined), [store, empty, savedElsewhere]);

  const input = useRef<HTMLTextAreaElement>(null);
  const list = useRef<HTMLDivElement>(null);
  // The list follows the streamed answer to its end, unless the user scrolled up to read.
  const { pin } = useStickToBottom(list, chat.messages.length > 0);
  useFocusReturn(input);
  // A copy across messages reads as the conversation, without the avatars, icons and traces around it.
  useConversationCopy(list);

  // Answers the user stopped, or an error cut short, by message id: they get a visible marker (the hook keeps the user's
  // stops, a reload included; a reload brings the others back among them).
  const stopped = useMemo(() => new Set(browser.stopped), [browser.stopped]);
  // The side panel's drawer on narrow screens; closing it puts focus back on its toggle, not on <body>. While it is open
  // the chat behind its backdrop is inert (Tab stays in the drawer); a window widened past the drawer's width closes it.
  const narrow = useMediaQuery(DRAWER_QUERY);
  const [panelState, setPanelOpen] = useState(false);
  const panelOpen = panelState && narrow;
  const panelToggle = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!narrow) setPanelOpen(false);
  }, [narrow]);
  // The first Tab stop: past the header and every message and card (a long chat had dozens of stops before the box).
  const skipToInput = () => {
    // An open drawer leaves the chat inert, its box unfocusable: it closes first.
    if (panelOpen) flushSync(() => setPanelOpen(false));
    input.current?.focus();
  };
  const closePanel = useCallback(() => {
    setPanelOpen(false);
    panelToggle.current?.focus();
  }, []);
  useEffect(() => {
    if (!panelOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') closePanel();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [panelOpen, closePanel]);

  const send = useCallback(
    (text: string) => {
      pin();
      void chat.sendMessage({ text });
    },
    [chat.sendMessage, pin],
  );
  const stop = () => {
    void chat.stop();
  };
  // The next key goes to the new chat's message box, as after sending (focus stayed on New chat). Not on a touch
  // screen, where focusing the box pops up the keyboard over the suggestions (as useFocusReturn does there).
  const newChat = useCallback(() => {
    void chat.stop();
    store.clear();
    setChatId(crypto.randomUUID());
    pin();
    if (!window.matchMedia('(pointer: coarse)').matches) input.current?.focus({ preventScroll: true });
  }, [chat.stop, pin, store]);
  // The offer taken: this tab continues that conversation (and saves it from now on).
  const resume = (slot: string) => {
    const chosen = store.adopt(slot);
    if (chosen === undefined) return setSavedElsewhere((n) => n + 1);
    setRestored(chosen);
    setMode(chosen.mode);
    setChatId(chosen.id);
    pin();
  };
  // What Retry does (lib/error-hint.ts): send the request that got no answer again, as it was, or check the server.
  // The hook refuses it, and sends nothing, while a call of the last answer still waits here (a browser tool asking, an
  // approval): the notice says which, until they are answered and their answer goes out by itself.
  const [refusal, setRefusal] = useState<RetryRefusal | undefined>(undefined);
  const resend = () => {
    clearError();
    // An answer an error cut short at its calls' answers goes on now: it is no longer marked so.
    const last = chat.messages.at(-1)?.id;
    if (last !== undefined && cutIds.includes(last)) setCutAnswers({ chatId, ids: cutIds.filter((id) => id !== last) });
    recheck();
    pin();
    setRefusal(undefined);
    chat.sendMessage().catch((error: unknown) => {
      if (!CallsPendingError.isInstance(error)) throw error;
      setRefusal({ chatId, toolCallIds: error.toolCallIds });
    });
  };
  const refused = stillWaiting(refusal, chatId, chat.toolCalls);
  if (refusal !== undefined && refused.length === 0) setRefusal(undefined);
  // The answers of the last answer that the hook does not send by itself (too many automatic steps in a row, or a server
  // that did not take them): Continue sends them, as Retry does.
  const heldText = continuationHeldText(chat);
  // The user's answers to the last answer's calls (an approval, a denial, a browser result) that the server has not
  // taken, with nothing on its way: the continuation failed, or the page was reloaded first. Retry (the banner's and the
  // card's) sends it again, as it was: a call the server never saw runs now, one that ran is answered from its record.
  const unsent = continuationUnsent(chat.messages, { busy: chat.busy, failed: sent?.failed === true, sentHere: sent !== undefined });
  // The answer the error ended before any of it came (the server's error, a dropped connection or an unreadable line
  // right after its `start`): an empty message, shown as the avatar alone, once marked cut short "since part of it had
  // come", and sent back with the next request. It goes before the page paints, so the conversation ends with the
  // user's message, as when nothing of the answer came at all: the banner says so and its Retry sends that message again
  // (a retry with the empty answer last would ask the server to go on with it), and a reload offers the same.
  const emptyAnswer = chat.chatError !== undefined && !chat.busy && lastMessage !== undefined && isEmptyAnswer(lastMessage) ? lastMessage.id : undefined;
  const { setMessages } = chat;
  useLayoutEffect(() => {
    if (emptyAnswer !== undefined) setMessages((messages) => (messages.at(-1)?.id === emptyAnswer ? messages.slice(0, -1) : messages));
  }, [emptyAnswer, setMessages]);
  // The last answer stopped at its calls' answers, the model's next words missing (its provider failed on the first step,
  // the connection closed right after the results): Retry goes on from them, as it sends unsent answers again.
  const atAnswers = !chat.busy && endsAtAnswers(chat.messages);
  // Call ids a server repeated: a refusal naming one is the Worker's for the whole conversation (a new chat goes on).
  const repeated = useMemo(() => repeatedCallIds(chat.messages), [chat.messages]);
  const bannerContext: BannerContext = {
    server: server.status,
    answered: lastMessage?.role !== 'user' && emptyAnswer === undefined,
    unsent,
    atAnswers,
    repeated,
  };
  // The last answer, when the error ended it after part of it came: a dismissed banner, or a reload, left it looking
  // finished.
  const cutNow = chat.chatError !== undefined && lastMessage?.role === 'assistant' && cutByError(chat.chatError, bannerContext) ? lastMessage.id : undefined;
  if (cutNow !== undefined && !cutIds.includes(cutNow)) setCutAnswers({ chatId, ids: [...cutIds, cutNow] });
  // A restored conversation whose last message is the user's: the page went away before any of its answer came. It is
  // not sent again by itself (the server may have acted on it); the banner says so, and its Retry sends it, once.
  const [dismissedUnanswered, setDismissedUnanswered] = useState<string | undefined>(undefined);
  const unanswered =
    server.status === 'online' &&
    lastMessage !== undefined &&
    lastMessage.id !== dismissedUnanswered &&
    unansweredAfterReload(chat.messages, { busy: chat.busy, sentHere: sent !== undefined });
  // A refusal kept with the conversation for its last message, which a new try meets again (a 403: a call id the server
  // repeated): after a reload the banner says it again, not "Your message got no answer" with a Retry that is refused.
  const savedRefusal =
    unanswered && failedRequest?.messageId === lastMessage?.id && retryAction(failedRequest.error, bannerContext) === undefined ? failedRequest.error : undefined;
  const failure = chat.chatError ?? savedRefusal ?? (unanswered ? UNANSWERED : undefined);
  const error = failure ?? (server.status === 'unreachable' ? unreachable(api) : undefined);
  // Not while the empty answer is still the last message (the render before it goes).
  const retryWith = emptyAnswer === undefined ? retryAction(failure, bannerContext) : undefined;
  const dismissUnanswered = unanswered ? () => setDismissedUnanswered(lastMessage?.id) : undefined;
  const retry =
    retryWith === 'resend'
      ? () => {
          // The banner goes at once: a second click does not send the message twice.
          dismissUnanswered?.();
          resend();
        }
      : retryWith === 'recheck'
        ? recheck
        : undefined;
  // The last answer, when its request failed after the calls' results came and before the model's words on them: its
  // Retry goes on from them, past a dismissed banner and after a reload (the banner's Retry does the same while it shows).
  const goOn = goesOnAfterFailure(chat.messages, failedRequest, { busy: chat.busy }) ? resend : undefined;
  // Not after a refusal that would come again (a 403 for a used or invalid ticket), this page's or the one saved with
  // the conversation: the card says why instead (a reload offered Retry there, which met the same 403).
  const refusedAnswer = refusedContinuation(chat.messages, failedRequest, { busy: chat.busy });
  const sendAgain = unsent && refusedAnswer === undefined ? resend : undefined;
  // The way out of a request refused for its size: the oversized message goes, the rest of the conversation stays.
  const removeLast = () => {
    chat.setMessages((messages) => withoutLastTurn(messages));
    clearError();
  };

  // A new message while a call waits for approval would leave that call unanswered for good (the server only takes
  // answers in the last assistant message): the composer holds the message until the user approves or denies. The
  // same, softly, for a decision that got no answer while Retry can still send it: a new message withdraws it (the call
  // the user approved never runs, its card says "stopped"), so the first try says so and only a second one sends.
  const firstPending = chat.pendingApprovals[0];
  const firstUnsent =
    sendAgain === undefined || lastMessage === undefined
      ? undefined
      : [...chat.toolCalls.values()].find((view) => view.messageId === lastMessage.id && unsentDecision(view) !== undefined);
  const showCard = (toolCallId: string, button: string) => () => {
    const card = list.current?.querySelector(`[data-testid="tool-card"][data-tool-call-id="${CSS.escape(toolCallId)}"]`);
    // A glide is motion: with reduced motion asked for, the card is shown at once (the stylesheet's reduced-motion rule
    // does not reach a script's scroll, and a smooth one ran regardless).
    const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    card?.scrollIntoView({ block: 'center', behavior: reduced ? 'instant' : 'smooth' });
    card?.querySelector<HTMLButtonElement>(`[data-testid="${button}"]`)?.focus({ preventScroll: true });
  };
  const hold: ComposerHold | undefined =
    firstPending !== undefined
      ? {
          text: `${chat.pendingApprovals.length === 1 ? '1 call waits' : `${chat.pendingApprovals.length} calls wait`} for your approval above.`,
          todo: 'Approve or deny the pending action first.',
          onShow: showCard(firstPending.toolCallId, 'approve'),
        }
      : firstUnsent !== undefined
        ? {
            text: `Your ${unsentDecision(firstUnsent)} has not reached the server yet, and a new message withdraws it.`,
            todo: 'Retry on its card sends it; send again to go on without it.',
            soft: true,
            onShow: showCard(firstUnsent.toolCallId, 'send-again'),
          }
        : undefined;

  // A call whose ticket expired can only be asked for again: a message that names it, so the model requests it anew.
  const canAskAgain = !chat.busy && chat.pendingApprovals.length === 0;
  const askAgain = (toolCallId: string) => {
    const view = chat.toolCalls.get(toolCallId);
    if (view !== undefined) send(askAgainText(view, view.status === 'expired' ? 'expired' : 'refused'));
  };
  const actions = {
    onApprove: chat.approve,
    onDeny: chat.deny,
    onChooseDate: (id: string, date: string) => dateInput.answer(id, date),
    onCancelDate: (id: string) => dateInput.decline(id, 'The user closed the date picker without choosing a date.'),
  };
  // The model is thinking: before the answer's message exists (its own row), and in the answer while its current step
  // shows nothing new (after its `start`, between steps, after a continuation's answers went out). It showed only until
  // the first chunk, so the answer's row stood empty (or with only the cards answered before) while the model thought.
  const thinking = streaming && lastMessage?.role === 'user';
  const thinkingIn = streaming && lastMessage?.role === 'assistant' && awaitsContent(lastMessage) ? lastMessage.id : undefined;
  // Screen readers hear each answer once it is complete, not every streamed token; a browser tool's question while the
  // turn waits on it (the box's Enter does nothing then: Stop shows), or the user would not know the chat waits on them.
  // Only this chat's: a question of the chat just left is not this one's to announce (its call ends a render later).
  const asked = questions.filter((question) => question.chatId === chatId).at(-1);
  const announcement: Announcement | undefined =
    asked !== undefined
      ? {
          key: `question:${asked.id}`,
          text: `A question waits for you: ${asked.question.question.trim().replace(/[^.?!]$/, '$&.')} Pick a date in the tool call's card.`,
        }
      : streaming || lastMessage?.role !== 'assistant'
        ? undefined
        : {
            // Each answer, and each step of one that waits on the user, is announced once, even in the same words as the
            // last (see lib/announcer.ts).
            key: `answer:${lastMessage.id}:${chat.pendingApprovals.map((call) => call.toolCallId).join(',')}`,
            text: [
              messageText(lastMessage),
              chat.browserState.stopped.includes(lastMessage.id) ? '(You stopped this answer.)' : '',
              chat.pendingApprovals.length === 0
                ? ''
                : `${chat.pendingApprovals.length === 1 ? '1 tool call waits' : `${chat.pendingApprovals.length} tool calls wait`} for your approval.`,
            ]
              .filter((line) => line !== '')
              .join(' '),
          };
  // A new chat (or one taken over from another tab) empties what was said of the conversation it replaced.
  const announcer = useAnnouncer(announcement, chatId);

  return (
    <div className="app">
      <button type="button" className="button primary skip-link" data-testid="skip-to-input" onClick={skipToInput}>
        Skip to the message box
      </button>
      <Header
        server={server.status}
        model={model}
        mode={mode}
        onMode={setMode}
        onNewChat={newChat}
        panelOpen={panelOpen}
        panelToggleRef={panelToggle}
        onTogglePanel={() => setPanelOpen((open) => !open)}
      />
      <div className="layout">
        <main className="chat" inert={panelOpen}>
          {error ? (
            <ErrorBanner
              error={error}
              context={bannerContext}
              api={api}
              onDismiss={chat.chatError ? clearError : dismissUnanswered}
              onRetry={retry}
              onRemoveLast={chat.chatError && isTooLarge(chat.chatError) && chat.messages.some((m) => m.role === 'user') ? removeLast : undefined}
              onNewChat={failure !== undefined && (isTooLarge(failure) || errorHint(failure, bannerContext) === 'repeated') ? newChat : undefined}
            />
          ) : null}
          {refused[0] !== undefined ? (
            <div className="retry-refused" role="status" data-testid="retry-refused" data-tool-call-ids={refused.map((view) => view.toolCallId).join(' ')}>
              <p>{retryRefusedText(refused)}</p>
              <button type="button" className="button small" data-testid="retry-refused-show" onClick={showCard(refused[0].toolCallId, 'approve')}>
                Show it
              </button>
              <button type="button" className="button ghost small" data-testid="retry-refused-dismiss" onClick={() => setRefusal(undefined)}>
                Dismiss
              </button>
            </div>
          ) : null}
          {heldText !== undefined ? (
            <div className="continuation-held" role="status" data-testid="continuation-held" data-reason={chat.continuationHeld}>
              <p>{heldText}</p>
              <button type="button" className="button small" data-testid="continuation-held-continue" onClick={resend}>
                Continue
              </button>
            </div>
          ) : null}
          <div className="messages" data-testid="messages" ref={list}>
            {chat.messages.length === 0 ? (
              <section className="welcome" data-testid="welcome">
                <h2>Tool calls you can see and trust</h2>
                <p>
                  Every call runs through one typed edgetool chain, on the server or in this browser, and every continuation carries a signed,
                  single-use ticket. Switch to <strong>manual</strong> to route every call through your browser first.
                </p>
                {offer ? (
                  <div className="resume-offer" data-testid="resume-offer">
                    <p>
                      Your last conversation, <q data-testid="resume-title">{offer.title || 'untitled'}</q> ({offer.messageCount} messages), was saved in another
                      tab. Each tab keeps its own.
                    </p>
                    <button type="button" className="button small" data-testid="resume-chat" onClick={() => resume(offer.slot)}>
                      Continue it here
                    </button>
                  </div>
                ) : null}
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
                  stopped={stopped.has(message.id)}
                  thinking={message.id === thinkingIn}
                  inputSchemas={inputSchemas}
                  onAskAgain={message === lastMessage && canAskAgain ? askAgain : undefined}
                  onSendAgain={message === lastMessage ? sendAgain : undefined}
                  onGoOn={message === lastMessage ? goOn : undefined}
                  refused={message === lastMessage ? refusedAnswer : undefined}
                  {...actions}
                />
              ))
            )}
            {/* Text where the answer will be, for a screen reader reading the conversation (not a live region). */}
            {thinking ? <Thinking row={true} /> : null}
          </div>
          <div className="visually-hidden" data-testid="chat-announcer" data-count={announcer.count}>
            {announcerRegions(announcer).map((text, region) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the two regions are fixed; which one speaks alternates.
              <p key={region} role="status" data-testid="chat-announcement" data-region={region} data-active={text !== ''}>
                {text}
              </p>
            ))}
          </div>
          <footer className="composer-area">
            <Composer busy={chat.busy} hold={hold} onSend={send} onStop={stop} inputRef={input} />
            <p className="composer-hint">
              Mode <strong data-testid="mode-label">{mode}</strong> applies from the next request. Enter sends · Shift+Enter adds a line.
              {chat.messages.length > 0 && (saveResult === 'too-large' || saveResult === 'failed') ? (
                <span className="composer-unsaved" data-testid="chat-unsaved" data-reason={saveResult}>
                  {' '}
                  {saveResult === 'too-large' ? 'This conversation is too long to keep:' : 'This browser does not let the page keep it:'} a reload
                  starts a new chat.
                </span>
              ) : null}
            </p>
          </footer>
        </main>
        {panelOpen ? <button type="button" className="side-backdrop" aria-label="Close cart and tools" tabIndex={-1} onClick={closePanel} /> : null}
        <SidePanel
          serverTools={serverTools}
          server={server}
          browserTools={browserTools}
          cart={cart}
          open={panelOpen}
          onClose={closePanel}
          autoSteps={autoSteps}
          onAutoSteps={setAutoSteps}
        />
      </div>
    </div>
  );
}
