import type { ToolProgress } from '../chain/types.ts';
import { createRunContext, type RunContext } from '../context/run-context.ts';
import { ToolError, toToolError } from '../errors/tool-error.ts';
import { errorModelText } from '../executor/convert-result.ts';
import { createExecutor, type ToolCallResult, type ToolExecutor } from '../executor/executor.ts';
import { parseJson } from '../executor/parse-arguments.ts';
import type { ToolRegistry } from '../registry/registry.ts';
import { deriveJsonSchema, type JsonSchema, type ValidationResult, validateWithSchema } from '../schema/input-schema.ts';
import { type AvailableToolsOptions, availableTools } from '../tool/available.ts';
import type { ModelContentPart } from '../tool/model-content.ts';
import type { AnyTool } from '../tool/types.ts';
import { toJsonSchema2020 } from './json-schema-2020.ts';
import { acceptsType, mediaType } from './media-type.ts';
import { MCP_PROTOCOL_VERSIONS } from './protocol.ts';
import { BodyTooLargeError, byteLimit, readBody } from './read-body.ts';

/** Options for {@link createMcpHandler}. */
export interface McpHandlerOptions<TDeps = unknown> {
  /** The tools: an executor (its chain and interceptors apply), a registry, or a plain list. */
  readonly tools: ToolExecutor | ToolRegistry | readonly AnyTool[];
  /** `serverInfo` of the `initialize` answer. */
  readonly name: string;
  readonly version: string;
  /** Told to the client at `initialize` (how to use these tools). */
  readonly instructions?: string | undefined;
  /** The run context of one HTTP request (who asks, `deps` such as a database). Default: a fresh one. */
  readonly run?: ((request: Request) => RunContext<TDeps> | Promise<RunContext<TDeps>>) | undefined;
  /**
   * Calls that need a human approval: `'refuse'` (default) answers them with a tool error, and tools that always need
   * one are not listed; `'client'` trusts the MCP client's own confirmation (hosts such as desktop assistants ask the
   * user before every call) and runs them as approved; a read among them is listed as not read-only, so the host asks.
   * An executor with a ticket signer still wants a ticket for that decision (and refuses the call with
   * `ticket-invalid`): pass one without, as the chat loop's executor is.
   */
  readonly approvals?: 'refuse' | 'client' | undefined;
  /**
   * Browser origins allowed to call (a request with another `Origin` gets 403). Same-origin and no-Origin requests pass.
   * An allowed origin gets the CORS answers a browser needs: its preflight (`OPTIONS`) is answered, and every answer
   * carries `Access-Control-Allow-Origin`.
   */
  readonly allowedOrigins?: readonly string[] | undefined;
  /**
   * The hosts this endpoint answers as (`localhost:8787`, as `new URL(request.url).host` reads it); a request for another
   * gets 403. Set it for a server on your machine: a page whose name points at 127.0.0.1 (DNS rebinding) is of the
   * request's own origin, which `Origin` alone lets pass. Default: any host.
   */
  readonly allowedHosts?: readonly string[] | undefined;
  /** Largest request body in bytes (default 1 MiB; larger gets 413): a whole number from 1, or `Infinity`; else a TypeError. */
  readonly maxBodyBytes?: number | undefined;
  /**
   * Receives each tool `tools/list` leaves out, or `tools/call` refuses as unknown, because its `policy.available` check
   * did not answer within 10 s (see `availableTools`); unless `tools` is an executor (its own applies), also each one an
   * unknown tool's list leaves out. Default: `console.error`.
   */
  readonly onLateCheck?: AvailableToolsOptions['onLateCheck'];
}

/** A JSON-RPC id. */
type RpcId = string | number;

interface RpcRequest {
  readonly id: RpcId;
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/** JSON-RPC error codes the handler answers with. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;
/** The official SDKs' code for a refusal by the transport (a host, an origin, a content type, a size). */
const TRANSPORT_ERROR = -32000;

const JSON_HEADERS = { 'content-type': 'application/json' };
const NOT_A_REQUEST = 'Invalid request: not a JSON-RPC 2.0 request.';

/** A JSON-RPC error response. */
const failure = (id: RpcId | null, code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });

