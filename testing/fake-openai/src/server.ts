import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { chatCompletionEvents, chatCompletionJson } from './chat-completions';
import { normaliseChatMessages, normaliseResponsesInput } from './normalise-messages';
import { openAIErrorBody } from './openai-error';
import { createIdSource, planReply, type ReplyPlan, type StreamPlan } from './plan';
import { responseOutputItems, responsesEvents, responsesJson } from './responses-api';
import { strictFormatError, strictToolError } from './strict-schema';
import type {
  FakeEndpoint,
  FakeErrorTurn,
  FakeOpenAI,
  FakeOpenAIOptions,
  FakeRawTurn,
  FakeReplyTurn,
  FakeResponder,
  FakeTurn,
  RecordedRequest,
} from './types';

type Json = Record<string, unknown>;

const MAX_BODY_BYTES = 16 * 1024 * 1024;

const ENDPOINTS: Readonly<Record<string, FakeEndpoint>> = {
  '/v1/chat/completions': 'chat',
  '/v1/responses': 'responses',
};

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': '*',
  'access-control-expose-headers': '*',
} as const;

/** True for hosts on this machine only (127.0.0.0/8, localhost, ::1). */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Starts a fake OpenAI server on loopback; resolves once it listens. */
/** Starts `server` listening on `host:port` (0: a free port) and returns the port and the `/v1` base URL clients use. */
export async function listenForV1(server: Server, host: string, port: number): Promise<{ port: number; baseURL: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { port: address.port, baseURL: `http://${shownHost}:${address.port}/v1` };
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) throw new Error(`fake-openai only binds loopback hosts, not ${host}`);
  const fake = new FakeOpenAIServer(options);
  await fake.listen(host, options.port ?? 0);
  return fake;
}

function isErrorTurn(turn: FakeTurn): turn is FakeErrorTurn {
  return 'error' in turn && turn.error !== undefined;
}

function isRawTurn(turn: FakeTurn): turn is FakeRawTurn {
  return 'raw' in turn && turn.raw !== undefined;
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...CORS_HEADERS,
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, message: string, extra: Json = {}): void {
  const { headers, ...fields } = extra;
  sendJson(
    res,
    status,
    openAIErrorBody({
      status,
      message,
      type: typeof fields.type === 'string' ? fields.type : undefined,
      code: typeof fields.code === 'string' ? fields.code : null,
      param: typeof fields.param === 'string' ? fields.param : null,
    }),
    isRecord(headers) ? (headers as Record<string, string>) : {},
  );
}

class BodyTooLargeError extends Error {}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError('body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function toolNames(body: Json): string[] {
  if (!Array.isArray(body.tools)) return [];
  return body.tools.filter(isRecord).flatMap((tool) => {
    const name = isRecord(tool.function) ? tool.function.name : tool.name;
    return typeof name === 'string' ? [name] : [];
  });
}

function maskKey(key: string): string {
  return key.length <= 8 ? '***' : `${key.slice(0, 3)}***${key.slice(-4)}`;
}

async function waitForAbort(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** Sleeps unless aborted; returns false when the client went away. */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (ms > 0) {
    try {
      await sleep(ms, undefined, { signal });
    } catch {
      return false;
    }
  }
  return !signal.aborted;
}

class FakeOpenAIServer implements FakeOpenAI {
  readonly #server: Server;
  readonly #apiKey: string | undefined;
  readonly #initialResponder: FakeResponder | undefined;
  readonly #ids = createIdSource();
  /** Responses output items by id, so `item_reference` inputs can be resolved. */
  readonly #items = new Map<string, Json>();
  readonly #open = new Set<AbortController>();
  #responder: FakeResponder | undefined;
  #queue: FakeTurn[] = [];
  #requests: RecordedRequest[] = [];
  #requestCount = 0;
  #baseURL = '';
  #port = 0;
  #closed: Promise<void> | undefined;

