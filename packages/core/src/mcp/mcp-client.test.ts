// The MCP client on Node, workerd and Chromium: against edgetool's own handler in the same process (its `fetch`
// option), and against scripted servers for what the handler never does (sessions, server requests, broken answers).
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import type { ToolProgressEvent } from '../chain/types.ts';
import { createRunContext } from '../context/index.ts';
import { ToolError } from '../errors/tool-error.ts';
import { createExecutor } from '../executor/executor.ts';
import { settle, watchUnhandledRejections } from '../test-support/arbitraries.ts';
import { defineTool } from '../tool/define-tool.ts';
import { documentPart, imagePart } from '../tool/model-content.ts';
import { connectMcp, contentParts, contentText, McpError, McpTimeoutError } from './mcp-client.ts';
import { createMcpHandler } from './mcp-handler.ts';

const URL_ = 'https://orders.example/mcp';
const writes: unknown[] = [];
const seen: { signal?: AbortSignal } = {};

const remoteTools = [
  defineTool({
    name: 'query_order',
    description: 'Look up an order',
    input: v.object({ order_id: v.pipe(v.string(), v.regex(/^A-\d{4}$/)) }),
    execute: ({ order_id }, ctx) => ({ order_id, status: 'shipped', askedBy: ctx.run.userId ?? 'nobody' }),
  }),
  defineTool({
    name: 'refund',
    description: 'Refund an order',
    input: v.object({ order_id: v.string() }),
    policy: { effects: 'destructive' },
    execute: (input) => {
      writes.push(input);
      return 'refunded';
    },
  }),
  defineTool({
    name: 'tag_order',
    description: 'Tag an order',
    input: v.object({ order_id: v.string(), tag: v.string() }),
    policy: { effects: 'write', needsApproval: false },
    execute: ({ order_id, tag }) => `${order_id} tagged ${tag}`,
  }),
  defineTool({
    name: 'quote',
    description: 'Quote an order',
    input: v.object({ qty: v.number() }),
    output: v.object({ total: v.number(), currency: v.string() }),
    execute: ({ qty }) => ({ total: qty * 3, currency: 'EUR' }),
  }),
  defineTool({
    name: 'boom',
    description: 'Fails',
    input: v.object({}),
    execute: (): string => {
      throw new Error('database unavailable');
    },
  }),
  defineTool({
    name: 'scan',
    description: 'Scans in steps',
    input: v.object({ steps: v.number() }),
    execute: async ({ steps }, ctx) => {
      for (let i = 1; i <= steps; i++) {
        ctx.progress({ message: `step ${i}`, completed: i, total: steps });
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      return `scanned ${steps}`;
    },
  }),
  defineTool({
    name: 'slow',
    description: 'Waits until aborted',
    input: v.object({}),
    execute: (_input, ctx) =>
      new Promise<string>((_resolve, reject) => {
        seen.signal = ctx.signal;
        ctx.signal.addEventListener('abort', () => reject(new Error('stopped')));
      }),
  }),
];

/** The handler behind a counting `fetch`, so a test can tell which requests reached the server. */
function remote(options: { approvals?: 'client' | 'refuse' } = {}) {
  const handle = createMcpHandler({
    tools: remoteTools,
    name: 'orders',
    version: '2.0.0',
    instructions: 'Order tools.',
    approvals: options.approvals ?? 'client',
    run: (request) => createRunContext({ userId: request.headers.get('x-user') ?? undefined }),
  });
  const bodies: Record<string, unknown>[] = [];
  const fetch = async (request: Request) => {
    bodies.push((await request.clone().json()) as Record<string, unknown>);
    return handle(request);
  };
  return { fetch, bodies, calls: () => bodies.filter((b) => b.method === 'tools/call') };
}

describe('MCP client against edgetool’s handler', () => {
  it('connects: the server’s name, version, revision and instructions', async () => {
    const server = remote();
    const client = await connectMcp({ url: URL_, fetch: server.fetch });
    expect(client.server).toEqual({ name: 'orders', version: '2.0.0' });
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(client.instructions).toBe('Order tools.');
    expect(server.bodies.map((b) => b.method)).toEqual(['initialize', 'notifications/initialized']);
    expect(server.bodies[0]).toMatchObject({ params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'edgetool' } } });
  });

  it('lists the tools as edgetool tools: the same JSON Schema for the model, a policy from the hints, a 60 s timeout', async () => {
    const client = await connectMcp({ url: URL_, fetch: remote().fetch });
    const tools = await client.tools();
    expect(tools.map((t) => t.name)).toEqual(remoteTools.map((t) => t.name));
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.query_order?.description).toBe('Look up an order');
    expect(byName.query_order?.jsonSchema).toEqual({ type: 'object', ...remoteTools[0]?.jsonSchema });
    expect(byName.query_order?.policy).toMatchObject({ effects: 'read', needsApproval: false, timeoutMs: 60_000 });
    expect(byName.refund?.policy).toMatchObject({ effects: 'destructive', needsApproval: true });
    // `needsApproval: false` on the server does not travel: a write the server lists is a write here, and waits for a human.
    expect(byName.tag_order?.policy).toMatchObject({ effects: 'write', needsApproval: true });
    expect(byName.quote?.output).toBeDefined();
    expect(byName.query_order?.metadata).toMatchObject({ mcp: { server: 'orders', tool: 'query_order', annotations: { readOnlyHint: true } } });
  });

  it('runs a remote tool through the local executor: the model reads the server’s text, the run’s headers reach the server', async () => {
    const server = remote();
    const client = await connectMcp({ url: URL_, fetch: server.fetch, headers: () => ({ 'x-user': 'ada' }) });
    const executor = createExecutor({ registry: await client.tools() });
    const result = await executor.execute({ id: 'c1', name: 'query_order', arguments: '{"order_id":"A-1001"}' });
    expect(result.isError).toBe(false);
    expect(JSON.parse(result.content)).toEqual({ order_id: 'A-1001', status: 'shipped', askedBy: 'ada' });
    expect(server.calls()).toHaveLength(1);
    expect(server.calls()[0]).toMatchObject({ params: { name: 'query_order', arguments: { order_id: 'A-1001' } } });
  });

  it('validates arguments against the remote schema before sending: a bad call never reaches the server', async () => {
    const server = remote();
    const executor = createExecutor({ registry: await (await connectMcp({ url: URL_, fetch: server.fetch })).tools() });
    const result = await executor.execute({ id: 'c1', name: 'query_order', arguments: '{"order_id":42}' });
    expect(result.outcome).toMatchObject({ type: 'error', error: { code: 'invalid-input' } });
    expect(result.content).toContain('order_id');
    expect(server.calls()).toHaveLength(0);
  });

  it('a remote failure is the local call’s execution-failed, with the server’s text for the model', async () => {
    const executor = createExecutor({ registry: await (await connectMcp({ url: URL_, fetch: remote().fetch })).tools() });
    const result = await executor.execute({ id: 'c1', name: 'boom', arguments: '{}' });
    expect(result.outcome).toMatchObject({ type: 'error', error: { code: 'execution-failed' } });
    expect(result.content).toContain('database unavailable');
  });

  it('a failure of edgetool’s own handler reads with one error prefix, not two; the lines after it stay', async () => {
    const strict = defineTool({
      name: 'strict',
      description: 'Refuses with issues of its own',
      input: v.object({}),
      execute: (): string => {
        throw new ToolError('invalid-input', 'The order is closed.', { issues: [{ path: 'order_id', message: 'closed on 2024-01-01' }] });
      },
    });
    const handle = createMcpHandler({ tools: [...remoteTools, strict], name: 'orders', version: '2.0.0' });
    const executor = createExecutor({ registry: await (await connectMcp({ url: URL_, fetch: handle })).tools() });
    const failed = await executor.execute({ id: 'c1', name: 'boom', arguments: '{}' });
    expect(failed.content).toBe('Error (execution-failed): database unavailable');
    const refused = await executor.execute({ id: 'c2', name: 'strict', arguments: '{}' });
    expect(refused.outcome).toMatchObject({ type: 'error', error: { code: 'execution-failed' } });
    expect(refused.content).toBe('Error (execution-failed): The order is closed.\n- order_id: closed on 2024-01-01\nFix these arguments and call the tool again.');
  });

  it('structured results: checked against the remote output schema, and the output is the structured value', async () => {
    const executor = createExecutor({ registry: await (await connectMcp({ url: URL_, fetch: remote().fetch })).tools() });
    const result = await executor.execute({ id: 'c1', name: 'quote', arguments: '{"qty":4}' });
    expect(result.outcome).toEqual({ type: 'success', output: { total: 12, currency: 'EUR' } });
    expect(JSON.parse(result.content)).toEqual({ total: 12, currency: 'EUR' });
  });

  it('a destructive remote tool waits for the local approval: nothing is sent until a human says yes', async () => {
    writes.length = 0;
    const server = remote();
    const executor = createExecutor({ registry: await (await connectMcp({ url: URL_, fetch: server.fetch })).tools() });
    const call = { id: 'c1', name: 'refund', arguments: '{"order_id":"A-1001"}' };
    expect((await executor.execute(call)).outcome.type).toBe('approval-required');
    expect((await executor.execute(call, { approval: { approved: false } })).outcome).toMatchObject({ error: { code: 'approval-denied' } });
    expect(server.calls()).toHaveLength(0);
    expect(writes).toEqual([]);
    const approved = await executor.execute(call, { approval: { approved: true } });
    expect(approved.content).toBe('refunded');
    expect(writes).toEqual([{ order_id: 'A-1001' }]);
  });

  it('the server’s progress notifications become the call’s progress reports', async () => {
    const executor = createExecutor({ registry: await (await connectMcp({ url: URL_, fetch: remote().fetch })).tools() });
    const events: ToolProgressEvent[] = [];
    const result = await executor.execute({ id: 'c1', name: 'scan', arguments: '{"steps":3}' }, { onProgress: (e) => events.push(e) });
    expect(result.content).toBe('scanned 3');
    expect(events.map((e) => e.progress)).toEqual([1, 2, 3].map((i) => ({ message: `step ${i}`, completed: i, total: 3 })));
    expect(events.every((e) => e.callId === 'c1' && e.toolName === 'scan')).toBe(true);
  });

  it('a remote tool’s reports with only a message arrive as messages, not as the fractions the server numbered them with', async () => {
    const talk = defineTool({
      name: 'talk',
      description: 'Talks between counts',
      input: v.object({}),
      execute: async (_input, ctx) => {
        for (const report of [{ message: 'connecting' }, { message: 'connected' }, { message: 'page 1 of 2', completed: 1, total: 2 }, { message: 'parsing' }]) {
          ctx.progress(report);
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        return 'done';
      },
    });
    const handle = createMcpHandler({ tools: [talk], name: 't', version: '1' });
    const executor = createExecutor({ registry: await (await connectMcp({ url: URL_, fetch: handle })).tools() });
    const events: ToolProgressEvent[] = [];
    await executor.execute({ id: 'c1', name: 'talk', arguments: '{}' }, { onProgress: (e) => events.push(e) });
    // "connecting" went as 0 (nothing done yet, which a count of 0 also says), "connected" as ½, "parsing" as 1½.
    expect(events.map((e) => e.progress)).toEqual([
      { message: 'connecting', completed: 0 },
      { message: 'connected' },
      { message: 'page 1 of 2', completed: 1, total: 2 },
      { message: 'parsing' },
    ]);
  });

  it('an abort reaches the remote tool (its request is cancelled), and the local call is aborted', async () => {
    const executor = createExecutor({ registry: await (await connectMcp({ url: URL_, fetch: remote().fetch })).tools() });
    const controller = new AbortController();
    const running = executor.execute({ id: 'c1', name: 'slow', arguments: '{}' }, { signal: controller.signal });
    await expect.poll(() => seen.signal).toBeDefined();
    controller.abort();
    expect((await running).outcome).toMatchObject({ error: { code: 'aborted' } });
    await expect.poll(() => seen.signal?.aborted).toBe(true);
  });

  it('an abort stops the remote tool through the session’s notifications/cancelled, when nothing passes the disconnect on', async () => {
    const server = remote();
    // A proxy that keeps the upstream request open whatever its client does (its stream too: a client that stops
    // reading does not cancel the server's): only the cancellation can reach the tool.
    const detached = async (request: Request) => {
      const body = request.method === 'POST' ? await request.text() : null;
      const upstream = await server.fetch(new Request(request.url, { method: request.method, headers: request.headers, body }));
      if (upstream.body === null) return upstream;
      const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
      upstream.body.pipeTo(writable, { preventCancel: true }).catch(() => {});
      return new Response(readable, { status: upstream.status, headers: upstream.headers });
    };
    const executor = createExecutor({ registry: await (await connectMcp({ url: URL_, fetch: detached })).tools() });
    const controller = new AbortController();
    Reflect.deleteProperty(seen, 'signal');
    const running = executor.execute({ id: 'c1', name: 'slow', arguments: '{}' }, { signal: controller.signal });
    await expect.poll(() => seen.signal).toBeDefined();
    controller.abort();
    expect((await running).outcome).toMatchObject({ error: { code: 'aborted' } });
    await expect.poll(() => seen.signal?.aborted).toBe(true);
    expect(seen.signal?.reason).toMatchObject({ message: 'The caller aborted the tool call.' });
  });

  it('a local timeout ends a remote call that hangs', async () => {
    const client = await connectMcp({ url: URL_, fetch: remote().fetch });
    const executor = createExecutor({ registry: await client.tools({ only: ['slow'], policy: { timeoutMs: 30 } }) });
    expect((await executor.execute({ id: 'c1', name: 'slow', arguments: '{}' })).outcome).toMatchObject({ error: { code: 'timeout' } });
  });

  it('tools(): only, prefix and a policy of your own', async () => {
    const client = await connectMcp({ url: URL_, fetch: remote().fetch });
    const tools = await client.tools({ only: ['query_order', 'refund'], prefix: 'shop_', policy: (tool) => ({ effects: tool.name === 'refund' ? 'write' : 'read' }) });
    expect(tools.map((t) => [t.name, t.policy.effects])).toEqual([
      ['shop_query_order', 'read'],
      ['shop_refund', 'write'],
    ]);
    await expect(client.tools({ only: ['query_order', 'nope'] })).rejects.toThrow(/does not offer "nope"; it offers: query_order, refund/);
    // A policy that only sets a timeout keeps the hints: the destructive tool still waits for a human.
    const timed = await client.tools({ only: ['query_order', 'refund'], policy: { timeoutMs: 5_000 } });
    expect(timed.map((t) => [t.name, t.policy.effects, t.policy.needsApproval, t.policy.timeoutMs])).toEqual([
      ['query_order', 'read', false, 5_000],
      ['refund', 'destructive', true, 5_000],
    ]);
    const result = await createExecutor({ registry: tools }).execute({ id: 'c1', name: 'shop_query_order', arguments: '{"order_id":"A-1002"}' });
    expect(result.content).toContain('A-1002');
  });

  it('a policy whose effects come out undefined (a lookup that missed) keeps the hints: the destructive tool still waits', async () => {
    writes.length = 0;
    const server = remote();
    const client = await connectMcp({ url: URL_, fetch: server.fetch });
    // Effects decided for some tools only; `undefined` for the others, which the type allows.
    const decided: Readonly<Record<string, 'read' | 'write' | undefined>> = { tag_order: 'write' };
    const tools = await client.tools({ only: ['query_order', 'refund', 'tag_order'], policy: (tool) => ({ effects: decided[tool.name], timeoutMs: 5_000 }) });
    expect(tools.map((t) => [t.name, t.policy.effects, t.policy.needsApproval])).toEqual([
      ['query_order', 'read', false],
      ['refund', 'destructive', true],
      ['tag_order', 'write', true],
    ]);
    const refund = await createExecutor({ registry: tools }).execute({ id: 'c1', name: 'refund', arguments: '{"order_id":"A-1001"}' });
    expect(refund.outcome.type).toBe('approval-required');
    expect(server.calls()).toHaveLength(0);
    expect(writes).toEqual([]);
  });

  it('a handler that refuses approvals does not list the tools that need one, so neither does the client', async () => {
    const tools = await (await connectMcp({ url: URL_, fetch: remote({ approvals: 'refuse' }).fetch })).tools();
    expect(tools.map((t) => t.name)).not.toContain('refund');
    expect(tools.map((t) => t.name)).toContain('tag_order');
  });

  it('a read the server serves with approvals: client but that needs a human becomes a tool that waits for one here', async () => {
    const ran: unknown[] = [];
    const salaries = defineTool({
      name: 'read_salaries',
      description: 'Salaries of a team',
      input: v.object({ team: v.string() }),
      policy: { effects: 'read', needsApproval: true },
      execute: (input) => {
        ran.push(input);
        return 'the salaries';
      },
    });
    const handle = createMcpHandler({ tools: [salaries], name: 'hr', version: '1.0.0', approvals: 'client' });
    const [tool] = await (await connectMcp({ url: URL_, fetch: handle })).tools();
    expect(tool?.policy).toMatchObject({ effects: 'write', needsApproval: true });
    const result = await createExecutor({ registry: tool ? [tool] : [] }).execute({ id: 'c1', name: 'read_salaries', arguments: { team: 'core' } });
    expect(result.outcome.type).toBe('approval-required');
    expect(ran).toEqual([]);
  });

  it('callTool and listTools speak MCP as is', async () => {
    const client = await connectMcp({ url: URL_, fetch: remote().fetch });
    expect((await client.listTools()).find((t) => t.name === 'refund')?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
    expect(await client.callTool('boom', {})).toEqual({ content: [{ type: 'text', text: 'Error (execution-failed): database unavailable' }], isError: true, structuredContent: undefined });
    await expect(client.callTool('nope', {})).rejects.toMatchObject({ name: 'McpError', code: -32602, message: 'The MCP server refused tools/call: Unknown tool: nope' });
  });
});

