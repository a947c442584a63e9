import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { contextKey, createRunContext } from '../context/index.ts';
import { ToolError } from '../errors/tool-error.ts';
import { createExecutor } from '../executor/executor.ts';
import { createRegistry } from '../registry/registry.ts';
import { lazyResolver } from '../registry/resolvers.ts';
import { defineInterceptor } from '../chain/interceptor.ts';
import { defineTool } from '../tool/define-tool.ts';
import { createMcpHandler, type McpHandlerOptions } from './mcp-handler.ts';
import { MCP_PROTOCOL_VERSIONS } from './protocol.ts';

const URL_ = 'https://tools.example/mcp';
const writes: unknown[] = [];
const caller = contextKey<string>('caller');

const queryOrder = defineTool({
  name: 'query_order',
  description: 'Look up an order',
  input: v.object({ order_id: v.pipe(v.string(), v.regex(/^A-\d{4}$/, 'Order ids look like A-1001')) }),
  execute: ({ order_id }, ctx) => ({ order_id, status: 'shipped', askedBy: ctx.run.userId ?? 'nobody' }),
});
const refund = defineTool({
  name: 'refund',
  description: 'Refund an order',
  input: v.object({ order_id: v.string() }),
  policy: { effects: 'destructive' },
  execute: (input) => {
    writes.push(input);
    return 'refunded';
  },
});
const bigRefund = defineTool({
  name: 'maybe_refund',
  description: 'Refunds; large amounts need a human',
  input: v.object({ amount: v.number() }),
  policy: { effects: 'write', needsApproval: ({ amount }) => amount > 100 },
  execute: ({ amount }) => {
    writes.push({ amount });
    return `refunded ${amount}`;
  },
});
const pickDate = defineTool({ name: 'pick_date', description: 'The user picks a date', input: v.object({}), policy: { runsOn: 'client' } });
const boom = defineTool({
  name: 'boom',
  description: 'Fails',
  input: v.object({}),
  execute: (): string => {
    throw new Error('database unavailable');
  },
});
const scan = defineTool({
  name: 'scan',
  description: 'Scans in steps',
  input: v.object({ steps: v.number() }),
  execute: async ({ steps }, ctx) => {
    ctx.progress({ message: 'starting' });
    for (let i = 1; i <= steps; i++) {
      ctx.progress({ message: `step ${i}`, completed: i, total: steps });
      ctx.progress({ message: 'same count again', completed: i, total: steps });
      await new Promise((resolve) => setTimeout(resolve, 2)); // a reading client takes each report as it comes
    }
    return { steps };
  },
});
const tools = [queryOrder, refund, bigRefund, pickDate, boom, scan];

function handler(options: Partial<McpHandlerOptions> = {}) {
  return createMcpHandler({ tools, name: 'orders', version: '1.2.3', ...options });
}

let nextId = 1;
function rpc(method: string, params?: object, init: { headers?: Record<string, string>; id?: number | null } = {}): Request {
  const message = { jsonrpc: '2.0', ...(init.id === null ? {} : { id: init.id ?? nextId++ }), method, ...(params ? { params } : {}) };
  return new Request(URL_, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...init.headers },
    body: JSON.stringify(message),
  });
}

/**
 * The request as a page of `origin` sends it, with the browser's own headers (a browser's scripts cannot set `Origin`
 * or `Access-Control-Request-*` on a Request: they are put back).
 */
function fromOrigin(request: Request, origin: string, browserHeaders: Record<string, string> = {}): Request {
  const headers = new Headers(request.headers);
  headers.set('origin', origin);
  for (const [name, value] of Object.entries(browserHeaders)) headers.set(name, value);
  return Object.defineProperty(request, 'headers', { value: headers });
}

async function result(response: Response): Promise<Record<string, unknown>> {
  expect(response.headers.get('content-type')).toContain('application/json');
  const body = (await response.json()) as { result?: Record<string, unknown>; error?: unknown };
  expect(body.error).toBeUndefined();
  return body.result as Record<string, unknown>;
}

async function callTool(h: ReturnType<typeof handler>, name: string, args: unknown) {
  return (await result(await h(rpc('tools/call', { name, arguments: args }, { headers: { accept: 'application/json' } })))) as {
    content: { type: string; text: string }[];
    isError: boolean;
  };
}

describe('MCP handler: the protocol', () => {
  it('initialize: answers the client’s version when it speaks it, else its newest; names the server and its tools capability', async () => {
    const h = handler({ instructions: 'Order tools.' });
    expect(await result(await h(rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } })))).toEqual({
      protocolVersion: '2025-06-18',
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: 'orders', version: '1.2.3' },
      instructions: 'Order tools.',
    });
    const newer = await result(await h(rpc('initialize', { protocolVersion: '2099-01-01', capabilities: {} })));
    expect(newer.protocolVersion).toBe(MCP_PROTOCOL_VERSIONS[0]);
    expect(await result(await h(rpc('ping')))).toEqual({});
  });

  it('notifications and client responses are accepted with 202 and no body', async () => {
    const h = handler();
    const note = await h(rpc('notifications/initialized', undefined, { id: null }));
    expect(note.status).toBe(202);
    expect(await note.text()).toBe('');
    const response = new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 9, result: {} }) });
    expect((await h(response)).status).toBe(202);
  });

  it('refuses what is not one JSON-RPC request, with the right status and code', async () => {
    const h = handler();
    const post = (body: string, headers: Record<string, string> = {}) =>
      h(new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }));
    const parse = await post('{"jsonrpc":"2.0",');
    expect(parse.status).toBe(400);
    expect(await parse.json()).toMatchObject({ id: null, error: { code: -32700 } });
    for (const body of ['[]', '{"jsonrpc":"1.0","id":1,"method":"ping"}', '{"jsonrpc":"2.0","id":{},"method":"ping"}', '"ping"', '{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}']) {
      const answer = await post(body);
      expect(answer.status, body).toBe(400);
      expect(await answer.json()).toMatchObject({ error: { code: -32600 } });
    }
    expect(await (await h(rpc('resources/list'))).json()).toMatchObject({ error: { code: -32601, message: 'Method not found: resources/list' } });
    const get = await h(new Request(URL_, { method: 'GET' }));
    expect([get.status, get.headers.get('content-type')]).toEqual([405, 'application/json']);
    expect(await get.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method Not Allowed: GET; this endpoint takes POST.' } });
    expect((await h(new Request(URL_, { method: 'DELETE' }))).headers.get('allow')).toBe('POST');
    expect((await post('{}', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await handler({ maxBodyBytes: 10 })(rpc('ping'))).status).toBe(413);
    expect((await h(rpc('ping', undefined, { headers: { 'mcp-protocol-version': '1999-01-01' } }))).status).toBe(400);
    expect((await h(rpc('ping', undefined, { headers: { 'mcp-protocol-version': '2025-06-18' } }))).status).toBe(200);
  });
});

