import { ANSWERED_OTHERWISE_TEXT } from '@edgetool/ai';
import { type AnyTool, defineInterceptor, defineTool, idempotencyKeyOf, peekTicket, ToolError } from '@edgetool/core';
import { useEffect, useLayoutEffect } from 'react';
import { flushSync } from 'react-dom';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseBrowserState } from './browser-state.ts';
import { CallsPendingError } from './pending-calls.ts';
import { parseServerTools } from './server-tools.ts';
import { callsStep, createTestServer, sseResponse, textStep } from './test-support/chat-server.ts';
import { renderHook } from './test-support/render-hook.ts';
import { type UseEdgeChatOptions, type UseEdgeChatResult, useEdgeChat } from './use-edge-chat.ts';
import type { PendingApproval } from './views.ts';
import { createUserInput } from './user-input.ts';

// Server tools (the server's registry) and browser tools (this browser's), as the demo splits them.
const writes: unknown[] = [];
const queryOrder = defineTool({ name: 'query_order', description: 'Look up an order', input: v.object({ order_id: v.string() }), execute: ({ order_id }) => ({ order_id, status: 'shipped' }) });
const updateDate = defineTool({
  name: 'update_delivery_date',
  description: 'Change a delivery date',
  input: v.object({ order_id: v.string(), new_date: v.string() }),
  policy: { effects: 'write' },
  execute: (input) => {
    writes.push(input);
    return { ...input, ok: true };
  },
});
const moveDelivery = defineTool({
  name: 'move_delivery',
  description: 'Move a delivery; the user may pick another date when approving',
  input: v.object({ order_id: v.string(), new_date: v.string() }),
  policy: { effects: 'write', editable: ['new_date'] },
  execute: (input) => {
    writes.push(input);
    return { ...input, moved: true };
  },
});
const answer = defineTool({ name: 'answer', description: 'Final answer', input: v.object({ text: v.string() }), policy: { returnDirect: true }, execute: ({ text }) => text });
const dates = createUserInput<{ question: string }, string>();
const pickDateServer = defineTool({ name: 'pick_date', description: 'The user picks a date', input: v.object({ question: v.string() }), policy: { runsOn: 'client' } });
const pickDate = defineTool({ ...pickDateServer, name: 'pick_date', description: 'The user picks a date', input: v.object({ question: v.string() }), policy: { runsOn: 'client' }, execute: ({ question }, ctx) => dates.ask(ctx, { question }) });
const cartServer = defineTool({ name: 'cart_clear', description: 'Empty the cart', input: v.object({}), policy: { runsOn: 'client', effects: 'destructive' } });
let cartCleared = 0;
const cartClear = defineTool({ name: 'cart_clear', description: 'Empty the cart', input: v.object({}), policy: { runsOn: 'client', effects: 'destructive' }, execute: () => ++cartCleared });
// Same name as a server tool, runs "anywhere": in internal mode the server runs it, never this browser.
let browserQueryRuns = 0;
const queryOrderInBrowser = defineTool({ name: 'query_order', description: 'x', input: v.object({ order_id: v.string() }), policy: { runsOn: 'anywhere' }, execute: () => ++browserQueryRuns });

const serverTools: readonly AnyTool[] = [queryOrder, updateDate, answer, pickDateServer, cartServer, moveDelivery];
const serverInfo = parseServerTools(serverTools.map((t) => ({ name: t.name, description: t.description, jsonSchema: t.jsonSchema, policy: { ...t.policy, needsApproval: t.policy.needsApproval } })));
const browserTools: readonly AnyTool[] = [pickDate, cartClear];

/**
 * How long a wait on state may take on a loaded 2-core machine: every `vi.waitFor` of this file takes it (its default of
 * 1 s is too short there; one run under load failed five manual-mode tests).
 */
const LOADED = { timeout: 5_000 } as const;

let current: { unmount(): void } | undefined;
afterEach(() => {
  current?.unmount();
  current = undefined;
});

function mount(options: UseEdgeChatOptions, render: { readonly strict?: boolean } = {}) {
  const hook = renderHook((o: UseEdgeChatOptions) => useEdgeChat(o), options, render);
  current = hook;
  return hook;
}

/** An interceptor that keeps each browser call's signal, to see which calls were aborted. */
function watchSignals() {
  const signals = new Map<string, AbortSignal>();
  const watch = defineInterceptor('watch', (ctx, next) => {
    signals.set(ctx.call.id, ctx.signal);
    return next();
  });
  return { signals, watch };
}

const texts = (r: UseEdgeChatResult) =>
  r.messages
    .filter((m) => m.role === 'assistant')
    .flatMap((m) => m.parts)
    .flatMap((p) => (p.type === 'text' ? [p.text] : []))
    .join('');

/** A server's `fetch` behind the demo Worker's body limit: a request body over 512 KiB gets its 413. */
function bodyLimited(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (url, init) => {
    if (new TextEncoder().encode(String(init?.body)).byteLength > 512 * 1024) {
      return Response.json({ error: { code: 'payload-too-large', message: 'The request body is larger than 524288 bytes.' } }, { status: 413 });
    }
    return fetch(url, init);
  };
}

/** `response` as a dropped connection leaves it: its body breaks off (a network error) right after its first seal. */
function cutAfterFirstSeal(response: Response): Response {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let text = '';
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await reader.read();
      if (next.done) return controller.close();
      text += decoder.decode(next.value, { stream: true });
      const seal = text.indexOf('"data-edgetool-seal"');
      const end = seal < 0 ? -1 : text.indexOf('\n\n', seal);
      controller.enqueue(encoder.encode(text.slice(sent, end < 0 ? text.length : end + 2)));
      sent = text.length;
      if (end < 0) return;
      await reader.cancel('the connection broke');
      controller.error(new TypeError('network error'));
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

describe('useEdgeChat against a hand-written SSE stream', () => {
  it('streams text, names the model, shows the server call with its trace, and sends { id, messages, mode }', async () => {
    const bodies: Record<string, unknown>[] = [];
    const fetch = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      bodies.push(JSON.parse(String(init?.body)));
      return sseResponse([
        { type: 'start', messageId: 'm1', messageMetadata: { model: { provider: 'edgetool', modelId: 'edgetool-offline', offline: true }, mode: 'internal' } },
        { type: 'start-step' },
        { type: 'tool-input-start', toolCallId: 'c1', toolName: 'query_order' },
        { type: 'tool-input-available', toolCallId: 'c1', toolName: 'query_order', input: { order_id: 'A-1001' } },
        { type: 'tool-output-available', toolCallId: 'c1', output: { status: 'shipped' } },
        { type: 'data-edgetool-seal', id: 'c1', data: { toolCallId: 'c1', toolName: 'query_order', seal: 'et1.k1.x.y' } },
        {
          type: 'data-edgetool-trace',
          id: 'c1',
          data: {
            toolCallId: 'c1',
            toolName: 'query_order',
            side: 'server',
            outcome: 'success',
            durationMs: 3,
            spans: [{ name: 'query_order', kind: 'execute', depth: 0, start: 1, duration: 3, outcome: 'success' }],
          },
        },
        { type: 'finish-step' },
        { type: 'start-step' },
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'It has ' },
        { type: 'text-delta', id: 't1', delta: 'shipped.' },
        { type: 'text-end', id: 't1' },
        { type: 'finish-step' },
        { type: 'finish', finishReason: 'stop' },
      ]);
    });
    const hook = mount({ id: 'conv-sse', fetch, tools: [queryOrderInBrowser], serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'Where is A-1001?' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('It has shipped.'), LOADED);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({ id: 'conv-sse', mode: 'internal', messages: [{ role: 'user', parts: [{ type: 'text', text: 'Where is A-1001?' }] }] });
    expect(hook.current.model).toMatchObject({ label: 'offline model (edgetool-offline)', offline: true });
    expect(hook.current.toolCalls.get('c1')).toMatchObject({ status: 'done', ranOn: 'server', durationMs: 3, sealed: true, output: { status: 'shipped' } });
    expect(hook.current.toolCalls.get('c1')?.traces[0]?.spans).toHaveLength(1);
    // onToolCall fired for query_order, and the browser has an "anywhere" tool of that name: it must not run.
    expect(browserQueryRuns).toBe(0);
    expect(hook.current.status).toBe('ready');
  });

  it('reports HTTP errors with the server body, and an unreachable server', async () => {
    const refused = mount({
      fetch: async () => Response.json({ error: { code: 'ticket-invalid', message: 'Refused the approval: already been used.' } }, { status: 403 }),
    });
    await refused.current.sendMessage({ text: 'hi' });
    await vi.waitFor(
      () => expect(refused.current.chatError).toEqual({ kind: 'refused', status: 403, code: 'ticket-invalid', message: 'Refused the approval: already been used.' }),
      LOADED,
    );
    refused.unmount();
    const down = mount({ fetch: () => Promise.reject(new TypeError('Failed to fetch')) });
    await down.current.sendMessage({ text: 'hi' });
    await vi.waitFor(() => expect(down.current.chatError).toMatchObject({ kind: 'unreachable' }), LOADED);
  });

  it('a response that ends without its finish is an error: the part that came stays, and an empty one leaves no answer', async () => {
    const start = { type: 'start', messageId: 'm1' };
    const cut = mount({
      fetch: async () => sseResponse([start, { type: 'text-start', id: 't1' }, { type: 'text-delta', id: 't1', delta: 'It has ' }]),
    });
    await cut.current.sendMessage({ text: 'Where is A-1001?' });
    await vi.waitFor(() => expect(cut.current.chatError).toMatchObject({ kind: 'unreachable', code: 'stream-cut' }), LOADED);
    expect(cut.current.status).toBe('error');
    expect(texts(cut.current)).toBe('It has ');
    cut.unmount();
    const empty = mount({ fetch: async () => new Response('', { headers: { 'content-type': 'text/event-stream' } }) });
    await empty.current.sendMessage({ text: 'hi' });
    await vi.waitFor(() => expect(empty.current.chatError).toMatchObject({ kind: 'unreachable', code: 'stream-cut' }), LOADED);
    expect(empty.current.messages.map((m) => m.role)).toEqual(['user']);
  });

  it('a stream line that is not a chat chunk is an unreadable answer: what came before it stays, and nothing if it came first', async () => {
    const sse = (lines: readonly string[]) => new Response(lines.map((line) => `data: ${line}\n\n`).join(''), { headers: { 'content-type': 'text/event-stream' } });
    const start = JSON.stringify({ type: 'start', messageId: 'm1' });
    const text = [JSON.stringify({ type: 'text-start', id: 't1' }), JSON.stringify({ type: 'text-delta', id: 't1', delta: 'It has ' })];
    const late = mount({ fetch: async () => sse([start, ...text, '{"type":"text-delta", garbled', JSON.stringify({ type: 'finish' })]) });
    await late.current.sendMessage({ text: 'Where is A-1001?' });
    await vi.waitFor(() => expect(late.current.chatError).toMatchObject({ kind: 'unreadable', code: 'stream-unreadable' }), LOADED);
    expect(late.current.chatError?.message).not.toContain('garbled');
    expect(texts(late.current)).toBe('It has ');
    late.unmount();
    // Not JSON at all, then JSON that is no chunk: nothing of the answer came.
    for (const line of ['<html>Bad gateway</html>', JSON.stringify({ type: 'bogus' })]) {
      const first = mount({ fetch: async () => sse([line, start, JSON.stringify({ type: 'finish' })]) });
      await first.current.sendMessage({ text: 'hi' });
      await vi.waitFor(() => expect(first.current.chatError).toMatchObject({ kind: 'unreadable', code: 'stream-unreadable' }), LOADED);
      expect(first.current.messages.map((m) => m.role)).toEqual(['user']);
      first.unmount();
    }
  });
});

