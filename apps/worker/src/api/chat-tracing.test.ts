// POST /api/chat with OTLP export on, inside workerd: the Worker exports each turn's tool calls over real fetch to a
// local collector on 127.0.0.1 (test/collector.global-setup.ts, in Node), flushed by ctx.waitUntil once the turn's
// stream has been read. Each test gives the Worker its own env with the endpoint, and reads what its own box received.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { chatRequest, readTurn, toolPart, user } from '../../test/chat-client.ts';
import { attribute, collector, count, PARENT_ID, received, spansOf, TRACE_ID } from '../../test/otlp-collector.ts';
import worker from '../index.ts';
import { demoTracing } from '../tracing.ts';

/** One turn through the Worker's own fetch handler with `vars` over the test env; resolves once its waitUntil work is done. */
async function turn(vars: Record<string, string>, body: { id: string; text: string }, headers: Record<string, string> = {}) {
  const ctx = createExecutionContext();
  const request = chatRequest({ id: body.id, messages: [user(body.text)] }, { headers: { 'content-type': 'application/json', ...headers } });
  const result = await readTurn(await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, ...vars }, ctx));
  await waitOnExecutionContext(ctx);
  return result;
}

describe('POST /api/chat with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('exports the turn’s tool calls to the collector, children of the request’s traceparent, with the configured headers', async () => {
    const vars = { OTEL_EXPORTER_OTLP_ENDPOINT: `${collector}/lookup`, OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=team%20key', OTEL_SERVICE_NAME: 'orders-desk' };
    const { message } = await turn(vars, { id: 'trace-lookup', text: 'Where is order A-1002?' }, { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` });
    const part = toolPart(message, 'query_order');
    expect(part?.state).toBe('output-available');

    const posts = await received('lookup');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.headers['content-type']).toBe('application/json');
    expect(posts[0]?.headers['x-api-key']).toBe('team key');
    expect(posts[0]?.body.resourceSpans[0]?.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'orders-desk' } });
    const spans = spansOf(posts);
    const call = spans.find((s) => s.name === 'execute_tool query_order');
    expect(call).toMatchObject({ traceId: TRACE_ID, parentSpanId: PARENT_ID, status: { code: 0 } });
    expect(attribute(call, 'gen_ai.tool.call.id')).toEqual({ stringValue: part?.toolCallId });
    expect(attribute(call, 'gen_ai.conversation.id')).toEqual({ stringValue: 'trace-lookup' });
    // The demo does not export inputs. Inside the call's span, each layer of its chain is the child of the one outside
    // it: the tool's policy layers (its call limit and time limit), then the tool itself.
    expect(attribute(call, 'gen_ai.tool.call.arguments')).toBeUndefined();
    const layers = spans.filter((s) => s.traceId === TRACE_ID && s !== call);
    expect(layers.map((s) => s.name)).toEqual(['call-limit', 'timeout', 'query_order']);
    expect(layers.map((s) => s.parentSpanId)).toEqual([call?.spanId, ...layers.slice(0, -1).map((s) => s.spanId)]);
  });

  it('names the service edgetool-demo when neither OTEL_SERVICE_NAME nor OTEL_RESOURCE_ATTRIBUTES names one', async () => {
    await turn({ OTEL_EXPORTER_OTLP_ENDPOINT: `${collector}/unnamed` }, { id: 'trace-unnamed', text: 'Where is order A-1002?' });
    const attributes = (await received('unnamed'))[0]?.body.resourceSpans[0]?.resource.attributes;
    expect(attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'edgetool-demo' } });
  });

  it('takes the resource attributes of OTEL_RESOURCE_ATTRIBUTES (OTEL_SERVICE_NAME over its service.name)', async () => {
    const vars = {
      OTEL_EXPORTER_OTLP_ENDPOINT: `${collector}/resource`,
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=staging,service.name=ignored,team=orders%20desk',
      OTEL_SERVICE_NAME: 'orders-desk',
      OTEL_EXPORTER_OTLP_TIMEOUT: '5000',
    };
    await turn(vars, { id: 'trace-resource', text: 'Where is order A-1002?' });
    const attributes = (await received('resource'))[0]?.body.resourceSpans[0]?.resource.attributes;
    expect(attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'orders-desk' } });
    expect(attributes).toContainEqual({ key: 'deployment.environment', value: { stringValue: 'staging' } });
    expect(attributes).toContainEqual({ key: 'team', value: { stringValue: 'orders desk' } });
  });

  it('the delay analyst’s own calls join the request’s trace under its call; without a traceparent the calls have traces of their own', async () => {
    const vars = { OTEL_EXPORTER_OTLP_ENDPOINT: `${collector}/analyst` };
    await turn(vars, { id: 'trace-analyst', text: 'Ask the delay analyst: "review what is late"' }, { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` });
    const spans = spansOf(await received('analyst'));
    const calls = spans.filter((s) => s.name.startsWith('execute_tool'));
    expect(calls.map((s) => s.name).sort()).toEqual(['execute_tool delay_analyst', 'execute_tool list_delayed_orders']);
    expect(calls.every((s) => s.traceId === TRACE_ID)).toBe(true);
    // The analyst's call is the request's child; its sub-agent's call, the child of the analyst call's execute layer.
    const agentCall = calls.find((s) => s.name === 'execute_tool delay_analyst');
    expect(agentCall?.parentSpanId).toBe(PARENT_ID);
    const execute = spans.find((s) => s.name === 'delay_analyst' && (attribute(s, 'edgetool.layer.kind') as { stringValue?: string } | undefined)?.stringValue === 'execute');
    expect(execute).toBeDefined();
    expect(calls.find((s) => s.name === 'execute_tool list_delayed_orders')?.parentSpanId).toBe(execute?.spanId);
    expect(attribute(calls.find((s) => s.name === 'execute_tool delay_analyst'), 'edgetool.outcome')).toEqual({ stringValue: 'success' });

    await turn({ OTEL_EXPORTER_OTLP_ENDPOINT: `${collector}/untraced` }, { id: 'trace-none', text: 'Where is order A-1002?' });
    const own = spansOf(await received('untraced')).find((s) => s.name === 'execute_tool query_order');
    expect(own?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(own?.traceId).not.toBe(TRACE_ID);
    expect(own?.parentSpanId).toBeUndefined();
  });

  it('is off by default: without the variable nothing is sent, and a bad endpoint turns it off with one log line', async () => {
    expect(demoTracing(env)).toBeUndefined();
    const before = await count();
    await turn({}, { id: 'trace-off', text: 'Where is order A-1002?' }, { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` });
    expect(await count()).toBe(before);

    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const broken = { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' };
      expect(demoTracing(broken)).toBeUndefined();
      expect(demoTracing(broken)).toBeUndefined();
      expect(error).toHaveBeenCalledTimes(1);
      expect(String(error.mock.calls[0]?.[0])).toMatch(/^OTLP export is off: OTEL_EXPORTER_OTLP_ENDPOINT must be an http/);
    } finally {
      error.mockRestore();
    }
  });
});
