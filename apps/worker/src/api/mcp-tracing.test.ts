// POST /api/mcp with OTLP export on, inside workerd: like a chat turn's (chat-tracing.test.ts), each MCP call is
// exported over real fetch to the local collector on 127.0.0.1 (test/collector.global-setup.ts), flushed by
// ctx.waitUntil once the answer is out. Each test gives the Worker its own env with the endpoint, and its own box.
import type { OtlpSpan } from '@edgetool/core/otel';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { attribute, collector, count, PARENT_ID, received, spansOf, TRACE_ID } from '../../test/otlp-collector.ts';
import worker from '../index.ts';

const calls = (spans: readonly OtlpSpan[]) => spans.filter((s) => s.name.startsWith('execute_tool '));

let nextId = 1;
/** One JSON-RPC request through the Worker's own fetch handler with `vars` over the test env; its answer's text, once its waitUntil work is done. */
async function mcpPost(vars: Record<string, string>, method: string, params: object, headers: Record<string, string> = {}) {
  const ctx = createExecutionContext();
  const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params });
  const request = new Request('http://127.0.0.1:8787/api/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
    body,
  });
  const response = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, ...vars }, ctx);
  const text = await response.text();
  await waitOnExecutionContext(ctx);
  return { text, type: response.headers.get('content-type') };
}

describe('POST /api/mcp with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('exports each call as a span with the tool’s name and outcome, a child of the request’s traceparent', async () => {
    const vars = { OTEL_EXPORTER_OTLP_ENDPOINT: `${collector}/mcp-calls`, OTEL_SERVICE_NAME: 'orders-mcp' };
    const traceparent = `00-${TRACE_ID}-${PARENT_ID}-01`;
    const found = await mcpPost(vars, 'tools/call', { name: 'query_order', arguments: { order_id: 'A-1002' } }, { traceparent });
    expect(found.text).toContain('Grace Hopper');
    await mcpPost(vars, 'tools/call', { name: 'query_order', arguments: { order_id: '1002' } }, { traceparent });

    const posts = await received('mcp-calls');
    // One flush per request, each after its call ended.
    expect(posts).toHaveLength(2);
    expect(posts[0]?.body.resourceSpans[0]?.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'orders-mcp' } });
    const spans = spansOf(posts);
    const [ok, refused] = calls(spans);
    expect(ok).toMatchObject({ name: 'execute_tool query_order', traceId: TRACE_ID, parentSpanId: PARENT_ID, status: { code: 0 } });
    expect(attribute(ok, 'edgetool.outcome')).toEqual({ stringValue: 'success' });
    expect(attribute(ok, 'gen_ai.conversation.id')).toEqual({ stringValue: expect.stringMatching(/^mcp-/) });
    // Inputs are not exported; the layers of its chain are its children, as in a chat turn.
    expect(attribute(ok, 'gen_ai.tool.call.arguments')).toBeUndefined();
    expect(spans.filter((s) => s.parentSpanId === ok?.spanId).map((s) => s.name)).toEqual(['call-limit']);
    expect(refused).toMatchObject({ name: 'execute_tool query_order', traceId: TRACE_ID, parentSpanId: PARENT_ID, status: { code: 2 } });
    expect(attribute(refused, 'edgetool.outcome')).toEqual({ stringValue: 'error' });
    expect(attribute(refused, 'error.type')).toEqual({ stringValue: 'invalid-input' });
  });

  it('a streamed call (its progress) is exported once its stream has ended; without a traceparent a call has its own trace', async () => {
    const vars = { OTEL_EXPORTER_OTLP_ENDPOINT: `${collector}/mcp-stream` };
    const audit = await mcpPost(vars, 'tools/call', { name: 'audit_orders', arguments: {}, _meta: { progressToken: 'p1' } });
    expect(audit.type).toBe('text/event-stream');
    expect(audit.text).toContain('notifications/progress');
    const [call] = calls(spansOf(await received('mcp-stream')));
    expect(call?.name).toBe('execute_tool audit_orders');
    expect(attribute(call, 'edgetool.outcome')).toEqual({ stringValue: 'success' });
    expect(call?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(call?.traceId).not.toBe(TRACE_ID);
    expect(call?.parentSpanId).toBeUndefined();
  });

  it('is off by default: without the variable no MCP call is sent anywhere', async () => {
    const before = await count();
    const found = await mcpPost({}, 'tools/call', { name: 'query_order', arguments: { order_id: 'A-1002' } }, { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` });
    expect(found.text).toContain('Grace Hopper');
    await mcpPost({}, 'tools/list', {});
    expect(await count()).toBe(before);
  });
});
