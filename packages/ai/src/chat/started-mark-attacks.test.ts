// Session 32's review of the "started" mark (approvedrun32) as an attacker: orderings of a continuation, its Retry, an
// abort at the mark, a result store that fails on either side, an edit changed on the Retry, and a ticket moved to
// another conversation. Never a write run twice, never one the user did not approve as sent.
import { createMemoryNonceStore, createRunContext, createTicketSigner, type NonceStore } from '@edgetool/core';
import { describe, expect, it } from 'vitest';
import { approveWithEdits, respondToApproval, userSays } from '../testing/client.ts';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { deliveryMove, gate, readAll, readInPrompt, refused } from '../test-support/chat-streams.ts';
import { UNKNOWN_OUTCOME_TEXT } from './ai-tools.ts';
import { type CallResultStore, createMemoryCallResultStore } from './call-results.ts';
import { createChatAgent } from './chat-agent.ts';
import type { EdgetoolUIMessage } from './protocol.ts';

const keys = [{ id: 'k1', secret: 'started-mark-attacks-secret-32-byte' }];
const run = (conversationId = 'conv-marks') => createRunContext({ conversationId });
const proposed = { order_id: 'A-1001', new_date: '2026-12-24' };
const unknown = { type: 'error-text', value: UNKNOWN_OUTCOME_TEXT };

/** A write behind approval; a nonce store whose next "started" mark can be held; a result store that can fail. */
function fixture(steps = 6) {
  const { move, writes } = deliveryMove();
  const memory = createMemoryNonceStore();
  let held: { reached: () => void; released: Promise<void> } | undefined;
  const nonces: NonceStore = {
    claim: async (n, e) => {
      const hold = n.endsWith(' started') ? held : undefined;
      if (hold !== undefined) {
        held = undefined;
        hold.reached();
        await hold.released;
      }
      return memory.claim(n, e);
    },
    has: (n) => memory.has?.(n) ?? Promise.resolve(false),
    claimDecision: (n, e, d) => (memory.claimDecision as NonNullable<NonceStore['claimDecision']>)(n, e, d),
  };
  const kept = createMemoryCallResultStore();
  const fails = { get: false, put: false };
  const results: CallResultStore = {
    get: async (key) => {
      if (fails.get) throw new Error('D1_ERROR: the database is unavailable');
      return kept.get(key);
    },
    put: async (key, result, at) => {
      if (fails.put) throw new Error('D1_ERROR: the database is unavailable');
      return kept.put(key, result, at);
    },
  };
  const tickets = createTicketSigner({ keys, nonceStore: nonces });
  const model = scriptedModel(callsStep([['c1', 'update_delivery_date', proposed]]), ...Array.from({ length: steps }, () => textStep('Done.')));
  const agent = createChatAgent({ model, tools: [move], tickets, callResults: results, maxRetries: 0, onError: () => {} });
  const holdMark = () => {
    const reached = gate();
    const released = gate();
    held = { reached: reached.open, released: released.opened };
    return { reached: reached.opened, release: released.open };
  };
  const lastRead = () => readInPrompt(model.doStreamCalls.at(-1)?.prompt, 'c1');
  return { agent, writes, fails, holdMark, lastRead };
}

async function asked(fx: ReturnType<typeof fixture>, conversationId?: string): Promise<EdgetoolUIMessage[]> {
  return (await fx.agent.generate({ messages: 'Move A-1001 to Christmas Eve', run: run(conversationId) })).messages;
}

