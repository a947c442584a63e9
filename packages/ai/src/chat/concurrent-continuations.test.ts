// Two copies of one continuation at once (a double click, a retry racing the original), over one nonce store: exactly
// one copy claims the tickets and runs the calls; the other is answered as the same continuation sent again, or refused
// when it decides otherwise, and never takes a ticket the first one needs.
import { createMemoryNonceStore, createRunContext, createTicketSigner, defineTool, type NonceStore, peekTicket } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { respondToApproval } from '../testing/client.ts';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { gate, refused } from '../test-support/chat-streams.ts';
import { UNKNOWN_OUTCOME_TEXT } from './ai-tools.ts';
import { createMemoryCallResultStore } from './call-results.ts';
import { type ChatTurnResult, createChatAgent } from './chat-agent.ts';
import { type EdgetoolUIMessage, TICKET_PART, type TicketPartData } from './protocol.ts';

const keys = [{ id: 'k1', secret: 'concurrent-copies-secret-concurrent-copies' }];
const run = () => createRunContext({ conversationId: 'conv-c' });

/** A nonce store over `store` whose claim of `nonce` waits for `until` after opening `reached` (the other copy runs meanwhile). */
function pausing(store: NonceStore, nonce: () => string, reached: () => void, until: Promise<void>): NonceStore {
  return {
    claim: (n, expiresAt) => store.claim(n, expiresAt),
    has: (n) => store.has?.(n) ?? Promise.resolve(false),
    claimDecision: async (n, expiresAt, decision) => {
      if (n === nonce()) {
        reached();
        await until;
      }
      return (store.claimDecision as NonNullable<NonceStore['claimDecision']>)(n, expiresAt, decision);
    },
  };
}

function twoIsolates() {
  const writes: { copy: string; order: string }[] = [];
  const shared = createMemoryNonceStore();
  const results = createMemoryCallResultStore();
  const reached = gate();
  const otherDone = gate();
  let pausedNonce = '';
  const write = (copy: string) =>
    defineTool({
      name: 'cancel_order',
      description: 'Cancels an order',
      input: v.object({ order_id: v.string() }),
      policy: { effects: 'write' },
      execute: ({ order_id }) => {
        writes.push({ copy, order: order_id });
        return `cancelled ${order_id}`;
      },
    });
  // Isolate A's claim of the second call's ticket waits until isolate B's copy has been answered.
  const a = createChatAgent({
    model: scriptedModel(callsStep([['c1', 'cancel_order', { order_id: 'A-1' }], ['c2', 'cancel_order', { order_id: 'A-2' }]]), textStep('A: both cancelled.')),
    tools: [write('A')],
    tickets: createTicketSigner({ keys, nonceStore: pausing(shared, () => pausedNonce, reached.open, otherDone.opened) }),
    callResults: results,
  });
  const b = createChatAgent({ model: scriptedModel(textStep('B: answered.'), textStep('B: answered again.')), tools: [write('B')], tickets: createTicketSigner({ keys, nonceStore: shared }), callResults: results });
  return {
    a,
    b,
    writes,
    reached,
    otherDone,
    pauseAt: (messages: EdgetoolUIMessage[], callId: string) => {
      const ticket = messages.at(-1)?.parts.find((p) => p.type === TICKET_PART && (p.data as TicketPartData).toolCallId === callId) as { data: TicketPartData };
      pausedNonce = peekTicket(ticket.data.ticket)?.nonce ?? '';
    },
  };
}

const resultsOf = (turn: ChatTurnResult) =>
  turn.message.parts.filter((p) => 'toolCallId' in p).map((p) => ({ id: (p as { toolCallId: string }).toolCallId, state: (p as { state: string }).state, output: (p as { output?: unknown }).output, errorText: (p as { errorText?: string }).errorText }));

describe('two copies of a continuation at once', () => {
  it('the same approvals twice: every call runs once, in the copy that marks it started; the other runs none', async () => {
    const s = twoIsolates();
    const first = await s.a.generate({ messages: 'cancel A-1 and A-2', run: run() });
    const approved = respondToApproval(respondToApproval(first.messages, 'c1', true), 'c2', true);
    s.pauseAt(approved, 'c2');
    // Copy A has claimed the first ticket and is about to claim the second when copy B arrives.
    const copyA = s.a.generate({ messages: approved, run: run() });
    await s.reached.opened;
    // Before: B found the second ticket unused and claimed it, so each copy ran one call and told its model that the
    // other's outcome was unknown.
    // B is the same continuation sent again (A took the leader ticket, which confirms the whole copy), and A has started
    // neither call: B takes their "started" marks and runs them (session 32: before, B read both outcomes as unknown).
    const copyB = await s.b.generate({ messages: approved, run: run() });
    s.otherDone.open();
    const answerA = await copyA;
    expect(s.writes).toEqual([
      { copy: 'B', order: 'A-1' },
      { copy: 'B', order: 'A-2' },
    ]);
    expect(copyB.toolResults.map((r) => r.call.id)).toEqual(['c1', 'c2']);
    expect(answerA.toolResults).toEqual([]);
    // A finds both marks taken: it runs neither, and its model reads that their outcome is unknown.
    expect(resultsOf(answerA)).toEqual([
      { id: 'c1', state: 'output-error', output: undefined, errorText: UNKNOWN_OUTCOME_TEXT },
      { id: 'c2', state: 'output-error', output: undefined, errorText: UNKNOWN_OUTCOME_TEXT },
    ]);
    // Sent once more, now that B has recorded them: both results, and still nothing runs twice.
    const again = await s.b.generate({ messages: approved, run: run() });
    expect(resultsOf(again).map((r) => r.output)).toEqual(['cancelled A-1', 'cancelled A-2']);
    expect(s.writes).toHaveLength(2);
  });

  it('copies that decide otherwise: the one that loses the first ticket is refused and claims nothing; the other runs', async () => {
    const s = twoIsolates();
    const first = await s.a.generate({ messages: 'cancel A-1 and A-2', run: run() });
    const approved = respondToApproval(respondToApproval(first.messages, 'c1', true), 'c2', true);
    const other = respondToApproval(respondToApproval(first.messages, 'c1', true), 'c2', false, 'not A-2');
    s.pauseAt(approved, 'c2');
    const copyA = s.a.generate({ messages: approved, run: run() });
    await s.reached.opened;
    // Before: B took the second ticket with its denial, A was refused on it, and the first call was never run though
    // its ticket was used (B told its model the outcome was unknown): every ticket spent, nothing ran.
    const error = await refused(s.b.generate({ messages: other, run: run() }));
    expect(error.problem).toBe('forged-approval');
    expect(error.message).toMatch(/answered before with another decision/);
    s.otherDone.open();
    const answerA = await copyA;
    expect(answerA.text).toBe('A: both cancelled.');
    expect(s.writes.map((w) => w.order)).toEqual(['A-1', 'A-2']);
  });
});