describe('useEdgeChat against the real chat loop', () => {
  it('internal mode: runs a handed-over browser tool through the browser chain, answers, and the loop continues', async () => {
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'pick_date', { question: 'Which day?' }]]), textStep('Booked for Dec 24.')] });
    const seen: string[] = [];
    const audit = defineInterceptor('audit', async (ctx, next) => {
      seen.push(`${ctx.side}:${ctx.tool.name}:${ctx.run.conversationId}`);
      return next();
    });
    const hook = mount({ id: 'conv-1', fetch: server.fetch, tools: browserTools, interceptors: [audit], serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'Book a day' });
    await vi.waitFor(() => expect(dates.questions()).toEqual([{ id: 'c1', chatId: 'conv-1', toolName: 'pick_date', question: { question: 'Which day?' } }]), LOADED);
    // The question is asked as the tool starts; the hook's view of the call renders after it (a state update).
    await vi.waitFor(() => expect(hook.current.toolCalls.get('c1')).toMatchObject({ status: 'running', ranOn: 'browser' }), LOADED);
    expect(hook.current.busy).toBe(true);
    dates.answer('c1', '2026-12-24');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Booked for Dec 24.'), LOADED);
    expect(seen).toEqual(['client:pick_date:conv-1']);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.mode).toBe('internal');
    const view = hook.current.toolCalls.get('c1');
    expect(view).toMatchObject({ status: 'done', ranOn: 'browser', output: '2026-12-24', sealed: true });
    expect(view?.traces.map((t) => [t.side, t.outcome, t.spans.map((s) => s.name)])).toEqual([['client', 'success', ['audit', 'pick_date']]]);
    // A number, not a speed: Chromium's performance.now() steps by 0.1 ms, and an answer given as soon as the question
    // shows can end the call within one step (0 ms).
    expect(view?.durationMs).toBeGreaterThanOrEqual(0);
    expect(hook.current.chatError).toBeUndefined();
  });

  it('progress: server reports arrive through the stream, browser reports from the browser chain; the view keeps the latest', async () => {
    const scanServer = defineTool({
      name: 'scan_orders',
      description: 'Scans orders',
      input: v.object({ n: v.number() }),
      execute: async ({ n }, ctx) => {
        for (let i = 1; i <= n; i++) {
          ctx.progress({ message: `Order ${i} of ${n}`, completed: i, total: n });
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        return n;
      },
    });
    const measureServer = defineTool({ name: 'measure_page', description: 'Measures the page', input: v.object({}), policy: { runsOn: 'client' } });
    const measure = defineTool({
      ...measureServer,
      execute: async (_input, ctx) => {
        ctx.progress({ message: 'Measuring' });
        await new Promise((resolve) => setTimeout(resolve, 2));
        ctx.progress({ message: 'Measured', completed: 1, total: 1 });
        return 42;
      },
    });
    const server = createTestServer({
      tools: [scanServer, measureServer],
      steps: [callsStep([['c1', 'scan_orders', { n: 3 }]]), callsStep([['c2', 'measure_page', {}]]), textStep('Scanned and measured.')],
    });
    const events: string[] = [];
    const hook = mount({
      id: 'conv-progress',
      fetch: server.fetch,
      tools: [measure],
      onProgress: ({ toolCallId, progress }) => events.push(`${toolCallId}:${progress.message}`),
    });
    await hook.current.sendMessage({ text: 'Scan and measure' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Scanned and measured.'), LOADED);
    await vi.waitFor(() => expect(hook.current.toolCalls.get('c2')?.progress).toEqual({ message: 'Measured', completed: 1, total: 1 }), LOADED);
    expect(hook.current.toolCalls.get('c1')).toMatchObject({ status: 'done', ranOn: 'server', progress: { message: 'Order 3 of 3', completed: 3, total: 3 } });
    expect(events.filter((e) => e.startsWith('c1:')).at(-1)).toBe('c1:Order 3 of 3');
    expect(events.filter((e) => e.startsWith('c2:'))).toEqual(['c2:Measuring', 'c2:Measured']);
    // Progress is never part of the conversation.
    expect(hook.current.messages.flatMap((m) => m.parts).some((p) => p.type === 'data-edgetool-progress')).toBe(false);
  });

  it('an onProgress that throws does not end the response: the answer arrives, and the reports still render', async () => {
    const scanServer = defineTool({
      name: 'scan_orders',
      description: 'Scans orders',
      input: v.object({}),
      execute: async (_input, ctx) => {
        ctx.progress({ message: 'Scanned', completed: 1, total: 1 });
        await new Promise((resolve) => setTimeout(resolve, 2));
        return 1;
      },
    });
    const measureServer = defineTool({ name: 'measure_page', description: 'Measures the page', input: v.object({}), policy: { runsOn: 'client' } });
    const measure = defineTool({
      ...measureServer,
      execute: async (_input, ctx) => {
        ctx.progress({ message: 'Measured', completed: 1, total: 1 });
        await new Promise((resolve) => setTimeout(resolve, 2));
        return 42;
      },
    });
    const steps = [callsStep([['c1', 'scan_orders', {}]]), callsStep([['c2', 'measure_page', {}]]), textStep('Scanned and measured.')];
    const server = createTestServer({ tools: [scanServer, measureServer], steps });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onProgress = () => {
      throw new Error('the progress bar is gone');
    };
    const hook = mount({ id: 'conv-progress-throws', fetch: server.fetch, tools: [measure], onProgress });
    await hook.current.sendMessage({ text: 'Scan and measure' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Scanned and measured.'), LOADED);
    expect(hook.current.chatError).toBeUndefined();
    await vi.waitFor(() => expect(hook.current.toolCalls.get('c2')?.progress).toEqual({ message: 'Measured', completed: 1, total: 1 }), LOADED);
    expect(hook.current.toolCalls.get('c1')?.progress).toEqual({ message: 'Scanned', completed: 1, total: 1 });
    expect(new Set(logged.mock.calls.map(([, error]) => (error as Error).message))).toEqual(new Set(['the progress bar is gone']));
    logged.mockRestore();
  });

  it('a browser tool that returns nothing answers null, and the server takes it', async () => {
    const focusServer = defineTool({ name: 'focus_composer', description: 'Moves focus to the message box', input: v.object({}), policy: { runsOn: 'client' } });
    let focused = 0;
    const focus = defineTool({
      ...focusServer,
      execute: () => {
        focused++;
      },
    });
    const server = createTestServer({ tools: [focusServer], steps: [callsStep([['c1', 'focus_composer', {}]]), textStep('Focused.')] });
    const hook = mount({ id: 'conv-void', fetch: server.fetch, tools: [focus] });
    await hook.current.sendMessage({ text: 'focus the box' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Focused.'), LOADED);
    expect(hook.current.chatError).toBeUndefined();
    expect(focused).toBe(1);
    expect(hook.current.toolCalls.get('c1')).toMatchObject({ status: 'done', ranOn: 'browser', output: null, sealed: true });
  });

  it('a browser tool whose output JSON cannot carry (its toModelOutput words it) fails as invalid-output; the chat goes on', async () => {
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    for (const [id, output] of [['conv-bigint', { total: 10n }], ['conv-cycle', cyclic]] as const) {
      const sumServer = defineTool({ name: 'sum_cart', description: 'Sums the cart in this browser', input: v.object({}), policy: { runsOn: 'client' } });
      const sum = defineTool({ ...sumServer, execute: () => output, toModelOutput: () => 'The cart is summed.' });
      const server = createTestServer({ tools: [sumServer], steps: [callsStep([['c1', 'sum_cart', {}]]), textStep('It failed.'), textStep('Next.')] });
      const hook = mount({ id, fetch: server.fetch, tools: [sum] });
      await hook.current.sendMessage({ text: 'sum the cart' });
      await vi.waitFor(() => expect(texts(hook.current)).toBe('It failed.'), LOADED);
      expect(hook.current.chatError).toBeUndefined();
      expect(hook.current.toolCalls.get('c1')).toMatchObject({ status: 'error', sealed: true, traces: [{ side: 'client', outcome: 'error', errorCode: 'invalid-output' }] });
      expect(hook.current.toolCalls.get('c1')?.errorText).toMatch(/^Error \(invalid-output\): The result of "sum_cart" could not be sent to the server as JSON: /);
      // The message keeps nothing JSON cannot carry: the next request goes out.
      await hook.current.sendMessage({ text: 'and now?' });
      await vi.waitFor(() => expect(texts(hook.current)).toBe('It failed.Next.'), LOADED);
      expect(server.requests).toHaveLength(3);
      hook.unmount();
    }
  });

  it('a browser output over maxOutputBytes fails as invalid-output: a server with a body limit takes the continuation, and the chat goes on', async () => {
    const pageServer = defineTool({ name: 'page_text', description: 'The text of the page', input: v.object({}), policy: { runsOn: 'client' } });
    const page = defineTool({ ...pageServer, execute: () => 'é'.repeat(300_000) });
    const server = createTestServer({ tools: [pageServer], steps: [callsStep([['c1', 'page_text', {}]]), textStep('Too long.'), textStep('Next.')] });
    // 600,000 bytes of text would have been refused, and so would every request after it (the message keeps the output).
    const hook = mount({ id: 'conv-huge', fetch: bodyLimited(server.fetch), tools: [page] });
    await hook.current.sendMessage({ text: 'read the page' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Too long.'), LOADED);
    expect(hook.current.chatError).toBeUndefined();
    expect(hook.current.toolCalls.get('c1')).toMatchObject({ status: 'error', sealed: true, traces: [{ side: 'client', outcome: 'error', errorCode: 'invalid-output' }] });
    expect(hook.current.toolCalls.get('c1')?.errorText).toBe(
      'Error (invalid-output): The result of "page_text" is 600,002 bytes of JSON, more than the 262,144 this browser sends (maxOutputBytes): return less of it.',
    );
    await hook.current.sendMessage({ text: 'and now?' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Too long.Next.'), LOADED);
    // With a higher limit it goes as it is (to a server that takes it).
    const small = createTestServer({ tools: [pageServer], steps: [callsStep([['c1', 'page_text', {}]]), textStep('Read.')] });
    const roomy = mount({ id: 'conv-huge-allowed', fetch: small.fetch, tools: [page], maxOutputBytes: 1_000_000 });
    await roomy.current.sendMessage({ text: 'read the page' });
    await vi.waitFor(() => expect(texts(roomy.current)).toBe('Read.'), LOADED);
    expect(roomy.current.toolCalls.get('c1')).toMatchObject({ status: 'done', sealed: true });
    roomy.unmount();
  });

  it('browser outputs of one step share maxOutputBytes: the first to come is kept, and one past what is left fails as invalid-output', async () => {
    // Two tabs of 262,004 bytes of JSON each: each is under 256 KiB, together over the 512 KiB the server takes.
    const readServer = defineTool({ name: 'read_tab', description: 'The text of a tab', input: v.object({ tab: v.string() }), policy: { runsOn: 'client' } });
    const release = new Map<string, () => void>();
    const read = defineTool({
      ...readServer,
      execute: ({ tab }) => new Promise<string>((resolve) => release.set(tab, () => resolve(`${tab}:${'é'.repeat(131_000)}`))),
    });
    const over =
      'Error (invalid-output): The result of "read_tab" is 262,004 bytes of JSON, and the other results of its step already take 262,004 of the 262,144 ' +
      'this browser sends in one continuation (maxOutputBytes): ask for less, or for it in a step of its own.';
    // Tab b finishes first, and tab a once b's result is written; then both in the same tick (b's result counted
    // before it is written).
    for (const together of [false, true]) {
      const server = createTestServer({ tools: [readServer], steps: [callsStep([['c1', 'read_tab', { tab: 'a' }], ['c2', 'read_tab', { tab: 'b' }]]), textStep('Read b.')] });
      const hook = mount({ id: `conv-budget-${together}`, fetch: bodyLimited(server.fetch), tools: [read] });
      await hook.current.sendMessage({ text: 'read both tabs' });
      await vi.waitFor(() => expect([...release.keys()].sort()).toEqual(['a', 'b']), LOADED);
      release.get('b')?.();
      if (!together) await vi.waitFor(() => expect(hook.current.toolCalls.get('c2')?.status).toBe('done'), LOADED);
      release.get('a')?.();
      await vi.waitFor(() => expect(texts(hook.current), `together: ${together}`).toBe('Read b.'), LOADED);
      expect(hook.current.chatError).toBeUndefined();
      expect(server.requests).toHaveLength(2);
      expect(hook.current.toolCalls.get('c2')).toMatchObject({ status: 'done', sealed: true });
      expect(hook.current.toolCalls.get('c1')).toMatchObject({ status: 'error', sealed: true, errorText: over });
      // The model read which result came, and why the other did not.
      const results = server.model.doStreamCalls.at(-1)?.prompt.flatMap((m) => (m.role === 'tool' ? m.content : []));
      expect(results?.map((r) => r.type === 'tool-result' && [r.toolCallId, r.output.type])).toEqual([
        ['c1', 'error-text'],
        ['c2', 'text'],
      ]);
      release.clear();
      hook.unmount();
    }
    current = undefined;
  });

  it('a continuation the server answers without taking its answers (no seal, no new step) is not sent again by itself', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const noteServer = defineTool({ name: 'note', description: 'Notes something in this browser', input: v.object({ text: v.string() }), policy: { runsOn: 'client' } });
    const note = defineTool({ ...noteServer, execute: ({ text }) => text.length });
    const server = createTestServer({ tools: [noteServer], steps: [callsStep([['c1', 'note', { text: 'hi' }]])] });
    // When each request came: before or after the app's own Retry.
    const sent: string[] = [];
    let retried = false;
    const fetch: typeof globalThis.fetch = async (url, init) => {
      sent.push(retried ? 'retry' : 'auto');
      // A broken server: the first request goes to the real loop, every continuation gets an empty answer.
      if (sent.length === 1) return server.fetch(url, init);
      if (sent.length > 6) throw new TypeError('Failed to fetch');
      return sseResponse([{ type: 'start' }, { type: 'finish', finishReason: 'stop' }]);
    };
    const hook = mount({ id: 'conv-untaken', fetch, tools: [note] });
    await hook.current.sendMessage({ text: 'note hi' });
    await vi.waitFor(() => expect(logged).toHaveBeenCalledWith(expect.stringContaining('without taking its answers')), LOADED);
    await vi.waitFor(() => expect(hook.current.status).toBe('ready'), LOADED);
    expect(hook.current.toolCalls.get('c1')).toMatchObject({ status: 'done', output: 2, sealed: false });
    expect(hook.current.chatError).toBeUndefined();
    expect(hook.current.continuationHeld).toBe('untaken');
    // The app's Retry still sends it, once.
    retried = true;
    await hook.current.sendMessage();
    await vi.waitFor(() => expect(hook.current.status).toBe('ready'), LOADED);
    expect(sent).toEqual(['auto', 'auto', 'retry']);
    logged.mockRestore();
  });

  it('a model that asks for a browser call at every step: the hook sends at most maxAutoContinuations in a row, then waits for a Retry', async () => {
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const noteServer = defineTool({ name: 'note', description: 'Notes something in this browser', input: v.object({ text: v.string() }), policy: { runsOn: 'client' } });
    let notes = 0;
    const note = defineTool({ ...noteServer, execute: () => ++notes });
    // The server's maxSteps bounds one request; each continuation is a request of its own, so it never stops this.
    const steps = Array.from({ length: 40 }, (_, i) => callsStep([[`c${i}`, 'note', { text: 'again' }]]));
    const server = createTestServer({ tools: [noteServer], steps: [...steps, textStep('Done.')] });
    const hook = mount({ id: 'conv-looping', fetch: server.fetch, tools: [note], maxAutoContinuations: 3 });
    expect(hook.current.continuationHeld).toBeUndefined();
    // What the app's notice says: held after this many.
    expect(hook.current.maxAutoContinuations).toBe(3);
    await hook.current.sendMessage({ text: 'note it' });
    await vi.waitFor(() => expect(hook.current.continuationHeld).toBe('limit'), LOADED);
    expect(hook.current.status).toBe('ready');
    // The message, then three continuations by themselves; the fourth waits with its answer written.
    expect(server.requests).toHaveLength(4);
    expect(notes).toBe(4);
    expect(hook.current.toolCalls.get('c3')).toMatchObject({ status: 'done', ranOn: 'browser', sealed: false });
    // Once, though StrictMode runs state updates twice and useChat may ask again.
    expect(warned.mock.calls.filter(([text]) => String(text).includes('maxAutoContinuations'))).toHaveLength(1);
    // The app's Retry sends it, and the count starts again from there.
    await hook.current.sendMessage();
    await vi.waitFor(() => expect(server.requests).toHaveLength(8), LOADED);
    await vi.waitFor(() => expect(hook.current.continuationHeld).toBe('limit'), LOADED);
    expect(hook.current.chatError).toBeUndefined();
    // A new message goes on too: the held answer goes with it, and the count starts again.
    await hook.current.sendMessage({ text: 'stop noting' });
    await vi.waitFor(() => expect(server.requests).toHaveLength(12), LOADED);
    await vi.waitFor(() => expect(hook.current.status).toBe('ready'), LOADED);
    expect(server.requests).toHaveLength(12);
    warned.mockRestore();
  });

  it('the default bound: a looping model gets ten continuations, not one per step it asks for', async () => {
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const noteServer = defineTool({ name: 'note', description: 'Notes something in this browser', input: v.object({ text: v.string() }), policy: { runsOn: 'client' } });
    const note = defineTool({ ...noteServer, execute: () => 1 });
    const steps = Array.from({ length: 40 }, (_, i) => callsStep([[`c${i}`, 'note', { text: 'again' }]]));
    const server = createTestServer({ tools: [noteServer], steps: [...steps, textStep('Done.')] });
    const hook = mount({ id: 'conv-looping-default', fetch: server.fetch, tools: [note] });
    await hook.current.sendMessage({ text: 'note it' });
    await vi.waitFor(() => expect(hook.current.continuationHeld).toBe('limit'), LOADED);
    expect(server.requests).toHaveLength(11);
    expect(hook.current.maxAutoContinuations).toBe(10);
    warned.mockRestore();
  });

  it('toolErrorMessage: the server receives a browser tool\'s unexpected failure in the hidden words; a ToolError as written', async () => {
    const saveServer = defineTool({ name: 'save_draft', description: 'Saves the draft in this browser', input: v.object({}), policy: { runsOn: 'client' } });
    const checkServer = defineTool({ name: 'check_date', description: 'Checks a date in this browser', input: v.object({}), policy: { runsOn: 'client' } });
    const save = defineTool({
      ...saveServer,
      execute: () => {
        throw new Error('QuotaExceededError: idb://drafts/user-42 is full');
      },
    });
    const check = defineTool({
      ...checkServer,
      execute: () => {
        throw new ToolError('invalid-input', 'Pick a date in the future.');
      },
    });
    const server = createTestServer({ tools: [saveServer, checkServer], steps: [callsStep([['c1', 'save_draft', {}], ['c2', 'check_date', {}]]), textStep('Sorry.')] });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const hook = mount({ id: 'conv-hide', fetch: server.fetch, tools: [save, check], toolErrorMessage: 'hide-unexpected' });
    await hook.current.sendMessage({ text: 'save it and check the date' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Sorry.'), LOADED);
    const sent = server.requests[1]?.messages.at(-1)?.parts.flatMap((p) => ('errorText' in p && typeof p.errorText === 'string' ? [[p.toolCallId, p.errorText]] : []));
    expect(sent).toEqual([
      ['c1', 'Error (execution-failed): The tool failed unexpectedly (reference c1).'],
      ['c2', 'Error (invalid-input): Pick a date in the future.'],
    ]);
    expect(JSON.stringify(server.model.doStreamCalls[1]?.prompt)).not.toContain('idb://');
    expect(hook.current.toolCalls.get('c1')).toMatchObject({ status: 'error', sealed: true });
    // The original stays in this browser: in its console, under the reference the model read.
    expect(logged.mock.calls.map(([text, error]) => [text, (error as Error).message])).toEqual([
      [
        'edgetool: the browser call c1 of "save_draft" failed; the model reads only the text toolErrorMessage gave it:',
        'QuotaExceededError: idb://drafts/user-42 is full',
      ],
    ]);
    logged.mockRestore();
  });

  it('toolErrorMessage as a function: manual mode words the browser chain\'s failure with it too', async () => {
    writes.length = 0;
    const guard = defineInterceptor('guard', () => {
      throw new Error('policy service at 10.0.3.7 refused: token expired');
    });
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]), textStep('Not moved.')] });
    const options = { id: 'conv-hide-manual', mode: 'manual', fetch: server.fetch, interceptors: [guard], serverTools: serverInfo } as const;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const hook = mount({ ...options, toolErrorMessage: (error, call) => (error.unexpected ? `Blocked by the store policy (ref ${call.id}).` : undefined) });
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Not moved.'), LOADED);
    const prompt = JSON.stringify(server.model.doStreamCalls[1]?.prompt.at(-1));
    expect(prompt).toContain('Blocked by the store policy (ref c1).');
    expect(prompt).not.toContain('10.0.3.7');
    expect(writes).toEqual([]);
    expect(logged.mock.calls.map(([, error]) => (error as Error).message)).toEqual(['policy service at 10.0.3.7 refused: token expired']);
    logged.mockRestore();
  });

  it('an onTrace that throws does not hold up the browser call: its result goes to the server, and the error to the console', async () => {
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'pick_date', { question: 'When?' }]]), textStep('Booked.')] });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onTrace = () => {
      throw new Error('trace exporter is down');
    };
    const hook = mount({ id: 'conv-trace-throws', fetch: server.fetch, tools: browserTools, onTrace });
    await hook.current.sendMessage({ text: 'pick a date' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c1']), LOADED);
    dates.answer('c1', '2026-12-24');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Booked.'), LOADED);
    expect(hook.current.toolCalls.get('c1')).toMatchObject({ status: 'done', output: '2026-12-24', sealed: true });
    expect(hook.current.busy).toBe(false);
    expect(logged.mock.calls.map(([text, error]) => [text, (error as Error).message])).toEqual([['edgetool: useEdgeChat\'s onTrace threw; the hook went on without it:', 'trace exporter is down']]);
    logged.mockRestore();
  });

  it('a destructive browser tool asks the user in the browser first; approve() runs it', async () => {
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'cart_clear', {}]]), textStep('Cart emptied.')] });
    // Counted from here: other tests clear the cart too, and `--sequence.shuffle` may run them first.
    const before = cartCleared;
    const hook = mount({ id: 'conv-2', fetch: server.fetch, tools: browserTools, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'empty my cart' });
    await vi.waitFor(
      () => expect(hook.current.pendingApprovals).toMatchObject([{ toolCallId: 'c1', toolName: 'cart_clear', approval: { source: 'browser' }, policy: { effects: 'destructive' } }]),
      LOADED,
    );
    expect(cartCleared).toBe(before);
    hook.current.approve('c1');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Cart emptied.'), LOADED);
    expect(cartCleared).toBe(before + 1);
    expect(hook.current.toolCalls.get('c1')?.traces.map((t) => t.outcome)).toEqual(['approval-required', 'success']);
  });

  it('internal mode: a write tool waits for approval; deny() sends the reason and nothing runs', async () => {
    writes.length = 0;
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]), textStep('OK, not moved.')] });
    const hook = mount({ id: 'conv-3', fetch: server.fetch, tools: browserTools, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(
      () => expect(hook.current.pendingApprovals).toMatchObject([{ toolCallId: 'c1', approval: { source: 'server' }, mode: 'internal', policy: { effects: 'write' } }]),
      LOADED,
    );
    hook.current.deny('c1', 'wrong order');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('OK, not moved.'), LOADED);
    expect(writes).toEqual([]);
    const prompt = server.model.doStreamCalls[1]?.prompt.at(-1);
    expect(JSON.stringify(prompt)).toContain('wrong order');
    expect(hook.current.toolCalls.get('c1')?.status).toBe('denied');
  });

  it('approve(id, { input }): the server runs the call with the edited arguments; the view shows what changed', async () => {
    writes.length = 0;
    const proposed = { order_id: 'A-1', new_date: '2026-12-24' };
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'move_delivery', proposed]]), textStep('Moved to Dec 27.')] });
    const hook = mount({ id: 'conv-edit', fetch: server.fetch, tools: browserTools, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals).toMatchObject([{ toolCallId: 'c1', editable: ['new_date'] }]), LOADED);
    expect(hook.current.toolCalls.get('c1')).toMatchObject({ editable: ['new_date'], edits: undefined });
    hook.current.approve('c1', { input: { ...proposed, new_date: '2026-12-27' } });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Moved to Dec 27.'), LOADED);
    expect(writes).toEqual([{ order_id: 'A-1', new_date: '2026-12-27' }]);
    const sent = server.requests[1]?.messages.at(-1)?.parts.filter((p) => p.type === 'data-edgetool-edit');
    expect(sent).toEqual([{ type: 'data-edgetool-edit', id: 'c1', data: { toolCallId: 'c1', input: { order_id: 'A-1', new_date: '2026-12-27' } } }]);
    expect(JSON.stringify(server.model.doStreamCalls[1]?.prompt.at(-1))).toContain('new_date changed from \\"2026-12-24\\" to \\"2026-12-27\\"');
    expect(hook.current.toolCalls.get('c1')).toMatchObject({ status: 'done', input: proposed, edits: [{ key: 'new_date', from: '2026-12-24', to: '2026-12-27' }] });
  });

  it('approve(id, { input }) while the answer still streams: the edit goes out with the approval', async () => {
    writes.length = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = defineTool({ name: 'slow_lookup', description: 'Looks something up slowly', input: v.object({}), execute: () => gate.then(() => 'found') });
    const proposed = { order_id: 'A-1', new_date: '2026-12-24' };
    const steps = [callsStep([['c1', 'move_delivery', proposed], ['c2', 'slow_lookup', {}]]), textStep('Moved to Dec 27.')];
    const server = createTestServer({ tools: [...serverTools, slow], steps });
    const hook = mount({ id: 'conv-edit-streaming', fetch: server.fetch, tools: browserTools, serverTools: serverInfo });
    // Not awaited: it ends with the answer, which waits for the slow call.
    void hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c1']), LOADED);
    // The step's other call still runs: the answer streams on after the approval request.
    expect(hook.current.status).toBe('streaming');
    hook.current.approve('c1', { input: { ...proposed, new_date: '2026-12-27' } });
    release();
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Moved to Dec 27.'), LOADED);
    expect(writes).toEqual([{ order_id: 'A-1', new_date: '2026-12-27' }]);
    expect(hook.current.toolCalls.get('c1')?.edits).toEqual([{ key: 'new_date', from: '2026-12-24', to: '2026-12-27' }]);
  });

  it('regenerate() of an answer approved with an edit: the new answer\'s call_0, approved as it is while it streams, runs as it is', async () => {
    writes.length = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = defineTool({ name: 'slow_lookup', description: 'Looks something up slowly', input: v.object({}), execute: () => gate.then(() => 'found') });
    const proposed = { order_id: 'A-1', new_date: '2026-12-24' };
    // A model that numbers its calls call_0 every time.
    const steps = [
      callsStep([['call_0', 'move_delivery', proposed]]),
      textStep('Moved to Dec 27.'),
      callsStep([['call_0', 'move_delivery', proposed], ['call_1', 'slow_lookup', {}]]),
      textStep('Moved to Dec 24.'),
    ];
    const server = createTestServer({ tools: [...serverTools, slow], steps });
    const hook = mount({ id: 'conv-edit-regenerate', fetch: server.fetch, tools: browserTools, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['call_0']), LOADED);
    hook.current.approve('call_0', { input: { ...proposed, new_date: '2026-12-27' } });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Moved to Dec 27.'), LOADED);
    // Regenerated: the new answer asks again, and this time the user approves the call as the model made it.
    void hook.current.regenerate();
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['call_0']), LOADED);
    expect(hook.current.status).toBe('streaming');
    hook.current.approve('call_0');
    release();
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Moved to Dec 24.'), LOADED);
    // The edit of the answer regenerated away was not put back beside the new call.
    expect(server.requests.at(-1)?.messages.at(-1)?.parts.filter((p) => p.type === 'data-edgetool-edit')).toEqual([]);
    expect(writes).toEqual([{ order_id: 'A-1', new_date: '2026-12-27' }, proposed]);
    expect(hook.current.toolCalls.get('call_0')).toMatchObject({ status: 'done', edits: undefined });
  });

  it('manual mode: approve(id, { input }) passes the browser chain with the model\'s call and sends the edits to the server', async () => {
    writes.length = 0;
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'move_delivery', { order_id: 'A-1', new_date: '2026-12-24' }]]), textStep('Moved.')] });
    const hook = mount({ id: 'conv-edit-manual', mode: 'manual', fetch: server.fetch, tools: browserTools, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c1']), LOADED);
    expect(hook.current.pendingApprovals[0]?.editable).toEqual(['new_date']);
    hook.current.approve('c1', { input: { order_id: 'A-1', new_date: '2027-01-04' } });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Moved.'), LOADED);
    expect(writes).toEqual([{ order_id: 'A-1', new_date: '2027-01-04' }]);
    expect(hook.current.toolCalls.get('c1')?.edits).toEqual([{ key: 'new_date', from: '2026-12-24', to: '2027-01-04' }]);
  });

  it('approve(id, { input }) throws, and sends nothing, for a change the tool does not allow; then approves as asked', async () => {
    writes.length = 0;
    const proposed = { order_id: 'A-1', new_date: '2026-12-24' };
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'move_delivery', proposed]]), textStep('Moved.')] });
    const hook = mount({ id: 'conv-edit-refused', fetch: server.fetch, tools: browserTools, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c1']), LOADED);
    expect(() => hook.current.approve('c1', { input: { order_id: 'A-2', new_date: '2026-12-27' } })).toThrow(
      'approve("c1", { input }): "move_delivery" lets a human edit only "new_date" (changed: "order_id").',
    );
    expect(() => hook.current.approve('c1', { input: 'A-2' })).toThrow('(changed: the arguments as a whole)');
    expect(server.requests).toHaveLength(1);
    expect(hook.current.toolCalls.get('c1')?.status).toBe('awaiting-approval');
    // The refused edit did not decide the call: the same call can still be approved.
    hook.current.approve('c1', { input: { ...proposed, new_date: '2026-12-27' } });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Moved.'), LOADED);
    expect(writes).toEqual([{ order_id: 'A-1', new_date: '2026-12-27' }]);
  });

  it('approve(id, { input }) of a call whose tool lets nothing be edited throws, and the call still waits', async () => {
    const fixed = defineTool({ name: 'cancel_order', description: 'Cancels an order', input: v.object({ order_id: v.string() }), policy: { effects: 'destructive' }, execute: () => 'cancelled' });
    const server = createTestServer({ tools: [...serverTools, fixed], steps: [callsStep([['c1', 'cancel_order', { order_id: 'A-1' }]]), textStep('Cancelled.')] });
    const hook = mount({ id: 'conv-edit-none', fetch: server.fetch, tools: browserTools, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'cancel it' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c1']), LOADED);
    expect(hook.current.pendingApprovals[0]?.editable).toBeUndefined();
    expect(() => hook.current.approve('c1', { input: { order_id: 'A-2' } })).toThrow('"cancel_order" lets no argument be edited (its policy.editable); approve without input.');
    expect(server.requests).toHaveLength(1);
    hook.current.approve('c1');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Cancelled.'), LOADED);
  });

  it('approve(id, { input }) of a browser tool throws: edits apply to calls the server runs', async () => {
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'cart_clear', {}]]), textStep('never')] });
    const hook = mount({ id: 'conv-edit-browser', fetch: server.fetch, tools: browserTools, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'clear my cart' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c1']), LOADED);
    expect(() => hook.current.approve('c1', { input: { all: true } })).toThrow('"cart_clear" runs in this browser; edited arguments apply to calls the server runs');
    expect(hook.current.toolCalls.get('c1')?.status).toBe('awaiting-approval');
  });

  it('manual mode: read server tools are authorised by the browser chain; writes wait for approve()', async () => {
    writes.length = 0;
    const server = createTestServer({
      tools: serverTools,
      steps: [
        callsStep([
          ['c1', 'query_order', { order_id: 'A-1' }],
          ['c2', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }],
        ]),
        textStep('Shipped, and moved to Dec 24.'),
      ],
    });
    const seen: string[] = [];
    const audit = defineInterceptor('audit', async (ctx, next) => {
      seen.push(ctx.tool.name);
      return next();
    });
    const hook = mount({ id: 'conv-4', mode: 'manual', fetch: server.fetch, tools: browserTools, interceptors: [audit], serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'where is A-1, and move it' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c2']), LOADED);
    expect(hook.current.toolCalls.get('c1')?.status).toBe('approved');
    expect(server.requests).toHaveLength(1);
    hook.current.approve('c2');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Shipped, and moved to Dec 24.'), LOADED);
    expect(server.requests.map((r) => r.mode)).toEqual(['manual', 'manual']);
    expect(writes).toEqual([{ order_id: 'A-1', new_date: '2026-12-24' }]);
    expect(seen).toEqual(['query_order', 'update_delivery_date', 'update_delivery_date']);
    const view = hook.current.toolCalls.get('c1');
    expect(view).toMatchObject({ status: 'done', ranOn: 'server', mode: 'manual' });
    expect(view?.traces.map((t) => t.side)).toEqual(['client', 'server']);
    // The browser chain's trace shows its spans, as a browser run's does (the authorising chain once recorded none).
    expect(view?.traces[0]?.spans.map((s) => [s.name, s.kind])).toEqual([
      ['audit', 'interceptor'],
      ['query_order', 'execute'],
    ]);
  });

  it("manual mode: the browser chain reads a server tool's arguments as the server will (its coerce and strict from serverTools)", async () => {
    const counted: unknown[] = [];
    const countLate = defineTool({
      name: 'count_late',
      description: 'Counts late orders',
      input: v.object({ days: v.number(), customer: v.optional(v.string()) }),
      policy: { coerce: true, strict: true },
      execute: (input) => {
        counted.push(input);
        return 2;
      },
    });
    const server = createTestServer({ tools: [countLate], steps: [callsStep([['c1', 'count_late', { days: '3', customer: null }]]), textStep('Two orders.')] });
    const info = parseServerTools([{ name: countLate.name, description: countLate.description, jsonSchema: countLate.jsonSchema, policy: countLate.policy }]);
    expect(info[0]?.policy).toMatchObject({ coerce: true, strict: true });
    const inputs: unknown[] = [];
    const audit = defineInterceptor('audit', (ctx, next) => {
      inputs.push(ctx.input);
      return next();
    });
    const hook = mount({ id: 'conv-fit-manual', mode: 'manual', fetch: server.fetch, interceptors: [audit], serverTools: info });
    await hook.current.sendMessage({ text: 'how many are 3 days late?' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Two orders.'), LOADED);
    // The browser chain passed the call with the input the server's tool ran with, not as arguments it refused.
    expect(inputs).toEqual([{ days: 3 }]);
    expect(counted).toEqual([{ days: 3 }]);
    expect(hook.current.toolCalls.get('c1')?.traces.map((t) => [t.side, t.outcome])).toEqual([
      ['client', 'success'],
      ['server', 'success'],
    ]);
  });

  it('manual mode: invalid arguments are not a denial; a read goes on to the server, a write waits for a human; the server reports them, nothing runs', async () => {
    writes.length = 0;
    const server = createTestServer({
      tools: serverTools,
      steps: [
        callsStep([
          ['c1', 'query_order', { order_id: 7 }],
          ['c2', 'update_delivery_date', { order_id: 'A-1', new_date: 42 }],
        ]),
        textStep('Let me fix the arguments.'),
      ],
    });
    const hook = mount({ id: 'conv-4b', mode: 'manual', fetch: server.fetch, tools: browserTools, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'where is A-1, and move it' });
    // The write's arguments may be valid as the server reads them (see the next test): a human decides.
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c2']), LOADED);
    expect(hook.current.toolCalls.get('c1')?.status).toBe('approved');
    hook.current.approve('c2');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Let me fix the arguments.'), LOADED);
    // Nothing ran, and the model read the server's invalid-input with the paths, not a denial.
    expect(writes).toEqual([]);
    const prompt = JSON.stringify(server.model.doStreamCalls[1]?.prompt.at(-1));
    expect(prompt).toContain('invalid-input');
    expect(prompt).toContain('order_id');
    expect(prompt).toContain('new_date');
    expect(prompt).not.toContain('denied');
  });

  it("manual mode: a write whose arguments only the server's reading makes valid (a strict model's null, a quoted number) waits for a human", async () => {
    const ran: unknown[] = [];
    const moveOrder = defineTool({
      name: 'move_order',
      description: 'Moves an order',
      input: v.object({ order_id: v.string(), note: v.optional(v.string()) }),
      policy: { effects: 'write', strict: true },
      execute: (input) => {
        ran.push(input);
        return 'moved';
      },
    });
    const restock = defineTool({
      name: 'restock',
      description: 'Orders more stock',
      input: v.object({ qty: v.number() }),
      policy: { effects: 'write', coerce: true },
      execute: (input) => {
        ran.push(input);
        return 'ordered';
      },
    });
    const tools = [moveOrder, restock];
    const info = parseServerTools(tools.map((t) => ({ name: t.name, description: t.description, jsonSchema: t.jsonSchema, policy: t.policy })));
    const steps = [callsStep([['c1', 'move_order', { order_id: 'A-1', note: null }], ['c2', 'restock', { qty: '5' }]]), textStep('Moved; no restock.')];
    const server = createTestServer({ tools, steps });
    const hook = mount({ id: 'conv-manual-lenient', mode: 'manual', fetch: server.fetch, serverTools: info });
    await hook.current.sendMessage({ text: 'move A-1 and order 5 more' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c1', 'c2']), LOADED);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.requests).toHaveLength(1);
    expect(ran).toEqual([]);
    hook.current.approve('c1');
    hook.current.deny('c2', 'We have enough.');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Moved; no restock.'), LOADED);
    // The server read the null as left out and ran the approved call; the denied one did not run.
    expect(ran).toEqual([{ order_id: 'A-1' }]);
    expect(JSON.stringify(server.model.doStreamCalls[1]?.prompt.at(-1))).toContain('We have enough.');
    expect(hook.current.toolCalls.get('c2')?.status).toBe('denied');
  });

  it('manual mode: approve() while the browser chain still authorises a call does not go around it', async () => {
    writes.length = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A check that takes a while and then refuses (a policy asked over the network, say).
    const guard = defineInterceptor('guard', async () => {
      await gate;
      throw new Error('Blocked by the store policy.');
    });
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]), textStep('Not moved.')] });
    const hook = mount({ id: 'conv-authorising', mode: 'manual', fetch: server.fetch, tools: browserTools, interceptors: [guard], serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(hook.current.toolCalls.get('c1')?.status).toBe('authorising'), LOADED);
    expect(hook.current.pendingApprovals).toEqual([]);
    hook.current.approve('c1');
    await new Promise((r) => setTimeout(r, 50));
    expect(server.requests).toHaveLength(1);
    release();
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Not moved.'), LOADED);
    expect(writes).toEqual([]);
    expect(hook.current.toolCalls.get('c1')?.status).toBe('denied');
    expect(JSON.stringify(server.model.doStreamCalls[1]?.prompt.at(-1))).toContain('Blocked by the store policy.');
  });

  it('manual mode: an approve() before the browser chain has taken the call does not go around it', async () => {
    writes.length = 0;
    const guard = defineInterceptor('guard', () => {
      throw new Error('Blocked by the store policy.');
    });
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]), textStep('Not moved.')] });
    // An app that approves what its list shows, from an effect: it runs in the commit of the render that first shows the
    // call, before the hook's own effect has handed the call to the browser chain.
    const hook = renderHook(
      (o: UseEdgeChatOptions) => {
        const chat = useEdgeChat(o);
        const { pendingApprovals, approve } = chat;
        useEffect(() => {
          for (const pending of pendingApprovals) approve(pending.toolCallId);
        }, [pendingApprovals, approve]);
        return chat;
      },
      { id: 'conv-effect-approve', mode: 'manual', fetch: server.fetch, interceptors: [guard], serverTools: serverInfo },
    );
    current = hook;
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Not moved.'), LOADED);
    // The chain refused the call: nothing ran, and the model read why.
    expect(writes).toEqual([]);
    expect(hook.current.toolCalls.get('c1')?.status).toBe('denied');
    expect(JSON.stringify(server.model.doStreamCalls[1]?.prompt.at(-1))).toContain('Blocked by the store policy.');
  });

  it('autoApprove decides without a human', async () => {
    writes.length = 0;
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'update_delivery_date', { order_id: 'A-2', new_date: '2026-12-25' }]]), textStep('Moved.')] });
    const hook = mount({ id: 'conv-5', fetch: server.fetch, serverTools: serverInfo, autoApprove: (call) => call.toolName === 'update_delivery_date' });
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Moved.'), LOADED);
    expect(writes).toEqual([{ order_id: 'A-2', new_date: '2026-12-25' }]);
  });

  it('an autoApprove that throws approves nothing: the calls wait for a human, in both modes, and the page goes on', async () => {
    writes.length = 0;
    const before = cartCleared;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const autoApprove = () => {
      throw new Error('the rules service is down');
    };
    const steps = [callsStep([['c1', 'update_delivery_date', { order_id: 'A-2', new_date: '2026-12-25' }], ['c2', 'cart_clear', {}]]), textStep('Moved; the cart stays.')];
    const server = createTestServer({ tools: serverTools, steps });
    const hook = mount({ id: 'conv-auto-throws', fetch: server.fetch, tools: browserTools, serverTools: serverInfo, autoApprove });
    await hook.current.sendMessage({ text: 'move it and empty my cart' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => [p.toolCallId, p.approval.source])).toEqual([['c1', 'server'], ['c2', 'browser']]), LOADED);
    await new Promise((r) => setTimeout(r, 50));
    expect(writes).toEqual([]);
    expect(cartCleared).toBe(before);
    hook.current.approve('c1');
    hook.current.deny('c2', 'Keep my cart.');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Moved; the cart stays.'), LOADED);
    expect(writes).toEqual([{ order_id: 'A-2', new_date: '2026-12-25' }]);
    expect(cartCleared).toBe(before);
    hook.unmount();

    // Manual mode: the browser chain's approval waits for a human too.
    const manual = createTestServer({ tools: serverTools, steps: [callsStep([['m1', 'update_delivery_date', { order_id: 'A-3', new_date: '2026-12-26' }]]), textStep('Moved.')] });
    const again = mount({ id: 'conv-auto-throws-manual', mode: 'manual', fetch: manual.fetch, serverTools: serverInfo, autoApprove });
    await again.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(again.current.pendingApprovals.map((p) => [p.toolCallId, p.mode])).toEqual([['m1', 'manual']]), LOADED);
    again.current.approve('m1');
    await vi.waitFor(() => expect(texts(again.current)).toBe('Moved.'), LOADED);
    expect(writes).toHaveLength(2);
    expect(new Set(logged.mock.calls.map(([text]) => text))).toEqual(new Set(["edgetool: useEdgeChat's autoApprove threw; the hook went on without it:"]));
    logged.mockRestore();
  });

  it("the tool's words (policy.approvalReason) reach pendingApprovals and autoApprove, from the server and from the browser chain", async () => {
    const refund = defineTool({
      name: 'refund',
      description: 'Refunds an order',
      input: v.object({ order_id: v.string(), amount: v.number() }),
      policy: { effects: 'write', approvalReason: ({ order_id, amount }) => `Refunds ${amount} EUR on ${order_id}.` },
      execute: () => 'refunded',
    });
    const emptyCart = defineTool({
      name: 'cart_clear',
      description: 'Empty the cart',
      input: v.object({}),
      policy: { runsOn: 'client', effects: 'destructive', approvalReason: () => 'Empties your cart.' },
      execute: () => 0,
    });
    const server = createTestServer({
      tools: [...serverTools, refund],
      steps: [
        callsStep([
          ['r1', 'refund', { order_id: 'A-1', amount: 30 }],
          ['c1', 'cart_clear', {}],
        ]),
        textStep('never'),
      ],
    });
    const asked: (string | undefined)[] = [];
    const hook = mount({
      id: 'conv-reasons',
      fetch: server.fetch,
      tools: [pickDate, emptyCart],
      serverTools: serverInfo,
      autoApprove: (call) => {
        asked.push(call.approval.requestReason);
        return false;
      },
    });
    await hook.current.sendMessage({ text: 'refund A-1 and clear my cart' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId).sort()).toEqual(['c1', 'r1']), LOADED);
    const reasons = Object.fromEntries(hook.current.pendingApprovals.map((p) => [p.toolCallId, p.approval.requestReason]));
    expect(reasons).toEqual({ r1: 'Refunds 30 EUR on A-1.', c1: 'Empties your cart.' });
    expect(hook.current.toolCalls.get('r1')?.approval?.requestReason).toBe('Refunds 30 EUR on A-1.');
    expect(asked.sort()).toEqual(['Empties your cart.', 'Refunds 30 EUR on A-1.']);
  });

  it('autoApprove gets each call as pendingApprovals lists it: one shape, from the server, the browser chain and manual mode', async () => {
    const seen = new Map<string, PendingApproval>();
    const autoApprove = (call: PendingApproval) => {
      seen.set(call.toolCallId, call);
      return false;
    };
    const proposed = { order_id: 'A-1', new_date: '2026-12-24' };
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'move_delivery', proposed], ['c2', 'cart_clear', {}]]), textStep('never')] });
    const hook = mount({ id: 'conv-auto-shape', fetch: server.fetch, tools: browserTools, serverTools: serverInfo, autoApprove });
    await hook.current.sendMessage({ text: 'move it and empty my cart' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c1', 'c2']), LOADED);
    expect([...seen.keys()].sort()).toEqual(['c1', 'c2']);
    for (const pending of hook.current.pendingApprovals) {
      expect(seen.get(pending.toolCallId)).toEqual(pending);
      expect(hook.current.toolCalls.get(pending.toolCallId)).toBe(pending);
    }
    // What a human may edit reaches autoApprove too (it used to get a shape without it).
    expect(seen.get('c1')).toMatchObject({ status: 'awaiting-approval', editable: ['new_date'], approval: { source: 'server' }, policy: { effects: 'write' } });
    expect(seen.get('c2')).toMatchObject({ status: 'awaiting-approval', ranOn: 'browser', approval: { source: 'browser' }, policy: { effects: 'destructive' } });
    hook.unmount();

    const manual = createTestServer({ tools: serverTools, steps: [callsStep([['m1', 'update_delivery_date', proposed]]), textStep('never')] });
    const again = mount({ id: 'conv-auto-shape-manual', mode: 'manual', fetch: manual.fetch, serverTools: serverInfo, autoApprove });
    await again.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(again.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['m1']), LOADED);
    expect(seen.get('m1')).toEqual(again.current.pendingApprovals[0]);
    expect(seen.get('m1')).toMatchObject({ mode: 'manual', approval: { source: 'server' }, traces: [{ side: 'client', outcome: 'approval-required' }] });
  });

  it("the hook's result answers a call only through approve and deny, which go through the browser chain: useChat's addToolOutput and addToolApprovalResponse are not in it", async () => {
    const passes: string[] = [];
    const watch = defineInterceptor('watch', (ctx, next) => {
      passes.push(ctx.call.id);
      return next();
    });
    const before = cartCleared;
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'cart_clear', {}]]), textStep('Cart emptied.')] });
    const hook = mount({ id: 'conv-no-raw', fetch: server.fetch, tools: browserTools, interceptors: [watch], serverTools: serverInfo });
    for (const name of ['addToolOutput', 'addToolResult', 'addToolApprovalResponse']) expect(name in hook.current).toBe(false);
    const callable = Object.entries(hook.current)
      .filter(([, value]) => typeof value === 'function')
      .map(([name]) => name)
      .sort();
    expect(callable).toEqual(
      ['approve', 'clearError', 'deny', 'experimental_removeQueuedMessage', 'experimental_sendQueuedMessageNow', 'regenerate', 'resumeStream', 'sendMessage', 'setMessages', 'stop'].sort(),
    );
    await hook.current.sendMessage({ text: 'empty my cart' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c1']), LOADED);
    hook.current.approve('c1');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Cart emptied.'), LOADED);
    // The approval ran the tool through the chain (the pass that asked, then the approved run), once.
    expect(passes).toEqual(['c1', 'c1']);
    expect(cartCleared).toBe(before + 1);
  });

  it('a return-direct answer ends the turn: no automatic resend', async () => {
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'answer', { text: 'Final: 42' }]]), textStep('never')] });
    const hook = mount({ id: 'conv-6', fetch: server.fetch, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'what is it?' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Final: 42'), LOADED);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.requests).toHaveLength(1);
  });

  it('switching chats aborts the browser calls of the chat it leaves: their question goes, nothing is sent for that chat', async () => {
    const server = createTestServer({
      tools: serverTools,
      steps: [callsStep([['a1', 'pick_date', { question: 'A?' }]]), callsStep([['b1', 'pick_date', { question: 'B?' }]]), textStep('B done'), textStep('A done')],
    });
    const { signals, watch } = watchSignals();
    const options = { fetch: server.fetch, tools: browserTools, interceptors: [watch], serverTools: serverInfo };
    const hook = mount({ ...options, id: 'chat-a' });
    await hook.current.sendMessage({ text: 'a' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['a1']), LOADED);
    expect(signals.get('a1')?.aborted).toBe(false);
    const chatA = hook.current.messages;
    hook.rerender({ ...options, id: 'chat-b' });
    // Chat A's call is aborted (its tool's ctx.signal), and its question is gone.
    await vi.waitFor(() => expect(dates.questions()).toEqual([]), LOADED);
    expect(signals.get('a1')?.aborted).toBe(true);
    expect(hook.current.toolCalls.has('a1')).toBe(false);
    expect(hook.current.busy).toBe(false);
    await hook.current.sendMessage({ text: 'b' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['b1']), LOADED);
    // Chat A's aborted call ended without a word to the server, and without touching chat B's call, which still runs.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests.map((r) => r.id)).toEqual(['chat-a', 'chat-b']);
    expect(hook.current.toolCalls.get('b1')?.status).toBe('running');
    expect(hook.current.busy).toBe(true);
    dates.answer('b1', '2026-12-25');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('B done'), LOADED);
    expect(hook.current.toolCalls.get('b1')).toMatchObject({ status: 'done', output: '2026-12-25' });
    expect(server.requests.map((r) => r.id)).toEqual(['chat-a', 'chat-b', 'chat-b']);
    // Back in chat A with its messages: the call it left unanswered starts again, and its answer goes on with chat A.
    hook.rerender({ ...options, id: 'chat-a', messages: chatA });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['a1']), LOADED);
    expect(signals.get('a1')?.aborted).toBe(false);
    dates.answer('a1', '2026-12-24');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('A done'), LOADED);
    expect(server.requests.map((r) => r.id)).toEqual(['chat-a', 'chat-b', 'chat-b', 'chat-a']);
  });

  it('a progress report still buffered when the hook switches chats stays with its chat: the next chat\'s call_0 does not show it', async () => {
    const measureServer = defineTool({ name: 'measure_page', description: 'Measures the page', input: v.object({}), policy: { runsOn: 'client' } });
    // Chat B, as the app restores it: its own call_0 (the model numbers its calls that way), done, with no progress.
    const chatB = [
      { id: 'b-u1', role: 'user', parts: [{ type: 'text', text: 'b' }] },
      { id: 'b-a1', role: 'assistant', parts: [{ type: 'tool-query_order', toolCallId: 'call_0', state: 'output-available', input: { order_id: 'B-1' }, output: { status: 'shipped' } }] },
    ] as NonNullable<UseEdgeChatOptions['messages']>;
    let switchChat = () => {};
    // Chat A's browser tool reports, and the user switches chats in the same task: the report waits for its frame.
    const measure = defineTool({
      ...measureServer,
      execute: (_input, ctx) => {
        ctx.progress({ message: 'Measuring chat A' });
        switchChat();
        return new Promise<number>((resolve) => ctx.signal.addEventListener('abort', () => resolve(0)));
      },
    });
    const server = createTestServer({ tools: [measureServer], steps: [callsStep([['call_0', 'measure_page', {}]]), textStep('never')] });
    const reported: string[] = [];
    const onProgress: UseEdgeChatOptions['onProgress'] = ({ toolCallId, progress }) => {
      reported.push(`${toolCallId}:${progress.message}`);
    };
    const options = { fetch: server.fetch, tools: [measure], onProgress };
    const hook = mount({ ...options, id: 'chat-a' });
    switchChat = () => {
      switchChat = () => {};
      hook.rerender({ ...options, id: 'chat-b', messages: chatB });
    };
    await hook.current.sendMessage({ text: 'measure' });
    await vi.waitFor(() => expect(hook.current.id).toBe('chat-b'), LOADED);
    expect(reported).toEqual(['call_0:Measuring chat A']);
    // Two frames: the one the report waited for, and the render after it.
    for (let frame = 0; frame < 2; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(hook.current.toolCalls.get('call_0')).toMatchObject({ status: 'done', output: { status: 'shipped' }, progress: undefined });
    expect(hook.current.browserState.progress).toEqual({});
  });

  it('two hooks on one page whose models give their calls the same id: each chat keeps its question and gets its own answer', async () => {
    // A model that sends call_0 in every response (some OpenAI-compatible servers do), in two chats at once.
    const servers = ['a', 'b'].map((chat) => createTestServer({ tools: serverTools, steps: [callsStep([['call_0', 'pick_date', { question: `${chat}?` }]]), textStep(`${chat} booked`)] }));
    const [a, b] = servers.map((server, i) => renderHook((o: UseEdgeChatOptions) => useEdgeChat(o), { id: `chat-${i}`, fetch: server?.fetch, tools: browserTools, serverTools: serverInfo }));
    try {
      await a?.current.sendMessage({ text: 'a' });
      await vi.waitFor(() => expect(dates.questions()).toHaveLength(1), LOADED);
      await b?.current.sendMessage({ text: 'b' });
      await vi.waitFor(() => expect(dates.questions().map((q) => [q.chatId, q.question])).toEqual([['chat-0', { question: 'a?' }], ['chat-1', { question: 'b?' }]]), LOADED);
      // Chat b's question did not end chat a's: a's call still runs, and nothing went to a's server.
      expect(a?.current.toolCalls.get('call_0')?.status).toBe('running');
      const [first, second] = dates.questions();
      dates.answer(second as NonNullable<typeof second>, '2026-12-25');
      await vi.waitFor(() => expect(texts(b?.current as UseEdgeChatResult)).toBe('b booked'), LOADED);
      dates.answer(first as NonNullable<typeof first>, '2026-12-24');
      await vi.waitFor(() => expect(texts(a?.current as UseEdgeChatResult)).toBe('a booked'), LOADED);
      expect(servers.map((server) => server.requests.length)).toEqual([2, 2]);
      expect([a, b].map((hook) => hook?.current.toolCalls.get('call_0')?.output)).toEqual(['2026-12-24', '2026-12-25']);
    } finally {
      a?.unmount();
      b?.unmount();
    }
  });

  it('a browser call started after stop() is aborted too when the hook switches chats or unmounts', async () => {
    const server = createTestServer({
      tools: serverTools,
      steps: [callsStep([['s1', 'pick_date', { question: 'First?' }]]), callsStep([['s2', 'pick_date', { question: 'Again?' }]]), callsStep([['s3', 'pick_date', { question: 'Once more?' }]])],
    });
    const { signals, watch } = watchSignals();
    const options = { fetch: server.fetch, tools: browserTools, interceptors: [watch], serverTools: serverInfo };
    const hook = mount({ ...options, id: 'chat-s' });
    await hook.current.sendMessage({ text: 'one' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['s1']), LOADED);
    await hook.current.stop();
    await vi.waitFor(() => expect(hook.current.status).toBe('ready'), LOADED);
    // stop() gave the hook a fresh controller: the next call runs under it.
    await hook.current.sendMessage({ text: 'two' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['s2']), LOADED);
    hook.rerender({ ...options, id: 'chat-t' });
    await vi.waitFor(() => expect(dates.questions()).toEqual([]), LOADED);
    expect(signals.get('s2')?.aborted).toBe(true);
    // The same after a stop() in the chat it shows now, then unmounting.
    await hook.current.stop();
    await hook.current.sendMessage({ text: 'three' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['s3']), LOADED);
    hook.unmount();
    current = undefined;
    await vi.waitFor(() => expect(dates.questions()).toEqual([]), LOADED);
    expect(signals.get('s3')?.aborted).toBe(true);
    expect(server.requests.map((r) => r.id)).toEqual(['chat-s', 'chat-s', 'chat-t']);
  });

  it('stop() aborts a browser tool waiting for the user and drops its result', async () => {
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'pick_date', { question: 'When?' }]]), textStep('never')] });
    const hook = mount({ id: 'conv-7', fetch: server.fetch, tools: browserTools });
    await hook.current.sendMessage({ text: 'pick' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c1']), LOADED);
    await hook.current.stop();
    await vi.waitFor(() => expect(hook.current.toolCalls.get('c1')?.status).toBe('interrupted'), LOADED);
    expect(dates.questions()).toEqual([]);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.requests).toHaveLength(1);
    expect(hook.current.busy).toBe(false);
  });

  it('a retry (sendMessage() without a message) while a browser tool asks the user is refused: nothing goes out, and the answer does later', async () => {
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'pick_date', { question: 'When?' }]]), textStep('Booked for Dec 24.')] });
    const hook = mount({ id: 'conv-retry-asking', fetch: server.fetch, tools: browserTools });
    await hook.current.sendMessage({ text: 'Book a day' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c1']), LOADED);
    const refused = await hook.current.sendMessage().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(CallsPendingError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ name: 'CallsPendingError', code: 'calls-pending', toolCallIds: ['c1'] });
    // Nothing went out: the server never read the call unanswered, and the question still waits.
    await new Promise((r) => setTimeout(r, 50));
    expect(server.requests).toHaveLength(1);
    expect(dates.questions().map((q) => q.id)).toEqual(['c1']);
    dates.answer('c1', '2026-12-24');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Booked for Dec 24.'), LOADED);
    expect(server.requests).toHaveLength(2);
    // The model read the user's answer.
    const results = server.model.doStreamCalls.at(-1)?.prompt.flatMap((m) => (m.role === 'tool' ? m.content : []));
    expect(results?.map((r) => r.type === 'tool-result' && r.toolCallId)).toEqual(['c1']);
    expect(hook.current.toolCalls.get('c1')).toMatchObject({ status: 'done', sealed: true });
  });

  it('a retry while an approval waits (the server\'s, or a browser tool\'s) is refused too; once decided, the answer goes out', async () => {
    const before = cartCleared;
    const server = createTestServer({
      tools: serverTools,
      steps: [callsStep([['a1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }], ['b1', 'cart_clear', {}]]), textStep('Done.')],
    });
    const hook = mount({ id: 'conv-retry-approval', fetch: server.fetch, tools: browserTools, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'move A-1 and empty my cart' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId).sort()).toEqual(['a1', 'b1']), LOADED);
    await expect(hook.current.sendMessage()).rejects.toMatchObject({ code: 'calls-pending', toolCallIds: ['a1', 'b1'] });
    hook.current.approve('a1');
    await vi.waitFor(() => expect(hook.current.toolCalls.get('a1')?.status).toBe('approved'), LOADED);
    await expect(hook.current.sendMessage()).rejects.toMatchObject({ code: 'calls-pending', toolCallIds: ['b1'] });
    expect(server.requests).toHaveLength(1);
    hook.current.approve('b1');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Done.'), LOADED);
    expect(server.requests).toHaveLength(2);
    expect(cartCleared).toBe(before + 1);
    expect(hook.current.chatError).toBeUndefined();
  });

  it('an approve() in the same tick as stop() runs nothing: a browser approval, and a manual-mode authorisation, stay stopped', async () => {
    writes.length = 0;
    const before = cartCleared;
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'cart_clear', {}]]), textStep('never')] });
    const manual = createTestServer({ tools: serverTools, steps: [callsStep([['m1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]), textStep('never')] });
    for (const [options, id] of [
      [{ id: 'conv-stop-approve-browser', fetch: server.fetch, tools: browserTools, serverTools: serverInfo }, 'c1'],
      [{ id: 'conv-stop-approve-manual', mode: 'manual', fetch: manual.fetch, serverTools: serverInfo }, 'm1'],
    ] as const) {
      const hook = mount(options);
      await hook.current.sendMessage({ text: 'go' });
      await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual([id]), LOADED);
      // Escape stops the answer as the click on Approve lands: the render they both see still shows the approval.
      const { stop, approve } = hook.current;
      const stopped = stop();
      approve(id);
      await stopped;
      await vi.waitFor(() => expect(hook.current.toolCalls.get(id)?.status).toBe('interrupted'), LOADED);
      await new Promise((r) => setTimeout(r, 50));
      expect(hook.current.toolCalls.get(id)?.status).toBe('interrupted');
      hook.unmount();
    }
    current = undefined;
    expect(cartCleared).toBe(before);
    expect(writes).toEqual([]);
    expect([server.requests.length, manual.requests.length]).toEqual([1, 1]);
  });

  it('a retry of a stopped answer goes on: the stopped browser call is answered as stopped, and the calls of the next step ask', async () => {
    const server = createTestServer({
      tools: serverTools,
      steps: [callsStep([['c1', 'pick_date', { question: 'When?' }]]), callsStep([['c2', 'pick_date', { question: 'Which day, then?' }]]), textStep('Booked.')],
    });
    const hook = mount({ id: 'conv-retry-stopped', fetch: server.fetch, tools: browserTools });
    await hook.current.sendMessage({ text: 'Book a day' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c1']), LOADED);
    await hook.current.stop();
    await vi.waitFor(() => expect(hook.current.toolCalls.get('c1')?.status).toBe('interrupted'), LOADED);
    await hook.current.sendMessage();
    // The model read that the user stopped the call (the server used to drop the turn it could not read), and asked again.
    const results = server.model.doStreamCalls.at(-1)?.prompt.flatMap((m) => (m.role === 'tool' ? m.content : []));
    expect(results).toMatchObject([{ toolCallId: 'c1', output: { type: 'error-text', value: 'Error (aborted): The user stopped this call before it finished.' } }]);
    // Its new call is in the same message, which is no longer stopped: it asks (it was interrupted at once).
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c2']), LOADED);
    expect(hook.current.browserState.stopped).toEqual([]);
    dates.answer('c2', '2026-12-24');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Booked.'), LOADED);
    expect(server.requests).toHaveLength(3);
    expect(hook.current.toolCalls.get('c1')).toMatchObject({ status: 'error', sealed: true });
    expect(hook.current.chatError).toBeUndefined();
  });

  it('a retry of a stopped answer words the stopped call\'s error through toolErrorMessage, as every other browser failure', async () => {
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'pick_date', { question: 'When?' }]]), textStep('Not booked.')] });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const toolErrorMessage = (error: ToolError, call: { id: string }) => (error.code === 'aborted' ? `Stopped in the browser (ref ${call.id}).` : undefined);
    const hook = mount({ id: 'conv-retry-stopped-words', fetch: server.fetch, tools: browserTools, toolErrorMessage });
    await hook.current.sendMessage({ text: 'Book a day' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c1']), LOADED);
    await hook.current.stop();
    await vi.waitFor(() => expect(hook.current.toolCalls.get('c1')?.status).toBe('interrupted'), LOADED);
    await hook.current.sendMessage();
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Not booked.'), LOADED);
    const results = server.model.doStreamCalls.at(-1)?.prompt.flatMap((m) => (m.role === 'tool' ? m.content : []));
    expect(results).toMatchObject([{ toolCallId: 'c1', output: { type: 'error-text', value: 'Error (aborted): Stopped in the browser (ref c1).' } }]);
    // The words the model did not read stay in this browser's console, as for any failure toolErrorMessage words.
    expect(logged.mock.calls.map(([, error]) => (error as Error).message)).toEqual(['The user stopped this call before it finished.']);
    logged.mockRestore();
  });

  it('an approval given in a stopped answer takes it on: the browser call the stop left is answered as stopped, and the answer goes out', async () => {
    writes.length = 0;
    const steps = [callsStep([['c1', 'pick_date', { question: 'When?' }], ['a1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]), textStep('Moved.')];
    const server = createTestServer({ tools: serverTools, steps });
    const hook = mount({ id: 'conv-stopped-approve', fetch: server.fetch, tools: browserTools, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'pick a day and move A-1' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c1']), LOADED);
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['a1']), LOADED);
    await hook.current.stop();
    await vi.waitFor(() => expect(hook.current.toolCalls.get('c1')?.status).toBe('interrupted'), LOADED);
    // The server's approval still waits in the stopped answer; approving it goes on with that answer.
    hook.current.approve('a1');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Moved.'), LOADED);
    expect(writes).toEqual([{ order_id: 'A-1', new_date: '2026-12-24' }]);
    const results = server.model.doStreamCalls.at(-1)?.prompt.flatMap((m) => (m.role === 'tool' ? m.content : []));
    expect(results?.find((r) => r.type === 'tool-result' && r.toolCallId === 'c1')).toMatchObject({
      output: { type: 'error-text', value: 'Error (aborted): The user stopped this call before it finished.' },
    });
    expect(server.requests).toHaveLength(2);
    expect(hook.current.browserState.stopped).toEqual([]);
    expect(hook.current.chatError).toBeUndefined();
  });

  it('manual mode: a retry of an answer stopped while the browser chain waited denies that call as stopped; nothing runs', async () => {
    writes.length = 0;
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['m1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]), textStep('Not moved.')] });
    const hook = mount({ id: 'conv-retry-stopped-manual', mode: 'manual', fetch: server.fetch, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['m1']), LOADED);
    await hook.current.stop();
    await vi.waitFor(() => expect(hook.current.toolCalls.get('m1')?.status).toBe('interrupted'), LOADED);
    await hook.current.sendMessage();
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Not moved.'), LOADED);
    expect(writes).toEqual([]);
    expect(hook.current.toolCalls.get('m1')).toMatchObject({ status: 'denied' });
    expect(server.requests).toHaveLength(2);
    expect(hook.current.chatError).toBeUndefined();
  });

  it('a new message ends the browser calls of the answer it leaves: their question goes, and the chat goes on', async () => {
    const before = cartCleared;
    const server = createTestServer({
      tools: serverTools,
      steps: [callsStep([['c1', 'pick_date', { question: 'When?' }], ['c2', 'cart_clear', {}]]), textStep('Sure, what else?'), textStep('Here you go.')],
    });
    const { signals, watch } = watchSignals();
    const hook = mount({ id: 'conv-moved-on', fetch: server.fetch, tools: browserTools, interceptors: [watch], serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'pick a date and empty my cart' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c1']), LOADED);
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c2']), LOADED);
    await hook.current.sendMessage({ text: 'never mind' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Sure, what else?'), LOADED);
    // The date picker's question is gone (its ctx.signal aborted), the cart's approval too, and nothing keeps the chat busy.
    expect(dates.questions()).toEqual([]);
    expect(signals.get('c1')?.aborted).toBe(true);
    expect(hook.current.pendingApprovals).toEqual([]);
    expect(hook.current.busy).toBe(false);
    expect([hook.current.toolCalls.get('c1')?.status, hook.current.toolCalls.get('c2')?.status]).toEqual(['interrupted', 'interrupted']);
    // A late decision of the cart's approval runs nothing: its answer could only land in the earlier message.
    hook.current.approve('c2');
    await hook.current.sendMessage({ text: 'what now?' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Sure, what else?Here you go.'), LOADED);
    expect(hook.current.chatError).toBeUndefined();
    expect(cartCleared).toBe(before);
    expect(server.requests).toHaveLength(3);
  });

  it('regenerate() ends the browser calls of the answer it replaces: their question goes, a late approve runs nothing', async () => {
    const before = cartCleared;
    const server = createTestServer({
      tools: serverTools,
      steps: [callsStep([['c1', 'pick_date', { question: 'When?' }], ['c2', 'cart_clear', {}]]), textStep('Which order do you mean?'), textStep('Here you go.')],
    });
    const { signals, watch } = watchSignals();
    const hook = mount({ id: 'conv-regenerate', fetch: server.fetch, tools: browserTools, interceptors: [watch], serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'pick a date and empty my cart' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c1']), LOADED);
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c2']), LOADED);
    await hook.current.regenerate();
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Which order do you mean?'), LOADED);
    // The answer it replaced is gone, and so are its date picker (its ctx.signal aborted) and its cart approval.
    expect(dates.questions()).toEqual([]);
    expect(signals.get('c1')?.aborted).toBe(true);
    expect(hook.current.pendingApprovals).toEqual([]);
    expect(hook.current.busy).toBe(false);
    hook.current.approve('c2');
    await hook.current.sendMessage({ text: 'A-1' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Which order do you mean?Here you go.'), LOADED);
    expect(hook.current.chatError).toBeUndefined();
    expect(cartCleared).toBe(before);
    expect(server.requests).toHaveLength(3);
    // Not a stop: nothing is marked stopped.
    expect(hook.current.browserState.stopped).toEqual([]);
  });

  it('a regenerated answer whose calls repeat the ids of the answer it replaced (call_0 every time): they run, ask and answer anew', async () => {
    writes.length = 0;
    const before = cartCleared;
    const calls = () =>
      callsStep([
        ['c1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }],
        ['c2', 'cart_clear', {}],
      ]);
    const server = createTestServer({ tools: serverTools, steps: [calls(), textStep('Moved, cart emptied.'), calls(), textStep('Moved again, emptied again.')] });
    const hook = mount({ id: 'conv-repeated-ids', fetch: server.fetch, tools: browserTools, serverTools: serverInfo });
    const approveBoth = async () => {
      await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId).sort()).toEqual(['c1', 'c2']), LOADED);
      hook.current.approve('c1');
      hook.current.approve('c2');
    };
    await hook.current.sendMessage({ text: 'move it and empty my cart' });
    await approveBoth();
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Moved, cart emptied.'), LOADED);
    await hook.current.regenerate();
    // The new c1 and c2 are not the calls of the answer that went: they wait for a human, who is heard, and they run.
    await approveBoth();
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Moved again, emptied again.'), LOADED);
    expect(hook.current.chatError).toBeUndefined();
    expect(writes).toHaveLength(2);
    expect(cartCleared).toBe(before + 2);
    expect(hook.current.toolCalls.get('c2')?.traces.map((t) => t.outcome)).toEqual(['approval-required', 'success']);
  });

  it('a regenerated answer\'s call_0 approved as soon as it shows (before the hook\'s effects of that render ran) is heard', async () => {
    writes.length = 0;
    const move = () => callsStep([['call_0', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]);
    const server = createTestServer({ tools: serverTools, steps: [move(), textStep('Moved.'), move(), textStep('Moved again.')] });
    // A click that lands between a commit and its passive effects, as a layout effect of the same commit does every time.
    let armed = false;
    const hook = renderHook(
      (o: UseEdgeChatOptions) => {
        const chat = useEdgeChat(o);
        const waiting = chat.pendingApprovals.some((p) => p.toolCallId === 'call_0');
        useLayoutEffect(() => {
          if (!armed || !waiting) return;
          armed = false;
          chat.approve('call_0');
        });
        return chat;
      },
      { id: 'conv-regenerate-approve-at-once', fetch: server.fetch, serverTools: serverInfo },
    );
    current = hook;
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['call_0']), LOADED);
    hook.current.approve('call_0');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Moved.'), LOADED);
    armed = true;
    await hook.current.regenerate();
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Moved again.'), LOADED);
    expect(armed).toBe(false);
    expect(writes).toHaveLength(2);
  });

  it('ctx.idempotencyKey of a browser call is its client-result ticket\'s: a regenerated call with the same id writes its own row', async () => {
    const noteServer = defineTool({ name: 'note_order', description: 'Notes an order in this browser', input: v.object({}), policy: { runsOn: 'client', effects: 'write', needsApproval: false } });
    const keys: string[] = [];
    const note = defineTool({
      ...noteServer,
      execute: (_input, ctx) => {
        keys.push(ctx.idempotencyKey);
        return 'noted';
      },
    });
    // The model repeats `c1` in the regenerated answer, as models that number their calls do.
    const steps = [callsStep([['c1', 'note_order', {}]]), textStep('Noted.'), callsStep([['c1', 'note_order', {}]]), textStep('Noted again.')];
    const server = createTestServer({ tools: [noteServer], steps });
    const hook = mount({ id: 'conv-browser-key', fetch: server.fetch, tools: [note] });
    await hook.current.sendMessage({ text: 'note it' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Noted.'), LOADED);
    await hook.current.regenerate();
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Noted again.'), LOADED);
    expect(hook.current.chatError).toBeUndefined();
    // Each run keyed on the nonce of the ticket the server handed its call over with (as the server keys its result).
    const ticketsOf = (request: number) =>
      (server.requests[request]?.messages.at(-1)?.parts ?? []).flatMap((part) => (part.type === 'data-edgetool-ticket' ? [part.data.ticket] : []));
    const nonces = [...ticketsOf(1), ...ticketsOf(3)].map((ticket) => peekTicket(ticket)?.nonce);
    expect(keys).toEqual(nonces.map((nonce) => idempotencyKeyOf({ conversationId: 'conv-browser-key', callId: 'c1', nonce })));
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('ctx.idempotencyKey of a browser call is one per call: the same at every read, attempt and run after a reload; two calls of a step never share one', async () => {
    const markServer = defineTool({ name: 'mark_order', description: 'Marks an order in this browser', input: v.object({}), policy: { runsOn: 'client', retries: 1 } });
    const reads: { call: string; attempt: number; key: string }[] = [];
    let phase: 'hang' | 'flaky' = 'hang';
    const mark = defineTool({
      ...markServer,
      execute: (_input, ctx) => {
        reads.push({ call: ctx.call.id, attempt: ctx.attempt, key: ctx.idempotencyKey });
        reads.push({ call: ctx.call.id, attempt: ctx.attempt, key: ctx.idempotencyKey });
        // The page goes away while the tools run; after the reload the first attempt fails and the tool's retry runs.
        if (phase === 'hang') return new Promise<string>((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
        if (ctx.attempt === 1) throw new ToolError('execution-failed', 'The order list is busy.', { retryable: true });
        return 'marked';
      },
    });
    const server = createTestServer({ tools: [markServer], steps: [callsStep([['c1', 'mark_order', {}], ['c2', 'mark_order', {}]]), textStep('Marked.')] });
    const first = mount({ id: 'conv-keys', fetch: server.fetch, tools: [mark] }, { strict: false });
    await first.current.sendMessage({ text: 'mark both' });
    await vi.waitFor(() => expect(new Set(reads.map((read) => read.call))).toEqual(new Set(['c1', 'c2'])), LOADED);
    const messages = structuredClone(first.current.messages);
    first.unmount();
    phase = 'flaky';
    const again = mount({ id: 'conv-keys', fetch: server.fetch, tools: [mark], messages }, { strict: false });
    await vi.waitFor(() => expect(texts(again.current)).toBe('Marked.'), LOADED);
    expect(again.current.chatError).toBeUndefined();
    const tickets = new Map(
      (messages.at(-1)?.parts ?? []).flatMap((part) => (part.type === 'data-edgetool-ticket' ? [[part.data.toolCallId, part.data.ticket] as const] : [])),
    );
    for (const call of ['c1', 'c2']) {
      const keys = reads.filter((read) => read.call === call);
      // Two reads on the page that went away, two on each attempt after the reload.
      expect(keys.map((read) => read.attempt)).toEqual([1, 1, 1, 1, 2, 2]);
      const nonce = peekTicket(tickets.get(call))?.nonce;
      expect(new Set(keys.map((read) => read.key))).toEqual(new Set([idempotencyKeyOf({ conversationId: 'conv-keys', callId: call, nonce })]));
    }
    expect(reads.find((read) => read.call === 'c1')?.key).not.toBe(reads.find((read) => read.call === 'c2')?.key);
  });

  it('setMessages() ends the browser calls it leaves behind the last assistant message, and only those', async () => {
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'pick_date', { question: 'When?' }]]), textStep('Sure, what else?')] });
    const { signals, watch } = watchSignals();
    const hook = mount({ id: 'conv-set-messages', fetch: server.fetch, tools: browserTools, interceptors: [watch], serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'pick a date' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c1']), LOADED);
    // A change that keeps the answer last (here a copy) leaves its date picker asking.
    hook.current.setMessages((messages) => [...messages]);
    await new Promise((r) => setTimeout(r, 50));
    expect(dates.questions().map((q) => q.id)).toEqual(['c1']);
    expect(signals.get('c1')?.aborted).toBe(false);
    expect(hook.current.busy).toBe(true);
    // A message after it (an app that adds the user's message itself): the call can no longer be answered.
    hook.current.setMessages((messages) => [...messages, { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'never mind' }] }]);
    await vi.waitFor(() => expect(dates.questions()).toEqual([]), LOADED);
    expect(signals.get('c1')?.aborted).toBe(true);
    await vi.waitFor(() => expect(hook.current.toolCalls.get('c1')?.status).toBe('interrupted'), LOADED);
    expect(hook.current.busy).toBe(false);
    await hook.current.sendMessage();
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Sure, what else?'), LOADED);
    expect(hook.current.chatError).toBeUndefined();
    expect(server.requests).toHaveLength(2);
  });

  it('setMessages() that drops the answer still streaming ends its response: the answer stays gone, nothing of it asks or waits', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = defineTool({ name: 'slow_lookup', description: 'Looks something up slowly', input: v.object({}), execute: () => gate.then(() => 'found') });
    const server = createTestServer({ tools: [...serverTools, slow], steps: [callsStep([['c1', 'pick_date', { question: 'When?' }], ['c2', 'slow_lookup', {}]]), textStep('never')] });
    const hook = mount({ id: 'conv-set-messages-streaming', fetch: server.fetch, tools: browserTools, serverTools: serverInfo });
    void hook.current.sendMessage({ text: 'pick a date' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c1']), LOADED);
    expect(hook.current.status).toBe('streaming');
    // The app takes the answer away (an undo of the last turn's answer) while the step's other call still runs.
    hook.current.setMessages((messages) => messages.filter((message) => message.role === 'user'));
    release();
    await vi.waitFor(() => expect(hook.current.status).toBe('ready'), LOADED);
    await new Promise((r) => setTimeout(r, 50));
    expect(hook.current.messages.map((message) => message.role)).toEqual(['user']);
    expect(dates.questions()).toEqual([]);
    expect(hook.current.toolCalls.size).toBe(0);
    expect(hook.current.busy).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('setMessages() that brings a left answer back (an undo) starts its browser calls again, and their answers go out', async () => {
    const before = cartCleared;
    const server = createTestServer({
      tools: serverTools,
      steps: [callsStep([['c1', 'pick_date', { question: 'When?' }], ['c2', 'cart_clear', {}]]), textStep('Booked, and the cart is empty.')],
    });
    const { signals, watch } = watchSignals();
    const hook = mount({ id: 'conv-undo', fetch: server.fetch, tools: browserTools, interceptors: [watch], serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'pick a date and empty my cart' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c1']), LOADED);
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c2']), LOADED);
    const answer = hook.current.messages;
    hook.current.setMessages((messages) => [...messages, { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'never mind' }] }]);
    await vi.waitFor(() => expect(dates.questions()).toEqual([]), LOADED);
    expect(signals.get('c1')?.aborted).toBe(true);
    await vi.waitFor(() => expect(hook.current.pendingApprovals).toEqual([]), LOADED);
    // The app undoes it: the answer is last again, its calls unanswered.
    hook.current.setMessages(answer);
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c1']), LOADED);
    expect(signals.get('c1')?.aborted).toBe(false);
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c2']), LOADED);
    expect(hook.current.toolCalls.get('c1')?.status).toBe('running');
    expect(hook.current.busy).toBe(true);
    hook.current.approve('c2');
    dates.answer('c1', '2026-12-24');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Booked, and the cart is empty.'), LOADED);
    expect(hook.current.chatError).toBeUndefined();
    expect(cartCleared).toBe(before + 1);
    expect(server.requests).toHaveLength(2);
  });

  it('setMessages() that shows another version of the answer whose call has the same id (call_0): the running one ends, the shown one asks', async () => {
    const server = createTestServer({
      tools: serverTools,
      steps: [callsStep([['call_0', 'pick_date', { question: 'First?' }]]), callsStep([['call_0', 'pick_date', { question: 'Second?' }]]), textStep('Booked.')],
    });
    const { signals, watch } = watchSignals();
    const hook = mount({ id: 'conv-versions', fetch: server.fetch, tools: browserTools, interceptors: [watch] });
    await hook.current.sendMessage({ text: 'Book a day' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.question.question)).toEqual(['First?']), LOADED);
    const first = hook.current.messages;
    await hook.current.regenerate();
    await vi.waitFor(() => expect(dates.questions().map((q) => q.question.question)).toEqual(['Second?']), LOADED);
    const second = signals.get('call_0');
    // The app shows the first version again (an answer switcher), from a click: React renders it and runs its effects at once.
    flushSync(() => hook.current.setMessages(first));
    // The second version's date picker ends; the first one's call, which the shown answer holds, asks again.
    await vi.waitFor(() => expect(dates.questions().map((q) => q.question.question)).toEqual(['First?']), LOADED);
    expect(second?.aborted).toBe(true);
    await vi.waitFor(() => expect(hook.current.toolCalls.get('call_0')).toMatchObject({ status: 'running', messageId: first.at(-1)?.id }), LOADED);
    expect(hook.current.busy).toBe(true);
    dates.answer('call_0', '2026-12-24');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Booked.'), LOADED);
    expect(hook.current.chatError).toBeUndefined();
    const results = server.model.doStreamCalls.at(-1)?.prompt.flatMap((m) => (m.role === 'tool' ? m.content : []));
    expect(results).toMatchObject([{ type: 'tool-result', toolCallId: 'call_0', output: { value: '2026-12-24' } }]);
  });

  it('a browser result ready as a new message goes out is dropped, not written into the answer left', async () => {
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'pick_date', { question: 'When?' }]]), textStep('Sure, what else?'), textStep('Here you go.')] });
    const traced: string[] = [];
    // The app sends its message from a microtask queued as the tool returns: before the hook hands the result back.
    const hook = mount({
      id: 'conv-late-result',
      fetch: server.fetch,
      tools: browserTools,
      serverTools: serverInfo,
      onTrace: (trace) => {
        traced.push(`${trace.toolCallId}:${trace.outcome}`);
        queueMicrotask(() => void hook.current.sendMessage({ text: 'never mind' }));
      },
    });
    await hook.current.sendMessage({ text: 'pick a date' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c1']), LOADED);
    dates.answer('c1', '2026-12-24');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Sure, what else?'), LOADED);
    await new Promise((r) => setTimeout(r, 50));
    expect(traced).toEqual(['c1:success']);
    expect(hook.current.toolCalls.get('c1')).toMatchObject({ status: 'interrupted', partState: 'input-available' });
    await hook.current.sendMessage({ text: 'what now?' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Sure, what else?Here you go.'), LOADED);
    expect(hook.current.chatError).toBeUndefined();
    expect(server.requests).toHaveLength(3);
  });

  it('a server approval the conversation left behind is not answered: approve() sends nothing, in the same tick or later', async () => {
    writes.length = 0;
    const steps = [
      callsStep([['c1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]),
      textStep('Sure, what else?'),
      textStep('Here you go.'),
      textStep('Welcome back.'),
    ];
    const server = createTestServer({ tools: serverTools, steps });
    const hook = mount({ id: 'conv-left-approval', fetch: server.fetch, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c1']), LOADED);
    // A click handler that sends and approves at once: the approval would land in the answer the message leaves.
    const { approve } = hook.current;
    const sent = hook.current.sendMessage({ text: 'never mind' });
    approve('c1');
    await sent;
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Sure, what else?'), LOADED);
    expect(hook.current.toolCalls.get('c1')?.status).toBe('interrupted');
    // Later, from the rendered hook: the call is in an earlier message now.
    hook.current.approve('c1');
    await hook.current.sendMessage({ text: 'what now?' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Sure, what else?Here you go.'), LOADED);
    expect(hook.current.chatError).toBeUndefined();
    expect(server.requests).toHaveLength(3);
    // After a reload, where the hook never saw the call leave: the approval request is in an earlier message still.
    const messages = structuredClone(hook.current.messages);
    hook.unmount();
    const again = mount({ id: 'conv-left-approval', fetch: server.fetch, serverTools: serverInfo, messages });
    expect(again.current.toolCalls.get('c1')).toMatchObject({ status: 'interrupted', partState: 'approval-requested' });
    again.current.approve('c1');
    await new Promise((r) => setTimeout(r, 50));
    // The earlier message is left as it is: an approval written there would only be ignored by the server.
    expect(again.current.toolCalls.get('c1')?.partState).toBe('approval-requested');
    await again.current.sendMessage({ text: 'hello again' });
    await vi.waitFor(() => expect(texts(again.current)).toBe('Sure, what else?Here you go.Welcome back.'), LOADED);
    expect(again.current.chatError).toBeUndefined();
    expect(server.requests).toHaveLength(4);
    expect(writes).toEqual([]);
  });

  it('an approve() or deny() the page still holds once the hook left the chat (a new id, or unmounted) runs and sends nothing', async () => {
    writes.length = 0;
    cartCleared = 0;
    const move = () => callsStep([['c1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]);
    const steps = [move(), callsStep([['c2', 'cart_clear', {}]]), move(), textStep('Done.'), textStep('Done.'), textStep('Done.')];
    const server = createTestServer({ tools: serverTools, steps });
    const options = { fetch: server.fetch, tools: browserTools, serverTools: serverInfo };
    const wait = () => new Promise((resolve) => setTimeout(resolve, 100));
    // An approval handler that awaits a confirmation while the user goes to another chat: it decides chat A's call then.
    const hook = mount({ ...options, id: 'chat-left-a' });
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c1']), LOADED);
    const a = hook.current;
    hook.rerender({ ...options, id: 'chat-left-b' });
    await wait();
    a.approve('c1');
    // Chat B's browser approval (a destructive browser tool), left the same way.
    await hook.current.sendMessage({ text: 'empty my cart' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c2']), LOADED);
    const b = hook.current;
    hook.rerender({ ...options, id: 'chat-left-c' });
    await wait();
    b.approve('c2');
    // Chat C's approval, once the hook unmounted, with a deny (it sends its continuation as an approval does).
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c1']), LOADED);
    const c = hook.current;
    hook.unmount();
    current = undefined;
    await wait();
    c.deny('c1', 'no');
    await wait();
    expect(server.requests.map((request) => request.id)).toEqual(['chat-left-a', 'chat-left-b', 'chat-left-c']);
    expect(writes).toEqual([]);
    expect(cartCleared).toBe(0);
  });

  it('a stop() the page still holds once the hook left the chat (a new id) stops nothing: the next chat\'s call runs on', async () => {
    const server = createTestServer({
      tools: serverTools,
      steps: [callsStep([['a1', 'pick_date', { question: 'A?' }]]), callsStep([['b1', 'pick_date', { question: 'B?' }]]), textStep('B done')],
    });
    const { signals, watch } = watchSignals();
    const options = { fetch: server.fetch, tools: browserTools, interceptors: [watch], serverTools: serverInfo };
    const hook = mount({ ...options, id: 'chat-stop-a' });
    await hook.current.sendMessage({ text: 'a' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['a1']), LOADED);
    // A Stop button's handler from chat A's render (it awaited a confirmation) runs once the user is in chat B.
    const a = hook.current;
    hook.rerender({ ...options, id: 'chat-stop-b' });
    await hook.current.sendMessage({ text: 'b' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['b1']), LOADED);
    await a.stop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Chat B's call still asks and runs; it is not stopped, and its answer goes out.
    expect(signals.get('b1')?.aborted).toBe(false);
    expect(dates.questions().map((q) => q.id)).toEqual(['b1']);
    expect(hook.current.toolCalls.get('b1')?.status).toBe('running');
    expect(hook.current.browserState.stopped).toEqual([]);
    dates.answer('b1', '2026-12-25');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('B done'), LOADED);
    expect(hook.current.toolCalls.get('b1')).toMatchObject({ status: 'done', output: '2026-12-25' });
    expect(server.requests.map((r) => r.id)).toEqual(['chat-stop-a', 'chat-stop-b', 'chat-stop-b']);
  });

  it('a continuation sent again runs nothing twice; a tampered one is refused with a 403 the UI can show', async () => {
    writes.length = 0;
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'update_delivery_date', { order_id: 'A-3', new_date: '2026-12-26' }]]), textStep('Moved.'), textStep('x')] });
    const hook = mount({ id: 'conv-8', fetch: server.fetch, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals).toHaveLength(1), LOADED);
    hook.current.approve('c1');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Moved.'), LOADED);
    // The approved request again, as a client whose answer was lost sends it: the recorded result, no second write.
    const replay = await server.fetch('/api/chat', { method: 'POST', body: JSON.stringify(server.requests[1]) });
    expect(replay.status).toBe(200);
    expect(await replay.text()).toContain('"type":"tool-output-available"');
    expect(writes).toHaveLength(1);
    // The same request with another date: its ticket does not cover it.
    const tampered = JSON.stringify(server.requests[1]).replace('2026-12-26', '2027-01-01');
    const refused = await server.fetch('/api/chat', { method: 'POST', body: tampered });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'ticket-invalid' } });
    expect(writes).toHaveLength(1);
  });

  it('approve() and deny() of one call in the same tick: the first decision wins, one request goes out', async () => {
    writes.length = 0;
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'update_delivery_date', { order_id: 'A-5', new_date: '2026-12-28' }]]), textStep('Moved.'), textStep('x')] });
    const hook = mount({ id: 'conv-10', fetch: server.fetch, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals).toHaveLength(1), LOADED);
    const { approve, deny } = hook.current;
    approve('c1');
    approve('c1');
    deny('c1', 'changed my mind');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Moved.'), LOADED);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.requests).toHaveLength(2);
    expect(writes).toEqual([{ order_id: 'A-5', new_date: '2026-12-28' }]);
    expect(hook.current.toolCalls.get('c1')?.status).toBe('done');
  });

  it('a browser-side approval decided twice in the same tick runs the tool once and answers once', async () => {
    const before = cartCleared;
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'cart_clear', {}]]), textStep('Cart emptied.'), textStep('x')] });
    const hook = mount({ id: 'conv-11', fetch: server.fetch, tools: browserTools, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'empty my cart' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals).toMatchObject([{ toolCallId: 'c1', approval: { source: 'browser' } }]), LOADED);
    const { approve, deny } = hook.current;
    approve('c1');
    deny('c1');
    approve('c1');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Cart emptied.'), LOADED);
    await new Promise((r) => setTimeout(r, 50));
    expect(cartCleared).toBe(before + 1);
    expect(server.requests).toHaveLength(2);
    expect(hook.current.toolCalls.get('c1')?.status).toBe('done');
    expect(hook.current.toolCalls.get('c1')?.traces.map((t) => t.outcome)).toEqual(['approval-required', 'success']);
  });

  it('manual mode: an authorisation decided twice in the same tick passes the browser chain once', async () => {
    writes.length = 0;
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'update_delivery_date', { order_id: 'A-6', new_date: '2026-12-29' }]]), textStep('Moved.'), textStep('x')] });
    const hook = mount({ id: 'conv-12', mode: 'manual', fetch: server.fetch, tools: browserTools, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals).toMatchObject([{ toolCallId: 'c1', approval: { source: 'server' }, mode: 'manual' }]), LOADED);
    const { approve, deny } = hook.current;
    deny('c1', 'no');
    approve('c1');
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Moved.'), LOADED);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.requests).toHaveLength(2);
    expect(writes).toEqual([]);
    expect(hook.current.toolCalls.get('c1')?.status).toBe('denied');
    // The denial's trace is the browser call's own state, not the messages': on a loaded machine its render may come
    // after the one that shows the answer.
    await vi.waitFor(() => expect(hook.current.toolCalls.get('c1')?.traces.map((t) => t.outcome)).toEqual(['approval-required', 'error']), LOADED);
  });

  it('after a failed continuation, the next message keeps the approval: the server runs nothing and the model reads that the outcome is unknown', async () => {
    writes.length = 0;
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'update_delivery_date', { order_id: 'A-4', new_date: '2026-12-27' }]]), textStep('Sure, what else?')] });
    let calls = 0;
    const flaky: typeof globalThis.fetch = (url, init) => (++calls === 2 ? Promise.reject(new TypeError('Failed to fetch')) : server.fetch(url, init));
    const hook = mount({ id: 'conv-9', fetch: flaky, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals).toHaveLength(1), LOADED);
    hook.current.approve('c1');
    await vi.waitFor(() => expect(hook.current.chatError).toMatchObject({ kind: 'unreachable' }), LOADED);
    await hook.current.sendMessage({ text: 'never mind' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Sure, what else?'), LOADED);
    expect(hook.current.chatError).toBeUndefined();
    expect(writes).toEqual([]);
    expect(hook.current.toolCalls.get('c1')?.status).toBe('interrupted');
    expect(hook.current.pendingApprovals).toEqual([]);
    // This browser cannot tell whether the approval reached the server: the model reads that it may have run.
    expect(JSON.stringify(server.model.doStreamCalls[1]?.prompt)).toContain('its result never arrived');
  });

  it('a browser tool that ran, its continuation failed: the next message keeps its result, the server takes it, the model reads it', async () => {
    const before = cartCleared;
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'cart_clear', {}]]), textStep('Yes, your cart is empty.')] });
    let calls = 0;
    const flaky: typeof globalThis.fetch = (url, init) => (++calls === 2 ? Promise.reject(new TypeError('Failed to fetch')) : server.fetch(url, init));
    const hook = mount({ id: 'conv-cart-lost', fetch: flaky, tools: browserTools, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'empty my cart' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c1']), LOADED);
    hook.current.approve('c1');
    await vi.waitFor(() => expect(hook.current.chatError).toMatchObject({ kind: 'unreachable' }), LOADED);
    expect(cartCleared).toBe(before + 1);
    await hook.current.sendMessage({ text: 'did the cart get cleared?' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Yes, your cart is empty.'), LOADED);
    // It used to be taken back before the message went (the server refused it in an earlier message): the model then
    // knew of no cart_clear at all.
    expect(hook.current.chatError).toBeUndefined();
    expect(server.requests).toHaveLength(2);
    const sent = server.requests[1]?.messages.flatMap((m) => m.parts).find((p) => (p as { toolCallId?: string }).toolCallId === 'c1');
    expect(sent).toMatchObject({ state: 'output-available', output: before + 1 });
    const results = server.model.doStreamCalls[1]?.prompt.flatMap((m) => (m.role === 'tool' ? m.content : []));
    expect(results).toEqual([expect.objectContaining({ toolCallId: 'c1', output: { type: 'text', value: String(before + 1) } })]);
    // The response sealed it, and nothing ran or was sent twice.
    expect(hook.current.toolCalls.get('c1')).toMatchObject({ status: 'done', output: before + 1, sealed: true });
    await new Promise((r) => setTimeout(r, 50));
    expect(cartCleared).toBe(before + 1);
    expect(calls).toBe(3);
  });

  it('an approved call whose answer was lost after it ran: when the user goes on, the model reads its result', async () => {
    writes.length = 0;
    const steps = [callsStep([['c1', 'update_delivery_date', { order_id: 'A-4', new_date: '2026-12-27' }]]), textStep('Moved.'), textStep('Yes, it is moved.')];
    const server = createTestServer({ tools: serverTools, steps });
    let calls = 0;
    // The continuation reaches the server, which runs the call; its answer never reaches this browser.
    const lossy: typeof globalThis.fetch = async (url, init) => {
      const response = await server.fetch(url, init);
      if (++calls !== 2) return response;
      await response.text();
      throw new TypeError('Failed to fetch');
    };
    const hook = mount({ id: 'conv-lost-answer', fetch: lossy, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals).toHaveLength(1), LOADED);
    hook.current.approve('c1');
    await vi.waitFor(() => expect(hook.current.chatError).toMatchObject({ kind: 'unreachable' }), LOADED);
    expect(writes).toHaveLength(1);
    await hook.current.sendMessage({ text: 'did it work?' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Yes, it is moved.'), LOADED);
    expect(hook.current.chatError).toBeUndefined();
    expect(writes).toHaveLength(1);
    // The model read the call and the result it recorded, not a conversation in which nothing was ever asked.
    const results = server.model.doStreamCalls[2]?.prompt.flatMap((m) => (m.role === 'tool' ? m.content : []));
    const recorded = JSON.stringify({ order_id: 'A-4', new_date: '2026-12-27', ok: true });
    expect(results).toEqual([expect.objectContaining({ toolCallId: 'c1', output: { type: 'text', value: recorded } })]);
  });

  it('a continuation whose answer broke off after its browser result’s seal: the hook keeps both, and Retry is taken (no 403), nothing runs twice', async () => {
    writes.length = 0;
    const before = cartCleared;
    const steps = [callsStep([['a1', 'update_delivery_date', { order_id: 'A-4', new_date: '2026-12-27' }], ['b2', 'cart_clear', {}]]), textStep('Done.')];
    const server = createTestServer({ tools: serverTools, steps });
    let calls = 0;
    // The continuation reaches the server; its answer breaks off (a dropped connection) right after the first seal.
    const cut: typeof globalThis.fetch = async (url, init) => {
      const response = await server.fetch(url, init);
      return ++calls === 2 ? cutAfterFirstSeal(response) : response;
    };
    const hook = mount({ id: 'conv-cut-after-seal', fetch: cut, tools: browserTools, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'empty my cart and move A-4' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId).sort()).toEqual(['a1', 'b2']), LOADED);
    hook.current.approve('b2');
    hook.current.approve('a1');
    await vi.waitFor(() => expect(hook.current.chatError).toBeDefined(), LOADED);
    expect(cartCleared).toBe(before + 1);
    // What the hook keeps: the browser result with its seal, the approval still open (so the page offers Retry).
    expect(hook.current.toolCalls.get('b2')).toMatchObject({ status: 'done', sealed: true });
    expect(hook.current.toolCalls.get('a1')?.partState).toBe('approval-responded');
    // Retry sends that history again: it used to be refused (403, the copy's leader a1 kept a decision naming b2).
    await hook.current.sendMessage();
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Done.'), LOADED);
    expect(hook.current.chatError).toBeUndefined();
    expect(server.requests).toHaveLength(3);
    expect(hook.current.toolCalls.get('a1')?.partState).toMatch(/^output-/);
    expect(writes.length).toBeLessThanOrEqual(1);
    expect(cartCleared).toBe(before + 1);
    // The model read the browser result once.
    const results = server.model.doStreamCalls.at(-1)?.prompt.flatMap((m) => (m.role === 'tool' ? m.content : []));
    expect(results?.filter((r) => r.type === 'tool-result' && r.toolCallId === 'b2')).toHaveLength(1);
  });
});

describe('useEdgeChat: one conversation in two tabs, each answering the same call otherwise', () => {
  /** The text of the tool result the model read for `id` in its latest request. */
  const lastRead = (server: ReturnType<typeof createTestServer>, id: string) => {
    const prompt = server.model.doStreamCalls.at(-1)?.prompt ?? [];
    const results = prompt.flatMap((m) => (m.role === 'tool' ? m.content : [])).filter((p) => p.type === 'tool-result' && p.toolCallId === id);
    return results.map((p) => (p as { output: unknown }).output);
  };

  it('a browser call: the second tab’s continuation is refused (conflict), and its next message goes on', async () => {
    const server = createTestServer({
      tools: serverTools,
      steps: [callsStep([['c1', 'pick_date', { question: 'Which day?' }]]), textStep('Booked for Dec 24.'), textStep('The other tab picked the day.')],
    });
    const tabA = mount({ id: 'conv-tabs', fetch: server.fetch, tools: browserTools });
    await tabA.current.sendMessage({ text: 'Book a day' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c1']), LOADED);
    // The tab is duplicated while the date is asked: the copy has the call, and asks it again.
    const copy = structuredClone(tabA.current.messages);
    dates.answer('c1', '2026-12-24');
    await vi.waitFor(() => expect(texts(tabA.current)).toBe('Booked for Dec 24.'), LOADED);
    const tabB = renderHook((o: UseEdgeChatOptions) => useEdgeChat(o), { id: 'conv-tabs', fetch: server.fetch, tools: browserTools, messages: copy });
    try {
      await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c1']), LOADED);
      dates.answer('c1', '2027-01-05');
      await vi.waitFor(() => expect(tabB.current.chatError).toMatchObject({ kind: 'refused', status: 403, reason: 'conflict', toolCallId: 'c1' }), LOADED);
      expect(tabB.current.chatError?.message).toMatch(/A new message goes on/);
      // Its next message was refused the same way, and every later one: only a new chat got out.
      await tabB.current.sendMessage({ text: 'Is it booked?' });
      await vi.waitFor(() => expect(texts(tabB.current)).toBe('The other tab picked the day.'), LOADED);
      expect(tabB.current.chatError).toBeUndefined();
      expect(lastRead(server, 'c1')).toEqual([{ type: 'error-text', value: ANSWERED_OTHERWISE_TEXT }]);
      expect(server.requests).toHaveLength(4);
    } finally {
      tabB.unmount();
    }
  });

  it('an approval approved in one tab and denied in the other: the second tab’s next message goes on, and its model reads the write', async () => {
    writes.length = 0;
    const server = createTestServer({
      tools: serverTools,
      steps: [callsStep([['c1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]), textStep('Moved.'), textStep('It was moved after all.')],
    });
    const tabA = mount({ id: 'conv-tabs-approval', fetch: server.fetch, serverTools: serverInfo });
    await tabA.current.sendMessage({ text: 'Move A-1' });
    await vi.waitFor(() => expect(tabA.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c1']), LOADED);
    const copy = structuredClone(tabA.current.messages);
    tabA.current.approve('c1');
    await vi.waitFor(() => expect(texts(tabA.current)).toBe('Moved.'), LOADED);
    const tabB = renderHook((o: UseEdgeChatOptions) => useEdgeChat(o), { id: 'conv-tabs-approval', fetch: server.fetch, serverTools: serverInfo, messages: copy });
    try {
      await vi.waitFor(() => expect(tabB.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c1']), LOADED);
      tabB.current.deny('c1', 'Not that one');
      await vi.waitFor(() => expect(tabB.current.chatError).toMatchObject({ kind: 'refused', status: 403, toolCallId: 'c1' }), LOADED);
      await tabB.current.sendMessage({ text: 'Did it move?' });
      await vi.waitFor(() => expect(texts(tabB.current)).toBe('It was moved after all.'), LOADED);
      expect(lastRead(server, 'c1')).toEqual([{ type: 'text', value: JSON.stringify({ order_id: 'A-1', new_date: '2026-12-24', ok: true }) }]);
      expect(writes).toEqual([{ order_id: 'A-1', new_date: '2026-12-24' }]);
    } finally {
      tabB.unmount();
    }
  });
});

describe('useEdgeChat: what a reload brings back, and tickets that expire', () => {
  /** The messages and browser state as a page saves them (JSON) and the next one reads them back. */
  const saved = (r: UseEdgeChatResult) => ({ messages: structuredClone(r.messages), browserState: parseBrowserState(JSON.parse(JSON.stringify(r.browserState))) });

  it('stop() marks the answer; remounted with its browser state, the stopped browser call stays interrupted and does not ask again', async () => {
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'pick_date', { question: 'When?' }]]), textStep('never')] });
    const first = mount({ id: 'conv-r1', fetch: server.fetch, tools: browserTools });
    await first.current.sendMessage({ text: 'pick' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c1']), LOADED);
    await first.current.stop();
    await vi.waitFor(() => expect(first.current.toolCalls.get('c1')?.status).toBe('interrupted'), LOADED);
    const answer = first.current.messages.at(-1)?.id;
    expect(first.current.browserState.stopped).toEqual([answer]);
    const page = saved(first.current);

    first.unmount();

    // The messages alone (as before there was a browser state) would ask again after the reload.
    // In StrictMode (development) too: its second mount starts again what the first one's unmount aborted.
    for (const strict of [false, true]) {
      const bare = mount({ id: 'conv-r1', fetch: server.fetch, tools: browserTools, messages: page.messages }, { strict });
      await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c1']), LOADED);
      await vi.waitFor(() => expect(bare.current.toolCalls.get('c1')?.status).toBe('running'), LOADED);
      bare.unmount();
      await vi.waitFor(() => expect(dates.questions()).toEqual([]), LOADED);
    }

    const again = mount({ id: 'conv-r1', fetch: server.fetch, tools: browserTools, ...page });
    await vi.waitFor(() => expect(again.current.toolCalls.get('c1')?.status).toBe('interrupted'), LOADED);
    // A grace for the checks that nothing happens (a hook that asked again would have by then); a correct hook
    // passes them however slow the machine is.
    await new Promise((r) => setTimeout(r, 50));
    expect(dates.questions()).toEqual([]);
    expect(again.current.toolCalls.get('c1')?.status).toBe('interrupted');
    expect(again.current.browserState.stopped).toEqual([answer]);
    expect(again.current.busy).toBe(false);
    expect(server.requests).toHaveLength(1);
  }, 20_000);

  it('manual mode: a call the user stopped while the browser chain authorised it is not approved around that chain after a reload', async () => {
    writes.length = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A check that takes a while (a policy asked over the network) and then asks the human as usual.
    const slow = defineInterceptor('slow', async (_ctx, next) => {
      await gate;
      return next();
    });
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]), textStep('Moved.')] });
    const options = { id: 'conv-r-manual', mode: 'manual', fetch: server.fetch, interceptors: [slow], serverTools: serverInfo } as const;
    const first = mount(options);
    await first.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(first.current.toolCalls.get('c1')?.status).toBe('authorising'), LOADED);
    await first.current.stop();
    await vi.waitFor(() => expect(first.current.toolCalls.get('c1')?.status).toBe('interrupted'), LOADED);
    const page = saved(first.current);
    first.unmount();
    release();

    const again = mount({ ...options, ...page });
    expect(again.current.toolCalls.get('c1')?.status).toBe('interrupted');
    again.current.approve('c1');
    await new Promise((r) => setTimeout(r, 50));
    expect(server.requests).toHaveLength(1);
    expect(writes).toEqual([]);
    expect(again.current.toolCalls.get('c1')?.status).toBe('interrupted');
  });

  it('stop() while the answer only waits for a browser-side approval marks it too: after a reload nothing asks again', async () => {
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'cart_clear', {}]]), textStep('never')] });
    const manual = createTestServer({ tools: serverTools, steps: [callsStep([['m1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]), textStep('never')] });
    // A browser tool's approval (internal mode), and the browser chain's approval of a server call (manual mode).
    for (const [options, id] of [
      [{ id: 'conv-r-stop-browser', fetch: server.fetch, tools: browserTools, serverTools: serverInfo }, 'c1'],
      [{ id: 'conv-r-stop-manual', mode: 'manual', fetch: manual.fetch, serverTools: serverInfo }, 'm1'],
    ] as const) {
      const first = mount(options);
      await first.current.sendMessage({ text: 'go' });
      await vi.waitFor(() => expect(first.current.pendingApprovals.map((p) => p.toolCallId)).toEqual([id]), LOADED);
      expect(first.current.busy).toBe(false);
      await first.current.stop();
      await vi.waitFor(() => expect(first.current.toolCalls.get(id)?.status).toBe('interrupted'), LOADED);
      expect(first.current.browserState.stopped).toEqual([first.current.messages.at(-1)?.id]);
      const page = saved(first.current);
      first.unmount();

      const again = mount({ ...options, ...page });
      await new Promise((r) => setTimeout(r, 50));
      expect(again.current.toolCalls.get(id)?.status).toBe('interrupted');
      expect(again.current.pendingApprovals).toEqual([]);
      again.unmount();
    }
    expect([server.requests.length, manual.requests.length]).toEqual([1, 1]);
    current = undefined;
  });

  it('stop() on an idle chat marks nothing: a finished answer, and one that waits for a server approval (no work of this browser)', async () => {
    const done = createTestServer({ tools: serverTools, steps: [textStep('Hello.')] });
    const asking = createTestServer({ tools: serverTools, steps: [callsStep([['s1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]), textStep('Moved.')] });
    for (const [options, pending] of [
      [{ id: 'conv-r-idle-done', fetch: done.fetch, serverTools: serverInfo }, []],
      [{ id: 'conv-r-idle-ask', fetch: asking.fetch, serverTools: serverInfo }, ['s1']],
    ] as const) {
      const first = mount(options);
      await first.current.sendMessage({ text: 'go' });
      await vi.waitFor(() => expect(first.current.status).toBe('ready'), LOADED);
      await vi.waitFor(() => expect(first.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(pending), LOADED);
      await first.current.stop();
      // A grace for the render a mark would come with (a hook that marked would show it by then).
      await new Promise((r) => setTimeout(r, 50));
      expect(first.current.browserState.stopped).toEqual([]);
      const page = saved(first.current);
      first.unmount();
      // The approval still asks after a reload, and answering it goes on.
      const again = mount({ ...options, ...page });
      expect(again.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(pending);
      if (pending.length > 0) {
        again.current.approve('s1');
        await vi.waitFor(() => expect(texts(again.current)).toContain('Moved.'), LOADED);
      }
      again.unmount();
    }
    current = undefined;
  });

  it('stop() in the tick a browser call starts, before the page rendered it, marks the answer: the next reload runs and authorises nothing', async () => {
    // A check that waits until its call is aborted: the last page closed while the browser chain authorised the call.
    const hold = defineInterceptor('hold', (ctx) => new Promise<never>((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))));
    const browser = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'pick_date', { question: 'When?' }]]), textStep('never')] });
    const manual = createTestServer({ tools: serverTools, steps: [callsStep([['m1', 'query_order', { order_id: 'A-1' }]]), textStep('Shipped.')] });
    // A browser tool's run (internal mode), and the browser chain's authorisation of a read the server runs (manual mode).
    for (const [options, id, interceptors] of [
      [{ id: 'conv-r-stop-start-browser', fetch: browser.fetch, tools: browserTools, serverTools: serverInfo }, 'c1', []],
      [{ id: 'conv-r-stop-start-manual', mode: 'manual', fetch: manual.fetch, serverTools: serverInfo }, 'm1', [hold]],
    ] as const) {
      const first = mount({ ...options, interceptors }, { strict: false });
      await first.current.sendMessage({ text: 'go' });
      await vi.waitFor(() => expect(first.current.toolCalls.get(id)?.status).toMatch(/^(running|authorising)$/), LOADED);
      const page = saved(first.current);
      first.unmount();
      await vi.waitFor(() => expect(dates.questions()).toEqual([]), LOADED);

      // The page loads again and starts the call; Stop lands in that same tick, before React rendered the call running.
      let loaded: ReturnType<typeof mount> | undefined;
      let seen: { busy: boolean; status: string | undefined } | undefined;
      let stopped: Promise<void> | undefined;
      const stopAtStart = defineInterceptor('stop-at-start', (_ctx, next) => {
        if (loaded !== undefined && stopped === undefined) {
          seen = { busy: loaded.current.busy, status: loaded.current.toolCalls.get(id)?.status };
          stopped = loaded.current.stop();
        }
        return next();
      });
      loaded = mount({ ...options, ...page, interceptors: [stopAtStart] }, { strict: false });
      await vi.waitFor(() => expect(stopped).toBeDefined(), LOADED);
      await stopped;
      // The render the stop came from showed nothing running yet: the lag this test is about.
      expect(seen?.busy).toBe(false);
      await vi.waitFor(() => expect(loaded.current.toolCalls.get(id)?.status).toBe('interrupted'), LOADED);
      expect(loaded.current.browserState.stopped).toEqual([loaded.current.messages.at(-1)?.id]);
      const stoppedPage = saved(loaded.current);
      loaded.unmount();

      const again = mount({ ...options, ...stoppedPage }, { strict: false });
      // A grace for the checks that nothing happens (a hook that ran or authorised the call again would have by then).
      await new Promise((r) => setTimeout(r, 50));
      expect(dates.questions()).toEqual([]);
      expect(again.current.toolCalls.get(id)?.status).toBe('interrupted');
      again.unmount();
    }
    current = undefined;
    expect([browser.requests.length, manual.requests.length]).toEqual([1, 1]);
  });

  it('stop() right after setMessages() brings back an answer with a browser call due: the call never starts, the answer is marked', async () => {
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'pick_date', { question: 'When?' }]]), textStep('never')] });
    const first = mount({ id: 'conv-r-stop-restored', fetch: server.fetch, tools: browserTools }, { strict: false });
    await first.current.sendMessage({ text: 'pick' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c1']), LOADED);
    const page = saved(first.current);
    first.unmount();
    await vi.waitFor(() => expect(dates.questions()).toEqual([]), LOADED);

    // The app restores the conversation into a page already mounted, and Stop lands in the same tick: the call is
    // due in the chat, not yet rendered, not started.
    const hook = mount({ id: 'conv-r-stop-restored', fetch: server.fetch, tools: browserTools }, { strict: false });
    hook.current.setMessages(page.messages);
    expect(hook.current.messages).toEqual([]);
    await hook.current.stop();
    await vi.waitFor(() => expect(hook.current.toolCalls.get('c1')?.status).toBe('interrupted'), LOADED);
    await new Promise((r) => setTimeout(r, 50));
    expect(dates.questions()).toEqual([]);
    expect(hook.current.browserState.stopped).toEqual([page.messages.at(-1)?.id]);
    expect(server.requests).toHaveLength(1);
  });

  it('stop() as the continuation an approval sends goes out, before the page rendered it, marks the answer; a retry takes it on', async () => {
    writes.length = 0;
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]), textStep('Moved.')] });
    let hook: ReturnType<typeof mount> | undefined;
    let seen: { busy: boolean; status: string } | undefined;
    let stopped: Promise<void> | undefined;
    // Stop lands as the continuation's request leaves: the chat sends it, React has not rendered it yet.
    const fetch: typeof globalThis.fetch = async (url, init) => {
      if (hook !== undefined && stopped === undefined && server.requests.length === 1) {
        seen = { busy: hook.current.busy, status: hook.current.status };
        stopped = hook.current.stop();
        if (init?.signal?.aborted === true) throw new DOMException('The request was aborted.', 'AbortError');
      }
      return server.fetch(url, init);
    };
    hook = mount({ id: 'conv-r-stop-continuation', fetch, serverTools: serverInfo }, { strict: false });
    await hook.current.sendMessage({ text: 'move A-1' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c1']), LOADED);
    hook.current.approve('c1');
    await vi.waitFor(() => expect(stopped).toBeDefined(), LOADED);
    await stopped;
    expect(seen).toEqual({ busy: false, status: 'ready' });
    await vi.waitFor(() => expect(hook.current.status).toBe('ready'), LOADED);
    expect(hook.current.browserState.stopped).toEqual([hook.current.messages.at(-1)?.id]);
    expect([server.requests.length, writes.length]).toEqual([1, 0]);
    // The answer goes on with the approval the stop cut off, once.
    await hook.current.sendMessage();
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Moved.'), LOADED);
    expect(hook.current.browserState.stopped).toEqual([]);
    expect([server.requests.length, writes.length]).toEqual([2, 1]);
  });

  it('remounted with its browser state, a browser call keeps its trace, duration and last progress report, and does not run again', async () => {
    const stampServer = defineTool({ name: 'stamp_page', description: 'Stamps the page', input: v.object({}), policy: { runsOn: 'client' } });
    let stamps = 0;
    const stamp = defineTool({
      ...stampServer,
      execute: async (_input, ctx) => {
        ctx.progress({ message: 'Stamping', completed: 0, total: 1 });
        await new Promise((resolve) => setTimeout(resolve, 2));
        ctx.progress({ message: 'Stamped', completed: 1, total: 1 });
        return ++stamps;
      },
    });
    const server = createTestServer({ tools: [stampServer], steps: [callsStep([['c1', 'stamp_page', {}]]), textStep('Stamped.')] });
    const tools = [stamp];
    const first = mount({ id: 'conv-r2', fetch: server.fetch, tools });
    await first.current.sendMessage({ text: 'stamp it' });
    await vi.waitFor(() => expect(texts(first.current)).toBe('Stamped.'), LOADED);
    await vi.waitFor(() => expect(first.current.toolCalls.get('c1')?.progress).toEqual({ message: 'Stamped', completed: 1, total: 1 }), LOADED);
    const before = first.current.toolCalls.get('c1');
    expect(first.current.browserState.traces.c1?.map((t) => [t.side, t.outcome])).toEqual([['client', 'success']]);
    const page = saved(first.current);
    first.unmount();

    const bare = mount({ id: 'conv-r2', fetch: server.fetch, tools, messages: page.messages });
    expect(bare.current.toolCalls.get('c1')).toMatchObject({ status: 'done', traces: [], durationMs: undefined, progress: undefined });
    bare.unmount();

    const again = mount({ id: 'conv-r2', fetch: server.fetch, tools, ...page });
    expect(again.current.toolCalls.get('c1')).toMatchObject({ status: 'done', ranOn: 'browser', durationMs: before?.durationMs, progress: { message: 'Stamped', completed: 1, total: 1 } });
    expect(again.current.toolCalls.get('c1')?.traces).toEqual(before?.traces);
    expect(again.current.browserState).toEqual(page.browserState);
    await new Promise((r) => setTimeout(r, 50));
    expect(stamps).toBe(1);
    expect(server.requests).toHaveLength(2);
  });

  it('in StrictMode, a browser call left unanswered by the last page runs once when the page loads again', async () => {
    const addServer = defineTool({ name: 'cart_add', description: 'Adds to the cart', input: v.object({ name: v.string() }), policy: { runsOn: 'client' } });
    // The last page's tool never finished (the tab closed while it ran).
    const hanging = defineTool({ ...addServer, execute: (_input, ctx) => new Promise<never>((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))) });
    const added: string[] = [];
    const add = defineTool({ ...addServer, execute: ({ name }) => added.push(name) });
    const server = createTestServer({ tools: [addServer], steps: [callsStep([['c1', 'cart_add', { name: 'beans' }]]), textStep('Added.')] });
    const first = mount({ id: 'conv-r3', fetch: server.fetch, tools: [hanging] }, { strict: false });
    await first.current.sendMessage({ text: 'add beans' });
    await vi.waitFor(() => expect(first.current.toolCalls.get('c1')?.status).toBe('running'), LOADED);
    const messages = structuredClone(first.current.messages);
    first.unmount();

    // StrictMode mounts, unmounts and mounts again at once: the tool runs for the second mount only.
    const again = mount({ id: 'conv-r3', fetch: server.fetch, tools: [add], messages }, { strict: true });
    await vi.waitFor(() => expect(texts(again.current)).toBe('Added.'), LOADED);
    await new Promise((r) => setTimeout(r, 50));
    expect(added).toEqual(['beans']);
    expect(server.requests).toHaveLength(2);
    expect(again.current.toolCalls.get('c1')).toMatchObject({ status: 'done', output: 1 });
  });

  it('an approval whose ticket expires while it waits stops waiting: no Approve goes out, the composer is free', async () => {
    writes.length = 0;
    const server = createTestServer({ tools: serverTools, ttlMs: 1_000, steps: [callsStep([['c1', 'update_delivery_date', { order_id: 'A-7', new_date: '2026-12-30' }]]), textStep('x')] });
    const hook = mount({ id: 'conv-x1', fetch: server.fetch, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals).toHaveLength(1), LOADED);
    await vi.waitFor(() => expect(hook.current.toolCalls.get('c1')?.status).toBe('expired'), LOADED);
    expect(hook.current.pendingApprovals).toEqual([]);
    expect(hook.current.browserState.expired).toEqual(['c1']);
    hook.current.approve('c1');
    await new Promise((r) => setTimeout(r, 50));
    expect(server.requests).toHaveLength(1);
    expect(hook.current.chatError).toBeUndefined();
    expect(writes).toEqual([]);
  });

  it('a browser tool still asking when its ticket expires is aborted: its question goes, and a late answer sends nothing', async () => {
    const server = createTestServer({ tools: serverTools, ttlMs: 1_000, steps: [callsStep([['c1', 'pick_date', { question: 'When?' }]]), textStep('never')] });
    const { signals, watch } = watchSignals();
    const hook = mount({ id: 'conv-x4', fetch: server.fetch, tools: browserTools, interceptors: [watch], serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'pick a date' });
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c1']), LOADED);
    await vi.waitFor(() => expect(hook.current.toolCalls.get('c1')?.status).toBe('expired'), LOADED);
    await vi.waitFor(() => expect(dates.questions()).toEqual([]), LOADED);
    expect(signals.get('c1')?.aborted).toBe(true);
    dates.answer('c1', '2026-12-24');
    await new Promise((r) => setTimeout(r, 50));
    expect(server.requests).toHaveLength(1);
    expect(hook.current.busy).toBe(false);
    expect(hook.current.toolCalls.get('c1')?.status).toBe('expired');
  });

  it('calls that arrive (or come back after a reload) with expired tickets never ask: a browser approval does not run, a server one sends nothing', async () => {
    const before = cartCleared;
    writes.length = 0;
    const server = createTestServer({
      tools: serverTools,
      steps: [
        callsStep([
          ['c1', 'cart_clear', {}],
          ['c2', 'update_delivery_date', { order_id: 'A-8', new_date: '2026-12-31' }],
        ]),
        textStep('x'),
      ],
    });
    // Signed 16 minutes ago by this browser's clock: both tickets are past their 15 minutes.
    server.clock.offsetMs = -16 * 60_000;
    const hook = mount({ id: 'conv-x2', fetch: server.fetch, tools: browserTools, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'empty my cart and move A-8' });
    await vi.waitFor(() => expect([...hook.current.toolCalls.values()].map((view) => view.status)).toEqual(['expired', 'expired']), LOADED);
    expect(hook.current.pendingApprovals).toEqual([]);
    hook.current.approve('c1');
    hook.current.approve('c2');
    await new Promise((r) => setTimeout(r, 50));
    expect(cartCleared).toBe(before);
    expect(writes).toEqual([]);
    expect(server.requests).toHaveLength(1);
    expect(hook.current.busy).toBe(false);
  });

  it('an approval the server refuses as expired (its clock is ahead) marks the call expired instead of an error, and the chat goes on', async () => {
    writes.length = 0;
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'update_delivery_date', { order_id: 'A-9', new_date: '2027-01-02' }]]), textStep('Sure, what else?')] });
    const hook = mount({ id: 'conv-x3', fetch: server.fetch, serverTools: serverInfo });
    await hook.current.sendMessage({ text: 'move it' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals).toHaveLength(1), LOADED);
    server.clock.offsetMs = 16 * 60_000;
    hook.current.approve('c1');
    await vi.waitFor(() => expect(hook.current.toolCalls.get('c1')?.status).toBe('expired'), LOADED);
    expect(server.requests).toHaveLength(2);
    expect(hook.current.chatError).toBeUndefined();
    expect(hook.current.pendingApprovals).toEqual([]);
    expect(hook.current.browserState.expired).toEqual(['c1']);
    expect(writes).toEqual([]);
    await hook.current.sendMessage({ text: 'never mind' });
    await vi.waitFor(() => expect(texts(hook.current)).toBe('Sure, what else?'), LOADED);
    expect(hook.current.chatError).toBeUndefined();
    expect(hook.current.toolCalls.get('c1')?.status).toBe('expired');
    expect(writes).toEqual([]);
  });
});