const rpcError = (id: RpcId | null, code: number, message: string, status = 200, headers: Record<string, string> = JSON_HEADERS): Response =>
  Response.json(failure(id, code, message), { status, headers });

/** The revisions that name no JSON Schema dialect: their listings keep the draft-07 form (no `$schema`). */
const OLDER_REVISIONS = ['2025-06-18', '2025-03-26'];

/** The most messages in a batch: one POST must not run an unbounded number of calls (or listings) at once. */
const MAX_BATCH = 32;

/** The answer to a POST whose requests all went unanswered (cancelled): an event stream that ends with no message. */
const noResponse = (): Response => new Response('', { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Serves edgetool tools to MCP clients over Streamable HTTP, as a `fetch` handler (`(request) => Response`) for a
 * Worker route, a Node server or any runtime with web `Request`s. Stateless: no GET stream and nothing kept per client
 * (its session id only names its requests, so its `notifications/cancelled` stops its own call), so any isolate
 * answers any request; create it once per isolate. Calls run through the executor: validation, the chain, policies
 * and typed errors, whose text the client's model reads (`isError: true`, so it can correct itself). A call whose
 * request carries a `progressToken` is answered as an SSE stream with `notifications/progress` from the tool's
 * `ctx.progress()`.
 * Authentication is yours: check the request before you hand it over.
 */
export function createMcpHandler<TDeps>(options: McpHandlerOptions<TDeps>): (request: Request) => Promise<Response> {
  const source = options.tools;
  const late = { onLateCheck: options.onLateCheck };
  const executor = 'execute' in source && 'registry' in source ? source : createExecutor({ registry: Array.isArray(source) ? [...source] : (source as ToolRegistry), ...late });
  const approvals = options.approvals ?? 'refuse';
  const maxBodyBytes = byteLimit(options.maxBodyBytes, 1024 * 1024, 'createMcpHandler: `maxBodyBytes`');
  const allowed = new Set(options.allowedOrigins ?? []);
  const hosts = options.allowedHosts === undefined ? undefined : new Set(options.allowedHosts.map((host) => host.toLowerCase()));

  const runFor = (request: Request): RunContext<TDeps> | Promise<RunContext<TDeps>> => (options.run ? options.run(request) : (createRunContext() as RunContext<TDeps>));
  /**
   * Calls still running, by session and request id: the same session's `notifications/cancelled` aborts one. Only this
   * handler's (a Worker isolate's) calls; a call made without a session cannot be told from another client's.
   */
  const running = new Map<string, AbortController>();
  const callKey = (request: Request, id: RpcId): string | undefined => {
    const session = request.headers.get('mcp-session-id');
    return session === null ? undefined : `${session} ${JSON.stringify(id)}`;
  };

  /** Tools an MCP client may call here: server-run, with an implementation, and not always waiting for a human. */
  const servable = (tool: AnyTool): boolean =>
    tool.policy.runsOn !== 'client' && typeof tool.execute === 'function' && !(approvals === 'refuse' && tool.policy.needsApproval === true);

  /**
   * A `tools/call`: its JSON-RPC response, `undefined` when the client cancelled it (MCP: no response), or an SSE stream
   * of its progress and then its response when `streamable` (not in a batch) and the call asks for progress.
   */
  async function call(rpc: RpcRequest, request: Request, streamable: boolean): Promise<object | Response | undefined> {
    // Known before anything is awaited: a cancellation that comes while the run or the tool loads stops the call too.
    const key = callKey(request, rpc.id);
    const cancelled = new AbortController();
    if (key !== undefined) running.set(key, cancelled);
    const forget = () => {
      if (key !== undefined && running.get(key) === cancelled) running.delete(key);
    };
    // Until the tool runs, every way out forgets the call here; once it runs, `settle` does when it is over.
    let runs = false;
    try {
      const { name, arguments: args, _meta: meta } = rpc.params as { name?: unknown; arguments?: unknown; _meta?: { progressToken?: unknown } };
      if (typeof name !== 'string') return failure(rpc.id, INVALID_PARAMS, 'tools/call needs a string `name`.');
      const run = await runFor(request);
      // One the request's run may not see (`policy.available`) is as unknown as one that does not exist. Only the named
      // tool is loaded: one that fails to load is not run, and the executor reports its load error as the call's result.
      // A check that never answers is given up on after 10 s, as `tools/list` does (fail closed).
      const tool = await loadTool(executor.registry, name);
      const unknown = tool !== null && (tool === undefined || !servable(tool) || !(await availableTools([tool], run as RunContext, late)).length);
      if (cancelled.signal.aborted) return undefined; // cancelled meanwhile: nothing runs, and MCP wants no response
      if (unknown) return failure(rpc.id, INVALID_PARAMS, `Unknown tool: ${name}`);
      const token = meta?.progressToken;
      const streams = streamable && (typeof token === 'string' || typeof token === 'number') && acceptsType(request.headers.get('accept'), 'text/event-stream');
      const toolCall = { id: `mcp-${crypto.randomUUID()}`, name, arguments: args ?? {} };
      const execute = (onProgress?: (progress: ToolProgress) => void) =>
        executor.execute(toolCall, {
          run,
          signal: AbortSignal.any([request.signal, cancelled.signal]),
          ...(approvals === 'client' ? { approval: { approved: true } } : {}),
          ...(onProgress ? { onProgress: ({ progress }) => onProgress(progress) } : {}),
        });
      /**
       * The final answer: the call's result, or an internal error when the registry's `onError` made it throw (with the
       * message the model would have read: the executor's `toolErrorMessage` applies).
       */
      const settle = (result: Promise<ToolCallResult>) =>
        result
          .then(
            async (done) => ({ jsonrpc: '2.0', id: rpc.id, result: await callResult(done) }),
            (error: unknown) => {
              const message = executor.errorMessage(toToolError(error), toolCall);
              return { jsonrpc: '2.0', id: rpc.id, error: { code: INTERNAL_ERROR, message: `Tool "${name}" failed: ${message}` } };
            },
          )
          .finally(forget);
      /** The call's result; one whose JSON form no longer matches its output schema is an `invalid-output` error. */
      const callResult = async (done: ToolCallResult) => {
        const { outcome, tool } = done;
        if (outcome.type !== 'success' || tool === undefined || outputSchemaOf(tool) === undefined) return toCallResult(done);
        const structured = await jsonOutput(tool, outcome.output);
        if (structured.ok) return toCallResult(done, structured.value);
        const message = `The result of "${name}" does not match its output schema once written as JSON (which writes Infinity as null).`;
        const error = new ToolError('invalid-output', message, { toolName: name, callId: toolCall.id, issues: structured.issues });
        return { content: [{ type: 'text', text: errorModelText(error, executor.errorMessage(error, toolCall)) }], isError: true };
      };
      runs = true;
      if (!streams) {
        const answer = await settle(execute());
        return cancelled.signal.aborted ? undefined : answer;
      }
      return sseResponse(async (send) => {
        const progress = progressNotifier(token as RpcId);
        const answer = await settle(
          execute((report) => {
            const notification = progress(report);
            if (notification !== undefined && !cancelled.signal.aborted) send(notification, true);
          }),
        );
        if (!cancelled.signal.aborted) send(answer, false);
      }, () => cancelled.abort(new DOMException('The MCP client closed the stream of its call.', 'AbortError')));
    } finally {
      if (!runs) forget();
    }
  }

  /** `notifications/cancelled`: aborts the named call of the same session, if it still runs (MCP's cancellation). */
  function cancel(params: Record<string, unknown>, request: Request): void {
    // Only a JSON-RPC id can name a call: anything else (a list nested 400,000 deep) is not written out to look it up.
    const id = params.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const key = callKey(request, id);
    const reason = typeof params.reason === 'string' ? params.reason : 'The MCP client cancelled the request.';
    if (key !== undefined) running.get(key)?.abort(new DOMException(reason, 'AbortError'));
  }

  /** `notifications/cancelled` is acted on; other notifications, and the client's responses, need nothing. */
  function notified(message: unknown, request: Request): void {
    const { method, params } = message as Record<string, unknown>;
    if (method === 'notifications/cancelled' && typeof params === 'object' && params !== null) cancel(params as Record<string, unknown>, request);
  }

  /**
   * One request's answer: a JSON-RPC response (an error for what throws: no details leave the server), `undefined`
   * for a cancelled call, or a `Response` of its own (a streamed call; `initialize`, with its session id).
   */
  async function reply(rpc: RpcRequest, request: Request, streamable: boolean): Promise<object | Response | undefined> {
    try {
      return await answer(rpc, request, streamable);
    } catch {
      // Your `run()` threw, or a registry's `onLoadError` did.
      return failure(rpc.id, INTERNAL_ERROR, 'Internal error: the server could not answer this request.');
    }
  }

  async function answer(rpc: RpcRequest, request: Request, streamable: boolean): Promise<object | Response | undefined> {
    switch (rpc.method) {
      case 'initialize': {
        const asked = rpc.params.protocolVersion;
        const protocolVersion = typeof asked === 'string' && MCP_PROTOCOL_VERSIONS.includes(asked) ? asked : MCP_PROTOCOL_VERSIONS[0];
        const result = {
          protocolVersion,
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: options.name, version: options.version },
          ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
        };
        // A session id names this client's requests (its cancellations reach only its own calls); nothing is kept for it.
        return Response.json({ jsonrpc: '2.0', id: rpc.id, result }, { headers: { ...JSON_HEADERS, 'mcp-session-id': crypto.randomUUID() } });
      }
      case 'ping':
        return { jsonrpc: '2.0', id: rpc.id, result: {} };
      case 'tools/list': {
        // Every tool comes in one page, so no cursor was issued: MCP answers an invalid one with -32602.
        if (rpc.params.cursor !== undefined && rpc.params.cursor !== null) {
          return failure(rpc.id, INVALID_PARAMS, 'Invalid params: unknown cursor (this server lists every tool in one page).');
        }
        const tools: ReturnType<typeof describeTool>[] = [];
        // MCP 2025-11-25 reads a schema without `$schema` as 2020-12; older revisions name no dialect, and their clients
        // (the official SDK's ajv among them) read draft-07, the form every schema here is derived in. No header: 2025-03-26.
        const dialect2020 = !OLDER_REVISIONS.includes(request.headers.get('mcp-protocol-version') ?? '2025-03-26');
        // Those the request's run may see (`policy.available`).
        const listed = (await executor.registry.tools()).filter(servable);
        for (const tool of await availableTools(listed, (await runFor(request)) as RunContext, late)) {
          try {
            tools.push(describeTool(tool, approvals, dialect2020));
          } catch (error) {
            // An input schema with no JSON Schema form (a valibot `date()`): say which tool, so the operator can fix it.
            return failure(rpc.id, INTERNAL_ERROR, `Tool "${tool.name}" cannot be listed: ${messageOf(error)}`);
          }
        }
        return { jsonrpc: '2.0', id: rpc.id, result: { tools } };
      }
      case 'tools/call':
        return call(rpc, request, streamable);
      default:
        return failure(rpc.id, METHOD_NOT_FOUND, `Method not found: ${rpc.method}`);
    }
  }

  return async (request) => {
    // First, a preflight too: a name an attacker pointed at this machine is refused whatever its `Origin` says.
    const host = new URL(request.url).host;
    if (hosts !== undefined && !hosts.has(host)) return rpcError(null, TRANSPORT_ERROR, `Forbidden: host ${host} is not allowed.`, 403);
    const origin = request.headers.get('origin');
    // A browser on another origin asks first (a preflight), and reads an answer only if it names that origin.
    const cors = origin !== null && allowed.has(origin);
    if (cors && request.method === 'OPTIONS') {
      const headers = { 'access-control-allow-methods': 'POST', 'access-control-allow-headers': request.headers.get('access-control-request-headers') ?? '', 'access-control-max-age': '86400' };
      return withOrigin(new Response(null, { status: 204, headers }), origin);
    }
    const response = await handle(request, origin);
    return cors ? withOrigin(response, origin) : response;
  };

  async function handle(request: Request, origin: string | null): Promise<Response> {
    if (request.method !== 'POST') {
      // No stream to GET, no session to DELETE: a 405, as MCP asks, with a JSON-RPC body as the handler's other refusals.
      return rpcError(null, TRANSPORT_ERROR, `Method Not Allowed: ${request.method}; this endpoint takes POST.`, 405, { ...JSON_HEADERS, allow: 'POST' });
    }
    if (origin !== null && origin !== new URL(request.url).origin && !allowed.has(origin)) {
      return rpcError(null, TRANSPORT_ERROR, `Forbidden: origin ${origin} is not allowed.`, 403);
    }
    const version = request.headers.get('mcp-protocol-version');
    if (version !== null && !MCP_PROTOCOL_VERSIONS.includes(version)) return rpcError(null, INVALID_REQUEST, `Unsupported MCP-Protocol-Version: ${version}`, 400);
    if (mediaType(request.headers.get('content-type')) !== 'application/json') {
      return rpcError(null, TRANSPORT_ERROR, 'Unsupported Media Type: Content-Type must be application/json.', 415);
    }
    const tooLarge = () => rpcError(null, TRANSPORT_ERROR, `Payload Too Large: the body is over ${maxBodyBytes} bytes.`, 413);
    if (Number(request.headers.get('content-length') ?? 0) > maxBodyBytes) return tooLarge();
    // Counted in bytes as they arrive: a body without a content-length (or with a false one) stops at the limit.
    let text = '';
    try {
      await readBody(request.body, maxBodyBytes, (piece) => {
        text += piece;
      }, request.signal);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return tooLarge();
      // A body that broke off (the client went away, a cut upload) is an answer too, as the SDK's server gives it:
      // a rejected handler is an uncaught exception and a 500 in a Worker.
      return rpcError(null, PARSE_ERROR, 'Parse error: the body could not be read.', 400);
    }
    let message: unknown;
    try {
      message = parseJson(text);
    } catch {
      return rpcError(null, PARSE_ERROR, 'Parse error: the body is not JSON.', 400);
    }
    if (Array.isArray(message)) return batch(message, request, version);
    const rpc = readRequest(message);
    if (rpc === 'notification') {
      notified(message, request);
      return new Response(null, { status: 202 });
    }
    if (rpc === undefined) return rpcError(null, INVALID_REQUEST, NOT_A_REQUEST, 400);
    const answered = await reply(rpc, request, true);
    if (answered instanceof Response) return answered;
    // MCP: no response for a cancelled request; the POST still needs an answer.
    return answered === undefined ? noResponse() : Response.json(answered, { headers: JSON_HEADERS });
  }

  /**
   * A JSON-RPC batch, which MCP 2025-03-26 allows and 2025-06-18 removed: a client that sends no MCP-Protocol-Version
   * is taken as 2025-03-26, as MCP asks. Every request is answered, in one JSON array (no progress), notifications not.
   */
  async function batch(messages: unknown[], request: Request, version: string | null): Promise<Response> {
    if (version !== null && version !== '2025-03-26') {
      return rpcError(null, INVALID_REQUEST, `Invalid request: JSON-RPC batches are not supported in MCP ${version} (only in 2025-03-26).`, 400);
    }
    if (messages.length === 0 || messages.length > MAX_BATCH) {
      return rpcError(null, INVALID_REQUEST, `Invalid request: a batch holds 1 to ${MAX_BATCH} messages.`, 400);
    }
    let requests = 0;
    const answers = await Promise.all(
      messages.map((message) => {
        const rpc = readRequest(message);
        if (rpc === 'notification') return notified(message, request);
        requests++;
        if (rpc === undefined) return failure(null, INVALID_REQUEST, NOT_A_REQUEST);
        if (rpc.method === 'initialize') return failure(rpc.id, INVALID_REQUEST, 'Invalid request: initialize must not be part of a JSON-RPC batch.');
        return reply(rpc, request, false);
      }),
    );
    const sent = answers.filter((answer) => answer !== undefined);
    if (sent.length > 0) return Response.json(sent, { headers: JSON_HEADERS });
    return requests > 0 ? noResponse() : new Response(null, { status: 202 });
  }
}

/** The answer, readable by a browser page of `origin` (its session id too). */
function withOrigin(response: Response, origin: string): Response {
  response.headers.set('access-control-allow-origin', origin);
  response.headers.set('access-control-expose-headers', 'mcp-session-id');
  response.headers.append('vary', 'Origin');
  return response;
}

/** A JSON-RPC request, `'notification'` for a notification or a client's response (answered 202), else `undefined`. */
function readRequest(message: unknown): RpcRequest | 'notification' | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { jsonrpc, id, method, params } = message as Record<string, unknown>;
  if (jsonrpc !== '2.0') return undefined;
  if (method === undefined && id !== undefined && ('result' in message || 'error' in message)) return 'notification';
  if (typeof method !== 'string') return undefined;
  if (id === undefined) return 'notification';
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) return undefined;
  return { id, method, params: (params ?? {}) as Record<string, unknown> };
}

