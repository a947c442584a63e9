// Node-only: what real OpenAI-compatible servers (OpenAI, Azure, vLLM, Ollama, LM Studio, OpenRouter, Groq) send that a
// clean script does not, written on the wire by the local fake OpenAI server's raw turns (127.0.0.1), read by the real
// @ai-sdk/openai provider (Chat Completions), through the UI turn and the text turn.
import { createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import { type FakeOpenAI, type FakeTurn, startFakeOpenAI } from '@edgetool/fake-openai';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createModelFromEnv } from '../provider.ts';
import { readAll } from '../test-support/chat-streams.ts';
import { userSays } from '../testing/client.ts';
import { type ChatAgentOptions, createChatAgent, MODEL_CUT_TEXT } from './chat-agent.ts';
import { cutArgumentsText, unfinishedArgumentsText } from './cut-arguments.ts';
import { ModelReplyError } from './model-reply-error.ts';
import { generateTextTurn } from './text-turn.ts';
import { UNRUN_CALL_TEXT } from './unrun-calls.ts';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: 'sk-fake' });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const tickets = createTicketSigner({ keys: [{ id: 'k', secret: 'real-server-streams-secret-32-bytes!' }] });

/** Every run of a tool, with its input. */
let runs: [string, unknown][] = [];
beforeEach(() => {
  runs = [];
});

const tools = [
  defineTool({
    name: 'query_order',
    description: 'Look up an order by id',
    input: v.object({ order_id: v.string() }),
    execute: ({ order_id }) => {
      runs.push(['query_order', { order_id }]);
      return { order_id, status: 'shipped' };
    },
  }),
  defineTool({
    name: 'save_note',
    description: 'Save a note',
    input: v.object({ note: v.string() }),
    execute: ({ note }) => {
      runs.push(['save_note', { note }]);
      return { saved: note };
    },
  }),
  defineTool({
    name: 'cancel_order',
    description: 'Cancel an order',
    input: v.object({ order_id: v.string() }),
    policy: { effects: 'destructive' },
    execute: ({ order_id }) => {
      runs.push(['cancel_order', { order_id }]);
      return { order_id, cancelled: true };
    },
  }),
  defineTool({
    name: 'list_orders',
    description: 'List every order (no parameters)',
    input: v.object({}),
    execute: (input) => {
      runs.push(['list_orders', input]);
      return { orders: ['A-1', 'A-2'] };
    },
  }),
];

const agentFor = (extra: Partial<ChatAgentOptions> = {}, server: FakeOpenAI = fake) => {
  const { model } = createModelFromEnv({ OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: server.baseURL, OPENAI_API: 'chat', OPENAI_MODEL: 'gpt-4o' });
  return createChatAgent({ model, tools, tickets, maxRetries: 0, ...extra });
};
const run = () => createRunContext({ conversationId: 'c-wire' });

// Chat Completions chunks, as the wire carries them.
const BASE = { id: 'chatcmpl-w', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-4o' };
type Delta = Record<string, unknown>;
const chunk = (delta: Delta, finishReason: string | null = null) => ({ ...BASE, choices: [{ index: 0, delta, finish_reason: finishReason }] });
const usage = (prompt: number, completion: number) => ({ ...BASE, choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } });
const callStart = (index: number, id: string, name: string, args = '') =>
  chunk({ tool_calls: [{ index, id, type: 'function', function: { name, arguments: args } }] });
const argsDelta = (index: number, piece: string) => chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
const finish = (reason: string) => chunk({}, reason);
const stream = (events: readonly unknown[], more: { done?: boolean; drop?: boolean } = {}): FakeTurn => ({ raw: { events, ...more } });
/** One whole call in one step: its head, the arguments in one delta, `tool_calls`, usage. */
const oneCall = (id: string, name: string, args: string, tokens: [number, number] = [10, 5]): FakeTurn =>
  stream([callStart(0, id, name), argsDelta(0, args), finish('tool_calls'), usage(...tokens)]);
/** A text answer in one step. */
const answer = (text: string, tokens: [number, number] = [20, 5]): FakeTurn => stream([chunk({ role: 'assistant', content: text }), finish('stop'), usage(...tokens)]);

/** What the model read for each call in request `index`: tool message contents by call id. */
const modelRead = (index: number) => new Map((fake.requests[index]?.messages ?? []).flatMap((m) => (m.role === 'tool' ? [[m.toolCallId, m.content] as const] : [])));
const errorCode = (r: { outcome: { type: string; error?: { code: string } } }) => (r.outcome.type === 'error' ? r.outcome.error?.code : r.outcome.type);

describe('tool-call arguments as real servers stream them (UI turn)', () => {
  it('split into one-character deltas, mid-escape (\\" and \\u00e9), after a head with the id and name and empty arguments', async () => {
    const args = '{"note":"say \\"hi\\" at the caf\\u00e9"}';
    const pieces = [...args];
    fake.enqueue(stream([callStart(0, 'call_s', 'save_note', ''), ...pieces.map((p) => argsDelta(0, p)), finish('tool_calls'), usage(10, 5)]), answer('Saved.'));
    const result = await agentFor().generate({ messages: 'note it', run: run() });
    expect(result.text).toBe('Saved.');
    expect(runs).toEqual([['save_note', { note: 'say "hi" at the café' }]]);
    expect(modelRead(1).get('call_s')).toBe('{"saved":"say \\"hi\\" at the café"}');
  });

  it('parallel calls whose deltas interleave by index: each runs once with its own arguments', async () => {
    fake.enqueue(
      stream([
        callStart(0, 'call_a', 'query_order'),
        callStart(1, 'call_b', 'save_note'),
        argsDelta(1, '{"note":'),
        argsDelta(0, '{"order_id":'),
        argsDelta(1, '"B"}'),
        argsDelta(0, '"A-1"}'),
        finish('tool_calls'),
        usage(10, 5),
      ]),
      answer('Done.'),
    );
    const result = await agentFor().generate({ messages: 'both', run: run() });
    expect(result.text).toBe('Done.');
    expect(runs).toEqual(expect.arrayContaining([['query_order', { order_id: 'A-1' }], ['save_note', { note: 'B' }]]));
    expect(runs).toHaveLength(2);
    expect(modelRead(1)).toEqual(new Map([['call_a', '{"order_id":"A-1","status":"shipped"}'], ['call_b', '{"saved":"B"}']]));
  });
});