describe('useEdgeChat in StrictMode: what a page mounted with saved messages starts goes on as without it', () => {
  /**
   * A page that sent `text` and saved its messages once `ready` held (not in StrictMode: it is the page before the
   * reload), then the page loaded with them and `more` options, in StrictMode or not.
   */
  async function reload(options: UseEdgeChatOptions, text: string, ready: (r: UseEdgeChatResult) => void, strict: boolean, more: UseEdgeChatOptions = {}) {
    const first = mount(options, { strict: false });
    await first.current.sendMessage({ text });
    await vi.waitFor(() => ready(first.current), LOADED);
    const messages = structuredClone(first.current.messages);
    first.unmount();
    return mount({ ...options, ...more, messages }, { strict });
  }

  it.each([
    ['approve', false],
    ['approve', true],
    ['deny', false],
    ['deny', true],
    ['autoApprove', false],
    ['autoApprove', true],
  ] as const)('a saved server approval, decided (%s) as the page mounts, goes out (StrictMode: %s)', async (decision, strict) => {
    writes.length = 0;
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]), textStep('Done.')] });
    const options: UseEdgeChatOptions = { id: `conv-strict-${decision}-${strict}`, fetch: server.fetch, serverTools: serverInfo };
    const more = decision === 'autoApprove' ? { autoApprove: (call: PendingApproval) => call.toolCallId === 'c1' } : {};
    const page = await reload(options, 'Move A-1', (r) => expect(r.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c1']), strict, more);
    // In the task that mounted the page: StrictMode's unmount stopped the chat (the AI SDK's stop() settles a few
    // microtasks later), and the answer was written into the message with no request sent for it.
    if (decision === 'approve') page.current.approve('c1');
    if (decision === 'deny') page.current.deny('c1', 'Not that day');
    await vi.waitFor(() => expect(texts(page.current)).toBe('Done.'), LOADED);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.messages.at(-1)?.parts.find((p) => p.type === 'tool-update_delivery_date')).toMatchObject({
      state: 'approval-responded',
      approval: { approved: decision !== 'deny' },
    });
    expect(writes).toEqual(decision === 'deny' ? [] : [{ order_id: 'A-1', new_date: '2026-12-24' }]);
    expect(page.current.status).toBe('ready');
  });

  it.each([false, true])('a saved browser call waiting to run runs once and its result goes out once (StrictMode: %s)', async (strict) => {
    const addServer = defineTool({ name: 'cart_add', description: 'Adds to the cart', input: v.object({ name: v.string() }), policy: { runsOn: 'client' } });
    // The page before the reload never finished it (the tab closed while it ran).
    const hanging = defineTool({ ...addServer, execute: (_input, ctx) => new Promise<never>((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))) });
    const added: string[] = [];
    // One that answers at once (no await): its result is written within microtasks of the mount.
    const add = defineTool({ ...addServer, execute: ({ name }) => added.push(name) });
    const server = createTestServer({ tools: [addServer], steps: [callsStep([['c1', 'cart_add', { name: 'beans' }]]), textStep('Added.')] });
    const first = mount({ id: `conv-strict-run-${strict}`, fetch: server.fetch, tools: [hanging] }, { strict: false });
    await first.current.sendMessage({ text: 'add beans' });
    await vi.waitFor(() => expect(first.current.toolCalls.get('c1')?.status).toBe('running'), LOADED);
    const messages = structuredClone(first.current.messages);
    first.unmount();
    const page = mount({ id: `conv-strict-run-${strict}`, fetch: server.fetch, tools: [add], messages }, { strict });
    await vi.waitFor(() => expect(texts(page.current)).toBe('Added.'), LOADED);
    await new Promise((r) => setTimeout(r, 50));
    expect(added).toEqual(['beans']);
    expect(server.requests).toHaveLength(2);
    expect(page.current.toolCalls.get('c1')).toMatchObject({ status: 'done', output: 1 });
  });

  it.each([false, true])('a saved browser tool that asks first: approved, it runs once and its result goes out (StrictMode: %s)', async (strict) => {
    const before = cartCleared;
    const server = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'cart_clear', {}]]), textStep('Emptied.')] });
    const options: UseEdgeChatOptions = { id: `conv-strict-ask-${strict}`, fetch: server.fetch, tools: browserTools, serverTools: serverInfo };
    const page = await reload(options, 'Empty my cart', (r) => expect(r.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c1']), strict);
    await vi.waitFor(() => expect(page.current.pendingApprovals.map((p) => p.toolCallId)).toEqual(['c1']), LOADED);
    page.current.approve('c1');
    await vi.waitFor(() => expect(texts(page.current)).toBe('Emptied.'), LOADED);
    expect(cartCleared).toBe(before + 1);
    expect(server.requests).toHaveLength(2);
  });
});

