import { Chat, type UseChatHelpers, useChat } from '@ai-sdk/react';
import type { ChatInit, ChatTransport, UIMessage, UIMessageChunk } from 'ai';
import { type AppDataParts, type EdgetoolUIMessage, type ExecutionMode, RESUMABLE_TURN_HEADER, toolParts, utf8Bytes } from '@edgetool/ai';
import {
  type AnyTool,
  type ApprovalDecision,
  createExecutor,
  createRegistry,
  createRunContext,
  defaultModelText,
  errorModelText,
  idempotencyKeyOf,
  type InterceptorLike,
  peekTicket,
  type ToolCallResult,
  ToolError,
  type ToolErrorMessage,
  type ToolExecutor,
  type ToolProgress,
} from '@edgetool/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { continuationOf } from './auto-continue.ts';
import { countOption } from './count-option.ts';
import { type BrowserCall, type BrowserCalls, cancelBrowserCalls, updateBrowserCall } from './browser-calls.ts';
import type { ApprovalNote, BrowserState } from './browser-state.ts';
import { type ChatErrorInfo, describeChatError, RESPONSE_TOO_LARGE, STREAM_CUT } from './chat-error.ts';
import { boundedResponse, type ResponseBounds } from './response-bound.ts';
import { expiredCalls, openCalls } from './expiry.ts';
import { type BrowserWork, lastAssistantMessage, type MessageLike, messageMode, planBrowserWork } from './plan.ts';
import { createProgressBuffer, type ProgressByCall, readProgressPart } from './progress.ts';
import { authorisationAsks, authorisationResolver, type ServerToolInfo } from './server-tools.ts';
import { answerAfter, browserAnswers } from './replay.ts';
import { FinishCheckingTransport } from './stream-end.ts';
import { stepOutputBytes } from './output-budget.ts';
import { CallsPendingError } from './pending-calls.ts';
import { waitingCalls } from './waiting-calls.ts';
import { type CallTrace, traceOfResult } from './trace.ts';
import { refusedEdit, withEditPart, withSentEdits } from './edits.ts';
import { type ActiveModel, activeModel, isPendingApproval, type PendingApproval, pendingApprovals, type ToolCallView, toolCallViews, type ViewOptions } from './views.ts';

/** Options for {@link useEdgeChat}; `TData`: the app's own data parts (see `EdgetoolUIMessage`). */
export interface UseEdgeChatOptions<TData extends AppDataParts = {}> {
  /** The chat endpoint (default `/api/chat`). */
  readonly api?: string;
  /**
   * The chat id, sent as `id` and used as the conversation id tickets are bound to (default: a random UUID). A new id
   * aborts the browser calls of the chat left: their questions go, and nothing is sent for that chat.
   */
  readonly id?: string;
  /** `internal`: the server runs its tools; `manual`: every call comes to this browser (default `internal`). */
  readonly mode?: ExecutionMode;
  /** Browser tools (`defineTool`, `runsOn: 'client'` or `'anywhere'`). Define them once, outside components. */
  readonly tools?: readonly AnyTool[];
  /** Interceptors of the browser chain, around every browser run and every manual-mode authorisation. */
  readonly interceptors?: readonly InterceptorLike[];
  /** Server tools as `GET /api/tools` lists them (see `parseServerTools`): policies for manual mode and the UI. */
  readonly serverTools?: readonly ServerToolInfo[];
  /**
   * Approves a pending call without asking (both modes; browser-side approvals too). It gets the call as
   * `pendingApprovals` would list it (`callOf(call, tool)` types its arguments). One that throws approves nothing: the
   * call waits for a human, and the error goes to the console.
   */
  readonly autoApprove?: (call: PendingApproval) => boolean;
  /** The browser user, on `ctx.run.userId` of browser tools. */
  readonly userId?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A `fetch` to use instead of the global one (tests, auth wrappers). */
  readonly fetch?: typeof globalThis.fetch;
  /** Messages to start with. */
  readonly messages?: EdgetoolUIMessage<TData>[];
  /**
   * What this browser knew about those messages (the `browserState` a previous page returned, saved with them): the
   * answers the user stopped stay stopped, expired calls stay expired, traces and progress come back. Read when the
   * hook first sees the chat `id`, like `messages`.
   */
  readonly browserState?: BrowserState;
  /**
   * Called with every progress report of a call, the server's and this browser's (before it is rendered). One that
   * throws is logged to the console; the response and the report go on.
   */
  readonly onProgress?: (event: { readonly toolCallId: string; readonly progress: ToolProgress }) => void;
  /** Called with every browser-side trace. One that throws is logged to the console; the call goes on. */
  readonly onTrace?: (trace: CallTrace & { readonly toolCallId: string; readonly toolName: string }) => void;
  /**
   * What the model reads of a browser call's failure, as `createExecutor`'s option (see `ToolErrorMessage` in
   * `@edgetool/core`): every message as it is (`'verbatim'`, default), `'hide-unexpected'` (a plain `Error` a browser tool
   * or interceptor throws becomes `The tool failed unexpectedly (reference <call id>).`; a `ToolError` stays), or a
   * function. The server takes a browser's failure as the browser words it, so its own option does not apply to them.
   */
  readonly toolErrorMessage?: ToolErrorMessage;
  /** Throttles message updates (ms). */
  readonly throttle?: number;
  /**
   * Resumable answers (the server must serve `GET` and `DELETE {api}/{id}/stream`, see `resumeResponse`): each new answer
   * is asked for with a turn id (kept in `browserState.turn` until it ends), a reload mid-answer reads the rest from
   * the server instead of losing it, and `stop()` also tells the server to stop. Continuations (answers to approvals
   * and browser calls) are not resumed: their stream carries only what they add to the message.
   */
  readonly resume?: boolean;
  /**
   * The most continuations the hook sends by itself in a row, with no message, retry (`sendMessage()`) or human
   * `approve`/`deny` between them (default 10; a whole number from 0, or `Infinity`). The server's `maxSteps` bounds one
   * request, and each continuation is a request of its own: a model that asks for a browser call at every step would get
   * one for good. Once it is reached the answer waits, its answers written (`continuationHeld: 'limit'`), for the app's
   * Retry or a new message.
   */
  readonly maxAutoContinuations?: number;
  /**
   * The most bytes of browser tool output (their JSON, in UTF-8) the hook sends in one continuation: the outputs of one
   * step's browser calls together (default 256 KiB; a whole number from 1, or `Infinity`). They count in the order they
   * come: the first are kept whole, and one that would take the step past it (or is larger alone) is sent as an
   * `invalid-output` failure that names its size and the budget, which the model can act on. Every later request
   * carries the outputs again, and a server that limits its request body (the demo Worker takes 512 KiB) would refuse
   * them all. Outputs of earlier steps travel too: keep it well under the server's limit.
   */
  readonly maxOutputBytes?: number;
  /**
   * The most characters one response may add to the conversation (default 1,000,000; a whole number from 1, or
   * `Infinity`): text, reasoning and a call's argument deltas count their length, any other chunk (a call's arguments or
   * output whole, a data part, metadata) the length of its JSON. A response is one request's answer: a new answer, or
   * what a continuation adds to it. At the first chunk that would pass it the response ends as `stop()` ends it (the
   * answer marked stopped, its browser calls not started, a resumable turn stopped at the server), what came before
   * stays, and `chatError` is `{ kind: 'stream', code: 'response-too-large' }`. Without it a huge or endless answer (a
   * buggy or hostile server, a model in a loop) grew the message in memory until the user pressed Stop.
   */
  readonly maxResponseChars?: number;
  /**
   * The most parts one response may add to its message (default 5,000; a whole number from 1, or `Infinity`): each text,
   * reasoning, step, tool call, source, file and kept data part (a transient one, a progress report, is no part). Met,
   * it ends the response as `maxResponseChars` does: many small parts cost more to render than their characters say.
   */
  readonly maxResponseParts?: number;
}

/**
 * Why the continuation the last answer has due is not sent by the hook itself: `'limit'`, it would be one more than
 * `maxAutoContinuations` in a row; `'untaken'`, the server answered that very continuation without taking its answers.
 * `sendMessage()` (a Retry) sends it; a new message takes its answers along.
 */
export type ContinuationHold = 'limit' | 'untaken';

/** Options of `approve`. */
export interface ApproveOptions {
  /** The arguments as the human edited them (the whole arguments); see `ToolCallView.editable`. */
  readonly input?: unknown;
}

/**
 * `useChat`'s functions that answer a call (`addToolOutput`, its old name `addToolResult`, `addToolApprovalResponse`):
 * the hook keeps them. An answer given through them would skip the browser chain, and the checks the hook makes before
 * it answers (a call the conversation left, an expired ticket, one decision per call); `approve` and `deny` answer.
 */
export type ChatAnswerFunctions = 'addToolOutput' | 'addToolResult' | 'addToolApprovalResponse';

/**
 * What {@link useEdgeChat} returns: `useChat`'s helpers (except those that answer a call, see {@link ChatAnswerFunctions}),
 * plus tool calls, approvals, the model and errors.
 */