/** A non-streamed `chat.completion` body (what the text turn reads). */
const completion = (message: Record<string, unknown>, finishReason: string, tokens?: [number, number]): FakeTurn => ({
  raw: {
    body: {
      id: 'chatcmpl-b',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gpt-4o',
      choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finishReason }],
      ...(tokens === undefined ? {} : { usage: { prompt_tokens: tokens[0], completion_tokens: tokens[1], total_tokens: tokens[0] + tokens[1] } }),
    },
  },
});
const wholeCall = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } });

type Turn = 'UI turn' | 'text turn';
/** Runs one turn of each kind on the same conversation start; the text turn is not streamed. */
const turnOf = async (kind: Turn, extra: Partial<ChatAgentOptions> = {}) => {
  const agent = agentFor(extra);
  if (kind === 'UI turn') {
    const result = await agent.generate({ messages: 'go', run: run() });
    return { ...result, steps: undefined };
  }
  return await generateTextTurn(agent, { messages: 'go', run: run() });
};

describe.each(['UI turn', 'text turn'] as const)('argument values real servers send (%s)', (kind) => {
  const call = (name: string, args: string) => fake.enqueue({ toolCalls: [{ id: 'call_v', name, args }] }, { text: 'Answered.' });

  it('"" and "{}" for a tool with no parameters: it runs with {}', async () => {
    for (const args of ['', '{}']) {
      fake.reset();
      runs = [];
      call('list_orders', args);
      const result = await turnOf(kind);
      expect(result.text).toBe('Answered.');
      expect(runs).toEqual([['list_orders', {}]]);
      expect(modelRead(1).get('call_v')).toBe('{"orders":["A-1","A-2"]}');
    }
  });

  it('"null", a JSON array, trailing text after the JSON: nothing runs, the model reads why, the turn goes on', async () => {
    const cases = [
      ['list_orders', 'null', 'invalid-input', 'Expected Object but received null'],
      ['query_order', '["A-1"]', 'invalid-input', 'Expected Object but received Array'],
      // valibot's v.object takes an array (as {}): a tool without parameters ran on one before the executor refused it.
      ['list_orders', '[]', 'invalid-input', 'Expected Object but received Array'],
      ['query_order', '{"order_id":"A-1"} <|eom_id|>', 'invalid-json', 'are not valid JSON (Unexpected non-whitespace character after JSON'],
    ] as const;
    for (const [name, args, code, says] of cases) {
      fake.reset();
      runs = [];
      call(name, args);
      const result = await turnOf(kind);
      expect(result.text).toBe('Answered.');
      expect(runs).toEqual([]);
      expect(result.toolResults.map(errorCode)).toEqual([code]);
      expect(JSON.parse(modelRead(1).get('call_v') ?? '{}').error).toContain(says);
    }
  });

  it('arguments encoded twice (a JSON string holding the JSON): refused as a string, not parsed again and run', async () => {
    // Before: the AI SDK parsed the text to a string, the approval step refused it as invalid (no human asked), and the
    // tool wrapper handed the string to the executor as text, which parsed it again: a read tool ran on it, and a
    // destructive one read "Waiting for the user to approve", which no one was asked.
    for (const name of ['query_order', 'cancel_order']) {
      fake.reset();
      runs = [];
      call(name, JSON.stringify(JSON.stringify({ order_id: 'A-1' })));
      const result = await turnOf(kind);
      expect(result).toMatchObject({ text: 'Answered.', pending: [] });
      expect(runs).toEqual([]);
      expect(result.toolResults.map(errorCode)).toEqual(['invalid-input']);
      expect(JSON.parse(modelRead(1).get('call_v') ?? '{}').error).toBe(
        `Error (invalid-input): Invalid arguments for "${name}".\n- (root): Invalid type: Expected Object but received "{"order_id":"A-1"}"\nFix these arguments and call the tool again.`,
      );
    }
  });

  it('a tool name that differs only in case is an unknown tool, the model reads the names there are', async () => {
    call('Query_Order', '{"order_id":"A-1"}');
    const result = await turnOf(kind);
    expect(runs).toEqual([]);
    expect(result.toolResults.map(errorCode)).toEqual(['unknown-tool']);
    expect(JSON.parse(modelRead(1).get('call_v') ?? '{}').error).toBe(
      'Error (unknown-tool): Unknown tool "Query_Order". Available tools: query_order, save_note, cancel_order, list_orders.',
    );
  });
});

