import { describe, expect, it } from 'vitest';
import { continuationOf, shouldContinue } from './auto-continue.ts';
import { assistant, seal, stepStart, ticket, toolPart, user } from './test-support/messages.ts';

const go = (...parts: Record<string, unknown>[]) => shouldContinue({ messages: [user('hi'), assistant(parts)] });

describe('shouldContinue', () => {
  it('continues once a handed-over call has its browser result (output or error)', () => {
    expect(go(stepStart, toolPart('pick_date', 'c1', 'output-available', { output: 'x' }), ticket('pick_date', 'c1', 'client-result'))).toBe(true);
    expect(go(stepStart, toolPart('pick_date', 'c1', 'output-error', { errorText: 'no' }), ticket('pick_date', 'c1', 'client-result'))).toBe(true);
  });

  it('continues once every approval request has a response', () => {
    expect(go(stepStart, toolPart('update', 'c1', 'approval-responded', { approval: { id: 'a', approved: false } }))).toBe(true);
  });

  it('waits while any call of the last step is unanswered', () => {
    expect(
      go(stepStart, toolPart('pick_date', 'c1', 'output-available', { output: 'x' }), toolPart('update', 'c2', 'approval-requested', { approval: { id: 'a' } })),
    ).toBe(false);
    expect(go(stepStart, toolPart('pick_date', 'c1', 'input-available'), toolPart('update', 'c2', 'approval-responded', { approval: { id: 'a', approved: true } }))).toBe(
      false,
    );
    expect(go(stepStart, toolPart('pick_date', 'c1', 'output-available', { output: 'x', preliminary: true }))).toBe(false);
  });

  it('never resends a turn the server finished itself: sealed results only (return-direct, step limit)', () => {
    const parts = [stepStart, toolPart('answer', 'c1', 'output-available', { output: '42' }), seal('answer', 'c1'), { type: 'text', text: '42', state: 'done' }];
    expect(go(...parts)).toBe(false);
  });

  it('continues when a sealed server result sits beside a fresh browser result in the same step', () => {
    expect(
      go(
        stepStart,
        toolPart('query_order', 'c1', 'output-available', { output: {} }),
        seal('query_order', 'c1'),
        toolPart('pick_date', 'c2', 'output-available', { output: 'x' }),
      ),
    ).toBe(true);
  });

  it('looks at the last step only, and only at an assistant message last', () => {
    expect(go(toolPart('pick_date', 'c1', 'output-available', { output: 'x' }), stepStart, { type: 'text', text: 'Booked.' })).toBe(false);
    expect(shouldContinue({ messages: [user('hi')] })).toBe(false);
    expect(shouldContinue({ messages: [] })).toBe(false);
  });

  it('continuationOf names the continuation by message and call states: the same until an answer or the server changes it', () => {
    const answered = [stepStart, toolPart('pick_date', 'c1', 'output-available', { output: 'x' }), toolPart('update', 'c2', 'approval-responded', { approval: { id: 'a', approved: true } })];
    const key = continuationOf([user('hi'), assistant(answered)]);
    expect(key).toBeDefined();
    expect(continuationOf([user('hi'), assistant([...answered, { type: 'data-app-note', data: {} }])])).toBe(key);
    expect(continuationOf([user('hi'), assistant([stepStart, toolPart('pick_date', 'c1', 'output-error', { errorText: 'no' }), answered[2] as Record<string, unknown>])])).not.toBe(key);
    expect(continuationOf([user('hi'), assistant([stepStart, toolPart('pick_date', 'c1', 'input-available')])])).toBeUndefined();
    expect(continuationOf([user('hi')])).toBeUndefined();
  });
});
