// A regenerated answer (the client removes the last assistant message and sends the rest again) on the offline model,
// whose replies depend on the prompt alone: the new answer's calls must not reuse the ids (and with them the recorded
// results, the callResults keys) of the answer it replaced, which the history no longer shows. With `deterministicIds`
// it does reuse them, as a model that sends `call_0` every time does: the replaced call's record, kept under its
// approval ticket, must still never be read for the new call.
import { createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createOfflineModel } from '../offline-model/index.ts';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { readInPrompt } from '../test-support/chat-streams.ts';
import { respondToApproval, userSays } from '../testing/client.ts';
import { type CallResultStore, callResultKey, createMemoryCallResultStore } from './call-results.ts';
import { createChatAgent, UNFINISHED_CALL_TEXT } from './chat-agent.ts';
import type { EdgetoolUIMessage } from './protocol.ts';

const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'regenerate-test-secret-regenerate-test' }] });
const run = () => createRunContext({ conversationId: 'conv-regenerate' });
const moved = { order_id: 'A-1001', new_date: '2026-12-24', updated: true };
const ask = '/update_delivery_date {"order_id":"A-1001","new_date":"2026-12-24"}';

function fixture(options: { deterministicIds?: boolean } = {}) {
  const writes: unknown[] = [];
  // The `ctx.idempotencyKey` of each write, and the keys the call results were kept under.
  const keys: string[] = [];
  const kept: string[] = [];
  const store = createMemoryCallResultStore();
  const prompts: LanguageModelV4CallOptions['prompt'][] = [];
  const move = defineTool({
    name: 'update_delivery_date',
    description: 'Change a delivery date',
    input: v.object({ order_id: v.string(), new_date: v.pipe(v.string(), v.isoDate()) }),
    policy: { effects: 'write' },
    execute: (input, ctx) => {
      writes.push(input);
      keys.push(ctx.idempotencyKey);
      return { ...input, updated: true, write: writes.length };
    },
  });
  const model = wrapLanguageModel({
    model: createOfflineModel(options),
    middleware: {
      transformParams: async ({ params }) => {
        prompts.push(params.prompt);
        return params;
      },
    },
  });
  const callResults: CallResultStore = {
    get: (key) => store.get(key),
    put: (key, result, expiresAt) => {
      kept.push(key);
      return store.put(key, result, expiresAt);
    },
  };
  return { agent: createChatAgent({ model, tools: [move], tickets, callResults }), writes, prompts, keys, kept };
}

/** The id of the call a turn waits on for its approval. */
const pendingId = (result: { pending: readonly { toolCallId: string }[] }): string => result.pending[0]?.toolCallId as string;


describe('a regenerated answer on the offline model', () => {
  it('gets new call ids, and its approved call runs again (the recorded result of the answer it replaced is not read)', async () => {
    const { agent, writes } = fixture();
    const first = await agent.generate({ messages: ask, run: run() });
    const ran = await agent.generate({ messages: respondToApproval(first.messages, pendingId(first), true), run: run() });
    expect(ran.toolResults.map((r) => r.outcome)).toEqual([{ type: 'success', output: { ...moved, write: 1 } }]);

    // Regenerate: the user's message alone, as before the answer.
    const again = await agent.generate({ messages: [first.messages[0] as EdgetoolUIMessage], run: run() });
    expect(pendingId(again)).not.toBe(pendingId(first));
    const rerun = await agent.generate({ messages: respondToApproval(again.messages, pendingId(again), true), run: run() });
    expect(writes).toHaveLength(2);
    expect(rerun.toolResults.map((r) => r.outcome)).toEqual([{ type: 'success', output: { ...moved, write: 2 } }]);
  });

  it('an approval of the regenerated answer whose continuation never arrived reads as unknown, not as the replaced call’s result', async () => {
    const { agent, writes, prompts } = fixture();
    const first = await agent.generate({ messages: ask, run: run() });
    await agent.generate({ messages: respondToApproval(first.messages, pendingId(first), true), run: run() });
    const again = await agent.generate({ messages: [first.messages[0] as EdgetoolUIMessage], run: run() });
    const id = pendingId(again);
    // Approved, but the continuation never reached the server (the network dropped it), and the user goes on.
    const approved = respondToApproval(again.messages, id, true);
    await agent.generate({ messages: userSays(approved, 'Did it work?'), run: run() });
    expect(writes).toHaveLength(1);
    // With the replaced answer's id, the model read that this call ran, with the earlier write's result.
    expect(readInPrompt(prompts.at(-1), id)).toEqual({ type: 'error-text', value: UNFINISHED_CALL_TEXT });
  });
});

