// A continuation (an approval, a browser tool's result) whose request failed before any of its answer reached the
// browser: a Worker 500, a connection cut, the model's error on the first step. The browser still holds the message as
// it sent it (or with the seals and results that came before the error), and its Retry sends that very continuation
// again. What does the server do with it, for each point the first request may have failed at? Never a write run twice,
// never an answer taken that differs from the first; and, where the server knows what happened, the turn goes on.
import type { LanguageModelV4StreamPart, LanguageModelV4StreamResult } from '@ai-sdk/provider';
import { createMemoryNonceStore, createRunContext, createTicketSigner, defineTool, type NonceStore } from '@edgetool/core';
import type { UIMessageChunk } from 'ai';
import { convertArrayToReadableStream } from 'ai/test';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { addToolOutput, respondToApproval, userSays } from '../testing/client.ts';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { deliveryMove, foldInto, readAll, readInPrompt, recording, refused } from '../test-support/chat-streams.ts';
import { NOT_STARTED_TEXT, UNKNOWN_OUTCOME_TEXT } from './ai-tools.ts';
import { type CallResultStore, createMemoryCallResultStore, NOT_STARTED_RECORD_TEXT, type RecordedCallResult } from './call-results.ts';
import { createChatAgent } from './chat-agent.ts';
import { type EdgetoolUIMessage, SEAL_PART } from './protocol.ts';

const keys = [{ id: 'k1', secret: 'failed-continuation-secret-32-bytes!' }];
const run = () => createRunContext({ conversationId: 'conv-failed' });
const proposed = { order_id: 'A-1001', new_date: '2026-12-24' };
const cleared = { cleared: 2 };

/** A model step whose provider fails before any of its answer (an error part right after the stream starts). */
const failingStep = (): LanguageModelV4StreamResult => ({
  stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
    { type: 'stream-start', warnings: [] },
    { type: 'error', error: new Error('The provider failed') },
  ]),
});

/**
 * The server: a write it runs once approved, a browser tool, a nonce store that records each claim (and can fail once,
 * as a database that is down), and a model whose first step asks for `call`, then takes `afterwards`.
 */
function fixture(call: readonly [string, string, unknown], afterwards: LanguageModelV4StreamResult[], callResults: CallResultStore = createMemoryCallResultStore()) {
  const { move, writes } = deliveryMove();
  const cartClear = defineTool({ name: 'cart_clear', description: 'Empty the cart', input: v.object({}), policy: { runsOn: 'client', effects: 'destructive' } });
  const memory = createMemoryNonceStore();
  let down = false;
  let markDown = false;
  // A claim held until released (`holdNextClaim`): the next plain claim (an approved call's "started" mark) waits, before
  // it reaches the store, or (`after`) once it has taken the mark.
  let held: { reached: () => void; released: Promise<void>; after: boolean } | undefined;
  const flaky: NonceStore = {
    claim: async (n, e) => {
      if (markDown) {
        markDown = false;
        throw new Error('D1_ERROR: the database is unavailable');
      }
      const hold = held;
      held = undefined;
      if (hold === undefined) return memory.claim(n, e);
      const taken = hold.after ? await memory.claim(n, e) : undefined;
      hold.reached();
      await hold.released;
      return taken ?? memory.claim(n, e);
    },
    has: (n) => memory.has?.(n) ?? Promise.resolve(false),
    claimDecision: async (n, e, d) => {
      if (down) {
        down = false;
        throw new Error('D1_ERROR: the database is unavailable');
      }
      return (memory.claimDecision as NonNullable<NonceStore['claimDecision']>)(n, e, d);
    },
  };
  const { store, claims } = recording(flaky);
  const tickets = createTicketSigner({ keys, nonceStore: store });
  const model = scriptedModel(callsStep([call]), ...afterwards);
  const errors: unknown[] = [];
  const agent = createChatAgent({ model, tools: [move, cartClear], tickets, callResults, maxRetries: 0, onError: ({ error }) => errors.push(error) });
  const holdNextClaim = (after = false) => {
    let reach = () => {};
    let release = () => {};
    const reached = new Promise<void>((resolve) => {
      reach = resolve;
    });
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    held = { reached: reach, released, after };
    return { reached, release: () => release() };
  };
  return { agent, model, writes, claims, errors, storeFailsOnce: () => (down = true), markFailsOnce: () => (markDown = true), holdNextClaim };
}
type Fixture = ReturnType<typeof fixture>;

