// A continuation whose response arrived only in part: it carried a browser result and an approval, the server claimed
// both tickets (the approval's, the copy's leader, keeping a decision that names both answers) and sealed the browser
// result right after `start`; then the connection broke. The browser keeps the message with that seal and nothing
// more, and its next request (the same continuation again, or a new message) must go through: the result read once,
// the approved call never run twice, no 403 that sticks.
import { createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import type { UIMessageChunk } from 'ai';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { addToolOutput, respondToApproval, userSays } from '../testing/client.ts';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { foldInto } from '../test-support/chat-streams.ts';
import { createChatAgent } from './chat-agent.ts';
import { type EdgetoolUIMessage, SEAL_PART, type SealPartData } from './protocol.ts';

const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'partial-continuation-secret-32-bytes!' }] });
const run = () => createRunContext({ conversationId: 'conv-partial' });
const cleared = { cleared: 3 };

/** The approval's id sorts first: it leads the copy, so its kept decision names the browser result too. */
const CALLS = [
  ['a1', 'move_order', { order_id: 'A-1', new_date: '2026-12-24' }],
  ['b2', 'cart_clear', {}],
] as const;

/**
 * `slow` (or `slow(order_id)`): the write is still running when the connection breaks, so the turn's abort stops it
 * before it writes, and nothing is recorded; else it has written and recorded its result by then.
 */
function fixture(slow: boolean | ((orderId: string) => boolean), calls: ReadonlyArray<readonly [string, string, unknown]> = CALLS) {
  const writes: unknown[] = [];
  // The slow writes that have started (they wait for the turn's abort), and who waits for a count of them.
  let begun = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  const slowBegun = (count: number) => new Promise<void>((resolve) => (begun >= count ? resolve() : waiting.push({ count, resolve })));
  const cartClear = defineTool({ name: 'cart_clear', description: 'Empty the cart', input: v.object({}), policy: { runsOn: 'client', effects: 'destructive' } });
  const move = defineTool({
    name: 'move_order',
    description: 'Change a delivery date',
    input: v.object({ order_id: v.string(), new_date: v.string() }),
    policy: { effects: 'write' },
    execute: async (input, ctx) => {
      if (slow === true || (typeof slow === 'function' && slow(input.order_id))) {
        begun++;
        for (const waiter of waiting) if (begun >= waiter.count) waiter.resolve();
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
        throw ctx.signal.reason;
      }
      writes.push(input);
      return { ...input, moved: true };
    },
  });
  const model = scriptedModel(callsStep(calls), ...Array.from({ length: 6 }, (_, i) => textStep(`answer ${i}`)));
  return { agent: createChatAgent({ model, tools: [cartClear, move], tickets }), model, writes, slowBegun };
}

/** The tool results a model call read for `id`. */
function readsOf(model: ReturnType<typeof fixture>['model'], index: number, id: string): unknown[] {
  const parts = (model.doStreamCalls[index]?.prompt ?? []).flatMap((message) => (message.role === 'tool' ? message.content : []));
  return parts.filter((part) => part.type === 'tool-result' && part.toolCallId === id).map((part) => (part as { output: unknown }).output);
}

const sealIds = (chunks: readonly UIMessageChunk[]) => chunks.filter((c) => c.type === SEAL_PART).map((c) => (c as { data: SealPartData }).data.toolCallId);

/** The first turn, answered in the browser: the cart cleared, the write approved. */
async function answered(fx: ReturnType<typeof fixture>) {
  const first = await fx.agent.generate({ messages: 'Empty my cart and move A-1', run: run() });
  expect(first.pending.map((p) => [p.toolCallId, p.kind])).toEqual([
    ['a1', 'approval'],
    ['b2', 'client'],
  ]);
  return respondToApproval(addToolOutput(first.messages, 'b2', cleared), 'a1', true);
}

/**
 * The chunks of `messages`' response that reach the browser: up to its first seal (or `last`). The server sends on,
 * unseen, until `lost` (when given) has gone by, and until `running` slow writes have started (a write cut before it
 * started is recorded as not started, and the same continuation sent again runs it); then the connection breaks and
 * the turn ends.
 */
async function untilSeal(
  fx: ReturnType<typeof fixture>,
  messages: EdgetoolUIMessage[],
  last = (chunk: UIMessageChunk) => chunk.type === SEAL_PART,
  lost?: (chunk: UIMessageChunk) => boolean,
  running = 0,
): Promise<UIMessageChunk[]> {
  const turn = await fx.agent.stream({ messages, run: run() });
  const reader = turn.stream.getReader();
  const arrived: UIMessageChunk[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error('the response ended before the seal');
    arrived.push(value);
    if (last(value)) break;
  }
  if (lost !== undefined) {
    for (let next = await reader.read(); !next.done && !lost(next.value); next = await reader.read()) {
      // Sent, never received.
    }
  }
  if (running > 0) {
    const draining = (async () => {
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        // Sent, never received.
      }
    })();
    await Promise.race([fx.slowBegun(running), draining]);
  }
  await reader.cancel('the connection broke');
  await turn.usage; // the turn is over on the server (an approved call stopped with it, or finished)
  return arrived;
}