/**
 * A tool as `tools/list` describes it; the policy becomes MCP's hints. Hosts (and `connectMcp`) run a read-only tool
 * unasked, so a read that may need an approval, which `'client'` leaves to the host, is listed as not read-only.
 */
function describeTool(tool: AnyTool, approvals: 'refuse' | 'client', dialect2020: boolean) {
  const { effects, needsApproval } = tool.policy;
  const readOnly = effects === 'read' && !(approvals === 'client' && needsApproval !== false);
  // A read that waits for the host's confirmation changes nothing: not destructive, and safe to repeat.
  const hints = readOnly || effects !== 'read' ? {} : { idempotentHint: true };
  const output = outputSchemaOf(tool);
  const outputSchema = output !== undefined && dialect2020 ? toJsonSchema2020(output) : output;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: { type: 'object', ...(dialect2020 ? toJsonSchema2020(tool.jsonSchema) : tool.jsonSchema) },
    ...(outputSchema === undefined ? {} : { outputSchema }),
    annotations: { readOnlyHint: readOnly, destructiveHint: effects === 'destructive', ...hints },
  };
}

const outputSchemas = new WeakMap<AnyTool, JsonSchema | null>();

/**
 * The JSON Schema of a tool's declared `output`, when it describes an object (MCP's `outputSchema` must): the
 * executor checks every result against that schema, and the handler its JSON form, so `structuredContent` conforms.
 */