describe('a call cut off in its arguments', () => {
  it('finish_reason "length" mid-arguments (Chat Completions, streamed): not run, the model reads the cut, the turn goes on', async () => {
    fake.enqueue(stream([callStart(0, 'call_c', 'save_note'), argsDelta(0, '{"note":"a long'), finish('length'), usage(10, 50)]), answer('Shorter then.'));
    const result = await agentFor().generate({ messages: 'note it', run: run() });
    expect(runs).toEqual([]);
    expect(result.text).toBe('Shorter then.');
    expect(JSON.parse(modelRead(1).get('call_c') ?? '{}').error).toBe(`Error (invalid-json): ${cutArgumentsText('save_note')}`);
    expect(result.message.parts.find((p) => p.type === 'tool-save_note')).toMatchObject({ state: 'output-error', errorText: `Error (invalid-json): ${cutArgumentsText('save_note')}` });
    expect(result.usage.totalTokens).toBe(85);
  });

  it('finish_reason "length" mid-arguments (text turn, not streamed): the same', async () => {
    fake.enqueue(completion({ tool_calls: [wholeCall('call_c', 'save_note', '{"note":"a long')] }, 'length', [10, 50]), completion({ content: 'Shorter then.' }, 'stop', [20, 5]));
    const result = await generateTextTurn(agentFor(), { messages: 'note it', run: run() });
    expect(runs).toEqual([]);
    expect(result).toMatchObject({ text: 'Shorter then.', steps: 2 });
    expect(JSON.parse(modelRead(1).get('call_c') ?? '{}').error).toBe(`Error (invalid-json): ${cutArgumentsText('save_note')}`);
    expect(result.usage.totalTokens).toBe(85);
  });

  // The Responses API never makes such a call a call (no `output_item.done`): the part kept streaming for ever, no result
  // said why, and the next prompt dropped it.
  const created = { type: 'response.created', response: { id: 'resp_c', created_at: 1_700_000_000, model: 'gpt-4o' } };
  const added = { type: 'response.output_item.added', output_index: 0, item: { type: 'function_call', id: 'fc_c', call_id: 'call_c', name: 'save_note', arguments: '' } };
  const delta = { type: 'response.function_call_arguments.delta', item_id: 'fc_c', output_index: 0, delta: '{"note":"a long' };
  const incomplete = { type: 'response.incomplete', response: { usage: { input_tokens: 10, output_tokens: 50, total_tokens: 60 }, incomplete_details: { reason: 'max_output_tokens' } } };
  const responsesAgent = (extra: Partial<ChatAgentOptions> = {}) => {
    const { model } = createModelFromEnv({ OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: fake.baseURL, OPENAI_API: 'responses', OPENAI_MODEL: 'gpt-4o' });
    return createChatAgent({ model, tools, tickets, maxRetries: 0, ...extra });
  };

  it('the Responses API\'s response.incomplete inside a call\'s arguments: the call says it was cut, the next turn\'s model reads it', async () => {
    fake.enqueue(stream([created, added, delta, incomplete], { done: false }));
    const agent = responsesAgent();
    const first = await agent.generate({ messages: 'note it', run: run() });
    expect(runs).toEqual([]);
    expect(first.finishReason).toBe('length');
    const cut = `Error (invalid-json): ${cutArgumentsText('save_note')}`;
    expect(first.message.parts.find((p) => p.type === 'tool-save_note')).toMatchObject({ state: 'output-error', input: '{"note":"a long', errorText: cut });
    expect(first.toolResults.map(errorCode)).toEqual(['invalid-json']);
    fake.enqueue({ text: 'Shorter then.' });
    const second = await agent.generate({ messages: userSays(first.messages, 'and?'), run: run() });
    expect(second.text).toBe('Shorter then.');
    expect(JSON.parse(modelRead(1).get('call_c') ?? '{}').error).toBe(cut);
  });

  it('a Responses stream that ends inside a call\'s arguments: the call is not run and says so, then the cut-off error', async () => {
    fake.enqueue(stream([created, added, delta], { done: false }));
    const errors: unknown[] = [];
    const turn = await responsesAgent({ onError: ({ error }) => errors.push(error) }).stream({ messages: 'note it', run: run() });
    const chunks = await readAll(turn.stream);
    const result = await turn.result;
    expect(runs).toEqual([]);
    expect(result.finishReason).toBe('interrupted');
    expect(chunks.find((c) => c.type === 'tool-input-error')).toMatchObject({ toolCallId: 'call_c', errorText: `Error (aborted): ${unfinishedArgumentsText('save_note')}` });
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: expect.stringContaining(MODEL_CUT_TEXT) });
    expect(errors).toHaveLength(1);
  });
});

describe('streams that end badly (UI turn)', () => {
  it('a stream with its finish and usage but no [DONE] is a whole answer', async () => {
    fake.enqueue(stream([callStart(0, 'call_d', 'query_order', '{"order_id":"A-1"}'), finish('tool_calls'), usage(10, 5)], { done: false }), answer('Shipped.'));
    const result = await agentFor().generate({ messages: 'where', run: run() });
    expect(result).toMatchObject({ text: 'Shipped.', finishReason: 'stop' });
    expect(runs).toEqual([['query_order', { order_id: 'A-1' }]]);
    expect(result.usage.totalTokens).toBe(40);
  });

  it('a stream that ends cleanly after a whole call but before any finish_reason: the call does not run and gets its result, then the cut-off error', async () => {
    // Before: the call stayed `input-available` in the message for ever, and the next prompt dropped it.
    fake.enqueue(stream([chunk({ role: 'assistant', content: 'Checking. ' }), callStart(0, 'call_d', 'query_order', '{"order_id":"A-1"}')], { done: false }));
    const errors: unknown[] = [];
    const turn = await agentFor({ onError: ({ error }) => errors.push(error) }).stream({ messages: 'where', run: run() });
    const chunks = await readAll(turn.stream);
    const result = await turn.result;
    expect(runs).toEqual([]);
    expect(result.finishReason).toBe('interrupted');
    const unrun = `Error (aborted): ${UNRUN_CALL_TEXT}`;
    expect(result.message.parts.filter((p) => p.type !== 'step-start' && !p.type.startsWith('data-'))).toEqual([
      { type: 'text', text: 'Checking. ', state: 'done' },
      { type: 'tool-query_order', toolCallId: 'call_d', state: 'output-error', input: { order_id: 'A-1' }, errorText: unrun },
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: expect.stringContaining(MODEL_CUT_TEXT) });
    expect(errors).toHaveLength(1);
    // The next turn's model reads that it did not run (the result is sealed like any).
    fake.enqueue(answer('Let me try again.'));
    await agentFor().generate({ messages: userSays(result.messages, 'and?'), run: run() });
    expect(modelRead(1).get('call_d')).toBe(JSON.stringify({ error: unrun }));
  });

  it('a connection dropped mid-call: an error chunk, nothing runs, and the next turn goes on without the unfinished call', async () => {
    fake.enqueue(stream([chunk({ role: 'assistant', content: 'Checking. ' }), callStart(0, 'call_d', 'cancel_order', '{"order_id":"A-1"}')], { drop: true }));
    const errors: unknown[] = [];
    const turn = await agentFor({ onError: ({ error }) => errors.push(error) }).stream({ messages: 'cancel A-1', run: run() });
    const chunks = await readAll(turn.stream);
    const result = await turn.result;
    expect(runs).toEqual([]);
    expect(result.finishReason).toBe('error');
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: 'The model call failed (AI_APICallError).' });
    expect(errors).toHaveLength(1);
    fake.enqueue(answer('Shall I try again?'));
    const next = await agentFor().generate({ messages: userSays(result.messages, 'and?'), run: run() });
    expect(next.text).toBe('Shall I try again?');
    expect(fake.requests.at(-1)?.messages.slice(1)).toEqual([
      { role: 'assistant', content: 'Checking. ', toolCalls: [] },
      { role: 'user', content: 'and?' },
    ]);
    expect(runs).toEqual([]);
  });

  it('an SSE error object in a 200 stream: before any output the AI SDK retries the request; after some, the text stays and nothing is retried', async () => {
    const overloaded = { error: { message: 'Overloaded', type: 'server_error', param: null, code: null } };
    fake.enqueue({ raw: { events: [overloaded], headers: { 'retry-after-ms': '0' } } }, answer('Here.'));
    const retried = await agentFor({ maxRetries: 1 }).generate({ messages: 'hi', run: run() });
    expect(retried).toMatchObject({ text: 'Here.', finishReason: 'stop' });
    expect(fake.requests).toHaveLength(2);
    expect(retried.usage.totalTokens).toBe(25);

    fake.reset();
    fake.enqueue(stream([chunk({ role: 'assistant', content: 'Half an' }), overloaded]), answer('never read'));
    const errors: unknown[] = [];
    const turn = await agentFor({ maxRetries: 1, onError: ({ error }) => errors.push(error) }).stream({ messages: 'hi', run: run() });
    const chunks = await readAll(turn.stream);
    const result = await turn.result;
    expect(fake.requests).toHaveLength(1);
    expect(result).toMatchObject({ text: 'Half an', finishReason: 'error' });
    expect(chunks).toContainEqual({ type: 'error', errorText: "The model's server answered with an error." });
    expect(errors).toEqual([expect.objectContaining({ name: 'ModelReplyError', fault: 'error-reply', serverMessage: 'Overloaded' })]);
    expect((errors[0] as Error).cause).toMatchObject({ name: 'AI_StreamProviderError' });
  });
});

