import { defineTool, jsonSchema } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { BrowserCall } from './browser-calls.ts';
import { parseServerTools } from './server-tools.ts';
import { assistant, seal, ticket, toolPart, trace, user } from './test-support/messages.ts';
import type { CallTrace } from './trace.ts';
import { activeModel, callOf, describeModelLabel, pendingApprovals, type ViewOptions, toolCallViews } from './views.ts';

const pickDate = defineTool({ name: 'pick_date', description: 'Pick', input: v.object({}), policy: { runsOn: 'client' }, execute: () => 'x' });
const cartClear = defineTool({ name: 'cart_clear', description: 'Clear', input: v.object({}), policy: { runsOn: 'client', effects: 'destructive' }, execute: () => 'x' });
const serverTools = parseServerTools({
  tools: [
    { name: 'query_order', description: 'Query', inputSchema: { type: 'object' }, policy: { effects: 'read', runsOn: 'server', needsApproval: false } },
    { name: 'update_delivery_date', description: 'Update', inputSchema: { type: 'object' }, policy: { effects: 'write', runsOn: 'server', needsApproval: true } },
  ],
});
const clientTrace: CallTrace = { side: 'client', outcome: 'success', errorCode: undefined, durationMs: 7, spans: [] };

function options(overrides: Partial<ViewOptions> = {}): ViewOptions {
  return {
    browserTools: new Map([pickDate, cartClear].map((t) => [t.name, t] as const)),
    serverTools: new Map(serverTools.map((t) => [t.name, t] as const)),
    browserCalls: new Map(),
    streaming: false,
    mode: 'internal',
    ...overrides,
  };
}

function browserCall(overrides: Partial<BrowserCall>): BrowserCall {
  return { toolCallId: 'c1', toolName: 'pick_date', input: {}, kind: 'run', approvalId: undefined, status: 'running', traces: [], ...overrides };
}