function outputSchemaOf(tool: AnyTool): JsonSchema | undefined {
  let schema = outputSchemas.get(tool);
  if (schema === undefined) {
    try {
      const derived = tool.output === undefined ? null : deriveJsonSchema(tool.output);
      schema = derived?.type === 'object' ? derived : null;
    } catch {
      schema = null; // a schema with no JSON Schema form: the text content alone
    }
    outputSchemas.set(tool, schema);
  }
  return schema ?? undefined;
}

/**
 * A successful output as the client gets it, in JSON, checked again against the output schema: the executor checked the
 * value, and JSON writes `Infinity`, or an `undefined` in a list, as `null`. MCP wants `structuredContent` to match.
 */
async function jsonOutput(tool: AnyTool, output: unknown): Promise<ValidationResult<unknown>> {
  try {
    const value: unknown = parseJson(JSON.stringify(output));
    const checked = await validateWithSchema(tool.output as NonNullable<AnyTool['output']>, value);
    return checked.ok ? { ok: true, value } : checked;
  } catch (error) {
    return { ok: false, issues: [{ path: '(root)', message: messageOf(error) }] };
  }
}

/**
 * The `tools/call` result: what the model reads (text, or text, image and resource pieces when the tool's
 * `toModelOutput` returned parts), `structured` (the output in JSON) as `structuredContent` when the tool declares an
 * object output schema, and `isError` for every failure or a call that cannot run here.
 */
