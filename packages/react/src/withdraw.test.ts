import { describe, expect, it } from 'vitest';
import { assistant, seal, ticket, toolPart, user } from './test-support/messages.ts';
import { withdrawUnsentAnswers } from './withdraw.ts';

describe('withdrawUnsentAnswers', () => {
  it('turns unsealed browser results back into pending calls; sealed results and approval decisions stay', () => {
    const messages = [
      user('hi'),
      assistant([
        toolPart('update', 'c1', 'approval-responded', { approval: { id: 'ap1', approved: true, reason: 'ok' } }),
        toolPart('pick_date', 'c2', 'output-available', { output: '2026-12-24' }),
        ticket('pick_date', 'c2', 'client-result'),
        toolPart('query_order', 'c3', 'output-available', { output: { status: 'shipped' } }),
        seal('query_order', 'c3'),
        toolPart('cart_clear', 'c4', 'output-error', { errorText: 'Error (approval-denied): no' }),
        toolPart('refund', 'c5', 'approval-responded', { approval: { id: 'ap5', approved: false, reason: 'wrong order' } }),
      ]),
    ];
    const withdrawn = withdrawUnsentAnswers(messages);
    const parts = withdrawn?.at(-1)?.parts as Record<string, unknown>[];
    // The server takes an answered approval in an earlier message, and the model reads what became of the call.
    expect(parts[0]).toBe(messages[1]?.parts[0]);
    expect(parts[6]).toBe(messages[1]?.parts[6]);
    expect(parts[1]).toEqual({ type: 'tool-pick_date', toolCallId: 'c2', state: 'input-available', input: { q: 'c2' } });
    expect(parts[3]).toBe(messages[1]?.parts[3]);
    expect(parts[5]).toMatchObject({ state: 'input-available' });
    expect(parts[5]).not.toHaveProperty('errorText');
    expect(withdrawn?.[0]).toBe(messages[0]);
  });

  it('changes nothing when every answer was accepted, or the last message is not the assistant', () => {
    expect(withdrawUnsentAnswers([user('hi'), assistant([toolPart('q', 'c1', 'output-available', { output: 1 }), seal('q', 'c1')])])).toBeUndefined();
    expect(withdrawUnsentAnswers([user('hi')])).toBeUndefined();
    expect(withdrawUnsentAnswers([user('hi'), assistant([toolPart('update', 'c1', 'approval-responded', { approval: { id: 'a', approved: true } })])])).toBeUndefined();
  });
});
