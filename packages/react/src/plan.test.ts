import { defineTool } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { canRunInBrowser, messageMode, planBrowserWork } from './plan.ts';
import { assistant, ticket, toolPart, user } from './test-support/messages.ts';

const pickDate = defineTool({ name: 'pick_date', description: 'Pick a date', input: v.object({}), policy: { runsOn: 'client' }, execute: () => '2026-12-24' });
const anywhere = defineTool({ name: 'format', description: 'Format', input: v.object({}), policy: { runsOn: 'anywhere' }, execute: () => 'x' });
const serverOnly = defineTool({ name: 'query_order', description: 'Query', input: v.object({}), execute: () => 'x' });
const browserTools = new Map([pickDate, anywhere, serverOnly].map((t) => [t.name, t] as const));

describe('planBrowserWork', () => {
  it('runs a call the server handed over with a client-result ticket', () => {
    const messages = [user('hi'), assistant([toolPart('pick_date', 'c1', 'input-available'), ticket('pick_date', 'c1', 'client-result')])];
    expect(planBrowserWork(messages, { browserTools, mode: 'internal' })).toEqual([{ kind: 'run', toolCallId: 'c1', toolName: 'pick_date', input: { q: 'c1' }, ticket: 'et1.k1.c1' }]);
  });

  it('never runs a server tool that is input-available while the server executes it (onToolCall pitfall)', () => {
    // Internal mode: the server streams tool-input-available for its own tools; no ticket comes with them.
    const messages = [assistant([toolPart('format', 'c1', 'input-available'), toolPart('query_order', 'c2', 'input-available')], { mode: 'internal' })];
    expect(planBrowserWork(messages, { browserTools, mode: 'internal' })).toEqual([]);
  });

  it('waits for the ticket that follows tool-input-available', () => {
    const before = [assistant([toolPart('pick_date', 'c1', 'input-available')])];
    expect(planBrowserWork(before, { browserTools, mode: 'internal' })).toEqual([]);
  });

  it('rejects handed-over calls the browser cannot run: unknown here, or server-only in its policy', () => {
    const messages = [
      assistant([
        toolPart('nope', 'c1', 'input-available'),
        ticket('nope', 'c1', 'client-result'),
        toolPart('query_order', 'c2', 'input-available'),
        ticket('query_order', 'c2', 'client-result'),
      ]),
    ];
    const work = planBrowserWork(messages, { browserTools, mode: 'manual' });
    expect(work.map((w) => [w.kind, w.toolCallId])).toEqual([
      ['reject', 'c1'],
      ['reject', 'c2'],
    ]);
    expect(work[0]).toMatchObject({ errorText: expect.stringMatching(/^Error \(unknown-tool\): This browser has no tool "nope"\. Available browser tools: pick_date, format, query_order\./) });
    expect(work[1]).toMatchObject({ errorText: expect.stringMatching(/^Error \(wrong-placement\)/) });
  });

  it('a part that repeats an earlier call id (a hostile server), in this answer or an earlier one, never runs, is rejected or asks', () => {
    const done = toolPart('pick_date', 'c1', 'output-available', { output: '2026-12-24' });
    const again = [toolPart('pick_date', 'c1', 'input-available', { input: { q: 'again' } }), ticket('pick_date', 'c1', 'client-result')];
    const asks = toolPart('update_delivery_date', 'c1', 'approval-requested', { approval: { id: 'ap2' } });
    const fresh = [toolPart('pick_date', 'c2', 'input-available'), ticket('pick_date', 'c2', 'client-result')];
    const plan = (messages: ReturnType<typeof assistant>[]) => planBrowserWork(messages, { browserTools, mode: 'internal' }).map((w) => [w.kind, w.toolCallId]);
    expect(plan([user('hi'), assistant([{ type: 'step-start' }, done, { type: 'step-start' }, ...again, ...fresh])])).toEqual([['run', 'c2']]);
    expect(plan([user('hi'), assistant([{ type: 'step-start' }, done, { type: 'step-start' }, asks])])).toEqual([]);
    const earlier = { ...assistant([done]), id: 'a0' };
    expect(plan([user('hi'), earlier, user('more', 'u2'), assistant([...again, ...fresh])])).toEqual([['run', 'c2']]);
    const unknown = [toolPart('nope', 'c1', 'input-available'), ticket('nope', 'c1', 'client-result')];
    expect(plan([user('hi'), earlier, user('more', 'u2'), assistant(unknown)])).toEqual([]);
    // The first part of an id is the call: it runs.
    expect(plan([user('hi'), assistant(again)])).toEqual([['run', 'c1']]);
  });

  it('approval requests: the browser chain authorises in manual mode, a human decides in internal mode', () => {
    const parts = [toolPart('update_delivery_date', 'c1', 'approval-requested', { approval: { id: 'ap1' } }), ticket('update_delivery_date', 'c1', 'approval', 'server')];
    expect(planBrowserWork([assistant(parts, { mode: 'manual' })], { browserTools, mode: 'internal' })).toEqual([
      { kind: 'authorise', toolCallId: 'c1', toolName: 'update_delivery_date', input: { q: 'c1' }, approvalId: 'ap1' },
    ]);
    expect(planBrowserWork([assistant(parts, { mode: 'internal' })], { browserTools, mode: 'manual' })[0]?.kind).toBe('ask');
    // Without metadata the current mode decides.
    expect(planBrowserWork([assistant(parts)], { browserTools, mode: 'manual' })[0]?.kind).toBe('authorise');
  });

  it('looks only at the last message, and only when it is the assistant', () => {
    const pending = assistant([toolPart('pick_date', 'c1', 'input-available'), ticket('pick_date', 'c1', 'client-result')]);
    expect(planBrowserWork([pending, user('never mind', 'u2')], { browserTools, mode: 'internal' })).toEqual([]);
    expect(planBrowserWork([], { browserTools, mode: 'internal' })).toEqual([]);
  });

  it('ignores settled calls', () => {
    const messages = [assistant([toolPart('pick_date', 'c1', 'output-available', { output: 'x' }), ticket('pick_date', 'c1', 'client-result')])];
    expect(planBrowserWork(messages, { browserTools, mode: 'internal' })).toEqual([]);
  });

  it('starts nothing in an answer the user stopped, and nothing for a call whose ticket expired', () => {
    const messages = [
      user('hi'),
      assistant([
        toolPart('pick_date', 'c1', 'input-available'),
        ticket('pick_date', 'c1', 'client-result'),
        toolPart('query_order', 'c2', 'approval-requested', { approval: { id: 'ap2' } }),
      ]),
    ];
    expect(planBrowserWork(messages, { browserTools, mode: 'manual' }).map((w) => w.toolCallId)).toEqual(['c1', 'c2']);
    expect(planBrowserWork(messages, { browserTools, mode: 'manual', stopped: new Set(['a1']) })).toEqual([]);
    expect(planBrowserWork(messages, { browserTools, mode: 'manual', stopped: new Set(['u1']) })).toHaveLength(2);
    expect(planBrowserWork(messages, { browserTools, mode: 'manual', expired: new Set(['c1']) }).map((w) => w.toolCallId)).toEqual(['c2']);
  });
});

describe('canRunInBrowser / messageMode', () => {
  it('allows client and anywhere tools, never server tools or unknown ones', () => {
    expect(canRunInBrowser(pickDate)).toBe(true);
    expect(canRunInBrowser(anywhere)).toBe(true);
    expect(canRunInBrowser(serverOnly)).toBe(false);
    expect(canRunInBrowser(undefined)).toBe(false);
  });

  it('reads the mode from metadata, else the fallback', () => {
    expect(messageMode(assistant([], { mode: 'manual' }), 'internal')).toBe('manual');
    expect(messageMode(assistant([]), 'internal')).toBe('internal');
    expect(messageMode(undefined, 'manual')).toBe('manual');
  });
});