function toCallResult(result: ToolCallResult, structured?: unknown) {
  const { outcome } = result;
  const text =
    outcome.type === 'approval-required'
      ? `Tool "${result.call.name}" needs a human approval, which this server cannot ask for over MCP. Nothing ran.`
      : outcome.type === 'client-pending'
        ? `Tool "${result.call.name}" runs in the user's browser, not on this server. Nothing ran.`
        : result.content;
  // Parts (images, documents) go as MCP content pieces; everything else as one text piece.
  const parts = outcome.type === 'success' ? result.parts : undefined;
  return {
    content: parts ? parts.map(toMcpContent) : [{ type: 'text', text }],
    ...(structured === undefined ? {} : { structuredContent: structured }),
    isError: outcome.type !== 'success',
  };
}

/**
 * One part as an MCP content piece: text and images as they are, a document as an embedded resource (MCP has no
 * document piece) whose URI ends in its file name, which `connectMcp` gives back to the model.
 */
function toMcpContent(part: ModelContentPart, index: number) {
  if (part.type === 'text') return part;
  if (part.type === 'image') return { type: 'image', data: part.data, mimeType: part.mediaType };
  const uri = `edgetool://document/${index}/${encodeURIComponent(part.filename ?? 'document.pdf')}`;
  return { type: 'resource', resource: { uri, mimeType: part.mediaType, blob: part.data } };
}

