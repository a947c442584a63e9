import { cancelResumable, ContinuationError, type ExecutionMode, FileUrlError, RESUMABLE_TURN_HEADER, type ResumableOptions, resumeResponse } from '@edgetool/ai';
import { createRunContext, parseJson, TicketError, ToolError } from '@edgetool/core';
import { setTraceparent } from '@edgetool/core/otel';
import { createDemoAgent, demoAgent } from '../agent.ts';
import type { Env } from '../env.ts';
import { clientAddress, clientAddressHeader, jsonError, readLimited, refuseOrigin } from '../http/index.ts';
import { demoDeps } from '../tools/index.ts';
import { demoTracing } from '../tracing.ts';
import { createD1ChatStreamStore } from '../chat-stream-store.ts';

/** Largest accepted request body: a long conversation, not a denial of service. */
export const MAX_CHAT_BODY_BYTES = 512 * 1024;

/** Longest conversation id accepted (it goes into idempotency and rate-limit keys). */
const MAX_CONVERSATION_ID_LENGTH = 200;

/** What `useChat` posts (plus `mode`). */
interface ChatBody {
  readonly id: string;
  readonly messages: unknown[];
  readonly mode: ExecutionMode;
}

function parseBody(text: string): ChatBody | Response {
  let body: unknown;
  try {
    // parseJson: the same guarded parse as tool arguments (the history's tool inputs are in here), so this code
    // stays right when it runs on Node 24 or 26 (see docs/reliability.md); in workerd it is JSON.parse plus a scan.
    body = parseJson(text);
  } catch {
    return jsonError(400, 'invalid-json', 'The request body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return jsonError(400, 'invalid-request', 'The body must be an object { id, messages, mode }.');
  const { id, messages, mode = 'internal' } = body as { id?: unknown; messages?: unknown; mode?: unknown };
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_CONVERSATION_ID_LENGTH) {
    return jsonError(400, 'invalid-request', `\`id\` (the conversation id) must be a string of 1 to ${MAX_CONVERSATION_ID_LENGTH} characters.`);
  }
  if (!Array.isArray(messages) || messages.length === 0) return jsonError(400, 'invalid-request', '`messages` must be a non-empty array of UI messages.');
  if (mode !== 'internal' && mode !== 'manual') return jsonError(400, 'unknown-mode', `Unknown mode ${JSON.stringify(mode)}: use "internal" or "manual".`);
  return { id, messages, mode };
}

/**
 * What a client refused by `CHAT_LIMITER` is told to wait, in seconds (`Retry-After`): the longest period Workers Rate
 * Limiting counts over (60 s; the binding does not say its own), so a Retry after it is not refused by the same window.
 */
export const CHAT_RETRY_AFTER_SECONDS = 60;

/**
 * The key `CHAT_LIMITER` counts a chat request under: the client's address (`clientAddress`, from the header
 * `CLIENT_ADDRESS_HEADER` names, `CF-Connecting-IP` by default), or one key shared by every request without it (local
 * dev, a proxy that sets no header). It was the conversation id there, which a client picks freely: a script that sent
 * a new one with every request was never limited.
 */
export function chatLimitKey(request: Pick<Request, 'headers'>, header?: string): string {
  return `client:${clientAddress(request, header)}`;
}

/**
 * A 429 `rate-limited` (with `Retry-After`) when the `CHAT_LIMITER` binding is configured and this client has used its
 * chat requests for now; `undefined` when the request may go on, or no binding is configured (no limit).
 */
export async function limitChat(request: Pick<Request, 'headers'>, env: Pick<Env, 'CHAT_LIMITER' | 'CLIENT_ADDRESS_HEADER'>): Promise<Response | undefined> {
  if (env.CHAT_LIMITER === undefined) return undefined;
  const { success } = await env.CHAT_LIMITER.limit({ key: chatLimitKey(request, clientAddressHeader(env)) });
  if (success) return undefined;
  return jsonError(429, 'rate-limited', `Too many chat requests from this client: wait ${CHAT_RETRY_AFTER_SECONDS} seconds, then send again.`, {
    'retry-after': String(CHAT_RETRY_AFTER_SECONDS),
  });
}

/** The test clock's header (see `Env.TEST_CLOCK`). */
export const TEST_CLOCK_HEADER = 'x-test-clock-offset-ms';
const MAX_TEST_CLOCK_OFFSET_MS = 24 * 60 * 60 * 1000;

/** The header that slows this request's offline model (see {@link testModelDelay}). */
export const TEST_DELAY_HEADER = 'x-test-offline-delay-ms';

/**
 * With `TEST_CLOCK` on, the offline model's delay per stream part for this request (`X-Test-Offline-Delay-Ms`, at most
 * 2000 ms, as `OFFLINE_DELAY_MS`): an e2e test that acts while a turn still runs holds it that long. Else `undefined`.
 */
export function testModelDelay(request: Request, env: Env): string | undefined {
  if (env.TEST_CLOCK !== '1') return undefined;
  const header = request.headers.get(TEST_DELAY_HEADER);
  return header !== null && /^[0-9]{1,4}$/.test(header) && Number(header) <= 2000 ? header : undefined;
}

/** How far this request moves the ticket clock forward: 0 unless `TEST_CLOCK` is on and the header is a sane offset. */
export function testClockOffset(request: Request, env: Env): number {
  if (env.TEST_CLOCK !== '1') return 0;
  const header = request.headers.get(TEST_CLOCK_HEADER);
  const offset = header !== null && /^[0-9]{1,9}$/.test(header) ? Number(header) : 0;
  return offset <= MAX_TEST_CLOCK_OFFSET_MS ? offset : 0;
}

/**
 * What a client needs to react to a refused continuation beside its message: the call it is about, what was wrong
 * (`problem`) and, for a refused ticket, why (`reason`: `expired` means the user answered too late, not an attack).
 */
function refusalDetails(error: ContinuationError): Record<string, string | undefined> {
  return {
    problem: error.problem,
    reason: TicketError.isInstance(error.cause) ? error.cause.reason : undefined,
    toolName: error.toolName,
    toolCallId: error.callId,
  };
}

/**
 * `POST /api/chat`: one chat turn as an AI SDK UI message stream. Bad requests and refused continuations
 * (forged approvals or results) are JSON errors with stable codes; nothing runs for them. With OTLP export on, the
 * turn's tool calls are spans under the request's `traceparent`, sent once the turn is over (`ctx.waitUntil`).
 */
export async function chat(request: Request, env: Env, ctx?: ExecutionContext): Promise<Response> {
  // A page on another site may not drive a turn (useChat on this origin sends no or the same Origin), and only JSON
  // is read: a cross-site form or text/plain POST would skip the browser's CORS preflight.
  const refused = refuseOrigin(request);
  if (refused !== undefined) return refused;
  if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) {
    return jsonError(415, 'unsupported-media-type', 'Send the body as application/json.');
  }
  const text = await readLimited(request, MAX_CHAT_BODY_BYTES);
  if (text === undefined) return jsonError(413, 'payload-too-large', `The request body is larger than ${MAX_CHAT_BODY_BYTES} bytes.`);
  const body = parseBody(text);
  if (body instanceof Response) return body;
  // Before anything the turn costs (a model call with OPENAI_API_KEY set): a client over its budget gets a 429.
  const limited = await limitChat(request, env);
  if (limited !== undefined) return limited;
  try {
    const offset = testClockOffset(request, env);
    const delay = testModelDelay(request, env);
    const { agent } =
      offset === 0 && delay === undefined
        ? await demoAgent(env)
        : await createDemoAgent(delay === undefined ? env : { ...env, OFFLINE_DELAY_MS: delay }, offset === 0 ? {} : { now: () => Date.now() + offset });
    // Rate limits count per client address (CLIENT_ADDRESS_HEADER), not per conversation id, which the client picks freely.
    // A client that can resume (useEdgeChat({ resume: true }) sends its turn id) gets a turn that outlives its connection:
    // no request signal then (a disconnect must not abort what a reload will read). Any other client's turn stops with it.
    const resumable = resumableTurn(request, env, ctx, body.id);
    const signal = resumable === undefined ? request.signal : undefined;
    const run = createRunContext({ conversationId: body.id, deps: demoDeps(env, clientAddress(request, clientAddressHeader(env))), ...(signal === undefined ? {} : { signal }) });
    const tracing = demoTracing(env);
    if (tracing !== undefined) setTraceparent(run, request.headers.get('traceparent'));
    // The records of approved calls are written under ctx.waitUntil too: a client that leaves must not cut them off.
    const waitUntil = ctx === undefined ? undefined : (work: Promise<unknown>) => ctx.waitUntil(work);
    const turn = await agent.stream({ messages: body.messages, mode: body.mode, run, signal, waitUntil });
    // The turn's calls run while the client reads the stream; its usage settles when the stream ends, however it ends.
    if (tracing !== undefined) ctx?.waitUntil(turn.usage.then(() => tracing.exporter.flush()));
    if (resumable === undefined) return turn.toResponse();
    return turn.toResponse({ resumable: resumable.options, ...(resumable.cookie === undefined ? {} : { headers: { 'set-cookie': resumable.cookie } }) });
  } catch (error) {
    if (error instanceof ContinuationError) return jsonError(403, error.code, error.message, undefined, refusalDetails(error));
    // The chat agent's `fileUrls` (default 'refuse'): the Worker fetches no URL a client names. Its own code on the wire.
    if (FileUrlError.isInstance(error)) return jsonError(400, 'file-url-refused', error.message);
    if (ToolError.isInstance(error)) return jsonError(400, error.code, error.message);
    throw error;
  }
}

