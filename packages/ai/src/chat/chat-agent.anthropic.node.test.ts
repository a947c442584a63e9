// Node-only: the chat loop on the real @ai-sdk/anthropic provider (a devDependency of this package only) against the
// local fake Messages API (testing/fake-anthropic, 127.0.0.1): parallel calls, approvals, thinking, errors, cuts.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createRunContext, createTicketSigner, defineTool, ToolError } from '@edgetool/core';
import { type FakeAnthropic, startFakeAnthropic } from '@edgetool/fake-anthropic';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { refused } from '../test-support/chat-streams.ts';
import { respondToApproval, userSays } from '../testing/client.ts';
import { type ChatAgentOptions, createChatAgent } from './chat-agent.ts';
import { cutArgumentsText, unfinishedArgumentsText } from './cut-arguments.ts';
import { type EdgetoolUIMessage, PART_SEAL_PART, SEAL_PART } from './protocol.ts';
import { generateTextTurn } from './text-turn.ts';
import { UNRUN_CALL_TEXT } from './unrun-calls.ts';

let fake: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic({ apiKey: 'test' });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const tickets = createTicketSigner({ keys: [{ id: 'k', secret: 'anthropic-chat-loop-test-secret-32b!' }] });
const claude = (server: FakeAnthropic = fake) => createAnthropic({ baseURL: server.baseURL, apiKey: 'test' })('claude-sonnet-4-5');
const run = (conversationId: string) => createRunContext({ conversationId });