describe.each(['UI turn', 'text turn'] as const)('retries (%s): the AI SDK retries the model call, the loop adds none', (kind) => {
  it('a 429 with retry-after, and a 500, then the answer: two model calls each, the tokens of the answer', async () => {
    for (const status of [429, 500]) {
      fake.reset();
      fake.enqueue({ error: { status, message: 'Slow down', headers: { 'retry-after': '0' } } }, { text: 'Here.', usage: { inputTokens: 20, outputTokens: 5 } });
      const result = await turnOf(kind, { maxRetries: 2 });
      expect(result.text).toBe('Here.');
      expect(fake.requests).toHaveLength(2);
      expect(result.usage.totalTokens).toBe(25);
    }
  });

  it('a tool step, then a 500 on the next model call: retried, the tool ran once', async () => {
    fake.enqueue(
      { toolCalls: [{ id: 'call_r', name: 'save_note', args: { note: 'once' } }] },
      { error: { status: 500, message: 'boom', headers: { 'retry-after-ms': '0' } } },
      { text: 'Saved.' },
    );
    const result = await turnOf(kind, { maxRetries: 2 });
    expect(result.text).toBe('Saved.');
    expect(fake.requests).toHaveLength(3);
    expect(runs).toEqual([['save_note', { note: 'once' }]]);
  });

  it('500 on every try: 1 + maxRetries model calls, then a typed error', async () => {
    fake.respondWith(() => ({ error: { status: 500, message: 'boom', headers: { 'retry-after-ms': '0' } } }));
    const errors: unknown[] = [];
    if (kind === 'UI turn') {
      const turn = await agentFor({ maxRetries: 2, onError: ({ error }) => errors.push(error) }).stream({ messages: 'go', run: run() });
      const chunks = await readAll(turn.stream);
      expect(chunks.at(-1)).toEqual({ type: 'error', errorText: 'The model call failed (AI_RetryError).' });
      expect((await turn.result).finishReason).toBe('error');
    } else {
      errors.push(await generateTextTurn(agentFor({ maxRetries: 2 }), { messages: 'go', run: run() }).catch((e: unknown) => e));
    }
    expect(fake.requests).toHaveLength(3);
    expect(errors).toEqual([expect.objectContaining({ name: 'AI_RetryError', message: expect.stringContaining('boom') })]);
  });
});

/** A call in a step of the UI turn (streamed) or the text turn (a non-streamed body). */
const callStep = (kind: Turn, id: string, name: string, args: string, tokens: [number, number] = [10, 5]): FakeTurn =>
  kind === 'UI turn' ? oneCall(id, name, args, tokens) : completion({ tool_calls: [wholeCall(id, name, args)] }, 'tool_calls', tokens);
const answerStep = (kind: Turn, text: string, tokens: [number, number] = [20, 5]): FakeTurn =>
  kind === 'UI turn' ? answer(text, tokens) : completion({ content: text }, 'stop', tokens);