/** A scripted server: `answer(message, request)` returns the response for each posted message. */
function scripted(answer: (message: Record<string, unknown>, request: Request) => Response | Promise<Response>) {
  const requests: { method: string; message: Record<string, unknown>; headers: Headers }[] = [];
  const fetch = async (request: Request) => {
    const message = request.method === 'POST' ? ((await request.json()) as Record<string, unknown>) : {};
    requests.push({ method: request.method, message, headers: request.headers });
    return answer(message, request);
  };
  return { fetch, requests };
}

const json = (body: unknown, init: ResponseInit = {}) => Response.json(body, init);
const initialized = (id: unknown, extra: Record<string, unknown> = {}) =>
  json({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'scripted', version: '1' }, ...extra } });
const sse = (events: string) => new Response(events, { headers: { 'content-type': 'text/event-stream' } });
const TOOL = { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } };

describe('MCP client: sessions and streams', () => {
  it('an empty Mcp-Session-Id is no session: it is not sent back, and close() sends no DELETE', async () => {
    const server = scripted((message, request) => {
      if (request.method === 'DELETE') return new Response(null, { status: 200 });
      if (message.method === 'initialize') {
        const result = { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'x', version: '1' } };
        return new Response(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }), { headers: { 'content-type': 'application/json', 'mcp-session-id': '' } });
      }
      if (request.headers.has('mcp-session-id')) return new Response('an empty session id', { status: 400 });
      if (message.id === undefined) return new Response(null, { status: 202 });
      return json({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'hi' }] } });
    });
    const client = await connectMcp({ url: URL_, fetch: server.fetch });
    expect(await client.callTool('echo', {})).toMatchObject({ content: [{ text: 'hi' }] });
    expect(server.requests.map((r) => r.headers.has('mcp-session-id'))).toEqual([false, false, false]);
    await client.close();
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST', 'POST']);
  });

  it('keeps the session id and revision on every request, starts a new session once when the server forgets it, and ends it with DELETE', async () => {
    let session = 's-1';
    let forget = false;
    const server = scripted((message, request) => {
      if (request.method === 'DELETE') return new Response(null, { status: 200 });
      if (message.method === 'initialize') {
        session = session === 's-1' && forget ? 's-2' : session;
        return new Response(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'x', version: '1' } } }), {
          headers: { 'content-type': 'application/json', 'mcp-session-id': session },
        });
      }
      if (request.headers.get('mcp-session-id') !== session) return new Response('no such session', { status: 404 });
      if (message.id === undefined) return new Response(null, { status: 202 });
      return json({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: `hi from ${session}` }] } });
    });
    const client = await connectMcp({ url: URL_, fetch: server.fetch });
    expect(await client.callTool('echo', {})).toMatchObject({ content: [{ text: 'hi from s-1' }] });
    expect(server.requests[2]?.headers.get('mcp-session-id')).toBe('s-1');
    expect(server.requests[2]?.headers.get('mcp-protocol-version')).toBe('2025-06-18');
    expect(server.requests[0]?.headers.get('mcp-session-id')).toBeNull();
    forget = true;
    session = 'gone';
    // Two calls hit the 404 together: one new session serves both.
    const [a, b] = await Promise.all([client.callTool('echo', {}), client.callTool('echo', {})]);
    expect([a, b].map((r) => (r.content[0] as { text: string }).text)).toEqual(['hi from gone', 'hi from gone']);
    expect(server.requests.filter((r) => r.message.method === 'initialize')).toHaveLength(2);
    await client.close();
    expect(server.requests.at(-1)).toMatchObject({ method: 'DELETE' });
    expect(server.requests.at(-1)?.headers.get('mcp-session-id')).toBe('gone');
    await expect(client.callTool('echo', {})).rejects.toThrow('The MCP connection is closed.');
  });

  it('a new session that fails to start (the server is still coming back) is started again by the next request', async () => {
    let session = 's-1';
    let down = false;
    const server = scripted((message, request) => {
      if (message.method === 'initialize') {
        if (down) return new Response('warming up', { status: 503 });
        return new Response(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'x', version: '1' } } }), {
          headers: { 'content-type': 'application/json', 'mcp-session-id': session },
        });
      }
      const sent = request.headers.get('mcp-session-id');
      if (sent === null) return new Response('Bad Request: no session id', { status: 400 });
      if (sent !== session) return new Response('no such session', { status: 404 });
      if (message.id === undefined) return new Response(null, { status: 202 });
      return json({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: `hi from ${sent}` }] } });
    });
    const client = await connectMcp({ url: URL_, fetch: server.fetch });
    // The server restarts (it forgets s-1) and refuses new sessions for a while.
    session = 's-2';
    down = true;
    await expect(client.callTool('echo', {})).rejects.toMatchObject({ status: 503, message: 'The MCP server answered HTTP 503: warming up' });
    await expect(client.listTools()).rejects.toMatchObject({ status: 503 });
    down = false;
    expect(await client.callTool('echo', {})).toMatchObject({ content: [{ text: 'hi from s-2' }] });
    expect(server.requests.filter((r) => r.message.method === 'initialize')).toHaveLength(4);
    // Nothing was sent without a session.
    expect(server.requests.filter((r) => r.method === 'POST' && r.message.method !== 'initialize').every((r) => r.headers.get('mcp-session-id') !== null)).toBe(true);
  });

  it('a request that waits for a new session still ends at its own abort or time limit, not the new session’s', async () => {
    let session = 's-1';
    let slow = false;
    const server = scripted((message, request) => {
      if (request.method === 'DELETE') return new Response(null, { status: 200 });
      if (message.method === 'initialize') {
        // The restarted server takes its time to start a session (here: never, within the client's hour).
        if (slow) return new Promise<Response>(() => {});
        return json({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'x', version: '1' } } }, { headers: { 'mcp-session-id': session } });
      }
      if (message.id === undefined) return new Response(null, { status: 202 });
      if (request.headers.get('mcp-session-id') !== session) return new Response('no such session', { status: 404 });
      return json({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'hi' }] } });
    });
    // An hour for the client's own limit: a call that waited for it instead of its own would outlast the test's time
    // limit (no clock is read: a busy machine can stall any wall-clock bound).
    const client = await connectMcp({ url: URL_, fetch: server.fetch, timeoutMs: 3_600_000 });
    session = 's-2';
    slow = true;
    // The call meets the 404 and waits for the new session: its 50 ms still end it.
    await expect(client.callTool('echo', {}, { timeoutMs: 50 })).rejects.toMatchObject({ name: 'McpTimeoutError', method: 'tools/call', timeoutMs: 50 });
    // The next one waits for the same new session before it is sent: the caller's abort ends it.
    const controller = new AbortController();
    const listing = client.listTools({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('the user stopped')), 20);
    await expect(listing).rejects.toThrow('the user stopped');
    await client.close();
  });

  it('a call that ends before it was sent (waiting for a new session) sends no notifications/cancelled for it', async () => {
    let session = 's-1';
    let slow = false;
    const server = scripted((message, request) => {
      if (request.method === 'DELETE') return new Response(null, { status: 200 });
      if (message.method === 'initialize') {
        if (slow) return new Promise<Response>(() => {});
        return json({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'x', version: '1' } } }, { headers: { 'mcp-session-id': session } });
      }
      if (request.headers.get('mcp-session-id') !== session) return new Response('no such session', { status: 404 });
      if (message.id === undefined) return new Response(null, { status: 202 });
      return json({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'hi' }] } });
    });
    const client = await connectMcp({ url: URL_, fetch: server.fetch, timeoutMs: 5_000 });
    session = 's-2';
    slow = true;
    // The first call meets the 404 and starts a new session; the second waits for it before it is sent.
    const first = client.callTool('echo', {}, { timeoutMs: 100 });
    first.catch(() => {});
    await expect.poll(() => server.requests.filter((r) => r.message.method === 'initialize')).toHaveLength(2);
    await expect(client.callTool('echo', {}, { timeoutMs: 30 })).rejects.toMatchObject({ name: 'McpTimeoutError' });
    await expect(first).rejects.toMatchObject({ name: 'McpTimeoutError' });
    // MCP: a cancellation only names a request that was issued. The first was (the server refused it), the second never.
    const issued = server.requests.filter((r) => r.message.method === 'tools/call').map((r) => r.message.id);
    const cancelled = () => server.requests.filter((r) => r.message.method === 'notifications/cancelled').map((r) => (r.message.params as { requestId: unknown }).requestId);
    expect(issued).toHaveLength(1);
    // The first's cancellation is sent after its rejection (later in workerd and Chromium than in Node): waited for, not
    // slept on (20 ms was a race on a busy machine). One for the second, timed out before it, would come first; and
    // none may come by the time the client has closed.
    await expect.poll(cancelled, { timeout: 10_000 }).toEqual(issued);
    await client.close();
    expect(cancelled()).toEqual(issued);
  });

  describe('close()', () => {
    /**
     * A server that keeps sessions and forgets them on `forget()` (as a restarted one does); `hold(what)` holds its next
     * answer to `what` (`initialize`, `notifications/initialized`, `DELETE`, `tools/call`) until released. A held request
     * whose client hung up (its signal aborted) gets no session.
     */
    function sessions() {
      const open = new Set<string>();
      let count = 0;
      const gates = new Map<string, Promise<void>>();
      const heldRequests: Request[] = [];
      const hold = (what: string) => {
        let release = () => {};
        gates.set(what, new Promise<void>((resolve) => (release = resolve)));
        return () => release();
      };
      const server = scripted(async (message, request) => {
        const what = request.method === 'DELETE' ? 'DELETE' : String(message.method);
        const gate = gates.get(what);
        if (gate !== undefined) {
          gates.delete(what);
          heldRequests.push(request);
          await gate;
        }
        const sent = request.headers.get('mcp-session-id') ?? '';
        if (request.method === 'DELETE') {
          open.delete(sent);
          return new Response(null, { status: 200 });
        }
        if (message.method === 'initialize') {
          if (request.signal.aborted) return Response.error();
          const id = `s-${++count}`;
          open.add(id);
          return new Response(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'x', version: '1' } } }), {
            headers: { 'content-type': 'application/json', 'mcp-session-id': id },
          });
        }
        if (!open.has(sent)) return new Response('no such session', { status: 404 });
        if (message.id === undefined) return new Response(null, { status: 202 });
        return json({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: `hi from ${sent}` }] } });
      });
      const forget = () => open.clear();
      return { server, open, hold, heldRequests, forget };
    }
    const closedError = { name: 'McpError', message: 'The MCP connection is closed.' };

    for (const held of ['initialize', 'notifications/initialized'] as const) {
      it(`while a new session is being started (${held} unanswered): the start is abandoned, no session is left open, the call fails`, async () => {
        const { server, open, hold, heldRequests, forget } = sessions();
        const client = await connectMcp({ url: URL_, fetch: server.fetch });
        expect([...open]).toEqual(['s-1']);
        forget();
        const release = hold(held);
        const call = client.callTool('echo', {});
        call.catch(() => {});
        await expect.poll(() => heldRequests.length).toBe(1);
        const sentBefore = server.requests.length;
        await client.close();
        // The request of the start it abandoned is aborted, not left to run.
        expect(heldRequests[0]?.signal.aborted).toBe(true);
        release();
        await expect(call).rejects.toMatchObject(closedError);
        await expect(client.listTools()).rejects.toMatchObject(closedError);
        await expect(client.callTool('echo', {})).rejects.toBeInstanceOf(McpError);
        // Nothing was sent after close() but the DELETE of a session the start got, and no session is left open.
        expect(server.requests.slice(sentBefore).map((r) => r.method)).toEqual(held === 'initialize' ? [] : ['DELETE']);
        expect([...open]).toEqual([]);
      });
    }

    it('a start that fails after the server gave a session (a revision it does not speak, a refused notification) ends that session', async () => {
      for (const failure of ['revision', 'initialized'] as const) {
        const open = new Set<string>();
        let count = 0;
        let refuse = true;
        const server = scripted((message, request) => {
          const sent = request.headers.get('mcp-session-id') ?? '';
          if (request.method === 'DELETE') return new Response(null, { status: open.delete(sent) ? 200 : 404 });
          if (message.method === 'initialize') {
            const id = `s-${++count}`;
            open.add(id);
            const protocolVersion = failure === 'revision' && refuse ? '2024-11-05' : '2025-06-18';
            return json({ jsonrpc: '2.0', id: message.id, result: { protocolVersion, capabilities: {}, serverInfo: { name: 'x', version: '1' } } }, { headers: { 'mcp-session-id': id } });
          }
          if (!open.has(sent)) return new Response('no such session', { status: 404 });
          if (message.method === 'notifications/initialized' && failure === 'initialized' && refuse) return new Response('not now', { status: 500 });
          if (message.id === undefined) return new Response(null, { status: 202 });
          return json({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: `hi from ${sent}` }] } });
        });
        await expect(connectMcp({ url: URL_, fetch: server.fetch })).rejects.toBeInstanceOf(McpError);
        expect([...open], failure).toEqual([]);
        expect(server.requests.filter((r) => r.method === 'DELETE').map((r) => r.headers.get('mcp-session-id'))).toEqual(['s-1']);
        // The same when a new session (the server forgot ours) fails to start: the next request starts one that works.
        refuse = false;
        const client = await connectMcp({ url: URL_, fetch: server.fetch });
        open.clear();
        refuse = true;
        await expect(client.callTool('echo', {})).rejects.toBeInstanceOf(McpError);
        expect([...open], failure).toEqual([]);
        refuse = false;
        expect(await client.callTool('echo', {})).toMatchObject({ content: [{ text: 'hi from s-4' }] });
        await client.close();
        expect([...open], failure).toEqual([]);
      }
    });

    it('a call still running is aborted, and a request made while the DELETE is under way is refused, not sent', async () => {
      const { server, open, hold, heldRequests } = sessions();
      const client = await connectMcp({ url: URL_, fetch: server.fetch });
      const releaseCall = hold('tools/call');
      const running = client.callTool('echo', {});
      running.catch(() => {});
      await expect.poll(() => heldRequests.length).toBe(1);
      const releaseDelete = hold('DELETE');
      const closing = client.close();
      await expect(running).rejects.toMatchObject(closedError);
      expect(heldRequests[0]?.signal.aborted).toBe(true);
      await expect.poll(() => heldRequests.length).toBe(2);
      const sentBefore = server.requests.length;
      await expect(client.callTool('echo', {})).rejects.toMatchObject(closedError);
      // A second close() waits for the first one's DELETE.
      let again = false;
      const second = client.close().then(() => (again = true));
      await Promise.resolve();
      expect(again).toBe(false);
      releaseDelete();
      releaseCall();
      await Promise.all([closing, second]);
      expect(server.requests.length).toBe(sentBefore);
      expect([...open]).toEqual([]);
    });
  });

  it('reads an SSE answer however it is cut: comments, CRLF, multi-line data, other events; answers a ping; reports only its own progress', async () => {
    const events = (id: unknown, token: unknown) =>
      [
        ': keep-alive\r\n\r\n',
        `event: message\r\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"other","progress":9}}\r\n\r\n`,
        `data: {"jsonrpc":"2.0","method":"notifications/progress",\ndata: "params":{"progressToken":${JSON.stringify(token)},"progress":1,"total":2,"message":"half"}}\n\n`,
        'event: ping\ndata: {"not":"for us"}\n\n',
        'id: 7\ndata: {"jsonrpc":"2.0","id":"srv-1","method":"ping"}\n\n',
        `data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${JSON.stringify(token)},"progress":-1}}\r\r`,
        `data: {"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"done"}]}}\n\n`,
        'data: {"jsonrpc":"2.0","id":"late","method":"ping"}\n\n',
      ].join('');
    for (const size of [1, 2, 3, 7, 64, 10_000]) {
      const server = scripted((message) => {
        if (message.method === 'initialize') return initialized(message.id);
        if (message.id === undefined || message.method === undefined) return new Response(null, { status: 202 });
        const text = events(message.id, (message.params as { _meta: { progressToken: unknown } })._meta.progressToken);
        const bytes = new TextEncoder().encode(text);
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            for (let at = 0; at < bytes.length; at += size) controller.enqueue(bytes.slice(at, at + size));
            controller.close();
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
      });
      const client = await connectMcp({ url: URL_, fetch: server.fetch });
      const reports: unknown[] = [];
      const result = await client.callTool('echo', { text: 'x' }, { onProgress: (p) => reports.push(p) });
      expect(result.content, `cut every ${size} bytes`).toEqual([{ type: 'text', text: 'done' }]);
      expect(reports).toEqual([{ completed: 1, total: 2, message: 'half' }]);
      await expect.poll(() => server.requests.filter((r) => r.message.id === 'srv-1').map((r) => r.message)).toEqual([{ jsonrpc: '2.0', id: 'srv-1', result: {} }]);
      // The stream ended our interest at the answer: the request that came after it is not answered.
      expect(server.requests.some((r) => r.message.id === 'late')).toBe(false);
    }
  });

  it('reports progress only as it goes up: a report sent again (a resumed stream that replays) is dropped', async () => {
    const server = scripted((message) => {
      if (message.method === 'initialize') return initialized(message.id);
      if (message.id === undefined || message.method === undefined) return new Response(null, { status: 202 });
      const token = (message.params as { _meta: { progressToken: unknown } })._meta.progressToken;
      const progress = (n: number) => `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: n, total: 3 } })}\n\n`;
      const answer = `data: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'done' }] } })}\n\n`;
      const text = [progress(1), progress(2), progress(1), progress(2), progress(3), answer].join('');
      return new Response(text, { headers: { 'content-type': 'text/event-stream' } });
    });
    const client = await connectMcp({ url: URL_, fetch: server.fetch });
    const reports: { completed?: number | undefined }[] = [];
    await client.callTool('echo', {}, { onProgress: (p) => reports.push(p) });
    expect(reports.map((r) => r.completed)).toEqual([1, 2, 3]);
  });

  it('a 2025-03-26 server that batches an event’s messages (a JSON array): its progress, its ping and the answer are read', async () => {
    const server = scripted((message) => {
      if (message.method === 'initialize') return initialized(message.id, { protocolVersion: '2025-03-26' });
      if (message.id === undefined || message.method === undefined) return new Response(null, { status: 202 });
      const token = (message.params as { _meta: { progressToken: unknown } })._meta.progressToken;
      const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 2 } };
      const ping = { jsonrpc: '2.0', id: 'srv-1', method: 'ping' };
      const answer = { jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'done' }] } };
      return sse(`data: ${JSON.stringify([progress, ping])}\n\ndata: ${JSON.stringify([answer])}\n\n`);
    });
    const client = await connectMcp({ url: URL_, fetch: server.fetch });
    expect(client.protocolVersion).toBe('2025-03-26');
    const reports: unknown[] = [];
    const result = await client.callTool('echo', {}, { onProgress: (p) => reports.push(p) });
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(reports).toEqual([{ completed: 1, total: 2 }]);
    await expect.poll(() => server.requests.filter((r) => r.message.id === 'srv-1').map((r) => r.message)).toEqual([{ jsonrpc: '2.0', id: 'srv-1', result: {} }]);
  });

  it('a progress without a total that is not a whole number is no count: only its message is reported (and a replay of it is still dropped)', async () => {
    const server = scripted((message) => {
      if (message.method === 'initialize') return initialized(message.id);
      if (message.id === undefined || message.method === undefined) return new Response(null, { status: 202 });
      const token = (message.params as { _meta: { progressToken: unknown } })._meta.progressToken;
      const note = (params: object) => `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, ...params } })}\n\n`;
      const answer = `data: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'done' }] } })}\n\n`;
      const text = [
        note({ progress: 0, message: 'starting' }),
        note({ progress: 0.5, message: 'connected' }),
        note({ progress: 1, total: 2, message: 'page 1 of 2' }),
        note({ progress: 1.5, message: 'parsing' }),
        note({ progress: 1.5, message: 'parsing' }), // sent again: not reported twice
        note({ progress: 1.75, total: 2 }), // with a total, a fraction is a share of it
        note({ progress: 1.8 }), // nothing but a number that only orders the reports: nothing to report
        note({ progress: 2, total: 2, message: 'page 2 of 2' }),
        note({ progress: 3 }), // a whole number without a total: a count
        answer,
      ].join('');
      return new Response(text, { headers: { 'content-type': 'text/event-stream' } });
    });
    const client = await connectMcp({ url: URL_, fetch: server.fetch });
    const reports: unknown[] = [];
    await client.callTool('echo', {}, { onProgress: (p) => reports.push(p) });
    expect(reports).toEqual([
      { message: 'starting', completed: 0 },
      { message: 'connected' },
      { message: 'page 1 of 2', completed: 1, total: 2 },
      { message: 'parsing' },
      { completed: 1.75, total: 2 },
      { message: 'page 2 of 2', completed: 2, total: 2 },
      { completed: 3 },
    ]);
  });

  it('answers at most 16 requests of the server per response: a stream of pings does not make one call send thousands', async () => {
    const server = scripted((message) => {
      if (message.method === 'initialize') return initialized(message.id);
      if (message.method === undefined || message.id === undefined) return new Response(null, { status: 202 });
      const pings = Array.from({ length: 100 }, (_, i) => `data: {"jsonrpc":"2.0","id":"p${i}","method":"ping"}\n\n`).join('');
      return sse(`${pings}data: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'done' }] } })}\n\n`);
    });
    const client = await connectMcp({ url: URL_, fetch: server.fetch });
    expect((await client.callTool('echo', {})).content).toEqual([{ type: 'text', text: 'done' }]);
    const replies = () => server.requests.filter((r) => r.message.method === undefined).map((r) => r.message.id);
    await expect.poll(replies).toHaveLength(16);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(replies().sort()).toEqual(Array.from({ length: 16 }, (_, i) => `p${i}`).sort());
  });

  it('follows tools/list cursors, and leaves out tools that must run as MCP tasks', async () => {
    const pages: Record<string, { tools: unknown[]; nextCursor?: string }> = {
      '': { tools: [TOOL], nextCursor: 'p2' },
      p2: { tools: [{ ...TOOL, name: 'needs.task', execution: { taskSupport: 'required' } }], nextCursor: 'p3' },
      p3: { tools: [{ ...TOOL, name: 'read.me', annotations: { readOnlyHint: true } }] },
    };
    const server = scripted((message) => {
      if (message.method === 'initialize') return initialized(message.id);
      if (message.method === 'tools/list') return json({ jsonrpc: '2.0', id: message.id, result: pages[(message.params as { cursor?: string }).cursor ?? ''] });
      return new Response(null, { status: 202 });
    });
    const client = await connectMcp({ url: URL_, fetch: server.fetch });
    expect((await client.listTools()).map((t) => t.name)).toEqual(['echo', 'needs.task', 'read.me']);
    // Dots are not allowed in the names providers accept: they become `_`, and the call still uses the server's name.
    const tools = await client.tools();
    expect(tools.map((t) => [t.name, t.policy.effects])).toEqual([
      ['echo', 'destructive'],
      ['read_me', 'read'],
    ]);
  });

  it('a tools/list cursor the server gives again (a loop) fails saying so, instead of listing its tools a hundred times', async () => {
    const server = scripted((message) => {
      if (message.method === 'initialize') return initialized(message.id);
      if (message.method === 'tools/list') {
        const cursor = (message.params as { cursor?: string }).cursor;
        const nextCursor = cursor === 'p2' ? 'p1' : 'p2';
        return json({ jsonrpc: '2.0', id: message.id, result: { tools: [{ ...TOOL, name: `from_${cursor ?? 'start'}` }], nextCursor } });
      }
      return new Response(null, { status: 202 });
    });
    const client = await connectMcp({ url: URL_, fetch: server.fetch });
    await expect(client.listTools()).rejects.toThrow('The MCP server\'s tools/list gave the cursor "p2" again: its pages loop.');
    // start → p2 → p1 → p2: the fourth page is not asked for.
    expect(server.requests.filter((r) => r.message.method === 'tools/list')).toHaveLength(3);
  });

  it('reads a listing within maxResponseBytes for all its pages together: a server of endless large pages is not kept in memory', async () => {
    const big = 'x'.repeat(100_000);
    let page = 0;
    const server = scripted((message) => {
      if (message.method === 'initialize') return initialized(message.id);
      if (message.method === 'tools/list') {
        page++;
        // Each page alone is far under the limit, and a new cursor each time (no loop): only the sum tells.
        return json({ jsonrpc: '2.0', id: message.id, result: { tools: [{ ...TOOL, name: `t${page}`, description: big }], nextCursor: `p${page}` } });
      }
      return new Response(null, { status: 202 });
    });
    const client = await connectMcp({ url: URL_, fetch: server.fetch, maxResponseBytes: 1_000_000 });
    await expect(client.listTools()).rejects.toMatchObject({
      name: 'McpError',
      message: "The MCP server's tools/list (its pages together) is larger than 1000000 bytes.",
    });
    // The tenth page goes past a million bytes; the 100-page limit alone would have kept ten times that.
    expect(page).toBe(10);
    // A listing of the same size in one page or in several fits: the sum is what counts, not the number of pages.
    let pages = 0;
    const fits = scripted((message) => {
      if (message.method === 'initialize') return initialized(message.id);
      if (message.method === 'tools/list') {
        pages++;
        const nextCursor = pages < 9 ? `p${pages}` : undefined;
        return json({ jsonrpc: '2.0', id: message.id, result: { tools: [{ ...TOOL, name: `t${pages}`, description: big }], nextCursor } });
      }
      return new Response(null, { status: 202 });
    });
    const listed = await (await connectMcp({ url: URL_, fetch: fits.fetch, maxResponseBytes: 1_000_000 })).listTools();
    expect(listed).toHaveLength(9);
    // Each listing has its own budget: listing again reads all of it again.
    pages = 0;
    expect(await (await connectMcp({ url: URL_, fetch: fits.fetch, maxResponseBytes: 1_000_000 })).tools()).toHaveLength(9);
  });

  it('a listing of a 2020-12 schema nested 1,000 deep is made into a tool: the model gets it as listed, not half converted', async () => {
    const depth = 1000;
    const deep = `${'{"properties":{"a":'.repeat(depth)}{"prefixItems":[{"$ref":"#/$defs/s"}]}${'}}'.repeat(depth)}`;
    const schema = `{"$defs":{"s":{"type":"string"}},${deep.slice(1)}`;
    const server = scripted((message) => {
      if (message.method === 'initialize') return initialized(message.id);
      if (message.method === 'tools/list') {
        const body = `{"jsonrpc":"2.0","id":${message.id},"result":{"tools":[{"name":"deep","inputSchema":${schema}}]}}`;
        return new Response(body, { headers: { 'content-type': 'application/json' } });
      }
      return new Response(null, { status: 202 });
    });
    const [tool] = await (await connectMcp({ url: URL_, fetch: server.fetch })).tools();
    // Converted down to a level only, the `$ref` down there would point at `$defs` moved to `definitions` above it.
    expect(tool?.jsonSchema).toEqual({ ...JSON.parse(schema), type: 'object' });
  });

  it("quotes a server's text in errors only so far: a JSON-RPC error's message, the names it offers", async () => {
    const huge = 'e'.repeat(5_000_000);
    const server = scripted((message) => {
      if (message.method === 'initialize') return initialized(message.id);
      if (message.method === 'tools/list') {
        const tools = Array.from({ length: 2000 }, (_, i) => ({ ...TOOL, name: `tool_${i}_${'n'.repeat(60)}` }));
        return json({ jsonrpc: '2.0', id: message.id, result: { tools } });
      }
      if (message.id === undefined) return new Response(null, { status: 202 });
      return json({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: huge } });
    });
    const client = await connectMcp({ url: URL_, fetch: server.fetch });
    const refused = (await client.callTool('echo', {}).catch((e: unknown) => e)) as McpError;
    expect(refused.code).toBe(-32000);
    expect(refused.message).toBe(`The MCP server refused tools/call: ${'e'.repeat(999)}…`);
    const missing = (await client.tools({ only: ['nope'] }).catch((e: unknown) => e)) as TypeError;
    expect(missing.message.length).toBeLessThan(4000);
    expect(missing.message).toMatch(/^The MCP server "scripted" does not offer "nope"; it offers: tool_0_n+, tool_1_n+, .*tool_49_n+ and 1950 more\.$/);
    // A name too long for a tool is quoted in part too (twice: as listed, and as it would be named).
    const long = scripted((message) => {
      if (message.method === 'initialize') return initialized(message.id);
      if (message.method === 'tools/list') return json({ jsonrpc: '2.0', id: message.id, result: { tools: [{ ...TOOL, name: 'n'.repeat(1_000_000) }] } });
      return new Response(null, { status: 202 });
    });
    const named = (await (await connectMcp({ url: URL_, fetch: long.fetch })).tools().catch((e: unknown) => e)) as TypeError;
    expect(named.message).toBe(`The MCP tool "${'n'.repeat(99)}…" would be named "${'n'.repeat(99)}…", which is not 1-64 letters, digits, "_" or "-": leave it out with \`only\`, or use a shorter \`prefix\`.`);
  });

  it('refuses names it cannot give a tool: too long, or two tools that would share one', async () => {
    const listing = (tools: unknown[]) =>
      scripted((message) => {
        if (message.method === 'initialize') return initialized(message.id);
        if (message.method === 'tools/list') return json({ jsonrpc: '2.0', id: message.id, result: { tools } });
        return new Response(null, { status: 202 });
      });
    const long = await connectMcp({ url: URL_, fetch: listing([{ ...TOOL, name: 'x'.repeat(60) }]).fetch });
    await expect(long.tools({ prefix: 'server_' })).rejects.toThrow(/not 1-64 letters/);
    expect((await long.tools()).map((t) => t.name)).toEqual(['x'.repeat(60)]);
    const clash = await connectMcp({ url: URL_, fetch: listing([TOOL, { ...TOOL, name: 'a.b' }, { ...TOOL, name: 'a_b' }]).fetch });
    await expect(clash.tools()).rejects.toThrow('The MCP tools "a.b" and "a_b" would both be named "a_b"');
    expect((await clash.tools({ only: ['a.b'] })).map((t) => t.name)).toEqual(['a_b']);
  });
});