describe('toolCallViews', () => {
  it('a server call: where it ran, its output, duration and trace from the data part', () => {
    const messages = [
      user('where?'),
      assistant([toolPart('query_order', 'c1', 'output-available', { output: { status: 'shipped' } }), seal('query_order', 'c1'), trace('query_order', 'c1', 6)], {
        mode: 'internal',
      }),
    ];
    const view = toolCallViews(messages, options()).get('c1');
    expect(view).toMatchObject({
      toolName: 'query_order',
      status: 'done',
      ranOn: 'server',
      output: { status: 'shipped' },
      durationMs: 6,
      sealed: true,
      policy: { effects: 'read', runsOn: 'server' },
      mode: 'internal',
    });
    expect(view?.traces).toHaveLength(1);
    expect(view?.traces[0]?.spans.map((s) => s.name)).toEqual(['trace', 'query_order']);
  });

  it('carries the latest progress report of a call, and none for calls that did not report', () => {
    const messages = [assistant([toolPart('query_order', 'c1', 'input-available'), toolPart('query_order', 'c2', 'output-available', { output: 1 })])];
    const progress = new Map([['c1', { message: 'Scanning', completed: 2, total: 5 }]]);
    const views = toolCallViews(messages, options({ streaming: true, progress }));
    expect(views.get('c1')).toMatchObject({ status: 'running', progress: { message: 'Scanning', completed: 2, total: 5 } });
    expect(views.get('c2')?.progress).toBeUndefined();
    expect(toolCallViews(messages, options()).get('c1')?.progress).toBeUndefined();
  });

  it('a server call without result is running while the response streams, interrupted after', () => {
    const messages = [assistant([toolPart('query_order', 'c1', 'input-available')])];
    expect(toolCallViews(messages, options({ streaming: true })).get('c1')?.status).toBe('running');
    expect(toolCallViews(messages, options()).get('c1')?.status).toBe('interrupted');
  });

  it('a handed-over browser call: pending, running, done, with the browser trace and duration', () => {
    const parts = [toolPart('pick_date', 'c1', 'input-available'), ticket('pick_date', 'c1', 'client-result')];
    expect(toolCallViews([assistant(parts)], options()).get('c1')).toMatchObject({ status: 'pending', ranOn: 'browser', policy: { runsOn: 'client' } });
    const running = new Map([['c1', browserCall({ status: 'running' })]]);
    expect(toolCallViews([assistant(parts)], options({ browserCalls: running })).get('c1')?.status).toBe('running');
    const done = [toolPart('pick_date', 'c1', 'output-available', { output: '2026-12-24' }), ticket('pick_date', 'c1', 'client-result')];
    const finished = new Map([['c1', browserCall({ status: 'done', traces: [clientTrace] })]]);
    expect(toolCallViews([assistant(done)], options({ browserCalls: finished })).get('c1')).toMatchObject({ status: 'done', durationMs: 7, traces: [clientTrace] });
  });

  it('approvals: server-requested in the part, browser-requested from the browser chain', () => {
    const messages = [
      assistant([
        toolPart('update_delivery_date', 'c1', 'approval-requested', { approval: { id: 'ap1' } }),
        toolPart('cart_clear', 'c2', 'input-available'),
        ticket('cart_clear', 'c2', 'client-result'),
      ]),
    ];
    const calls = new Map([['c2', browserCall({ toolCallId: 'c2', toolName: 'cart_clear', status: 'awaiting-approval' })]]);
    const views = toolCallViews(messages, options({ browserCalls: calls }));
    expect(views.get('c1')).toMatchObject({ status: 'awaiting-approval', ranOn: 'server', approval: { id: 'ap1', source: 'server' } });
    expect(views.get('c2')).toMatchObject({ status: 'awaiting-approval', ranOn: 'browser', approval: { source: 'browser' } });
    // A pending approval is the call's view, the same object: one shape for the list, the cards and autoApprove.
    expect(pendingApprovals(views)).toEqual([views.get('c1'), views.get('c2')]);
    expect(pendingApprovals(views)[0]).toBe(views.get('c1'));
    expect(pendingApprovals(views).map(({ toolName, input, policy, approval, mode }) => ({ toolName, input, effects: policy?.effects, source: approval.source, mode }))).toEqual([
      { toolName: 'update_delivery_date', input: { q: 'c1' }, effects: 'write', source: 'server', mode: 'internal' },
      { toolName: 'cart_clear', input: { q: 'c2' }, effects: 'destructive', source: 'browser', mode: 'internal' },
    ]);
  });

  it("approvals carry the tool's words (policy.approvalReason): the server's from the part, the browser chain's from its call", () => {
    const messages = [
      assistant([
        toolPart('update_delivery_date', 'c1', 'approval-requested', { approval: { id: 'ap1', requestReason: 'A-1006 moves to 2027-01-05: 33 days late.' } }),
        toolPart('cart_clear', 'c2', 'input-available'),
        ticket('cart_clear', 'c2', 'client-result'),
      ]),
    ];
    const calls = new Map([['c2', browserCall({ toolCallId: 'c2', toolName: 'cart_clear', status: 'awaiting-approval', requestReason: 'Empties a cart of 3 items.' })]]);
    const views = toolCallViews(messages, options({ browserCalls: calls }));
    expect(views.get('c1')?.approval).toEqual({ id: 'ap1', source: 'server', approved: undefined, reason: undefined, requestReason: 'A-1006 moves to 2027-01-05: 33 days late.' });
    expect(views.get('c2')?.approval?.requestReason).toBe('Empties a cart of 3 items.');
    expect(pendingApprovals(views).map((p) => p.approval.requestReason)).toEqual(['A-1006 moves to 2027-01-05: 33 days late.', 'Empties a cart of 3 items.']);
    // A reason that is not text (a hand-made part) is not shown.
    const odd = [assistant([toolPart('update_delivery_date', 'c1', 'approval-requested', { approval: { id: 'ap1', requestReason: 42 } })])];
    expect(toolCallViews(odd, options()).get('c1')?.approval?.requestReason).toBeUndefined();
  });

  it('manual mode: the browser authorises a server call, then the server runs it (both traces, server duration)', () => {
    const messages = [
      assistant(
        [
          toolPart('query_order', 'c1', 'output-available', { output: {}, approval: { id: 'ap1', approved: true } }),
          ticket('query_order', 'c1', 'approval', 'server'),
          seal('query_order', 'c1'),
          trace('query_order', 'c1', 9),
        ],
        { mode: 'manual' },
      ),
    ];
    const calls = new Map([['c1', browserCall({ toolName: 'query_order', kind: 'authorise', approvalId: 'ap1', status: 'done', traces: [clientTrace] })]]);
    const view = toolCallViews(messages, options({ browserCalls: calls })).get('c1');
    expect(view).toMatchObject({ status: 'done', ranOn: 'server', durationMs: 9, mode: 'manual', usage: undefined });
    expect(view?.traces.map((t) => t.side)).toEqual(['client', 'server']);
    expect(pendingApprovals(toolCallViews(messages, options({ browserCalls: calls })))).toEqual([]);
  });

  it("a call's tokens come from the trace of where it ran", () => {
    const spent = trace('delay_analyst', 'c1', 9);
    const withUsage = { ...spent, data: { ...(spent as { data: object }).data, usage: { inputTokens: 800, outputTokens: 145, totalTokens: 945 } } };
    const view = toolCallViews([assistant([toolPart('delay_analyst', 'c1', 'output-available', { output: {} }), withUsage])], options()).get('c1');
    expect(view?.usage).toEqual({ inputTokens: 800, outputTokens: 145, totalTokens: 945 });
  });

  it('expired: a call whose ticket expired before the server took the answer, in any message, unless the server sealed it', () => {
    const answer = assistant([
      toolPart('update_delivery_date', 'c1', 'approval-requested', { approval: { id: 'ap1' } }),
      toolPart('cart_clear', 'c2', 'input-available'),
      ticket('cart_clear', 'c2', 'client-result'),
      toolPart('update_delivery_date', 'c3', 'approval-responded', { approval: { id: 'ap3', approved: true } }),
      toolPart('pick_date', 'c4', 'output-available', { output: 'x' }),
      seal('pick_date', 'c4'),
    ]);
    const expired = new Set(['c1', 'c2', 'c3', 'c4']);
    const calls = new Map([['c2', browserCall({ toolCallId: 'c2', toolName: 'cart_clear', status: 'awaiting-approval' })]]);
    const views = toolCallViews([answer], options({ browserCalls: calls, expired }));
    expect([...views.values()].map((view) => view.status)).toEqual(['expired', 'expired', 'expired', 'done']);
    expect(pendingApprovals(views)).toEqual([]);
    // Once the user went on, the call is still expired (not merely interrupted).
    expect(toolCallViews([answer, user('next', 'u2')], options({ expired })).get('c1')?.status).toBe('expired');
    expect(toolCallViews([answer], options({ browserCalls: calls })).get('c1')?.status).toBe('awaiting-approval');
  });

  it('a browser result of an earlier turn is sealed by a later response, in that response’s message: the view says sealed', () => {
    const earlier = assistant([toolPart('cart_clear', 'c1', 'output-available', { output: { cleared: 3 } }), ticket('cart_clear', 'c1', 'client-result')]);
    const later: typeof earlier = { ...assistant([seal('cart_clear', 'c1'), { type: 'text', text: 'It is empty.' }]), id: 'a2' };
    expect(toolCallViews([user('clear it'), earlier, user('did it work?', 'u2')], options()).get('c1')).toMatchObject({ status: 'done', sealed: false });
    const expired = new Set(['c1']);
    const views = toolCallViews([user('clear it'), earlier, user('did it work?', 'u2'), later], options({ expired }));
    expect(views.get('c1')).toMatchObject({ status: 'done', sealed: true, output: { cleared: 3 }, messageId: 'a1' });
  });

  it('stopped: calls left to this browser are interrupted; a server approval in internal mode stays answerable', () => {
    const internal = assistant([
      toolPart('pick_date', 'c1', 'input-available'),
      ticket('pick_date', 'c1', 'client-result'),
      toolPart('update_delivery_date', 'c2', 'approval-requested', { approval: { id: 'ap2' } }),
      toolPart('query_order', 'c3', 'output-available', { output: {} }),
      seal('query_order', 'c3'),
    ]);
    const stopped = new Set(['a1']);
    expect([...toolCallViews([internal], options({ stopped })).values()].map((view) => view.status)).toEqual(['interrupted', 'awaiting-approval', 'done']);
    expect([...toolCallViews([internal], options()).values()].map((view) => view.status)).toEqual(['pending', 'awaiting-approval', 'done']);
    const manual = assistant([toolPart('update_delivery_date', 'c2', 'approval-requested', { approval: { id: 'ap2' } })], { mode: 'manual' });
    expect(toolCallViews([manual], options({ stopped })).get('c2')?.status).toBe('interrupted');
    // Not stopped: the browser chain authorises it first (see the next test).
    expect(toolCallViews([manual], options({ stopped: new Set(['other']) })).get('c2')?.status).toBe('authorising');
  });

  it('manual mode: an approval request waits for a human only once the browser chain asks; before it has the call, it is authorising', () => {
    const manual = assistant([toolPart('update_delivery_date', 'c2', 'approval-requested', { approval: { id: 'ap2' } })], { mode: 'manual' });
    const asking = new Map([['c2', browserCall({ toolCallId: 'c2', toolName: 'update_delivery_date', kind: 'authorise', approvalId: 'ap2', status: 'awaiting-approval' })]]);
    expect(toolCallViews([manual], options()).get('c2')?.status).toBe('authorising');
    expect(pendingApprovals(toolCallViews([manual], options()))).toEqual([]);
    expect(toolCallViews([manual], options({ browserCalls: asking })).get('c2')?.status).toBe('awaiting-approval');
    expect(pendingApprovals(toolCallViews([manual], options({ browserCalls: asking }))).map((p) => p.toolCallId)).toEqual(['c2']);
    // Internal mode: the server asks a human directly.
    const internal = assistant([toolPart('update_delivery_date', 'c2', 'approval-requested', { approval: { id: 'ap2' } })], { mode: 'internal' });
    expect(toolCallViews([internal], options({ mode: 'manual' })).get('c2')?.status).toBe('awaiting-approval');
  });

  it('traces from before a reload come first, and give a browser call its duration', () => {
    const parts = [toolPart('cart_clear', 'c1', 'output-available', { output: 2 }), ticket('cart_clear', 'c1', 'client-result'), seal('cart_clear', 'c1')];
    const asked: CallTrace = { ...clientTrace, outcome: 'approval-required', durationMs: 1 };
    const earlierTraces = new Map([['c1', [asked, clientTrace]]]);
    expect(toolCallViews([assistant(parts)], options({ earlierTraces })).get('c1')).toMatchObject({ status: 'done', durationMs: 7, traces: [asked, clientTrace] });
    const live = new Map([['c1', browserCall({ toolCallId: 'c1', toolName: 'cart_clear', status: 'done', traces: [{ ...clientTrace, durationMs: 9 }] })]]);
    const view = toolCallViews([assistant(parts)], options({ earlierTraces, browserCalls: live })).get('c1');
    expect(view?.traces.map((t) => t.durationMs)).toEqual([1, 7, 9]);
    expect(view?.durationMs).toBe(9);
  });

  it("a ticket part's editable of the wrong shape (a hostile server, a saved history) reads as none, or as its names that are text", () => {
    const approvalOf = (editable: unknown) => {
      const part = { type: 'data-edgetool-ticket', id: 'c1', data: { toolCallId: 'c1', toolName: 'update_delivery_date', purpose: 'approval', runsOn: 'server', ticket: 't', editable } };
      const message = assistant([toolPart('update_delivery_date', 'c1', 'approval-requested', { approval: { id: 'p1' } }), part], { mode: 'internal' });
      return toolCallViews([user('move'), message], options()).get('c1')?.editable;
    };
    expect(approvalOf(true)).toBe(true);
    expect(approvalOf(['new_date'])).toEqual(['new_date']);
    expect(approvalOf('new_date')).toBeUndefined();
    expect(approvalOf({ new_date: true })).toBeUndefined();
    expect(approvalOf(false)).toBeUndefined();
    expect(approvalOf(['new_date', 7, null, { a: 1 }])).toEqual(['new_date']);
  });

  it("a part that repeats a call id (a hostile server) does not take the call's view over: the first part's stays", () => {
    const done = toolPart('pick_date', 'c1', 'output-available', { output: '2026-12-24' });
    const again = toolPart('pick_date', 'c1', 'input-available', { input: { q: 'again' } });
    const parts = [{ type: 'step-start' }, done, { type: 'step-start' }, again, ticket('pick_date', 'c1', 'client-result')];
    const views = toolCallViews([user('hi'), assistant(parts)], options());
    expect(views.get('c1')).toMatchObject({ status: 'done', partState: 'output-available', input: { q: 'c1' }, output: '2026-12-24' });
    const later = toolCallViews([user('hi'), { ...assistant([done]), id: 'a0' }, user('more', 'u2'), assistant([again])], options());
    expect(later.get('c1')).toMatchObject({ messageId: 'a0', status: 'done' });
  });

  it('maps the other part states', () => {
    const messages = [
      assistant([
        toolPart('a', 'c1', 'input-streaming'),
        toolPart('b', 'c2', 'approval-responded', { approval: { id: 'x', approved: true } }),
        toolPart('c', 'c3', 'approval-responded', { approval: { id: 'y', approved: false, reason: 'no' } }),
        toolPart('d', 'c4', 'output-error', { errorText: 'Error (timeout): slow' }),
        toolPart('e', 'c5', 'output-denied'),
        // A browser tool the user denied or declined: an error part carrying edgetool's approval-denied.
        toolPart('f', 'c6', 'output-error', { errorText: 'Error (approval-denied): The user closed the date picker.' }),
      ]),
    ];
    const views = toolCallViews(messages, options({ streaming: true }));
    expect([...views.values()].map((view) => view.status)).toEqual(['input-streaming', 'approved', 'denied', 'error', 'denied', 'denied']);
    expect(views.get('c1')?.ranOn).toBeUndefined();
    expect(views.get('c4')?.errorText).toBe('Error (timeout): slow');
    expect(views.get('c3')?.approval).toEqual({ id: 'y', source: 'server', approved: false, reason: 'no' });
  });
});

