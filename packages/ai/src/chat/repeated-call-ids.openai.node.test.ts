// Node-only: a model that sends `call_0` as every tool call's id (llama.cpp, some vLLM builds), through the real
// @ai-sdk/openai provider against the local fake OpenAI server (127.0.0.1).
import { createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import { type FakeOpenAI, startFakeOpenAI } from '@edgetool/fake-openai';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createModelFromEnv } from '../provider.ts';
import { mapToolPart, respondToApproval, userSays } from '../testing/client.ts';
import { createChatAgent, UNFINISHED_CALL_TEXT } from './chat-agent.ts';
import { type EdgetoolUIMessage, toolParts } from './protocol.ts';
import { generateTextTurn } from './text-turn.ts';
import { ContinuationError } from './verify-continuation.ts';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: 'sk-fake' });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const tickets = createTicketSigner({ keys: [{ id: 'k', secret: 'repeated-ids-test-secret-32-bytes-min!' }] });

function tools(writes: unknown[], lookups: string[]) {
  return [
    defineTool({
      name: 'query_order',
      description: 'Look up an order by id',
      input: v.object({ order_id: v.string() }),
      execute: ({ order_id }) => {
        lookups.push(order_id);
        return { order_id, status: writes.length > 0 ? 'moved' : 'shipped' };
      },
    }),
    defineTool({
      name: 'update_delivery_date',
      description: 'Change the delivery date',
      input: v.object({ order_id: v.string(), new_date: v.pipe(v.string(), v.isoDate()) }),
      policy: { effects: 'write' },
      execute: (input) => {
        writes.push(input);
        return { ...input, updated: true };
      },
    }),
  ];
}

/** A step of the model: one call, always with the id `call_0`. */
const call = (name: string, args: unknown) => ({ toolCalls: [{ id: 'call_0', name, args }] });
const callIds = (messages: readonly EdgetoolUIMessage[]) => messages.flatMap((m) => (m.role === 'assistant' ? toolParts(m).map((p) => p.toolCallId) : []));