function tools(writes: unknown[]) {
  return [
    defineTool({
      name: 'query_order',
      description: 'Look up an order by id',
      input: v.object({ order_id: v.string() }),
      execute: ({ order_id }) => ({ order_id, status: 'shipped' }),
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
    defineTool({
      name: 'fail_always',
      description: 'Always fails',
      input: v.object({}),
      execute: () => {
        throw new ToolError('execution-failed', 'The warehouse is offline.');
      },
    }),
  ];
}

const agentFor = (extra: Partial<ChatAgentOptions> = {}, writes: unknown[] = []) =>
  createChatAgent({ model: claude(), tools: tools(writes), tickets, maxRetries: 0, ...extra });

type Block = Record<string, unknown>;
type Message = { role: string; content: Block[] | string };

/** A recorded request's messages. */
const messagesOf = (index: number) => (fake.requests[index]?.body.messages ?? []) as Message[];
/** The blocks of a recorded request's messages, of one type. */
const blocksOf = (index: number, type: string) => messagesOf(index).flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === type);

describe('the chat loop on the real Anthropic provider', () => {
  it('parallel calls (internal mode): both run, their tool_result blocks go back in one user message, the loop answers', async () => {
    fake.enqueue(
      {
        text: 'Let me look both up.',
        toolCalls: [
          { id: 'toolu_1', name: 'query_order', args: { order_id: 'A-1' } },
          { id: 'toolu_2', name: 'query_order', args: { order_id: 'A-2' } },
        ],
      },
      { text: 'Both shipped.' },
    );
    const result = await agentFor().generate({ messages: 'Where are A-1 and A-2?', run: run('c-parallel') });
    expect(result.text).toBe('Both shipped.');
    expect(result.toolResults.map((r) => [r.call.id, r.outcome.type])).toEqual([
      ['toolu_1', 'success'],
      ['toolu_2', 'success'],
    ]);
    const messages = messagesOf(1);
    expect(messages.at(-2)).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me look both up.' },
        { type: 'tool_use', id: 'toolu_1', name: 'query_order', input: { order_id: 'A-1' } },
        { type: 'tool_use', id: 'toolu_2', name: 'query_order', input: { order_id: 'A-2' } },
      ],
    });
    expect(messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"order_id":"A-1","status":"shipped"}' },
        { type: 'tool_result', tool_use_id: 'toolu_2', content: '{"order_id":"A-2","status":"shipped"}' },
      ],
    });
  });

  it('a failing tool and malformed arguments go back as is_error tool results with edgetool’s text', async () => {
    fake.enqueue(
      {
        toolCalls: [
          { id: 'toolu_f', name: 'fail_always', args: {} },
          { id: 'toolu_j', name: 'query_order', args: '{"order_id": ' },
          { id: 'toolu_u', name: 'cancel_order', args: { order_id: 'A-1' } },
        ],
      },
      { text: 'Sorry.' },
    );
    const result = await agentFor().generate({ messages: 'go', run: run('c-errors') });
    expect(result.text).toBe('Sorry.');
    const results = blocksOf(1, 'tool_result');
    expect(results.map((b) => [b.tool_use_id, b.is_error])).toEqual([
      ['toolu_f', true],
      ['toolu_j', true],
      ['toolu_u', true],
    ]);
    expect(String(results[0]?.content)).toContain('The warehouse is offline.');
    expect(String(results[1]?.content)).toMatch(/^Error \(invalid-json\)/);
    expect(String(results[2]?.content)).toMatch(/^Error \(unknown-tool\)/);
  });

  it.each(['internal', 'manual'] as const)('approvals (%s mode): a parallel write and read pause with tickets, continue once approved', async (mode) => {
    const writes: unknown[] = [];
    const agent = agentFor({}, writes);
    fake.enqueue(
      {
        toolCalls: [
          { id: 'toolu_w', name: 'update_delivery_date', args: { order_id: 'A-1', new_date: '2026-12-24' } },
          { id: 'toolu_r', name: 'query_order', args: { order_id: 'A-1' } },
        ],
      },
      { text: 'Moved.' },
    );
    const first = await agent.generate({ messages: 'move A-1 to 2026-12-24', mode, run: run(`c-approve-${mode}`) });
    const waiting = mode === 'manual' ? ['toolu_w', 'toolu_r'] : ['toolu_w'];
    expect(first.pending.map((p) => [p.toolCallId, p.kind])).toEqual(waiting.map((id) => [id, 'approval']));
    expect(fake.requests).toHaveLength(1);
    let answered = first.messages;
    for (const id of waiting) answered = respondToApproval(answered, id, true);
    const second = await agent.generate({ messages: answered, mode, run: run(`c-approve-${mode}`) });
    expect(second.text).toBe('Moved.');
    expect(writes).toEqual([{ order_id: 'A-1', new_date: '2026-12-24' }]);
    expect(fake.requests).toHaveLength(2);
    // Both tool_use blocks stay in one assistant message, answered by one user message of both tool_result blocks.
    expect(messagesOf(1).at(-2)?.content).toEqual([
      { type: 'tool_use', id: 'toolu_w', name: 'update_delivery_date', input: { order_id: 'A-1', new_date: '2026-12-24' } },
      { type: 'tool_use', id: 'toolu_r', name: 'query_order', input: { order_id: 'A-1' } },
    ]);
    // In the order the results came (Anthropic pairs them by tool_use_id; it asks only that they come first).
    const last = messagesOf(1).at(-1);
    expect(last?.role).toBe('user');
    expect(last?.content).toHaveLength(2);
    expect(last?.content).toEqual(
      expect.arrayContaining([
        { type: 'tool_result', tool_use_id: 'toolu_w', content: '{"order_id":"A-1","new_date":"2026-12-24","updated":true}' },
        { type: 'tool_result', tool_use_id: 'toolu_r', content: '{"order_id":"A-1","status":"shipped"}' },
      ]),
    );
  });
});