describe('MCP handler: refusals by the transport carry a JSON-RPC error, as the official SDKs send them', () => {
  const refusal = async (response: Response, status: number, message: string) => {
    expect([response.status, response.headers.get('content-type')]).toEqual([status, 'application/json']);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message } });
  };

  it('403 for a host or an origin, 415 for another content type, 413 for a body too large (declared or counted)', async () => {
    const h = handler({ allowedHosts: ['tools.example'], maxBodyBytes: 10 });
    await refusal(await handler({ allowedHosts: ['localhost:8787'] })(rpc('ping')), 403, 'Forbidden: host tools.example is not allowed.');
    await refusal(await h(fromOrigin(rpc('ping'), 'https://evil.example')), 403, 'Forbidden: origin https://evil.example is not allowed.');
    const typed = new Request(URL_, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    await refusal(await h(typed), 415, 'Unsupported Media Type: Content-Type must be application/json.');
    // The media type is compared whole (it was a prefix): another type that starts with application/json is refused too.
    for (const type of ['application/jsonx', 'application/json-seq', 'application/json5; charset=utf-8']) {
      const other = new Request(URL_, { method: 'POST', headers: { 'content-type': type }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
      await refusal(await handler()(other), 415, 'Unsupported Media Type: Content-Type must be application/json.');
    }
    for (const type of ['Application/JSON', 'application/json ; charset=UTF-8', 'application/json;charset=utf-8']) {
      const json = new Request(URL_, { method: 'POST', headers: { 'content-type': type }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
      expect((await handler()(json)).status).toBe(200);
    }
    await refusal(await h(rpc('ping')), 413, 'Payload Too Large: the body is over 10 bytes.');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping"}'));
        controller.close();
      },
    });
    const undeclared = new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit);
    expect(undeclared.headers.get('content-length')).toBeNull();
    await refusal(await h(undeclared), 413, 'Payload Too Large: the body is over 10 bytes.');
  });
});

describe('MCP handler: tools/list cursors', () => {
  it('a cursor the handler did not issue (it issues none: one page) gets -32602; none, or null, lists the tools', async () => {
    const h = handler();
    for (const cursor of ['abc', '', 2]) {
      const answer = await h(rpc('tools/list', { cursor }));
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32602, message: 'Invalid params: unknown cursor (this server lists every tool in one page).' },
      });
    }
    for (const params of [undefined, {}, { cursor: null }]) {
      const listed = (await (await h(rpc('tools/list', params))).json()) as { result: { tools: unknown[]; nextCursor?: string } };
      expect(listed.result.tools.length).toBeGreaterThan(0);
      expect(listed.result.nextCursor).toBeUndefined();
    }
  });
});

describe('MCP handler: request bodies', () => {
  it('maxBodyBytes counts bytes, not characters: a multi-byte body over the limit gets 413', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: '€'.repeat(900) } });
    expect(body.length).toBeLessThan(1000);
    expect(new TextEncoder().encode(body).byteLength).toBeGreaterThan(2700);
    const post = (maxBodyBytes: number) =>
      handler({ maxBodyBytes })(new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
    expect((await post(1000)).status).toBe(413);
    expect((await post(3000)).status).toBe(200);
  });

  it('a maxBodyBytes that is not a whole number from 1 is refused: a NaN (an unset variable read with Number) had no limit', () => {
    for (const bad of [Number.NaN, 0, -1, 1.5]) {
      expect(() => handler({ maxBodyBytes: bad })).toThrow(/^createMcpHandler: `maxBodyBytes` must be a whole number from 1/);
    }
    expect(() => handler({ maxBodyBytes: Number.POSITIVE_INFINITY })).not.toThrow();
  });

  it('a streamed body with no content-length is refused once past the limit, without reading the rest', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    let pulls = 0;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++;
        if (pulls > 800) controller.close(); // 50 MiB in all
        else controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' };
    const request = new Request(URL_, init as RequestInit);
    expect(request.headers.get('content-length')).toBeNull();
    const response = await handler({ maxBodyBytes: 256 * 1024 })(request);
    expect(response.status).toBe(413);
    // The limit is 4 chunks: the 5th passes it; a runtime may ask for a chunk or two ahead.
    expect(pulls).toBeLessThanOrEqual(8);
    await expect.poll(() => cancelled).toBe(true);
  });

  it('a body that breaks off (a client gone mid-upload) gets a 400 parse error, not a rejected handler (a Worker’s uncaught 500)', async () => {
    const start = new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"to');
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(start);
        controller.error(new TypeError('terminated'));
      },
    });
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' };
    const response = await handler()(new Request(URL_, init as RequestInit));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body could not be read.' } });
  });
});

