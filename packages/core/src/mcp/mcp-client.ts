import type { InterceptorLike, ToolProgress } from '../chain/types.ts';
import { ToolError } from '../errors/tool-error.ts';
import { parseJson } from '../executor/parse-arguments.ts';
import { raceSignal } from '../executor/race-signal.ts';
import { isTimerDelay, MAX_TIMER_MS } from '../interceptors/timer-delay.ts';
import type { JsonSchema } from '../schema/input-schema.ts';
import { type JsonSchemaValidator, jsonSchema } from '../schema/json-schema.ts';
import { defaultModelText } from '../executor/convert-result.ts';
import { defineTool } from '../tool/define-tool.ts';
import { PLAIN_FILE_NAME } from '../tool/file-name.ts';
import { DOCUMENT_MEDIA_TYPES, documentPart, IMAGE_MEDIA_TYPES, imagePart, type ModelContentPart } from '../tool/model-content.ts';
import type { AnyTool, ToolEffects, ToolPolicyInput } from '../tool/types.ts';
import { toJsonSchema07 } from './json-schema-07.ts';
import { isObject } from './json-schema-2020.ts';
import { mediaType } from './media-type.ts';
import { MCP_PROTOCOL_VERSIONS } from './protocol.ts';
import { BodyTooLargeError, type ByteBudget, byteLimit, readBody, sseParser } from './read-body.ts';

/** Options for {@link connectMcp}. */
export interface McpClientOptions {
  /** The server's Streamable HTTP endpoint, such as `https://mcp.example.com/mcp`. */
  readonly url: string | URL;
  /** Sent with every request (an `authorization` header); a function is asked again for each request. */
  readonly headers?: HeadersInit | (() => HeadersInit | Promise<HeadersInit>) | undefined;
  /**
   * Sends a request (default: the global `fetch`). Pass a Worker service binding's `fetch`, or an MCP handler in the
   * same process (`createMcpHandler(...)` is one).
   */
  readonly fetch?: ((request: Request) => Promise<Response>) | undefined;
  /** `clientInfo` of the `initialize` request (default `edgetool`). */
  readonly clientInfo?: { readonly name: string; readonly version: string } | undefined;
  /**
   * Time limit in ms of the requests that are not tool calls (`initialize`, `tools/list`, notifications, `close`);
   * default 30 s, `0` or `Infinity` for none. A request that reaches it fails with {@link McpTimeoutError}.
   */
  readonly timeoutMs?: number | undefined;
  /**
   * Time limit in ms of a tool call (a direct {@link McpClient.callTool}'s own `timeoutMs` overrides it); default 60 s,
   * `0` or `Infinity` for none. A call that reaches it fails with {@link McpTimeoutError} and the server is told
   * (`notifications/cancelled`). The tools of {@link McpClient.tools} get it as their policy's `timeoutMs`.
   */
  readonly callTimeoutMs?: number | undefined;
  /**
   * Largest response body in bytes (default 8 MiB), and largest tool list (the pages of `tools/list` together): a larger
   * answer fails instead of filling memory. A whole number from 1, or `Infinity`; anything else is a TypeError.
   */
  readonly maxResponseBytes?: number | undefined;
  /**
   * How many attempts in a row to resume a response stream that broke off before its answer (a `GET` with
   * `Last-Event-ID`, when the server gave its events ids) may bring nothing new before the call fails; default 3, `0`
   * never resumes. An attempt that brings an event with a new id starts the count again, so a polling server can close
   * its streams as often as it likes.
   */
  readonly resumeAttempts?: number | undefined;
  /** Aborts connecting. */
  readonly signal?: AbortSignal | undefined;
}

/** MCP's hints about a tool, as its server states them (a server you do not trust can state anything). */
export interface McpToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** A tool as the server lists it in `tools/list`. */
export interface McpRemoteTool {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema | undefined;
  readonly annotations?: McpToolAnnotations | undefined;
  /** MCP tasks (2025-11-25): a tool whose `taskSupport` is `required` is not offered by {@link McpClient.tools}. */
  readonly execution?: { readonly taskSupport?: string | undefined } | undefined;
}

/** One piece of a tool result's `content`. */
export type McpContent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image' | 'audio'; readonly data: string; readonly mimeType: string }
  | { readonly type: 'resource_link'; readonly uri: string; readonly name?: string }
  | { readonly type: 'resource'; readonly resource: { readonly uri: string; readonly mimeType?: string; readonly text?: string; readonly blob?: string } };

/** A `tools/call` result. */
export interface McpCallResult {
  readonly content: readonly McpContent[];
  readonly structuredContent?: Record<string, unknown> | undefined;
  readonly isError: boolean;
}

/** Options for {@link McpClient.tools}. */
export interface McpToolsOptions {
  /** Only these tools (the server's names); a name the server does not offer is an error. */
  readonly only?: readonly string[] | undefined;
  /** Put before every name (`github_`), for a registry that joins several servers. */
  readonly prefix?: string | undefined;
  /**
   * Each tool's policy. Default: from the server's hints, `readOnlyHint` → `read`, `destructiveHint: false` →
   * `write`, otherwise `destructive` (MCP's own defaults), so writes wait for an approval; and the client's
   * `callTimeoutMs` (60 s by default) as `timeoutMs`.
   * What yours sets wins, and what it leaves out comes from these defaults, an `effects` of `undefined` too (set
   * `effects` to decide yourself for a server whose hints you do not trust).
   */
  readonly policy?: ToolPolicyInput | ((tool: McpRemoteTool) => ToolPolicyInput) | undefined;
  /** Interceptors for every tool of this server (after the registry's, before the call's). */
  readonly interceptors?: readonly InterceptorLike[] | undefined;
}

/** Options of one call made with {@link McpClient.callTool}. */
export interface McpCallOptions {
  readonly signal?: AbortSignal | undefined;
  /** This call's time limit in ms, instead of the client's `callTimeoutMs`; `0` or `Infinity` for none. */
  readonly timeoutMs?: number | undefined;
  /** The server's `notifications/progress` for this call. */
  readonly onProgress?: ((progress: ToolProgress) => void) | undefined;
}