/** The request the browser sends (and its Retry sends again): the first answer, with the user's approval. */
async function approvedMove(fx: Fixture): Promise<EdgetoolUIMessage[]> {
  const first = await fx.agent.generate({ messages: 'Move A-1001 to Christmas Eve', run: run() });
  return respondToApproval(first.messages, 'c1', true);
}

/** What the model read for the call in its latest request. */
const lastRead = (fx: Fixture) => readInPrompt(fx.model.doStreamCalls.at(-1)?.prompt, 'c1');
const asText = (value: unknown) => ({ type: 'text', value: JSON.stringify(value) });
const types = (chunks: readonly UIMessageChunk[]) => chunks.map((chunk) => chunk.type);

/** The chunks of a response up to (not with) its error: what the browser folds into the message it continued. */
const beforeError = (chunks: readonly UIMessageChunk[]) => chunks.slice(0, chunks.findIndex((chunk) => chunk.type === 'error'));

describe('an approval sent again after its continuation failed', () => {
  it('before the claim (the nonce store failed: a Worker 500): nothing was claimed or run, and the retry runs the write once', async () => {
    const fx = fixture(['c1', 'update_delivery_date', proposed], [textStep('Moved.')]);
    const continued = await approvedMove(fx);
    fx.storeFailsOnce();
    await expect(fx.agent.stream({ messages: continued, run: run() })).rejects.toThrow('the database is unavailable');
    expect(fx.claims).toEqual([]);
    expect(fx.writes).toEqual([]);

    const retry = await fx.agent.generate({ messages: continued, run: run() });
    expect(retry.finishReason).toBe('stop');
    expect(fx.claims).toEqual([true]);
    expect(fx.writes).toEqual([proposed]);
    expect(lastRead(fx)).toEqual(asText({ ...proposed, updated: true }));
  });

  it('after the claim, before the tool ran (the client went away at once): the retry runs the write once and a later one reads its result', async () => {
    const fx = fixture(['c1', 'update_delivery_date', proposed], [textStep('Moved.'), textStep('Moved, as I said.')]);
    const continued = await approvedMove(fx);
    const turn = await fx.agent.stream({ messages: continued, run: run() });
    await turn.stream.cancel('the connection was cut');
    await turn.usage;
    expect(fx.claims).toEqual([true]);
    expect(fx.writes).toEqual([]);

    // The claim kept "approved", so the retry is the same answer (no 403), confirmed by the store; and no "started" mark
    // was claimed for the call, so it never started: it runs now, once, and its result is recorded.
    const retry = await fx.agent.generate({ messages: continued, run: run() });
    expect(retry.finishReason).toBe('stop');
    expect(fx.claims).toEqual([true, 'approved']);
    expect(fx.writes).toEqual([proposed]);
    expect(lastRead(fx)).toEqual(asText({ ...proposed, updated: true }));

    const again = await fx.agent.generate({ messages: continued, run: run() });
    expect(again.finishReason).toBe('stop');
    expect(fx.writes).toEqual([proposed]);
    expect(lastRead(fx)).toEqual(asText({ ...proposed, updated: true }));
  });

  it('after the claim, while the first request is about to run it: the retry runs it, and the first request does not (the write ran once)', async () => {
    const fx = fixture(['c1', 'update_delivery_date', proposed], [textStep('Moved.'), textStep('I cannot tell whether it moved.')]);
    const continued = await approvedMove(fx);
    // The first request claims the ticket, and its mark's claim is slow (a store under load): the user's Retry comes in.
    const hold = fx.holdNextClaim();
    const first = readAll((await fx.agent.stream({ messages: continued, run: run() })).stream);
    await hold.reached;
    const retry = await fx.agent.generate({ messages: continued, run: run() });
    expect(retry.finishReason).toBe('stop');
    expect(fx.writes).toEqual([proposed]);
    expect(lastRead(fx)).toEqual(asText({ ...proposed, updated: true }));

    // The first request's mark comes back taken: it does not run the call, and its model reads an unknown outcome.
    hold.release();
    await first;
    expect(fx.writes).toEqual([proposed]);
    expect(lastRead(fx)).toEqual({ type: 'error-text', value: UNKNOWN_OUTCOME_TEXT });
  });

  it('a copy that approves what a cut request denied, with a nonce store that keeps no decisions: not run (nothing confirms the same answer)', async () => {
    const { move, writes } = deliveryMove();
    const plain = createMemoryNonceStore();
    const store: NonceStore = { claim: (n, e) => plain.claim(n, e), has: (n) => plain.has?.(n) ?? Promise.resolve(false) };
    const tickets = createTicketSigner({ keys, nonceStore: store });
    const model = scriptedModel(callsStep([['c1', 'update_delivery_date', proposed]]), textStep('Not moved.'), textStep('I cannot tell whether it moved.'));
    const agent = createChatAgent({ model, tools: [move], tickets, callResults: createMemoryCallResultStore(), maxRetries: 0, onError: () => {} });
    const first = await agent.generate({ messages: 'Move A-1001 to Christmas Eve', run: run() });
    const turn = await agent.stream({ messages: respondToApproval(first.messages, 'c1', false, 'No'), run: run() });
    await turn.stream.cancel('the connection was cut');
    await turn.usage;

    // The ticket's store kept no decision, so this approving copy reads as the same continuation sent again; no record,
    // no mark, but nothing confirms it approved the first time: it is not run, and the outcome reads unknown.
    const retry = await agent.generate({ messages: respondToApproval(first.messages, 'c1', true), run: run() });
    expect(retry.finishReason).toBe('stop');
    expect(writes).toEqual([]);
    expect(readInPrompt(model.doStreamCalls.at(-1)?.prompt, 'c1')).toEqual({ type: 'error-text', value: UNKNOWN_OUTCOME_TEXT });
  });

  it('when the call cannot be marked started (the store failed right after the claim): not run, and the retry reads that', async () => {
    const fx = fixture(['c1', 'update_delivery_date', proposed], [textStep('It was not moved.'), textStep('It was not moved.')]);
    const continued = await approvedMove(fx);
    fx.markFailsOnce();
    const turn = await fx.agent.generate({ messages: continued, run: run() });
    expect(turn.finishReason).toBe('stop');
    expect(fx.writes).toEqual([]);
    const notRun = { type: 'error-text', value: expect.stringContaining(NOT_STARTED_TEXT) };
    expect(lastRead(fx)).toEqual(notRun);

    // Run without its mark, a retry could not tell that it had run: so it did not, and the retry reads that record.
    const retry = await fx.agent.generate({ messages: continued, run: run() });
    expect(retry.finishReason).toBe('stop');
    expect(fx.writes).toEqual([]);
    expect(lastRead(fx)).toEqual(notRun);
  });

  it('after the tool ran (the model failed on its first step): the retry reads the recorded result, and the write ran once', async () => {
    const fx = fixture(['c1', 'update_delivery_date', proposed], [failingStep(), textStep('Moved.'), textStep('Moved, as I said.')]);
    const continued = await approvedMove(fx);
    const chunks = await readAll((await fx.agent.stream({ messages: continued, run: run() })).stream);
    expect(types(chunks)).toEqual(['start', SEAL_PART, 'data-edgetool-trace', 'tool-output-available', 'start-step', 'error', 'finish-step', 'finish']);
    expect(fx.writes).toEqual([proposed]);

    // Nothing of that answer reached the browser (a proxy cut it): the message as it was sent.
    const retry = await fx.agent.generate({ messages: continued, run: run() });
    expect(retry.finishReason).toBe('stop');
    expect(fx.writes).toEqual([proposed]);
    expect(lastRead(fx)).toEqual(asText({ ...proposed, updated: true }));

    // What came before the error reached it (the result and its seal): the message with them goes on from the sealed
    // result, and claims nothing.
    const kept = [...continued.slice(0, -1), await foldInto(continued.at(-1), beforeError(chunks))];
    const claims = fx.claims.length;
    const goesOn = await fx.agent.generate({ messages: kept, run: run() });
    expect(goesOn.finishReason).toBe('stop');
    expect(goesOn.message.parts.filter((part) => part.type === 'text')).toMatchObject([{ text: 'Moved, as I said.' }]);
    expect(fx.claims).toHaveLength(claims);
    expect(fx.writes).toEqual([proposed]);
    expect(lastRead(fx)).toEqual(asText({ ...proposed, updated: true }));
  });

  it('sent again as a denial: refused, and the write is not undone in what the model reads', async () => {
    const fx = fixture(['c1', 'update_delivery_date', proposed], [failingStep(), textStep('Moved.')]);
    const continued = await approvedMove(fx);
    await readAll((await fx.agent.stream({ messages: continued, run: run() })).stream);
    const otherwise = respondToApproval(continued, 'c1', false, 'No');
    const error = await refused(fx.agent.generate({ messages: otherwise, run: run() }));
    expect(error.problem).toBe('forged-approval');
    expect(fx.writes).toEqual([proposed]);
  });
});

