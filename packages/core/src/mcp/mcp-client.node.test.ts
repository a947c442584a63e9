// Node-only: edgetool's MCP client against the official MCP TypeScript SDK's server (its Streamable HTTP transport,
// with sessions and without) behind node:http on 127.0.0.1, through the real global `fetch`. The wire format and the
// session rules are the SDK's, not ours.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ToolProgressEvent } from '../chain/types.ts';
import { createExecutor } from '../executor/executor.ts';
import { connectMcp, McpError } from './mcp-client.ts';

const TOOLS = [
  {
    name: 'orders.search',
    title: 'Search orders',
    description: 'Finds orders by customer',
    inputSchema: { type: 'object', properties: { customer: { type: 'string', minLength: 1 } }, required: ['customer'] },
    outputSchema: { type: 'object', properties: { ids: { type: 'array', items: { type: 'string' } } }, required: ['ids'] },
    annotations: { readOnlyHint: true },
  },
  { name: 'report', description: 'Builds a report', inputSchema: { type: 'object', properties: { pages: { type: 'integer' } } }, annotations: { readOnlyHint: true } },
  { name: 'wipe', description: 'Deletes everything', inputSchema: { type: 'object' } },
  { name: 'chart', description: 'Draws a chart', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  { name: 'wait', description: 'Waits until cancelled', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  { name: 'statement', description: 'The month’s statement as a PDF', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
];

/** A one-page PDF, as small as it gets. */
const PDF = btoa('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

const cancelled: string[] = [];
/** The `wait` calls the server has begun (their request ids): a test aborts one once it is there, not after a sleep. */
const waiting: string[] = [];

/** A server made with the SDK's low-level `Server`, so the schemas are raw JSON Schema (what any server sends). */
function sdkServer(): Server {
  const server = new Server({ name: 'sdk-orders', version: '3.1.0' }, { capabilities: { tools: {} }, instructions: 'Search before you report.' });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = request.params.arguments ?? {};
    switch (request.params.name) {
      case 'orders.search': {
        const ids = args.customer === 'ada' ? ['A-1', 'A-2'] : [];
        return { content: [{ type: 'text', text: JSON.stringify({ ids }) }], structuredContent: { ids } };
      }
      case 'report': {
        const token = request.params._meta?.progressToken;
        const pages = Number(args.pages ?? 2);
        for (let page = 1; page <= pages; page++) {
          if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: page, total: pages, message: `page ${page}` } });
        }
        return { content: [{ type: 'text', text: `report of ${pages} pages` }] };
      }
      case 'chart':
        return { content: [{ type: 'text', text: 'Sales by month:' }, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] };
      case 'statement':
        return {
          content: [
            { type: 'text', text: 'Your statement:' },
            { type: 'resource', resource: { uri: 'file:///statements/2026-05%20statement.pdf', mimeType: 'application/pdf', blob: PDF } },
            { type: 'resource', resource: { uri: 'file:///statements/README.txt', mimeType: 'text/plain', text: 'Statements are monthly.' } },
          ],
        };
      case 'poll': {
        // Not listed: the SDK's polling. It closes the call's stream (the client resumes with Last-Event-ID after the
        // retry), goes on working, and answers on the resumed stream.
        const token = request.params._meta?.progressToken;
        const report = (progress: number) => extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token ?? '', progress, total: 3 } });
        await report(1);
        extra.closeSSEStream?.();
        await new Promise((resolve) => setTimeout(resolve, 20));
        await report(2);
        await new Promise((resolve) => setTimeout(resolve, 50));
        await report(3);
        return { content: [{ type: 'text', text: `polled; stream closed: ${extra.closeSSEStream !== undefined}` }] };
      }
      case 'wait':
        waiting.push(String(extra.requestId));
        return new Promise((resolve) => {
          extra.signal.addEventListener('abort', () => {
            cancelled.push(String(extra.requestId));
            resolve({ content: [{ type: 'text', text: 'cancelled' }] });
          });
        });
      default:
        return { content: [{ type: 'text', text: `No tool named ${request.params.name}` }], isError: true };
    }
  });
  return server;
}