describe.each(['UI turn', 'text turn'] as const)('ids, names and message shapes (%s)', (kind) => {
  it('the same call id in two steps of a turn: the second is renamed, each runs once, the model reads each result under its own id', async () => {
    fake.enqueue(callStep(kind, 'call_0', 'query_order', '{"order_id":"A-1"}'), callStep(kind, 'call_0', 'query_order', '{"order_id":"A-2"}'), answerStep(kind, 'Both shipped.'));
    const result = await turnOf(kind);
    expect(result.text).toBe('Both shipped.');
    expect(runs).toEqual([
      ['query_order', { order_id: 'A-1' }],
      ['query_order', { order_id: 'A-2' }],
    ]);
    const [first, second] = result.toolResults.map((r) => r.call.id);
    expect(first).toBe('call_0');
    expect(second).toMatch(/^call_0_[0-9a-f]{12}$/);
    expect([...modelRead(2).keys()]).toEqual([first, second]);
    expect(result.usage.totalTokens).toBe(55);
  });

  it('an empty call id: the call gets an id of its own and runs once', async () => {
    fake.enqueue(callStep(kind, '', 'query_order', '{"order_id":"A-1"}'), answerStep(kind, 'Shipped.'));
    const result = await turnOf(kind);
    expect(result.text).toBe('Shipped.');
    expect(runs).toEqual([['query_order', { order_id: 'A-1' }]]);
    const [id] = result.toolResults.map((r) => r.call.id);
    expect(id).toMatch(/^.+$/);
    expect([...modelRead(1).keys()]).toEqual([id]);
  });

  it('content and tool_calls in the same message: the text stays in the conversation, the call runs', async () => {
    const both =
      kind === 'UI turn'
        ? stream([chunk({ role: 'assistant', content: 'Let me check. ' }), callStart(0, 'call_t', 'query_order', '{"order_id":"A-1"}'), finish('tool_calls'), usage(10, 5)])
        : completion({ content: 'Let me check. ', tool_calls: [wholeCall('call_t', 'query_order', '{"order_id":"A-1"}')] }, 'tool_calls', [10, 5]);
    fake.enqueue(both, answerStep(kind, 'Shipped.'));
    const result = await turnOf(kind);
    expect(result.text).toBe('Shipped.');
    expect(runs).toEqual([['query_order', { order_id: 'A-1' }]]);
    expect(fake.requests[1]?.messages[1]).toEqual({
      role: 'assistant',
      content: 'Let me check. ',
      toolCalls: [{ id: 'call_t', name: 'query_order', arguments: '{"order_id":"A-1"}' }],
    });
  });

  it('a refusal: the answer is the refusal\'s text, the finish reason content-filter', async () => {
    const refusal = "I can't help with that.";
    fake.enqueue(
      kind === 'UI turn'
        ? stream([chunk({ role: 'assistant', content: null, refusal: '' }), chunk({ refusal }), finish('stop'), usage(10, 5)])
        : completion({ refusal }, 'stop', [10, 5]),
    );
    const result = await turnOf(kind);
    expect(result).toMatchObject({ text: refusal, finishReason: 'content-filter', toolResults: [], pending: [] });
    expect(result.usage.totalTokens).toBe(15);
  });

  it('reasoning_content and reasoning (vLLM, DeepSeek, OpenRouter): @ai-sdk/openai drops them; the answer and the call are whole', async () => {
    fake.enqueue(
      kind === 'UI turn'
        ? stream([
            chunk({ role: 'assistant', content: null, reasoning_content: 'The user wants ' }),
            chunk({ reasoning_content: 'order A-1.', reasoning: 'order A-1.' }),
            callStart(0, 'call_r', 'query_order', '{"order_id":"A-1"}'),
            finish('tool_calls'),
            usage(10, 5),
          ])
        : completion({ reasoning_content: 'The user wants order A-1.', tool_calls: [wholeCall('call_r', 'query_order', '{"order_id":"A-1"}')] }, 'tool_calls', [10, 5]),
      answerStep(kind, 'Shipped.'),
    );
    const result = await turnOf(kind);
    expect(result.text).toBe('Shipped.');
    expect(runs).toEqual([['query_order', { order_id: 'A-1' }]]);
    expect(JSON.stringify(fake.requests[1]?.body)).not.toContain('The user wants');
    if ('message' in result) expect(result.message.parts.some((p) => p.type === 'reasoning')).toBe(false);
  });

  it('no usage at all: the turn\'s counts are unknown, not 0 or NaN; a token budget cannot stop it, maxSteps still does', async () => {
    const noUsage = (step: FakeTurn): FakeTurn => {
      if (!('raw' in step)) return step;
      const { events, body } = step.raw;
      return events !== undefined
        ? stream(events.filter((e) => !(typeof e === 'object' && e !== null && 'usage' in e)))
        : { raw: { body: { ...(body as object), usage: undefined } } };
    };
    fake.respondWith(() => noUsage(callStep(kind, 'call_n', 'query_order', '{"order_id":"A-1"}')));
    // No estimate before each call: the budget could stop the first step by its prompt's size (prompt-budget.test.ts).
    const result = await turnOf(kind, { tokenBudget: 1, maxSteps: 3, inputTokenEstimate: false });
    expect(fake.requests).toHaveLength(3);
    expect(result.limit).toBe('steps');
    expect(result.usage.totalTokens).toBeUndefined();
    expect(result.usage.inputTokens).toBeUndefined();
  });
});

it('usage in every chunk (vLLM\'s continuous usage stats): the last one counts, not their sum', async () => {
  const counted = (completion: number) => ({ usage: { prompt_tokens: 10, completion_tokens: completion, total_tokens: 10 + completion } });
  fake.enqueue(stream([{ ...chunk({ role: 'assistant', content: 'Ship' }), ...counted(1) }, { ...chunk({ content: 'ped.' }), ...counted(2) }, { ...finish('stop'), ...counted(3) }]));
  const result = await agentFor().generate({ messages: 'where', run: run() });
  expect(result.text).toBe('Shipped.');
  expect(result.usage).toMatchObject({ inputTokens: 10, outputTokens: 3, totalTokens: 13 });
});

