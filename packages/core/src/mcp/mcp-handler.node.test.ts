// Node-only: the official MCP TypeScript SDK's client against createMcpHandler behind a node:http server on
// 127.0.0.1, so the wire format is the SDK's, not ours. Also the Origin check, which browsers cannot exercise
// (`Origin` is a header a page may not set).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunContext } from '../context/index.ts';
import { defineTool } from '../tool/define-tool.ts';
import { documentPart, imagePart } from '../tool/model-content.ts';
import { createMcpHandler } from './mcp-handler.ts';

/** A real 1×1 PNG, and a one-page PDF as small as it gets. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const PDF = btoa('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

const orders = new Map([['A-1001', { status: 'shipped' }]]);
/** What the `slow` tool's signal said when it aborted, and a hook told when it starts. */
const stopped: unknown[] = [];
let slowStarted: () => void = () => {};
const tools = [
  defineTool({
    name: 'query_order',
    description: 'Look up an order',
    input: v.object({ order_id: v.string() }),
    execute: ({ order_id }, ctx) => ({ order_id, ...orders.get(order_id), askedBy: ctx.run.userId }),
  }),
  defineTool({
    name: 'cancel_order',
    description: 'Cancel an order',
    input: v.object({ order_id: v.string() }),
    policy: { effects: 'destructive' },
    execute: ({ order_id }) => orders.delete(order_id),
  }),
  defineTool({
    name: 'quote',
    description: 'Quote an order',
    input: v.object({ qty: v.number() }),
    output: v.object({ total: v.number(), currency: v.string() }),
    execute: ({ qty }) => ({ total: qty * 3, currency: 'EUR' }),
  }),
  defineTool({
    name: 'audit',
    description: 'Audit every order',
    input: v.object({ pages: v.number() }),
    execute: async ({ pages }, ctx) => {
      for (let page = 1; page <= pages; page++) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        ctx.progress({ message: `page ${page} of ${pages}`, completed: page, total: pages });
      }
      return `audited ${pages} pages`;
    },
  }),
  defineTool({
    name: 'slow',
    description: 'Runs until it is stopped',
    input: v.object({}),
    execute: (_input, ctx) =>
      new Promise<string>((resolve) => {
        slowStarted();
        ctx.signal.addEventListener('abort', () => {
          stopped.push(ctx.signal.reason);
          resolve('stopped');
        });
      }),
  }),
  defineTool({
    name: 'statement',
    description: 'The month’s statement as a PDF, with its chart',
    input: v.object({}),
    execute: () => 'statement',
    toModelOutput: () => [{ type: 'text', text: 'Your statement:' }, imagePart(PNG, 'image/png'), documentPart(PDF, 'application/pdf', 'May 2026.pdf')],
  }),
];

const handle = createMcpHandler({
  tools,
  name: 'edgetool-test',
  version: '0.0.1',
  run: (request) => createRunContext({ userId: request.headers.get('x-user') ?? undefined }),
});

/** node:http → web Request → the handler → node:http, streaming the body as it comes. */
async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const init: RequestInit = { method: req.method ?? 'GET', headers };
  if (hasBody) init.body = Buffer.concat(chunks);
  const response = await handle(new Request(`http://${req.headers.host}${req.url}`, init));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) for await (const chunk of response.body) res.write(chunk);
  res.end();
}