describe('MCP client: a hostile server’s tool names (attack33)', () => {
  it('names like __proto__ or constructor are tools of their own, a name that is a local tool’s is refused beside it, and only listed names run', async () => {
    const server = scripted((message) => {
      if (message.method === 'initialize') return initialized(message.id);
      if (message.method === 'tools/list') return json({ jsonrpc: '2.0', id: message.id, result: { tools: ['__proto__', 'constructor', 'query_order'].map((name) => ({ ...TOOL, name, annotations: { readOnlyHint: true } })) } });
      if (message.method === 'tools/call') return json({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: `remote ${(message.params as { name: string }).name}` }] } });
      return new Response(null, { status: 202 });
    });
    const client = await connectMcp({ url: URL_, fetch: server.fetch });
    const remote = await client.tools();
    const local = defineTool({ name: 'query_order', description: 'Local', input: v.object({}), execute: () => 'local' });
    // The same name twice is an error at registration, never one tool silently replacing the other.
    expect(() => createExecutor({ registry: [local, ...remote] })).toThrow(/query_order/);
    const executor = createExecutor({ registry: [local, ...(await client.tools({ prefix: 'remote_' }))] });
    const run = (name: string) => executor.execute({ id: 'c1', name, arguments: { text: 'x' } });
    expect((await run('remote___proto__')).content).toBe('remote __proto__');
    expect((await run('remote_constructor')).content).toBe('remote constructor');
    expect((await run('query_order')).content).toBe('local');
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) expect((await run(name)).outcome).toMatchObject({ type: 'error', error: { code: 'unknown-tool' } });
    expect(server.requests.filter((r) => r.message.method === 'tools/call').map((r) => (r.message.params as { name: string }).name)).toEqual(['__proto__', 'constructor']);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('MCP client: a stream that breaks off is resumed (Last-Event-ID)', () => {
  interface Call {
    readonly id: unknown;
    readonly token: unknown;
  }
  const encode = (text: string) => new TextEncoder().encode(text);
  const answer = (call: Call, text = 'done') => `data: ${JSON.stringify({ jsonrpc: '2.0', id: call.id, result: { content: [{ type: 'text', text }] } })}\n\n`;
  const progress = (call: Call, n: number) =>
    `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: call.token, progress: n } })}\n\n`;
  /** A stream that sends `events`, then fails as a dropped connection does (not a clean end). */
  const dropped = (events: string) => {
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) controller.error(new TypeError('network error'));
        sent = true;
        controller.enqueue(encode(events));
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
  /**
   * A server in session `s-1` whose `tools/call` stream carries `post(call)` and ends (or, with `drop`, breaks); its
   * n-th GET answers `get(lastEventId, n, call)`.
   */
  function breaking(
    post: (call: Call) => string | Response,
    get: (lastEventId: string | null, n: number, call: Call) => string | Response | Promise<Response> = () => new Response(null, { status: 405 }),
  ) {
    let call: Call = { id: undefined, token: undefined };
    let gets = 0;
    const server = scripted((message, request) => {
      if (request.method === 'GET') {
        const reply = get(request.headers.get('last-event-id'), ++gets, call);
        return typeof reply === 'string' ? sse(reply) : reply;
      }
      if (message.method === 'initialize') {
        const result = { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'resumable', version: '1' } };
        return json({ jsonrpc: '2.0', id: message.id, result }, { headers: { 'mcp-session-id': 's-1' } });
      }
      if (message.id === undefined) return new Response(null, { status: 202 });
      call = { id: message.id, token: (message.params as { _meta?: { progressToken?: unknown } })._meta?.progressToken };
      const reply = post(call);
      return typeof reply === 'string' ? sse(reply) : reply;
    });
    const getRequests = () => server.requests.filter((r) => r.method === 'GET');
    const calls = () => server.requests.filter((r) => r.message.method === 'tools/call');
    return { server, getRequests, calls };
  }

  it('a stream that ends or breaks before the answer is resumed: a GET with Last-Event-ID in the session; progress and the answer come from it', async () => {
    for (const end of ['ends', 'breaks'] as const) {
      const { server, getRequests, calls } = breaking(
        (call) => {
          // A priming event (an id, empty data), progress, then an event cut off by the end: its id does not count.
          const events = `id: e1\nretry: 0\ndata: \n\nid: e2\n${progress(call, 1)}id: e3\ndata: {"jsonrpc":`;
          return end === 'ends' ? events : dropped(events);
        },
        (lastEventId, _n, call) => (lastEventId === 'e2' ? `id: e4\n${progress(call, 2)}id: e5\n${answer(call, 'resumed')}` : new Response(null, { status: 400 })),
      );
      const client = await connectMcp({ url: URL_, fetch: server.fetch, headers: () => ({ authorization: 'Bearer t' }) });
      const reports: unknown[] = [];
      const result = await client.callTool('echo', {}, { onProgress: (p) => reports.push(p) });
      expect(result.content, end).toEqual([{ type: 'text', text: 'resumed' }]);
      expect(reports).toEqual([{ completed: 1 }, { completed: 2 }]);
      expect(getRequests()).toHaveLength(1);
      const headers = getRequests()[0]?.headers;
      expect(Object.fromEntries(['last-event-id', 'mcp-session-id', 'mcp-protocol-version', 'accept', 'authorization'].map((h) => [h, headers?.get(h)]))).toEqual({
        'last-event-id': 'e2',
        'mcp-session-id': 's-1',
        'mcp-protocol-version': '2025-06-18',
        accept: 'text/event-stream',
        authorization: 'Bearer t',
      });
      // Resumed, never sent again: a tool call is not idempotent.
      expect(calls()).toHaveLength(1);
    }
  });

  it('an event id a header cannot carry exactly (not ASCII, a space at an end) is not resumed: the call fails with an McpError naming it', async () => {
    for (const id of ['x y', 'a\tb']) {
      const { server, getRequests } = breaking(
        (call) => dropped(`id: ${id}\nretry: 0\n${progress(call, 1)}`),
        (lastEventId, _n, call) => (lastEventId === id ? answer(call, 'resumed') : new Response(null, { status: 400 })),
      );
      const client = await connectMcp({ url: URL_, fetch: server.fetch });
      expect((await client.callTool('echo', {})).content, id).toEqual([{ type: 'text', text: 'resumed' }]);
      expect(getRequests(), id).toHaveLength(1);
    }
    // `é` went out as the Latin-1 byte E9, not the UTF-8 the server wrote, and `€` made fetch throw a bare TypeError.
    for (const [id, end] of [['é', 'ends'], ['€ 日本', 'breaks'], [' padded', 'ends']] as const) {
      const { server, getRequests } = breaking((call) => (end === 'ends' ? `id: ${id}\nretry: 0\n${progress(call, 1)}` : dropped(`id: ${id}\nretry: 0\n${progress(call, 1)}`)));
      const client = await connectMcp({ url: URL_, fetch: server.fetch });
      const error = await client.callTool('echo', {}).catch((e: unknown) => e);
      expect(McpError.isInstance(error), id).toBe(true);
      const why = `(its last event id ${JSON.stringify(id)} cannot be sent back as Last-Event-ID)`;
      expect((error as Error).message, id).toContain(end === 'ends' ? `without answering tools/call ${why}.` : `answered tools/call ${why}: network error`);
      expect(getRequests(), id).toHaveLength(0);
    }
  });

  it('an initialize answered on a stream that breaks off is resumed in the session it starts', async () => {
    const server = scripted((message, request) => {
      if (request.method === 'GET') {
        const result = { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'late', version: '1' } };
        return sse(`id: i2\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result })}\n\n`);
      }
      if (message.method === 'initialize') return new Response('id: i1\nretry: 0\ndata: \n\n', { headers: { 'content-type': 'text/event-stream', 'mcp-session-id': 's-9' } });
      return new Response(null, { status: 202 });
    });
    const client = await connectMcp({ url: URL_, fetch: server.fetch });
    expect(client.server).toEqual({ name: 'late', version: '1' });
    const get = server.requests.find((r) => r.method === 'GET');
    expect([get?.headers.get('mcp-session-id'), get?.headers.get('last-event-id')]).toEqual(['s-9', 'i1']);
  });

  it('a polling server closes each stream after an event: it is resumed as often as it brings a new id, from the newest', async () => {
    const { server, getRequests } = breaking(
      () => 'id: p0\nretry: 0\ndata: \n\n',
      (_lastEventId, n, call) => `id: p${n}\n${n < 6 ? progress(call, n) : answer(call, 'polled')}`,
    );
    const client = await connectMcp({ url: URL_, fetch: server.fetch });
    const reports: unknown[] = [];
    expect((await client.callTool('echo', {}, { onProgress: (p) => reports.push(p) })).content).toEqual([{ type: 'text', text: 'polled' }]);
    expect(getRequests().map((r) => r.headers.get('last-event-id'))).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5']);
    expect(reports).toEqual([1, 2, 3, 4, 5].map((completed) => ({ completed })));
    // One that never answers is resumed 100 times at most: with `retry: 0`, it would have a call send GETs until its time limit.
    const endless = breaking(
      () => 'id: p0\nretry: 0\ndata: \n\n',
      (_lastEventId, n) => `id: p${n}\ndata: \n\n`,
    );
    await expect((await connectMcp({ url: URL_, fetch: endless.server.fetch })).callTool('echo', {})).rejects.toThrow(
      "The MCP server's stream broke off before it answered tools/call, and broke off again each of the 100 times it was resumed.",
    );
    expect(endless.getRequests()).toHaveLength(100);
  });

  it('without event ids (or with resumeAttempts: 0) a stream that ends early fails as before, and nothing is asked again', async () => {
    const noIds = breaking((call) => progress(call, 1));
    await expect((await connectMcp({ url: URL_, fetch: noIds.server.fetch })).callTool('echo', {})).rejects.toThrow(
      'The MCP server ended its stream without answering tools/call.',
    );
    // A dropped connection is an McpError too (it was the runtime's own TypeError).
    const cut = breaking((call) => dropped(progress(call, 1)));
    const error = await (await connectMcp({ url: URL_, fetch: cut.server.fetch })).callTool('echo', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ message: "The MCP server's stream broke off before it answered tools/call: network error", cause: new TypeError('network error') });
    // An empty id clears the last one: nothing to resume from.
    const cleared = breaking(() => 'id: e1\ndata: \n\nid:\ndata: \n\n');
    await expect((await connectMcp({ url: URL_, fetch: cleared.server.fetch })).callTool('echo', {})).rejects.toThrow('ended its stream without answering');
    const off = breaking(() => 'id: e1\nretry: 0\ndata: \n\n');
    await expect((await connectMcp({ url: URL_, fetch: off.server.fetch, resumeAttempts: 0 })).callTool('echo', {})).rejects.toThrow('ended its stream without answering');
    expect([noIds, cut, cleared, off].map((s) => s.getRequests().length)).toEqual([0, 0, 0, 0]);
    for (const bad of [-1, 1.5, Number.NaN, Infinity, '3']) {
      await expect(connectMcp({ url: URL_, fetch: off.server.fetch, resumeAttempts: bad as number })).rejects.toThrow(/^connectMcp: `resumeAttempts` must be a whole number from 0/);
    }
  });

  it('a GET answered 405 or 404 ends the call with an McpError of that status; 500, a network error or a stream of nothing else is tried resumeAttempts times', async () => {
    const once = (status: number) => breaking(() => 'id: e1\nretry: 0\ndata: \n\n', () => new Response('no', { status }));
    const noStream = once(405);
    await expect((await connectMcp({ url: URL_, fetch: noStream.server.fetch })).callTool('echo', {})).rejects.toMatchObject({
      name: 'McpError',
      status: 405,
      message: "The MCP server's stream broke off before it answered tools/call, and the server cannot resume it (HTTP 405: it offers no stream to resume).",
    });
    const gone = once(404);
    await expect((await connectMcp({ url: URL_, fetch: gone.server.fetch })).callTool('echo', {})).rejects.toMatchObject({
      status: 404,
      message: "The MCP server's stream broke off before it answered tools/call, and the server cannot resume it (HTTP 404: its session or the stream is gone).",
    });
    expect([noStream, gone].map((s) => s.getRequests().length)).toEqual([1, 1]);
    const failing = once(500);
    await expect((await connectMcp({ url: URL_, fetch: failing.server.fetch, resumeAttempts: 2 })).callTool('echo', {})).rejects.toMatchObject({
      status: 500,
      message: "The MCP server's stream broke off before it answered tools/call, and resuming it failed 2 times in a row: The MCP server answered HTTP 500: no",
    });
    expect(failing.getRequests()).toHaveLength(2);
    // Failures that pass: a 503 and an unreachable server, then the stream.
    const flaky = breaking(
      () => 'id: e1\nretry: 0\ndata: \n\n',
      (_id, n, call) => (n === 1 ? new Response('busy', { status: 503 }) : n === 2 ? Promise.reject(new TypeError('connection reset')) : answer(call, 'third time')),
    );
    expect((await (await connectMcp({ url: URL_, fetch: flaky.server.fetch })).callTool('echo', {})).content).toEqual([{ type: 'text', text: 'third time' }]);
    // A server that ignores Last-Event-ID: its streams carry nothing of ours, and each counts as a failed attempt.
    const ignoring = breaking(
      () => 'id: e1\nretry: 0\ndata: \n\n',
      () => `: hello\n\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: {} })}\n\n`,
    );
    await expect((await connectMcp({ url: URL_, fetch: ignoring.server.fetch })).callTool('echo', {})).rejects.toThrow(
      "The MCP server's stream broke off before it answered tools/call, and resuming it failed 3 times in a row: The stream it got ended with nothing new.",
    );
    expect(ignoring.getRequests()).toHaveLength(3);
    // An answer that is not a stream (which a GET may not be) brings no event either, and says what it was.
    const notStream = breaking(() => 'id: e1\nretry: 0\ndata: \n\n', (_id, _n, call) => json({ jsonrpc: '2.0', id: call.id, result: { content: [] } }));
    await expect((await connectMcp({ url: URL_, fetch: notStream.server.fetch, resumeAttempts: 1 })).callTool('echo', {})).rejects.toThrow(
      'and resuming it failed 1 time in a row: The server answered with content type "application/json", not an event stream.',
    );
    // Its media type is compared whole: a body of events under a type that only starts with text/event-stream is none.
    const lookalike = breaking(
      () => 'id: e1\nretry: 0\ndata: \n\n',
      (_id, _n, call) => new Response(`id: e2\n${answer(call, 'lookalike')}`, { headers: { 'content-type': 'text/event-streamy' } }),
    );
    await expect((await connectMcp({ url: URL_, fetch: lookalike.server.fetch, resumeAttempts: 2 })).callTool('echo', {})).rejects.toThrow(
      'and resuming it failed 2 times in a row: The server answered with content type "text/event-streamy", not an event stream.',
    );
    const spelled = breaking(
      () => 'id: e1\nretry: 0\ndata: \n\n',
      (_id, _n, call) => new Response(`id: e2\n${answer(call, 'resumed')}`, { headers: { 'content-type': 'Text/Event-Stream; charset=utf-8' } }),
    );
    expect((await (await connectMcp({ url: URL_, fetch: spelled.server.fetch })).callTool('echo', {})).content).toEqual([{ type: 'text', text: 'resumed' }]);
  });

  it('reads the content type of an answer as a media type: whole, case-insensitive, parameters after ";" aside', async () => {
    const answering = (type: string, body: (id: unknown) => string) =>
      scripted((message) => {
        if (message.method === 'initialize') return initialized(message.id);
        if (message.id === undefined) return new Response(null, { status: 202 });
        return new Response(body(message.id), { headers: { 'content-type': type } });
      });
    const jsonBody = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'ok' }] } });
    const sseBody = (id: unknown) => `data: ${jsonBody(id)}\n\n`;
    for (const [type, body] of [['APPLICATION/Json ; charset=utf-8', jsonBody], ['text/event-stream;charset=UTF-8', sseBody]] as const) {
      const client = await connectMcp({ url: URL_, fetch: answering(type, body).fetch });
      expect((await client.callTool('echo', {})).content, type).toEqual([{ type: 'text', text: 'ok' }]);
    }
    for (const [type, body] of [['application/jsonx', jsonBody], ['application/json-seq', jsonBody], ['text/event-streamy', sseBody]] as const) {
      const client = await connectMcp({ url: URL_, fetch: answering(type, body).fetch });
      await expect(client.callTool('echo', {}), type).rejects.toThrow(`The MCP server answered tools/call with content type "${type}".`);
    }
  });

  it('a stream of a session the server has since forgotten is not asked for: the call fails as a 404 would', async () => {
    let session = 's-1';
    const server = scripted((message, request) => {
      if (request.method === 'GET') return new Response(null, { status: 500 });
      if (message.method === 'initialize') {
        const result = { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'x', version: '1' } };
        return json({ jsonrpc: '2.0', id: message.id, result }, { headers: { 'mcp-session-id': session } });
      }
      if (request.headers.get('mcp-session-id') !== session) return new Response(null, { status: 404 });
      if (message.id === undefined) return new Response(null, { status: 202 });
      if ((message.params as { name: string }).name === 'first') {
        session = 's-2'; // the server forgets s-1 once this stream breaks off
        return sse('id: e1\nretry: 50\ndata: \n\n');
      }
      return json({ jsonrpc: '2.0', id: message.id, result: { content: [] } });
    });
    const client = await connectMcp({ url: URL_, fetch: server.fetch });
    const first = client.callTool('first', {}).catch((e: unknown) => e);
    // Another call meets the 404 and starts session s-2 while the first one waits to resume.
    await client.callTool('second', {});
    expect(await first).toMatchObject({ status: 404, message: expect.stringContaining('cannot resume it (HTTP 404') });
    expect(server.requests.filter((r) => r.method === 'GET')).toHaveLength(0);
  });

  it('waits the server’s retry (at most 60 s), 1 s without one, doubled after each attempt that brings nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      for (const [retry, first] of [
        ['retry: 250\n', 250],
        ['retry: 999999999999\n', 60_000],
        ['', 1_000],
      ] as const) {
        const { server, getRequests } = breaking(
          () => `id: e1\n${retry}data: \n\n`,
          (_id, n, call) => (n < 3 ? new Response(null, { status: 503 }) : answer(call)),
        );
        const client = await connectMcp({ url: URL_, fetch: server.fetch });
        let done = false;
        const call = client.callTool('echo', {}, { timeoutMs: 0 }).finally(() => {
          done = true;
        });
        // The waits: `first`, then twice and four times as long (capped at 60 s).
        for (const wait of [first, Math.min(first * 2, 60_000), Math.min(first * 4, 60_000)]) {
          const before = getRequests().length;
          await vi.advanceTimersByTimeAsync(wait - 1);
          expect(getRequests().length, `${retry || 'no retry'}: not before ${wait} ms`).toBe(before);
          await vi.advanceTimersByTimeAsync(1);
          expect(getRequests().length, `${retry || 'no retry'}: at ${wait} ms`).toBe(before + 1);
        }
        expect((await call).content).toEqual([{ type: 'text', text: 'done' }]);
        expect(done).toBe(true);
        expect(vi.getTimerCount()).toBe(0);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('an abort or the time limit during the wait ends the call at once, with its own reason; no GET is sent and no timer is left', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { server, getRequests } = breaking(() => 'id: e1\nretry: 30000\ndata: \n\n');
      const client = await connectMcp({ url: URL_, fetch: server.fetch });
      const timed = client.callTool('echo', {}, { timeoutMs: 50 }).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(50);
      expect(await timed).toMatchObject({ name: 'McpTimeoutError', message: 'The MCP server did not answer tools/call of "echo" within 50 ms.' });
      const stop = new AbortController();
      const stopped = client.callTool('echo', {}, { signal: stop.signal, timeoutMs: 0 }).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(100);
      stop.abort(new Error('the user left'));
      expect(await stopped).toEqual(new Error('the user left'));
      const closing = client.callTool('echo', {}, { timeoutMs: 0 }).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(100);
      await client.close();
      expect(await closing).toMatchObject({ message: 'The MCP connection is closed.' });
      await vi.advanceTimersByTimeAsync(0);
      expect(getRequests()).toHaveLength(0);
      expect(vi.getTimerCount()).toBe(0);
      // The server heard why each call ended.
      const reasons = server.requests.filter((r) => r.message.method === 'notifications/cancelled').map((r) => (r.message.params as { reason: string }).reason);
      expect(reasons).toEqual(['No answer within 50 ms.', 'The caller aborted the tool call.']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('MCP client: servers that misbehave get a typed error', () => {
  const connect = (answer: Parameters<typeof scripted>[0], options: { timeoutMs?: number; maxResponseBytes?: number } = {}) =>
    connectMcp({ url: URL_, fetch: scripted(answer).fetch, ...options });
  const afterInit = (then: (message: Record<string, unknown>) => Response | Promise<Response>) => (message: Record<string, unknown>) => {
    if (message.method === 'initialize') return initialized(message.id);
    if (message.id === undefined) return new Response(null, { status: 202 });
    return then(message);
  };

  it('at connect: an error status with its explanation, a revision it does not speak, a body that is not JSON, no answer in time', async () => {
    await expect(connect(() => new Response('invalid token', { status: 401 }))).rejects.toMatchObject({
      name: 'McpError',
      status: 401,
      message: 'The MCP server answered HTTP 401: invalid token',
    });
    // A gateway's page larger than the 4 KB read, in one chunk: its start still explains the status (it said only "HTTP 502").
    const page = `<html><title>502 Bad Gateway</title>${'<p>upstream unavailable</p>'.repeat(500)}</html>`;
    await expect(connect(() => new Response(new TextEncoder().encode(page), { status: 502 }))).rejects.toThrow(
      'The MCP server answered HTTP 502: <html><title>502 Bad Gateway</title><p>upstream unavailable</p>',
    );
    await expect(connect(() => new Response(null, { status: 307, headers: { location: 'https://elsewhere.example/' } }))).rejects.toThrow(/307 \(a redirect/);
    await expect(connect((m) => json({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2024-11-05' } }))).rejects.toThrow(
      'The MCP server speaks revision 2024-11-05; this client speaks 2025-11-25, 2025-06-18, 2025-03-26.',
    );
    await expect(connect(() => new Response('{"jsonrpc":', { headers: { 'content-type': 'application/json' } }))).rejects.toThrow("The MCP server's answer to initialize is not JSON.");
    await expect(connect((m) => json({ jsonrpc: '2.0', id: Number(m.id) + 1, result: {} }))).rejects.toThrow('is not its JSON-RPC response');
    await expect(connect(() => new Response('<html>', { headers: { 'content-type': 'text/html' } }))).rejects.toThrow('with content type "text/html"');
    await expect(connect(() => new Promise<Response>(() => {}), { timeoutMs: 30 })).rejects.toMatchObject({
      name: 'McpTimeoutError',
      method: 'initialize',
      timeoutMs: 30,
      message: 'The MCP server did not answer initialize within 30 ms.',
    });
    await expect(connectMcp({ url: URL_, fetch: () => Promise.reject(new TypeError('connection refused')) })).rejects.toThrow(
      'Could not reach the MCP server at https://orders.example: connection refused',
    );
  });

  it('at a call: a JSON-RPC error, a stream that ends without the answer, an answer over the size limit, a result without content', async () => {
    const refused = await connect(afterInit((m) => json({ jsonrpc: '2.0', id: m.id, error: { code: -32603, message: 'db down' } })));
    await expect(refused.callTool('echo', {})).rejects.toMatchObject({ code: -32603, message: 'The MCP server refused tools/call: db down' });
    // JSON that is no message (`null`, a number) is passed over, as text that is not JSON is.
    const odd = await connect(afterInit((m) => sse(`data: null\n\ndata: 7\n\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { content: [] } })}\n\n`)));
    expect(await odd.callTool('echo', {})).toEqual({ content: [], structuredContent: undefined, isError: false });
    await expect((await connect(afterInit(() => sse('data: null\n\n')))).callTool('echo', {})).rejects.toThrow('ended its stream without answering tools/call');
    const cut = await connect(afterInit(() => sse('data: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n')));
    await expect(cut.callTool('echo', {})).rejects.toThrow('The MCP server ended its stream without answering tools/call.');
    const huge = await connect(afterInit((m) => json({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'x'.repeat(5000) }] } })), { maxResponseBytes: 4096 });
    await expect(huge.callTool('echo', {})).rejects.toThrow("The MCP server's answer to tools/call is larger than 4096 bytes.");
    const empty = await connect(afterInit((m) => json({ jsonrpc: '2.0', id: m.id, result: {} })));
    await expect(empty.callTool('echo', {})).rejects.toThrow('answered the call of "echo" without `content`');
    const list = await connect(afterInit((m) => json({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'x' }] } })));
    await expect(list.listTools()).rejects.toThrow('listed a tool without a `name` and an `inputSchema` object');
  });

  it('a maxResponseBytes that is not a whole number from 1 is refused: a NaN had no limit, so an answer of any size was read', async () => {
    let fetched = 0;
    const fetch = async () => {
      fetched++;
      return new Response(null, { status: 500 });
    };
    for (const bad of [Number.NaN, 0, -1, 1.5]) {
      await expect(connectMcp({ url: URL_, fetch, maxResponseBytes: bad })).rejects.toThrow(/^connectMcp: `maxResponseBytes` must be a whole number from 1/);
    }
    expect(fetched).toBe(0);
  });

  it('an error status whose body never ends: its start is read until the time limit or the abort, not forever', async () => {
    // A `fetch` of your own (a service binding, a handler in the same process) need not end a body when it is aborted.
    const endless = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('busy'));
          },
        }),
        { status: 503 },
      );
    const refused = { name: 'McpError', status: 503, message: 'The MCP server answered HTTP 503: busy' };
    // At connect: the answer to `initialize`, and to the notification after it.
    await expect(connect(() => endless(), { timeoutMs: 300 })).rejects.toMatchObject(refused);
    await expect(connect((m) => (m.method === 'initialize' ? initialized(m.id) : endless()), { timeoutMs: 300 })).rejects.toMatchObject(refused);
    let connected = false;
    const client = await connect((m) => {
      if (m.method === 'initialize') return initialized(m.id);
      if (connected) return endless();
      connected = true;
      return new Response(null, { status: 202 });
    });
    // Later requests, ended by the caller's abort.
    const stop = new AbortController();
    const listing = client.listTools({ signal: stop.signal });
    const call = client.callTool('echo', {}, { signal: stop.signal });
    setTimeout(() => stop.abort(new Error('stopped')), 20);
    await expect(listing).rejects.toMatchObject(refused);
    await expect(call).rejects.toMatchObject(refused);
  });

  it('"error": null in an answer (JSON-RPC 1.0 style) is no error: its result is read, and an answer with neither is an McpError', async () => {
    const client = await connect((m) => {
      if (m.method === 'initialize') return json({ jsonrpc: '2.0', id: m.id, error: null, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'x', version: '1' } } });
      if (m.id === undefined) return new Response(null, { status: 202 });
      if ((m.params as { name?: unknown }).name === 'empty') return sse(`data: ${JSON.stringify({ jsonrpc: '2.0', id: m.id, error: null })}\n\n`);
      return json({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'ok' }] }, error: null });
    });
    expect(client.server).toEqual({ name: 'x', version: '1' });
    expect(await client.callTool('echo', {})).toEqual({ content: [{ type: 'text', text: 'ok' }], structuredContent: undefined, isError: false });
    await expect(client.callTool('empty', {})).rejects.toThrow('answered the call of "empty" without `content`');
  });

  it('a tool whose server fails reads as a typed error in the executor, never a rejection', async () => {
    let fail = false;
    const client = await connect(
      afterInit((m) => (m.method === 'tools/list' ? json({ jsonrpc: '2.0', id: m.id, result: { tools: [TOOL] } }) : fail ? new Response('overloaded', { status: 503 }) : json({}))),
    );
    const executor = createExecutor({ registry: await client.tools({ policy: { effects: 'read' } }) });
    fail = true;
    const result = await executor.execute({ id: 'c1', name: 'echo', arguments: '{"text":"x"}' });
    expect(result.outcome).toMatchObject({ type: 'error', error: { code: 'execution-failed', message: 'The MCP server answered HTTP 503: overloaded' } });
    expect(result.outcome.type === 'error' && result.outcome.error.cause).toBeInstanceOf(McpError);
  });
});