  constructor(options: FakeOpenAIOptions) {
    this.#apiKey = options.apiKey;
    this.#initialResponder = options.responder;
    this.#responder = options.responder;
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) sendError(res, 500, `fake-openai internal error: ${String(error)}`);
        else res.destroy();
      });
    });
  }

  get baseURL(): string {
    return this.#baseURL;
  }

  get port(): number {
    return this.#port;
  }

  get requests(): readonly RecordedRequest[] {
    return this.#requests;
  }

  async listen(host: string, port: number): Promise<void> {
    ({ port: this.#port, baseURL: this.#baseURL } = await listenForV1(this.#server, host, port));
  }

  enqueue(...turns: readonly FakeTurn[]): void {
    this.#queue.push(...turns);
  }

  respondWith(responder: FakeResponder | undefined): void {
    this.#responder = responder;
  }

  pendingTurns(): number {
    return this.#queue.length;
  }

  reset(): void {
    this.#queue = [];
    this.#requests = [];
    this.#responder = this.#initialResponder;
  }

  close(): Promise<void> {
    this.#closed ??= new Promise<void>((resolve) => {
      for (const controller of this.#open) controller.abort();
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
    return this.#closed;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://fake').pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') {
      res.writeHead(204, CORS_HEADERS).end();
      return;
    }
    if (method === 'GET' && (path === '/health' || path === '/')) {
      sendJson(res, 200, { ok: true, baseURL: this.#baseURL });
      return;
    }
    const endpoint = ENDPOINTS[path];
    if (endpoint === undefined || !Object.hasOwn(ENDPOINTS, path)) {
      sendError(res, 404, `Invalid URL (${method} ${path})`);
      return;
    }
    if (method !== 'POST') {
      sendError(res, 405, `Method ${method} not allowed on ${path}; use POST.`);
      return;
    }
    if (this.#apiKey !== undefined) {
      const auth = req.headers.authorization ?? '';
      if (auth !== `Bearer ${this.#apiKey}`) {
        const given = auth.startsWith('Bearer ') ? auth.slice(7) : '';
        const message =
          given === ''
            ? "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth."
            : `Incorrect API key provided: ${maskKey(given)}.`;
        sendError(res, 401, message, { code: given === '' ? null : 'invalid_api_key' });
        return;
      }
    }

    const body = await this.#readJson(req, res);
    if (body === undefined) return;
    if (typeof body.model !== 'string' || body.model === '') {
      sendError(res, 400, 'you must provide a model parameter', { param: 'model' });
      return;
    }
    if (endpoint === 'chat' && !Array.isArray(body.messages)) {
      sendError(res, 400, "Missing required parameter: 'messages'.", { param: 'messages', code: 'missing_required_parameter' });
      return;
    }
    if (endpoint === 'responses' && typeof body.input !== 'string' && !Array.isArray(body.input)) {
      sendError(res, 400, "Missing required parameter: 'input'.", { param: 'input', code: 'missing_required_parameter' });
      return;
    }

    const record: RecordedRequest = {
      index: this.#requestCount++,
      endpoint,
      path,
      stream: body.stream === true,
      model: body.model,
      body,
      headers: headerRecord(req),
      messages:
        endpoint === 'chat'
          ? normaliseChatMessages(body.messages)
          : normaliseResponsesInput(body, (id) => this.#items.get(id)),
      toolNames: toolNames(body),
    };
    this.#requests.push(record);

    // OpenAI refuses the whole request when one strict tool's schema breaks strict mode's rules (no turn is used).
    const refused = strictToolError(body, endpoint);
    if (refused !== undefined) {
      sendError(res, 400, refused.message, { param: refused.param, code: 'invalid_function_parameters' });
      return;
    }
    const format = strictFormatError(body, endpoint);
    if (format !== undefined) {
      sendError(res, 400, format.message, { param: format.param, ...(format.code === null ? {} : { code: format.code }) });
      return;
    }

    let turn: FakeTurn;
    try {
      turn = await this.#nextTurn(record);
    } catch (error) {
      sendError(res, 500, `fake-openai responder failed: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (isErrorTurn(turn)) {
      const { status, message, type, code, headers } = turn.error;
      sendError(res, status, message, { type, code, headers });
      return;
    }
    if (isRawTurn(turn)) await this.#raw(record, turn, res);
    else await this.#reply(record, turn, res);
  }

  /** Writes a raw turn as it is: its events (streamed) or its body, then `[DONE]`, a clean end or a dropped connection. */
  async #raw(record: RecordedRequest, { raw }: FakeRawTurn, res: ServerResponse): Promise<void> {
    const headers = { ...CORS_HEADERS, ...raw.headers };
    // Dropped once what came before has left: the client reads it, then the connection breaks.
    const dropAfter = async (text: string): Promise<void> => {
      await new Promise<void>((resolve) => res.write(text, () => resolve()));
      res.destroy();
    };
    if (!record.stream) {
      const text = JSON.stringify(raw.body ?? {});
      if (raw.drop === true) {
        res.writeHead(raw.status ?? 200, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        await dropAfter(text.slice(0, Math.floor(text.length / 2)));
      } else sendJson(res, raw.status ?? 200, raw.body ?? {}, { ...raw.headers });
      return;
    }
    res.writeHead(raw.status ?? 200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    if (raw.wire !== undefined) {
      // One write at a time, each waited for and given a tick, so that they leave as separate TCP segments.
      for (const piece of raw.wire) {
        await new Promise<void>((resolve) => res.write(piece, () => resolve()));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      if (raw.drop === true) res.destroy();
      else res.end();
      return;
    }
    const data = (raw.events ?? []).map((event) => `data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`).join('');
    if (raw.drop === true) {
      await dropAfter(data);
      return;
    }
    res.write(data);
    if (raw.done !== false) res.write('data: [DONE]\n\n');
    res.end();
  }

  async #readJson(req: IncomingMessage, res: ServerResponse): Promise<Json | undefined> {
    let text: string;
    try {
      text = await readBody(req);
    } catch (error) {
      if (error instanceof BodyTooLargeError) sendError(res, 413, 'Request body too large.');
      else res.destroy();
      return undefined;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      sendError(
        res,
        400,
        'We could not parse the JSON body of your request. (HINT: This likely means you aren\'t using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)',
      );
      return undefined;
    }
    if (!isRecord(parsed)) {
      sendError(res, 400, 'The request body must be a JSON object.');
      return undefined;
    }
    return parsed;
  }

  async #nextTurn(record: RecordedRequest): Promise<FakeTurn> {
    const queued = this.#queue.shift();
    if (queued !== undefined) return queued;
    if (this.#responder !== undefined) return await this.#responder(record);
    // 400, not 5xx: the AI SDK retries 5xx, which would hide this mistake behind backoff delays.
    return {
      error: {
        status: 400,
        type: 'fake_openai_error',
        message: `fake-openai: no turn queued and no responder set (request #${record.index}, ${record.path}).`,
      },
    };
  }

  async #reply(record: RecordedRequest, turn: FakeReplyTurn, res: ServerResponse): Promise<void> {
    const plan = planReply(turn, record, this.#ids);
    if (record.endpoint === 'responses') {
      for (const item of responseOutputItems(plan)) this.#items.set(String(item.id), item);
    }
    const controller = new AbortController();
    this.#open.add(controller);
    res.on('close', () => controller.abort());
    try {
      if (record.stream) await this.#stream(plan, turn, record.endpoint, res, controller.signal);
      else await this.#json(plan, turn, record.endpoint, res, controller.signal);
    } finally {
      this.#open.delete(controller);
    }
  }

  async #json(
    plan: ReplyPlan,
    turn: FakeReplyTurn,
    endpoint: FakeEndpoint,
    res: ServerResponse,
    signal: AbortSignal,
  ): Promise<void> {
    if (!(await pause(turn.chunkDelayMs ?? 0, signal))) return;
    if (turn.hang === true) {
      res.writeHead(200, { ...CORS_HEADERS, 'content-type': 'application/json' });
      res.flushHeaders();
      await waitForAbort(signal);
      return;
    }
    if (plan.streamError !== undefined) {
      sendError(res, 500, plan.streamError.message, { code: plan.streamError.code });
      return;
    }
    sendJson(res, 200, endpoint === 'chat' ? chatCompletionJson(plan) : responsesJson(plan), {
      'x-request-id': `req_${plan.responseId}`,
    });
  }

  async #stream(
    plan: ReplyPlan,
    turn: FakeReplyTurn,
    endpoint: FakeEndpoint,
    res: ServerResponse,
    signal: AbortSignal,
  ): Promise<void> {
    const { events, contentEnd }: StreamPlan = endpoint === 'chat' ? chatCompletionEvents(plan) : responsesEvents(plan);
    const hang = turn.hang === true;
    res.writeHead(200, {
      ...CORS_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-request-id': `req_${plan.responseId}`,
    });
    res.flushHeaders();
    for (const event of hang ? events.slice(0, contentEnd) : events) {
      if (!(await pause(turn.chunkDelayMs ?? 0, signal))) return;
      res.write(`data: ${JSON.stringify(event)}\n\n`);
    }
    if (hang) {
      await waitForAbort(signal);
      return;
    }
    if (plan.streamError === undefined) res.write('data: [DONE]\n\n');
    res.end();
  }
}