describe('thinking on the real Anthropic provider', () => {
  const thinking = { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } } as const;
  const thinker = (writes: unknown[] = []) => agentFor({ settings: { providerOptions: thinking } }, writes);

  it('thinking and redacted thinking round-trip under the part seal, unchanged, into the next turn', async () => {
    fake.enqueue({ thinking: [{ thinking: 'The user greets me.', signature: 'sig-greet' }, { redacted: 'opaque-greet' }], text: 'Hello!' }, { text: 'Bye.' });
    const chat = thinker();
    const first = await chat.generate({ messages: 'Hi', run: run('c-think') });
    expect(first.message.parts.filter((p) => p.type === 'reasoning')).toEqual([
      expect.objectContaining({ text: 'The user greets me.', providerMetadata: { anthropic: { signature: 'sig-greet' } } }),
      expect.objectContaining({ text: '', providerMetadata: { anthropic: { redactedData: 'opaque-greet' } } }),
    ]);
    expect(first.message.parts.filter((p) => p.type === PART_SEAL_PART)).toHaveLength(1);
    const second = await chat.generate({ messages: userSays(first.messages, 'Thanks'), run: run('c-think') });
    expect(second.text).toBe('Bye.');
    expect(messagesOf(1)[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'The user greets me.', signature: 'sig-greet' },
        { type: 'redacted_thinking', data: 'opaque-greet' },
        { type: 'text', text: 'Hello!' },
      ],
    });
  });

  it('a forged signature or redacted data is refused before any request; unsealed thinking is dropped', async () => {
    fake.enqueue({ thinking: [{ thinking: 'Plan.', signature: 'sig-plan' }, { redacted: 'opaque-plan' }], text: 'Hello!' }, { text: 'Again.' });
    const chat = thinker();
    const first = await chat.generate({ messages: 'Hi', run: run('c-forge') });
    const forge = (meta: Record<string, unknown>, index: number) => {
      let seen = -1;
      return first.messages.map((m) => ({
        ...m,
        parts: m.parts.map((p) => (p.type === 'reasoning' && ++seen === index ? { ...p, providerMetadata: { anthropic: meta } } : p)),
      })) as EdgetoolUIMessage[];
    };
    for (const forged of [forge({ signature: 'sig-of-another-chat' }, 0), forge({ redactedData: 'opaque-of-another-chat' }, 1)]) {
      expect(await refused(chat.generate({ messages: userSays(forged, 'Thanks'), run: run('c-forge') }))).toMatchObject({ problem: 'forged-result' });
    }
    expect(fake.requests).toHaveLength(1);
    const old = first.messages.map((m) => ({ ...m, parts: m.parts.filter((p) => p.type !== PART_SEAL_PART) }));
    expect((await chat.generate({ messages: userSays(old, 'Thanks'), run: run('c-forge') })).text).toBe('Again.');
    expect(blocksOf(1, 'thinking')).toEqual([]);
    expect(blocksOf(1, 'redacted_thinking')).toEqual([]);
  });

  it('thinking before tool calls stays first in the assistant message through the loop and through an approval', async () => {
    const writes: unknown[] = [];
    fake.enqueue(
      { thinking: [{ thinking: 'Look it up.', signature: 'sig-look' }], toolCalls: [{ id: 'toolu_q', name: 'query_order', args: { order_id: 'A-1' } }] },
      { thinking: [{ thinking: 'Now move it.', signature: 'sig-move' }], toolCalls: [{ id: 'toolu_m', name: 'update_delivery_date', args: { order_id: 'A-1', new_date: '2026-12-24' } }] },
      { text: 'Moved.' },
    );
    const chat = thinker(writes);
    const first = await chat.generate({ messages: 'move A-1', run: run('c-think-tools') });
    expect(first.pending.map((p) => p.toolCallId)).toEqual(['toolu_m']);
    expect(messagesOf(1).at(-2)?.content).toEqual([
      { type: 'thinking', thinking: 'Look it up.', signature: 'sig-look' },
      { type: 'tool_use', id: 'toolu_q', name: 'query_order', input: { order_id: 'A-1' } },
    ]);
    const second = await chat.generate({ messages: respondToApproval(first.messages, 'toolu_m', true), run: run('c-think-tools') });
    expect(second.text).toBe('Moved.');
    expect(writes).toHaveLength(1);
    expect(messagesOf(2).at(-2)?.content).toEqual([
      { type: 'thinking', thinking: 'Now move it.', signature: 'sig-move' },
      { type: 'tool_use', id: 'toolu_m', name: 'update_delivery_date', input: { order_id: 'A-1', new_date: '2026-12-24' } },
    ]);
  });
});

/** The UI chunks of a streamed turn's SSE response. */
async function sseChunks(response: Response): Promise<{ type: string; errorText?: string; toolCallId?: string; finishReason?: string }[]> {
  return (await response.text())
    .split('\n\n')
    .filter((event) => event.startsWith('data: {'))
    .map((event) => JSON.parse(event.slice('data: '.length)));
}

