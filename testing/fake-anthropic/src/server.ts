import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isLoopbackHost, listenForV1 } from '@edgetool/fake-openai';
import { formatEvent, messageBody, messageEvents } from './message-events.ts';
import type { AnthropicRecordedRequest, FakeAnthropic, FakeAnthropicError, FakeAnthropicOptions, FakeAnthropicTurn } from './types.ts';

type Json = Record<string, unknown>;

const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Starts a fake Anthropic Messages API on loopback; resolves once it listens. */
export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) throw new Error(`fake-anthropic only binds loopback hosts, not ${host}`);
  const fake = new FakeAnthropicServer(options.apiKey);
  await fake.listen(host, options.port ?? 0);
  return fake;
}

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isError = (turn: FakeAnthropicTurn): turn is FakeAnthropicError => 'error' in turn && turn.error !== undefined;

/** The `error.type` the Messages API uses for a status. */
function errorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  return status >= 500 ? 'api_error' : 'invalid_request_error';
}

function sendError(res: ServerResponse, status: number, message: string, type = errorType(status), headers: Readonly<Record<string, string>> = {}): void {
  const text = JSON.stringify({ type: 'error', error: { type, message } });
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** What is wrong with a Messages request body, in the API's words, or undefined when nothing is. */
function bodyProblem(body: Json): string | undefined {
  if (typeof body.model !== 'string' || body.model === '') return 'model: Field required';
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  if (!Array.isArray(body.messages)) return 'messages: Field required';
  return undefined;
}

/** The assistant messages' content blocks of a request, each with its path (`messages.<m>.content.<b>`). */
function assistantBlocks(messages: readonly unknown[]): { path: string; message: number; block: Json }[] {
  return messages.flatMap((message, m) =>
    isRecord(message) && message.role === 'assistant' && Array.isArray(message.content)
      ? message.content.flatMap((block: unknown, b) => (isRecord(block) ? [{ path: `messages.${m}.content.${b}`, message: m, block }] : []))
      : [],
  );
}

/**
 * The API's 400 for an assistant message whose `tool_use` blocks the next message does not answer, each with a
 * `tool_result` block: a call the client left without a result (a last assistant message, a prefill, is not checked).
 */
function unansweredToolUse(messages: readonly unknown[]): string | undefined {
  for (let m = 0; m < messages.length - 1; m++) {
    const message = messages[m];
    if (!isRecord(message) || message.role !== 'assistant' || !Array.isArray(message.content)) continue;
    const ids = message.content.flatMap((block: unknown) => (isRecord(block) && block.type === 'tool_use' && typeof block.id === 'string' ? [block.id] : []));
    if (ids.length === 0) continue;
    const next = messages[m + 1];
    const answered = new Set(
      isRecord(next) && next.role === 'user' && Array.isArray(next.content)
        ? next.content.flatMap((block: unknown) => (isRecord(block) && block.type === 'tool_result' ? [block.tool_use_id] : []))
        : [],
    );
    const missing = ids.filter((id) => !answered.has(id));
    if (missing.length > 0) {
      return (
        `messages.${m + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. ` +
        'Each `tool_use` block must have a corresponding `tool_result` block in the next message.'
      );
    }
  }
  return undefined;
}

/**
 * What the Messages API refuses in the thinking blocks sent back: a `thinking` block whose signature is not one it
 * issued for exactly that text, a `redacted_thinking` block with data it did not issue, and, with thinking enabled, a
 * last assistant message with tool calls that does not start with a thinking block.
 */
function thinkingProblem(body: Json, signatures: ReadonlyMap<string, string>, redacted: ReadonlySet<string>): string | undefined {
  const messages = body.messages as unknown[];
  const blocks = assistantBlocks(messages);
  for (const { path, block } of blocks) {
    if (block.type === 'thinking' && (typeof block.signature !== 'string' || signatures.get(block.signature) !== block.thinking)) {
      return `${path}: Invalid \`signature\` in \`thinking\` block`;
    }
    if (block.type === 'redacted_thinking' && (typeof block.data !== 'string' || !redacted.has(block.data))) {
      return `${path}: Invalid \`data\` in \`redacted_thinking\` block`;
    }
  }
  if (!isRecord(body.thinking) || body.thinking.type !== 'enabled') return undefined;
  const last = blocks.at(-1)?.message;
  const lastBlocks = blocks.filter((entry) => entry.message === last);
  const first = lastBlocks[0]?.block.type;
  if (lastBlocks.some((entry) => entry.block.type === 'tool_use') && first !== 'thinking' && first !== 'redacted_thinking') {
    return (
      `messages.${last}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first)}\`. When \`thinking\` is ` +
      'enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks).'
    );
  }
  return undefined;
}

class FakeAnthropicServer implements FakeAnthropic {
  readonly #server: Server;
  readonly #apiKey: string | undefined;
  #queue: FakeAnthropicTurn[] = [];
  #requests: AnthropicRecordedRequest[] = [];
  #count = 0;
  #messages = 0;
  #tools = 0;
  #baseURL = '';
  #port = 0;
  #closed: Promise<void> | undefined;
  /** Every thinking signature this server issued, with the text it signs; every redacted block's data. */
  readonly #signatures = new Map<string, string>();
  readonly #redacted = new Set<string>();

  constructor(apiKey: string | undefined) {
    this.#apiKey = apiKey;
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) sendError(res, 500, `fake-anthropic internal error: ${String(error)}`);
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

  get requests(): readonly AnthropicRecordedRequest[] {
    return this.#requests;
  }

  async listen(host: string, port: number): Promise<void> {
    ({ port: this.#port, baseURL: this.#baseURL } = await listenForV1(this.#server, host, port));
  }

  enqueue(...turns: readonly FakeAnthropicTurn[]): void {
    this.#queue.push(...turns);
  }

  reset(): void {
    this.#queue = [];
    this.#requests = [];
  }

  close(): Promise<void> {
    this.#closed ??= new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
    return this.#closed;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    if (path !== '/v1/messages') return sendError(res, 404, `Not found: ${req.method} ${path}`);
    if (req.method !== 'POST') return sendError(res, 405, `Method ${req.method} not allowed on ${path}; use POST.`);
    if (this.#apiKey !== undefined && req.headers['x-api-key'] !== this.#apiKey) return sendError(res, 401, 'invalid x-api-key');
    if (req.headers['anthropic-version'] === undefined) return sendError(res, 400, 'anthropic-version: header is required');
    const text = await readBody(req);
    if (text === undefined) return sendError(res, 413, 'Request exceeds the maximum allowed number of bytes.');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return sendError(res, 400, 'There was an issue with your request body: it is not valid JSON.');
    }
    if (!isRecord(body)) return sendError(res, 400, 'The request body must be a JSON object.');
    const problem = bodyProblem(body);
    if (problem !== undefined) return sendError(res, 400, problem);
    const unanswered = unansweredToolUse(body.messages as unknown[]);
    if (unanswered !== undefined) return sendError(res, 400, unanswered);
    const thinking = thinkingProblem(body, this.#signatures, this.#redacted);
    if (thinking !== undefined) return sendError(res, 400, thinking);

    const model = body.model as string;
    const index = this.#count++;
    this.#requests.push({ index, model, body, headers: headerRecord(req) });
    const turn = this.#queue.shift();
    // 400, not 5xx: the AI SDK retries 5xx, which would hide this mistake behind backoff delays.
    if (turn === undefined) return sendError(res, 400, `fake-anthropic: no turn queued (request #${index}).`);
    if (isError(turn)) return sendError(res, turn.error.status, turn.error.message, turn.error.type, turn.error.headers);
    for (const block of turn.thinking ?? []) {
      if ('redacted' in block) this.#redacted.add(block.redacted);
      else this.#signatures.set(block.signature, block.thinking);
    }

    const input = { turn, model, messageId: `msg_${++this.#messages}`, toolId: () => `toolu_${++this.#tools}`, requestChars: text.length };
    if (body.stream !== true) {
      const json = JSON.stringify(messageBody(input));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json), 'request-id': `req_${index + 1}` });
      res.end(json);
      return;
    }
    const events = messageEvents(input);
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'request-id': `req_${index + 1}` });
    const sent = turn.cut === undefined ? events : events.slice(0, turn.cut.afterEvents);
    for (const event of sent) res.write(formatEvent(event));
    if (turn.cut?.destroy === true) {
      // Let the written events reach the client before the socket goes.
      await new Promise((resolve) => setTimeout(resolve, 20));
      res.destroy();
    } else res.end();
  }
}