describe.each([
  ['Responses API', 'responses'],
  ['Chat Completions', 'chat'],
] as const)('a model that repeats the call id call_0 (%s)', (_label, api) => {
  const setup = () => {
    const writes: unknown[] = [];
    const lookups: string[] = [];
    const { model } = createModelFromEnv({ OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: fake.baseURL, OPENAI_API: api, OPENAI_MODEL: 'gpt-4o' });
    const agent = createChatAgent({ model, tools: tools(writes, lookups), tickets, maxRetries: 0 });
    return { agent, writes, lookups, run: () => createRunContext({ conversationId: `c-repeat-${api}` }) };
  };

  it('keeps the conversation going over several steps and turns, with an approval continuation between', async () => {
    const { agent, writes, lookups, run } = setup();
    // Turn 1: a lookup, then the answer.
    fake.enqueue(call('query_order', { order_id: 'A-1' }), { text: 'A-1 has shipped.' });
    const first = await agent.generate({ messages: 'Where is A-1?', run: run() });
    expect(first.text).toBe('A-1 has shipped.');
    expect(first.toolResults.map((r) => r.call.id)).toEqual(['call_0']);

    // Turn 2: a write that waits for an approval; its call_0 is taken by turn 1's call, so it gets another id.
    fake.enqueue(call('update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }));
    const second = await agent.generate({ messages: userSays(first.messages, 'Move A-1 to 2026-12-24.'), run: run() });
    const [pending] = second.pending;
    expect(pending).toMatchObject({ kind: 'approval', toolName: 'update_delivery_date', toolCallId: expect.stringMatching(/^call_0_[0-9a-f]{12}$/) });
    const writeId = pending?.toolCallId as string;

    // The approval's continuation: the write runs once, then the model calls call_0 again (a third one) and answers.
    fake.enqueue(call('query_order', { order_id: 'A-1' }), { text: 'Moved to 2026-12-24.' });
    const approved = respondToApproval(second.messages, writeId, true);
    const continued = await agent.generate({ messages: approved, run: run() });
    expect(continued.text).toBe('Moved to 2026-12-24.');
    expect(writes).toEqual([{ order_id: 'A-1', new_date: '2026-12-24' }]);

    // Turn 3: call_0 once more; every request of the conversation went through (none refused as a duplicate call).
    fake.enqueue(call('query_order', { order_id: 'A-1' }), { text: 'Still moved.' });
    const third = await agent.generate({ messages: userSays(continued.messages, 'And now?'), run: run() });
    expect(third.text).toBe('Still moved.');
    expect(lookups).toEqual(['A-1', 'A-1', 'A-1']);
    const ids = callIds(third.messages);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    expect(ids[0]).toBe('call_0');

    // What the model read: each result under the id of its own call (the history's ids are the renamed ones).
    const lastRequest = fake.requests.at(-1);
    const toolMessages = lastRequest?.messages.filter((m) => m.role === 'tool') ?? [];
    expect(toolMessages.map((m) => m.toolCallId)).toEqual(ids);
    expect(toolMessages.map((m) => m.content)).toEqual([
      '{"order_id":"A-1","status":"shipped"}',
      '{"order_id":"A-1","new_date":"2026-12-24","updated":true}',
      '{"order_id":"A-1","status":"moved"}',
      '{"order_id":"A-1","status":"moved"}',
    ]);

    // The same continuation sent again (its answer lost): the write's recorded result, under its new id; nothing runs twice.
    fake.enqueue({ text: 'Moved, as I said.' });
    const again = await agent.generate({ messages: approved, run: run() });
    expect(again.text).toBe('Moved, as I said.');
    expect(writes).toHaveLength(1);

    // Seals and tickets still refuse a forged copy, before any request reaches the model.
    const requests = fake.requests.length;
    const forgedResult = mapToolPart(third.messages, ids[2] as string, (p) => ({ ...p, output: { order_id: 'A-1', status: 'cancelled' } }));
    await expect(agent.generate({ messages: userSays(forgedResult, 'Sure?'), run: run() })).rejects.toBeInstanceOf(ContinuationError);
    const forgedApproval = mapToolPart(approved, writeId, (p) => ({ ...p, input: { order_id: 'A-1', new_date: '2027-01-01' } }));
    await expect(agent.generate({ messages: forgedApproval, run: run() })).rejects.toBeInstanceOf(ContinuationError);
    // A copy of an earlier call's part under the first call's id is still one id twice: refused.
    const last = third.messages.at(-1) as EdgetoolUIMessage;
    const copied = toolParts(last).map((p) => ({ ...p, toolCallId: 'call_0' }));
    const duplicated = [...third.messages.slice(0, -1), { ...last, parts: [...last.parts, ...copied] } as EdgetoolUIMessage];
    await expect(agent.generate({ messages: userSays(duplicated, 'Sure?'), run: run() })).rejects.toMatchObject({ problem: 'duplicate-call' });
    expect(fake.requests).toHaveLength(requests);
    expect(writes).toHaveLength(1);
  });

  it('a regenerated answer’s call_0, the id of the call it replaced, reads neither that call’s result nor its approval', async () => {
    const { agent, writes, run } = setup();
    // The write is approved and runs as call_0; then the user regenerates the answer (the history is the question alone).
    fake.enqueue(call('update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }));
    const first = await agent.generate({ messages: 'Move A-1 to 2026-12-24.', run: run() });
    expect(first.pending[0]?.toolCallId).toBe('call_0');
    fake.enqueue({ text: 'Moved.' });
    await agent.generate({ messages: respondToApproval(first.messages, 'call_0', true), run: run() });
    expect(writes).toHaveLength(1);
    const regenerate = async () => {
      fake.enqueue(call('update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }));
      const again = await agent.generate({ messages: first.messages.slice(0, 1), run: run() });
      // Nothing in the history holds call_0 any more, so the new call keeps it.
      expect(again.pending[0]?.toolCallId).toBe('call_0');
      return again.messages;
    };
    const toolMessage = () => fake.requests.at(-1)?.messages.find((m) => m.role === 'tool' && m.toolCallId === 'call_0');

    // Approved, its continuation lost, and the user goes on: the model reads an unknown outcome, not the earlier write.
    const approvedLost = respondToApproval(await regenerate(), 'call_0', true);
    fake.enqueue({ text: 'I cannot tell.' });
    await agent.generate({ messages: userSays(approvedLost, 'Did it work?'), run: run() });
    expect(toolMessage()?.content).toContain(UNFINISHED_CALL_TEXT);
    // Regenerated once more, denied, its continuation lost, and the user goes on: a denial, not a 403 for denying "a call
    // that ran" (the earlier write's record).
    const deniedLost = respondToApproval(await regenerate(), 'call_0', false);
    fake.enqueue({ text: 'Left as it was.' });
    const denied = await agent.generate({ messages: userSays(deniedLost, 'Leave it.'), run: run() });
    expect(denied.text).toBe('Left as it was.');
    expect(toolMessage()?.content).toContain('denied');
    expect(writes).toHaveLength(1);
  });

  it('text turns: a repeated id of the history is renamed, and the approval of the renamed call applies to it', async () => {
    const { agent, writes, run } = setup();
    fake.enqueue(call('query_order', { order_id: 'A-1' }), { text: 'A-1 has shipped.' });
    const first = await generateTextTurn(agent, { messages: 'Where is A-1?', run: run() });
    fake.enqueue(call('update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }));
    const second = await generateTextTurn(agent, { messages: [...first.messages, { role: 'user', content: 'Move it to 2026-12-24.' }], run: run() });
    const writeId = second.pending[0]?.toolCallId as string;
    expect(writeId).toMatch(/^call_0_[0-9a-f]{12}$/);
    fake.enqueue({ text: 'Moved.' });
    const third = await generateTextTurn(agent, { messages: second.messages, approvals: { [writeId]: true }, run: run() });
    expect(third.text).toBe('Moved.');
    expect(writes).toEqual([{ order_id: 'A-1', new_date: '2026-12-24' }]);
    // The first call's result was not taken as the approved one's: the write's own result reached the model.
    expect(fake.requests.at(-1)?.messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId)).toEqual(['call_0', writeId]);
  });
});