/** A result store that keeps what is put in it (`puts`), can fail its next writes (a database that is down), and says when a write was tried. */
function watchedResults() {
  const memory = createMemoryCallResultStore();
  const puts: RecordedCallResult[] = [];
  let failures = 0;
  let tried = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  const store: CallResultStore = {
    get: (key) => memory.get(key),
    put: async (key, result, expiresAt) => {
      try {
        if (failures > 0) {
          failures--;
          throw new Error('D1_ERROR: the database is unavailable');
        }
        memory.put(key, result, expiresAt);
        puts.push(result);
      } finally {
        tried++;
        for (const waiter of waiting) if (tried >= waiter.count) waiter.resolve();
      }
    },
  };
  /** Resolves once `count` writes were tried in all. */
  const triedPuts = (count: number) => new Promise<void>((resolve) => (tried >= count ? resolve() : waiting.push({ count, resolve })));
  return { store, puts, triedPuts, failNextPut: () => failures++ };
}
type Watched = ReturnType<typeof watchedResults>;

const notStarted = { errorText: NOT_STARTED_RECORD_TEXT };
const unknownRead = { type: 'error-text', value: UNKNOWN_OUTCOME_TEXT };
const macrotasks = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setTimeout(resolve, 0));
};
const steps = (n: number) => Array.from({ length: n }, () => textStep('Done.'));