/** A connection to one MCP server. */
export interface McpClient {
  /** The server's `serverInfo`. */
  readonly server: { readonly name: string; readonly version: string };
  /** The revision both sides speak. */
  readonly protocolVersion: string;
  /** What the server says about using its tools (for a system prompt). */
  readonly instructions: string | undefined;
  /** The tools as the server lists them (every page). */
  listTools(options?: { readonly signal?: AbortSignal | undefined }): Promise<McpRemoteTool[]>;
  /**
   * The server's tools as edgetool tools, for a registry: validated against their JSON Schema before anything is sent,
   * run through your chain, approvals and timeouts; the server's progress becomes `ctx.progress()`, an abort cancels
   * the request. Listed once per call of `tools()`.
   */
  tools(options?: McpToolsOptions): Promise<AnyTool[]>;
  /**
   * Calls a tool as is (no validation, no chain), within the client's `callTimeoutMs` (60 s by default). Rejects with
   * {@link McpError} when the server does not answer it, {@link McpTimeoutError} when not in time.
   */
  callTool(name: string, args: Readonly<Record<string, unknown>>, options?: McpCallOptions): Promise<McpCallResult>;
  /**
   * Ends the session (when the server keeps one). Requests still running (a new session being started too) and later
   * ones fail with {@link McpError} "The MCP connection is closed."; a session a restart got is ended as well.
   */
  close(): Promise<void>;
}

const MCP_MARKER: unique symbol = Symbol.for('edgetool.mcp-error') as never;
const MCP_TIMEOUT_MARKER: unique symbol = Symbol.for('edgetool.mcp-timeout-error') as never;

/**
 * A request the server did not answer: an HTTP status, a JSON-RPC error, or an answer that breaks the protocol. Detect
 * it with `McpError.isInstance` (safe when the package is bundled twice), not `instanceof`.
 */
export class McpError extends Error {
  /** The HTTP status, when the server answered with an error status. */
  readonly status: number | undefined;
  /** The JSON-RPC error code, when the server answered with one. */
  readonly code: number | undefined;

  constructor(message: string, options: { status?: number | undefined; code?: number | undefined; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'McpError';
    Object.defineProperty(this, MCP_MARKER, { value: true });
    this.status = options.status;
    this.code = options.code;
  }

  /** True for any edgetool `McpError` (an `McpTimeoutError` too), even one from another copy of the package. */
  static isInstance(value: unknown): value is McpError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MCP_MARKER] === true;
  }
}

/** A request the MCP server did not answer within its time limit (`timeoutMs`, `callTimeoutMs`, a call's `timeoutMs`). */
export class McpTimeoutError extends McpError {
  /** The request that got no answer in time: `initialize`, `tools/list`, `tools/call`, ... */
  readonly method: string;
  /** Its time limit in milliseconds. */
  readonly timeoutMs: number;

  constructor(method: string, timeoutMs: number, options: { tool?: string | undefined; cause?: unknown } = {}) {
    const what = options.tool === undefined ? method : `${method} of "${options.tool}"`;
    super(`The MCP server did not answer ${what} within ${timeoutMs} ms.`, { cause: options.cause });
    this.name = 'McpTimeoutError';
    // Defined, not declared: isolatedDeclarations rejects computed class members, even for unique symbols.
    Object.defineProperty(this, MCP_TIMEOUT_MARKER, { value: true });
    this.method = method;
    this.timeoutMs = timeoutMs;
  }

  /** True for any edgetool `McpTimeoutError`, even one from another copy of the package. */
  static override isInstance(value: unknown): value is McpTimeoutError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MCP_TIMEOUT_MARKER] === true;
  }
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_CALL_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
const MAX_PAGES = 100;
/**
 * The most requests of the server answered per response stream: each answer is a request of ours, so a server that
 * streams requests (a ping every 50 bytes) would otherwise have one call send thousands (a Worker's subrequest limit).
 */
const MAX_REPLIES = 16;
const DEFAULT_RESUME_ATTEMPTS = 3;
/** The wait before resuming a stream when the server sent no `retry` (doubled after each failed attempt). */
const DEFAULT_RETRY_MS = 1_000;
/** The longest wait before resuming a stream, whatever the server's `retry` says (a call must not sit out an hour). */
const MAX_RETRY_MS = 60_000;
/**
 * The most times one request's stream is resumed: a server that closes every stream at once with `retry: 0` would
 * otherwise have one call send a request after another until its time limit (a Worker's subrequest limit).
 */
const MAX_RESUMES = 100;
const LOCAL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** The most of a server's text (a JSON-RPC error's message) an error quotes: it reaches logs and models. */
const MAX_QUOTED = 1000;
/** The most of a server's tool names an error lists. */
const MAX_NAMES = 50;
/** The first line of an edgetool tool error as the model reads it (`errorModelText`): `Error (execution-failed): `. */
const TOOL_ERROR_PREFIX = /^Error \([a-z]+(?:-[a-z]+)*\): /;

interface RpcResponse {
  readonly id: unknown;
  readonly result?: unknown;
  readonly error?: { readonly code?: unknown; readonly message?: unknown };
}

interface Exchange {
  readonly signal?: AbortSignal | undefined;
  readonly progressToken?: string | undefined;
  readonly onProgress?: ((progress: ToolProgress) => void) | undefined;
  /** Told as the request goes to the server (not while it waits for headers or a new session). */
  readonly onSend?: (() => void) | undefined;
  /** The bytes its answer may take, shared with other requests (the pages of one listing); else `maxResponseBytes`. */
  readonly budget?: ByteBudget | undefined;
}

/**
 * Connects to an MCP server over Streamable HTTP (revisions 2025-03-26 to 2025-11-25): `initialize`, then
 * `notifications/initialized`. Works where `fetch` does (Workers, browsers, Node). Keeps the server's session id, if it
 * gives one, and starts a new session once when the server forgets it (HTTP 404). Rejects with {@link McpError}.
 */