/**
 * The cookie that names this browser to the resume routes: the owner of its chats' recordings. The demo has no sign-in,
 * so a random id per browser (HttpOnly, SameSite=Strict, only sent to /api/chat) stands in for a user id.
 */
export const OWNER_COOKIE = 'edgetool_owner';
/** What `crypto.randomUUID()` makes: any other value (`------…`, a shared guessable id) is no owner. */
const OWNER_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The owner id the request's cookie carries, if it is one (the first cookie of that name decides). */
export function ownerOf(request: Request): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const pair = part.trim();
    const equals = pair.indexOf('=');
    if (equals === -1 || pair.slice(0, equals) !== OWNER_COOKIE) continue;
    const value = pair.slice(equals + 1);
    return OWNER_PATTERN.test(value) ? value : undefined;
  }
  return undefined;
}

/** The resumable option of a turn whose client sent a turn id, and the owner cookie to set when it had none. */
function resumableTurn(request: Request, env: Env, ctx: ExecutionContext | undefined, chatId: string): { options: ResumableOptions; cookie: string | undefined } | undefined {
  const turnId = request.headers.get(RESUMABLE_TURN_HEADER);
  if (ctx === undefined || turnId === null) return undefined;
  const known = ownerOf(request);
  const owner = known ?? crypto.randomUUID();
  const secure = new URL(request.url).protocol === 'https:' ? '; Secure' : '';
  return {
    options: { store: createD1ChatStreamStore(env.DB), chatId, owner, turnId, waitUntil: (promise) => ctx.waitUntil(promise), signal: request.signal },
    cookie: known === undefined ? `${OWNER_COOKIE}=${owner}; Path=/api/chat; HttpOnly; SameSite=Strict; Max-Age=31536000${secure}` : undefined,
  };
}