/**
 * The first request of `continued` reads its response, and the client leaves while the call's "started" mark is on its
 * way back, taken (`hold`: the mark is held after the store took it): the turn is aborted before the call starts.
 */
async function leaveAfterMark(fx: Fixture, continued: EdgetoolUIMessage[], hold = fx.holdNextClaim(true)) {
  const turn = await fx.agent.stream({ messages: continued, run: run() });
  const reader = turn.stream.getReader();
  const reading = (async () => {
    for (;;) if ((await reader.read()).done) return;
  })();
  await hold.reached;
  return async (results: Watched, puts = 1) => {
    await reader.cancel('the connection was cut');
    hold.release();
    await reading;
    await turn.usage;
    // The given-up call settles in microtasks after its mark came back; a few macrotasks bound the wait for its record,
    // so that a request that wrote none fails the test's assertions instead of hanging it.
    await Promise.race([results.triedPuts(puts), macrotasks(5)]);
  };
}

describe('an approval whose first request was cut between its "started" mark and its run (approve34)', () => {
  const call = ['c1', 'update_delivery_date', proposed] as const;

  it('is recorded as not started: the retry runs the write once (a second mark), a later one reads its result', async () => {
    const results = watchedResults();
    const fx = fixture(call, steps(3), results.store);
    const continued = await approvedMove(fx);
    await (await leaveAfterMark(fx, continued))(results);
    expect(fx.writes).toEqual([]);
    expect(results.puts).toEqual([notStarted]);

    const retry = await fx.agent.generate({ messages: continued, run: run() });
    expect(retry.finishReason).toBe('stop');
    expect(fx.writes).toEqual([proposed]);
    expect(lastRead(fx)).toEqual(asText({ ...proposed, updated: true }));
    expect(results.puts).toEqual([notStarted, { output: { ...proposed, updated: true } }]);

    const again = await fx.agent.generate({ messages: continued, run: run() });
    expect(again.finishReason).toBe('stop');
    expect(fx.writes).toEqual([proposed]);
    expect(lastRead(fx)).toEqual(asText({ ...proposed, updated: true }));
  });

  it("hands the record's write to the request's waitUntil, which keeps it past a client that left; the retry's result too (review34)", async () => {
    const results = watchedResults();
    const fx = fixture(call, steps(2), results.store);
    const continued = await approvedMove(fx);
    const handed: Promise<unknown>[] = [];
    const hold = fx.holdNextClaim(true);
    const turn = await fx.agent.stream({ messages: continued, run: run(), waitUntil: (work) => handed.push(work) });
    const reader = turn.stream.getReader();
    const reading = (async () => {
      for (;;) if ((await reader.read()).done) return;
    })();
    await hold.reached;
    await reader.cancel('the connection was cut');
    hold.release();
    await reading;
    await turn.usage;
    await Promise.race([results.triedPuts(1), macrotasks(5)]);
    // What a Worker keeps alive after its client left: the "not started" record, and nothing else of the turn.
    expect(handed).toHaveLength(1);
    await Promise.all(handed);
    expect(results.puts).toEqual([notStarted]);
    // The retry's result is handed on too; a waitUntil that throws (its request is over) changes nothing.
    const retry = await fx.agent.generate({
      messages: continued,
      run: run(),
      waitUntil: (work) => {
        handed.push(work);
        throw new Error('waitUntil() called after the response');
      },
    });
    expect(retry.finishReason).toBe('stop');
    expect(handed).toHaveLength(2);
    expect(fx.writes).toEqual([proposed]);
    expect(results.puts).toEqual([notStarted, { output: { ...proposed, updated: true } }]);
  });

  it("a client's own result with the not-started text never runs the call again: ran, or cut and rerun (review34, held)", async () => {
    const results = watchedResults();
    const fx = fixture(call, steps(4), results.store);
    const continued = await approvedMove(fx);
    /** The continuation with the call's part answered by the client: a failure in the record's very words. */
    const forged = (): EdgetoolUIMessage[] => {
      const copy = structuredClone(continued);
      const last = copy.at(-1) as EdgetoolUIMessage;
      last.parts = last.parts.map((part) =>
        'toolCallId' in part && part.toolCallId === 'c1' ? ({ ...part, state: 'output-error', errorText: NOT_STARTED_RECORD_TEXT } as typeof part) : part,
      );
      return copy;
    };
    const outcome = (promise: Promise<unknown>) => promise.then(() => 'answered', (error: unknown) => (error as Error).name);
    // Before it ran: refused as a forged result (a server call's result comes sealed), and nothing is claimed.
    expect(await outcome(fx.agent.generate({ messages: forged(), run: run() }))).toBe('ContinuationError');
    expect(fx.writes).toEqual([]);
    // It runs once (the real approval); the forged "not started" sent after that is refused, the approval again reads
    // the record.
    await fx.agent.generate({ messages: continued, run: run() });
    expect(fx.writes).toEqual([proposed]);
    expect(await outcome(fx.agent.generate({ messages: forged(), run: run() }))).toBe('ContinuationError');
    expect(await outcome(fx.agent.generate({ messages: continued, run: run() }))).toBe('answered');
    expect(fx.writes).toEqual([proposed]);
    expect(results.puts.filter((put) => 'errorText' in put)).toEqual([]);
  });

  it('two retries at once run it once: the one that takes the second mark; the other reads unknown, a third the result', async () => {
    const results = watchedResults();
    const fx = fixture(call, steps(4), results.store);
    const continued = await approvedMove(fx);
    await (await leaveAfterMark(fx, continued))(results);
    // The first retry's second mark is slow (held before it reaches the store): the second retry takes it.
    const hold = fx.holdNextClaim();
    const slow = fx.agent.generate({ messages: continued, run: run() });
    await hold.reached;
    const fast = await fx.agent.generate({ messages: continued, run: run() });
    expect(fast.finishReason).toBe('stop');
    expect(fx.writes).toEqual([proposed]);
    expect(lastRead(fx)).toEqual(asText({ ...proposed, updated: true }));
    hold.release();
    expect((await slow).finishReason).toBe('stop');
    expect(fx.writes).toEqual([proposed]);
    expect(lastRead(fx)).toEqual(unknownRead);

    // And sent at the very same time, with nothing held: one runs it.
    const bothResults = watchedResults();
    const both = fixture(call, steps(3), bothResults.store);
    const twice = await approvedMove(both);
    await (await leaveAfterMark(both, twice))(bothResults);
    await Promise.all([both.agent.generate({ messages: twice, run: run() }), both.agent.generate({ messages: twice, run: run() })]);
    expect(both.writes).toEqual([proposed]);

    const third = await fx.agent.generate({ messages: continued, run: run() });
    expect(third.finishReason).toBe('stop');
    expect(fx.writes).toEqual([proposed]);
    expect(lastRead(fx)).toEqual(asText({ ...proposed, updated: true }));
  });

  it('a retry while the first request still holds its mark before the run reads unknown; once that one is cut, the next retry runs it once', async () => {
    const results = watchedResults();
    const fx = fixture(call, steps(3), results.store);
    const continued = await approvedMove(fx);
    const leave = await leaveAfterMark(fx, continued);
    const early = await fx.agent.generate({ messages: continued, run: run() });
    expect(early.finishReason).toBe('stop');
    expect(fx.writes).toEqual([]);
    expect(lastRead(fx)).toEqual(unknownRead);

    await leave(results);
    expect(results.puts).toEqual([notStarted]);
    const retry = await fx.agent.generate({ messages: continued, run: run() });
    expect(retry.finishReason).toBe('stop');
    expect(fx.writes).toEqual([proposed]);
    expect(lastRead(fx)).toEqual(asText({ ...proposed, updated: true }));
  });

  it('a first request whose mark came back with the turn still on runs the call (nothing recorded as not started)', async () => {
    const results = watchedResults();
    const fx = fixture(call, steps(2), results.store);
    const continued = await approvedMove(fx);
    const hold = fx.holdNextClaim(true);
    const first = readAll((await fx.agent.stream({ messages: continued, run: run() })).stream);
    await hold.reached;
    hold.release();
    await first;
    expect(fx.writes).toEqual([proposed]);
    expect(results.puts).toEqual([{ output: { ...proposed, updated: true } }]);
  });

  it('when the "not started" record cannot be written (the store is down): reported, and the retry reads unknown, as before', async () => {
    const results = watchedResults();
    const fx = fixture(call, steps(2), results.store);
    const continued = await approvedMove(fx);
    results.failNextPut();
    await (await leaveAfterMark(fx, continued))(results);
    expect(results.puts).toEqual([]);
    expect(fx.errors).toContainEqual(expect.objectContaining({ message: 'D1_ERROR: the database is unavailable' }));
    const retry = await fx.agent.generate({ messages: continued, run: run() });
    expect(retry.finishReason).toBe('stop');
    expect(fx.writes).toEqual([]);
    expect(lastRead(fx)).toEqual(unknownRead);
  });

  it('when the second mark fails (the store is down): not run (unknown, as a replay whose mark fails); the next retry runs it once', async () => {
    const results = watchedResults();
    const fx = fixture(call, steps(3), results.store);
    const continued = await approvedMove(fx);
    await (await leaveAfterMark(fx, continued))(results);
    fx.markFailsOnce();
    const retry = await fx.agent.generate({ messages: continued, run: run() });
    expect(retry.finishReason).toBe('stop');
    expect(fx.writes).toEqual([]);
    expect(lastRead(fx)).toEqual(unknownRead);
    expect(results.puts).toEqual([notStarted]);
    // The record still says not started, and the second mark is free: the store is back, and the call runs once.
    const again = await fx.agent.generate({ messages: continued, run: run() });
    expect(again.finishReason).toBe('stop');
    expect(fx.writes).toEqual([proposed]);
    expect(lastRead(fx)).toEqual(asText({ ...proposed, updated: true }));
  });

  it('when the rerun result cannot be recorded: the write ran once, and a later retry reads unknown (never a second run)', async () => {
    const results = watchedResults();
    const fx = fixture(call, steps(3), results.store);
    const continued = await approvedMove(fx);
    await (await leaveAfterMark(fx, continued))(results);
    results.failNextPut();
    const retry = await fx.agent.generate({ messages: continued, run: run() });
    expect(retry.finishReason).toBe('stop');
    expect(fx.writes).toEqual([proposed]);
    expect(lastRead(fx)).toEqual(asText({ ...proposed, updated: true }));
    const again = await fx.agent.generate({ messages: continued, run: run() });
    expect(again.finishReason).toBe('stop');
    expect(fx.writes).toEqual([proposed]);
    expect(lastRead(fx)).toEqual(unknownRead);
  });

  it('denied by a copy, with a nonce store that keeps no decisions: the denial goes on (the call never ran), and the approval sent again is not run', async () => {
    const { move, writes } = deliveryMove();
    const plain = createMemoryNonceStore();
    let reach = () => {};
    let release = () => {};
    const reached = new Promise<void>((resolve) => {
      reach = resolve;
    });
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let claimed = 0;
    const store: NonceStore = {
      claim: async (n, e) => {
        const taken = await plain.claim(n, e);
        // The second claim is the call's "started" mark (the first, its approval's ticket): its answer comes back late.
        claimed++;
        if (claimed === 2) {
          reach();
          await released;
        }
        return taken;
      },
      has: (n) => plain.has?.(n) ?? Promise.resolve(false),
    };
    const results = watchedResults();
    const tickets = createTicketSigner({ keys, nonceStore: store });
    const model = scriptedModel(callsStep([call]), ...steps(3));
    const agent = createChatAgent({ model, tools: [move], tickets, callResults: results.store, maxRetries: 0, onError: () => {} });
    const first = await agent.generate({ messages: 'Move A-1001 to Christmas Eve', run: run() });
    const continued = respondToApproval(first.messages, 'c1', true);
    const leave = await leaveAfterMark({ agent } as Fixture, continued, { reached, release });
    await leave(results);
    expect(results.puts).toEqual([notStarted]);

    // The record says the call never ran: a denial of it is no denial of a call that ran (no 403), and it is sealed.
    const denied = await agent.generate({ messages: respondToApproval(first.messages, 'c1', false, 'No'), run: run() });
    expect(denied.finishReason).toBe('stop');
    expect(readInPrompt(model.doStreamCalls.at(-1)?.prompt, 'c1')).toMatchObject({ type: 'execution-denied' });
    // The approval again: nothing confirms it was the first answer (the store kept no decision), so it is not run.
    const approved = await agent.generate({ messages: continued, run: run() });
    expect(approved.finishReason).toBe('stop');
    expect(writes).toEqual([]);
    expect(readInPrompt(model.doStreamCalls.at(-1)?.prompt, 'c1')).toEqual(unknownRead);
  });

  it('went on from (a new message after the cut): the model reads that it was not run, and the continuation sent late never runs it', async () => {
    const results = watchedResults();
    const fx = fixture(call, steps(3), results.store);
    const continued = await approvedMove(fx);
    await (await leaveAfterMark(fx, continued))(results);
    const next = await fx.agent.generate({ messages: userSays(continued, 'Never mind. What else is late?'), run: run() });
    expect(next.finishReason).toBe('stop');
    expect(lastRead(fx)).toEqual({ type: 'error-text', value: NOT_STARTED_RECORD_TEXT });

    const late = await fx.agent.generate({ messages: continued, run: run() });
    expect(late.finishReason).toBe('stop');
    expect(fx.writes).toEqual([]);
    expect(lastRead(fx)).toEqual(unknownRead);
  });
});