// Session 31: what other servers send. A server's error object in a 200, and a reply the provider cannot read, fail the
// turn with a ModelReplyError (the provider's error its cause); the shapes the provider reads run as OpenAI's would.
describe.each(['UI turn', 'text turn'] as const)('an error object in place of a reply (%s)', (kind) => {
  /** The turn's error: what a text turn throws, or what a UI turn hands onError (with the client's error chunk). */
  const failure = async (extra: Partial<ChatAgentOptions> = {}): Promise<{ error: unknown; client?: string }> => {
    if (kind === 'text turn') return { error: await generateTextTurn(agentFor(extra), { messages: 'go', run: run() }).then(() => undefined, (e: unknown) => e) };
    const errors: unknown[] = [];
    const turn = await agentFor({ ...extra, onError: ({ error }) => errors.push(error) }).stream({ messages: 'go', run: run() });
    const chunks = await readAll(turn.stream);
    expect((await turn.result).finishReason).toBe('error');
    expect(errors).toHaveLength(1);
    return { error: errors[0], client: chunks.filter((c) => c.type === 'error').map((c) => c.errorText).join(' | ') };
  };
  /** OpenRouter's upstream error: a 200 whose body (or first event) is an error object, with a `user_id` beside it. */
  const errorReply = (error: Record<string, unknown>): FakeTurn =>
    kind === 'UI turn'
      ? { raw: { events: [{ error }], done: false, headers: { 'retry-after-ms': '0' } } }
      : { raw: { body: { error, user_id: 'user_1' }, headers: { 'retry-after-ms': '0' } } };

  it('says what the server said, typed (ModelReplyError), the provider\'s error its cause; the client reads only that the server failed', async () => {
    // Before: a text turn threw the provider's "Invalid JSON response", the server's words only in its cause's cause; a UI
    // turn's client read "The model call failed (AI_APICallError)."
    fake.enqueue(errorReply({ message: 'Provider returned error', code: 502, metadata: { provider_name: 'Upstream' } }));
    const { error, client } = await failure();
    expect(ModelReplyError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'ModelReplyError',
      fault: 'error-reply',
      serverMessage: 'Provider returned error',
      code: 502,
      message: 'The model\'s server answered with an error in place of a reply: "Provider returned error" (code 502).',
    });
    expect((error as Error).cause).toMatchObject({ name: 'AI_APICallError', message: kind === 'UI turn' ? 'Provider returned error' : 'Invalid JSON response' });
    if (kind === 'UI turn') expect(client).toBe("The model's server answered with an error.");
    expect(fake.requests).toHaveLength(1);
    expect(runs).toEqual([]);
  });

  it('an error that is a string, and one without a code', async () => {
    for (const [error, said] of [[{ message: 'Internal Server Error' }, 'Internal Server Error']] as const) {
      fake.reset();
      fake.enqueue(errorReply(error));
      expect((await failure()).error).toMatchObject({ fault: 'error-reply', serverMessage: said, code: undefined });
    }
    if (kind === 'text turn') {
      fake.reset();
      fake.enqueue({ raw: { body: { error: 'model "llama3" not found, try pulling it first' } } });
      expect((await failure()).error).toMatchObject({ fault: 'error-reply', serverMessage: 'model "llama3" not found, try pulling it first' });
    }
  });

  it('a transient code (503) on every try: 1 + maxRetries model calls, then the same error, the RetryError its cause', async () => {
    // Before: a text turn's 200 body was never retried (the provider reads it as an unreadable 200, not retryable).
    fake.respondWith(() => errorReply({ message: 'Upstream overloaded', code: 503 }));
    const { error } = await failure({ maxRetries: 1 });
    expect(error).toMatchObject({ name: 'ModelReplyError', fault: 'error-reply', serverMessage: 'Upstream overloaded', code: 503 });
    expect(fake.requests).toHaveLength(2);
    expect((error as Error).cause).toMatchObject({ name: 'AI_RetryError' });
  });

  it('a transient code (429, 502, "502", "rate_limit_exceeded", "overloaded"), then the answer: retried within maxRetries, the answer\'s tokens alone', async () => {
    for (const code of [429, 502, '502', 'rate_limit_exceeded', 'overloaded']) {
      fake.reset();
      fake.enqueue(errorReply({ message: 'Provider returned error', code }), answerStep(kind, 'Here.'));
      const result = await turnOf(kind, { maxRetries: 2 });
      expect([code, result.text, fake.requests.length, result.usage.totalTokens]).toEqual([code, 'Here.', 2, 25]);
    }
  });

  it('a tool step, then a transient error reply, then the answer: the tool ran once, each step\'s tokens counted once', async () => {
    fake.enqueue(
      callStep(kind, 'call_e', 'save_note', '{"note":"once"}'),
      errorReply({ message: 'Rate limit exceeded', code: 429 }),
      errorReply({ message: 'Provider returned error', code: 502 }),
      answerStep(kind, 'Saved.'),
    );
    const result = await turnOf(kind, { maxRetries: 2 });
    expect(result.text).toBe('Saved.');
    expect(fake.requests).toHaveLength(4);
    expect(runs).toEqual([['save_note', { note: 'once' }]]);
    expect(result.usage.totalTokens).toBe(40);
    // Each try sent the same prompt: the call and its one result.
    expect(modelRead(3)).toEqual(modelRead(1));
    expect([...modelRead(3).keys()]).toEqual(['call_e']);
  });

  it('a code that is not transient (400, "invalid_request_error", "insufficient_quota"), or maxRetries: 0: one call, the error', async () => {
    for (const [code, maxRetries] of [[400, 2], ['invalid_request_error', 2], ['insufficient_quota', 2], [429, 0]] as const) {
      fake.reset();
      fake.enqueue(errorReply({ message: 'No', code }), answerStep(kind, 'never read'));
      const { error } = await failure({ maxRetries });
      expect([code, fake.requests.length]).toEqual([code, 1]);
      expect(error).toMatchObject({ name: 'ModelReplyError', fault: 'error-reply', code });
    }
  });
});

// @ai-sdk/openai reads a stream's first events before it hands the stream on (Chat Completions and Responses alike), and
// throws an error event that comes before any output as an APICallError, retryable by the code's status: pinned here,
// since the UI turn adds no retry of its own (retryErrorReplies wraps the text turn's non-streamed calls).
describe('an error event before any output of a Responses stream (UI turn)', () => {
  const responsesAgent = (extra: Partial<ChatAgentOptions> = {}) => {
    const { model } = createModelFromEnv({ OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: fake.baseURL, OPENAI_API: 'responses', OPENAI_MODEL: 'gpt-4o' });
    return createChatAgent({ model, tools, tickets, maxRetries: 2, ...extra });
  };
  const created = { type: 'response.created', response: { id: 'resp_e', created_at: 1_700_000_000, model: 'gpt-4o' } };
  const failed = (code: string) => ({ raw: { events: [created, { type: 'error', sequence_number: 1, code, message: 'Try again later', param: null }], done: false, headers: { 'retry-after-ms': '0' } } });

  it('a transient code: the request is sent again, the answer streams once', async () => {
    fake.enqueue(failed('rate_limit_exceeded'), { text: 'Here.', usage: { inputTokens: 20, outputTokens: 5 } });
    const turn = await responsesAgent().stream({ messages: 'hi', run: run() });
    const chunks = await readAll(turn.stream);
    const result = await turn.result;
    expect(result).toMatchObject({ text: 'Here.', finishReason: 'stop' });
    expect(fake.requests).toHaveLength(2);
    expect(chunks.filter((c) => c.type === 'text-delta').map((c) => c.delta).join('')).toBe('Here.');
    expect(chunks.some((c) => c.type === 'error')).toBe(false);
    expect(result.usage.totalTokens).toBe(25);
  });

  it('another code, or one after some output: no retry, the turn fails with the server\'s words', async () => {
    fake.enqueue(failed('invalid_prompt'), { text: 'never read' });
    const errors: unknown[] = [];
    const first = await responsesAgent({ onError: ({ error }) => errors.push(error) }).stream({ messages: 'hi', run: run() });
    await readAll(first.stream);
    expect((await first.result).finishReason).toBe('error');
    expect(fake.requests).toHaveLength(1);
    expect(errors).toEqual([expect.objectContaining({ name: 'ModelReplyError', fault: 'error-reply', code: 'invalid_prompt' })]);

    fake.reset();
    const text = { type: 'response.output_text.delta', item_id: 'msg_e', output_index: 0, content_index: 0, delta: 'Half an' };
    const added = { type: 'response.output_item.added', output_index: 0, item: { type: 'message', id: 'msg_e', role: 'assistant', content: [] } };
    fake.enqueue({ raw: { events: [created, added, text, { type: 'error', sequence_number: 3, code: 'rate_limit_exceeded', message: 'Try again later', param: null }], done: false } }, { text: 'never read' });
    const second = await responsesAgent().stream({ messages: 'hi', run: run() });
    await readAll(second.stream);
    expect(await second.result).toMatchObject({ text: 'Half an', finishReason: 'error' });
    expect(fake.requests).toHaveLength(1);
  });
});