describe('MCP client: patterns in a server’s schemas cannot hang the isolate', () => {
  // A remote schema's pattern meets arguments the model wrote: without the guard, the first call blocks the thread
  // for hours (the engine backtracks on `^(a+)+$`), and this test never ends.
  const tools = [
    { name: 'find', description: 'Finds', inputSchema: { type: 'object', properties: { q: { type: 'string', pattern: '^(a+)+$' } }, required: ['q'] } },
    { name: 'tag', description: 'Tags', inputSchema: { type: 'object', patternProperties: { '^(x+x+)+$': { type: 'string' } } } },
    { name: 'twin', description: 'Twins', inputSchema: { type: 'object', patternProperties: { '^(x+)\\1$': { type: 'string' } } } },
    { name: 'pick', description: 'Picks', inputSchema: { type: 'object', properties: { v: { anyOf: [{ type: 'string', pattern: '^\\d+$' }, { type: 'string', pattern: '^[a-z]+$' }] } } } },
  ];
  const server = () =>
    scripted((m) => {
      if (m.method === 'initialize') return initialized(m.id);
      if (m.method === 'tools/list') return json({ jsonrpc: '2.0', id: m.id, result: { tools } });
      if (m.method === 'tools/call') return json({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: `ran ${JSON.stringify((m.params as { arguments: unknown }).arguments)}` }] } });
      return new Response(null, { status: 202 });
    });

  it('an argument or a property name made to backtrack gets its answer at once; a refused patternProperties key fails only its tool; anyOf branches still choose', async () => {
    const remote = server();
    const client = await connectMcp({ url: URL_, fetch: remote.fetch });
    const listed = await client.tools({ policy: { effects: 'read' } }); // runs without an approval
    expect(listed.find((t) => t.name === 'find')?.jsonSchema).toEqual(tools[0]?.inputSchema);
    const executor = createExecutor({ registry: listed });
    const longName = { [`${'x'.repeat(5000)}!`]: 'v' };
    const [find, tag, tagged, twin, pick, wrong, ok] = await executor.executeAll([
      { id: 'a', name: 'find', arguments: JSON.stringify({ q: `${'a'.repeat(5000)}!` }) },
      { id: 'b', name: 'tag', arguments: JSON.stringify(longName) },
      { id: 'b2', name: 'tag', arguments: '{"xx":1}' },
      { id: 'b3', name: 'twin', arguments: '{}' },
      { id: 'c', name: 'pick', arguments: '{"v":"123"}' },
      { id: 'd', name: 'pick', arguments: '{"v":"12a"}' },
      { id: 'e', name: 'find', arguments: '{"q":"aaa"}' },
    ]);
    expect(find?.outcome).toMatchObject({ type: 'error', error: { code: 'invalid-input', issues: [{ path: 'q', message: 'String does not match pattern "^(a+)+$".' }] } });
    // The key runs on the linear matcher: a name it does not match is free, one it matches gets the key's subschema.
    expect(tag?.content).toBe(`ran ${JSON.stringify(longName)}`);
    expect(tagged?.outcome).toMatchObject({ type: 'error', error: { code: 'invalid-input' } });
    expect(tagged?.content).toContain('Property "xx" matches pattern "^(x+x+)+$" but does not match associated schema.');
    expect(twin?.outcome).toMatchObject({ type: 'error', error: { code: 'invalid-input' } });
    expect(twin?.content).toContain('its schema\'s patternProperties key "^(x+)\\1$" is not run, because it has a backreference');
    expect(pick?.content).toBe('ran {"v":"123"}');
    expect(wrong?.content).toContain('String does not match pattern "^\\d+$".');
    expect(wrong?.content).toContain('String does not match pattern "^[a-z]+$".');
    expect(ok?.content).toBe('ran {"q":"aaa"}');
    // Only the three valid calls reached the server.
    expect(remote.requests.filter((r) => r.message.method === 'tools/call')).toHaveLength(3);
  });
});