describe('a regenerated answer whose call gets the id of the call it replaced (a model that repeats ids)', () => {
  /** An approved write that ran, then the answer regenerated: the new answer's call has the replaced call's id. */
  async function regenerated() {
    const f = fixture({ deterministicIds: true });
    const first = await f.agent.generate({ messages: ask, run: run() });
    await f.agent.generate({ messages: respondToApproval(first.messages, pendingId(first), true), run: run() });
    expect(f.writes).toHaveLength(1);
    const again = await f.agent.generate({ messages: [first.messages[0] as EdgetoolUIMessage], run: run() });
    expect(pendingId(again)).toBe(pendingId(first));
    return { ...f, again, id: pendingId(again) };
  }

  it('its approval whose continuation never arrived reads as unknown, not as the replaced call’s result', async () => {
    const { agent, writes, prompts, again, id } = await regenerated();
    await agent.generate({ messages: userSays(respondToApproval(again.messages, id, true), 'Did it work?'), run: run() });
    expect(writes).toHaveLength(1);
    expect(readInPrompt(prompts.at(-1), id)).toEqual({ type: 'error-text', value: UNFINISHED_CALL_TEXT });
  });

  it('its denial whose continuation never arrived is taken as a denial (the replaced call’s run refused it with a 403)', async () => {
    const { agent, writes, prompts, again, id } = await regenerated();
    const next = await agent.generate({ messages: userSays(respondToApproval(again.messages, id, false), 'Fine, leave it.'), run: run() });
    expect(next.finishReason).toBe('stop');
    expect(writes).toHaveLength(1);
    expect(readInPrompt(prompts.at(-1), id)).toEqual({ type: 'error-text', value: 'Tool call execution denied.' });
  });

  it('its denial sent again (the answer was lost) is the same continuation, not one that denies a call that ran', async () => {
    const { agent, writes, again, id } = await regenerated();
    const denied = respondToApproval(again.messages, id, false);
    const sent = await agent.generate({ messages: denied, run: run() });
    const resent = await agent.generate({ messages: denied, run: run() });
    expect(resent.message.parts).toEqual(sent.message.parts.map((part) => expect.objectContaining({ type: part.type })));
    expect(writes).toHaveLength(1);
  });

  it('its approved write gets a key of its own (ctx.idempotencyKey: its ticket’s nonce), the key its result is kept under', async () => {
    const { agent, keys, kept, again, id } = await regenerated();
    const approved = respondToApproval(again.messages, id, true);
    await agent.generate({ messages: approved, run: run() });
    await agent.generate({ messages: approved, run: run() });
    expect(keys).toHaveLength(2);
    const [replaced, own] = keys;
    // The same call id and arguments, two approvals: two keys, each that of its ticket.
    expect(own).not.toBe(replaced);
    const ticket = again.pending[0]?.ticket as string;
    expect(own).toBe(callResultKey({ tickets, conversationId: 'conv-regenerate', toolCallId: id, ticket }));
    expect(JSON.parse(own as string)).toEqual(['conv-regenerate', id, tickets.peek(ticket)?.nonce]);
    expect(kept).toEqual(keys);
  });

  it('its approval runs the write again, and the same continuation sent again reads that run’s result', async () => {
    const { agent, writes, prompts, again, id } = await regenerated();
    const approved = respondToApproval(again.messages, id, true);
    const ran = await agent.generate({ messages: approved, run: run() });
    expect(ran.toolResults.map((r) => r.outcome)).toEqual([{ type: 'success', output: { ...moved, write: 2 } }]);
    await agent.generate({ messages: approved, run: run() });
    expect(writes).toHaveLength(2);
    expect(readInPrompt(prompts.at(-1), id)).toEqual({ type: 'text', value: JSON.stringify({ ...moved, write: 2 }) });
  });
});

