// Remote MCP tools in the chat loop: `connectMcp(...).tools()` against edgetool's own handler in the same process (its
// `fetch` option), so every test can tell which JSON-RPC requests reached the server. The loop must treat them as it
// treats local tools: run them, pause them for approval with a ticket, relay their progress, report bad arguments.
import { createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import { connectMcp, createMcpHandler, type McpToolsOptions } from '@edgetool/core/mcp';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { mapToolPart, respondToApproval, userSays } from '../testing/client.ts';
import { callsStep, lastToolResults, scriptedModel, textStep } from '../testing/mock-model.ts';
import { createChatAgent } from './chat-agent.ts';
import { PROGRESS_PART, SEAL_PART } from './protocol.ts';
import { generateTextTurn } from './text-turn.ts';
import { gate, progressOf, readAll, refused } from '../test-support/chat-streams.ts';

const URL_ = 'https://orders.example/mcp';
const keys = [{ id: 'k1', secret: 'mcp-tools-secret-mcp-tools-secret-!!' }];

/**
 * The remote side: an MCP server whose tools keep their own state (`writes`, `orders`), behind a `fetch` that records
 * every JSON-RPC message it receives. `approvals: 'client'` makes it list the destructive tool (the chat loop asks the
 * human before the call is sent). The chat loop gets only what `connectMcp(...).tools()` returns.
 */
async function remote(toolsOptions: McpToolsOptions = {}) {
  const writes: unknown[] = [];
  const orders = new Map([['A-1001', { status: 'shipped', carrier: 'DHL' }]]);
  const scanning = gate();
  const aborted: { signal?: AbortSignal } = {};
  const handle = createMcpHandler({
    name: 'orders',
    version: '1.0.0',
    approvals: 'client',
    tools: [
      defineTool({
        name: 'query_order',
        description: 'Look up an order',
        input: v.object({ order_id: v.pipe(v.string(), v.regex(/^A-\d{4}$/)) }),
        execute: ({ order_id }) => ({ order_id, ...(orders.get(order_id) ?? { status: 'unknown' }) }),
      }),
      defineTool({
        name: 'refund_order',
        description: 'Refund an order',
        input: v.object({ order_id: v.string(), amount: v.number() }),
        policy: { effects: 'destructive' },
        execute: ({ order_id, amount }) => {
          writes.push({ order_id, amount });
          return `Refunded ${amount} EUR on ${order_id} (refund #${writes.length}).`;
        },
      }),
      defineTool({
        name: 'scan',
        description: 'Scans the orders in batches',
        input: v.object({ batches: v.number() }),
        execute: async ({ batches }, ctx) => {
          for (let i = 1; i <= batches; i++) {
            ctx.progress({ message: `Scanned batch ${i} of ${batches}`, completed: i, total: batches });
            if (i === 1) await scanning.opened; // until the test has seen the first report in the chat stream
            else await new Promise((resolve) => setTimeout(resolve, 2));
          }
          return `${batches} batches scanned`;
        },
      }),
      defineTool({
        name: 'slow',
        description: 'Waits until aborted',
        input: v.object({}),
        execute: (_input, ctx) =>
          new Promise<string>((_resolve, reject) => {
            aborted.signal = ctx.signal;
            ctx.signal.addEventListener('abort', () => reject(new Error('stopped')));
          }),
      }),
    ],
  });
  const received: Record<string, unknown>[] = [];
  const fetch = async (request: Request) => {
    received.push((await request.clone().json()) as Record<string, unknown>);
    return handle(request);
  };
  const client = await connectMcp({ url: URL_, fetch });
  const tools = await client.tools(toolsOptions);
  return { tools, writes, scanning, aborted, calls: () => received.filter((m) => m.method === 'tools/call') };
}

/** A chat agent over the remote tools only, with a scripted model. */
async function agentFor(model: ReturnType<typeof scriptedModel>, toolsOptions: McpToolsOptions = {}) {
  const server = await remote(toolsOptions);
  const tickets = createTicketSigner({ keys });
  return { ...server, model, tickets, agent: createChatAgent({ model, tools: server.tools, tickets }) };
}

const run = (conversationId = 'conv-1') => createRunContext({ conversationId, userId: 'ada' });

const toolPart = (parts: readonly unknown[], toolCallId: string) =>
  parts.find((p) => (p as { toolCallId?: string }).toolCallId === toolCallId) as { type: string; state: string; output?: unknown } | undefined;

describe('chat loop with remote MCP tools: internal mode', () => {
  it('runs a remote read tool through the MCP server once; the tool part and the next model call carry the server’s output', async () => {
    const model = scriptedModel(callsStep([['c1', 'query_order', { order_id: 'A-1001' }]]), textStep('It shipped with DHL.'), textStep('Anytime.'));
    const { agent, calls } = await agentFor(model);
    const result = await agent.generate({ messages: 'Where is A-1001?', run: run() });
    expect(result.text).toBe('It shipped with DHL.');
    expect(calls()).toHaveLength(1);
    expect(calls()[0]).toMatchObject({ params: { name: 'query_order', arguments: { order_id: 'A-1001' } } });
    // A server tool without an output schema answers with text content: the local output is that text.
    const served = JSON.stringify({ order_id: 'A-1001', status: 'shipped', carrier: 'DHL' });
    expect(result.toolResults.map((r) => [r.call.id, r.outcome])).toEqual([['c1', { type: 'success', output: served }]]);
    expect(toolPart(result.message.parts, 'c1')).toMatchObject({ type: 'tool-query_order', state: 'output-available', output: served });
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([{ toolCallId: 'c1', output: { type: 'text', value: served } }]);
    // Sealed like a local result: the next turn accepts the history and does not call the server again.
    expect(result.message.parts.filter((p) => p.type === SEAL_PART)).toHaveLength(1);
    const next = await agent.generate({ messages: userSays(result.messages, 'thanks'), run: run() });
    expect(next.text).toBe('Anytime.');
    expect(calls()).toHaveLength(1);
    // An edited remote result is refused like an edited local one.
    const edited = mapToolPart(result.messages, 'c1', (p) => ({ ...p, output: served.replace('shipped', 'lost') }));
    expect((await refused(agent.generate({ messages: userSays(edited, 'and?'), run: run() }))).problem).toBe('forged-result');
  });

  it('an abort of the turn cancels the remote call: the server’s tool sees its signal abort', async () => {
    const { agent, model, aborted } = await agentFor(scriptedModel(callsStep([['c1', 'slow', {}]]), textStep('never')));
    const controller = new AbortController();
    const turn = await agent.stream({ messages: 'go', run: run(), signal: controller.signal });
    const types: string[] = [];
    const reading = readAll(turn.stream, (chunk) => types.push(chunk.type));
    await expect.poll(() => aborted.signal).toBeDefined();
    expect(aborted.signal?.aborted).toBe(false);
    controller.abort();
    await reading;
    expect(types.at(-1)).toBe('abort');
    await expect.poll(() => aborted.signal?.aborted).toBe(true);
    expect(model.doStreamCalls).toHaveLength(1);
  });
});

describe('chat loop with remote MCP tools: approvals', () => {
  async function pendingRefund() {
    const fx = await agentFor(scriptedModel(callsStep([['c1', 'refund_order', { order_id: 'A-1001', amount: 20 }]]), textStep('Refunded.'), textStep('extra')));
    const first = await fx.agent.generate({ messages: 'Refund 20 EUR on A-1001', run: run() });
    return { ...fx, first };
  }

  it('a remote destructive tool pauses the turn with a signed approval ticket; nothing is sent to the server', async () => {
    const { first, tools, tickets, writes, calls } = await pendingRefund();
    expect(tools.find((t) => t.name === 'refund_order')?.policy).toMatchObject({ effects: 'destructive', needsApproval: true });
    expect(first.finishReason).toBe('tool-calls');
    expect(first.pending).toEqual([
      expect.objectContaining({ toolCallId: 'c1', toolName: 'refund_order', kind: 'approval', runsOn: 'server', ticket: expect.any(String) }),
    ]);
    expect(tickets.peek(first.pending[0]?.ticket)).toMatchObject({ purpose: 'approval', callId: 'c1', conv: 'conv-1' });
    expect(toolPart(first.message.parts, 'c1')?.state).toBe('approval-requested');
    expect(first.toolResults).toEqual([]);
    expect(calls()).toEqual([]);
    expect(writes).toEqual([]);
  });

  it('the approved continuation runs it exactly once on the server; forged and replayed ones reach nothing', async () => {
    const { agent, first, model, writes, calls } = await pendingRefund();
    const approved = respondToApproval(first.messages, 'c1', true);
    // A client that raises the amount after the human said yes: the ticket does not cover it.
    const tampered = mapToolPart(approved, 'c1', (p) => ({ ...p, input: { order_id: 'A-1001', amount: 2000 } }));
    expect((await refused(agent.generate({ messages: tampered, run: run() }))).code).toBe('ticket-invalid');
    expect(calls()).toEqual([]);

    const second = await agent.generate({ messages: approved, run: run() });
    expect(writes).toEqual([{ order_id: 'A-1001', amount: 20 }]);
    expect(calls()).toHaveLength(1);
    expect(calls()[0]).toMatchObject({ params: { name: 'refund_order', arguments: { order_id: 'A-1001', amount: 20 } } });
    expect(second.text).toBe('Refunded.');
    expect(second.message.id).toBe(first.message.id);
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([{ toolCallId: 'c1', output: { type: 'text', value: 'Refunded 20 EUR on A-1001 (refund #1).' } }]);
    // The approved history sent again (its answer was lost) gets the recorded result; nothing is sent twice.
    const again = await agent.generate({ messages: approved, run: run() });
    expect(lastToolResults(model.doStreamCalls[2])).toEqual(lastToolResults(model.doStreamCalls[1]));
    expect(again.message.parts.find((p) => 'toolCallId' in p && p.toolCallId === 'c1')).toMatchObject({ state: 'output-available' });
    expect(calls()).toHaveLength(1);
    expect(writes).toHaveLength(1);
  });

  it('a denied continuation never reaches the server; the model reads the denial', async () => {
    const { agent, first, model, writes, calls } = await pendingRefund();
    const result = await agent.generate({ messages: respondToApproval(first.messages, 'c1', false, 'wrong order'), run: run() });
    expect(calls()).toEqual([]);
    expect(writes).toEqual([]);
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([{ toolCallId: 'c1', output: { type: 'execution-denied', reason: 'wrong order' } }]);
    expect(toolPart(result.message.parts, 'c1')?.state).toBe('output-denied');
  });
});

describe('chat loop with remote MCP tools: progress and invalid input', () => {
  it('the server’s ctx.progress() reaches the chat stream as transient progress parts of the local call, while it runs', async () => {
    // A prefix: the parts name the local tool (`shop_scan`), the server still hears its own name (`scan`).
    const model = scriptedModel(callsStep([['c1', 'shop_scan', { batches: 3 }]]), textStep('Scanned.'));
    const { agent, scanning, calls } = await agentFor(model, { prefix: 'shop_' });
    const turn = await agent.stream({ messages: 'Scan the orders', run: run() });
    const chunks = await readAll(turn.stream, (chunk) => {
      if (chunk.type === PROGRESS_PART) scanning.open();
    });
    expect(calls()).toHaveLength(1);
    expect(calls()[0]).toMatchObject({ params: { name: 'scan', arguments: { batches: 3 }, _meta: { progressToken: expect.any(String) } } });
    const progress = progressOf(chunks);
    // The first report went out while the server's tool was still waiting (it waits for the test to see it); the
    // stream may merge the next ones, but the last report before the result always goes out.
    expect(progress[0]?.data).toEqual({ toolCallId: 'c1', toolName: 'shop_scan', message: 'Scanned batch 1 of 3', completed: 1, total: 3 });
    expect(progress.at(-1)?.data).toEqual({ toolCallId: 'c1', toolName: 'shop_scan', message: 'Scanned batch 3 of 3', completed: 3, total: 3 });
    expect(progress.every((p) => p.transient === true && p.id === 'c1')).toBe(true);
    const types = chunks.map((c) => c.type);
    expect(types.indexOf(PROGRESS_PART)).toBeGreaterThan(types.indexOf('tool-input-available'));
    expect(types.lastIndexOf(PROGRESS_PART)).toBeLessThan(types.indexOf('tool-output-available'));
    const result = await turn.result;
    expect(result.text).toBe('Scanned.');
    expect(result.toolResults.map((r) => r.outcome)).toEqual([{ type: 'success', output: '3 batches scanned' }]);
    expect(result.message.parts.some((p) => p.type === PROGRESS_PART)).toBe(false);
  });

  it('arguments that break the remote schema are the typed invalid-input error the model reads; nothing reaches the server', async () => {
    const { agent, model, writes, calls } = await agentFor(
      scriptedModel(
        callsStep([
          ['c1', 'query_order', { order_id: 'B-12' }],
          // Invalid input for a destructive tool is never put to a human: it goes straight back to the model.
          ['c2', 'refund_order', { order_id: 'A-1001', amount: 'all of it' }],
        ]),
        textStep('Sorry, let me fix that.'),
      ),
    );
    const result = await agent.generate({ messages: 'Where is B-12? Refund A-1001.', run: run() });
    expect(calls()).toEqual([]);
    expect(writes).toEqual([]);
    expect(result.pending).toEqual([]);
    expect(result.text).toBe('Sorry, let me fix that.');
    expect(result.toolResults.map((r) => [r.call.id, r.outcome.type === 'error' ? r.outcome.error.code : r.outcome.type])).toEqual([
      ['c1', 'invalid-input'],
      ['c2', 'invalid-input'],
    ]);
    const seen = lastToolResults(model.doStreamCalls[1]);
    expect(seen.map((r) => r.toolCallId)).toEqual(['c1', 'c2']);
    const [query, refund] = seen.map((r) => r.output as { type: string; value: string });
    expect(query?.type).toBe('error-text');
    expect(query?.value).toMatch(/^Error \(invalid-input\): Invalid arguments for "query_order"\.\n- order_id: .*pattern/);
    expect(refund?.type).toBe('error-text');
    expect(refund?.value).toMatch(/^Error \(invalid-input\): Invalid arguments for "refund_order"\.\n- amount: /);
    expect(['c1', 'c2'].map((id) => toolPart(result.message.parts, id)?.state)).toEqual(['output-error', 'output-error']);
  });
});

describe('text turn (generateTextTurn) with remote MCP tools', () => {
  it('runs a remote read tool once and the model reads the server’s output', async () => {
    const { agent, model, calls } = await agentFor(scriptedModel(callsStep([['c1', 'query_order', { order_id: 'A-1001' }]]), textStep('It shipped.')));
    const result = await generateTextTurn(agent, { messages: 'Where is A-1001?', run: run() });
    const served = JSON.stringify({ order_id: 'A-1001', status: 'shipped', carrier: 'DHL' });
    expect(result).toMatchObject({ text: 'It shipped.', finishReason: 'stop', steps: 2, pending: [] });
    expect(result.toolResults.map((r) => [r.call.id, r.outcome])).toEqual([['c1', { type: 'success', output: served }]]);
    expect(calls()).toHaveLength(1);
    expect(model.doStreamCalls).toHaveLength(0);
    expect(lastToolResults(model.doGenerateCalls[1])).toEqual([{ toolCallId: 'c1', output: { type: 'text', value: served } }]);
  });

  it('a remote destructive tool ends the turn as pending; the approval in the next turn sends it once', async () => {
    const model = scriptedModel(callsStep([['c1', 'refund_order', { order_id: 'A-1001', amount: 5 }]]), textStep('Refunded.'));
    const { agent, writes, calls } = await agentFor(model);
    const first = await generateTextTurn(agent, { messages: 'Refund 5 EUR on A-1001', run: run() });
    expect(first.pending).toEqual([expect.objectContaining({ toolCallId: 'c1', toolName: 'refund_order', kind: 'approval', runsOn: 'server' })]);
    expect(calls()).toEqual([]);
    const second = await generateTextTurn(agent, { messages: first.messages, approvals: { c1: true }, run: run() });
    expect(second.text).toBe('Refunded.');
    expect(writes).toEqual([{ order_id: 'A-1001', amount: 5 }]);
    expect(calls()).toHaveLength(1);
  });
});