describe('MCP handler: tools', () => {
  it('lists server tools with their JSON Schema and hints; client tools and tools that always need a human are left out', async () => {
    const listed = (await result(await handler()(rpc('tools/list')))) as { tools: { name: string; inputSchema: object; annotations: object }[] };
    expect(listed.tools.map((t) => t.name)).toEqual(['query_order', 'maybe_refund', 'boom', 'scan']);
    expect(listed.tools[0]).toEqual({
      name: 'query_order',
      description: 'Look up an order',
      inputSchema: queryOrder.jsonSchema,
      annotations: { readOnlyHint: true, destructiveHint: false },
    });
    const trusting = (await result(await handler({ approvals: 'client' })(rpc('tools/list')))) as { tools: { name: string; annotations: object }[] };
    expect(trusting.tools.find((t) => t.name === 'refund')?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
  });

  it('with approvals: client, a read that needs an approval is not listed as read-only (hosts run those unasked)', async () => {
    const read = { input: v.object({ id: v.string() }), execute: () => 'secret' };
    const listed = [
      queryOrder,
      defineTool({ name: 'read_salaries', description: 'Always asks', policy: { needsApproval: true }, ...read }),
      defineTool({ name: 'read_file', description: 'Asks outside /tmp', policy: { needsApproval: ({ id }) => !id.startsWith('/tmp') }, ...read }),
    ];
    const hints = async (approvals: 'client' | 'refuse') => {
      const answer = await handler({ tools: listed, approvals })(rpc('tools/list'));
      const { tools: listing } = (await result(answer)) as { tools: { name: string; annotations: object }[] };
      return Object.fromEntries(listing.map((t) => [t.name, t.annotations]));
    };
    const asks = { readOnlyHint: false, destructiveHint: false, idempotentHint: true };
    const readOnly = { readOnlyHint: true, destructiveHint: false };
    expect(await hints('client')).toEqual({ query_order: readOnly, read_salaries: asks, read_file: asks });
    // Refused here, the server itself answers a call that needs a human with an error: the read stays read-only.
    expect(await hints('refuse')).toEqual({ query_order: readOnly, read_file: readOnly });
  });

  it('a tool whose input schema has no JSON Schema form: tools/list names it and why, as an internal error', async () => {
    const when = defineTool({ name: 'book_slot', description: 'Books a slot', input: v.object({ at: v.date() }), execute: () => 'booked' });
    const body = (await (await handler({ tools: [queryOrder, when] })(rpc('tools/list'))).json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32603);
    expect(body.error.message).toMatch(/^Tool "book_slot" cannot be listed: Cannot derive a JSON Schema from the valibot "date" schema/);
  });

  it('a tool the request’s run may not see (policy.available) is neither listed nor callable, and does not run', async () => {
    const refunds: unknown[] = [];
    const staffRefund = defineTool({
      name: 'staff_refund',
      description: 'Refund an order (staff only)',
      input: v.object({ order_id: v.string() }),
      policy: { available: (run) => run.userId === 'staff' },
      execute: (input) => {
        refunds.push(input);
        return 'refunded';
      },
    });
    const h = handler({ tools: [queryOrder, staffRefund], run: (request) => createRunContext({ userId: request.headers.get('x-user') ?? undefined }) });
    const names = async (user: string) => ((await result(await h(rpc('tools/list', undefined, { headers: { 'x-user': user } })))).tools as { name: string }[]).map((t) => t.name);
    expect(await names('staff')).toEqual(['query_order', 'staff_refund']);
    expect(await names('guest')).toEqual(['query_order']);
    const asGuest = (await (await h(rpc('tools/call', { name: 'staff_refund', arguments: { order_id: 'A-1' } }, { headers: { 'x-user': 'guest' } }))).json()) as {
      error: { code: number; message: string };
    };
    expect(asGuest.error).toEqual({ code: -32602, message: 'Unknown tool: staff_refund' });
    expect(refunds).toEqual([]);
    const asStaff = await h(rpc('tools/call', { name: 'staff_refund', arguments: { order_id: 'A-1' } }, { headers: { accept: 'application/json', 'x-user': 'staff' } }));
    expect(await result(asStaff)).toEqual({ content: [{ type: 'text', text: 'refunded' }], isError: false });
    expect(refunds).toEqual([{ order_id: 'A-1' }]);
  });

  it('a check that never answers: tools/list leaves the tool out, tools/call refuses it as unknown after 10 s; onLateCheck hears of both', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const hung = defineTool({ name: 'hung', description: 'Never answers', input: v.object({}), policy: { available: () => new Promise<boolean>(() => {}) }, execute: () => 'ran' });
      const late: string[] = [];
      const h = handler({ tools: [queryOrder, hung], onLateCheck: (error, name) => late.push(`${name}: ${error.code}`) });
      const listed = h(rpc('tools/list'));
      // tools/call waited for the check forever (it asked it with no limit).
      const called = h(rpc('tools/call', { name: 'hung', arguments: {} }));
      await vi.advanceTimersByTimeAsync(10_000);
      expect(((await result(await listed)).tools as { name: string }[]).map((t) => t.name)).toEqual(['query_order']);
      expect(((await (await called).json()) as { error: unknown }).error).toEqual({ code: -32602, message: 'Unknown tool: hung' });
      expect(late).toEqual(['hung: timeout', 'hung: timeout']);
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
      vi.useRealTimers();
    }
  });

  it('the tools of a registry the request’s run may not see (createRegistry({ available })) are neither listed nor callable', async () => {
    const refunds: unknown[] = [];
    const staffRefund = defineTool({
      name: 'staff_refund',
      description: 'Refund an order (staff only)',
      input: v.object({ order_id: v.string() }),
      execute: (input) => {
        refunds.push(input);
        return 'refunded';
      },
    });
    const staffTools = createRegistry({ tools: [staffRefund], available: (run) => run.userId === 'staff' });
    const registry = createRegistry({ tools: [queryOrder], resolvers: [staffTools] });
    const h = handler({ tools: registry, run: (request) => createRunContext({ userId: request.headers.get('x-user') ?? undefined }) });
    const names = async (user: string) => ((await result(await h(rpc('tools/list', undefined, { headers: { 'x-user': user } })))).tools as { name: string }[]).map((t) => t.name);
    expect(await names('staff')).toEqual(['query_order', 'staff_refund']);
    expect(await names('guest')).toEqual(['query_order']);
    const asGuest = (await (await h(rpc('tools/call', { name: 'staff_refund', arguments: { order_id: 'A-1' } }, { headers: { 'x-user': 'guest' } }))).json()) as {
      error: { code: number; message: string };
    };
    expect(asGuest.error).toEqual({ code: -32602, message: 'Unknown tool: staff_refund' });
    // Served by an executor (its chain applies), the executor refuses it too.
    const viaExecutor = handler({ tools: createExecutor({ registry }), run: () => createRunContext({ userId: 'guest' }) });
    expect((await (await viaExecutor(rpc('tools/call', { name: 'staff_refund', arguments: { order_id: 'A-1' } }))).json()) as object).toMatchObject({
      error: { code: -32602, message: 'Unknown tool: staff_refund' },
    });
    expect(refunds).toEqual([]);
    const asStaff = await h(rpc('tools/call', { name: 'staff_refund', arguments: { order_id: 'A-1' } }, { headers: { accept: 'application/json', 'x-user': 'staff' } }));
    expect(await result(asStaff)).toEqual({ content: [{ type: 'text', text: 'refunded' }], isError: false });
    expect(refunds).toEqual([{ order_id: 'A-1' }]);
  });

  it('a call runs through the executor and answers with the text the model reads', async () => {
    const h = handler({ run: (request) => createRunContext({ userId: request.headers.get('x-user') ?? undefined }) });
    const answer = await h(rpc('tools/call', { name: 'query_order', arguments: { order_id: 'A-1001' } }, { headers: { accept: 'application/json', 'x-user': 'ada' } }));
    expect(await result(answer)).toEqual({ content: [{ type: 'text', text: '{"order_id":"A-1001","status":"shipped","askedBy":"ada"}' }], isError: false });
  });

  it('failures are tool errors the model can act on: invalid arguments with their paths, a throw, bad JSON in a string', async () => {
    const h = handler();
    const invalid = await callTool(h, 'query_order', { order_id: 'nope' });
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0]?.text).toMatch(/^Error \(invalid-input\): Invalid arguments for "query_order"\.\n- order_id: Order ids look like A-1001/);
    expect(await callTool(h, 'boom', {})).toEqual({ content: [{ type: 'text', text: 'Error (execution-failed): database unavailable' }], isError: true });
    expect((await callTool(h, 'query_order', '{"order_id":')).content[0]?.text).toMatch(/^Error \(invalid-json\)/);
  });

  it("an executor with toolErrorMessage: 'hide-unexpected' answers a throw with the hidden text; a ToolError and invalid arguments as they are", async () => {
    const down = defineTool({
      name: 'down',
      description: 'Fails on purpose',
      input: v.object({}),
      execute: (): string => {
        throw new ToolError('execution-failed', 'The order service is down; try again in a minute.');
      },
    });
    const h = handler({ tools: createExecutor({ registry: [...tools, down], toolErrorMessage: 'hide-unexpected' }) });
    const hidden = await callTool(h, 'boom', {});
    expect(hidden.isError).toBe(true);
    expect(hidden.content[0]?.text).toMatch(/^Error \(execution-failed\): The tool failed unexpectedly \(reference mcp-[0-9a-f-]{36}\)\.$/);
    expect(JSON.stringify(hidden)).not.toContain('database unavailable');
    expect(await callTool(h, 'down', {})).toEqual({ content: [{ type: 'text', text: 'Error (execution-failed): The order service is down; try again in a minute.' }], isError: true });
    expect((await callTool(h, 'query_order', { order_id: 'nope' })).content[0]?.text).toMatch(/^Error \(invalid-input\): Invalid arguments for "query_order"\.\n- order_id: /);
  });

  it('arguments with a key that could change an object’s prototype are refused as invalid-json, as the chat loop refuses them', async () => {
    const h = handler();
    const before = writes.length;
    // JSON.stringify keeps an own __proto__ key, so the request body carries it as a client would send it.
    const args = JSON.parse('{"order_id":"A-1001","__proto__":{"isAdmin":true}}') as unknown;
    const refused = await callTool(h, 'query_order', args);
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toMatch(/^Error \(invalid-json\): The arguments for "query_order" have a key that could change an object’s prototype: __proto__\./);
    const nested = await callTool(h, 'maybe_refund', JSON.parse('{"amount":1,"meta":{"constructor":{"prototype":{"isAdmin":true}}}}'));
    expect(nested.content[0]?.text).toMatch(/prototype: meta\.constructor\.prototype\./);
    expect(writes).toHaveLength(before);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('an unknown tool, a client tool or a hidden one is a protocol error, and nothing runs', async () => {
    const h = handler();
    for (const name of ['drop_tables', 'pick_date', 'refund', '__proto__']) {
      const body = (await (await h(rpc('tools/call', { name, arguments: {} }))).json()) as { error: { code: number; message: string } };
      expect(body.error).toEqual({ code: -32602, message: `Unknown tool: ${name}` });
    }
    expect(await (await h(rpc('tools/call', { arguments: {} }))).json()).toMatchObject({ error: { code: -32602 } });
    expect(writes).toEqual([]);
  });

  it('approvals: refused by default (nothing runs); with approvals: "client" the MCP host’s confirmation counts', async () => {
    writes.length = 0;
    const refusing = handler();
    expect(await callTool(refusing, 'maybe_refund', { amount: 20 })).toEqual({ content: [{ type: 'text', text: 'refunded 20' }], isError: false });
    const large = await callTool(refusing, 'maybe_refund', { amount: 500 });
    expect(large.isError).toBe(true);
    expect(large.content[0]?.text).toBe('Tool "maybe_refund" needs a human approval, which this server cannot ask for over MCP. Nothing ran.');
    expect(writes).toEqual([{ amount: 20 }]);
    const trusting = handler({ approvals: 'client' });
    expect(await callTool(trusting, 'maybe_refund', { amount: 500 })).toMatchObject({ isError: false });
    expect(await callTool(trusting, 'refund', { order_id: 'A-1' })).toMatchObject({ isError: false });
    expect(writes).toEqual([{ amount: 20 }, { amount: 500 }, { order_id: 'A-1' }]);
  });

  it('an executor’s chain applies: its interceptors see the call and the run', async () => {
    const seen: string[] = [];
    const audit = defineInterceptor('audit', async (ctx, next) => {
      seen.push(`${ctx.tool.name}:${ctx.run.get(caller)}`);
      return next();
    });
    const executor = createExecutor({ registry: tools, interceptors: [audit] });
    const h = handler({
      tools: executor,
      run: () => {
        const run = createRunContext();
        run.set(caller, 'mcp');
        return run;
      },
    });
    expect((await callTool(h, 'query_order', { order_id: 'A-1002' })).isError).toBe(false);
    expect(seen).toEqual(['query_order:mcp']);
  });
});