export interface UseEdgeChatResult<TData extends AppDataParts = {}> extends Omit<UseChatHelpers<EdgetoolUIMessage<TData>>, 'stop' | ChatAnswerFunctions> {
  /**
   * `useChat`'s `sendMessage`. A new message ends the browser calls of the answer it leaves, as `stop()` does but
   * without the stopped mark. Answers already in the messages go with them, browser results the server never sealed
   * included: the server takes those once (with the answer kept with their ticket) and the model reads them. Without a
   * message (a retry), it rejects with a {@link CallsPendingError}, and sends nothing, while a call of the last answer
   * still waits here (a browser tool running or asking the user, an approval): the answer goes out once they are answered.
   * A retry of an answer the user stopped takes it on: the calls the stop left to this browser are answered as stopped.
   */
  readonly sendMessage: UseChatHelpers<EdgetoolUIMessage<TData>>['sendMessage'];
  /** `useChat`'s `regenerate`: ends the browser calls of the answer it replaces, as a new message does. */
  readonly regenerate: UseChatHelpers<EdgetoolUIMessage<TData>>['regenerate'];
  /**
   * `useChat`'s `setMessages`: ends the browser calls that are no longer in the last assistant message, or that have a
   * result there now; a change that keeps that message and its calls (a note added to it) leaves them running. One that
   * drops the message a response is on its way for (the answer streaming, or its question) ends that response too.
   */
  readonly setMessages: UseChatHelpers<EdgetoolUIMessage<TData>>['setMessages'];
  readonly mode: ExecutionMode;
  /** A view of every tool call of the conversation, by tool call id. */
  readonly toolCalls: ReadonlyMap<string, ToolCallView>;
  /** Calls waiting for a human decision (from the server, or from the browser chain): their views from `toolCalls`. */
  readonly pendingApprovals: readonly PendingApproval[];
  /**
   * Approves a pending call. The first decision of a call wins: a later `approve` or `deny` of it is ignored. With
   * `input`, the call runs with those arguments instead of the model's (the whole arguments, not only the changes): the
   * server takes only changes its tool allows (`ToolCallView.editable`), validates them again, and the model reads what
   * changed. Edits apply to calls the server runs. A `TypeError` is thrown, and nothing is sent, for a browser tool's
   * call, a call whose tool lets nothing be edited, and a change of an argument `editable` does not list. Once the hook
   * left the chat of the render it came from (a new `id`) or unmounted, it is ignored, as `deny` is.
   */
  approve(toolCallId: string, options?: ApproveOptions): void;
  /** Denies a pending call; the model reads the reason. The first decision of a call wins. */
  deny(toolCallId: string, reason?: string): void;
  /** The model of the latest answer (from message metadata). */
  readonly model: ActiveModel | undefined;
  /** The last request's error, described for a banner. */
  readonly chatError: ChatErrorInfo | undefined;
  /** A response is streaming, or a browser tool is running. */
  readonly busy: boolean;
  /**
   * Aborts the response and every browser call in flight (their results are dropped); marks the answer stopped. A later
   * `approve`/`deny` of a browser call it ended, even in the same tick, is ignored. It reads the chat as it is when
   * called, not as the last render showed it: a call that just started, or a response that just left, is stopped too.
   * Once the hook left the chat of the render it came from (a new `id`) or unmounted, it does nothing.
   */
  stop(): Promise<void>;
  /** What this browser knows beside the messages (stopped answers, expired calls, traces, progress): save it with them. */
  readonly browserState: BrowserState;
  /** Set while the last answer's continuation is due and the hook does not send it itself (see {@link ContinuationHold}). */
  readonly continuationHeld: ContinuationHold | undefined;
  /**
   * The `maxAutoContinuations` in force (the option, or its default of 10): a `'limit'` hold comes after this many
   * continuations in a row, which the app's notice can say.
   */
  readonly maxAutoContinuations: number;
}

const NONE: readonly never[] = [];
/** `maxAutoContinuations` by default: more browser steps in a row than a task asks for, and a bound on a looping model. */
const AUTO_CONTINUATIONS = 10;
/** `maxOutputBytes` by default: half the demo Worker's request body, which must hold the rest of the conversation too. */
const OUTPUT_BYTES = 256 * 1024;
/**
 * `maxResponseChars` by default: about 250,000 tokens of text, more than a model writes in one answer, and room for
 * tool outputs (an image, a PDF as base64); a message this large is already more than the demo Worker takes back.
 */
const RESPONSE_CHARS = 1_000_000;
/** `maxResponseParts` by default: a step limit's worth of steps with dozens of calls each, their tickets and seals. */
const RESPONSE_PARTS = 5_000;
/** What the model reads of a call the user stopped, when a retry takes the answer on. */
const STOPPED = 'The user stopped this call before it finished.';
const NO_PROGRESS: ProgressByCall = new Map();
const NO_TRACES: ReadonlyMap<string, readonly CallTrace[]> = new Map();

/** The answers the user stopped and the calls that expired, of one chat. */
interface Marks {
  readonly chatId: string;
  readonly stopped: ReadonlySet<string>;
  readonly expired: ReadonlySet<string>;
}

const marksFrom = (chatId: string, state: BrowserState | undefined): Marks => ({ chatId, stopped: new Set(state?.stopped), expired: new Set(state?.expired) });

/** What the hook's transport tells the hook, and asks it (see {@link NotingTransport}). */
interface TransportHooks<TMessage extends UIMessage> {
  /** A request goes out with these messages (see `continuationOf`); returns the turn id to send it with, if resumable. */
  readonly sent: (chatId: string, messages: readonly TMessage[]) => string | undefined;
  /** The turn to resume for this chat, if any: a reload asks the server for it, and only for it. */
  readonly inFlight: (chatId: string) => string | undefined;
  /** The resume found nothing (`undefined`), or its replay started the message with this id. */
  readonly resumed: (chatId: string, messageId: string | undefined) => void;
  /** The messages of this chat as the page has them now, read before a replay writes any (see `browserAnswers`). */
  readonly messages: (chatId: string) => readonly MessageLike[];
  /** The approvals noted while this chat's resumable turn ran (see `BrowserState.approvals`). */
  readonly approvals: (chatId: string) => Readonly<Record<string, ApprovalNote>>;
  /** What one response may add (`maxResponseChars`, `maxResponseParts`), read as each response starts. */
  readonly bounds: () => ResponseBounds;
}

/** The hook's transport: it tells the hook of each request, sends the resumable turn's id, and resumes only that turn. */
class NotingTransport<TMessage extends UIMessage> extends FinishCheckingTransport<TMessage> {
  readonly #hooks: TransportHooks<TMessage>;

  constructor(options: ConstructorParameters<typeof FinishCheckingTransport<TMessage>>[0], hooks: TransportHooks<TMessage>) {
    super(options);
    this.#hooks = hooks;
  }

  override sendMessages(options: Parameters<FinishCheckingTransport<TMessage>['sendMessages']>[0]): ReturnType<FinishCheckingTransport<TMessage>['sendMessages']> {
    const turn = this.#hooks.sent(options.chatId, options.messages);
    if (turn === undefined) return super.sendMessages(options);
    return super.sendMessages({ ...options, headers: { ...Object.fromEntries(new Headers(options.headers)), [RESUMABLE_TURN_HEADER]: turn } });
  }

