import { defineTool } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { BrowserCall } from './browser-calls.ts';
import { CallsPendingError } from './pending-calls.ts';
import { assistant, seal, ticket, toolPart, user } from './test-support/messages.ts';
import { type ViewOptions, toolCallViews } from './views.ts';
import { waitingCalls } from './waiting-calls.ts';

const pickDate = defineTool({ name: 'pick_date', description: 'Pick', input: v.object({}), policy: { runsOn: 'client' }, execute: () => 'x' });

function options(overrides: Partial<ViewOptions> = {}): ViewOptions {
  return { browserTools: new Map([[pickDate.name, pickDate]]), serverTools: new Map(), browserCalls: new Map(), streaming: false, mode: 'internal', ...overrides };
}

const running = (toolCallId: string, status: BrowserCall['status']): BrowserCall => ({
  toolCallId,
  toolName: 'pick_date',
  input: {},
  kind: 'run',
  approvalId: undefined,
  status,
  traces: [],
});

describe('waitingCalls', () => {
  const message = assistant([
    toolPart('pick_date', 'p1', 'input-available'),
    ticket('pick_date', 'p1', 'client-result'),
    toolPart('pick_date', 'p2', 'input-available'),
    ticket('pick_date', 'p2', 'client-result'),
    toolPart('update_delivery_date', 's1', 'approval-requested', { approval: { id: 'ap1' } }),
    toolPart('query_order', 'q1', 'output-available', { output: 1 }),
    seal('query_order', 'q1'),
    toolPart('update_delivery_date', 's2', 'approval-responded', { approval: { id: 'ap2', approved: true } }),
  ]);

  it('lists the calls of the last answer that wait here: handed over, running or asking in this browser, or for a human', () => {
    const views = toolCallViews([user('go'), message], options({ browserCalls: new Map([['p1', running('p1', 'running')]]) }));
    expect(waitingCalls(views, message)).toEqual(['p1', 'p2', 's1']);
  });

  it('not calls that ended: answered, decided, stopped, expired; nothing without an assistant message', () => {
    const ended = options({ browserCalls: new Map([['p1', running('p1', 'cancelled')]]), expired: new Set(['p2']) });
    const views = toolCallViews([user('go'), message], ended);
    expect(waitingCalls(views, message)).toEqual(['s1']);
    expect(waitingCalls(toolCallViews([user('go'), message], options({ stopped: new Set([message.id]) })), message)).toEqual(['s1']);
    expect(waitingCalls(views, undefined)).toEqual([]);
  });

  it('names the calls in a typed error, recognised across copies of the package', () => {
    const error = new CallsPendingError(['p1', 's1']);
    expect(error).toMatchObject({ name: 'CallsPendingError', code: 'calls-pending', toolCallIds: ['p1', 's1'] });
    expect(error.message).toBe('Nothing was sent: the calls "p1", "s1" of the last answer still wait for this browser or its user; the answer goes out once they are answered.');
    // One call reads in the singular (it read "the call … still wait … once they are answered").
    expect(new CallsPendingError(['p1']).message).toBe(
      'Nothing was sent: the call "p1" of the last answer still waits for this browser or its user; the answer goes out once it is answered.',
    );
    expect(CallsPendingError.isInstance(error)).toBe(true);
    expect(CallsPendingError.isInstance(new Error('x'))).toBe(false);
    expect(CallsPendingError.isInstance({ [Symbol.for('edgetool.CallsPendingError')]: true })).toBe(true);
  });
});