export async function connectMcp(options: McpClientOptions): Promise<McpClient> {
  const url = new URL(options.url);
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const timeoutMs = timeLimit(options.timeoutMs, DEFAULT_TIMEOUT_MS, 'connectMcp: `timeoutMs`');
  const callTimeoutMs = timeLimit(options.callTimeoutMs, DEFAULT_CALL_TIMEOUT_MS, 'connectMcp: `callTimeoutMs`');
  const maxBytes = byteLimit(options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES, 'connectMcp: `maxResponseBytes`');
  const resumeAttempts = options.resumeAttempts ?? DEFAULT_RESUME_ATTEMPTS;
  if (!Number.isInteger(resumeAttempts) || resumeAttempts < 0) {
    throw new TypeError(`connectMcp: \`resumeAttempts\` must be a whole number from 0; got ${String(resumeAttempts)}.`);
  }
  const clientInfo = options.clientInfo ?? { name: 'edgetool', version: '0.1.0' };
  let nextId = 0;
  let session: string | undefined;
  let protocolVersion: string | undefined;
  let closed = false;
  let closing: Promise<void> | undefined;
  /**
   * One per request still running (and per new session being started): `close()` aborts them. Short-lived, not one
   * signal of the client's whole life that every request's signal would depend on.
   */
  const running = new Set<AbortController>();
  let restarting: Promise<unknown> | undefined;
  /** A new session could not be started: the next request starts one before it is sent. */
  let lost = false;

  /** Runs `task` with `signal`, also aborted when the client closes. */
  async function untilClosed<T>(signal: AbortSignal | undefined, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const own = new AbortController();
    running.add(own);
    try {
      return await task(signal === undefined ? own.signal : AbortSignal.any([signal, own.signal]));
    } finally {
      running.delete(own);
    }
  }

  /**
   * Posts `message` in the current session; `sent` on the response is that session (which may change meanwhile). Once
   * closed, only close() itself sends (its DELETE); a notification already under way goes on within its time limit.
   * With `lastEventId`, it asks for the rest of a broken stream instead (a GET; `message` only names the request).
   */
  async function post(
    message: object,
    signal: AbortSignal | undefined,
    how: { readonly method?: 'DELETE'; readonly lastEventId?: string; readonly session?: string; readonly onSend?: (() => void) | undefined } = {},
  ): Promise<Response & { sent: string | undefined }> {
    const method = how.method ?? (how.lastEventId === undefined ? 'POST' : 'GET');
    if (closed && method !== 'DELETE') throw closedError();
    const sent = how.session ?? session;
    let given: HeadersInit | undefined;
    try {
      // A header function that never settles (a token that never comes) must not outlast the time limit either.
      given = typeof options.headers === 'function' ? await untilAborted(Promise.resolve(options.headers()), signal) : options.headers;
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal, message);
      throw error;
    }
    const headers = new Headers(given);
    headers.set('accept', method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream');
    if (method === 'POST') headers.set('content-type', 'application/json');
    if (protocolVersion !== undefined) headers.set('mcp-protocol-version', protocolVersion);
    if (sent !== undefined) headers.set('mcp-session-id', sent);
    if (how.lastEventId !== undefined) headers.set('last-event-id', how.lastEventId);
    const init: RequestInit = { method, headers, redirect: 'manual' };
    if (method === 'POST') init.body = JSON.stringify(message);
    if (signal !== undefined) init.signal = signal;
    let response: Response;
    try {
      how.onSend?.();
      response = await untilAborted(send(new Request(url, init)), signal);
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal, message);
      throw new McpError(`Could not reach the MCP server at ${url.origin}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    return Object.assign(response, { sent });
  }

  /** Starts a new session; the requests that need one meanwhile share it. */
  function restart(): Promise<unknown> {
    // Ended by close(), notification and all: a new session it got is then ended by close().
    restarting ??= withTimeLimit(undefined, timeoutMs, (signal) => untilClosed(signal, initialize))
      .then(
        () => {
          lost = false;
        },
        (error: unknown) => {
          lost = true;
          throw error;
        },
      )
      .finally(() => {
        restarting = undefined;
      });
    return restarting;
  }

  /**
   * Waits for the new session (shared with the other requests that need it) while `signal` lets this request go on: a
   * caller's abort or time limit ends the wait, not the new session's own time limit (`timeoutMs`).
   */
  async function newSession(message: object, signal: AbortSignal | undefined): Promise<void> {
    try {
      signal?.throwIfAborted(); // not a new session for a request already given up on
      await untilAborted(restart(), signal);
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal, message);
      throw error;
    }
  }

  /**
   * An error status as an error, with the start of its body (servers explain themselves there), read while `signal`
   * lets the request go on: a body that never ends (through a `fetch` of your own) does not outlast the time limit.
   */
  async function statusError(response: Response, signal: AbortSignal | undefined): Promise<McpError> {
    let text = '';
    // Its start only, however large its first chunk (a gateway's HTML page): the reading stops once there is enough.
    await readBody(
      response.body,
      Number.POSITIVE_INFINITY,
      (piece) => {
        text += piece.slice(0, 4096);
        if (text.length >= 4096) throw new RangeError('enough');
      },
      signal,
    ).catch(() => {});
    const detail = text.trim().slice(0, 300);
    const redirect = response.status >= 300 && response.status < 400 ? ' (a redirect, which this client does not follow)' : '';
    return new McpError(`The MCP server answered HTTP ${response.status}${redirect}${detail ? `: ${detail}` : ''}`, { status: response.status });
  }

  /** Posts a request and waits for its answer: a JSON body, or the matching message of an SSE stream. */
  async function request(methodName: string, params: Record<string, unknown>, caller: Exchange, id = ++nextId): Promise<unknown> {
    if (closed) throw closedError();
    // Its reads end too when the client closes (a `fetch` of your own may not end a body when its request is aborted).
    return untilClosed(caller.signal, (signal) => requestNow(methodName, params, { ...caller, signal }, id));
  }

  /** {@link request} within the client's life. */
  async function requestNow(methodName: string, params: Record<string, unknown>, exchange: Exchange, id: number): Promise<unknown> {
    const message = { jsonrpc: '2.0', id, method: methodName, params };
    // A request made while a new session is being started waits for it (sent without one, it would be refused); after
    // one that failed, it starts one again (the server may be back). It fails as the new session does.
    if (methodName !== 'initialize' && (restarting !== undefined || lost)) await newSession(message, exchange.signal);
    const how = { onSend: exchange.onSend };
    let response = await post(message, exchange.signal, how);
    const stale = response.sent;
    if (response.status === 404 && stale !== undefined && methodName !== 'initialize') {
      // The server forgot our session (it restarted, or it expired): start a new one, once, and ask again.
      // Nothing ran: a server answers 404 before it reads the message.
      // Calls that hit the same 404 share one restart; one that comes after it uses the new session.
      await response.body?.cancel();
      if (session === stale || session === undefined) await newSession(message, exchange.signal);
      response = await post(message, exchange.signal, how);
    }
    if (!response.ok) throw await statusError(response, exchange.signal);
    if (methodName === 'initialize') {
      // An empty id (a header the server set to nothing) is no session: sent back empty, a server may refuse it.
      session = response.headers.get('mcp-session-id') || undefined;
      response.sent = session; // its stream, if it breaks off, is resumed in the session it starts
    }
    const type = mediaType(response.headers.get('content-type'));
    let answer: RpcResponse | undefined;
    try {
      if (type === 'application/json') {
        let text = '';
        await readBody(
          response.body,
          exchange.budget ?? maxBytes,
          (piece) => {
            text += piece;
          },
          exchange.signal,
        );
        answer = asResponse(parseJson(text), id);
        if (answer === undefined) throw new McpError(`The MCP server's answer to ${methodName} is not its JSON-RPC response.`);
      } else if (type === 'text/event-stream') {
        answer = await readStream(response, message, exchange);
      } else {
        await response.body?.cancel();
        throw new McpError(`The MCP server answered ${methodName} with content type "${type}".`);
      }
    } catch (error) {
      if (exchange.signal?.aborted) throw abortReason(exchange.signal, message);
      if (error instanceof BodyTooLargeError) {
        const what = exchange.budget === undefined ? `answer to ${methodName}` : `${methodName} (its pages together)`;
        throw new McpError(`The MCP server's ${what} is larger than ${maxBytes} bytes.`, { cause: error });
      }
      if (error instanceof SyntaxError) throw new McpError(`The MCP server's answer to ${methodName} is not JSON.`, { cause: error });
      throw error;
    }
    // `"error": null` beside a result (as JSON-RPC 1.0 servers write it) is no error.
    if (answer.error !== undefined && answer.error !== null) {
      const code = typeof answer.error.code === 'number' ? answer.error.code : undefined;
      const text = typeof answer.error.message === 'string' ? cut(answer.error.message, MAX_QUOTED) : 'no message';
      throw new McpError(`The MCP server refused ${methodName}: ${text}`, { code });
    }
    return answer.result;
  }

  /**
   * Reads an SSE answer: progress for this request goes to the listener, requests from the server are answered. A
   * stream that breaks off before the answer is resumed when the server gave its events ids (MCP's resumability): a
   * GET with `Last-Event-ID` after the server's `retry` delay, all within the request's abort and time limit.
   */
  async function readStream(first: Response & { sent: string | undefined }, message: { id: number; method: string }, exchange: Exchange): Promise<RpcResponse> {
    const { signal } = exchange;
    const { id, method } = message;
    let answer: RpcResponse | undefined;
    let replies = 0;
    /** The highest progress reported so far, across the request's resumed streams. */
    let progressed = -1;
    /**
     * Where a resumed stream starts: the id of the last event that ended (`''`: none, nothing to resume), and that id
     * when a header cannot carry it exactly (then the stream is not resumed, and the call fails saying so).
     */
    let lastEventId = '';
    let unsendable: string | undefined;
    let retryMs = DEFAULT_RETRY_MS;
    const fields = {
      id: (value: string) => {
        const sendable = SENDABLE_ID.test(value);
        lastEventId = sendable ? value : '';
        unsendable = sendable ? undefined : value;
      },
      retry: (ms: number) => {
        retryMs = Math.min(ms, MAX_RETRY_MS);
      },
    };
    const onEvent = (data: string, type: string) => {
      if (answer !== undefined || type !== 'message' || data === '') return;
      let message: unknown;
      try {
        message = parseJson(data);
      } catch {
        return; // not JSON-RPC: nothing to act on
      }
      // MCP 2025-03-26 lets a server batch an event's messages (a JSON array); they are read in order, up to the answer.
      for (const one of Array.isArray(message) ? message : [message]) if (answer === undefined) onMessage(one);
    };
    const onMessage = (message: unknown) => {
      answer = asResponse(message, id);
      if (answer !== undefined || !isObject(message)) return; // `null`, a number: not a message
      const { method, params, id: theirs } = message;
      if (typeof method !== 'string') return;
      if (theirs !== undefined) {
        if (++replies > MAX_REPLIES) return;
        // We declare no client capabilities, so a server asks at most for a ping.
        const reply = method === 'ping' ? { result: {} } : { error: { code: -32601, message: `Method not found: ${method}` } };
        notify({ jsonrpc: '2.0', id: theirs, ...reply });
        return;
      }
      if (method === 'notifications/progress' && exchange.onProgress !== undefined) {
        const report = toProgress(params, exchange.progressToken);
        if (report === undefined) return;
        // Progress only goes up (MCP says so): a report that does not is one sent again (a resumed stream replayed).
        const { progress } = params as { progress?: unknown };
        if (isCount(progress)) {
          if (progress <= progressed) return;
          progressed = progress;
        }
        try {
          exchange.onProgress(report);
        } catch {
          // A broken listener must not fail the call.
        }
      }
    };
    let stream: Response | undefined = first;
    /**
     * Attempts in a row that brought no new event (no stream, or one that ended with nothing new: a server that ignores
     * `Last-Event-ID` and opens a stream without ours), and why the last one failed.
     */
    let failed = 0;
    let failure: McpError | undefined;
    for (let resumed = 0; ; resumed++) {
      let cut: unknown;
      if (stream !== undefined) {
        const before = lastEventId;
        // Each stream is parsed afresh (an event cut off by a break is dropped), the request's id and delay carry over.
        const parse = sseParser(onEvent, fields);
        // The answer ends our interest in the stream; a server may keep it open a little longer.
        await readBody(
          stream.body,
          exchange.budget ?? maxBytes,
          (text) => {
            if (answer === undefined) parse(text);
            if (answer !== undefined) throw ANSWERED;
          },
          signal,
        ).catch((error: unknown) => {
          if (error !== ANSWERED && (signal?.aborted || error instanceof BodyTooLargeError)) throw error;
          cut = error; // the connection broke: resumed like a stream that ended
        });
        if (answer !== undefined) return answer;
        if (lastEventId !== before) failed = 0;
        else if (resumed > 0) {
          failed++;
          failure = new McpError('The stream it got ended with nothing new.');
        }
      }
      const broke = brokeOff(method);
      if (lastEventId === '' || resumeAttempts === 0) {
        // An id a header cannot carry is not sent back (resuming is the client's choice): the call fails saying why.
        const why = unsendable === undefined || resumeAttempts === 0 ? '' : ` (its last event id ${JSON.stringify(unsendable)} cannot be sent back as Last-Event-ID)`;
        if (cut === undefined) throw new McpError(`The MCP server ended its stream without answering ${method}${why}.`);
        throw new McpError(`${broke}${why}: ${cut instanceof Error ? cut.message : String(cut)}`, { cause: cut });
      }
      if (failed >= resumeAttempts) {
        throw new McpError(`${broke}, and resuming it failed ${failed} time${failed === 1 ? '' : 's'} in a row: ${failure?.message}`, { status: failure?.status, cause: failure });
      }
      if (resumed >= MAX_RESUMES) throw new McpError(`${broke}, and broke off again each of the ${MAX_RESUMES} times it was resumed.`);
      await wait(Math.min(retryMs * 2 ** failed, MAX_RETRY_MS), signal);
      const reopened = await reopen(first.sent, lastEventId, message, signal);
      stream = McpError.isInstance(reopened) ? undefined : reopened;
      if (McpError.isInstance(reopened)) {
        failed++;
        failure = reopened;
      }
    }
  }

  /**
   * Asks the server for the rest of a broken stream: a GET with `Last-Event-ID` in the session the stream belongs to.
   * Resolves with the stream, or with the error of a failure that may pass (the server unreachable, an error status);
   * rejects when the stream cannot be resumed at all (404: its session or the stream is gone; 405: the server offers no
   * stream). An answer that is no event stream (its media type compared whole) is a failure that may pass too.
   */
  async function reopen(sent: string | undefined, lastEventId: string, message: { method: string }, signal: AbortSignal | undefined): Promise<Response | McpError> {
    const gone = (status: number) =>
      new McpError(
        `${brokeOff(message.method)}, and the server cannot resume it (HTTP ${status}: ${status === 405 ? 'it offers no stream to resume' : 'its session or the stream is gone'}).`,
        { status },
      );
    // A new session replaced ours (the server forgot it): the stream went with it.
    if (session !== sent) throw gone(404);
    let response: Response;
    try {
      response = await post(message, signal, { lastEventId });
    } catch (error) {
      if (signal?.aborted || !McpError.isInstance(error)) throw error;
      return error;
    }
    if (response.status === 404 || response.status === 405) {
      await response.body?.cancel();
      throw gone(response.status);
    }
    if (!response.ok) return statusError(response, signal);
    const type = mediaType(response.headers.get('content-type'));
    if (type === 'text/event-stream') return response;
    await response.body?.cancel();
    return new McpError(`The server answered with content type "${type}", not an event stream.`);
  }

  /** Ends a session on the server (a `DELETE`), within the time limit; a server that cannot (405) or does not answer is left. */
  async function endSession(id: string): Promise<void> {
    await withTimeLimit(undefined, timeoutMs, async (signal) => {
      const response = await post({}, signal, { method: 'DELETE', session: id });
      await response.body?.cancel();
    }).catch(() => {});
  }

  /**
   * Posts a notification (or a response to the server), without waiting for anything but its acceptance; within the time
   * limit, so a server that never accepts it does not keep the connection (and a script's process) open.
   */
  function notify(message: object): void {
    withTimeLimit(undefined, timeoutMs, async (signal) => {
      const response = await post(message, signal);
      await response.body?.cancel();
    }).catch(() => {});
  }

  let serverInfo = { name: '', version: '' };
  let instructions: string | undefined;

  /**
   * `initialize` (which starts a session when the server keeps them), then `notifications/initialized`. A start that
   * fails after the server gave a session (a revision we do not speak, a refused notification, the time limit, `close()`)
   * ends that session: nobody would use it, and a server may keep it open until it expires.
   */
  async function initialize(signal: AbortSignal | undefined): Promise<void> {
    session = undefined;
    protocolVersion = undefined;
    try {
      const params = { protocolVersion: MCP_PROTOCOL_VERSIONS[0], capabilities: {}, clientInfo };
      const result = await request('initialize', params, { signal });
      const { protocolVersion: version, serverInfo: info, instructions: told } = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
      if (typeof version !== 'string' || !MCP_PROTOCOL_VERSIONS.includes(version)) {
        throw new McpError(`The MCP server speaks revision ${String(version)}; this client speaks ${MCP_PROTOCOL_VERSIONS.join(', ')}.`);
      }
      protocolVersion = version;
      const { name, version: serverVersion } = (typeof info === 'object' && info !== null ? info : {}) as Record<string, unknown>;
      serverInfo = { name: typeof name === 'string' ? name : '', version: typeof serverVersion === 'string' ? serverVersion : '' };
      instructions = typeof told === 'string' ? told : undefined;
      const accepted = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, signal);
      if (!accepted.ok) throw await statusError(accepted, signal);
      await accepted.body?.cancel();
    } catch (error) {
      const started = session;
      session = undefined;
      if (started !== undefined) await endSession(started);
      throw error;
    }
  }

  async function listTools(opts: { readonly signal?: AbortSignal | undefined } = {}): Promise<McpRemoteTool[]> {
    const tools: McpRemoteTool[] = [];
    let cursor: string | undefined;
    // The cursors given so far: one given again would list the same pages again, up to MAX_PAGES times.
    const given = new Set<string>();
    // The pages share `maxResponseBytes`: the tools are kept, so 100 pages of 8 MiB each would keep 800 MiB.
    const budget = { left: maxBytes };
    for (let page = 0; page < MAX_PAGES; page++) {
      const params = cursor === undefined ? {} : { cursor };
      const result = await withTimeLimit(opts.signal, timeoutMs, (signal) => request('tools/list', params, { signal, budget }));
      const { tools: listed, nextCursor } = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
      if (!Array.isArray(listed)) throw new McpError('The MCP server answered tools/list without a `tools` list.');
      for (const entry of listed) tools.push(toRemoteTool(entry));
      if (typeof nextCursor !== 'string' || nextCursor === '') return tools;
      if (given.has(nextCursor)) throw new McpError(`The MCP server's tools/list gave the cursor ${JSON.stringify(nextCursor.slice(0, 100))} again: its pages loop.`);
      given.add(nextCursor);
      cursor = nextCursor;
    }
    throw new McpError(`The MCP server's tool list goes on for more than ${MAX_PAGES} pages.`);
  }

  async function callTool(name: string, args: Readonly<Record<string, unknown>>, opts: McpCallOptions = {}): Promise<McpCallResult> {
    const { onProgress } = opts;
    const limit = timeLimit(opts.timeoutMs, callTimeoutMs, 'callTool: `timeoutMs`');
    const requestId = ++nextId;
    const progressToken = onProgress === undefined ? undefined : `edgetool-${requestId}`;
    const params = { name, arguments: args, ...(progressToken === undefined ? {} : { _meta: { progressToken } }) };
    // MCP: a cancellation names only a request that was issued (not one still waiting for a new session or headers).
    let issued = false;
    return withTimeLimit(opts.signal, limit, async (signal) => {
      // An abort or the time limit cancels the HTTP request; a server that keeps sessions also hears why (MCP's cancellation).
      const cancel = () => {
        if (!issued) return;
        // The executor's own time limit (the policy's `timeoutMs`) aborts with its `timeout` error, which says so.
        const why: unknown = signal?.reason;
        const reason =
          why instanceof TimeLimitReached ? `No answer within ${limit} ms.` : ToolError.isInstance(why) && why.code === 'timeout' ? why.message : 'The caller aborted the tool call.';
        notify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason } });
      };
      signal?.addEventListener('abort', cancel, { once: true });
      try {
        const onSend = () => {
          issued = true;
        };
        return toCallResult(await request('tools/call', params, { signal, progressToken, onProgress, onSend }, requestId), name);
      } finally {
        signal?.removeEventListener('abort', cancel);
      }
    });
  }

  async function tools(opts: McpToolsOptions = {}): Promise<AnyTool[]> {
    const listed = await listTools();
    const prefix = opts.prefix ?? '';
    let chosen = listed.filter((tool) => tool.execution?.taskSupport !== 'required');
    if (opts.only !== undefined) {
      const offered = new Set(chosen.map((tool) => tool.name));
      const missing = opts.only.filter((name) => !offered.has(name));
      if (missing.length > 0) {
        const names = [...offered].slice(0, MAX_NAMES).map((n) => cut(n, 100));
        const more = offered.size > MAX_NAMES ? ` and ${offered.size - MAX_NAMES} more` : '';
        const server = `The MCP server "${cut(serverInfo.name, 100)}"`;
        throw new TypeError(`${server} does not offer ${missing.map((n) => `"${cut(n, 100)}"`).join(', ')}; it offers: ${names.join(', ') || '(none)'}${more}.`);
      }
      const only = new Set(opts.only);
      chosen = chosen.filter((tool) => only.has(tool.name));
    }
    const names = new Map<string, string>();
    return chosen.map((remote) => {
      const name = prefix + remote.name.replace(/[^A-Za-z0-9_-]/g, '_');
      if (!LOCAL_NAME.test(name)) {
        throw new TypeError(
          `The MCP tool "${cut(remote.name, 100)}" would be named "${cut(name, 100)}", which is not 1-64 letters, digits, "_" or "-": leave it out with \`only\`, or use a shorter \`prefix\`.`,
        );
      }
      const clash = names.get(name);
      if (clash !== undefined) throw new TypeError(`The MCP tools "${clash}" and "${remote.name}" would both be named "${name}": leave one out with \`only\`.`);
      names.set(name, remote.name);
      // The hints decide what the caller's policy leaves out: a policy that only sets a timeout, or whose `effects` is
      // `undefined` (a lookup that missed), must not make a destructive tool a read (the default of a policy without
      // `effects`), which runs without an approval.
      const own = typeof opts.policy === 'function' ? opts.policy(remote) : opts.policy;
      const policy = { ...own, effects: own?.effects ?? hintedEffects(remote) };
      return defineTool({
        name,
        description: remote.description ?? remote.title ?? remote.name,
        input: remoteSchema(remote.inputSchema),
        output: remote.outputSchema === undefined ? undefined : remoteSchema(remote.outputSchema),
        // The client's call time limit, unless the policy sets one (none when it is `Infinity`: `0` or `Infinity` given).
        policy: { ...(callTimeoutMs === Infinity ? {} : { timeoutMs: callTimeoutMs }), ...policy },
        interceptors: opts.interceptors ?? [],
        metadata: { mcp: { server: serverInfo.name, tool: remote.name, annotations: remote.annotations } },
        async execute(input, ctx) {
          // The policy's `timeoutMs` bounds the call (the executor aborts `ctx.signal`); without one, the client's does.
          const timeoutMs = ctx.tool.policy.timeoutMs === undefined ? undefined : Infinity;
          const options = { signal: ctx.signal, timeoutMs, onProgress: (report: ToolProgress) => ctx.progress(report) };
          const result = await callTool(remote.name, input as Record<string, unknown>, options);
          if (result.isError) {
            // An edgetool server already wrote `Error (<code>): ` before its text; the local error adds its own.
            const text = contentText(result.content).replace(TOOL_ERROR_PREFIX, '');
            throw new ToolError('execution-failed', text || `The MCP tool "${remote.name}" failed without saying why.`, { toolName: name, callId: ctx.call.id });
          }
          if (remote.outputSchema !== undefined) return structuredOutput(remote.name, result);
          // With images or documents, the output is the content itself, and the model gets them (`toModelOutput`), also
          // when a structured value comes with them (without an output schema it only repeats the text).
          if (result.content.some(isFile)) return result.content;
          return result.structuredContent ?? contentText(result.content);
        },
        toModelOutput: (output) => (Array.isArray(output) ? contentParts(output as McpContent[]) : defaultModelText(output)),
      });
    });
  }

  /**
   * Refuses new requests at once, aborts those still running (a new session being started among them: one it got is
   * ended too, so none is left open on the server), then ends the session. Calling it again waits for the same end.
   */
  function close(): Promise<void> {
    closing ??= (async () => {
      closed = true;
      for (const request of running) request.abort(closedError());
      await restarting?.catch(() => {});
      if (session !== undefined) await endSession(session);
    })();
    return closing;
  }

  await withTimeLimit(options.signal, timeoutMs, initialize);
  return {
    get server() {
      return serverInfo;
    },
    get protocolVersion() {
      return protocolVersion as string;
    },
    get instructions() {
      return instructions;
    },
    listTools,
    tools,
    callTool,
    close,
  };
}