describe('MCP client: time limits', () => {
  /** A server whose `tools/call` answers only when released (`hold`), or never; it accepts every notification. */
  function holding() {
    const held: { name: unknown; release: () => void }[] = [];
    const server = scripted((m) => {
      if (m.method === 'initialize') return initialized(m.id);
      if (m.id === undefined) return new Response(null, { status: 202 });
      if (m.method === 'tools/list') return json({ jsonrpc: '2.0', id: m.id, result: { tools: [TOOL] } });
      const answer = json({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'late' }] } });
      return new Promise<Response>((resolve) => held.push({ name: (m.params as { name?: unknown }).name, release: () => resolve(answer) }));
    });
    const cancelled = () => server.requests.filter((r) => r.message.method === 'notifications/cancelled').map((r) => r.message.params);
    return { server, held, cancelled };
  }
  const settled = <T>(promise: Promise<T>) => {
    const state: { value?: T; error?: unknown; done: boolean } = { done: false };
    promise.then(
      (value) => Object.assign(state, { value, done: true }),
      (error: unknown) => Object.assign(state, { error, done: true }),
    );
    return state;
  };

  it('a direct callTool has a time limit of its own, 60 s by default: a server that never answers fails with McpTimeoutError and is told', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { server, held, cancelled } = holding();
      const client = await connectMcp({ url: URL_, fetch: server.fetch });
      const call = settled(client.callTool('wait', {}));
      await vi.advanceTimersByTimeAsync(59_999);
      expect(held.map((h) => h.name)).toEqual(['wait']);
      expect(call.done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(call.error).toBeInstanceOf(McpTimeoutError);
      expect(call.error).toBeInstanceOf(McpError);
      expect(call.error).toMatchObject({ name: 'McpTimeoutError', method: 'tools/call', timeoutMs: 60_000, message: 'The MCP server did not answer tools/call of "wait" within 60000 ms.' });
      const id = server.requests.find((r) => r.message.method === 'tools/call')?.message.id;
      expect(cancelled()).toEqual([{ requestId: id, reason: 'No answer within 60000 ms.' }]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('callTimeoutMs and a call’s own timeoutMs set it; 0 or Infinity for none; anything else is refused', async () => {
    const { server, held } = holding();
    const client = await connectMcp({ url: URL_, fetch: server.fetch, callTimeoutMs: 40 });
    await expect(client.callTool('wait', {})).rejects.toMatchObject({ name: 'McpTimeoutError', timeoutMs: 40, message: 'The MCP server did not answer tools/call of "wait" within 40 ms.' });
    await expect(client.callTool('wait', {}, { timeoutMs: 20 })).rejects.toMatchObject({ name: 'McpTimeoutError', timeoutMs: 20 });
    // A caller's own abort stays the caller's reason.
    await expect(client.callTool('wait', {}, { signal: AbortSignal.abort(new Error('stopped')) })).rejects.toThrow('stopped');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const unbounded = await connectMcp({ url: URL_, fetch: server.fetch, callTimeoutMs: 0 });
      const calls = [settled(unbounded.callTool('slow', {})), settled(client.callTool('slow', {}, { timeoutMs: Infinity })), settled(client.callTool('slow', {}, { timeoutMs: 0 }))];
      await vi.advanceTimersByTimeAsync(30 * 24 * 3_600_000);
      expect(calls.map((c) => c.done)).toEqual([false, false, false]);
      for (const h of held.filter((h) => h.name === 'slow')) h.release();
      await vi.waitFor(() => expect(calls.map((c) => (c.value?.content[0] as { text?: string } | undefined)?.text)).toEqual(['late', 'late', 'late']));
    } finally {
      vi.useRealTimers();
    }
    for (const bad of [-1, Number.NaN, 2 ** 31, '5', null]) {
      await expect(connectMcp({ url: URL_, fetch: server.fetch, callTimeoutMs: bad as number })).rejects.toThrow(/^connectMcp: `callTimeoutMs` must be a number of milliseconds/);
      await expect(connectMcp({ url: URL_, fetch: server.fetch, timeoutMs: bad as number })).rejects.toThrow(/^connectMcp: `timeoutMs` must be a number of milliseconds/);
      await expect(client.callTool('echo', {}, { timeoutMs: bad as number })).rejects.toThrow(/^callTool: `timeoutMs` must be a number of milliseconds/);
    }
  });

  it('the tools of tools() take the client’s callTimeoutMs as their time limit (60 s by default, none for 0), not a 60 s of their own', async () => {
    const { server, cancelled } = holding();
    const limitOf = async (options: { callTimeoutMs?: number }) => (await (await connectMcp({ url: URL_, fetch: server.fetch, ...options })).tools())[0]?.policy.timeoutMs;
    expect(await limitOf({})).toBe(60_000);
    expect(await limitOf({ callTimeoutMs: 5_000 })).toBe(5_000);
    expect(await limitOf({ callTimeoutMs: 0 })).toBeUndefined();
    expect(await limitOf({ callTimeoutMs: Infinity })).toBeUndefined();
    // A remote tool that never answers ends at the client's 40 ms through the executor: it waited 60 s.
    const client = await connectMcp({ url: URL_, fetch: server.fetch, callTimeoutMs: 40 });
    const result = await createExecutor({ registry: await client.tools({ policy: { effects: 'read' } }) }).execute({ id: 'c1', name: 'echo', arguments: '{}' });
    expect(result.outcome).toMatchObject({ error: { code: 'timeout', message: 'Tool "echo" did not finish within 40 ms.' } });
    await vi.waitFor(() => expect(cancelled()).toHaveLength(1));
  });

  it('tools/list has the client’s timeoutMs (30 s by default), whatever callTimeoutMs says: a hung listing does not wait 60 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const server = scripted((m) => {
        if (m.method === 'initialize') return initialized(m.id);
        if (m.id === undefined) return new Response(null, { status: 202 });
        return new Promise<Response>(() => {});
      });
      const client = await connectMcp({ url: URL_, fetch: server.fetch, callTimeoutMs: 5_000 });
      const listing = settled(client.tools());
      await vi.advanceTimersByTimeAsync(29_999);
      expect(listing.done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(listing.error).toMatchObject({ name: 'McpTimeoutError', method: 'tools/list', timeoutMs: 30_000 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a remote tool run by the executor has its policy’s time limit, not the client’s; without one in its policy, the client’s', async () => {
    let answerAfterMs = 100;
    const server = scripted((m) => {
      if (m.method === 'initialize') return initialized(m.id);
      if (m.id === undefined) return new Response(null, { status: 202 });
      if (m.method === 'tools/list') return json({ jsonrpc: '2.0', id: m.id, result: { tools: [{ ...TOOL, annotations: { readOnlyHint: true } }] } });
      const answer = json({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'answered' }] } });
      return new Promise<Response>((resolve) => setTimeout(() => resolve(answer), answerAfterMs));
    });
    const client = await connectMcp({ url: URL_, fetch: server.fetch, callTimeoutMs: 30 });
    const call = { id: 'c1', name: 'echo', arguments: '{}' };
    // The answer comes after the client's 30 ms but within the policy's limit.
    expect((await createExecutor({ registry: await client.tools({ policy: { timeoutMs: 5_000 } }) }).execute(call)).content).toBe('answered');
    const unbounded = createExecutor({ registry: await client.tools({ policy: { timeoutMs: undefined } }) });
    answerAfterMs = 5_000;
    expect((await unbounded.execute(call)).outcome).toMatchObject({ error: { code: 'execution-failed', message: 'The MCP server did not answer tools/call of "echo" within 30 ms.' } });
  });

  it('a call whose signal is already aborted fails with its reason and leaves no rejection unhandled (fetch rejects too)', async () => {
    // As the platform's fetch does: a request whose signal is aborted rejects with it (a moment later).
    const server = scripted((m) => (m.method === 'initialize' ? initialized(m.id) : new Response(null, { status: 202 })));
    const fetch = async (request: Request) => {
      const aborted = request.signal.aborted;
      await Promise.resolve();
      if (aborted) throw request.signal.reason;
      return server.fetch(request);
    };
    const client = await connectMcp({ url: URL_, fetch, headers: { authorization: 'Bearer t' } });
    const watcher = watchUnhandledRejections();
    try {
      await expect(client.callTool('echo', {}, { signal: AbortSignal.abort(new Error('stopped')) })).rejects.toThrow('stopped');
      await expect(client.listTools({ signal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow('gone');
      await settle();
      expect(watcher.reasons).toEqual([]);
    } finally {
      watcher.stop();
    }
    expect(server.requests.filter((r) => r.message.method === 'tools/call' || r.message.method === 'tools/list')).toEqual([]);
  });

  it('the server hears why a call ended: the policy’s time limit, not "the caller aborted"', async () => {
    const { server, held, cancelled } = holding();
    const client = await connectMcp({ url: URL_, fetch: server.fetch });
    const timed = createExecutor({ registry: await client.tools({ policy: { effects: 'read', timeoutMs: 20 } }) });
    expect((await timed.execute({ id: 'c1', name: 'echo', arguments: '{}' })).outcome).toMatchObject({ error: { code: 'timeout' } });
    const stop = new AbortController();
    const patient = createExecutor({ registry: await client.tools({ policy: { effects: 'read', timeoutMs: 5_000 } }) });
    const stopped = patient.execute({ id: 'c2', name: 'echo', arguments: '{}' }, { signal: stop.signal });
    await vi.waitFor(() => expect(held).toHaveLength(2));
    stop.abort();
    expect((await stopped).outcome).toMatchObject({ error: { code: 'aborted' } });
    await vi.waitFor(() => expect(cancelled()).toHaveLength(2));
    expect(cancelled().map((params) => (params as { reason: string }).reason)).toEqual(['Tool "echo" did not finish within 20 ms.', 'The caller aborted the tool call.']);
    for (const { release } of held) release();
  });
});

/** A real 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describe('MCP: images in tool results', () => {
  const chart = defineTool({
    name: 'chart',
    description: 'Draws a chart',
    input: v.object({ title: v.string() }),
    execute: ({ title }) => ({ title }),
    toModelOutput: ({ title }) => [{ type: 'text', text: `Chart "${title}":` }, imagePart(PNG, 'image/png')],
  });
  const handle = createMcpHandler({ tools: [chart], name: 'charts', version: '1.0.0' });
  const fetch = (request: Request) => handle(request);

  it('the handler sends parts as MCP text and image pieces', async () => {
    const client = await connectMcp({ url: URL_, fetch });
    const result = await client.callTool('chart', { title: 'Sales' });
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'Chart "Sales":' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
      ],
      structuredContent: undefined,
      isError: false,
    });
  });

  it('the client hands a remote image to the model as an image part; the output is the content', async () => {
    const client = await connectMcp({ url: URL_, fetch });
    const result = await createExecutor({ registry: await client.tools() }).execute({ id: 'c1', name: 'chart', arguments: '{"title":"Sales"}' });
    expect(result.isError).toBe(false);
    expect(result.parts).toEqual([
      { type: 'text', text: 'Chart "Sales":' },
      { type: 'image', data: PNG, mediaType: 'image/png' },
    ]);
    expect(result.outcome.type === 'success' && result.outcome.output).toEqual([
      { type: 'text', text: 'Chart "Sales":' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
    ]);
    expect(result.content).toBe('Chart "Sales":\n[image: image/png, 68 B]');
  });

  it('a structured value beside an image keeps the image for the model; a declared output sent only as text is read from it', async () => {
    const tools = [
      { name: 'pic', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
      { name: 'sum', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true }, outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } },
    ];
    const server = scripted((message) => {
      if (message.method === 'initialize') return initialized(message.id);
      if (message.id === undefined) return new Response(null, { status: 202 });
      if (message.method === 'tools/list') return json({ jsonrpc: '2.0', id: message.id, result: { tools } });
      const { name, arguments: args } = message.params as { name: string; arguments: { text?: string } };
      const result =
        name === 'pic'
          ? { content: [{ type: 'text', text: 'A chart' }, { type: 'image', data: PNG, mimeType: 'image/png' }], structuredContent: { bars: 3 } }
          : { content: args.text === undefined ? [] : [{ type: 'text', text: args.text }] };
      return json({ jsonrpc: '2.0', id: message.id, result });
    });
    const executor = createExecutor({ registry: await (await connectMcp({ url: URL_, fetch: server.fetch })).tools() });
    // The image was dropped for the structured value, which only repeats the text.
    const pic = await executor.execute({ id: 'c1', name: 'pic', arguments: {} });
    expect(pic.parts).toEqual([
      { type: 'text', text: 'A chart' },
      { type: 'image', data: PNG, mediaType: 'image/png' },
    ]);
    // An old server: the JSON as text only. The output schema refused `undefined` ("Instances of "undefined" type…").
    const fromText = await executor.execute({ id: 'c2', name: 'sum', arguments: { text: '{"n":6}' } });
    expect(fromText.outcome).toEqual({ type: 'success', output: { n: 6 } });
    const wrong = await executor.execute({ id: 'c3', name: 'sum', arguments: { text: '{"n":"six"}' } });
    expect(wrong.outcome.type === 'error' && wrong.outcome.error.code).toBe('invalid-output');
    const prose = await executor.execute({ id: 'c4', name: 'sum', arguments: { text: 'Six.' } });
    expect(prose.content).toBe('Error (invalid-output): The MCP tool "sum" declares an output schema, but its server sent no structured result (only text: Six.).');
    const nothing = await executor.execute({ id: 'c5', name: 'sum', arguments: {} });
    expect(nothing.content).toBe('Error (invalid-output): The MCP tool "sum" declares an output schema, but its server sent no structured result (nothing).');
  });

  it('contentParts: images a model takes as images, the rest as the text that names it', () => {
    expect(
      contentParts([
        { type: 'text', text: 'first' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'image', data: PNG, mimeType: 'image/svg+xml' },
        { type: 'image', data: 'not base64!', mimeType: 'image/png' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      ]),
    ).toEqual([
      { type: 'text', text: 'first' },
      { type: 'image', data: PNG, mediaType: 'image/png' },
      { type: 'text', text: '[image: image/svg+xml, not shown]' },
      { type: 'text', text: '[image: image/png, not shown]' },
      { type: 'text', text: '[audio: audio/wav, not shown]' },
    ]);
  });
});

/** A one-page PDF, as small as it gets. */
const PDF = btoa('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

describe('MCP: documents in tool results', () => {
  const invoice = defineTool({
    name: 'invoice',
    description: 'Fetches an invoice as a PDF',
    input: v.object({ id: v.string() }),
    execute: ({ id }) => ({ id }),
    toModelOutput: ({ id }) => [
      { type: 'text', text: `Invoice ${id}:` },
      documentPart(PDF, 'application/pdf', `invoice ${id}.pdf`),
      documentPart(PDF, 'application/pdf'),
    ],
  });
  const handle = createMcpHandler({ tools: [invoice], name: 'invoices', version: '1.0.0' });
  const fetch = (request: Request) => handle(request);

  it('the handler sends a document as an embedded resource: the PDF as its blob, its file name at the end of its URI', async () => {
    const client = await connectMcp({ url: URL_, fetch });
    const result = await client.callTool('invoice', { id: 'INV-7' });
    expect(result.content).toEqual([
      { type: 'text', text: 'Invoice INV-7:' },
      { type: 'resource', resource: { uri: 'edgetool://document/1/invoice%20INV-7.pdf', mimeType: 'application/pdf', blob: PDF } },
      { type: 'resource', resource: { uri: 'edgetool://document/2/document.pdf', mimeType: 'application/pdf', blob: PDF } },
    ]);
  });

  it('the client hands a remote PDF to the model as a document part with its file name; the output is the content', async () => {
    const client = await connectMcp({ url: URL_, fetch });
    const result = await createExecutor({ registry: await client.tools() }).execute({ id: 'c1', name: 'invoice', arguments: '{"id":"INV-7"}' });
    expect(result.isError).toBe(false);
    expect(result.parts).toEqual([
      { type: 'text', text: 'Invoice INV-7:' },
      { type: 'document', data: PDF, mediaType: 'application/pdf', filename: 'invoice INV-7.pdf' },
      { type: 'document', data: PDF, mediaType: 'application/pdf', filename: 'document.pdf' },
    ]);
    expect(result.outcome.type === 'success' && result.outcome.output).toMatchObject([{ type: 'text' }, { type: 'resource' }, { type: 'resource' }]);
    expect(result.content).toMatch(/^Invoice INV-7:\n\[document: invoice INV-7\.pdf, application\/pdf, \d+ B\]\n\[document: document\.pdf, /);
  });

  it('contentParts: a PDF blob is a document named by its URI when it can be; text resources, other blobs and bad PDFs are text', () => {
    const pdf = (uri: string) => ({ type: 'resource' as const, resource: { uri, mimeType: 'application/pdf', blob: PDF } });
    const document = (filename?: string) => ({ type: 'document', data: PDF, mediaType: 'application/pdf', ...(filename === undefined ? {} : { filename }) });
    expect(
      contentParts([
        pdf('file:///home/ada/q3%20report.pdf'),
        pdf('https://files.example/r/7.pdf?download=1#page=2'),
        pdf('https://files.example/'),
        pdf('s3://bucket/a%2Fb.pdf'),
        pdf('file:///bad%E0%A4%A.pdf'),
        { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'inline notes' } },
        { type: 'resource', resource: { uri: 'file:///text.pdf', mimeType: 'application/pdf', text: 'not a blob' } },
        { type: 'resource', resource: { uri: 'file:///a.zip', mimeType: 'application/zip', blob: PDF } },
        { type: 'resource', resource: { uri: 'file:///png.pdf', mimeType: 'application/pdf', blob: PNG } },
        { type: 'resource', resource: { uri: 'file:///nothing.pdf', blob: PDF } },
      ]),
    ).toEqual([
      document('q3 report.pdf'),
      document('7.pdf'),
      document(),
      document(),
      document(),
      { type: 'text', text: 'inline notes' },
      { type: 'text', text: 'not a blob' },
      { type: 'text', text: '[resource: file:///a.zip]' },
      { type: 'text', text: '[resource: file:///png.pdf]' },
      { type: 'text', text: '[resource: file:///nothing.pdf]' },
    ]);
  });
});

describe('contentText', () => {
  it('keeps text, embedded text resources, and names what text cannot carry', () => {
    expect(
      contentText([
        { type: 'text', text: 'first' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'resource_link', uri: 'file:///a.txt' },
        { type: 'resource', resource: { uri: 'file:///b.txt', text: 'inline' } },
        { type: 'resource', resource: { uri: 'file:///c.bin', blob: 'AAAA' } },
      ]),
    ).toBe('first\n[image: image/png, not shown]\n[resource: file:///a.txt]\ninline\n[resource: file:///c.bin]');
  });
});

describe('MCP: tuple schemas in each revision’s dialect', () => {
  const pairTool = defineTool({
    name: 'place',
    description: 'Places a pin',
    input: v.object({ at: v.tupleWithRest([v.string()], v.number()) }),
    execute: ({ at }) => at.join(' '),
  });
  /** What the local executor makes of a good and a bad tuple, and how many calls reached the server. */
  async function run(client: Awaited<ReturnType<typeof connectMcp>>, server: { requests: { message: Record<string, unknown> }[] } | { calls: () => unknown[] }) {
    const executor = createExecutor({ registry: await client.tools() });
    const good = await executor.execute({ id: 'c1', name: 'place', arguments: '{"at":["x",1,2]}' });
    const bad = await executor.execute({ id: 'c2', name: 'place', arguments: '{"at":["x","y"]}' });
    const sent = 'calls' in server ? server.calls().length : server.requests.filter((r) => r.message.method === 'tools/call').length;
    return { good: good.outcome.type, bad: bad.outcome.type === 'error' ? bad.outcome.error.code : bad.outcome.type, sent };
  }

  it('against the handler at 2025-11-25 the tuple is listed as prefixItems and a rest, and checked here before anything is sent', async () => {
    const handle = createMcpHandler({ tools: [pairTool], name: 'pins', version: '1' });
    const calls: unknown[] = [];
    const fetch = async (request: Request) => {
      if ((await request.clone().json()).method === 'tools/call') calls.push(request);
      return handle(request);
    };
    const client = await connectMcp({ url: URL_, fetch });
    expect(client.protocolVersion).toBe('2025-11-25');
    const [listed] = await client.listTools();
    expect(listed?.inputSchema.properties).toMatchObject({ at: { prefixItems: [{ type: 'string' }], items: { type: 'number' } } });
    expect(await run(client, { calls: () => calls })).toEqual({ good: 'success', bad: 'invalid-input', sent: 1 });
  });

  it('a 2025-06-18 server’s draft-07 tuple (items as a list, additionalItems) is still read and checked the same', async () => {
    const listed = { ...TOOL, name: 'place', inputSchema: { type: 'object', ...pairTool.jsonSchema }, annotations: { readOnlyHint: true } };
    expect(pairTool.jsonSchema.properties).toMatchObject({ at: { items: [{ type: 'string' }], additionalItems: { type: 'number' } } });
    const server = scripted((message) => {
      if (message.method === 'initialize') return initialized(message.id);
      if (message.method === 'tools/list') return json({ jsonrpc: '2.0', id: message.id, result: { tools: [listed] } });
      if (message.id === undefined) return new Response(null, { status: 202 });
      return json({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'placed' }] } });
    });
    const client = await connectMcp({ url: URL_, fetch: server.fetch });
    expect(client.protocolVersion).toBe('2025-06-18');
    expect(await run(client, server)).toEqual({ good: 'success', bad: 'invalid-input', sent: 1 });
  });
});
