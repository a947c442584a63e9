// One conversation, two copies of it (two tabs, or a tab and a rewritten history): each answers the same browser call or
// the same approval, differently. The server takes one answer per ticket; what may it do with a history that shows the
// other one in an earlier message? Whatever it answers (a refusal, or a turn), a client must not get a tool run, an
// approval counted, or a result read by the model that it could not get before (first describe block); and the copy
// whose answer was not taken must be able to go on, reading what the server knows (second block).
import { createMemoryNonceStore, createRunContext, createTicketSigner, defineTool, type NonceStore } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { addToolOutput, approveWithEdits, mapToolPart, respondToApproval, userSays } from '../testing/client.ts';
import type { LanguageModelV4StreamResult } from '@ai-sdk/provider';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { deliveryMove, readInPrompt, recording, refused } from '../test-support/chat-streams.ts';
import { createMemoryCallResultStore } from './call-results.ts';
import { ANSWERED_OTHERWISE_TEXT, type ChatTurnResult, createChatAgent, UNCONFIRMED_RESULT_TEXT } from './chat-agent.ts';
import { type EdgetoolUIMessage, SEAL_PART } from './protocol.ts';
import { ContinuationError } from './verify-continuation.ts';

const keys = [{ id: 'k1', secret: 'forked-answers-secret-forked-answers' }];
const run = () => createRunContext({ conversationId: 'conv-f' });
const proposed = { order_id: 'A-1001', new_date: '2026-12-24' };


/**
 * The server: a browser tool (`pick_date`, the user picks a day), a write the server runs once approved
 * (`update_delivery_date`), a result store, and a model whose first step asks for `calls`, then takes `afterwards` (by
 * default, answers with text).
 */
function fixture(options: {
  calls: ReadonlyArray<readonly [string, string, unknown]>;
  afterwards?: LanguageModelV4StreamResult[];
  hang?: boolean;
  now?: () => number;
  nonceStore?: NonceStore;
}) {
  const { move, writes } = deliveryMove(options.hang);
  const pickDate = defineTool({ name: 'pick_date', description: 'The user picks a date', input: v.object({ question: v.string() }), policy: { runsOn: 'client' } });
  const now = options.now ?? Date.now;
  const tickets = createTicketSigner({ keys, now, nonceStore: options.nonceStore ?? createMemoryNonceStore({ now }) });
  const model = scriptedModel(callsStep(options.calls), ...(options.afterwards ?? Array.from({ length: 8 }, (_, i) => textStep(`answer ${i}`))));
  const agent = createChatAgent({ model, tools: [move, pickDate], tickets, callResults: createMemoryCallResultStore() });
  return { agent, model, writes };
}
type Fixture = ReturnType<typeof fixture>;

const askDate: [string, string, unknown] = ['c1', 'pick_date', { question: 'Which day?' }];
const askMove: [string, string, unknown] = ['c1', 'update_delivery_date', proposed];

/** What the model read for call `id` in its latest call (the tool-result's output), or `undefined`. */
function lastRead(model: Fixture['model'], id = 'c1'): unknown {
  return readInPrompt(model.doStreamCalls.at(-1)?.prompt, id);
}

/** The seal parts of a message, by tool call id. */
const sealIds = (message: EdgetoolUIMessage) => message.parts.filter((p) => p.type === SEAL_PART).map((p) => (p as { id?: string }).id);

/** The server's answer to a request: its turn, or the refusal (a `ContinuationError`; any other error fails the test). */
async function answerTo(promise: Promise<ChatTurnResult>): Promise<{ turn: ChatTurnResult; refusal?: undefined } | { turn?: undefined; refusal: ContinuationError }> {
  try {
    return { turn: await promise };
  } catch (error) {
    expect(error).toBeInstanceOf(ContinuationError);
    return { refusal: error as ContinuationError };
  }
}

/** The first response: the model asks for `calls`; both copies of the conversation start from it. */
async function asked(fx: Fixture, text = 'Pick a day') {
  return (await fx.agent.generate({ messages: text, run: run() })).messages;
}

