// A browser's tool result in an earlier assistant message of the history, not sealed: its continuation never got an
// answer (a network error, a 502, Stop) and the user went on with a new message. The server takes it once, with the
// answer kept with its ticket's nonce, and seals it in the response; a copy with another answer is not taken (the model
// reads that the server took another), and as the continuation it claims to be, refused.
import { createMemoryNonceStore, createRunContext, createTicketSigner, defineTool, type NonceStore } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { addToolOutput, mapToolPart, userSays } from '../testing/client.ts';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { readInPrompt, recording, refused } from '../test-support/chat-streams.ts';
import { ANSWERED_OTHERWISE_TEXT, createChatAgent, UNCONFIRMED_RESULT_TEXT } from './chat-agent.ts';
import { type EdgetoolUIMessage, SEAL_PART, TICKET_PART, type TicketPartData } from './protocol.ts';

const keys = [{ id: 'k1', secret: 'earlier-results-secret-earlier-results' }];
const run = () => createRunContext({ conversationId: 'conv-r' });
const cleared = { cleared: 3 };
/** What the model reads of that output. */
const readCleared = { type: 'text', value: JSON.stringify(cleared) };


function fixture(options: { now?: () => number; nonceStore?: NonceStore; calls?: ReadonlyArray<readonly [string, string, unknown]> } = {}) {
  // The browser's tools, as the server declares them (no execute: the server hands their calls to the client).
  const policy = { runsOn: 'client', effects: 'destructive' } as const;
  const cartClear = defineTool({ name: 'cart_clear', description: 'Empty the cart', input: v.object({}), policy });
  const question = v.object({ question: v.string() });
  const pickDate = defineTool({ name: 'pick_date', description: 'The user picks a date', input: question, policy: { runsOn: 'client' } });
  const now = options.now ?? Date.now;
  const tickets = createTicketSigner({ keys, now, nonceStore: options.nonceStore ?? createMemoryNonceStore({ now }) });
  const model = scriptedModel(callsStep(options.calls ?? [['c1', 'cart_clear', {}]]), ...Array.from({ length: 6 }, (_, i) => textStep(`answer ${i}`)));
  const agent = createChatAgent({ model, tools: [cartClear, pickDate], tickets });
  return { agent, model, tickets };
}

/** What the model read for call `id` in its call number `index` (the tool-result's output), or `undefined`. */
function readFor(model: ReturnType<typeof fixture>['model'], index: number, id = 'c1'): unknown {
  return readInPrompt(model.doStreamCalls[index]?.prompt, id);
}

/** The model asks the browser to clear the cart; the browser does, and writes its result into the message. */
async function browserAnswered(fx: ReturnType<typeof fixture>, output: unknown = cleared) {
  const first = await fx.agent.generate({ messages: 'Empty my cart', run: run() });
  expect(first.pending).toEqual([expect.objectContaining({ toolCallId: 'c1', kind: 'client' })]);
  return { first, answered: addToolOutput(first.messages, 'c1', output) };
}

/** The seal parts of a message, by tool call id. */
const sealIds = (message: EdgetoolUIMessage) => message.parts.filter((p) => p.type === SEAL_PART).map((p) => (p as { id?: string }).id);