describe('useEdgeChat: the chat the hook makes', () => {
  it('a response still coming ends when the page unmounts or leaves for another chat id, as useChat ends its own', async () => {
    const signals: AbortSignal[] = [];
    // A server that never answers: each request waits until it is aborted.
    const fetch = (_url: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        const signal = init?.signal as AbortSignal;
        signals.push(signal);
        signal.addEventListener('abort', () => reject(signal.reason));
      });
    const hook = mount({ id: 'conv-own-1', fetch });
    void hook.current.sendMessage({ text: 'hi' });
    await vi.waitFor(() => expect(signals).toHaveLength(1), LOADED);
    hook.rerender({ id: 'conv-own-2', fetch });
    await vi.waitFor(() => expect(signals[0]?.aborted).toBe(true), LOADED);
    void hook.current.sendMessage({ text: 'hello' });
    await vi.waitFor(() => expect(signals).toHaveLength(2), LOADED);
    // StrictMode's unmount and mount again at the first render did not end it; this unmount does.
    expect(signals[1]?.aborted).toBe(false);
    hook.unmount();
    current = undefined;
    await vi.waitFor(() => expect(signals[1]?.aborted).toBe(true), LOADED);
  });
});

describe('useEdgeChat against a hostile server or model (attack33)', () => {
  // A browser tool that runs without asking, and counts its runs.
  const echoRuns: unknown[] = [];
  const echo = defineTool({
    name: 'echo_browser',
    description: 'Echoes its arguments',
    input: v.looseObject({}),
    policy: { runsOn: 'client' },
    execute: (input) => {
      echoRuns.push(input);
      return input;
    },
  });

  /** A server that answers each request with the next hand-written stream, and keeps what each request carried. */
  function scripted(...streams: object[][]) {
    const bodies: { messages: { role: string; parts: Record<string, unknown>[] }[] }[] = [];
    const fetch = (async (_url: RequestInfo | URL, init?: RequestInit) => {
      bodies.push(JSON.parse(String(init?.body)));
      return sseResponse(streams[bodies.length - 1] ?? [{ type: 'start' }, { type: 'finish' }]);
    }) as typeof globalThis.fetch;
    return { fetch, bodies };
  }

  it('a handed-over browser call whose arguments carry __proto__ or constructor.prototype (a saved conversation) never runs: the server reads invalid-json, no prototype changes', async () => {
    echoRuns.length = 0;
    const input = JSON.parse('{"__proto__":{"polluted":true},"nested":{"constructor":{"prototype":{"polluted":true}}}}');
    const saved = {
      id: 'a1',
      role: 'assistant',
      metadata: { mode: 'internal' },
      parts: [
        { type: 'step-start' },
        { type: 'tool-echo_browser', toolCallId: 'c1', state: 'input-available', input },
        { type: 'data-edgetool-ticket', id: 'c1', data: { toolCallId: 'c1', toolName: 'echo_browser', purpose: 'client-result', runsOn: 'client', ticket: 'et1.k1.c1' } },
      ],
    };
    const server = scripted();
    mount({ id: 'conv-proto', fetch: server.fetch, tools: [echo], messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'echo' }] }, saved as never] });
    await vi.waitFor(() => expect(server.bodies).toHaveLength(1), LOADED);
    const sent = server.bodies[0]?.messages.at(-1)?.parts.find((part) => part.toolCallId === 'c1');
    expect(sent).toMatchObject({ state: 'output-error', errorText: expect.stringMatching(/^Error \(invalid-json\).*__proto__/s) });
    expect(echoRuns).toEqual([]);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('a stream with __proto__ in a call’s arguments is refused by the AI SDK’s parser: the answer fails, nothing runs', async () => {
    echoRuns.length = 0;
    const call = '{"type":"tool-input-available","toolCallId":"c1","toolName":"echo_browser","input":{"__proto__":{"polluted":true}}}';
    const ticketChunk = { type: 'data-edgetool-ticket', id: 'c1', data: { toolCallId: 'c1', toolName: 'echo_browser', purpose: 'client-result', runsOn: 'client', ticket: 'et1.k1.c1' } };
    const body = `data: {"type":"start","messageId":"m1"}\n\ndata: {"type":"start-step"}\n\ndata: ${call}\n\ndata: ${JSON.stringify(ticketChunk)}\n\ndata: {"type":"finish"}\n\ndata: [DONE]\n\n`;
    const fetch = (async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } })) as typeof globalThis.fetch;
    const hook = mount({ id: 'conv-proto-stream', fetch, tools: [echo] });
    await hook.current.sendMessage({ text: 'echo' });
    await vi.waitFor(() => expect(hook.current.chatError).toBeDefined(), LOADED);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(echoRuns).toEqual([]);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("a later step that repeats a finished browser call's id with new arguments and a new ticket runs nothing again in this page", async () => {
    echoRuns.length = 0;
    const handed = (n: number) => [
      { type: 'start-step' },
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'echo_browser', input: { n } },
      { type: 'data-edgetool-ticket', id: 'c1', data: { toolCallId: 'c1', toolName: 'echo_browser', purpose: 'client-result', runsOn: 'client', ticket: `et1.k1.c1-${n}` } },
      { type: 'finish-step' },
    ];
    const server = scripted([{ type: 'start', messageId: 'm1', messageMetadata: { mode: 'internal' } }, ...handed(1), { type: 'finish' }], [{ type: 'start' }, ...handed(2), { type: 'finish' }]);
    const hook = mount({ id: 'conv-repeat', fetch: server.fetch, tools: [echo] });
    await hook.current.sendMessage({ text: 'echo' });
    await vi.waitFor(() => expect(server.bodies).toHaveLength(2), LOADED);
    await vi.waitFor(() => expect(hook.current.status).toBe('ready'), LOADED);
    // A grace for a second run to start, which must not come.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(echoRuns).toEqual([{ n: 1 }]);
    expect(server.bodies).toHaveLength(2);
    expect(hook.current.busy).toBe(false);
  });

  it("after a reload, a later step that repeats a finished browser call's id runs nothing and keeps the earlier result", async () => {
    echoRuns.length = 0;
    const ticket = (n: number) => ({ toolCallId: 'c1', toolName: 'echo_browser', purpose: 'client-result', runsOn: 'client', ticket: `et1.k1.c1-${n}` });
    // What the page saved of the stream above: the first call's result (sealed when the server took it), then a step
    // that repeats its id with new arguments and a new ticket (the AI SDK keeps one ticket part per id: the new one).
    const saved = {
      id: 'a1',
      role: 'assistant',
      metadata: { mode: 'internal' },
      parts: [
        { type: 'step-start' },
        { type: 'tool-echo_browser', toolCallId: 'c1', state: 'output-available', input: { n: 1 }, output: { n: 1 } },
        { type: 'data-edgetool-ticket', id: 'c1', data: ticket(2) },
        { type: 'data-edgetool-seal', id: 'c1', data: { toolCallId: 'c1', toolName: 'echo_browser', seal: 'es1.k1.seal' } },
        { type: 'step-start' },
        { type: 'tool-echo_browser', toolCallId: 'c1', state: 'input-available', input: { n: 2 } },
      ],
    };
    const server = scripted();
    const messages = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'echo' }] }, saved] as never;
    const hook = mount({ id: 'conv-repeat-reload', fetch: server.fetch, tools: [echo], messages });
    await vi.waitFor(() => expect(hook.current.toolCalls.get('c1')).toBeDefined(), LOADED);
    // A grace for a run to start, which must not come.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(echoRuns).toEqual([]);
    expect(server.bodies).toHaveLength(0);
    // The earlier result stays as it was (addToolOutput answers every part of the id: it wrote the repeat's output over it).
    expect(hook.current.messages.at(-1)?.parts[1]).toMatchObject({ state: 'output-available', input: { n: 1 }, output: { n: 1 } });
    expect(hook.current.messages.at(-1)?.parts[5]).toMatchObject({ state: 'input-available', input: { n: 2 } });
    // The call's view is the first part's: the repeat does not take its card over.
    expect(hook.current.toolCalls.get('c1')).toMatchObject({ status: 'done', input: { n: 1 }, output: { n: 1 } });
    expect(hook.current.busy).toBe(false);
    expect(hook.current.pendingApprovals).toEqual([]);
  });

  it("a server's approval request for a browser tool approves nothing here: the destructive tool, handed over next, still asks in the browser", async () => {
    const before = cartCleared;
    const start = { type: 'start', messageId: 'm1', messageMetadata: { mode: 'internal' } };
    const server = scripted(
      [
        start,
        { type: 'start-step' },
        { type: 'tool-input-available', toolCallId: 'c1', toolName: 'cart_clear', input: {} },
        { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'c1' },
        { type: 'finish-step' },
        { type: 'finish' },
      ],
      [
        { type: 'start', messageId: 'm1' },
        { type: 'start-step' },
        { type: 'tool-input-available', toolCallId: 'c2', toolName: 'cart_clear', input: {} },
        { type: 'data-edgetool-ticket', id: 'c2', data: { toolCallId: 'c2', toolName: 'cart_clear', purpose: 'client-result', runsOn: 'client', ticket: 'et1.k1.c2' } },
        { type: 'finish-step' },
        { type: 'finish' },
      ],
    );
    const hook = mount({ id: 'conv-browser-approval', fetch: server.fetch, tools: browserTools });
    await hook.current.sendMessage({ text: 'empty my cart' });
    await vi.waitFor(() => expect(hook.current.pendingApprovals).toMatchObject([{ toolCallId: 'c1', approval: { source: 'server' } }]), LOADED);
    hook.current.approve('c1');
    await vi.waitFor(() => expect(hook.current.pendingApprovals).toMatchObject([{ toolCallId: 'c2', approval: { source: 'browser' } }]), LOADED);
    expect(server.bodies).toHaveLength(2);
    expect(cartCleared).toBe(before);
  });
});