describe.each(['UI turn', 'text turn'] as const)('a reply the provider cannot read (%s): the turn fails naming the server\'s fault, nothing runs', (kind) => {
  const unreadable = async (reply: FakeTurn): Promise<{ error: unknown; client?: string }> => {
    fake.enqueue(reply, answerStep(kind, 'never read'));
    if (kind === 'text turn') return { error: await generateTextTurn(agentFor(), { messages: 'go', run: run() }).then(() => undefined, (e: unknown) => e) };
    const errors: unknown[] = [];
    const turn = await agentFor({ onError: ({ error }) => errors.push(error) }).stream({ messages: 'go', run: run() });
    const chunks = await readAll(turn.stream);
    await turn.result;
    expect(errors).toHaveLength(1);
    return { error: errors[0], client: chunks.filter((c) => c.type === 'error').map((c) => c.errorText).join(' | ') };
  };
  const objectArgs = { index: 0, id: 'call_o', type: 'function', function: { name: 'query_order', arguments: { order_id: 'A-1' } } };

  it('function.arguments as a JSON object, not a string (Ollama, llama.cpp): the path and the issue', async () => {
    const { error, client } = await unreadable(
      kind === 'UI turn' ? stream([chunk({ role: 'assistant', tool_calls: [objectArgs] }), finish('tool_calls'), usage(10, 5)]) : completion({ tool_calls: [objectArgs] }, 'tool_calls', [10, 5]),
    );
    const where = kind === 'UI turn' ? 'choices[0].delta.tool_calls[0]' : 'choices[0].message.tool_calls[0]';
    expect(error).toMatchObject({
      name: 'ModelReplyError',
      fault: 'unreadable',
      message: `The model's server sent a reply its provider cannot read (the server's fault, not the model's): ${where}.function.arguments: Invalid input: expected string, received object.`,
    });
    expect((error as Error).cause).toMatchObject({ name: kind === 'UI turn' ? 'AI_TypeValidationError' : 'AI_APICallError' });
    if (kind === 'UI turn') expect(client).toBe("The model's server sent a reply that could not be read.");
    expect(runs).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it(kind === 'UI turn' ? 'a tool call delta without index (SambaNova, old Ollama, Gemini\'s endpoint)' : 'a tool call without type: "function" (what Ollama omits)', async () => {
    const { error } = await unreadable(
      kind === 'UI turn'
        ? stream([chunk({ role: 'assistant', tool_calls: [{ id: 'call_i', type: 'function', function: { name: 'query_order', arguments: '{"order_id":"A-1"}' } }] }), finish('tool_calls')])
        : completion({ tool_calls: [{ id: 'call_i', function: { name: 'query_order', arguments: '{"order_id":"A-1"}' } }] }, 'tool_calls'),
    );
    expect((error as Error).message).toMatch(
      kind === 'UI turn' ? /: choices\[0\]\.delta\.tool_calls\[0\]\.index: Invalid input: expected number, received undefined\.$/ : /: choices\[0\]\.message\.tool_calls\[0\]\.type: Invalid input: expected "function"\.$/,
    );
    expect(runs).toEqual([]);
  });
});

/** A call in a step that ends with `reason`, streamed (UI turn) or whole (text turn). */
const callEndingWith = (kind: Turn, reason: string, id = 'call_f'): FakeTurn =>
  kind === 'UI turn'
    ? stream([chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id, type: 'function', function: { name: 'query_order', arguments: '{"order_id":"A-1"}' } }] }), finish(reason), usage(10, 5)])
    : completion({ tool_calls: [wholeCall(id, 'query_order', '{"order_id":"A-1"}')] }, reason, [10, 5]);

describe.each(['UI turn', 'text turn'] as const)('finish reasons other servers send with a call (%s)', (kind) => {
  it('"function_call" (the old API\'s name) and "stop" (vLLM with a named tool_choice, Ollama): the call runs', async () => {
    for (const reason of ['function_call', 'stop']) {
      fake.reset();
      runs = [];
      fake.enqueue(callEndingWith(kind, reason), answerStep(kind, 'Shipped.'));
      const result = await turnOf(kind);
      expect(result.text).toBe('Shipped.');
      expect(runs).toEqual([['query_order', { order_id: 'A-1' }]]);
    }
  });

  it('"eos_token" and "eos" (text-generation-inference), "end_turn" (proxies passing Anthropic\'s on): the call runs, as after "tool_calls"', async () => {
    // Before: the provider read them as `other`, the AI SDK ran no call, and the call read "Not run: the model's answer
    // ended early", which the model, ending its next answer the same way, read again and again.
    for (const reason of ['eos_token', 'eos', 'end_turn']) {
      fake.reset();
      runs = [];
      fake.enqueue(callEndingWith(kind, reason), answerStep(kind, 'Shipped.'));
      const result = await turnOf(kind);
      expect(result).toMatchObject({ text: 'Shipped.', finishReason: 'stop', pending: [] });
      expect(runs).toEqual([['query_order', { order_id: 'A-1' }]]);
      expect(modelRead(1).get('call_f')).toBe('{"order_id":"A-1","status":"shipped"}');
    }
  });

  it('"eos_token" after text alone: a finished answer (stop), not a cut one', async () => {
    fake.enqueue(kind === 'UI turn' ? stream([chunk({ role: 'assistant', content: 'Hello.' }), finish('eos_token')]) : completion({ content: 'Hello.' }, 'eos_token'));
    const result = await turnOf(kind);
    expect(result).toMatchObject({ text: 'Hello.', finishReason: 'stop' });
  });
});