describe('a browser result of an earlier turn whose continuation got no answer', () => {
  it('the continuation never reached the server: the next message takes the result once, the model reads it, and the response seals it', async () => {
    const nonces = recording();
    const fx = fixture({ nonceStore: nonces.store });
    const { answered } = await browserAnswered(fx);
    // The continuation fails on the way (a network error): the user asks whether it worked.
    const next = await fx.agent.generate({ messages: userSays(answered, 'did the cart get cleared?'), run: run() });
    // It used to be refused as a forged result (403), unless the browser took the result back first, and then the model
    // knew of no such call.
    expect(readFor(fx.model, 1)).toEqual(readCleared);
    expect(nonces.claims).toEqual([true]);
    // Sealed in the response's message, since the message holding the result is not the one being written.
    expect(sealIds(next.message)).toEqual(['c1']);
    // The sealed history goes on with no claim at all; its ticket is spent with that answer.
    await fx.agent.generate({ messages: userSays(next.messages, 'thanks'), run: run() });
    expect(readFor(fx.model, 2)).toEqual(readCleared);
    expect(nonces.claims).toEqual([true]);
    // The continuation that failed, arriving late with another answer, is refused: the first answer is kept.
    const late = await refused(fx.agent.generate({ messages: addToolOutput(answered, 'c1', { cleared: 0 }), run: run() }));
    expect(late).toMatchObject({ problem: 'forged-result', callId: 'c1', cause: { reason: 'conflict' } });
  });

  it('the continuation reached the server and its answer was lost: the same result is taken again without a second claim', async () => {
    const nonces = recording();
    const fx = fixture({ nonceStore: nonces.store });
    const { answered } = await browserAnswered(fx);
    await fx.agent.generate({ messages: answered, run: run() });
    expect(nonces.claims).toEqual([true]);
    const next = await fx.agent.generate({ messages: userSays(answered, 'did the cart get cleared?'), run: run() });
    expect(readFor(fx.model, 2)).toEqual(readCleared);
    // The store handed back the answer its first claim kept: nothing was claimed again.
    expect(nonces.claims).toHaveLength(2);
    expect(nonces.claims[1]).toMatch(/^output /);
    expect(sealIds(next.message)).toEqual(['c1']);
  });

  it('a rewritten copy is not taken, whether the first answer came with the continuation or with the first new message', async () => {
    // The continuation reached the server; the copy that goes on shows another output, or an error (another tab that
    // answered second, or a rewrite). It was refused (403) at every message until the ticket expired; now the model reads
    // that the server took another answer, never this one, and nothing seals it.
    const otherwise = { type: 'error-text', value: ANSWERED_OTHERWISE_TEXT };
    const fx = fixture();
    const { answered } = await browserAnswered(fx);
    await fx.agent.generate({ messages: answered, run: run() });
    const errored = mapToolPart(answered, 'c1', ({ output: _output, ...p }) => ({ ...p, state: 'output-error', errorText: 'The user cancelled' }));
    for (const [index, rewritten] of [addToolOutput(answered, 'c1', { cleared: 0 }), errored].entries()) {
      const next = await fx.agent.generate({ messages: userSays(rewritten, 'and?'), run: run() });
      expect(readFor(fx.model, 2 + index)).toEqual(otherwise);
      expect(sealIds(next.message)).toEqual([]);
    }
    // The continuation never reached the server; a first new message takes the result, a later copy without the
    // response's seal rewrites it.
    const fy = fixture();
    const { answered: sent } = await browserAnswered(fy);
    await fy.agent.generate({ messages: userSays(sent, 'did it work?'), run: run() });
    await fy.agent.generate({ messages: userSays(addToolOutput(sent, 'c1', { cleared: 0 }), 'did it work?'), run: run() });
    expect(readFor(fy.model, 2)).toEqual(otherwise);
    // A copy that keeps the response's seal and rewrites the output is refused by the seal.
    const fz = fixture();
    const { answered: lost } = await browserAnswered(fz);
    const next = await fz.agent.generate({ messages: userSays(lost, 'did it work?'), run: run() });
    const resealed = userSays(addToolOutput(next.messages, 'c1', { cleared: 0 }), 'and?');
    expect((await refused(fz.agent.generate({ messages: resealed, run: run() }))).problem).toBe('forged-result');
    expect(fz.model.doStreamCalls).toHaveLength(2);
  });

  it('a forged ticket is refused and claims nothing: another call’s, another tool’s or other arguments', async () => {
    const nonces = recording();
    const fx = fixture({ nonceStore: nonces.store, calls: [['c1', 'cart_clear', {}], ['c2', 'pick_date', { question: 'When?' }]] });
    const first = await fx.agent.generate({ messages: 'Empty my cart and pick a day', run: run() });
    const answered = addToolOutput(addToolOutput(first.messages, 'c1', cleared), 'c2', '2026-12-24');
    const isTicketOf = (id: string) => (p: { type: string }) => p.type === TICKET_PART && (p as { id?: string }).id === id;
    const ticketOf = (id: string) => (answered.flatMap((m) => m.parts).find(isTicketOf(id)) as { data: TicketPartData }).data.ticket;
    // The history with c1's ticket replaced.
    const withTicket = (ticket: string) =>
      answered.map((m) => ({
        ...m,
        parts: m.parts.map((p) => (isTicketOf('c1')(p) ? { ...p, data: { ...(p as { data: TicketPartData }).data, ticket } } : p)),
      }));
    const forgeries = [
      withTicket(ticketOf('c2')), // another call's ticket
      withTicket(`${ticketOf('c1').slice(0, -4)}AAAA`), // not this server's signature
      mapToolPart(answered, 'c1', (p) => ({ ...p, input: { everything: true } })), // other arguments than the ticket binds
      mapToolPart(answered, 'c1', (p) => ({ ...p, type: 'tool-pick_date' })), // another tool
    ];
    for (const forged of forgeries) {
      const error = await refused(fx.agent.generate({ messages: userSays(forged as EdgetoolUIMessage[], 'so?'), run: run() }));
      expect(error).toMatchObject({ problem: 'forged-result', callId: 'c1' });
    }
    expect(nonces.claims).toEqual([]);
    // The honest history still goes on, and both results are read.
    await fx.agent.generate({ messages: userSays(answered, 'so?'), run: run() });
    expect([readFor(fx.model, 1, 'c1'), readFor(fx.model, 1, 'c2')]).toEqual([
      readCleared,
      { type: 'text', value: '2026-12-24' },
    ]);
  });

  it('the answers of one continuation were claimed together: the copy that goes on matches at its leader, a rewrite of another call does not', async () => {
    const calls = [['c1', 'cart_clear', {}], ['c2', 'pick_date', { question: 'When?' }]] as const;
    const fx = fixture({ calls });
    const first = await fx.agent.generate({ messages: 'Empty my cart and pick a day', run: run() });
    const answered = addToolOutput(addToolOutput(first.messages, 'c1', cleared), 'c2', '2026-12-24');
    await fx.agent.generate({ messages: answered, run: run() });
    // c2 rewritten: not taken on its own kept answer, nor c1 at the leader, whose kept answer names the whole copy.
    const rewritten = userSays(addToolOutput(answered, 'c2', '2030-01-01'), 'so?');
    const otherwise = await fx.agent.generate({ messages: rewritten, run: run() });
    const notTaken = { type: 'error-text', value: ANSWERED_OTHERWISE_TEXT };
    expect([readFor(fx.model, 2, 'c1'), readFor(fx.model, 2, 'c2')]).toEqual([notTaken, notTaken]);
    expect(sealIds(otherwise.message)).toEqual([]);
    const next = await fx.agent.generate({ messages: userSays(answered, 'so?'), run: run() });
    expect(readFor(fx.model, 3, 'c2')).toEqual({ type: 'text', value: '2026-12-24' });
    expect(sealIds(next.message)).toEqual(['c1', 'c2']);
  });

  it('once its ticket has expired, the server cannot confirm the result: the model reads an unknown outcome, and nothing is claimed', async () => {
    let time = 1_000_000;
    const nonces = recording(createMemoryNonceStore({ now: () => time }));
    const fx = fixture({ now: () => time, nonceStore: nonces.store });
    const { answered } = await browserAnswered(fx);
    time += 16 * 60 * 1000; // past the ticket's 15 minutes: the nonce store forgets a nonce and the answer it kept
    const next = await fx.agent.generate({ messages: userSays(addToolOutput(answered, 'c1', { cleared: 999 }), 'did it work?'), run: run() });
    expect(readFor(fx.model, 1)).toEqual({ type: 'error-text', value: UNCONFIRMED_RESULT_TEXT });
    expect(JSON.stringify(fx.model.doStreamCalls[1]?.prompt)).not.toContain('999');
    expect(nonces.claims).toEqual([]);
    expect(sealIds(next.message)).toEqual([]);
    // Expired or not, it has to be this server's ticket for that call.
    const forged = mapToolPart(answered, 'c1', (p) => ({ ...p, input: { everything: true } }));
    expect((await refused(fx.agent.generate({ messages: userSays(forged, 'so?'), run: run() }))).problem).toBe('forged-result');
  });

  it('a nonce store that keeps no answers (no claimDecision) confirms nothing on a used ticket: the model reads an unknown outcome', async () => {
    const memory = createMemoryNonceStore();
    const fx = fixture({ nonceStore: { claim: (nonce, expiresAt) => memory.claim(nonce, expiresAt) } });
    const { answered } = await browserAnswered(fx);
    await fx.agent.generate({ messages: answered, run: run() });
    // Same answer or another: the store cannot tell them apart, so the model reads neither.
    for (const [index, output] of [cleared, { cleared: 0 }].entries()) {
      await fx.agent.generate({ messages: userSays(addToolOutput(answered, 'c1', output), 'did it work?'), run: run() });
      expect(readFor(fx.model, 2 + index)).toEqual({ type: 'error-text', value: UNCONFIRMED_RESULT_TEXT });
    }
  });
});