/**
 * Turns a call's reports into `notifications/progress`. MCP wants `progress` to grow with every notification. A count
 * (`completed`) is sent as it is, from 0, when it grows; a report with only a message takes a number between the last
 * count and the next whole one (1 ½, 1 ⅔, 1 ¾…; 0, ½, ⅔… before any count), so "starting" does not take the 1 that
 * "step 1 of 3" needs. Reports that would not grow are skipped (the next one carries the news).
 */
function progressNotifier(progressToken: RpcId): (report: ToolProgress) => object | undefined {
  // The last number sent (none yet: a count of 0, "queued, 0 of 2", may go first), the last count sent, and how many
  // message-only reports have been numbered since.
  let last: number | undefined;
  let count: number | undefined;
  let talk = 0;
  return ({ message, completed, total }) => {
    if (completed === undefined) talk++;
    const progress = completed ?? (count === undefined ? (talk - 1) / talk : count + talk / (talk + 1));
    if (last !== undefined && progress <= last) return undefined;
    last = progress;
    if (completed !== undefined) {
      count = completed;
      talk = 0;
    }
    const params = { progressToken, progress, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) };
    return { jsonrpc: '2.0', method: 'notifications/progress', params };
  };
}

/**
 * An SSE response: `write` sends JSON-RPC messages as `message` events; the stream ends when it resolves. A message
 * sent as `replaceable` (a progress notification) waits while the client is not reading and is replaced by the next
 * one, so a tool that reports a million times costs a slow client a few events, not a million; what waits goes out
 * before the next message that is not replaceable. `left` is told when the client cancels the stream (it went away).
 */