/** The chat id of `/api/chat/:id/stream`, or a 400 for one that is no chat id. */
function streamChatId(request: Request): string | Response {
  const segment = new URL(request.url).pathname.split('/')[3] ?? '';
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    id = '';
  }
  if (id.length === 0 || id.length > MAX_CONVERSATION_ID_LENGTH) {
    return jsonError(400, 'invalid-request', `The chat id must be a string of 1 to ${MAX_CONVERSATION_ID_LENGTH} characters.`);
  }
  return id;
}

/**
 * `GET /api/chat/:id/stream` (what `useChat({ resume: true })` asks on mount): 204 when this browser has no recorded
 * turn of the chat to resume; otherwise the turn from its start, byte for byte as the POST sent it, then the rest as
 * the detached turn writes it.
 */
export async function resumeChat(request: Request, env: Env): Promise<Response> {
  const refused = refuseOrigin(request);
  if (refused !== undefined) return refused;
  const chatId = streamChatId(request);
  if (chatId instanceof Response) return chatId;
  const owner = ownerOf(request);
  if (owner === undefined) return new Response(null, { status: 204 });
  const store = createD1ChatStreamStore(env.DB);
  return resumeResponse({ store, chatId, owner, turnId: request.headers.get(RESUMABLE_TURN_HEADER), signal: request.signal });
}

/**
 * `DELETE /api/chat/:id/stream` (`useEdgeChat`'s `stop()`): marks this browser's chat cancelled, so its turn stops even
 * if it has gone on detached (or is about to), and a reload resumes nothing. 204.
 */
export async function cancelChat(request: Request, env: Env): Promise<Response> {
  const refused = refuseOrigin(request);
  if (refused !== undefined) return refused;
  const chatId = streamChatId(request);
  if (chatId instanceof Response) return chatId;
  const owner = ownerOf(request);
  if (owner !== undefined) await cancelResumable({ store: createD1ChatStreamStore(env.DB), chatId, owner });
  return new Response(null, { status: 204 });
}
