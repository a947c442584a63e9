import { createTicketSigner, type TicketPurpose } from '@edgetool/core';
import { describe, expect, it } from 'vitest';
import { expiredCalls, openCalls } from './expiry.ts';
import { assistant, seal, toolPart, user } from './test-support/messages.ts';

const signer = createTicketSigner({ keys: [{ id: 'k1', secret: 'a-test-secret-that-is-32-bytes-!' }], now: () => 1_000_000 });

/** A ticket part with a real ticket that expires `ttlMs` after 1,000,000. */
async function ticket(toolName: string, toolCallId: string, purpose: TicketPurpose, ttlMs: number) {
  const value = await signer.sign({ purpose, toolName, callId: toolCallId, args: {}, conversationId: 'conv' }, { ttlMs });
  return { type: 'data-edgetool-ticket', id: toolCallId, data: { toolCallId, toolName, purpose, runsOn: 'client', ticket: value } };
}

describe('openCalls and expiredCalls', () => {
  it('list the calls the server has yet to take an answer for, with their ticket expiry', async () => {
    const messages = [
      user('go'),
      assistant([
        toolPart('update_delivery_date', 'c1', 'approval-requested', { approval: { id: 'ap1' } }),
        await ticket('update_delivery_date', 'c1', 'approval', 1_000),
        toolPart('pick_date', 'c2', 'input-available'),
        await ticket('pick_date', 'c2', 'client-result', 2_000),
        // Answered here, not sent yet (no seal): it still needs a valid ticket when it goes.
        toolPart('send_email', 'c3', 'approval-responded', { approval: { id: 'ap3', approved: true } }),
        await ticket('send_email', 'c3', 'approval', 3_000),
        toolPart('cart_add', 'c4', 'output-available', { output: 1 }),
        await ticket('cart_add', 'c4', 'client-result', 4_000),
        // Taken by the server (sealed): done, whatever its ticket says.
        toolPart('cart_clear', 'c5', 'output-available', { output: 2 }),
        await ticket('cart_clear', 'c5', 'client-result', 500),
        seal('cart_clear', 'c5'),
        // No ticket: a server call in progress, nothing the browser answers.
        toolPart('query_order', 'c6', 'input-available'),
        toolPart('x', 'c7', 'input-streaming'),
      ]),
    ];
    expect(openCalls(messages)).toEqual([
      { toolCallId: 'c1', expiresAt: 1_001_000 },
      { toolCallId: 'c2', expiresAt: 1_002_000 },
      { toolCallId: 'c3', expiresAt: 1_003_000 },
      { toolCallId: 'c4', expiresAt: 1_004_000 },
    ]);
    expect(expiredCalls(messages, 999_999)).toEqual({ expired: [], next: 1_001_000 });
    expect(expiredCalls(messages, 1_002_000)).toEqual({ expired: ['c1', 'c2'], next: 1_003_000 });
    expect(expiredCalls(messages, 2_000_000)).toEqual({ expired: ['c1', 'c2', 'c3', 'c4'], next: undefined });
  });

  it('only the last message counts, and a ticket that is not one gives no expiry', async () => {
    const old = { ...assistant([toolPart('pick_date', 'c1', 'input-available'), await ticket('pick_date', 'c1', 'client-result', 1)]), id: 'a0' };
    expect(openCalls([old, user('next')])).toEqual([]);
    const forged = assistant([toolPart('pick_date', 'c2', 'input-available'), { type: 'data-edgetool-ticket', id: 'c2', data: { toolCallId: 'c2', ticket: 'et1.k1.e30.x' } }]);
    expect(openCalls([forged])).toEqual([]);
  });
});