describe('activeModel', () => {
  it('names the model of the latest answer and labels the offline model', () => {
    const online = assistant([], { model: { provider: 'openai.responses', modelId: 'gpt-4o', offline: false } });
    const offline = { ...assistant([], { model: { provider: 'edgetool', modelId: 'edgetool-offline', offline: true } }), id: 'a2' };
    expect(activeModel([user('a'), online])).toMatchObject({ label: 'openai.responses · gpt-4o', offline: false });
    expect(activeModel([online, offline])).toMatchObject({ label: 'offline model (edgetool-offline)', offline: true });
    expect(activeModel([user('a')])).toBeUndefined();
    expect(describeModelLabel({ provider: 'p', modelId: 'm', offline: false }).label).toBe('p · m');
  });
});

describe('callOf: a call typed by its tool', () => {
  const listDelayed = defineTool({
    name: 'list_delayed_orders',
    description: 'List',
    input: v.object({ days: v.optional(v.number(), 1), customer: v.optional(v.string()) }),
    policy: { coerce: true, strict: true },
    execute: () => [],
  });
  const move = defineTool({ name: 'update_delivery_date', description: 'Move', input: v.object({ order_id: v.string(), new_date: v.string() }), policy: { effects: 'write' }, execute: () => 'ok' });
  const viewOf = (name: string, input: unknown) => toolCallViews([assistant([toolPart(name, 'c1', 'approval-requested', { input, approval: { id: 'ap1' } })])], options()).get('c1')!;

  it("gives a pending approval of that tool with its arguments as the tool's schema reads them", () => {
    const pending = pendingApprovals(new Map([['c1', viewOf('update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' })]]))[0]!;
    const typed = callOf(pending, move);
    expect(typed).toEqual({ ...pending, input: { order_id: 'A-1', new_date: '2026-12-24' } });
    expect(typed).not.toBe(pending);
  });

  it("applies the tool's coerce and strict policy and fills defaults, as the tool would run; the view keeps the model's arguments", () => {
    const view = viewOf('list_delayed_orders', { days: '3', customer: null });
    expect(callOf(view, listDelayed)?.input).toEqual({ days: 3 });
    expect(view.input).toEqual({ days: '3', customer: null });
    expect(callOf(viewOf('list_delayed_orders', {}), listDelayed)?.input).toEqual({ days: 1 });
  });

  it("is undefined for another tool's call, for arguments the schema refuses, and for a schema that validates only asynchronously", () => {
    expect(callOf(viewOf('update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }), listDelayed)).toBeUndefined();
    expect(callOf(viewOf('update_delivery_date', { order_id: 42 }), move)).toBeUndefined();
    const later = defineTool({
      name: 'later',
      description: 'x',
      input: { '~standard': { version: 1, vendor: 'test', validate: async (value: unknown) => ({ value }) } },
      jsonSchema: { type: 'object' },
      execute: () => 'x',
    });
    expect(callOf(viewOf('later', {}), later)).toBeUndefined();
    // A promise of another realm or a polyfill's: no `instanceof Promise`, and no input of undefined for it.
    const thenable = Object.defineProperty({}, 'then', { value: (resolve: (result: { value: unknown }) => void) => resolve({ value: {} }) });
    const foreign = defineTool({
      name: 'foreign',
      description: 'x',
      input: { '~standard': { version: 1, vendor: 'test', validate: () => thenable as unknown as { value: unknown } } },
      jsonSchema: { type: 'object' },
      execute: () => 'x',
    });
    expect(callOf(viewOf('foreign', {}), foreign)).toBeUndefined();
    const broken = defineTool({ name: 'broken', description: 'x', input: jsonSchema({ $ref: '#/nowhere' }), execute: () => 'x' });
    expect(callOf(viewOf('broken', {}), broken)).toBeUndefined();
  });
});