describe('MCP handler: tokens a tool reports', () => {
  it('stay on the server: MCP has no field for them, so the result carries none; the executor’s onTrace sees them', async () => {
    const summarise = defineTool({
      name: 'summarise',
      description: 'Summarises with a model',
      input: v.object({}),
      execute: (_input, ctx) => {
        ctx.reportUsage({ inputTokens: 400, outputTokens: 60 });
        return 'short';
      },
    });
    const traced: unknown[] = [];
    const h = handler({ tools: createExecutor({ registry: [summarise], onTrace: (record) => traced.push(record.usage) }) });
    const response = await h(rpc('tools/call', { name: 'summarise', arguments: {} }, { headers: { accept: 'application/json' } }));
    expect(await result(response)).toEqual({ content: [{ type: 'text', text: 'short' }], isError: false });
    expect(traced).toEqual([{ inputTokens: 400, outputTokens: 60 }]);
  });
});

describe('MCP handler: progress', () => {
  /** Reads an SSE body into its JSON-RPC messages. */
  async function events(response: Response): Promise<Record<string, unknown>[]> {
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text();
    return text
      .split('\n\n')
      .filter(Boolean)
      .map((event) => {
        const [kind, data] = event.split('\n');
        expect(kind).toBe('event: message');
        return JSON.parse((data ?? '').slice('data: '.length)) as Record<string, unknown>;
      });
  }

  it('streams notifications/progress (always growing), then the result; a message-only “starting” is 0, so “step 1 of 3” keeps 1', async () => {
    const messages = await events(await handler()(rpc('tools/call', { name: 'scan', arguments: { steps: 3 }, _meta: { progressToken: 'tok-1' } }, { id: 42 })));
    const notes = messages.slice(0, -1);
    // “same count again” (a count that does not grow) is still skipped.
    expect(notes.map((m) => m.params)).toEqual([
      { progressToken: 'tok-1', progress: 0, message: 'starting' },
      { progressToken: 'tok-1', progress: 1, total: 3, message: 'step 1' },
      { progressToken: 'tok-1', progress: 2, total: 3, message: 'step 2' },
      { progressToken: 'tok-1', progress: 3, total: 3, message: 'step 3' },
    ]);
    expect(notes.every((m) => m.method === 'notifications/progress' && m.jsonrpc === '2.0' && !('id' in m))).toBe(true);
    expect(messages.at(-1)).toEqual({ jsonrpc: '2.0', id: 42, result: { content: [{ type: 'text', text: '{"steps":3}' }], isError: false } });
  });

  it('a counting tool’s first report at 0 (“queued, 0 of 2”) is sent: MCP asks only that each one grows', async () => {
    const count = defineTool({
      name: 'count',
      description: 'Counts from 0',
      input: v.object({}),
      execute: async (_input, ctx) => {
        for (let i = 0; i <= 2; i++) {
          ctx.progress({ message: i === 0 ? 'queued' : `item ${i}`, completed: i, total: 2 });
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        return 'counted';
      },
    });
    const h = createMcpHandler({ tools: [count], name: 'c', version: '1' });
    const messages = await events(await h(rpc('tools/call', { name: 'count', arguments: {}, _meta: { progressToken: 't' } })));
    expect(messages.slice(0, -1).map((m) => m.params)).toEqual([
      { progressToken: 't', progress: 0, total: 2, message: 'queued' },
      { progressToken: 't', progress: 1, total: 2, message: 'item 1' },
      { progressToken: 't', progress: 2, total: 2, message: 'item 2' },
    ]);
  });

  it('message-only reports take numbers between the last count and the next whole one, so every count that grows still goes', async () => {
    const reports = [
      { message: 'connecting' },
      { message: 'connected' },
      { message: 'page 1 of 2', completed: 1, total: 2 },
      { message: 'parsing' },
      { message: 'checking' },
      { message: 'page 2 of 2', completed: 2, total: 2 },
      { message: 'done' },
    ];
    const talk = defineTool({
      name: 'talk',
      description: 'Talks between counts',
      input: v.object({}),
      execute: async (_input, ctx) => {
        for (const report of reports) {
          ctx.progress(report);
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        return 'done';
      },
    });
    const h = createMcpHandler({ tools: [talk], name: 't', version: '1' });
    const notes = (await events(await h(rpc('tools/call', { name: 'talk', arguments: {}, _meta: { progressToken: 't' } })))).slice(0, -1);
    const sent = notes.map((m) => m.params as { progress: number; message: string });
    expect(sent.map((p) => p.message)).toEqual(reports.map((r) => r.message));
    expect(sent.map((p) => p.progress)).toEqual([0, 1 / 2, 1, 1 + 1 / 2, 1 + 2 / 3, 2, 2 + 1 / 2]);
  });

  it('without a token, or when the client does not accept SSE, the answer is plain JSON', async () => {
    const h = handler();
    expect(await result(await h(rpc('tools/call', { name: 'scan', arguments: { steps: 2 } })))).toMatchObject({ isError: false });
    const noSse = await h(rpc('tools/call', { name: 'scan', arguments: { steps: 2 }, _meta: { progressToken: 7 } }, { headers: { accept: 'application/json' } }));
    expect(await result(noSse)).toMatchObject({ isError: false });
  });

  it('reads Accept as media ranges: a type that only starts with text/event-stream, or one of weight 0, is no SSE', async () => {
    const h = handler();
    const typeOf = async (accept: string) => {
      const response = await h(rpc('tools/call', { name: 'scan', arguments: { steps: 1 }, _meta: { progressToken: 7 } }, { headers: { accept } }));
      await response.body?.cancel();
      return response.headers.get('content-type');
    };
    expect(await typeOf('application/json, text/event-streamy')).toBe('application/json');
    expect(await typeOf('application/json, text/event-stream-x;q=1')).toBe('application/json');
    expect(await typeOf('text/event-stream;q=0, application/json')).toBe('application/json');
    expect(await typeOf('application/json, text/event-stream ; Q = 0.000')).toBe('application/json');
    expect(await typeOf('application/json, */*')).toBe('application/json'); // a wildcard: JSON, as before
    expect(await typeOf('application/json,TEXT/Event-Stream; q=0.5')).toBe('text/event-stream');
    expect(await typeOf('text/event-stream;charset=utf-8')).toBe('text/event-stream');
  });
});

describe('MCP handler: structured results', () => {
  const quote = defineTool({
    name: 'quote',
    description: 'Quotes an order',
    input: v.object({ qty: v.number() }),
    output: v.object({ total: v.number(), currency: v.string() }),
    execute: ({ qty }) => ({ total: qty * 3, currency: 'EUR' }),
  });
  const greet = defineTool({ name: 'greet', description: 'Greets', input: v.object({}), output: v.string(), execute: () => 'hello' });

  it('a tool with an object output schema lists it as outputSchema and answers with structuredContent too', async () => {
    const h = handler({ tools: [quote, greet] });
    const { tools: listed } = (await result(await h(rpc('tools/list')))) as { tools: { name: string; outputSchema?: object }[] };
    expect(listed.find((t) => t.name === 'quote')?.outputSchema).toEqual({
      type: 'object',
      properties: { total: { type: 'number' }, currency: { type: 'string' } },
      required: ['total', 'currency'],
    });
    expect(listed.find((t) => t.name === 'greet')).not.toHaveProperty('outputSchema');
    expect(await result(await h(rpc('tools/call', { name: 'quote', arguments: { qty: 2 } })))).toEqual({
      content: [{ type: 'text', text: '{"total":6,"currency":"EUR"}' }],
      structuredContent: { total: 6, currency: 'EUR' },
      isError: false,
    });
    expect(await result(await h(rpc('tools/call', { name: 'greet', arguments: {} })))).toEqual({ content: [{ type: 'text', text: 'hello' }], isError: false });
    const failed = await result(await h(rpc('tools/call', { name: 'quote', arguments: { qty: 'two' } })));
    expect(failed).not.toHaveProperty('structuredContent');
  });

  it('an output that matches its schema but not in JSON (Infinity is null there) is an invalid-output error, not a structuredContent that breaks the schema', async () => {
    // A division by zero: valibot's number() takes Infinity, and JSON writes it as null, which the listed schema refuses.
    const ratio = defineTool({
      name: 'ratio',
      description: 'Divides',
      input: v.object({ a: v.number(), b: v.number() }),
      output: v.object({ ratio: v.number(), notes: v.array(v.optional(v.string())) }),
      execute: ({ a, b }) => ({ ratio: a / b, notes: b === 0 ? ['by zero', undefined] : [] }),
    });
    const h = handler({ tools: [ratio] });
    expect(await result(await h(rpc('tools/call', { name: 'ratio', arguments: { a: 1, b: 4 } })))).toEqual({
      content: [{ type: 'text', text: '{"ratio":0.25,"notes":[]}' }],
      structuredContent: { ratio: 0.25, notes: [] },
      isError: false,
    });
    for (const streamed of [false, true]) {
      const params = { name: 'ratio', arguments: { a: 1, b: 0 }, ...(streamed ? { _meta: { progressToken: 'p' } } : {}) };
      const answer = await h(rpc('tools/call', params));
      const body = streamed ? (JSON.parse((await answer.text()).split('data: ').at(-1) ?? '') as { result: unknown }).result : await result(answer);
      expect(body).toEqual({
        content: [
          {
            type: 'text',
            text:
              'Error (invalid-output): The result of "ratio" does not match its output schema once written as JSON (which writes Infinity as null).\n' +
              '- ratio: Invalid type: Expected number but received null\n' +
              '- notes[1]: Invalid type: Expected string but received null\n' +
              "These issues are in the tool's result, not in your arguments.",
          },
        ],
        isError: true,
      });
    }
  });
});

describe('MCP handler: slow clients and throwing registries', () => {
  it('a client that does not read gets the first report, then only the latest one before the result', async () => {
    let finished: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const busy = defineTool({
      name: 'busy',
      description: 'Reports a thousand times',
      input: v.object({}),
      execute: async (_input, ctx) => {
        for (let i = 1; i <= 1000; i++) {
          ctx.progress({ completed: i, total: 1000 });
          await Promise.resolve();
        }
        finished();
        return 'done';
      },
    });
    const h = createMcpHandler({ tools: [busy], name: 't', version: '1' });
    const response = await h(rpc('tools/call', { name: 'busy', arguments: {}, _meta: { progressToken: 'b' } }));
    await done;
    const messages = (await response.text())
      .split('\n\n')
      .filter(Boolean)
      .map((event) => JSON.parse(event.slice(event.indexOf('data: ') + 6)) as { params?: { progress: number }; result?: unknown });
    expect(messages.map((m) => m.params?.progress ?? 'result')).toEqual([1, 1000, 'result']);
  });

  it('an allowed browser origin gets its preflight answered and can read every answer (a browser could not call at all)', async () => {
    const h = handler({ allowedOrigins: ['https://app.example'] });
    const preflight = await h(
      fromOrigin(new Request(URL_, { method: 'OPTIONS' }), 'https://app.example', {
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,mcp-protocol-version',
      }),
    );
    expect(preflight.status).toBe(204);
    expect(Object.fromEntries(preflight.headers)).toMatchObject({
      'access-control-allow-origin': 'https://app.example',
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'content-type,mcp-protocol-version',
      vary: 'Origin',
    });
    const listed = await h(fromOrigin(rpc('tools/list'), 'https://app.example'));
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(((await listed.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
    const streamed = await h(fromOrigin(rpc('tools/call', { name: 'scan', arguments: { steps: 1 }, _meta: { progressToken: 1 } }), 'https://app.example'));
    expect(streamed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    await streamed.text();
    // Another origin: no preflight answer, a 403, and nothing that lets its page read; the same origin needs no CORS.
    const other = await h(fromOrigin(new Request(URL_, { method: 'OPTIONS' }), 'https://evil.example', { 'access-control-request-method': 'POST' }));
    expect([other.status, other.headers.get('access-control-allow-origin')]).toEqual([405, null]);
    const refused = await h(fromOrigin(rpc('tools/list'), 'https://evil.example'));
    expect([refused.status, refused.headers.get('access-control-allow-origin')]).toEqual([403, null]);
    const same = await h(fromOrigin(rpc('tools/list'), 'https://tools.example'));
    expect([same.status, same.headers.get('access-control-allow-origin')]).toEqual([200, null]);
  });

  it('a run() that throws: an internal error without details, not a rejection', async () => {
    const failingRun = handler({
      run: () => {
        throw new Error('secret database password in this message');
      },
    });
    const body = await (await failingRun(rpc('tools/call', { name: 'query_order', arguments: { order_id: 'A-1001' } }))).json();
    expect(body).toMatchObject({ error: { code: -32603, message: 'Internal error: the server could not answer this request.' } });
  });

  it('a lazy tool that fails to load is left out of tools/list, and its call fails alone with the load error (the list failed)', async () => {
    let fail = true;
    const failures: string[] = [];
    const broken = defineTool({ name: 'broken', description: 'Loads on first use', input: v.object({}), execute: () => 'loaded at last' });
    const loader = () => (fail ? Promise.reject(new Error('chunk load failed')) : Promise.resolve(broken));
    const registry = createRegistry({ tools: [queryOrder], resolvers: [lazyResolver({ broken: loader })], onLoadError: (_error, name) => failures.push(name) });
    const h = handler({ tools: registry });
    const listed = (await result(await h(rpc('tools/list')))) as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name)).toEqual(['query_order']);
    expect(failures).toEqual(['broken']);
    expect(await callTool(h, 'broken', {})).toEqual({ content: [{ type: 'text', text: 'Error (execution-failed): chunk load failed' }], isError: true });
    expect((await callTool(h, 'query_order', { order_id: 'A-1001' })).isError).toBe(false);
    fail = false;
    expect(((await result(await h(rpc('tools/list')))) as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(['query_order', 'broken']);
    expect((await callTool(h, 'broken', {})).content).toEqual([{ type: 'text', text: 'loaded at last' }]);
  });

  it('a registry whose onError throws: the call answers with a JSON-RPC internal error, streamed or not', async () => {
    const throwing = createExecutor({ registry: createRegistry({ tools: [boom], onError: 'throw' }) });
    const h = handler({ tools: throwing });
    const plain = (await (await h(rpc('tools/call', { name: 'boom', arguments: {} }, { headers: { accept: 'application/json' } }))).json()) as { error: object };
    expect(plain.error).toEqual({ code: -32603, message: 'Tool "boom" failed: database unavailable' });
    const streamed = await (await h(rpc('tools/call', { name: 'boom', arguments: {}, _meta: { progressToken: 1 } }))).text();
    expect(streamed).toContain('"error":{"code":-32603,"message":"Tool \\"boom\\" failed: database unavailable"}');
  });

  it("a registry whose onError throws, with toolErrorMessage: 'hide-unexpected': the internal error says only what the model would read", async () => {
    const h = handler({ tools: createExecutor({ registry: createRegistry({ tools: [boom], onError: 'throw' }), toolErrorMessage: 'hide-unexpected' }) });
    const plain = (await (await h(rpc('tools/call', { name: 'boom', arguments: {} }, { headers: { accept: 'application/json' } }))).json()) as { error: { message: string } };
    expect(plain.error.message).toMatch(/^Tool "boom" failed: The tool failed unexpectedly \(reference mcp-[0-9a-f-]{36}\)\.$/);
    const streamed = await (await h(rpc('tools/call', { name: 'boom', arguments: {}, _meta: { progressToken: 1 } }))).text();
    expect(streamed).toContain('The tool failed unexpectedly');
    expect(streamed).not.toContain('database unavailable');
  });
});

describe('MCP handler: cancellation', () => {
  /** A tool that runs until its signal aborts (it then returns), or until `finish()`; `started` settles when it runs. */
  function waiting() {
    const reasons: unknown[] = [];
    let finish: (value: string) => void = () => {};
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const tool = defineTool({
      name: 'wait',
      description: 'Waits',
      input: v.object({}),
      execute: async (_input, ctx) => {
        ctx.progress({ message: 'waiting' });
        started();
        return new Promise<string>((resolve) => {
          finish = resolve;
          ctx.signal.addEventListener('abort', () => {
            reasons.push(ctx.signal.reason);
            resolve('stopped');
          });
        });
      },
    });
    return { tool, reasons, running, finish: (value: string) => finish(value) };
  }

  const cancel = (session: string | undefined, requestId: unknown) =>
    rpc('notifications/cancelled', { requestId, reason: 'The user pressed stop.' }, { id: null, headers: session === undefined ? {} : { 'mcp-session-id': session } });

  async function sessionOf(h: ReturnType<typeof handler>): Promise<string> {
    const answer = await h(rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }));
    const session = answer.headers.get('mcp-session-id');
    expect(session).toMatch(/^[\x21-\x7e]{32,}$/);
    return session as string;
  }

  it('initialize gives each client its own session id (no state is kept: any request may carry it or none)', async () => {
    const h = handler();
    const [a, b] = [await sessionOf(h), await sessionOf(h)];
    expect(a).not.toBe(b);
    expect((await h(rpc('ping', undefined, { headers: { 'mcp-session-id': 'never-given' } }))).status).toBe(200);
    expect((await h(rpc('ping'))).status).toBe(200);
  });

  it('the same session’s notifications/cancelled aborts the call’s signal, and the POST ends with no response (an empty event stream)', async () => {
    const { tool, reasons, running } = waiting();
    const h = handler({ tools: [tool] });
    const session = await sessionOf(h);
    const call = h(rpc('tools/call', { name: 'wait', arguments: {} }, { id: 7, headers: { accept: 'application/json, text/event-stream', 'mcp-session-id': session } }));
    await running;
    const accepted = await h(cancel(session, 7));
    expect([accepted.status, await accepted.text()]).toEqual([202, '']);
    const answer = await call;
    expect([answer.status, answer.headers.get('content-type'), await answer.text()]).toEqual([200, 'text/event-stream', '']);
    expect(reasons).toHaveLength(1);
    expect(String((reasons[0] as Error).message)).toBe('The user pressed stop.');
  });

  it('a streamed call (progressToken) that is cancelled keeps the progress it sent and ends its stream without the answer', async () => {
    const { tool, running } = waiting();
    const h = handler({ tools: [tool] });
    const session = await sessionOf(h);
    const headers = { 'mcp-session-id': session };
    const answer = await h(rpc('tools/call', { name: 'wait', arguments: {}, _meta: { progressToken: 'p' } }, { id: 'call-1' as unknown as number, headers }));
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    await running;
    expect((await h(cancel(session, 'call-1'))).status).toBe(202);
    const text = await answer.text();
    expect(text).toContain('"method":"notifications/progress"');
    expect(text).not.toContain('"result"');
  });

  it('a client that leaves a streamed call (its stream cancelled) aborts the tool, even where request.signal never fires', async () => {
    const { tool, reasons, running } = waiting();
    const h = handler({ tools: [tool] });
    // No session, and a request whose signal never aborts: a Worker's, without the enable_request_signal flag.
    const answer = await h(rpc('tools/call', { name: 'wait', arguments: {}, _meta: { progressToken: 'p' } }));
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    await running;
    await answer.body?.cancel();
    await expect.poll(() => reasons.length).toBe(1);
    expect(String((reasons[0] as Error).message)).toBe('The MCP client closed the stream of its call.');
  });

  it('a cancel that comes while the call’s run() is made (or its tool loads) stops it before the tool runs: no response', async () => {
    let ran = false;
    const tool = defineTool({
      name: 'delete_draft',
      description: 'Deletes a draft',
      input: v.object({}),
      policy: { effects: 'write' },
      execute: () => {
        ran = true;
        return 'deleted';
      },
    });
    let ready: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      ready = resolve;
    });
    let asked: () => void = () => {};
    const runAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const h = handler({
      tools: [tool],
      run: async () => {
        asked();
        await gate; // a session lookup, a database
        return createRunContext();
      },
    });
    const session = await sessionOf(h);
    const call = h(rpc('tools/call', { name: 'delete_draft', arguments: {} }, { id: 12, headers: { accept: 'application/json', 'mcp-session-id': session } }));
    await runAsked;
    expect((await h(cancel(session, 12))).status).toBe(202);
    ready();
    const answer = await call;
    expect([answer.status, answer.headers.get('content-type'), await answer.text()]).toEqual([200, 'text/event-stream', '']);
    expect(ran).toBe(false);
  });

  it('a cancel from another session, from no session, or naming another id cancels nothing; finished and unknown ids are ignored', async () => {
    const { tool, reasons, running, finish } = waiting();
    const h = handler({ tools: [tool] });
    const [mine, theirs] = [await sessionOf(h), await sessionOf(h)];
    const call = h(rpc('tools/call', { name: 'wait', arguments: {} }, { id: 9, headers: { accept: 'application/json', 'mcp-session-id': mine } }));
    await running;
    for (const request of [cancel(theirs, 9), cancel(undefined, 9), cancel(mine, '9'), cancel(mine, 10), cancel(mine, undefined)]) {
      expect((await h(request)).status).toBe(202);
    }
    expect(reasons).toEqual([]);
    finish('done');
    expect(await result(await call)).toEqual({ content: [{ type: 'text', text: 'done' }], isError: false });
    // Finished: a late cancel changes nothing, and the same id can be used again.
    expect((await h(cancel(mine, 9))).status).toBe(202);
    expect(reasons).toEqual([]);
  });

  it('a cancel whose requestId is no JSON-RPC id (a list nested 200,000 deep, an object) is ignored, alone or in a batch: it threw on Node', async () => {
    const { tool, reasons, running, finish } = waiting();
    const h = handler({ tools: [tool] });
    const session = await sessionOf(h);
    const call = h(rpc('tools/call', { name: 'wait', arguments: {} }, { id: 13, headers: { accept: 'application/json', 'mcp-session-id': session } }));
    await running;
    // Written by hand: Node's JSON.stringify cannot write a list this deep, and the handler wrote it out to find the call.
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const notification = `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${deep}}}`;
    const headers = { 'content-type': 'application/json', 'mcp-session-id': session };
    for (const body of [notification, `[${notification}]`]) {
      expect((await h(new Request(URL_, { method: 'POST', headers, body }))).status).toBe(202);
    }
    expect((await h(cancel(session, { id: 13 }))).status).toBe(202);
    expect(reasons).toEqual([]);
    finish('done');
    expect((await result(await call)).isError).toBe(false);
  });

  it('a page of an allowed origin can read its session id (CORS exposes the header), so its cancellations work too', async () => {
    const h = handler({ allowedOrigins: ['https://app.example'] });
    const answer = await h(fromOrigin(rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {} }), 'https://app.example'));
    expect(answer.headers.get('mcp-session-id')).not.toBeNull();
    expect(answer.headers.get('access-control-expose-headers')).toBe('mcp-session-id');
  });

  it('a call made without a session cannot be cancelled by a notification (nobody can tell whose it is)', async () => {
    const { tool, reasons, running, finish } = waiting();
    const h = handler({ tools: [tool] });
    const call = h(rpc('tools/call', { name: 'wait', arguments: {} }, { id: 11, headers: { accept: 'application/json' } }));
    await running;
    expect((await h(cancel(undefined, 11))).status).toBe(202);
    expect(reasons).toEqual([]);
    finish('done');
    expect((await result(await call)).isError).toBe(false);
  });
});