/** What a request of a closed client fails with (a request still running when it closed too). */
const closedError = (): McpError => new McpError('The MCP connection is closed.');

/** `text`, cut to `max` characters (an ellipsis ending it when it was longer). */
const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The start of the errors of a stream that ended before the answer to `method`. */
const brokeOff = (method: string): string => `The MCP server's stream broke off before it answered ${method}`;

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts; the timer is cleared either way. */
async function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await untilAborted(
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      }),
      signal,
    );
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** Thrown inside the SSE reader once the answer is in, to stop reading. */
const ANSWERED = Symbol('answered');

function asResponse(message: unknown, id: number): RpcResponse | undefined {
  if (!isObject(message) || message.id !== id || message.method !== undefined || !('result' in message || 'error' in message)) return undefined;
  return message as unknown as RpcResponse;
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * A server's progress notification for `token` as a report, or `undefined` when it is not one (or says nothing). A
 * `progress` without a `total` that is not a whole number is no count: MCP only asks that progress grows, and
 * edgetool's server numbers a report with only a message so (1½ after "1 of 2"); its message alone is reported.
 */
function toProgress(params: unknown, token: string | undefined): ToolProgress | undefined {
  if (token === undefined || !isObject(params) || params.progressToken !== token) return undefined;
  const { progress, total, message } = params;
  const report: { message?: string; completed?: number; total?: number } = {};
  if (typeof message === 'string') report.message = message;
  if (isCount(progress) && (isCount(total) || Number.isInteger(progress))) report.completed = progress;
  if (isCount(total)) report.total = total;
  return Object.keys(report).length > 0 ? report : undefined;
}

/**
 * Why a request (`message`) stopped: the caller's own reason, an {@link McpTimeoutError} when it was our time limit, or
 * an {@link McpError} when it was another time limit (the caller's `AbortSignal.timeout`).
 */
function abortReason(signal: AbortSignal, message: object): unknown {
  const reason: unknown = signal.reason;
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  if (reason instanceof TimeLimitReached) {
    const tool = method === 'tools/call' && typeof params?.name === 'string' ? params.name : undefined;
    return new McpTimeoutError(String(method), reason.ms, { tool, cause: reason });
  }
  if (reason instanceof Error && reason.name === 'TimeoutError') return new McpError(`The MCP server did not answer ${String(method)} in time.`, { cause: reason });
  return reason;
}

/** The reason our own time limit aborts a request with: a `TimeoutError` that knows the limit. */
class TimeLimitReached extends Error {
  readonly ms: number;

  constructor(ms: number) {
    super(`No answer within ${ms} ms.`);
    this.name = 'TimeoutError';
    this.ms = ms;
  }
}

/** A time limit option: `fallback` when not given, `Infinity` for none (`0` or `Infinity`); anything else is refused. */
function timeLimit(ms: unknown, fallback: number, option: string): number {
  if (ms === undefined) return fallback;
  if (ms === 0 || ms === Infinity) return Infinity;
  // setTimeout takes at most 2^31 - 1 ms; a longer delay fires at once.
  if (!isTimerDelay(ms)) {
    throw new TypeError(`${option} must be a number of milliseconds from 1 to ${MAX_TIMER_MS}, or 0 or Infinity for none; got ${String(ms)}.`);
  }
  return ms;
}

/**
 * Runs `task` with `signal`, also aborted after `ms` (with a `TimeoutError`; `Infinity`: never). A plain timer, not
 * `AbortSignal.timeout`, whose timer Node does not let keep a process alive: a script awaiting a server that never
 * answers would exit (code 13, unsettled top-level await) instead of getting the error. Cleared when `task` settles, so
 * it keeps nothing alive after.
 */
async function withTimeLimit<T>(signal: AbortSignal | undefined, ms: number, task: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  if (ms === Infinity) return task(signal);
  const limit = new AbortController();
  const timer = setTimeout(() => limit.abort(new TimeLimitReached(ms)), ms);
  try {
    return await task(signal === undefined ? limit.signal : AbortSignal.any([signal, limit.signal]));
  } finally {
    clearTimeout(timer);
  }
}

/** A `tools/list` entry, checked and copied (only the fields edgetool reads). */
function toRemoteTool(entry: unknown): McpRemoteTool {
  if (!isObject(entry) || typeof entry.name !== 'string' || entry.name === '' || !isObject(entry.inputSchema)) {
    throw new McpError('The MCP server listed a tool without a `name` and an `inputSchema` object.');
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const { name, title, description, inputSchema, outputSchema, annotations, execution } = entry;
  return {
    name,
    title: text(title),
    description: text(description),
    inputSchema: { ...inputSchema, type: 'object' } as JsonSchema,
    outputSchema: isObject(outputSchema) ? (outputSchema as JsonSchema) : undefined,
    annotations: isObject(annotations) ? (annotations as McpToolAnnotations) : undefined,
    execution: isObject(execution) ? { taskSupport: text(execution.taskSupport) } : undefined,
  };
}

/** The effects MCP's hints ask for (its defaults: not read-only, destructive). */
function hintedEffects(tool: McpRemoteTool): ToolEffects {
  const hints = tool.annotations ?? {};
  if (hints.readOnlyHint === true) return 'read';
  return hints.destructiveHint === false ? 'write' : 'destructive';
}

/**
 * An SSE event id a `Last-Event-ID` header carries exactly: printable ASCII, with no space or tab at either end
 * (`Headers` strips those). Runtimes disagree on the rest: Node and Chromium send a character up to U+00FF as its
 * Latin-1 byte (not the UTF-8 the server wrote) and throw a TypeError above it; workerd sends UTF-8.
 */
const SENDABLE_ID = /^(?:[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?)?$/;

/** The draft a schema names in `$schema` (MCP's default is 2020-12). */
function draftOf(schema: JsonSchema): '4' | '7' | '2019-09' | '2020-12' {
  const named = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (named.includes('draft-04')) return '4';
  if (named.includes('draft-07') || named.includes('draft-06')) return '7';
  if (named.includes('2019-09')) return '2019-09';
  return '2020-12';
}

/**
 * A remote tool's schema, validated as the server wrote it (in its draft) and shown to the model in draft-07's form when
 * it is 2020-12 or 2019-09: providers (OpenAI's strict mode, Anthropic) read draft-07, where `prefixItems` means nothing.
 */
function remoteSchema(schema: JsonSchema): JsonSchemaValidator {
  const draft = draftOf(schema);
  const validator = jsonSchema(schema, { draft });
  return draft === '4' || draft === '7' ? validator : { ...validator, jsonSchema: toJsonSchema07(validator.jsonSchema) };
}

/** A `tools/call` result, checked: content pieces the client cannot read are kept out. */
function toCallResult(result: unknown, name: string): McpCallResult {
  if (!isObject(result) || !Array.isArray(result.content)) throw new McpError(`The MCP server answered the call of "${name}" without \`content\`.`);
  const content = result.content.filter((piece): piece is McpContent => isObject(piece) && typeof piece.type === 'string');
  const structured = isObject(result.structuredContent) ? result.structuredContent : undefined;
  return { content, structuredContent: structured, isError: result.isError === true };
}

/**
 * A result's content as the text the model reads: text as is, an embedded text resource by its text, and a line that
 * names what text cannot carry (images, audio, links, binary resources).
 */
export function contentText(content: readonly McpContent[]): string {
  return content
    .map((piece) => {
      switch (piece.type) {
        case 'text':
          return typeof piece.text === 'string' ? piece.text : '';
        case 'image':
        case 'audio':
          return `[${piece.type}: ${String(piece.mimeType)}, not shown]`;
        case 'resource_link':
          return `[resource: ${String(piece.uri)}]`;
        case 'resource':
          return typeof piece.resource?.text === 'string' ? piece.resource.text : `[resource: ${String(piece.resource?.uri)}]`;
        default:
          return `[${String((piece as { type: unknown }).type)} content, not shown]`;
      }
    })
    .filter((line) => line !== '')
    .join('\n');
}

/** An image a model takes, or an embedded resource that is a PDF document. */
const isFile = (piece: McpContent): boolean =>
  piece.type === 'image' ? IMAGE_MEDIA_TYPES.includes(piece.mimeType) : piece.type === 'resource' && isDocument(piece.resource);

const isDocument = (resource: { readonly mimeType?: string; readonly blob?: string }): resource is { mimeType: string; blob: string } =>
  typeof resource?.blob === 'string' && DOCUMENT_MEDIA_TYPES.includes(resource.mimeType as string);

/**
 * A result's content as parts the model reads: text and images as they are, an embedded PDF resource as a document
 * part (named by the last segment of its URI when that is a plain file name), everything else (audio, links, text
 * resources, an image type models do not take, data that is not base64 or not a PDF) as its line of
 * {@link contentText}.
 */
export function contentParts(content: readonly McpContent[]): ModelContentPart[] {
  return content.map((piece): ModelContentPart => {
    try {
      if (piece.type === 'image') return imagePart(piece.data, piece.mimeType);
      if (piece.type === 'resource' && isDocument(piece.resource)) return documentPart(piece.resource.blob, piece.resource.mimeType, fileNameOf(piece.resource.uri));
    } catch {
      // Not an image or a document a model takes: named in text instead.
    }
    return { type: 'text', text: contentText([piece]) };
  });
}

/** The last path segment of a URI (`file:///tmp/q3.pdf` → `q3.pdf`), decoded, when it is a plain file name. */
function fileNameOf(uri: unknown): string | undefined {
  const segment = /([^/?#]*)(?:[?#].*)?$/.exec(String(uri))?.[1] ?? '';
  let name: string;
  try {
    name = decodeURIComponent(segment);
  } catch {
    return undefined; // a malformed escape: no name rather than a wrong one
  }
  return PLAIN_FILE_NAME.test(name) ? name : undefined;
}

/** `promise`, or a rejection with the signal's reason as soon as it aborts (a `fetch` of your own may not listen). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  return raceSignal(promise, signal, (aborted) => Promise.reject<T>(aborted.reason));
}

/**
 * The structured value of a tool that declares an output schema. A server that leaves out `structuredContent` but sends
 * its JSON as text (which the spec asks for beside it, for older clients) is read from the text; otherwise the call
 * fails saying what the server sent, instead of the output schema refusing `undefined`.
 */
function structuredOutput(tool: string, result: McpCallResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const text = contentText(result.content);
  try {
    const value: unknown = parseJson(text);
    if (isObject(value)) return value;
  } catch {}
  const sent = text === '' ? 'nothing' : `only text: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`;
  throw new ToolError('invalid-output', `The MCP tool "${tool}" declares an output schema, but its server sent no structured result (${sent}).`);
}