describe.each(['UI turn', 'text turn'] as const)('extras and nulls other servers send (%s)', (kind) => {
  it('usage with prompt_tokens_details and completion_tokens_details null (vLLM), and Groq\'s x_groq beside it: the counts are read', async () => {
    const counts = { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15, prompt_tokens_details: null, completion_tokens_details: null };
    const xGroq = { id: 'req_1', usage: { queue_time: 0.07, prompt_tokens: 99, prompt_time: 0.006, completion_tokens: 99, completion_time: 0.02, total_tokens: 198, total_time: 0.03 } };
    fake.enqueue(
      kind === 'UI turn'
        ? stream([chunk({ role: 'assistant', content: 'Hi.' }), { ...finish('stop'), x_groq: xGroq }, { ...BASE, choices: [], usage: counts, x_groq: xGroq }])
        : { raw: { body: { ...BASE, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }], usage: counts, x_groq: xGroq } } },
    );
    const result = await turnOf(kind);
    expect(result.text).toBe('Hi.');
    expect(result.usage).toMatchObject({ inputTokens: 12, outputTokens: 3, totalTokens: 15 });
  });

  it('usage only in x_groq (older Groq): unknown counts, not x_groq\'s, not NaN', async () => {
    const xGroq = { id: 'req_1', usage: { prompt_tokens: 23, completion_tokens: 19, total_tokens: 42 } };
    fake.enqueue(
      kind === 'UI turn'
        ? stream([chunk({ role: 'assistant', content: 'Hi.' }), { ...finish('stop'), x_groq: xGroq }])
        : { raw: { body: { ...BASE, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }], x_groq: xGroq } } },
    );
    const result = await turnOf(kind);
    expect(result.text).toBe('Hi.');
    expect(result.usage.totalTokens).toBeUndefined();
  });

  it('two choices (a server that ignores n: 1): the first choice is the answer', async () => {
    const two = [
      { index: 0, message: { role: 'assistant', content: 'One.' }, finish_reason: 'stop' },
      { index: 1, message: { role: 'assistant', content: 'Two.' }, finish_reason: 'stop' },
    ];
    fake.enqueue(
      kind === 'UI turn'
        ? stream([{ ...BASE, choices: two.map(({ index, message }) => ({ index, delta: message, finish_reason: null })) }, { ...BASE, choices: two.map(({ index }) => ({ index, delta: {}, finish_reason: 'stop' })) }])
        : { raw: { body: { ...BASE, object: 'chat.completion', choices: two } } },
    );
    expect((await turnOf(kind)).text).toBe('One.');
  });
});

describe('stream shapes other servers send (UI turn)', () => {
  it('a whole call in one chunk with finish_reason "tool_calls" in the same chunk (vLLM, Ollama): it runs once', async () => {
    const whole = { index: 0, id: 'call_w', type: 'function', function: { name: 'query_order', arguments: '{"order_id":"A-1"}' } };
    fake.enqueue(stream([{ ...chunk({ role: 'assistant', content: null, tool_calls: [whole] }, 'tool_calls'), usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }]), answer('Shipped.'));
    const result = await agentFor().generate({ messages: 'where', run: run() });
    expect(result.text).toBe('Shipped.');
    expect(runs).toEqual([['query_order', { order_id: 'A-1' }]]);
    expect(result.usage.totalTokens).toBe(40);
  });

  it('content: null and tool_calls: [] on every delta (Groq, vLLM): the text is whole, no call appears', async () => {
    fake.enqueue(
      stream([
        chunk({ role: 'assistant', content: null, tool_calls: [] }),
        chunk({ content: 'Ship', tool_calls: [] }),
        chunk({ content: 'ped.', tool_calls: [] }),
        chunk({ content: null, tool_calls: [] }, 'stop'),
        usage(10, 2),
      ]),
    );
    const result = await agentFor().generate({ messages: 'where', run: run() });
    expect(result).toMatchObject({ text: 'Shipped.', finishReason: 'stop', toolResults: [] });
    expect(result.message.parts.filter((p) => p.type.startsWith('tool-'))).toEqual([]);
  });

  it('no id on any delta, or "" on each: the call gets an id of its own and runs once', async () => {
    for (const id of [undefined, '']) {
      fake.reset();
      runs = [];
      const head = { index: 0, ...(id === undefined ? {} : { id }), type: 'function', function: { name: 'query_order', arguments: '' } };
      const rest = { index: 0, ...(id === undefined ? {} : { id }), function: { arguments: '{"order_id":"A-1"}' } };
      fake.enqueue(stream([chunk({ role: 'assistant', tool_calls: [head] }), chunk({ tool_calls: [rest] }), finish('tool_calls')]), answer('Shipped.'));
      const result = await agentFor().generate({ messages: 'where', run: run() });
      expect(result.text).toBe('Shipped.');
      expect(runs).toEqual([['query_order', { order_id: 'A-1' }]]);
      expect([...modelRead(1).keys()]).toEqual([result.toolResults[0]?.call.id]);
      expect(result.toolResults[0]?.call.id).toMatch(/^.+$/);
    }
  });

  it('parallel calls that all say index 0, told apart by their ids (vLLM, lmdeploy), or ids "0" and "1" on every delta (SGLang): each runs once', async () => {
    for (const [first, second, more] of [
      ['call_a', 'call_b', ''],
      ['0', '1', undefined],
    ] as const) {
      fake.reset();
      runs = [];
      const head = (id: string) => chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name: 'query_order', arguments: '' } }] });
      const args = (id: string, order: string) => chunk({ tool_calls: [{ index: 0, id: more ?? id, function: { arguments: `{"order_id":"${order}"}` } }] });
      fake.enqueue(stream([chunk({ role: 'assistant', content: null }), head(first), args(first, 'A-1'), head(second), args(second, 'A-2'), finish('tool_calls')]), answer('Both shipped.'));
      const result = await agentFor().generate({ messages: 'both', run: run() });
      expect(result.text).toBe('Both shipped.');
      expect(runs).toEqual([
        ['query_order', { order_id: 'A-1' }],
        ['query_order', { order_id: 'A-2' }],
      ]);
      expect(modelRead(1).size).toBe(2);
    }
  });

  it('keep-alive comment lines (": ping", OpenRouter\'s ": OPENROUTER PROCESSING"), CRLF line ends, data: without a space, and an event split across TCP writes', async () => {
    const event = (value: unknown) => `data: ${JSON.stringify(value)}\r\n\r\n`;
    const call = event(chunk({ tool_calls: [{ index: 0, id: 'call_k', type: 'function', function: { name: 'query_order', arguments: '{"order_id":"A-1"}' } }] }));
    fake.enqueue(
      {
        raw: {
          wire: [
            ': OPENROUTER PROCESSING\r\n\r\n',
            event(chunk({ role: 'assistant', content: 'Checking. ' })),
            ': ping\r\n\r\n',
            call.slice(0, 40),
            call.slice(40, -3),
            `${call.slice(-3)}data:${JSON.stringify(finish('tool_calls'))}\r\n`,
            '\r\ndata: [DONE]\r\n\r\n',
          ],
        },
      },
      answer('Shipped.'),
    );
    const result = await agentFor().generate({ messages: 'where', run: run() });
    expect(result.text).toBe('Shipped.');
    expect(runs).toEqual([['query_order', { order_id: 'A-1' }]]);
    expect(fake.requests[1]?.messages[1]).toEqual({ role: 'assistant', content: 'Checking. ', toolCalls: [{ id: 'call_k', name: 'query_order', arguments: '{"order_id":"A-1"}' }] });
  });
});