function sseResponse(write: (send: (message: object, replaceable: boolean) => void) => Promise<void>, left: () => void): Response {
  const encoder = new TextEncoder();
  const event = (message: object) => encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  let open = true;
  let held: object | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const emit = (message: object) => controller.enqueue(event(message));
      const send = (message: object, replaceable: boolean) => {
        if (!open) return;
        try {
          if (replaceable && (controller.desiredSize ?? 1) <= 0) {
            held = message;
            return;
          }
          if (held !== undefined) emit(held);
          held = undefined;
          emit(message);
        } catch {
          open = false; // the client left
        }
      };
      write(send).then(
        () => {
          if (!open) return;
          open = false;
          controller.close();
        },
        (error: unknown) => {
          open = false;
          controller.error(error);
        },
      );
    },
    pull(controller) {
      if (held === undefined || !open) return;
      controller.enqueue(event(held));
      held = undefined;
    },
    cancel() {
      // The client left: what the call still sends goes nowhere, and the call is stopped here, since `request.signal`
      // may never fire (a Worker's fires on a disconnect only with the enable_request_signal compatibility flag).
      open = false;
      left();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
}

/** The tool of that name: `undefined` when there is none, `null` when it fails to load (a lazy module that failed). */
async function loadTool(registry: ToolRegistry, name: string): Promise<AnyTool | undefined | null> {
  try {
    return await registry.resolve(name);
  } catch {
    return null;
  }
}