/** The continuation sent, and its response cut right after the browser result's seal: the history the browser keeps. */
async function cutAfterSeal(slow: boolean) {
  const fx = fixture(slow);
  const continued = await answered(fx);
  // A fast write has recorded its result once its output goes out; a slow one waits until the turn stops it.
  const arrived = await untilSeal(fx, continued, undefined, slow ? undefined : (chunk) => chunk.type === 'tool-output-available', slow ? 1 : 0);
  expect(sealIds(arrived)).toEqual(['b2']);
  const kept = [...continued.slice(0, -1), await foldInto(continued.at(-1) as EdgetoolUIMessage, arrived)];
  expect(fx.writes).toHaveLength(slow ? 0 : 1);
  return { ...fx, kept };
}

describe.each([
  ['the write had run', false],
  ['the write was stopped with the turn', true],
])('a continuation whose response arrived in part (the browser result’s seal, nothing more): %s', (_label, slow) => {
  it('sent again: taken as the same continuation (no 403), the result read once and not sealed again, the write not run twice', async () => {
    const { agent, model, writes, kept } = await cutAfterSeal(slow);
    const ran = writes.length;
    const chunks: UIMessageChunk[] = [];
    const turn = await agent.stream({ messages: kept, run: run() });
    const reader = turn.stream.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish' });
    expect(sealIds(chunks)).toEqual(['a1']);
    expect(readsOf(model, model.doStreamCalls.length - 1, 'b2')).toEqual([{ type: 'text', value: JSON.stringify(cleared) }]);
    expect(writes).toHaveLength(ran);
  });

  it('the user goes on: the history is taken (no 403), the result read once, the write not run twice', async () => {
    const { agent, model, writes, kept } = await cutAfterSeal(slow);
    const ran = writes.length;
    const next = await agent.generate({ messages: userSays(kept, 'did it work?'), run: run() });
    expect(next.finishReason).toBe('stop');
    expect(readsOf(model, model.doStreamCalls.length - 1, 'b2')).toEqual([{ type: 'text', value: JSON.stringify(cleared) }]);
    expect(next.message.parts.filter((p) => p.type === SEAL_PART)).toEqual([]);
    expect(writes).toHaveLength(ran);
  });
});

describe('the answer to a new message that arrived in part (the seal of an earlier browser result, nothing more)', () => {
  it('the next message is taken (no 403): the result read once and not sealed again, the earlier approval never run', async () => {
    const fx = fixture(false);
    // The continuation never reached the server; the user asks, and that answer breaks after its first seal.
    const asked = userSays(await answered(fx), 'did it work?');
    const arrived = await untilSeal(fx, asked);
    expect(sealIds(arrived)).toEqual(['b2']);
    const kept = [...asked, await foldInto(undefined, arrived)];
    const next = await fx.agent.generate({ messages: userSays(kept, 'hello?'), run: run() });
    expect(next.finishReason).toBe('stop');
    expect(readsOf(fx.model, fx.model.doStreamCalls.length - 1, 'b2')).toEqual([{ type: 'text', value: JSON.stringify(cleared) }]);
    expect(next.message.parts.filter((p) => p.type === SEAL_PART)).toEqual([]);
    expect(fx.writes).toEqual([]);
  });
});

describe('a continuation of three approvals whose response arrived in part (the leader’s seal and result)', () => {
  it('sent again: taken as the same continuation (no 403), the call that ran not run twice, the others read as unknown', async () => {
    const calls = [
      ['a1', 'move_order', { order_id: 'A-1', new_date: '2026-12-24' }],
      ['a2', 'move_order', { order_id: 'A-2', new_date: '2026-12-24' }],
      ['a3', 'move_order', { order_id: 'A-3', new_date: '2026-12-24' }],
    ] as const;
    const fx = fixture((orderId) => orderId !== 'A-1', calls);
    const first = await fx.agent.generate({ messages: 'Move A-1, A-2 and A-3', run: run() });
    const continued = ['a1', 'a2', 'a3'].reduce((messages, id) => respondToApproval(messages, id, true), first.messages);
    // A result's seal goes out before it: the connection breaks after a1's result.
    const arrived = await untilSeal(fx, continued, (chunk) => chunk.type === 'tool-output-available', undefined, 2);
    expect(sealIds(arrived)).toEqual(['a1']);
    expect(fx.writes).toHaveLength(1);
    const kept = [...continued.slice(0, -1), await foldInto(continued.at(-1) as EdgetoolUIMessage, arrived)];
    const again = await fx.agent.generate({ messages: kept, run: run() });
    expect(again.finishReason).toBe('stop');
    expect(fx.writes).toHaveLength(1);
    expect(readsOf(fx.model, fx.model.doStreamCalls.length - 1, 'a2')).toEqual([{ type: 'error-text', value: expect.stringContaining('unknown') }]);
  });
});