describe('failures on the real Anthropic provider', () => {
  it('a stream cut mid tool_use JSON: an error after what came, no call runs, the next turn goes on and its model reads why', async () => {
    const writes: unknown[] = [];
    // message_start, ping, text start, 2 text deltas, text stop, tool_use start, then 2 of its 4 input deltas.
    fake.enqueue({ text: 'Moving it.', toolCalls: [{ id: 'toolu_c', name: 'update_delivery_date', args: { order_id: 'A-1', new_date: '2026-12-24' } }], cut: { afterEvents: 9 } });
    const errors: unknown[] = [];
    const agent = agentFor({ onError: ({ error }) => errors.push(error) }, writes);
    const first = await agent.generate({ messages: 'move A-1', run: run('c-cut') });
    expect(first.finishReason).toBe('interrupted');
    // What came stays in the message (the text before a call is not the turn's answer text).
    expect(first.message.parts).toContainEqual(expect.objectContaining({ type: 'text', text: 'Moving it.' }));
    expect(errors).toHaveLength(1);
    expect(writes).toEqual([]);
    fake.enqueue({ text: 'Which date again?' });
    const second = await agent.generate({ messages: userSays(first.messages, 'go on'), run: run('c-cut') });
    expect(second.text).toBe('Which date again?');
    // The cut call went back with a result that says it did not run (before, its part kept streaming for ever and the
    // next prompt left it out: the model never learnt): a tool_use and its tool_result, as after max_tokens.
    const unfinished = `Error (aborted): ${unfinishedArgumentsText('update_delivery_date')}`;
    expect(first.message.parts).toContainEqual(expect.objectContaining({ toolCallId: 'toolu_c', state: 'output-error', errorText: unfinished }));
    expect(blocksOf(1, 'tool_use')).toEqual([expect.objectContaining({ id: 'toolu_c', name: 'update_delivery_date' })]);
    expect(blocksOf(1, 'tool_result')).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_c', is_error: true, content: unfinished }]);
    expect(writes).toEqual([]);
  });

  it('a connection dropped mid tool_use JSON: the SSE response ends with an error chunk', async () => {
    const own = await startFakeAnthropic({ apiKey: 'test' });
    try {
      own.enqueue({ toolCalls: [{ id: 'toolu_d', name: 'query_order', args: { order_id: 'A-1' } }], cut: { afterEvents: 5, destroy: true } });
      const agent = createChatAgent({ model: claude(own), tools: tools([]), tickets, maxRetries: 0, onError: () => {} });
      const turn = await agent.stream({ messages: 'where is A-1', run: run('c-drop') });
      const chunks = await sseChunks(turn.toResponse());
      expect(chunks.at(-1)).toEqual({ type: 'error', errorText: expect.stringMatching(/^The model call failed/) });
      expect(chunks.some((c) => c.type === 'tool-output-available')).toBe(false);
    } finally {
      await own.close();
    }
  });

  it('an overloaded_error event mid-answer: an error chunk after the text, which stays; the turn finishes as error', async () => {
    fake.enqueue({ text: 'Order A-1 has', streamError: { type: 'overloaded_error', message: 'Overloaded' } });
    const errors: unknown[] = [];
    const agent = agentFor({ onError: ({ error }) => errors.push(error) });
    const turn = await agent.stream({ messages: 'where is A-1', run: run('c-overloaded') });
    const chunks = await sseChunks(turn.toResponse());
    const types = chunks.map((c) => c.type);
    // Anthropic's error event is an error reply of the server, as an OpenAI-compatible one's (a ModelReplyError).
    expect(chunks.find((c) => c.type === 'error')).toEqual({ type: 'error', errorText: "The model's server answered with an error." });
    expect(types.indexOf('error')).toBeGreaterThan(types.lastIndexOf('text-delta'));
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'error' });
    expect(errors).toEqual([expect.objectContaining({ name: 'ModelReplyError', fault: 'error-reply', serverMessage: 'Overloaded' })]);
    // A mid-stream error is not retried (the AI SDK retries only a failure before the first part): one request.
    expect(fake.requests).toHaveLength(1);

    fake.enqueue({ text: 'Order A-1 has', streamError: { type: 'overloaded_error', message: 'Overloaded' } });
    const result = await agent.generate({ messages: 'where is A-1', run: run('c-overloaded') });
    expect(result.finishReason).toBe('error');
    expect(result.text).toBe('Order A-1 has');
  });

  it.each([
    [429, 'rate_limit_error'],
    [529, 'overloaded_error'],
  ])('HTTP %i (%s) is retried by the AI SDK, then answers', async (status) => {
    fake.enqueue({ error: { status, message: 'Try later', headers: { 'retry-after-ms': '1' } } }, { text: 'Here now.' });
    const result = await agentFor({ maxRetries: 1 }).generate({ messages: 'hi', run: run(`c-${status}`) });
    expect(result.text).toBe('Here now.');
    expect(fake.requests).toHaveLength(2);
  });

  it('max_tokens in the middle of a tool call: the call does not run, and the model reads that it was cut off', async () => {
    const writes: unknown[] = [];
    fake.enqueue(
      { toolCalls: [{ id: 'toolu_m', name: 'update_delivery_date', args: '{"order_id": "A-1", "new_da' }], stopReason: 'max_tokens' },
      { text: 'I ran out of room.' },
    );
    const result = await agentFor({}, writes).generate({ messages: 'move A-1', run: run('c-max') });
    expect(writes).toEqual([]);
    expect(result.toolResults.map((r) => [r.call.id, r.outcome.type === 'error' ? r.outcome.error.code : r.outcome.type])).toEqual([['toolu_m', 'invalid-json']]);
    const [sent] = blocksOf(1, 'tool_result');
    expect(sent).toEqual({ type: 'tool_result', tool_use_id: 'toolu_m', is_error: true, content: `Error (invalid-json): ${cutArgumentsText('update_delivery_date')}` });
    expect(result.message.parts).toContainEqual(expect.objectContaining({ toolCallId: 'toolu_m', state: 'output-error', errorText: sent?.content }));
  });

  it('max_tokens after a whole call and inside the next: neither runs, both get sealed results, the next turn sends both', async () => {
    const writes: unknown[] = [];
    fake.enqueue(
      {
        toolCalls: [
          { id: 'toolu_w', name: 'update_delivery_date', args: { order_id: 'A-1', new_date: '2026-12-24' } },
          { id: 'toolu_q', name: 'query_order', args: { order_id: 'A-1' } },
          { id: 'toolu_x', name: 'query_order', args: '{"order_id": "A-' },
        ],
        stopReason: 'max_tokens',
      },
      { text: 'Let me try again.' },
    );
    const agent = agentFor({}, writes);
    const first = await agent.generate({ messages: 'move A-1', run: run('c-max-whole') });
    // The AI SDK runs no call of a step cut at the token limit (the approval is asked for as the call comes, as ever).
    expect(first.finishReason).toBe('length');
    expect(first.pending.map((p) => p.toolCallId)).toEqual(['toolu_w']);
    expect(fake.requests).toHaveLength(1);
    const unrun = `Error (aborted): ${UNRUN_CALL_TEXT}`;
    expect(first.toolResults.map((r) => [r.call.id, r.outcome.type === 'error' ? r.outcome.error.code : r.outcome.type])).toEqual([
      ['toolu_x', 'invalid-json'],
      ['toolu_q', 'aborted'],
    ]);
    expect(first.message.parts).toContainEqual(expect.objectContaining({ toolCallId: 'toolu_q', state: 'output-error', errorText: unrun }));
    expect(first.message.parts.filter((p) => p.type === SEAL_PART).map((p) => (p as { id: string }).id)).toEqual(['toolu_x', 'toolu_q']);

    // The user denies the write and asks again: the model reads all three calls and why none ran.
    const second = await agent.generate({ messages: userSays(respondToApproval(first.messages, 'toolu_w', false), 'try again'), run: run('c-max-whole') });
    expect(second.text).toBe('Let me try again.');
    expect(writes).toEqual([]);
    expect(blocksOf(1, 'tool_use').map((b) => b.id)).toEqual(['toolu_w', 'toolu_q', 'toolu_x']);
    const sent = new Map(blocksOf(1, 'tool_result').map((b) => [b.tool_use_id, b]));
    expect(sent.get('toolu_q')).toEqual({ type: 'tool_result', tool_use_id: 'toolu_q', is_error: true, content: unrun });
    expect(sent.get('toolu_x')).toMatchObject({ is_error: true, content: `Error (invalid-json): ${cutArgumentsText('query_order')}` });
    expect(sent.has('toolu_w')).toBe(true);
  });

  it.each(['compaction', 'some_new_reason'])('a stop reason the provider maps to other (%s) after a whole call: the call does not run, and says why', async (stopReason) => {
    fake.enqueue({ toolCalls: [{ id: 'toolu_o', name: 'query_order', args: { order_id: 'A-1' } }], stopReason });
    const result = await agentFor().generate({ messages: 'where is A-1', run: run(`c-${stopReason}`) });
    expect(result.finishReason).toBe('other');
    expect(result.toolResults.map((r) => [r.call.id, r.outcome.type === 'error' ? r.outcome.error.code : r.outcome.type])).toEqual([['toolu_o', 'aborted']]);
    expect(fake.requests).toHaveLength(1);
  });

  it('a refusal after a whole call: the call does not run, and says why', async () => {
    fake.enqueue({ toolCalls: [{ id: 'toolu_r', name: 'query_order', args: { order_id: 'A-1' } }], stopReason: 'refusal' });
    const turn = await agentFor().stream({ messages: 'where is A-1', run: run('c-refusal-call') });
    const chunks = await sseChunks(turn.toResponse());
    const at = (type: string) => chunks.findIndex((c) => c.type === type);
    // Its seal goes out before its result, as any result's: after the step, before the turn's finish.
    expect(at('tool-input-available')).toBeLessThan(at('finish-step'));
    expect(at('finish-step')).toBeLessThan(at('data-edgetool-seal'));
    expect(at('data-edgetool-seal')).toBeLessThan(at('tool-output-error'));
    expect(chunks.find((c) => c.type === 'tool-output-error')).toEqual({ type: 'tool-output-error', toolCallId: 'toolu_r', errorText: `Error (aborted): ${UNRUN_CALL_TEXT}` });
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'content-filter' });
  });

  it('a text turn cut at max_tokens after whole calls: the server call gets its result, the approval stays pending, the conversation goes on', async () => {
    const writes: unknown[] = [];
    fake.enqueue(
      {
        toolCalls: [
          { id: 'toolu_w', name: 'update_delivery_date', args: { order_id: 'A-1', new_date: '2026-12-24' } },
          { id: 'toolu_q', name: 'query_order', args: { order_id: 'A-1' } },
        ],
        stopReason: 'max_tokens',
      },
      { text: 'Let me try again.' },
    );
    const agent = agentFor({}, writes);
    const seen: string[] = [];
    const first = await generateTextTurn(agent, { messages: 'move A-1', run: run('c-text-max'), onToolResult: (r) => seen.push(r.call.id) });
    expect(first.finishReason).toBe('length');
    expect(first.pending.map((p) => [p.toolCallId, p.kind])).toEqual([['toolu_w', 'approval']]);
    expect(first.toolResults.map((r) => [r.call.id, r.outcome.type === 'error' ? r.outcome.error.code : r.outcome.type])).toEqual([['toolu_q', 'aborted']]);
    expect(seen).toEqual(['toolu_q']);
    expect(first.messages.at(-1)).toEqual({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'toolu_q', toolName: 'query_order', output: { type: 'error-text', value: `Error (aborted): ${UNRUN_CALL_TEXT}` } }],
    });

    // Denied, the write does not run; the model reads both calls' results (before: the next request failed on the
    // query's missing result).
    const second = await generateTextTurn(agent, { messages: first.messages, approvals: { toolu_w: { approved: false } }, run: run('c-text-max') });
    expect(second.text).toBe('Let me try again.');
    expect(writes).toEqual([]);
    // The provider sends a denial as a plain tool_result (no is_error).
    expect(blocksOf(1, 'tool_result').map((b) => [b.tool_use_id, b.is_error])).toEqual([
      ['toolu_q', true],
      ['toolu_w', undefined],
    ]);
  });

  it('malformed arguments in a step that ended normally still read as invalid JSON, and a stream keeps the calls’ order', async () => {
    fake.enqueue(
      {
        toolCalls: [
          { id: 'toolu_x', name: 'query_order', args: '{"order_id": ' },
          { id: 'toolu_y', name: 'query_order', args: { order_id: 'A-2' } },
        ],
      },
      { text: 'One failed.' },
    );
    await agentFor().generate({ messages: 'two', run: run('c-bad-json') });
    expect(blocksOf(1, 'tool_use').map((b) => b.id)).toEqual(['toolu_x', 'toolu_y']);
    const [bad] = blocksOf(1, 'tool_result').filter((b) => b.tool_use_id === 'toolu_x');
    expect(String(bad?.content)).toMatch(/^Error \(invalid-json\): The arguments for "query_order" are not valid JSON/);
  });

  it('pause_turn and refusal end the turn as the provider maps them (stop, content-filter), text kept', async () => {
    fake.enqueue({ text: 'Still searching', stopReason: 'pause_turn' }, { text: 'I can’t help with that.', stopReason: 'refusal' });
    const paused = await agentFor().generate({ messages: 'search', run: run('c-pause') });
    expect([paused.text, paused.finishReason]).toEqual(['Still searching', 'stop']);
    const refusal = await agentFor().generate({ messages: 'bad', run: run('c-refusal') });
    expect([refusal.text, refusal.finishReason]).toEqual(['I can’t help with that.', 'content-filter']);
  });
});