describe('useEdgeChat: a response past its bounds (maxResponseChars, maxResponseParts)', () => {
  const encoder = new TextEncoder();
  const line = (chunk: object) => encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`);
  /**
   * A server whose answer never ends: `head` (SSE text or chunks) first, then `next(n)` for ever, from when `ready()`
   * holds. `cancelled` turns true once the page stops reading its body.
   */
  function endless(head: readonly object[] | string, next: (n: number) => readonly object[], ready: () => boolean = () => true) {
    const state = { pulls: 0, cancelled: false };
    const response = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            if (typeof head === 'string') controller.enqueue(encoder.encode(head));
            else for (const chunk of head) controller.enqueue(line(chunk));
          },
          async pull(controller) {
            while (!ready()) await new Promise((r) => setTimeout(r, 10));
            for (const chunk of next(state.pulls++)) controller.enqueue(line(chunk));
          },
          cancel() {
            state.cancelled = true;
          },
        }),
        { headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } },
      );
    return { state, response };
  }
  const opening = [{ type: 'start', messageId: 'm1' }, { type: 'start-step' }, { type: 'text-start', id: 't1' }];

  it('an endless answer ends at maxResponseChars as stop() ends it: what came stays, chatError says why, the body is no longer read', async () => {
    const server = endless(opening, () => [{ type: 'text-delta', id: 't1', delta: 'la '.repeat(100) }]);
    const hook = mount({ fetch: async () => server.response(), maxResponseChars: 10_000 });
    await hook.current.sendMessage({ text: 'Sing for ever' });
    await vi.waitFor(() => expect(hook.current.chatError).toMatchObject({ kind: 'stream', status: undefined, code: 'response-too-large' }), LOADED);
    expect(hook.current.chatError?.message).toBe(
      'The answer was stopped: the server sent more than the 10,000 characters this page takes in one response (maxResponseChars). What came before is kept.',
    );
    await vi.waitFor(() => expect(server.state.cancelled).toBe(true), LOADED);
    // Every delta before the one that would pass the bound, and none after it.
    const text = texts(hook.current);
    expect(text.length).toBeGreaterThan(9_000);
    expect(text.length).toBeLessThanOrEqual(10_000);
    expect(text).toBe('la '.repeat(text.length / 3));
    expect(hook.current.status).toBe('error');
    expect(hook.current.busy).toBe(false);
    // Marked stopped, as a Stop marks it: a reload shows it cut short.
    expect(hook.current.browserState.stopped).toEqual(['m1']);
    // Nothing more is read once it ended.
    const pulls = server.state.pulls;
    await new Promise((r) => setTimeout(r, 50));
    expect(server.state.pulls).toBe(pulls);
  });

  it('by default at 1,000,000 characters', async () => {
    const server = endless(opening, () => [{ type: 'text-delta', id: 't1', delta: 'x'.repeat(10_000) }]);
    const hook = mount({ fetch: async () => server.response() });
    await hook.current.sendMessage({ text: 'Sing for ever' });
    await vi.waitFor(() => expect(hook.current.chatError).toMatchObject({ code: 'response-too-large' }), LOADED);
    expect(hook.current.chatError?.message).toContain('more than the 1,000,000 characters');
    expect(texts(hook.current)).toHaveLength(990_000);
  });

  it('an endless stream of small parts ends at maxResponseParts, though its characters are few', async () => {
    const server = endless(opening.slice(0, 2), (n) => [
      { type: 'text-start', id: `t${n}` },
      { type: 'text-end', id: `t${n}` },
    ]);
    const hook = mount({ fetch: async () => server.response(), maxResponseParts: 50 });
    await hook.current.sendMessage({ text: 'Say nothing, many times' });
    await vi.waitFor(() => expect(hook.current.chatError).toMatchObject({ code: 'response-too-large' }), LOADED);
    expect(hook.current.chatError?.message).toContain('more than the 50 parts this page takes in one response (maxResponseParts)');
    // The step's mark and 49 texts: the 50 parts the bound lets in.
    expect(hook.current.messages.at(-1)?.parts).toHaveLength(50);
    await vi.waitFor(() => expect(server.state.cancelled).toBe(true), LOADED);
  });

  it("the answer's browser call asking the user ends with it, as with stop(): its signal aborts, its question goes, nothing is sent", async () => {
    const real = createTestServer({ tools: serverTools, steps: [callsStep([['c1', 'pick_date', { question: 'When?' }]])] });
    const { watch, signals } = watchSignals();
    let requests = 0;
    const fetch: typeof globalThis.fetch = async (url, init) => {
      requests++;
      // The real answer with its ticket for pick_date, then, once the page asks the user, words that never end.
      const head = (await (await real.fetch(url, init)).text())
        .split('\n\n')
        .filter((event) => !event.includes('"type":"finish"') && !event.includes('[DONE]'))
        .join('\n\n');
      const server = endless(`${head}\n\n`, (n) => [...(n === 0 ? [{ type: 'start-step' }, { type: 'text-start', id: 'w' }] : []), { type: 'text-delta', id: 'w', delta: 'more ' }], () =>
        dates.questions().some((q) => q.id === 'c1'),
      );
      return server.response();
    };
    const hook = mount({ id: 'conv-bounded', fetch, tools: browserTools, interceptors: [watch], maxResponseChars: 20_000 });
    await hook.current.sendMessage({ text: 'pick a day' });
    await vi.waitFor(() => expect(hook.current.chatError).toMatchObject({ code: 'response-too-large' }), LOADED);
    await vi.waitFor(() => expect(hook.current.toolCalls.get('c1')?.status).toBe('interrupted'), LOADED);
    expect(signals.get('c1')?.aborted).toBe(true);
    expect(dates.questions()).toEqual([]);
    expect(hook.current.browserState.stopped).toEqual([hook.current.messages.at(-1)?.id]);
    await new Promise((r) => setTimeout(r, 50));
    expect(requests).toBe(1);
    expect(hook.current.busy).toBe(false);
  });
});