describe('a browser result sent again after its continuation failed (the model failed on its first step)', () => {
  async function failedOnce() {
    const fx = fixture(['c1', 'cart_clear', {}], [failingStep(), textStep('Your cart is empty.'), textStep('Emptied.')]);
    const first = await fx.agent.generate({ messages: 'Empty my cart', run: run() });
    const continued = addToolOutput(first.messages, 'c1', cleared);
    const chunks = await readAll((await fx.agent.stream({ messages: continued, run: run() })).stream);
    expect(types(chunks).slice(0, 2)).toEqual(['start', SEAL_PART]);
    expect(types(chunks)).toContain('error');
    return { fx, continued, chunks };
  }

  it('as it was sent: the same answer is taken again (its claim kept it), and the model reads it', async () => {
    const { fx, continued } = await failedOnce();
    const retry = await fx.agent.generate({ messages: continued, run: run() });
    expect(retry.finishReason).toBe('stop');
    expect(fx.claims).toEqual([true, expect.stringMatching(/^output /)]);
    expect(lastRead(fx)).toEqual(asText(cleared));
  });

  it('with its seal, which came before the error: it goes on from the sealed result and claims nothing', async () => {
    const { fx, continued, chunks } = await failedOnce();
    const kept = [...continued.slice(0, -1), await foldInto(continued.at(-1), beforeError(chunks))];
    const retry = await fx.agent.generate({ messages: kept, run: run() });
    expect(retry.finishReason).toBe('stop');
    expect(fx.claims).toEqual([true]);
    expect(lastRead(fx)).toEqual(asText(cleared));
  });

  it('with another answer: refused (the claim kept the first), nothing sealed', async () => {
    const { fx, continued } = await failedOnce();
    const other = addToolOutput(continued, 'c1', { cleared: 99 });
    const error = await refused(fx.agent.generate({ messages: other, run: run() }));
    expect(error.problem).toBe('forged-result');
  });
});