describe('MCP handler: JSON-RPC batches (MCP 2025-03-26 only)', () => {
  const post = (h: ReturnType<typeof handler>, messages: unknown, headers: Record<string, string> = {}) =>
    h(new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(messages) }));

  it('a 2025-03-26 client (or one that sends no MCP-Protocol-Version) gets one answer per request, in one JSON array', async () => {
    const h = handler();
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'two', method: 'tools/call', params: { name: 'query_order', arguments: { order_id: 'A-1001' } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'scan', arguments: { steps: 1 }, _meta: { progressToken: 'p' } } },
      { jsonrpc: '2.0', id: 4, method: 'resources/list' },
    ];
    for (const headers of [{}, { 'mcp-protocol-version': '2025-03-26' }]) {
      const answer = await post(h, batch, headers);
      expect([answer.status, answer.headers.get('content-type')]).toEqual([200, 'application/json']);
      // The notification is not answered; a call's progress is not sent in a batch, only its result.
      expect(await answer.json()).toEqual([
        { jsonrpc: '2.0', id: 1, result: {} },
        { jsonrpc: '2.0', id: 'two', result: { content: [{ type: 'text', text: '{"order_id":"A-1001","status":"shipped","askedBy":"nobody"}' }], isError: false } },
        { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: '{"steps":1}' }], isError: false } },
        { jsonrpc: '2.0', id: 4, error: { code: -32601, message: 'Method not found: resources/list' } },
      ]);
    }
  });

  it('an invalid member gets its own error; initialize may not be batched; notifications (and client responses) alone get 202', async () => {
    const h = handler();
    const mixed = await post(h, [1, { jsonrpc: '2.0', id: 5, method: 'initialize', params: { protocolVersion: '2025-03-26' } }, { jsonrpc: '2.0', id: 6, method: 'ping' }]);
    expect(await mixed.json()).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request: not a JSON-RPC 2.0 request.' } },
      { jsonrpc: '2.0', id: 5, error: { code: -32600, message: 'Invalid request: initialize must not be part of a JSON-RPC batch.' } },
      { jsonrpc: '2.0', id: 6, result: {} },
    ]);
    const quiet = await post(h, [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 9, result: {} }]);
    expect([quiet.status, await quiet.text()]).toEqual([202, '']);
  });

  it('an empty batch, one of more than 32 messages, or a batch at 2025-06-18 or later is refused with a 400 that says why', async () => {
    const h = handler();
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    for (const [messages, headers, message] of [
      [[], {}, 'Invalid request: a batch holds 1 to 32 messages.'],
      [Array.from({ length: 33 }, (_, i) => ({ ...ping, id: i })), {}, 'Invalid request: a batch holds 1 to 32 messages.'],
      [[ping], { 'mcp-protocol-version': '2025-06-18' }, 'Invalid request: JSON-RPC batches are not supported in MCP 2025-06-18 (only in 2025-03-26).'],
      [[ping], { 'mcp-protocol-version': '2025-11-25' }, 'Invalid request: JSON-RPC batches are not supported in MCP 2025-11-25 (only in 2025-03-26).'],
    ] as const) {
      const answer = await post(h, messages, headers);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message } });
    }
    expect((await post(h, Array.from({ length: 32 }, (_, i) => ({ ...ping, id: i })))).status).toBe(200);
  });

  it('a cancellation in a batch reaches its session’s running call', async () => {
    const reasons: unknown[] = [];
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const wait = defineTool({
      name: 'wait',
      description: 'Waits',
      input: v.object({}),
      execute: (_input, ctx) =>
        new Promise<string>((resolve) => {
          started();
          ctx.signal.addEventListener('abort', () => {
            reasons.push(ctx.signal.reason);
            resolve('stopped');
          });
        }),
    });
    const h = handler({ tools: [wait] });
    const headers = { 'mcp-session-id': 's-1', 'mcp-protocol-version': '2025-03-26' };
    const call = post(h, [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wait', arguments: {} } }], headers);
    await running;
    const cancel = await post(h, [{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }], headers);
    expect(cancel.status).toBe(202);
    // No response for the cancelled call: nothing is left to answer, so the POST ends as an empty event stream.
    const answer = await call;
    expect([answer.headers.get('content-type'), await answer.text()]).toEqual(['text/event-stream', '']);
    expect(reasons).toHaveLength(1);
  });
});