let server: Server;
let url: URL;
beforeAll(async () => {
  server = createServer((req, res) => void serve(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function connect(headers: Record<string, string> = {}) {
  const client = new Client({ name: 'edgetool-test-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

describe('MCP handler with the official MCP SDK client', () => {
  it('connects, negotiates the newest revision, lists the tools the server may run', async () => {
    const client = await connect();
    expect(client.getServerVersion()).toEqual({ name: 'edgetool-test', version: '0.0.1' });
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
    const { tools: listed } = await client.listTools();
    expect(listed.map((t) => t.name)).toEqual(['query_order', 'quote', 'audit', 'slow', 'statement']);
    expect(listed[0]).toMatchObject({ inputSchema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] }, annotations: { readOnlyHint: true } });
    await client.close();
  });

  it('calls a tool with the request’s run context; a validation failure is a tool error the model reads', async () => {
    const client = await connect({ 'x-user': 'ada' });
    expect(await client.callTool({ name: 'query_order', arguments: { order_id: 'A-1001' } })).toEqual({
      content: [{ type: 'text', text: '{"order_id":"A-1001","status":"shipped","askedBy":"ada"}' }],
      isError: false,
    });
    const invalid = await client.callTool({ name: 'query_order', arguments: { order_id: 42 } });
    expect(invalid.isError).toBe(true);
    expect((invalid.content as { text: string }[])[0]?.text).toMatch(/^Error \(invalid-input\).*\n- order_id: /s);
    await expect(client.callTool({ name: 'cancel_order', arguments: { order_id: 'A-1001' } })).rejects.toThrow(/Unknown tool: cancel_order/);
    expect(orders.has('A-1001')).toBe(true);
    await client.close();
  });

  it('a declared object output arrives as structuredContent, which the SDK client checks against outputSchema', async () => {
    const client = await connect();
    await client.listTools(); // the client learns the output schemas it validates against
    expect(await client.callTool({ name: 'quote', arguments: { qty: 2 } })).toEqual({
      content: [{ type: 'text', text: '{"total":6,"currency":"EUR"}' }],
      structuredContent: { total: 6, currency: 'EUR' },
      isError: false,
    });
    await client.close();
  });

  it('images and documents arrive as image and embedded resource pieces, which the SDK client checks against its schema', async () => {
    const client = await connect();
    expect(await client.callTool({ name: 'statement', arguments: {} })).toEqual({
      content: [
        { type: 'text', text: 'Your statement:' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'edgetool://document/2/May%202026.pdf', mimeType: 'application/pdf', blob: PDF } },
      ],
      isError: false,
    });
    await client.close();
  });

  it('streams progress to the client’s onprogress, then the result', async () => {
    const client = await connect();
    const seen: unknown[] = [];
    const answer = await client.callTool({ name: 'audit', arguments: { pages: 3 } }, undefined, { onprogress: (p) => void seen.push(p) });
    expect(answer).toEqual({ content: [{ type: 'text', text: 'audited 3 pages' }], isError: false });
    expect(seen).toEqual([1, 2, 3].map((n) => ({ progress: n, total: 3, message: `page ${n} of 3` })));
    await client.close();
  });

  it('a call the client aborts is cancelled on the server: its session’s notifications/cancelled stops the tool', async () => {
    const client = await connect();
    const started = new Promise<void>((resolve) => {
      slowStarted = resolve;
    });
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: {} }, undefined, { signal: controller.signal });
    await started;
    controller.abort('The user pressed stop.');
    await expect(call).rejects.toThrow();
    // The SDK keeps its POST open (a disconnect is no cancellation in MCP): only the notification can stop the tool. It
    // crosses real HTTP: the poll's bound (a hang guard) is 10 s, not the default 1 s a busy machine can outlast.
    await expect.poll(() => stopped.length, { timeout: 10_000 }).toBe(1);
    expect((stopped[0] as Error).message).toBe('The user pressed stop.');
    await client.close();
  });
});

describe('MCP handler: Origin', () => {
  it('refuses browsers from other origins (DNS rebinding) unless allowed; same-origin and non-browser clients pass', async () => {
    const h = createMcpHandler({ tools, name: 't', version: '1', allowedOrigins: ['https://app.example'] });
    const ping = (origin?: string) =>
      h(
        new Request('https://tools.example/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
          body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
        }),
      );
    expect((await ping('https://evil.example')).status).toBe(403);
    expect((await ping('http://127.0.0.1:8787')).status).toBe(403);
    expect((await ping('https://app.example')).status).toBe(200);
    expect((await ping('https://tools.example')).status).toBe(200);
    expect((await ping()).status).toBe(200);
  });

  it('allowedHosts refuses a name pointed at this machine (DNS rebinding), whose page is of the request’s own origin', async () => {
    const h = createMcpHandler({ tools, name: 't', version: '1', allowedHosts: ['localhost:8787', '127.0.0.1:8787'] });
    const send = (url: string, init: { method?: string; origin?: string } = {}) =>
      h(
        new Request(url, {
          method: init.method ?? 'POST',
          headers: { 'content-type': 'application/json', ...(init.origin ? { origin: init.origin } : {}) },
          ...(init.method === undefined ? { body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' } : {}),
        }),
      );
    // The attacker's page, after its name resolved to 127.0.0.1: its Origin is the request's own.
    expect((await send('http://rebind.evil.example:8787/mcp', { origin: 'http://rebind.evil.example:8787' })).status).toBe(403);
    expect((await send('http://rebind.evil.example:8787/mcp', { method: 'OPTIONS', origin: 'http://rebind.evil.example:8787' })).status).toBe(403);
    expect((await send('http://rebind.evil.example:8787/mcp')).status).toBe(403);
    expect((await send('http://localhost:8787/mcp', { origin: 'http://localhost:8787' })).status).toBe(200);
    expect((await send('http://LOCALHOST:8787/mcp')).status).toBe(200);
    expect((await send('http://127.0.0.1:8787/mcp')).status).toBe(200);
    // Without allowedHosts, the same-origin rebinding page passes: Origin cannot tell it from the server's own pages.
    const open = createMcpHandler({ tools, name: 't', version: '1' });
    const rebound = new Request('http://rebind.evil.example:8787/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://rebind.evil.example:8787' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect((await open(rebound)).status).toBe(200);
  });
});
