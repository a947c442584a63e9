// POST /api/mcp end to end inside workerd: MCP's Streamable HTTP through the Worker's own fetch handler, the real D1.
import { exports } from 'cloudflare:workers';
import { createExecutor, type ToolProgressEvent } from '@edgetool/core';
import { connectMcp } from '@edgetool/core/mcp';
import { describe, expect, it } from 'vitest';
import { snapshotDb } from '../../test/chat-client.ts';

let nextId = 1;
/** One JSON-RPC request to the Worker's MCP endpoint, as an MCP client sends it. */
function mcpPost(method: string, params?: object, accept = 'application/json, text/event-stream'): Promise<Response> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, ...(params ? { params } : {}) });
  return exports.default.fetch(new Request('http://127.0.0.1:8787/api/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept }, body }));
}

async function resultOf<T>(response: Response): Promise<T> {
  expect(response.status).toBe(200);
  const body = (await response.json()) as { result?: T; error?: unknown };
  expect(body.error).toBeUndefined();
  return body.result as T;
}

type CallResult = { content: { type: 'text'; text: string }[]; isError: boolean };

describe('POST /api/mcp', () => {
  it('initializes and lists the read tools with their JSON Schema; the writes that need approval are not offered', async () => {
    const init = await resultOf<{ protocolVersion: string; serverInfo: object }>(await mcpPost('initialize', { protocolVersion: '2025-06-18', capabilities: {} }));
    expect(init).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'edgetool-demo', version: '0.1.0' } });
    const { tools } = await resultOf<{ tools: { name: string; inputSchema: { type: string }; annotations: { readOnlyHint: boolean } }[] }>(await mcpPost('tools/list'));
    expect(tools.map((t) => t.name)).toEqual(['query_order', 'list_delayed_orders', 'audit_orders', 'orders_chart', 'order_invoice', 'world_clock', 'calculate']);
    expect(tools.every((t) => t.inputSchema.type === 'object' && t.annotations.readOnlyHint)).toBe(true);
  });

  it('calls a tool over D1; a bad order id is a tool error the model can correct; a write is unknown and D1 stays as it was', async () => {
    const before = await snapshotDb();
    const found = await resultOf<CallResult>(await mcpPost('tools/call', { name: 'query_order', arguments: { order_id: 'a-1002' } }));
    expect(found.isError).toBe(false);
    expect(JSON.parse(found.content[0]?.text ?? '')).toMatchObject({ found: true, order: { id: 'A-1002', customer: 'Grace Hopper' } });
    const wrong = await resultOf<CallResult>(await mcpPost('tools/call', { name: 'query_order', arguments: { order_id: '1002' } }));
    expect(wrong).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^Error \(invalid-input\).*order_id: Order ids look like A-1001/s) }] });
    const write = await mcpPost('tools/call', { name: 'update_delivery_date', arguments: { order_id: 'A-1002', new_date: '2026-12-31' } });
    expect(await write.json()).toMatchObject({ error: { code: -32602, message: 'Unknown tool: update_delivery_date' } });
    expect(await snapshotDb()).toEqual(before);
  });

  it('audit_orders with a progressToken streams notifications/progress up to every open order, then its result', async () => {
    const response = await mcpPost('tools/call', { name: 'audit_orders', arguments: {}, _meta: { progressToken: 'audit-1' } });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const messages = (await response.text())
      .split('\n\n')
      .filter(Boolean)
      .map((event) => JSON.parse(event.slice(event.indexOf('data: ') + 6)) as { method?: string; params?: { progress: number; total: number }; result?: CallResult });
    const notes = messages.filter((m) => m.method === 'notifications/progress');
    const { checked } = JSON.parse(messages.at(-1)?.result?.content[0]?.text ?? '{}') as { checked: number };
    expect(checked).toBeGreaterThan(3);
    expect(notes.length).toBeGreaterThan(1);
    expect(notes.map((n) => n.params?.progress)).toEqual([...notes.map((n) => n.params?.progress)].sort((a, b) => (a ?? 0) - (b ?? 0)));
    expect(notes.at(-1)?.params).toMatchObject({ progressToken: 'audit-1', progress: checked, total: checked });
  });

  it('answers GET with 405 (no server-initiated stream) and refuses a foreign browser origin', async () => {
    expect((await exports.default.fetch(new Request('http://127.0.0.1:8787/api/mcp'))).status).toBe(405);
    const foreign = new Request('http://127.0.0.1:8787/api/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect((await exports.default.fetch(foreign)).status).toBe(403);
  });
});

describe('edgetool’s MCP client against the demo’s endpoint', () => {
  it('reads the read tools as edgetool tools and runs them over D1, progress included', async () => {
    const client = await connectMcp({ url: 'http://127.0.0.1:8787/api/mcp', fetch: (request) => exports.default.fetch(request) });
    expect(client.server).toEqual({ name: 'edgetool-demo', version: '0.1.0' });
    const tools = await client.tools({ prefix: 'demo_' });
    expect(tools.map((t) => [t.name, t.policy.effects])).toEqual(
      ['query_order', 'list_delayed_orders', 'audit_orders', 'orders_chart', 'order_invoice', 'world_clock', 'calculate'].map((name) => [`demo_${name}`, 'read']),
    );
    const executor = createExecutor({ registry: tools });
    const found = await executor.execute({ id: 'c1', name: 'demo_query_order', arguments: '{"order_id":"A-1002"}' });
    expect(JSON.parse(found.content)).toMatchObject({ found: true, order: { id: 'A-1002', customer: 'Grace Hopper' } });
    // The remote schema is checked here: the bad id never reaches the Worker.
    const wrong = await executor.execute({ id: 'c2', name: 'demo_query_order', arguments: '{"order_id":42}' });
    expect(wrong.outcome).toMatchObject({ error: { code: 'invalid-input' } });
    const events: ToolProgressEvent[] = [];
    const audit = await executor.execute({ id: 'c3', name: 'demo_audit_orders', arguments: '{}' }, { onProgress: (e) => events.push(e) });
    const { checked } = JSON.parse(audit.content) as { checked: number };
    expect(events.length).toBeGreaterThan(1);
    expect(events.at(-1)?.progress).toMatchObject({ completed: checked, total: checked });
    // The chart comes over MCP as an image piece, and reaches the model as an image part.
    const chart = await executor.execute({ id: 'c4', name: 'demo_orders_chart', arguments: '{}' });
    expect(chart.parts?.map((part) => part.type)).toEqual(['text', 'image']);
    expect(chart.parts?.[1]).toMatchObject({ type: 'image', mediaType: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) });
    // The invoice comes as an embedded PDF resource, and reaches the model as a document part under its file name.
    const invoice = await executor.execute({ id: 'c5', name: 'demo_order_invoice', arguments: '{"order_id":"A-1001"}' });
    expect(invoice.parts?.map((part) => part.type)).toEqual(['text', 'document']);
    expect(invoice.parts?.[1]).toMatchObject({ type: 'document', mediaType: 'application/pdf', filename: 'invoice-A-1001.pdf', data: expect.stringMatching(/^JVBERi0xLjQK/) });
    await client.close();
  });
});