describe('structured output on the real Anthropic provider (a text turn, not streamed)', () => {
  const Verdict = v.object({ order_id: v.pipe(v.string(), v.minLength(1)), late: v.boolean(), note: v.optional(v.string()) });

  it('tools, then a JSON answer: the schema goes out as output_config.format on every step, the output is typed', async () => {
    fake.enqueue({ toolCalls: [{ id: 'toolu_q', name: 'query_order', args: { order_id: 'A-7' } }] }, { text: '{"order_id":"A-7","late":true,"note":null}' });
    const result = await generateTextTurn(agentFor(), { messages: 'Is A-7 late?', run: run('c-output'), output: Verdict });
    expect(result.output).toEqual({ order_id: 'A-7', late: true });
    for (const request of fake.requests) {
      expect(request.body.stream).toBeUndefined();
      expect(request.body.output_config).toMatchObject({ format: { type: 'json_schema', schema: expect.objectContaining({ type: 'object' }) } });
    }
    // The strict form edgetool makes (every property required, the optional one nullable), which Anthropic's structured
    // outputs take too; the provider moves `minLength` into the description.
    expect(fake.requests[0]?.body.output_config).toEqual({
      format: {
        type: 'json_schema',
        schema: {
          type: 'object',
          properties: { order_id: { description: '(minLength: 1)', type: 'string' }, late: { type: 'boolean' }, note: { type: ['string', 'null'] } },
          additionalProperties: false,
          required: ['order_id', 'late', 'note'],
        },
      },
    });
    expect(fake.requests[0]?.headers['anthropic-beta']).toBe('structured-outputs-2025-11-13');
  });

  it('an answer cut at max_tokens says so: one repair round, then invalid-output', async () => {
    fake.enqueue({ text: '{"order_id":"A-7","la', stopReason: 'max_tokens' }, { text: '{"order_id":"A-7","late":tr', stopReason: 'max_tokens' });
    const error = await generateTextTurn(agentFor(), { messages: 'Is A-7 late?', run: run('c-output-cut'), output: Verdict }).catch((e: unknown) => e);
    expect(ToolError.isInstance(error) && error.code).toBe('invalid-output');
    expect(String((error as Error).message)).toContain('cut off at the output token limit');
    expect(fake.requests).toHaveLength(2);
  });
});