  /** Each response, sent or resumed, ends with an error at the first chunk past the hook's bounds (see `boundedResponse`). */
  protected override processResponseStream(stream: ReadableStream<Uint8Array<ArrayBufferLike>>): ReadableStream<UIMessageChunk> {
    return boundedResponse(super.processResponseStream(stream), this.#hooks.bounds());
  }

  override async reconnectToStream(
    options: Parameters<FinishCheckingTransport<TMessage>['reconnectToStream']>[0],
  ): ReturnType<FinishCheckingTransport<TMessage>['reconnectToStream']> {
    // No turn of this chat was left unfinished here: nothing to ask the server.
    const turn = this.#hooks.inFlight(options.chatId);
    if (turn === undefined) return null;
    const stream = await super.reconnectToStream({ ...options, headers: { ...Object.fromEntries(new Headers(options.headers)), [RESUMABLE_TURN_HEADER]: turn } });
    if (stream === null) {
      this.#hooks.resumed(options.chatId, undefined);
      return null;
    }
    let first = true;
    const { resumed } = this.#hooks;
    const before = this.#hooks.messages(options.chatId);
    const approvals = this.#hooks.approvals(options.chatId);
    // The replay writes the answer again from its start: the answers this page gave meanwhile (a date picker answered,
    // an approval decided while a server call of the same step still ran) are put back, or they would run and ask again.
    let answers: ReadonlyMap<string, readonly UIMessageChunk[]> = new Map();
    return stream.pipeThrough(
      new TransformStream<UIMessageChunk, UIMessageChunk>({
        transform(chunk, controller) {
          if (first && chunk.type === 'start') {
            first = false;
            answers = browserAnswers(before.find((message) => message.id === chunk.messageId && message.role === 'assistant'), approvals);
            resumed(options.chatId, chunk.messageId);
          }
          controller.enqueue(chunk);
          for (const answer of answerAfter(chunk, answers)) controller.enqueue(answer);
        },
      }),
    );
  }
}

/**
 * The outcome of one pass through a browser chain, decided by the caller. `signal`: the call's, read when the result is
 * handed back (an abort may come after the chain returned). `unmounted`: the mount or the chat that started the pass is
 * gone (a new mount, if any, has started the call again; a chat left is not answered from here). `release`: gives back
 * the bytes a browser output took of its step's `maxOutputBytes` until it is written into the message, or dropped.
 */
type PassResult = { readonly result: ToolCallResult; readonly signal: AbortSignal; readonly unmounted: boolean; readonly release: () => unknown };

/** Controllers of mounts that unmounted, or of chats the hook left: a pass they started reports nothing. */
const UNMOUNTED = new WeakSet<AbortController>();

/** `useChat`'s options of the hook's chat that change from render to render (see {@link createChat}). */
type ChatOptions<TMessage extends UIMessage> = Pick<ChatInit<TMessage>, 'sendAutomaticallyWhen' | 'onError' | 'onFinish' | 'onData'> & {
  readonly transport: ChatTransport<TMessage>;
};

/**
 * The chat `useChat` would make for this id and these messages, but reading the latest `options` at every call, as
 * `useChat` does (its own chat is stopped on unmount; see {@link holdChat}).
 */
function createChat<TMessage extends UIMessage>(id: string, messages: TMessage[] | undefined, options: { readonly current: ChatOptions<TMessage> }): Chat<TMessage> {
  const transport: ChatTransport<TMessage> = {
    get resumeStreamIsReplay() {
      return options.current.transport.resumeStreamIsReplay === true;
    },
    sendMessages: (request) => options.current.transport.sendMessages(request),
    reconnectToStream: (request) => options.current.transport.reconnectToStream(request),
  };
  return new Chat<TMessage>({
    id,
    transport,
    ...(messages ? { messages } : {}),
    sendAutomaticallyWhen: (request) => options.current.sendAutomaticallyWhen?.(request) ?? false,
    onError: (error) => options.current.onError?.(error),
    onFinish: (event) => options.current.onFinish?.(event),
    onData: (part) => options.current.onData?.(part),
  });
}

/** How many mounts hold each chat the hook made (see {@link holdChat}). */
const HOLDERS = new WeakMap<object, number>();

/**
 * An effect for the hook's chat: stops it once no mount holds it (the page left it: an unmount, a new chat id), as
 * `useChat` stops its own, but a microtask later. StrictMode's unmount and second mount run in one go, so that mount
 * takes the chat back before then, and the chat goes on as without StrictMode: nothing it sends is aborted, and an
 * answer written meanwhile is sent (the AI SDK sends no continuation while a stop settles).
 */
function holdChat(chat: { stop(): Promise<void> }): () => void {
  HOLDERS.set(chat, (HOLDERS.get(chat) ?? 0) + 1);
  return () => {
    HOLDERS.set(chat, (HOLDERS.get(chat) ?? 1) - 1);
    queueMicrotask(() => {
      if (HOLDERS.get(chat) === 0) void chat.stop();
    });
  };
}

/**
 * `useChat` for edgetool servers: sends `{ id, messages, mode }`, runs browser tools through an
 * edgetool chain when the server hands them over (with a `client-result` ticket), authorises server
 * calls through the same chain in manual mode, surfaces approvals, and continues the turn once every
 * pending call is answered. Tickets and seals stay in the messages untouched.
 */
export function useEdgeChat<TData extends AppDataParts = {}>(options: UseEdgeChatOptions<TData> = {}): UseEdgeChatResult<TData> {
  type Message = EdgetoolUIMessage<TData>;
  const { api = '/api/chat', mode = 'internal', tools = NONE, interceptors = NONE, serverTools = NONE, userId, headers } = options;
  const [fallbackId] = useState(() => crypto.randomUUID());
  const chatId = options.id ?? fallbackId;

  const { toolErrorMessage } = options;
  const maxAuto = countOption('maxAutoContinuations', options.maxAutoContinuations, AUTO_CONTINUATIONS, 0);
  const maxBytes = countOption('maxOutputBytes', options.maxOutputBytes, OUTPUT_BYTES, 1);
  const bounds: ResponseBounds = {
    chars: countOption('maxResponseChars', options.maxResponseChars, RESPONSE_CHARS, 1),
    parts: countOption('maxResponseParts', options.maxResponseParts, RESPONSE_PARTS, 1),
  };
  const latest = useRef({ mode, autoApprove: options.autoApprove, onTrace: options.onTrace, onProgress: options.onProgress, toolErrorMessage, maxAuto, maxBytes, bounds });
  useEffect(() => {
    latest.current = { mode, autoApprove: options.autoApprove, onTrace: options.onTrace, onProgress: options.onProgress, toolErrorMessage, maxAuto, maxBytes, bounds };
  });

  // The latest progress report of each call: from the server's transient parts and from browser tools, rendered
  // at most once per frame. Reset with the chat.
  const [progressState, setProgressState] = useState<{ chatId: string; reports: ProgressByCall }>({ chatId, reports: new Map() });
  const liveProgress = progressState.chatId === chatId ? progressState.reports : NO_PROGRESS;
  // What a saved BrowserState brings back (the app passes it with the messages of the same chat id).
  const restored = options.browserState;
  const progress = useMemo(
    () => (restored === undefined || Object.keys(restored.progress).length === 0 ? liveProgress : new Map([...Object.entries(restored.progress), ...liveProgress])),
    [restored, liveProgress],
  );
  const earlierTraces = useMemo(() => (restored === undefined ? NO_TRACES : new Map(Object.entries(restored.traces))), [restored]);
  // Stopped answers and expired calls, reset with the chat (to what the app restored for the new id, if anything).
  const [marks, setMarks] = useState(() => marksFrom(chatId, restored));
  if (marks.chatId !== chatId) setMarks(marksFrom(chatId, restored));
  const markExpired = useCallback(
    (ids: readonly string[]) =>
      setMarks((m) => (m.chatId !== chatId || ids.every((id) => m.expired.has(id)) ? m : { ...m, expired: new Set([...m.expired, ...ids]) })),
    [chatId],
  );
  const expiredRef = useRef(marks.expired);
  expiredRef.current = marks.chatId === chatId ? marks.expired : new Set<string>();
  // The chat shown now: a call or a progress report of a chat the hook has left (its tool ended or reported after a
  // switch) must not land in the chat it shows, whose calls may have the same ids (`call_0`).
  const shownChat = useRef(chatId);
  shownChat.current = chatId;
  // One buffer per chat: reports still buffered when the hook leaves their chat go with that chat's progress (dropped),
  // not into the next chat's.
  const progressBuffer = useMemo(
    () =>
      createProgressBuffer((reports) => {
        if (shownChat.current !== chatId) return;
        setProgressState((s) => ({ chatId, reports: new Map([...(s.chatId === chatId ? s.reports : []), ...reports]) }));
      }),
    [chatId],
  );
  useEffect(() => () => progressBuffer.dispose(), [progressBuffer]);
  const report = useCallback(
    (toolCallId: string, update: ToolProgress) => {
      const { onProgress } = latest.current;
      // A listener that throws must not end the response (`useChat` fails the stream whose `onData` threw) or drop the report.
      if (onProgress !== undefined) listen('onProgress', () => onProgress({ toolCallId, progress: update }), undefined);
      progressBuffer.add(toolCallId, update);
    },
    [progressBuffer],
  );

  // The continuation the last request of this chat carried, and those the server answered without taking their answers
  // (no seal, no new step: a broken or hostile server, a proxy's cached answer). `useChat` sends a continuation again
  // whenever a response ends and `shouldContinue` still holds, so such a server got a request per response, for good.
  // `auto`: how many the hook sent by itself since the last message, retry or human decision (see maxAutoContinuations).
  // `held`: the continuation the count holds, if any.
  const continuations = useRef({ chatId, sent: undefined as string | undefined, untaken: new Set<string>(), auto: 0, held: undefined as string | undefined });
  if (continuations.current.chatId !== chatId) continuations.current = { chatId, sent: undefined, untaken: new Set(), auto: 0, held: undefined };
  // The continuation the hook holds, and why (re-rendered: `sendAutomaticallyWhen` and `onFinish` run outside a render).
  const [held, setHeld] = useState<{ readonly chatId: string; readonly key: string; readonly why: ContinuationHold } | undefined>(undefined);
  /** A human asked to go on (a message, a retry, a decision): the continuations that follow are counted from zero. */
  const humanTurn = useCallback(() => {
    continuations.current.auto = 0;
  }, []);

  // With `resume`: the turn this browser sent and has not seen end, reset with the chat (to what the app restored).
  const resuming = options.resume === true;
  // With it, the approvals given while that turn runs (a replay of it writes them back, see BrowserState.approvals).
  const restoredTurn = (): TurnState => ({ chatId, turn: restored?.turn, approvals: restored?.turn === undefined ? {} : (restored.approvals ?? {}) });
  const [turnState, setTurnState] = useState(restoredTurn);
  if (turnState.chatId !== chatId) setTurnState(restoredTurn());
  const turnRef = useRef(turnState);
  if (turnRef.current.chatId !== chatId) turnRef.current = restoredTurn();
  const setTurn = useCallback((id: string, turn: string | undefined) => {
    if (turnRef.current.chatId !== id || turnRef.current.turn === turn) return;
    turnRef.current = { chatId: id, turn, approvals: {} };
    setTurnState(turnRef.current);
  }, []);
  const noteApproval = useCallback((id: string, toolCallId: string, note: ApprovalNote) => {
    if (turnRef.current.chatId !== id || turnRef.current.turn === undefined) return;
    turnRef.current = { ...turnRef.current, approvals: { ...turnRef.current.approvals, [toolCallId]: note } };
    setTurnState(turnRef.current);
  }, []);
  const resumable = useRef<Omit<TransportHooks<Message>, 'messages' | 'approvals' | 'bounds'>>({ sent: () => undefined, inFlight: () => undefined, resumed: () => {} });
  resumable.current = {
    // A new answer (the request ends with the user's message) gets a turn id; a continuation is not resumable.
    sent: (id, messages) => {
      if (!resuming) return undefined;
      const turn = messages.at(-1)?.role === 'user' ? crypto.randomUUID() : undefined;
      setTurn(id, turn);
      return turn;
    },
    inFlight: (id) => (resuming && turnRef.current.chatId === id ? turnRef.current.turn : undefined),
    resumed: (id, messageId) => {
      if (messageId === undefined) return setTurn(id, undefined);
      // The answer a reload cut short (marked stopped when the page went away) goes on: not stopped any more.
      setMarks((m) => (m.chatId === id && m.stopped.has(messageId) ? { ...m, stopped: new Set([...m.stopped].filter((s) => s !== messageId)) } : m));
    },
  };

  // The chat of the id shown (made below): its messages hold an answer written since the last render, which
  // `chat.messages` does not show yet (a decision given as the page loaded, before the replay of its turn came).
  const liveChat = useRef<Chat<Message> | undefined>(undefined);
  const headersKey = JSON.stringify(headers ?? {});
  const customFetch = options.fetch;
  // biome-ignore lint/correctness/useExhaustiveDependencies: headers are compared by value (headersKey).
  const transport = useMemo(
    () =>
      // A response that ends without its `finish` (a dropped connection, an empty body) fails, as a network error does.
      new NotingTransport<Message>(
        {
          api,
          ...(headers ? { headers: { ...headers } } : {}),
          ...(customFetch ? { fetch: customFetch } : {}),
          // Read at send time, so a mode switch applies to the next request, continuations included.
          body: () => ({ mode: latest.current.mode }),
        },
        {
          sent: (id, messages) => {
            if (continuations.current.chatId === id) continuations.current.sent = continuationOf(messages);
            return resumable.current.sent(id, messages);
          },
          inFlight: (id) => resumable.current.inFlight(id),
          resumed: (id, messageId) => resumable.current.resumed(id, messageId),
          messages: (id): readonly MessageLike[] => (shownChat.current === id ? (liveChat.current?.messages ?? []) : []),
          approvals: (id) => (turnRef.current.chatId === id ? turnRef.current.approvals : {}),
          bounds: () => latest.current.bounds,
        },
      ),
    [api, customFetch, headersKey],
  );

  // The edits sent with approvals of this chat, by call. A response still streaming when the human approved writes its
  // message from its own copy at every chunk: the approval stays (the AI SDK updates that copy too), the edit part
  // beside it goes. They are put back when the response ends, before the continuation goes out, and only in the message
  // they were sent in (`messages`, by call): another answer's call given the same id (`call_0`, a regenerated answer) is
  // another call, which the human approved as it was.
  const sentEdits = useRef({ chatId, edits: new Map<string, unknown>(), messages: new Map<string, string | undefined>() });
  if (sentEdits.current.chatId !== chatId) sentEdits.current = { chatId, edits: new Map(), messages: new Map() };
  const restoreEdits = useRef<() => void>(() => {});

  // Set while a retry of a stopped answer writes its answers: that retry sends the continuation, once.
  const holdContinuation = useRef(false);
  // The response failed because its stream closed before its `finish` (a proxy that ended it, a replay whose store read
  // failed): read by `onFinish`, which `useChat` calls right after `onError`.
  const cutShort = useRef(false);
  // What `stop()` does but end the response (`haltWork`, made below): for a response that failed over its bounds.
  const halt = useRef<(always: boolean) => boolean>(() => false);
  // `useChat`'s options as this render has them: the chat made below reads them at every call, as `useChat` reads its own.
  const chatOptions = useRef<ChatOptions<Message>>({ transport });
  chatOptions.current = {
    transport,
    sendAutomaticallyWhen: ({ messages }) => {
      if (holdContinuation.current) return false;
      const continuation = continuationOf(messages);
      const state = continuations.current;
      if (continuation === undefined || state.untaken.has(continuation)) return false;
      // A model that asks for a browser call at every step: each continuation is a new request, which the server's
      // maxSteps does not count, so nothing else would end it.
      if (state.auto >= latest.current.maxAuto) {
        // Said once per continuation held (`useChat` asks again after every change of the messages).
        if (state.held !== continuation) {
          state.held = continuation;
          console.warn(
            `edgetool: the chat sent ${state.auto} continuations by itself in a row (maxAutoContinuations); the next waits for sendMessage() or a new message.`,
          );
          setHeld({ chatId: state.chatId, key: continuation, why: 'limit' });
        }
        return false;
      }
      state.auto++;
      return true;
    },
    onError: (error) => {
      cutShort.current = error.name === STREAM_CUT;
      // A response over its bounds ends as a stop ends it: its answer marked, its browser calls not started, a resumable
      // turn stopped at the server. Its stream has already failed, so there is no response left to abort.
      if (error.name === RESPONSE_TOO_LARGE) halt.current(true);
    },
    onFinish: ({ messages, isAbort, isError, isDisconnect }) => {
      restoreEdits.current();
      const cut = isError && cutShort.current;
      cutShort.current = false;
      // The answer ended here (or failed for good): nothing is left to resume. A dropped connection may be resumed, and
      // so may a stream closed before its `finish` (the turn goes on at the server, as for a drop).
      if (!isAbort && !isDisconnect && !cut) setTurn(chatId, undefined);
      // The response to a continuation ended, and the same continuation is still due: the server did not take it. It is
      // not sent again by itself (an app's Retry, `sendMessage()`, still sends it); the calls show their answers unsealed.
      const { sent, untaken } = continuations.current;
      if (isAbort || isError || sent === undefined || continuationOf(messages) !== sent || untaken.has(sent)) return;
      untaken.add(sent);
      setHeld({ chatId, key: sent, why: 'untaken' });
      console.error(
        "edgetool: the server answered the chat's continuation without taking its answers (no seal, no new step); it is not sent again automatically.",
      );
    },
    onData: (part) => {
      const read = readProgressPart(part);
      if (read !== undefined) report(read.toolCallId, read.progress);
    },
  };
  // The chat of this id, made here rather than by `useChat`, whose unmount stops the chat it made: StrictMode's unmount
  // (every development server's) stopped the chat its second mount goes on with, and the AI SDK sends no continuation
  // while a stop settles, so an answer given as the page mounted (autoApprove of a saved approval) stayed unsent.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `messages` are read when the hook first sees the chat id.
  const ownChat = useMemo(() => createChat(chatId, options.messages, chatOptions), [chatId]);
  liveChat.current = ownChat;
  useEffect(() => holdChat(ownChat), [ownChat]);
  const chat = useChat<Message>({
    chat: ownChat,
    ...(options.throttle === undefined ? {} : { throttle: options.throttle }),
    // On mount `useChat` asks the transport to resume; it asks the server only for a turn left unfinished here.
    ...(resuming ? { resume: true } : {}),
  });
  const messagesRef = useRef(chat.messages);
  messagesRef.current = chat.messages;
  // The views of the latest render, for decide(), and what they were made from, for pendingOf() (made further down, from
  // state those change).
  const viewsRef = useRef<ReadonlyMap<string, ToolCallView>>(new Map());
  const viewOptions = useRef<ViewOptions>({ browserTools: new Map(), serverTools: new Map(), browserCalls: new Map(), streaming: false, mode });
  const streaming = chat.status === 'streaming' || chat.status === 'submitted';
  const streamingRef = useRef(streaming);
  streamingRef.current = streaming;

  /**
   * Whether the server would refuse an answer to this call now, because its ticket expired (marked so if it did): a
   * decision or a browser result that comes too late is not sent, it would only earn a 403.
   */
  const tooLate = useCallback(
    (toolCallId: string): boolean => {
      if (expiredRef.current.has(toolCallId)) return true;
      const { expired } = expiredCalls(messagesRef.current, Date.now());
      if (!expired.includes(toolCallId)) return false;
      markExpired(expired);
      return true;
    },
    [markExpired],
  );

  const browserTools = useMemo(() => new Map(tools.map((tool) => [tool.name, tool] as const)), [tools]);
  const serverToolMap = useMemo(() => new Map(serverTools.map((tool) => [tool.name, tool] as const)), [serverTools]);
  // A function is read from `latest` when a call fails, so one written inline does not build the executors again at
  // every render; a change between the words (`'verbatim'`, `'hide-unexpected'`, a function) does.
  const errorWords = typeof toolErrorMessage === 'function' ? 'function' : toolErrorMessage;
  const executors = useMemo(() => {
    const hide: ToolErrorMessage | undefined =
      errorWords === 'function'
        ? (error, call) => {
            const words = latest.current.toolErrorMessage;
            return typeof words === 'function' ? words(error, call) : undefined;
          }
        : errorWords;
    return {
      run: createExecutor({ side: 'client', registry: tools, interceptors, spans: true, toolErrorMessage: hide }),
      // Left verbatim: the model reads an authorisation's failure as the denial's reason, worded by `run.errorMessage`
      // (a function is called once per failure, as in the executor). Spans on too: its trace shows the browser chain.
      authorise: createExecutor({
        side: 'client',
        registry: createRegistry({ resolvers: [authorisationResolver(serverTools)] }),
        interceptors,
        spans: true,
      }),
    };
  }, [tools, interceptors, serverTools, errorWords]);
  const run = useMemo(() => createRunContext({ conversationId: chatId, userId }), [chatId, userId]);

  // Browser-side state of calls, reset with the chat.
  const [state, setState] = useState<{ chatId: string; calls: BrowserCalls }>({ chatId, calls: new Map() });
  const calls = state.chatId === chatId ? state.calls : new Map<string, BrowserCall>();
  const callsRef = useRef(calls);
  callsRef.current = calls;
  const started = useRef({ chatId, ids: new Set<string>() });
  if (started.current.chatId !== chatId) started.current = { chatId, ids: new Set() };
  const abort = useRef(new AbortController());
  // Browser outputs accepted under `maxOutputBytes` and not written into the message yet, by call: the bytes they take
  // of their step's continuation (see `stepOutputBytes`).
  const outputsDue = useRef({ chatId, bytes: new Map<string, number>() });
  if (outputsDue.current.chatId !== chatId) outputsDue.current = { chatId, bytes: new Map() };
  /**
   * Browser calls in flight: the controller of the mount that started them, and the call's own (its ticket expired, or
   * the conversation left its answer).
   */
  const inflight = useRef(new Map<string, { readonly owner: AbortController; readonly own: AbortController }>());
  // Calls of answers the conversation left (a new message, `regenerate`, `setMessages`): the user went on from them, so
  // nothing more is written or sent for them. Kept as they are left, not read from the rendered messages, which are a
  // render (or `throttle` ms) behind.
  // `from`: the assistant message each left call was in, so that a later answer's call given the same id (a model that
  // numbers its calls `call_0` every time, regenerated) is known as a new call, not the one left (see `reused`).
  const left = useRef({ chatId, ids: new Set<string>(), from: new Map<string, string>() });
  if (left.current.chatId !== chatId) left.current = { chatId, ids: new Set(), from: new Map() };
  // Unmounting, or leaving the chat (a new `id`), aborts browser calls in flight (a fresh controller per mount and
  // chat): they stop asking the user, and nothing is sent for a chat the hook has left. The calls it aborts may start
  // again: StrictMode (React's development mode) unmounts and mounts again at once, and that mount must start what this
  // one left unfinished (a date picker that was open), not leave it cancelled; so does a return to the chat.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new chat id ends the calls of the chat left.
  useEffect(() => {
    const controller = new AbortController();
    abort.current = controller;
    return () => {
      // stop() may have replaced the controller made here: the calls started since run under the current one.
      const owners = new Set([controller, abort.current]);
      for (const owner of owners) {
        UNMOUNTED.add(owner);
        owner.abort();
      }
      for (const [id, { owner }] of inflight.current) if (owners.has(owner)) started.current.ids.delete(id);
    };
  }, [chatId]);

  const setCall = useCallback(
    (call: BrowserCall) =>
      setState((s) => (s.chatId !== chatId && shownChat.current !== chatId ? s : { chatId, calls: updateBrowserCall(s.chatId === chatId ? s.calls : new Map(), call) })),
    [chatId],
  );

  /**
   * Marks a call whose result was dropped `cancelled`, unless the hook has since started another call with its id (a
   * later answer's `call_0`, started as this one was left): that call's state is not this one's to end.
   */
  const dropCall = useCallback(
    (call: BrowserCall) =>
      setState((s) => {
        const now = s.chatId === chatId ? s.calls.get(call.toolCallId) : undefined;
        if (now !== undefined && (now.ticket !== call.ticket || now.approvalId !== call.approvalId)) return s;
        return s.chatId !== chatId && shownChat.current !== chatId ? s : { chatId, calls: updateBrowserCall(s.chatId === chatId ? s.calls : new Map(), { ...call, status: 'cancelled' }) };
      }),
    [chatId],
  );

  const { addToolOutput, addToolApprovalResponse, setMessages } = chat;
  restoreEdits.current = () => {
    const { edits, messages: sentIn } = sentEdits.current;
    if (edits.size === 0) return;
    setMessages((messages) => {
      const own = new Map([...edits].filter(([id]) => holderOf(messages, id)?.id === sentIn.get(id)));
      return own.size === 0 ? messages : withSentEdits(messages, own);
    });
  };
  /** Adds the human's edited arguments beside the call (and keeps them, see `sentEdits`), before its approval goes out. */
  const sendEdit = useCallback(
    (toolCallId: string, input: unknown) => {
      sentEdits.current.edits.set(toolCallId, input);
      sentEdits.current.messages.set(toolCallId, holderOf(messagesRef.current, toolCallId)?.id);
      setMessages((messages) => withEditPart(messages, toolCallId, input));
    },
    [setMessages],
  );

  /**
   * Whether `autoApprove` approves a call; one that throws approves nothing (a human decides), and is logged. A call
   * that would not wait for a human (`undefined`) is not asked about. `pending` makes the call's view only when there
   * is an `autoApprove` to ask.
   */
  const autoApproves = useCallback((pending: () => PendingApproval | undefined): boolean => {
    const { autoApprove } = latest.current;
    if (autoApprove === undefined) return false;
    const call = pending();
    return call !== undefined && listen('autoApprove', () => autoApprove(call) === true, false);
  }, []);

  /** One pass through a browser chain; records its trace. */
  const pass = useCallback(
    async (executor: ToolExecutor, call: BrowserCall, decision: ApprovalDecision | undefined): Promise<PassResult> => {
      const controller = abort.current;
      const entry = { owner: controller, own: new AbortController() };
      const signal = AbortSignal.any([controller.signal, entry.own.signal]);
      setCall({ ...call, status: 'running' });
      inflight.current.set(call.toolCallId, entry);
      let result: ToolCallResult;
      let release = (): unknown => undefined;
      try {
        // Not in the effect that planned the call: StrictMode unmounts a fresh mount in the same task, and a tool the
        // executor reached synchronously would have run once for that mount and once more for the next. A microtask
        // later the first mount's signal is aborted, so its executor returns before the tool runs.
        await Promise.resolve();
        // Keyed on the nonce of the ticket its call came with (no signer here to verify one): the key the server
        // records its result under, the same after a reload, another for a regenerated call given the same id. Made at
        // the first read (most tools never read it, and decoding the ticket is not free), and kept for every later read
        // and attempt of the call: it depends on nothing but the call, so when it is made changes nothing.
        const { ticket } = call;
        const idempotencyKey =
          ticket === undefined ? undefined : () => idempotencyKeyOf({ conversationId: run.conversationId, callId: call.toolCallId, nonce: peekTicket(ticket)?.nonce ?? ticket });
        result = await executor.execute(
          { id: call.toolCallId, name: call.toolName, arguments: call.input },
          { run, signal, approval: decision, onProgress: (event) => report(event.callId, event.progress), idempotencyKey },
        );
        if (call.kind === 'run') {
          // Checked and counted at once, in the order results come: the first to come is kept whole.
          const { maxBytes: max } = latest.current;
          const due = outputsDue.current.bytes;
          const spent = max === Number.POSITIVE_INFINITY ? 0 : stepOutputBytes(liveChat.current?.messages ?? [], call.toolCallId, due);
          const sendable = sendableResult(result, executor, { max, spent });
          result = sendable.result;
          if (sendable.bytes !== undefined) {
            due.set(call.toolCallId, sendable.bytes);
            release = () => due.delete(call.toolCallId);
          }
        }
      } finally {
        if (inflight.current.get(call.toolCallId) === entry) inflight.current.delete(call.toolCallId);
      }
      const { onTrace } = latest.current;
      if (onTrace !== undefined) {
        const trace = { ...traceOfResult(result), toolCallId: call.toolCallId, toolName: call.toolName };
        // A listener that throws must not hold up the call (its result would never be sent): as the executor does.
        listen('onTrace', () => onTrace(trace), undefined);
      }
      return { result, signal, unmounted: UNMOUNTED.has(controller), release };
    },
    [run, setCall, report],
  );

  /**
   * The pending approval a call of the last assistant message makes once it waits for a human (`asking`: the browser
   * chain's call that is about to; none for the server's own request), exactly as `pendingApprovals` will list it, for
   * `autoApprove`. `undefined` when it would not wait (the conversation left it, its ticket expired, it was stopped).
   */
  const pendingOf = useCallback((toolCallId: string, asking?: BrowserCall): PendingApproval | undefined => {
    const message = lastAssistantMessage(messagesRef.current);
    if (message === undefined) return undefined;
    const calls = asking === undefined ? callsRef.current : updateBrowserCall(callsRef.current, { ...asking, status: 'awaiting-approval' });
    const view = toolCallViews([message], { ...viewOptions.current, browserCalls: calls }).get(toolCallId);
    return view !== undefined && isPendingApproval(view) ? view : undefined;
  }, []);

  /**
   * Whether a result or decision the browser chain reached for this call is dropped: the call was aborted (read now: a
   * new message may have left its answer since the chain returned), its answer was left, or its ticket expired.
   */
  const dropped = useCallback(
    (toolCallId: string, signal: AbortSignal): boolean => signal.aborted || left.current.ids.has(toolCallId) || tooLate(toolCallId),
    [tooLate],
  );

  /** Runs a client tool in the browser and reports its result (or leaves it waiting for a human). */
  const runInBrowser = useCallback(
    async (call: BrowserCall, decision?: ApprovalDecision): Promise<void> => {
      const { result, signal, unmounted, release } = await pass(executors.run, call, decision);
      try {
        if (unmounted) return;
        const traced: BrowserCall = { ...call, traces: [...call.traces, traceOfResult(result)] };
        if (dropped(call.toolCallId, signal)) return dropCall(traced);
        const { outcome } = result;
        if (outcome.type === 'approval-required') {
          const asking: BrowserCall = { ...traced, requestReason: outcome.reason };
          if (decision === undefined && autoApproves(() => pendingOf(call.toolCallId, asking))) return runInBrowser(traced, { approved: true });
          return setCall({ ...asking, status: 'awaiting-approval' });
        }
        setCall({ ...traced, status: 'done' });
        if (outcome.type === 'success') {
          // A tool that returns nothing answers `null`, as the server does for its own tools: JSON drops an `undefined`
          // output, and the server refuses a result part without one.
          await addToolOutput({ tool: call.toolName, toolCallId: call.toolCallId, output: (outcome.output === undefined ? null : outcome.output) as never });
        } else {
          if (outcome.type === 'error' && result.content !== errorModelText(outcome.error)) logHiddenFailure(outcome.error);
          await addToolOutput({ state: 'output-error', tool: call.toolName, toolCallId: call.toolCallId, errorText: result.content });
        }
      } finally {
        // Written (the message counts it now) or dropped.
        release();
      }
    },
    [executors, pass, setCall, dropCall, pendingOf, addToolOutput, dropped, autoApproves],
  );

  /** Manual mode: the browser chain decides whether the server may run a call. */
  const authorise = useCallback(
    async (call: BrowserCall, decision?: ApprovalDecision, edit?: { readonly input: unknown }): Promise<void> => {
      const { result, signal, unmounted } = await pass(executors.authorise, call, decision);
      if (unmounted) return;
      const traced: BrowserCall = { ...call, traces: [...call.traces, traceOfResult(result)] };
      if (dropped(call.toolCallId, signal)) return dropCall(traced);
      const { outcome } = result;
      // Arguments the browser's copy of the schema refuses (read with the tool's `coerce` and `strict`, as the server
      // reads them). They are not the user's denial: the server validates again before anything runs, and reports the
      // issues the model needs to fix them. But the server may read them as valid (a schema newer than the browser's
      // copy, a listing that does not say `coerce`/`strict`), and then runs the call: one the stand-in would ask about
      // still waits for a human.
      const invalid = outcome.type === 'error' && (outcome.error.code === 'invalid-input' || outcome.error.code === 'invalid-json');
      const ask = invalid && decision === undefined && authorisationAsks(serverToolMap.get(call.toolName)?.policy);
      if (outcome.type === 'approval-required' || ask) {
        if (decision === undefined && autoApproves(() => pendingOf(call.toolCallId, traced))) return authorise(traced, { approved: true });
        return setCall({ ...traced, status: 'awaiting-approval' });
      }
      setCall({ ...traced, status: 'done' });
      const id = call.approvalId ?? '';
      if (invalid && decision?.approved === false) {
        return addToolApprovalResponse({ id, approved: false, ...(decision.reason === undefined ? {} : { reason: decision.reason }) });
      }
      if (outcome.type === 'success' || invalid) {
        // The server checks and applies the human's edits (the browser chain authorised the call as the model made it).
        if (edit !== undefined) sendEdit(call.toolCallId, edit.input);
        return addToolApprovalResponse({ id, approved: true });
      }
      // A denial carries the human's reason; a failure of the chain, its message as the model reads it (`toolErrorMessage`).
      let reason: string | undefined;
      if (outcome.type === 'error' && outcome.error.code === 'approval-denied') reason = decision?.reason;
      else if (outcome.type === 'error') {
        reason = executors.run.errorMessage(outcome.error, result.call);
        if (reason !== outcome.error.message) logHiddenFailure(outcome.error);
      }
      return addToolApprovalResponse({ id, approved: false, ...(reason === undefined ? {} : { reason }) });
    },
    [executors, pass, setCall, dropCall, pendingOf, addToolApprovalResponse, dropped, sendEdit, serverToolMap, autoApproves],
  );

  const perform = useCallback(
    (work: BrowserWork): void => {
      const base: BrowserCall = { toolCallId: work.toolCallId, toolName: work.toolName, input: work.input, kind: 'run', approvalId: undefined, status: 'running', traces: [] };
      switch (work.kind) {
        case 'run':
          void runInBrowser({ ...base, ticket: work.ticket });
          return;
        case 'reject':
          void addToolOutput({ state: 'output-error', tool: work.toolName, toolCallId: work.toolCallId, errorText: work.errorText });
          return;
        case 'authorise':
          void authorise({ ...base, kind: 'authorise', approvalId: work.approvalId, requestReason: work.requestReason });
          return;
        case 'ask':
          if (autoApproves(() => pendingOf(work.toolCallId))) void addToolApprovalResponse({ id: work.approvalId, approved: true });
          return;
      }
    },
    [runInBrowser, authorise, addToolOutput, addToolApprovalResponse, pendingOf, autoApproves],
  );

  /**
   * The calls of `message` whose ids are those of calls of an answer the conversation left (a model that numbers its
   * calls `call_0` every time, in a regenerated answer): new calls, so what the hook kept for the left ones by id (left,
   * started, decided, expired, their browser state) is forgotten, and they run, ask and answer as any new call.
   */
  const reused = useCallback(
    (message: MessageLike | undefined): ReadonlySet<string> => {
      const { ids, from } = left.current;
      const fresh = new Set<string>();
      if (message === undefined) return fresh;
      for (const { toolCallId: id } of toolParts(message)) {
        const was = from.get(id);
        if (was === undefined || was === message.id) continue;
        fresh.add(id);
        ids.delete(id);
        from.delete(id);
        started.current.ids.delete(id);
        decided.current.ids.delete(id);
      }
      if (fresh.size === 0) return fresh;
      const forget = <T>(map: ReadonlyMap<string, T>): ReadonlyMap<string, T> => new Map([...map].filter(([id]) => !fresh.has(id)));
      setState((s) => (s.chatId === chatId && [...fresh].some((id) => s.calls.has(id)) ? { chatId, calls: forget(s.calls) } : s));
      setMarks((m) => (m.chatId === chatId && [...fresh].some((id) => m.expired.has(id)) ? { ...m, expired: new Set([...m.expired].filter((id) => !fresh.has(id))) } : m));
      expiredRef.current = new Set([...expiredRef.current].filter((id) => !fresh.has(id)));
      return fresh;
    },
    [chatId],
  );

  // Every time the messages change: start the work for calls not seen before (once per call), except in an answer the
  // user stopped and for calls whose ticket has expired (a reload brings both back).
  const { stopped, expired } = marks.chatId === chatId ? marks : marksFrom(chatId, undefined);
  useEffect(() => {
    const ids = started.current.ids;
    const fresh = reused(lastAssistantMessage(chat.messages));
    const due = new Set([...expired, ...expiredCalls(chat.messages, Date.now()).expired].filter((id) => !fresh.has(id)));
    for (const work of planBrowserWork(chat.messages, { browserTools, mode: latest.current.mode, stopped, expired: due })) {
      if (ids.has(work.toolCallId)) continue;
      ids.add(work.toolCallId);
      perform(work);
    }
  }, [chat.messages, browserTools, perform, stopped, expired, reused]);

  // A browser call whose ticket expires while it runs (a date picker left open) is aborted: its question goes, and the
  // tool's `ctx.signal` tells it to stop. Its answer could only be refused.
  useEffect(() => {
    for (const id of expired) inflight.current.get(id)?.own.abort();
  }, [expired]);

  // A call whose ticket expires while it waits is marked when it does (a timer for the next one), so its card stops
  // asking and the composer is free. Not while a response streams: the server took that answer when it arrived.
  const [tick, setTick] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: tick runs this again when the timer for the next expiry fires.
  useEffect(() => {
    if (streaming) return;
    const now = Date.now();
    const { expired: due, next } = expiredCalls(chat.messages, now);
    if (due.length > 0) markExpired(due);
    if (next === undefined) return;
    const timer = setTimeout(() => setTick((t) => t + 1), Math.min(next - now + 1, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [chat.messages, streaming, tick, markExpired]);

  // A continuation the server refused because a ticket expired (the clocks disagree, or the answer left just too
  // late) is no error to show: the calls of that step can no longer be answered, so they are marked expired.
  const { clearError } = chat;
  const refusedCalls = useMemo(() => expiryRefusal(describeChatError(chat.error), chat.messages), [chat.error, chat.messages]);
  useEffect(() => {
    if (refusedCalls === undefined) return;
    markExpired(refusedCalls);
    clearError();
  }, [refusedCalls, markExpired, clearError]);

  // Calls already decided in this chat: the first decision wins. Two clicks in one tick (a double click, Approve and
  // Deny together) both see the call still waiting, so the state alone cannot tell; a second decision would run a
  // browser tool twice or pass the browser chain twice.
  const decided = useRef({ chatId, ids: new Set<string>() });
  if (decided.current.chatId !== chatId) decided.current = { chatId, ids: new Set() };

  /**
   * An answer the user stopped goes on (a retry, or an answer to one of its server approvals): the mark comes off, and
   * what the stop left to this browser is answered as stopped first, since the server reads a call left unanswered as a
   * turn that never happened. The automatic continuation waits meanwhile: the caller sends it (a retry), or the last
   * answer does (an approval).
   */
  const takeOn = useCallback(
    async (message: Message): Promise<void> => {
      const work = planBrowserWork(messagesRef.current, { browserTools, mode: latest.current.mode, expired: expiredRef.current }).filter(
        (item) => item.kind !== 'ask' && !left.current.ids.has(item.toolCallId) && !tooLate(item.toolCallId),
      );
      for (const { toolCallId } of work) {
        started.current.ids.add(toolCallId);
        decided.current.ids.add(toolCallId);
      }
      setMarks((m) => (m.chatId === chatId ? { ...m, stopped: new Set([...m.stopped].filter((id) => id !== message.id)) } : m));
      holdContinuation.current = true;
      try {
        await Promise.all(
          work.map((item) => {
            switch (item.kind) {
              case 'run': {
                // Worded as every other failure of a browser call: through the app's `toolErrorMessage`.
                const error = new ToolError('aborted', STOPPED, { toolName: item.toolName, callId: item.toolCallId });
                const words = executors.run.errorMessage(error, { id: item.toolCallId, name: item.toolName, arguments: item.input });
                if (words !== error.message) logHiddenFailure(error);
                return addToolOutput({ state: 'output-error', tool: item.toolName, toolCallId: item.toolCallId, errorText: errorModelText(error, words) });
              }
              case 'reject':
                return addToolOutput({ state: 'output-error', tool: item.toolName, toolCallId: item.toolCallId, errorText: item.errorText });
              default:
                return addToolApprovalResponse({ id: item.approvalId, approved: false, reason: STOPPED });
            }
          }),
        );
      } finally {
        holdContinuation.current = false;
      }
    },
    [browserTools, tooLate, chatId, executors, addToolOutput, addToolApprovalResponse],
  );

  const decide = useCallback(
    (toolCallId: string, approved: boolean, reason?: string, edit?: { readonly input: unknown }): void => {
      const ids = decided.current.ids;
      // A call of the answer shown whose id a left answer's call had (`call_0`, regenerated) is a new call, here too before
      // the effect of this render has said so (a click between a commit and its effects): the left call's decision and
      // browser state are not its own.
      const live = shownChat.current === chatId && !UNMOUNTED.has(abort.current);
      const fresh = live ? reused(lastAssistantMessage(chat.messages)) : new Set<string>();
      const call = fresh.has(toolCallId) ? undefined : calls.get(toolCallId);
      // A mistaken edit throws whether or not the call is still open: the developer sees it on the first try.
      if (edit !== undefined && call?.kind === 'run') {
        throw new TypeError(`approve("${toolCallId}", { input }): "${call.toolName}" runs in this browser; edited arguments apply to calls the server runs.`);
      }
      const view = viewsRef.current.get(toolCallId);
      const refused = edit !== undefined && view !== undefined ? refusedEdit(view, edit.input) : undefined;
      if (refused !== undefined) throw new TypeError(`approve("${toolCallId}", { input }): ${refused}`);
      // A decision the page still holds once the hook left this render's chat (a new id) or unmounted (a handler that
      // awaited a confirmation): nothing more is run or sent for that chat, as for its browser calls.
      if (!live) return;
      if (ids.has(toolCallId) || left.current.ids.has(toolCallId) || tooLate(toolCallId)) return;
      // A call the browser chain has (a browser tool, a manual-mode authorisation) is decided only while that chain
      // waits for a human: not while it still runs (an approval sent now would go around its interceptors), nor once
      // it ended or was stopped.
      if (call !== undefined && call.status !== 'awaiting-approval') return;
      const last = lastAssistantMessage(chat.messages);
      const message = last?.parts.some((part) => (part as { toolCallId?: unknown }).toolCallId === toolCallId) === true ? last : undefined;
      // Manual mode: every approval request goes through the browser chain first. One it has not taken (the render before
      // the hook hands it over, or a stopped answer after a reload) is not answered around it.
      if (call === undefined && message !== undefined && messageMode(message, latest.current.mode) === 'manual') return;
      const decision: ApprovalDecision = { approved, ...(reason === undefined ? {} : { reason }) };
      if (call?.status === 'awaiting-approval') {
        ids.add(toolCallId);
        humanTurn();
        void (call.kind === 'run' ? runInBrowser(call, decision) : authorise(call, decision, edit));
        return;
      }
      // Only in the last assistant message: the server takes answers nowhere else.
      for (const part of message?.parts ?? []) {
        const p = part as { toolCallId?: string; state?: string; approval?: { id: string } };
        if (p.toolCallId === toolCallId && p.state === 'approval-requested' && p.approval) {
          ids.add(toolCallId);
          humanTurn();
          // Noted for a replay of the turn still running (a reload before it ends): the message may lose the edit part.
          if (approved && resuming) noteApproval(chatId, toolCallId, edit === undefined ? {} : { input: edit.input });
          // The edit part first: the approval may send the continuation at once (sendAutomaticallyWhen).
          if (edit !== undefined) sendEdit(toolCallId, edit.input);
          // An answer to a call of a stopped message goes on with that message (`takeOn`): the calls the stop left to
          // this browser are answered as stopped first, or the continuation would wait on them for good.
          const before = message !== undefined && stopped.has(message.id) ? takeOn(message) : undefined;
          const response = { id: p.approval.id, approved, ...(reason === undefined ? {} : { reason }) };
          void (before === undefined ? addToolApprovalResponse(response) : before.then(() => addToolApprovalResponse(response)));
          return;
        }
      }
    },
    [chatId, calls, chat.messages, runInBrowser, authorise, addToolApprovalResponse, tooLate, stopped, takeOn, sendEdit, reused, resuming, noteApproval, humanTurn],
  );
  const approve = useCallback(
    (toolCallId: string, options?: ApproveOptions) => decide(toolCallId, true, undefined, options?.input === undefined ? undefined : { input: options.input }),
    [decide],
  );
  const deny = useCallback((toolCallId: string, reason?: string) => decide(toolCallId, false, reason), [decide]);

  /**
   * Ends the browser calls of an answer the conversation leaves, as `stop()` does but without the stopped mark: their
   * `ctx.signal` aborts, their questions and browser approvals go, and nothing more is sent for them. The server takes
   * answers only in the last assistant message, so a result that came later would land in an earlier one
   * (`addToolOutput` writes wherever the call is), and the server would refuse every request after it. `after`: the
   * messages from now on; without them (a new message, a regenerated answer), no call of the last answer stays.
   */
  const leave = useCallback(
    (after?: readonly Message[]): void => {
      const next = after === undefined ? undefined : lastAssistantMessage(after);
      const { ids, from } = left.current;
      const leaving = lastAssistantMessage(messagesRef.current);
      // A call stays only in its own message: another answer's call with the same id (a model that numbers its calls
      // `call_0` every time) is another call, and the one running here would answer it (see `reused`).
      const kept = new Set([...unansweredCallIds(next)].filter((id) => (ids.has(id) ? (from.get(id) ?? next?.id) : leaving?.id) === next?.id));
      // Calls left earlier that the messages bring back (an undo): they start again as new, their browser tools run or
      // ask again (what ran before was aborted, and nothing of it was sent).
      const back = [...kept].filter((id) => ids.has(id));
      for (const part of toolParts(leaving ?? { parts: [] })) {
        ids.add(part.toolCallId);
        from.set(part.toolCallId, (leaving as Message).id);
      }
      for (const [id, { own }] of inflight.current) {
        if (kept.has(id)) continue;
        ids.add(id);
        own.abort();
      }
      for (const id of kept) {
        ids.delete(id);
        from.delete(id);
      }
      for (const id of back) {
        started.current.ids.delete(id);
        decided.current.ids.delete(id);
      }
      setState((s) => {
        if (s.chatId !== chatId) return s;
        let calls = cancelBrowserCalls(s.calls, kept);
        if (back.some((id) => calls.has(id))) {
          const fresh = new Map(calls);
          for (const id of back) fresh.delete(id);
          calls = fresh;
        }
        return calls === s.calls ? s : { chatId, calls };
      });
    },
    [chatId],
  );

  // A new message ends the browser calls of the answer it leaves. Their answers already written stay: the server takes
  // a browser result of an earlier turn once, and the model reads it (a cart cleared before the continuation failed).
  const { sendMessage: chatSend, regenerate: chatRegenerate } = chat;
  /**
   * A retry of an answer the user stopped: it takes the answer on (`takeOn`), then sends it. The calls a new step of the
   * answer brings then run and ask as any other.
   */
  const resume = useCallback(
    async (message: Message, requestOptions: Parameters<UseChatHelpers<Message>['sendMessage']>[1]): Promise<void> => {
      await takeOn(message);
      return chatSend(undefined, requestOptions);
    },
    [takeOn, chatSend],
  );
  const sendMessage = useCallback<UseChatHelpers<Message>['sendMessage']>(
    (message, requestOptions) => {
      if (message !== undefined) leave();
      else {
        // A retry sends the last answer as it is: with a call still waiting here (a browser tool asking the user, an
        // approval), the server would read it unanswered, and the answer given later would never go out.
        const last = lastAssistantMessage(messagesRef.current);
        const waiting = waitingCalls(viewsRef.current, last);
        if (waiting.length > 0) return Promise.reject(new CallsPendingError(waiting));
      }
      // A human goes on: the continuations the hook sends by itself after this one are counted anew.
      humanTurn();
      const last = lastAssistantMessage(messagesRef.current);
      if (message === undefined && last !== undefined && stopped.has(last.id)) return resume(last, requestOptions);
      return chatSend(message, requestOptions);
    },
    [chatSend, leave, stopped, resume, humanTurn],
  );
  // The answer regenerated goes (with what follows it), and its browser calls with it.
  const regenerate = useCallback<UseChatHelpers<Message>['regenerate']>(
    (regenerateOptions) => {
      leave();
      humanTurn();
      return chatRegenerate(regenerateOptions);
    },
    [chatRegenerate, leave, humanTurn],
  );
  // The app's own changes: the calls no longer waiting in the last assistant message end (`useChat` calls an update
  // function at once, with the messages as they are now). A change that drops the message a response is on its way for
  // (the answer it writes, or the question it answers) ends that response: `useChat` would write the answer back at its
  // next chunk, with its calls left (a browser call interrupted at once, an approval nobody can give).
  const chatStop = chat.stop;
  const replaceMessages = useCallback<UseChatHelpers<Message>['setMessages']>(
    (update) => {
      let after: Message[] = [];
      let dropped = false;
      setMessages((messages) => {
        after = typeof update === 'function' ? update(messages) : update;
        const last = messages.at(-1);
        dropped = last !== undefined && !after.some((message) => message.id === last.id);
        return after;
      });
      leave(after);
      if (dropped && streamingRef.current) void chatStop();
    },
    [setMessages, leave, chatStop],
  );

  /**
   * What `stop()` does before it aborts the response (see there); `always`: mark the last answer stopped even with no
   * response or browser work going on (a response that failed over its bounds). `false` when it did nothing.
   */
  const haltWork = useCallback((always: boolean): boolean => {
    // A stop() the page still holds once the hook left this render's chat (a new id) or unmounted stops nothing: the
    // controller and calls it would end are the chat's shown now (aborted without its stopped mark), and the turn of a
    // page that went away goes on at the server, for the next page load to resume.
    if (shownChat.current !== chatId || UNMOUNTED.has(abort.current)) return false;
    // Read from the chat and the calls as they are now, not as the last render showed them: a Stop that lands before
    // React renders a call that just started (a page that loads mid-answer starts it at once) or a response that just
    // left (the continuation an approval sends) must stop them too, or a reload runs and authorises the call again.
    const { messages, status } = ownChat;
    const last = lastAssistantMessage(messages);
    // What this browser still has to do for the answer (a browser tool to run or running, asking or not, a manual-mode
    // authorisation): all of it ends here. An approval the server asks a human for (`ask`) is no work of this browser.
    const expired = new Set([...expiredRef.current, ...expiredCalls(messages, Date.now()).expired]);
    const due = planBrowserWork(messages, { browserTools, mode: latest.current.mode, expired })
      .filter((work) => work.kind !== 'ask' && !left.current.ids.has(work.toolCallId))
      .map((work) => work.toolCallId);
    const running = [...inflight.current].filter(([, entry]) => entry.owner === abort.current && !entry.own.signal.aborted).map(([id]) => id);
    // The answer in progress is cut short: marked, so its calls left to this browser do not start again after a reload.
    // So is one that only waits for a browser-side approval (a browser tool's, or the chain's in manual mode), which
    // stop() ends too: unmarked, it would ask again after a reload.
    const responding = status === 'submitted' || status === 'streaming';
    if ((always || responding || due.length > 0 || running.length > 0) && last !== undefined) {
      setMarks((m) => (m.chatId === chatId ? { ...m, stopped: new Set(m.stopped).add(last.id) } : m));
    }
    // The browser calls it ends count as decided, and as started: an approve() in the same tick (the render both see
    // still shows the approval) would run a browser tool the user stopped, or authorise a call around the chain it
    // stopped; and a call the page has not started yet (its messages not rendered) must not start after the stop.
    for (const id of [...due, ...running]) {
      decided.current.ids.add(id);
      started.current.ids.add(id);
    }
    abort.current.abort();
    abort.current = new AbortController();
    setState((s) => (s.chatId === chatId ? { chatId, calls: cancelBrowserCalls(s.calls) } : s));
    // A resumable turn goes on at the server when its connection closes: it is told to stop (sent before the abort).
    const turn = resuming && turnRef.current.chatId === chatId ? turnRef.current.turn : undefined;
    if (turn !== undefined) {
      setTurn(chatId, undefined);
      void (customFetch ?? globalThis.fetch)(streamUrl(api, chatId), { method: 'DELETE', headers: { ...headers, [RESUMABLE_TURN_HEADER]: turn } }).catch((error: unknown) => {
        console.error('edgetool: the server could not be told to stop the answer:', error);
      });
    }
    return true;
  }, [chatId, ownChat, browserTools, resuming, setTurn, customFetch, api, headers]);
  halt.current = haltWork;

  const stop = useCallback(async (): Promise<void> => {
    if (haltWork(false)) await chatStop();
  }, [haltWork, chatStop]);

  const views = useMemo(
    () => toolCallViews(chat.messages, { browserTools, serverTools: serverToolMap, browserCalls: calls, streaming, mode, progress, earlierTraces, stopped, expired }),
    [chat.messages, browserTools, serverToolMap, calls, streaming, mode, progress, earlierTraces, stopped, expired],
  );
  viewsRef.current = views;
  viewOptions.current = { browserTools, serverTools: serverToolMap, browserCalls: calls, streaming, mode, progress, earlierTraces, stopped, expired };
  const pending = useMemo(() => pendingApprovals(views), [views]);
  const model = useMemo(() => activeModel(chat.messages), [chat.messages]);
  const chatError = useMemo(() => (refusedCalls === undefined ? describeChatError(chat.error) : undefined), [chat.error, refusedCalls]);
  // A browser call whose ticket expired (a date picker left open too long) no longer keeps the chat busy.
  const browserBusy = [...calls.values()].some((call) => call.status === 'running' && !expired.has(call.toolCallId));
  const turn = turnState.chatId === chatId ? turnState.turn : undefined;
  const approvals = turnState.chatId === chatId ? turnState.approvals : NO_APPROVALS;
  const browserState = useMemo(
    () => browserStateOf(views, chat.messages, stopped, resuming ? turn : undefined, approvals),
    [views, chat.messages, stopped, resuming, turn, approvals],
  );
  // Only while the continuation held is still the one due: an answer sent since, or a new step, ends the hold.
  const continuationHeld = useMemo(
    () => (held !== undefined && held.chatId === chatId && continuationOf(chat.messages) === held.key ? held.why : undefined),
    [held, chatId, chat.messages],
  );

  // Not `useChat`'s functions that answer a call: an answer given through them would skip the browser chain and the checks
  // above (see ChatAnswerFunctions).
  const { addToolOutput: _output, addToolResult: _result, addToolApprovalResponse: _approval, ...helpers } = chat;
  return {
    ...helpers,
    id: chat.id,
    sendMessage,
    regenerate,
    setMessages: replaceMessages,
    mode,
    toolCalls: views,
    pendingApprovals: pending,
    approve,
    deny,
    model,
    chatError,
    busy: streaming || browserBusy,
    stop,
    browserState,
    continuationHeld,
    maxAutoContinuations: maxAuto,
  };
}

/**
 * The calls of a continuation the server refused because a ticket expired (`{ error: { code: 'ticket-invalid', reason:
 * 'expired' } }`): the open calls of the last step, since the server needs an answer to each of them and one can never
 * be given now. `undefined` for any other error.
 */
function expiryRefusal(error: ChatErrorInfo | undefined, messages: readonly MessageLike[]): string[] | undefined {
  if (error?.kind !== 'refused' || error.code !== 'ticket-invalid' || error.reason !== 'expired') return undefined;
  const open = openCalls(messages).map((call) => call.toolCallId);
  return open.length === 0 ? undefined : open;
}

/** What the views and marks hold beside the messages, as plain JSON (see {@link BrowserState}). */
function browserStateOf(
  views: ReadonlyMap<string, ToolCallView>,
  messages: readonly MessageLike[],
  stopped: ReadonlySet<string>,
  turn: string | undefined,
  approvals: Readonly<Record<string, ApprovalNote>>,
): BrowserState {
  const traces: [string, CallTrace[]][] = [];
  const progress: [string, ToolProgress][] = [];
  const expired: string[] = [];
  for (const view of views.values()) {
    const own = view.traces.filter((trace) => trace.side === 'client');
    if (own.length > 0) traces.push([view.toolCallId, own]);
    if (view.progress !== undefined) progress.push([view.toolCallId, view.progress]);
    if (view.status === 'expired') expired.push(view.toolCallId);
  }
  const ids = new Set(messages.map((message) => message.id));
  const state = { stopped: [...stopped].filter((id) => ids.has(id)), expired, traces: Object.fromEntries(traces), progress: Object.fromEntries(progress) };
  if (turn === undefined) return state;
  return Object.keys(approvals).length === 0 ? { ...state, turn } : { ...state, turn, approvals };
}

/** The resumable turn of a chat, and the approvals given while it runs. */
interface TurnState {
  readonly chatId: string;
  readonly turn: string | undefined;
  readonly approvals: Readonly<Record<string, ApprovalNote>>;
}

const NO_APPROVALS: Readonly<Record<string, ApprovalNote>> = Object.freeze({});

/** `{api}/{chatId}/stream`, as the AI SDK's transport builds the resume URL (a query or fragment of `api` stays last). */
function streamUrl(api: string, chatId: string): string {
  const cut = api.search(/[?#]/);
  const path = cut === -1 ? api : api.slice(0, cut);
  return `${path.replace(/\/$/, '')}/${encodeURIComponent(chatId)}/stream${cut === -1 ? '' : api.slice(cut)}`;
}

/**
 * Calls one of the app's callbacks (`onTrace`, `onProgress`, `autoApprove`); one that throws is logged and read as
 * `fallback`, so the hook goes on as if it had not been given.
 */
function listen<T>(name: string, callback: () => T, fallback: T): T {
  try {
    return callback();
  } catch (error) {
    console.error(`edgetool: useEdgeChat's ${name} threw; the hook went on without it:`, error);
    return fallback;
  }
}

/**
 * A browser failure whose message the model does not read (`toolErrorMessage` replaced it) goes to the console, as the
 * chat agent logs the server's: the call id is the reference the model and the UI read.
 */
function logHiddenFailure(error: ToolError): void {
  console.error(`edgetool: the browser call ${error.callId} of "${error.toolName}" failed; the model reads only the text toolErrorMessage gave it:`, error);
}

/**
 * A browser tool's result as it can be sent, and the bytes its output takes of the step's continuation (none for a
 * failure). An output JSON cannot carry (a BigInt, a cycle, a function; a tool whose `toModelOutput` words it passes the
 * executor) fails as `invalid-output`, as the executor fails one it cannot convert. Sent as it was, it failed the
 * continuation's request body in this browser, and every later request (the message kept it): the conversation was
 * stuck. So does one whose JSON would take the continuation over `max` bytes with the `spent` of the other outputs of
 * its step: a server that limits its request body refused that request and every later one.
 */
function sendableResult(
  result: ToolCallResult,
  executor: ToolExecutor,
  budget: { readonly max: number; readonly spent: number },
): { readonly result: ToolCallResult; readonly bytes?: number } {
  const { outcome, call } = result;
  if (outcome.type !== 'success') return { result };
  const { max, spent } = budget;
  let message: string | undefined;
  let bytes: number | undefined;
  try {
    // The executor's own conversion of an output to JSON text, with its words for what JSON cannot hold.
    const text = defaultModelText(outcome.output);
    if (max !== Number.POSITIVE_INFINITY) {
      bytes = utf8Bytes(typeof outcome.output === 'string' ? JSON.stringify(outcome.output) : text);
      if (bytes > max) {
        message =
          `The result of "${call.name}" is ${count(bytes)} bytes of JSON, more than the ${count(max)} this browser sends (maxOutputBytes): ` +
          'return less of it.';
      } else if (spent + bytes > max) {
        message =
          `The result of "${call.name}" is ${count(bytes)} bytes of JSON, and the other results of its step already take ${count(spent)} of the ` +
          `${count(max)} this browser sends in one continuation (maxOutputBytes): ask for less, or for it in a step of its own.`;
      }
    }
  } catch (cause) {
    message = `The result of "${call.name}" could not be sent to the server as JSON: ${cause instanceof Error ? cause.message : 'converting it threw'}`;
  }
  if (message === undefined) return bytes === undefined ? { result } : { result, bytes };
  const error = new ToolError('invalid-output', message, {
    callId: call.id,
    toolName: call.name,
    unexpected: true,
  });
  const content = errorModelText(error, executor.errorMessage(error, call));
  return { result: { ...result, outcome: { type: 'error', error }, content, parts: undefined, isError: true } };
}

const count = (n: number): string => n.toLocaleString('en-US');

/** The first message that holds a call (as `withEditPart` and `withSentEdits` find it). */
function holderOf<T extends MessageLike>(messages: readonly T[], toolCallId: string): T | undefined {
  return messages.find((message) => message.parts.some((part) => (part as { toolCallId?: unknown }).toolCallId === toolCallId));
}

/** The calls of a message that have no result yet (their arguments may still stream in). */
function unansweredCallIds(message: MessageLike | undefined): Set<string> {
  const unanswered = toolParts(message ?? { parts: [] }).filter((part) => !part.state.startsWith('output-'));
  return new Set(unanswered.map((part) => part.toolCallId));
}