describe('the started mark under attack', () => {
  it('an abort that lands while the mark is being claimed: the call does not run then; recorded as not started, the first Retry runs it once (approve34)', async () => {
    const fx = fixture();
    const continued = respondToApproval(await asked(fx), 'c1', true);
    const hold = fx.holdMark();
    const controller = new AbortController();
    const aborting = createRunContext({ conversationId: 'conv-marks', signal: controller.signal });
    const first = fx.agent.stream({ messages: continued, run: aborting, signal: controller.signal });
    const reading = first.then((turn) => readAll(turn.stream)).catch(() => []);
    await hold.reached;
    controller.abort();
    hold.release();
    await reading;
    // The given-up call writes its record in the microtasks after its mark came back.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fx.writes).toEqual([]);
    // Until session 34 every Retry read unknown here (the mark taken, no record), and the write never happened.
    for (let retry = 0; retry < 2; retry += 1) {
      await fx.agent.generate({ messages: continued, run: run() });
      expect(fx.writes).toEqual([proposed]);
      expect(fx.lastRead()).toEqual({ type: 'text', value: JSON.stringify({ ...proposed, updated: true }) });
    }
  });

  it('the call ran and its result could not be recorded: a Retry does not run it again (its mark is taken)', async () => {
    const fx = fixture();
    const continued = respondToApproval(await asked(fx), 'c1', true);
    fx.fails.put = true;
    await fx.agent.generate({ messages: continued, run: run() });
    expect(fx.writes).toEqual([proposed]);
    fx.fails.put = false;
    await fx.agent.generate({ messages: continued, run: run() });
    expect(fx.writes).toEqual([proposed]);
    expect(fx.lastRead()).toEqual(unknown);
  });

  it('the call ran and the result store cannot be read on the Retry: not run again', async () => {
    const fx = fixture();
    const continued = respondToApproval(await asked(fx), 'c1', true);
    await fx.agent.generate({ messages: continued, run: run() });
    expect(fx.writes).toEqual([proposed]);
    fx.fails.get = true;
    await fx.agent.generate({ messages: continued, run: run() }).catch(() => undefined);
    expect(fx.writes).toEqual([proposed]);
  });

  it('a request cut before its edited call started: a Retry with another edit is refused and runs nothing; the same edit runs once', async () => {
    const fx = fixture();
    const messages = await asked(fx);
    const edited = approveWithEdits(messages, 'c1', { ...proposed, new_date: '2026-12-27' });
    const turn = await fx.agent.stream({ messages: edited, run: run() });
    await turn.stream.cancel('the connection was cut');
    await turn.usage;
    expect(fx.writes).toEqual([]);

    const other = approveWithEdits(messages, 'c1', { ...proposed, new_date: '2026-12-31' });
    const error = await refused(fx.agent.generate({ messages: other, run: run() }));
    expect(error.problem).toBe('forged-approval');
    const plain = respondToApproval(messages, 'c1', true);
    await refused(fx.agent.generate({ messages: plain, run: run() }));
    expect(fx.writes).toEqual([]);

    await fx.agent.generate({ messages: edited, run: run() });
    await fx.agent.generate({ messages: edited, run: run() });
    expect(fx.writes).toEqual([{ ...proposed, new_date: '2026-12-27' }]);
  });

  it('a cut approval moved into another conversation is refused there, and its own conversation still runs it once', async () => {
    const fx = fixture();
    const continued = respondToApproval(await asked(fx), 'c1', true);
    const turn = await fx.agent.stream({ messages: continued, run: run() });
    await turn.stream.cancel('the connection was cut');
    await turn.usage;
    await refused(fx.agent.generate({ messages: continued, run: run('conv-other') }));
    expect(fx.writes).toEqual([]);
    await fx.agent.generate({ messages: continued, run: run() });
    expect(fx.writes).toEqual([proposed]);
  });

  it("another conversation cannot take the mark by going on from a copy of this one's cut approval", async () => {
    const fx = fixture();
    const continued = respondToApproval(await asked(fx), 'c1', true);
    const turn = await fx.agent.stream({ messages: continued, run: run() });
    await turn.stream.cancel('the connection was cut');
    await turn.usage;
    // Went on from there, as another conversation: the earlier approval's ticket names this one, so it is refused
    // before any mark is taken (in its own conversation, going on takes the mark and the approval never runs).
    await refused(fx.agent.generate({ messages: userSays(continued, 'And A-1002?'), run: run('conv-other') }));
    await fx.agent.generate({ messages: continued, run: run() });
    expect(fx.writes).toEqual([proposed]);
  });

  it('two approvals of one step, cut before either started: a Retry that swaps or widens the decisions is refused; as sent, only the approved one runs, once', async () => {
    const { move, writes } = deliveryMove();
    const tickets = createTicketSigner({ keys, nonceStore: createMemoryNonceStore() });
    const other = { order_id: 'A-1002', new_date: '2026-12-27' };
    const both = callsStep([
      ['c1', 'update_delivery_date', proposed],
      ['c2', 'update_delivery_date', other],
    ]);
    const model = scriptedModel(both, ...Array.from({ length: 4 }, () => textStep('Done.')));
    const agent = createChatAgent({ model, tools: [move], tickets, callResults: createMemoryCallResultStore(), maxRetries: 0, onError: () => {} });
    const messages = (await agent.generate({ messages: 'Move both', run: run() })).messages;
    const decided = (one: boolean, two: boolean) => respondToApproval(respondToApproval(messages, 'c1', one), 'c2', two);
    const sent = decided(true, false);
    const turn = await agent.stream({ messages: sent, run: run() });
    await turn.stream.cancel('the connection was cut');
    await turn.usage;
    expect(writes).toEqual([]);

    for (const [one, two] of [[false, true], [true, true], [false, false]] as const) await refused(agent.generate({ messages: decided(one, two), run: run() }));
    expect(writes).toEqual([]);
    await agent.generate({ messages: sent, run: run() });
    await agent.generate({ messages: sent, run: run() });
    expect(writes).toEqual([proposed]);
  });

  it('a Retry racing a message that goes on from the same cut approval: the write runs at most once, whichever marks first', async () => {
    for (const first of ['retry', 'went-on'] as const) {
      const fx = fixture(8);
      const continued = respondToApproval(await asked(fx), 'c1', true);
      const turn = await fx.agent.stream({ messages: continued, run: run() });
      await turn.stream.cancel('the connection was cut');
      await turn.usage;
      const wentOn = userSays(continued, 'And A-1002?');
      // The one that comes second is held at its mark while the other runs to its end.
      const hold = fx.holdMark();
      const held = fx.agent.generate({ messages: first === 'retry' ? wentOn : continued, run: run() });
      await hold.reached;
      await fx.agent.generate({ messages: first === 'retry' ? continued : wentOn, run: run() });
      hold.release();
      await held;
      expect(fx.writes, first).toEqual(first === 'retry' ? [proposed] : []);
      // Sent again later, nothing runs.
      await fx.agent.generate({ messages: continued, run: run() });
      expect(fx.writes, first).toEqual(first === 'retry' ? [proposed] : []);
    }
  });
});