/** The SDK's session pattern: one transport per session, created by `initialize`, looked up by `Mcp-Session-Id`. */
const sessions = new Map<string, StreamableHTTPServerTransport>();
let jsonMode = false;
/** Sessions with an event store: their streams carry event ids and a `retry`, and can be resumed. */
let resumable = false;

async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const id = req.headers['mcp-session-id'];
  if (typeof id === 'string') {
    const transport = sessions.get(id);
    if (transport === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
      return;
    }
    await transport.handleRequest(req, res);
    return;
  }
  // No session: a new one (stateful) or, in JSON mode, a stateless transport per request.
  const transport = new StreamableHTTPServerTransport({
    ...(jsonMode ? {} : { sessionIdGenerator: () => randomUUID() }),
    ...(resumable ? { eventStore: new InMemoryEventStore(), retryInterval: 10 } : {}),
    enableJsonResponse: jsonMode,
    onsessioninitialized: (sessionId) => {
      sessions.set(sessionId, transport);
    },
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
  };
  await sdkServer().connect(transport);
  await transport.handleRequest(req, res);
}

let http: HttpServer;
let url: string;
beforeAll(async () => {
  http = createServer((req, res) => void route(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));
beforeEach(() => {
  jsonMode = false;
  resumable = false;
});

describe('MCP client against the official SDK’s server (sessions, SSE answers)', () => {
  it('connects in a session and lists the tools with their hints', async () => {
    const before = sessions.size;
    const client = await connectMcp({ url });
    expect(sessions.size).toBe(before + 1);
    expect(client.server).toEqual({ name: 'sdk-orders', version: '3.1.0' });
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(client.instructions).toBe('Search before you report.');
    const tools = await client.tools();
    expect(tools.map((t) => [t.name, t.policy.effects, t.policy.needsApproval])).toEqual([
      ['orders_search', 'read', false],
      ['report', 'read', false],
      ['wipe', 'destructive', true],
      ['chart', 'read', false],
      ['wait', 'read', false],
      ['statement', 'read', false],
    ]);
    await client.close();
  });

  it('runs the tools through the executor: structured output, progress, errors, images as image parts, PDFs as document parts', async () => {
    const client = await connectMcp({ url });
    const executor = createExecutor({ registry: await client.tools() });
    const search = await executor.execute({ id: 'c1', name: 'orders_search', arguments: '{"customer":"ada"}' });
    expect(search.outcome).toEqual({ type: 'success', output: { ids: ['A-1', 'A-2'] } });
    const invalid = await executor.execute({ id: 'c2', name: 'orders_search', arguments: '{"customer":""}' });
    expect(invalid.outcome).toMatchObject({ error: { code: 'invalid-input' } });

    const events: ToolProgressEvent[] = [];
    const report = await executor.execute({ id: 'c3', name: 'report', arguments: '{"pages":3}' }, { onProgress: (e) => events.push(e) });
    expect(report.content).toBe('report of 3 pages');
    expect(events.map((e) => e.progress)).toEqual([1, 2, 3].map((page) => ({ message: `page ${page}`, completed: page, total: 3 })));

    const chart = await executor.execute({ id: 'c4', name: 'chart', arguments: '{}' });
    expect(chart.parts).toEqual([
      { type: 'text', text: 'Sales by month:' },
      { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
    ]);
    expect(chart.content).toBe('Sales by month:\n[image: image/png, 8 B]');
    const statement = await executor.execute({ id: 'c6', name: 'statement', arguments: '{}' });
    expect(statement.parts).toEqual([
      { type: 'text', text: 'Your statement:' },
      { type: 'document', data: PDF, mediaType: 'application/pdf', filename: '2026-05 statement.pdf' },
      { type: 'text', text: 'Statements are monthly.' },
    ]);
    expect((await executor.execute({ id: 'c5', name: 'wipe', arguments: '{}' })).outcome.type).toBe('approval-required');
    expect(await client.callTool('nope', {})).toMatchObject({ isError: true, content: [{ text: 'No tool named nope' }] });
    await client.close();
  });

  it('starts a new session when the server drops the old one, and ends its session with DELETE', async () => {
    const client = await connectMcp({ url });
    const [first] = [...sessions.keys()].slice(-1);
    await (sessions.get(first as string) as StreamableHTTPServerTransport).close();
    expect(sessions.has(first as string)).toBe(false);
    expect(await client.callTool('report', { pages: 1 })).toMatchObject({ content: [{ text: 'report of 1 pages' }] });
    const [second] = [...sessions.keys()].slice(-1);
    expect(second).not.toBe(first);
    await client.close();
    expect(sessions.has(second as string)).toBe(false);
  });

  it('an abort cancels the call on the server (notifications/cancelled)', async () => {
    const client = await connectMcp({ url });
    const executor = createExecutor({ registry: await client.tools({ only: ['wait'] }) });
    const controller = new AbortController();
    const started = waiting.length;
    const running = executor.execute({ id: 'c1', name: 'wait', arguments: '{}' }, { signal: controller.signal });
    // Aborted once the server runs it (a call aborted before it was sent is not cancelled: MCP names issued requests
    // only); 50 ms of sleep was a race on a busy machine.
    await expect.poll(() => waiting.length, { timeout: 10_000 }).toBe(started + 1);
    const before = cancelled.length;
    controller.abort();
    expect((await running).outcome).toMatchObject({ error: { code: 'aborted' } });
    // Over real HTTP: the poll's bound guards a hang, 10 s rather than the default 1 s a busy machine can outlast.
    await expect.poll(() => cancelled.length, { timeout: 10_000 }).toBe(before + 1);
    await client.close();
  });
});

describe('MCP client against the official SDK’s server (resumable streams)', () => {
  it('a call whose stream the server closes (its polling) is resumed with Last-Event-ID: progress from both streams, the answer', async () => {
    resumable = true;
    const seen: (string | null)[] = [];
    const client = await connectMcp({
      url,
      fetch: (request) => {
        if (request.method === 'GET') seen.push(request.headers.get('last-event-id'));
        return fetch(request);
      },
    });
    const reports: unknown[] = [];
    const result = await client.callTool('poll', {}, { onProgress: (p) => reports.push(p) });
    expect(result.content).toEqual([{ type: 'text', text: 'polled; stream closed: true' }]);
    expect(reports).toEqual([1, 2, 3].map((completed) => ({ completed, total: 3 })));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/./);
    await client.close();
  });
});

describe('MCP client against the official SDK’s server (stateless, JSON answers)', () => {
  it('works without a session: JSON answers, no session header, no DELETE', async () => {
    jsonMode = true;
    const before = sessions.size;
    const client = await connectMcp({ url });
    const executor = createExecutor({ registry: await client.tools() });
    const result = await executor.execute({ id: 'c1', name: 'orders_search', arguments: '{"customer":"bob"}' });
    expect(result.outcome).toEqual({ type: 'success', output: { ids: [] } });
    // Progress needs a stream; in JSON mode the SDK drops it, and the call still answers.
    expect((await executor.execute({ id: 'c2', name: 'report', arguments: '{"pages":2}' })).content).toBe('report of 2 pages');
    await client.close();
    expect(sessions.size).toBe(before);
  });
});

describe('MCP client: event ids over a real socket', () => {
  it('a stream whose event id is not ASCII is not resumed: an McpError, not the bare TypeError of a header fetch refuses', async () => {
    const gets: (string | undefined)[] = [];
    let id = '';
    const server = createServer((req, res) => {
      if (req.method === 'GET') {
        gets.push(req.headers['last-event-id'] as string | undefined);
        res.writeHead(400).end();
        return;
      }
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        const message = JSON.parse(body) as { id?: number; method: string };
        if (message.method === 'initialize') {
          const result = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'ids', version: '1' } };
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
        } else if (message.id === undefined) res.writeHead(202).end();
        else {
          // A priming event with the id, then the connection drops before the answer.
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(`id: ${id}\nretry: 0\ndata: \n\n`, () => res.destroy());
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = await connectMcp({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` });
      for (id of ['€', 'é', 'e\u0301']) {
        const error = await client.callTool('echo', {}).catch((e: unknown) => e);
        expect(McpError.isInstance(error), id).toBe(true);
        expect((error as Error).message, id).toMatch(`(its last event id ${JSON.stringify(id)} cannot be sent back as Last-Event-ID)`);
      }
      expect(gets).toEqual([]);
      await client.close();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