const denied = (m: EdgetoolUIMessage[], id = 'c1') => respondToApproval(m, id, false, 'I never agreed');
const approved = (m: EdgetoolUIMessage[], id = 'c1') => respondToApproval(m, id, true);

describe('an earlier answer that another copy answered otherwise: what a client cannot get, whatever the server answers', () => {
  it('a browser result taken with one answer, shown with another: the model never reads the other, and nothing seals it', async () => {
    const fx = fixture({ calls: [askDate] });
    const first = await asked(fx);
    await fx.agent.generate({ messages: addToolOutput(first, 'c1', '2026-12-24'), run: run() });
    const calls = fx.model.doStreamCalls.length;
    for (const other of [addToolOutput(first, 'c1', '2030-01-01'), mapToolPart(first, 'c1', (p) => ({ ...p, state: 'output-error', errorText: 'The user picked none' }))]) {
      const answer = await answerTo(fx.agent.generate({ messages: userSays(other, 'so which day?'), run: run() }));
      if (answer.turn !== undefined) {
        expect(sealIds(answer.turn.message)).toEqual([]);
        expect(JSON.stringify(fx.model.doStreamCalls.at(-1)?.prompt)).not.toMatch(/2030-01-01|picked none|2026-12-24/);
      } else expect(fx.model.doStreamCalls).toHaveLength(calls);
      // Sent as the continuation it claims to be: still refused, and it burns nothing.
      expect((await refused(fx.agent.generate({ messages: other, run: run() }))).cause).toMatchObject({ reason: 'conflict' });
    }
  });

  it('a denial shown as an approval: the call never runs, now or later, and the model never reads that the user approved it', async () => {
    const fx = fixture({ calls: [askMove] });
    const first = await asked(fx, 'Move A-1001 to Dec 24');
    await fx.agent.generate({ messages: denied(first), run: run() });
    const answer = await answerTo(fx.agent.generate({ messages: userSays(approved(first), 'did it move?'), run: run() }));
    if (answer.turn !== undefined) {
      expect(JSON.stringify(fx.model.doStreamCalls.at(-1)?.prompt)).not.toMatch(/approved|updated/);
      expect(sealIds(answer.turn.message)).toEqual([]);
    }
    // The approval sent as a continuation after that message is refused, and nothing runs.
    expect((await refused(fx.agent.generate({ messages: approved(first), run: run() }))).problem).toBe('forged-approval');
    expect(fx.writes).toEqual([]);
  });

  it('an approval that ran, shown as a denial: no second run, and the model never reads a denial of a write that happened', async () => {
    const fx = fixture({ calls: [askMove] });
    const first = await asked(fx, 'Move A-1001 to Dec 24');
    await fx.agent.generate({ messages: approved(first), run: run() });
    expect(fx.writes).toHaveLength(1);
    const answer = await answerTo(fx.agent.generate({ messages: userSays(denied(first), 'did it move?'), run: run() }));
    if (answer.turn !== undefined) {
      expect(lastRead(fx.model)).not.toEqual({ type: 'error-text', value: 'Tool call execution denied.' });
      expect(JSON.stringify(fx.model.doStreamCalls.at(-1)?.prompt)).not.toContain('I never agreed');
      // A denial sealed here would tell every later request the same.
      expect(sealIds(answer.turn.message)).toEqual([]);
    }
    expect((await refused(fx.agent.generate({ messages: denied(first), run: run() }))).problem).toBe('forged-approval');
    expect(fx.writes).toHaveLength(1);
  });

  it('an approval given up on (nothing recorded), shown as a denial: the model never reads the denial (it may have run)', async () => {
    const fx = fixture({ calls: [askMove], hang: true });
    const first = await asked(fx, 'Move A-1001 to Dec 24');
    await fx.agent.generate({ messages: approved(first), run: run() });
    const answer = await answerTo(fx.agent.generate({ messages: userSays(denied(first), 'did it move?'), run: run() }));
    if (answer.turn !== undefined) expect(lastRead(fx.model)).not.toEqual({ type: 'error-text', value: 'Tool call execution denied.' });
    expect(fx.writes).toHaveLength(1);
  });

  it('an approval that ran with one edit, shown with another: the model reads what ran or nothing, never the other date', async () => {
    const fx = fixture({ calls: [askMove] });
    const first = await asked(fx, 'Move A-1001 to Dec 24');
    await fx.agent.generate({ messages: approveWithEdits(first, 'c1', { ...proposed, new_date: '2026-12-27' }), run: run() });
    const answer = await answerTo(fx.agent.generate({ messages: userSays(approveWithEdits(first, 'c1', { ...proposed, new_date: '2026-12-31' }), 'so?'), run: run() }));
    if (answer.turn !== undefined) expect(JSON.stringify(fx.model.doStreamCalls.at(-1)?.prompt)).not.toContain('2026-12-31');
    expect(fx.writes).toEqual([{ ...proposed, new_date: '2026-12-27' }]);
  });

  it('two answers of one message, one of them shown otherwise: the model never reads that one, and nothing seals it', async () => {
    const fx = fixture({ calls: [askDate, ['c2', 'pick_date', { question: 'And the other?' }]] });
    const first = await asked(fx);
    const both = addToolOutput(addToolOutput(first, 'c1', '2026-12-24'), 'c2', '2026-12-25');
    await fx.agent.generate({ messages: both, run: run() });
    const answer = await answerTo(fx.agent.generate({ messages: userSays(addToolOutput(both, 'c2', '2030-01-01'), 'so?'), run: run() }));
    if (answer.turn !== undefined) {
      expect(JSON.stringify(fx.model.doStreamCalls.at(-1)?.prompt)).not.toContain('2030-01-01');
      expect(sealIds(answer.turn.message)).toEqual([]);
    }
  });

  it('a rewritten earlier answer is no way past the origin check: another call’s arguments are refused and claim nothing', async () => {
    const nonces = recording();
    const fx = fixture({ calls: [askMove], nonceStore: nonces.store });
    const first = await asked(fx, 'Move A-1001 to Dec 24');
    await fx.agent.generate({ messages: denied(first), run: run() });
    const claims = nonces.claims.length;
    const moved = mapToolPart(approved(first), 'c1', (p) => ({ ...p, input: { ...proposed, order_id: 'A-2002' } }));
    expect((await refused(fx.agent.generate({ messages: userSays(moved, 'so?'), run: run() }))).problem).toBe('forged-approval');
    const picked = fixture({ calls: [askDate] });
    const asking = await asked(picked);
    await picked.agent.generate({ messages: addToolOutput(asking, 'c1', '2026-12-24'), run: run() });
    const other = mapToolPart(addToolOutput(asking, 'c1', '2030-01-01'), 'c1', (p) => ({ ...p, input: { question: 'Anything?' } }));
    expect((await refused(picked.agent.generate({ messages: userSays(other, 'so?'), run: run() }))).problem).toBe('forged-result');
    expect(nonces.claims).toHaveLength(claims);
    expect(fx.writes).toEqual([]);
  });
});