describe('a write without approval, regenerated with the id of the call it replaced (a model that repeats ids)', () => {
  it('gets a key of its own request: not the replaced call’s, whose row it would read as its own write', async () => {
    const keys: string[] = [];
    const queue = defineTool({
      name: 'queue_note',
      description: 'Queue a note',
      input: v.object({ text: v.string() }),
      policy: { effects: 'write', needsApproval: false },
      execute: (input, ctx) => {
        keys.push(ctx.idempotencyKey);
        return { queued: input.text };
      },
    });
    const agent = createChatAgent({ model: createOfflineModel({ deterministicIds: true }), tools: [queue], tickets });
    const first = await agent.generate({ messages: '/queue_note {"text":"hi"}', run: run() });
    const again = await agent.generate({ messages: [first.messages[0] as EdgetoolUIMessage], run: run() });
    const ids = [first, again].map((turn) => turn.toolResults.map((r) => r.call.id));
    expect(ids[1]).toEqual(ids[0]);
    expect(keys).toHaveLength(2);
    expect(keys[1]).not.toBe(keys[0]);
    const [conversation, callId, nonce] = JSON.parse(keys[1] as string) as string[];
    expect([conversation, callId]).toEqual(['conv-regenerate', ids[1]?.[0]]);
    expect(nonce).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('the calls of one request share its nonce, made when a tool first reads a key: each call reads one key, whichever attempt or call reads first', async () => {
    const keys: [string, string][] = [];
    const note = (name: string, policy: { effects: 'read' | 'write'; retries?: number; needsApproval?: false }) =>
      defineTool({
        name,
        description: 'Keeps a note',
        input: v.object({ text: v.string() }),
        policy,
        execute: (input, ctx) => {
          keys.push([ctx.call.id, ctx.idempotencyKey]);
          keys.push([ctx.call.id, ctx.idempotencyKey]);
          // The read's first attempt fails: its retry reads the key again.
          if (input.text === 'flaky' && ctx.attempt === 1) throw new Error('transient');
          return { kept: input.text };
        },
      });
    const quiet = defineTool({ name: 'quiet', description: 'Reads no key', input: v.object({}), execute: () => 'quiet' });
    const model = scriptedModel(
      callsStep([
        ['c0', 'quiet', {}],
        ['c1', 'queue_note', { text: 'a' }],
        ['c2', 'read_note', { text: 'flaky' }],
        ['c3', 'queue_note', { text: 'b' }],
      ]),
      textStep('done'),
    );
    const agent = createChatAgent({
      model,
      tools: [quiet, note('queue_note', { effects: 'write', needsApproval: false }), note('read_note', { effects: 'read', retries: 1 })],
      tickets,
    });
    const turn = await agent.generate({ messages: 'go', run: run() });
    expect(turn.toolResults.map((r) => r.outcome.type)).toEqual(['success', 'success', 'success', 'success']);
    const byCall = new Map<string, Set<string>>();
    for (const [id, key] of keys) byCall.set(id, (byCall.get(id) ?? new Set()).add(key));
    expect([...byCall.keys()].sort()).toEqual(['c1', 'c2', 'c3']);
    expect(keys.filter(([id]) => id === 'c2')).toHaveLength(4);
    const parsed = [...byCall].map(([id, set]) => {
      expect(set.size).toBe(1);
      const [conversation, callId, nonce] = JSON.parse([...set][0] as string) as string[];
      expect([conversation, callId]).toEqual(['conv-regenerate', id]);
      return nonce;
    });
    expect(new Set(parsed).size).toBe(1);
    expect(parsed[0]).toMatch(/^[0-9a-f-]{36}$/);
  });
});