describe('a conversation forked in two tabs, each answering the same call otherwise, then each going on', () => {
  const date = (value: string) => ({ type: 'text', value });
  const unknown = { type: 'error-text', value: ANSWERED_OTHERWISE_TEXT };

  it('a browser call: the second tab’s continuation is refused, and its next messages go on with the outcome unknown', async () => {
    const more = [textStep('booked'), callsStep([['c9', 'pick_date', { question: 'And the next one?' }]]), ...Array.from({ length: 6 }, (_, i) => textStep(`answer ${i}`))];
    const fx = fixture({ calls: [askDate], afterwards: more });
    const first = await asked(fx);
    const tabA = addToolOutput(first, 'c1', '2026-12-24');
    const tabB = addToolOutput(first, 'c1', '2027-01-05');
    const a1 = await fx.agent.generate({ messages: tabA, run: run() });
    expect(lastRead(fx.model)).toEqual(date('2026-12-24'));
    // The second tab's continuation: its answer is not taken (a 403), as before; the message says how to go on.
    const error = await refused(fx.agent.generate({ messages: tabB, run: run() }));
    expect(error).toMatchObject({ problem: 'forged-result', callId: 'c1', cause: { reason: 'conflict' } });
    expect(error.message).toMatch(/answered before with another result.*another tab.*A new message goes on/);
    // Its next message went the same way (403), and every later one: the chat was stuck until its ticket expired. Now
    // the model reads that the outcome is unknown, never the second tab's date, and nothing seals it.
    const b1 = await fx.agent.generate({ messages: userSays(tabB, 'is it booked?'), run: run() });
    expect(lastRead(fx.model)).toEqual(unknown);
    expect(JSON.stringify(fx.model.doStreamCalls.at(-1)?.prompt)).not.toContain('2027-01-05');
    expect(sealIds(b1.message)).toEqual([]);
    // The model asked for another browser call there: its answer is this tab's to give, and it is taken.
    expect(b1.pending).toEqual([expect.objectContaining({ toolCallId: 'c9', kind: 'client' })]);
    const b2 = await fx.agent.generate({ messages: addToolOutput(b1.messages, 'c9', '2027-02-01'), run: run() });
    expect([lastRead(fx.model, 'c1'), lastRead(fx.model, 'c9')]).toEqual([unknown, date('2027-02-01')]);
    expect(sealIds(b2.message)).toEqual(['c9']);
    await fx.agent.generate({ messages: userSays(b2.messages, 'thanks'), run: run() });
    expect([lastRead(fx.model, 'c1'), lastRead(fx.model, 'c9')]).toEqual([unknown, date('2027-02-01')]);
    // The first tab goes on from its sealed answer, as before.
    await fx.agent.generate({ messages: userSays(a1.messages, 'thanks'), run: run() });
    expect(lastRead(fx.model)).toEqual(date('2026-12-24'));
  });

  it('a browser call answered with an error in one tab and a date in the other, the tab of the error going on second', async () => {
    const fx = fixture({ calls: [askDate] });
    const first = await asked(fx);
    const failed = mapToolPart(first, 'c1', (p) => ({ ...p, state: 'output-error', errorText: 'The user closed the picker' }));
    await fx.agent.generate({ messages: addToolOutput(first, 'c1', '2026-12-24'), run: run() });
    // This tab never sent its continuation (the other had answered by then): its first message carries the answer.
    await fx.agent.generate({ messages: userSays(failed, 'never mind'), run: run() });
    expect(lastRead(fx.model)).toEqual(unknown);
  });

  it('an approval approved in one tab (the call ran) and denied in the other: the second tab’s model reads the recorded result', async () => {
    const fx = fixture({ calls: [askMove] });
    const first = await asked(fx, 'Move A-1001 to Dec 24');
    const a1 = await fx.agent.generate({ messages: approved(first), run: run() });
    expect(fx.writes).toEqual([proposed]);
    expect((await refused(fx.agent.generate({ messages: denied(first), run: run() }))).problem).toBe('forged-approval');
    // It was refused ("answered before and the call ran") at every later message of that tab, for the record's 30 days.
    const b1 = await fx.agent.generate({ messages: userSays(denied(first), 'did it move?'), run: run() });
    const ran = date(JSON.stringify({ ...proposed, updated: true }));
    expect(lastRead(fx.model)).toEqual(ran);
    expect(JSON.stringify(fx.model.doStreamCalls.at(-1)?.prompt)).not.toContain('I never agreed');
    await fx.agent.generate({ messages: userSays(b1.messages, 'and now?'), run: run() });
    expect(lastRead(fx.model)).toEqual(ran);
    await fx.agent.generate({ messages: userSays(a1.messages, 'thanks'), run: run() });
    expect(lastRead(fx.model)).toEqual(ran);
    expect(fx.writes).toEqual([proposed]);
  });

  it('an approval denied in one tab and approved in the other: it never runs, and the second tab’s model reads an unknown outcome', async () => {
    const fx = fixture({ calls: [askMove] });
    const first = await asked(fx, 'Move A-1001 to Dec 24');
    const a1 = await fx.agent.generate({ messages: denied(first), run: run() });
    expect((await refused(fx.agent.generate({ messages: approved(first), run: run() }))).problem).toBe('forged-approval');
    // The server cannot tell this from a call still running in the other tab: unknown, not approved, nothing runs.
    const b1 = await fx.agent.generate({ messages: userSays(approved(first), 'did it move?'), run: run() });
    expect(lastRead(fx.model)).toEqual(unknown);
    // The tab's Retry of its continuation: still refused.
    expect((await refused(fx.agent.generate({ messages: approved(first), run: run() }))).problem).toBe('forged-approval');
    await fx.agent.generate({ messages: userSays(b1.messages, 'hello?'), run: run() });
    expect(lastRead(fx.model)).toEqual(unknown);
    // The first tab reads its sealed denial, with the reason its user gave.
    await fx.agent.generate({ messages: userSays(a1.messages, 'ok'), run: run() });
    expect(lastRead(fx.model)).toEqual({ type: 'error-text', value: 'I never agreed' });
    expect(fx.writes).toEqual([]);
  });

  it('an approval approved in one tab whose call was given up on (nothing recorded) and denied in the other: unknown, not denied', async () => {
    const fx = fixture({ calls: [askMove], hang: true });
    const first = await asked(fx, 'Move A-1001 to Dec 24');
    await fx.agent.generate({ messages: approved(first), run: run() });
    await fx.agent.generate({ messages: userSays(denied(first), 'did it move?'), run: run() });
    expect(lastRead(fx.model)).toEqual(unknown);
    expect(fx.writes).toHaveLength(1);
  });

  it('two browser calls of one step, one answered otherwise: both read unknown, since the first ticket kept the whole copy', async () => {
    const fx = fixture({ calls: [askDate, ['c2', 'pick_date', { question: 'And the other?' }]] });
    const first = await asked(fx);
    const both = (second: string) => addToolOutput(addToolOutput(first, 'c1', '2026-12-24'), 'c2', second);
    await fx.agent.generate({ messages: both('2026-12-25'), run: run() });
    await fx.agent.generate({ messages: userSays(both('2027-01-05'), 'so?'), run: run() });
    expect([lastRead(fx.model, 'c1'), lastRead(fx.model, 'c2')]).toEqual([unknown, unknown]);
  });

  it('what it costs: one claim of the earlier answer per request, which writes nothing, and none once its ticket has expired', async () => {
    let time = 1_000_000;
    const nonces = recording(createMemoryNonceStore({ now: () => time }));
    const more = [textStep('booked'), ...Array.from({ length: 6 }, (_, i) => textStep(`answer ${i}`))];
    const fx = fixture({ calls: [askDate], afterwards: more, now: () => time, nonceStore: nonces.store });
    const first = await asked(fx);
    await fx.agent.generate({ messages: addToolOutput(first, 'c1', '2026-12-24'), run: run() });
    const taken = nonces.claims.at(-1);
    expect(taken).toBe(true);
    let history = addToolOutput(first, 'c1', '2027-01-05');
    for (const text of ['is it booked?', 'hello?']) {
      const before = nonces.claims.length;
      history = (await fx.agent.generate({ messages: userSays(history, text), run: run() })).messages;
      // The other tab's answer, read back: a used nonce keeps its first decision, so nothing is written.
      expect(nonces.claims.slice(before)).toEqual([expect.stringMatching(/^output /)]);
    }
    time += 16 * 60 * 1000;
    const before = nonces.claims.length;
    await fx.agent.generate({ messages: userSays(history, 'and now?'), run: run() });
    expect(nonces.claims).toHaveLength(before);
  });

  it('once the ticket has expired, the second tab reads what any expired answer reads', async () => {
    let time = 1_000_000;
    const fx = fixture({ calls: [askDate], now: () => time });
    const first = await asked(fx);
    await fx.agent.generate({ messages: addToolOutput(first, 'c1', '2026-12-24'), run: run() });
    time += 16 * 60 * 1000;
    await fx.agent.generate({ messages: userSays(addToolOutput(first, 'c1', '2027-01-05'), 'so?'), run: run() });
    expect(lastRead(fx.model)).toEqual({ type: 'error-text', value: UNCONFIRMED_RESULT_TEXT });
  });
});
