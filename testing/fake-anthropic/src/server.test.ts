// The wire, read with fetch; the real @ai-sdk/anthropic provider drives this server in packages/ai's
// `*.anthropic.node.test.ts` (the provider is a devDependency of packages/ai only).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from './server.ts';
import type { FakeAnthropic } from './types.ts';

let fake: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic({ apiKey: 'test' });
});
afterEach(() => fake.reset());
afterAll(() => fake.close());

const headers = { 'content-type': 'application/json', 'x-api-key': 'test', 'anthropic-version': '2023-06-01' };
const body = { model: 'claude-test', max_tokens: 1024, stream: true, messages: [{ role: 'user', content: 'Hi' }] };

const post = (payload: unknown, extra: Record<string, string> = {}) =>
  fetch(`${fake.baseURL}/messages`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(payload) });

/** Parses an SSE body into `[event name, data]` pairs, checking each block is `event:` then `data:`. */
async function sse(response: Response): Promise<[string, Record<string, unknown>][]> {
  const text = await response.text();
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((block) => {
      const [event, data, ...rest] = block.split('\n');
      expect(rest).toEqual([]);
      expect(event).toMatch(/^event: \w+$/);
      expect(data).toMatch(/^data: \{/);
      const json = JSON.parse(data?.slice('data: '.length) ?? '') as Record<string, unknown>;
      expect(json.type).toBe(event?.slice('event: '.length));
      return [json.type as string, json];
    });
}

const error = async (response: Response) => [response.status, await response.json()];

describe('startFakeAnthropic', () => {
  it('listens on loopback only, under a /v1 base URL', async () => {
    expect(fake.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    await expect(startFakeAnthropic({ host: '0.0.0.0' })).rejects.toThrow(/loopback/);
  });

  it('streams text as one text block of word deltas, ending the turn', async () => {
    fake.enqueue({ text: 'Sunny in Paris.', usage: { inputTokens: 12, outputTokens: 4 } });
    const response = await post(body);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await sse(response)).toEqual([
      ['message_start', { type: 'message_start', message: expect.objectContaining({ id: expect.stringMatching(/^msg_\d+$/), type: 'message', role: 'assistant', model: 'claude-test', content: [], usage: { input_tokens: 12, output_tokens: 1 } }) }],
      ['ping', { type: 'ping' }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Sunny ' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'in ' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Paris.' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 4 } }],
      ['message_stop', { type: 'message_stop' }],
    ]);
  });

  it('streams text and then each tool call as a tool_use block of input_json_delta pieces, stopping for tool_use', async () => {
    fake.enqueue({ text: 'Let me look.', toolCalls: [{ id: 'toolu_a', name: 'weather', args: { city: 'Paris', days: 2 } }, { name: 'clock', args: {} }] });
    const events = await sse(await post(body));
    const blocks = events.filter(([type]) => type.startsWith('content_block')).map(([, data]) => data);
    expect(blocks.filter((block) => block.index === 1)).toEqual([
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_a', name: 'weather', input: {} } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"Paris",' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"days":' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '2}' } },
      { type: 'content_block_stop', index: 1 },
    ]);
    expect(blocks.find((block) => block.index === 2)).toEqual({
      type: 'content_block_start',
      index: 2,
      content_block: { type: 'tool_use', id: expect.stringMatching(/^toolu_\d+$/), name: 'clock', input: {} },
    });
    expect(events.at(-2)?.[1]).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  });

  it('records what the client sent: the body as it is and the headers', async () => {
    fake.enqueue({ text: 'ok' });
    await (await post(body, { 'anthropic-beta': 'pdfs-2024-09-25' })).text();
    expect(fake.requests).toEqual([
      { index: expect.any(Number), model: 'claude-test', body, headers: expect.objectContaining({ 'x-api-key': 'test', 'anthropic-beta': 'pdfs-2024-09-25' }) },
    ]);
  });
});

describe('thinking, stop reasons, cut streams and whole replies', () => {
  it('thinking blocks come first: thinking_delta pieces then one signature_delta; a redacted block whole in its start', async () => {
    fake.enqueue({ thinking: [{ thinking: 'Check the order.', signature: 'sig-1' }, { redacted: 'opaque-1' }], text: 'Done.' });
    const blocks = (await sse(await post(body))).filter(([type]) => type.startsWith('content_block')).map(([, data]) => data);
    expect(blocks.slice(0, 7)).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Check ' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'the ' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'order.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-1' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'opaque-1' } },
    ]);
    expect(blocks[8]).toEqual({ type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } });
  });

  it('a thinking block sent back must be one the server issued, with its text; a redacted one, its data', async () => {
    fake.enqueue({ thinking: [{ thinking: 'Plan.', signature: 'sig-2' }, { redacted: 'opaque-2' }], text: 'A' }, { text: 'B' });
    await (await post(body)).text();
    const back = (content: unknown[]) => ({ ...body, messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content }, { role: 'user', content: 'Go on' }] });
    const thinking = { type: 'thinking', thinking: 'Plan.', signature: 'sig-2' };
    const redacted = { type: 'redacted_thinking', data: 'opaque-2' };
    const refusals = [
      [{ ...thinking, thinking: 'Plan B.' }, /messages\.1\.content\.0: Invalid `signature` in `thinking` block/],
      [{ ...thinking, signature: 'sig-forged' }, /Invalid `signature`/],
      [{ ...redacted, data: 'opaque-forged' }, /messages\.1\.content\.0: Invalid `data` in `redacted_thinking` block/],
    ] as const;
    for (const [block, message] of refusals) {
      const [status, json] = await error(await post(back([block, { type: 'text', text: 'A' }])));
      expect([status, json]).toEqual([400, { type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(message) } }]);
    }
    expect(fake.requests).toHaveLength(1);
    await (await post(back([thinking, redacted, { type: 'text', text: 'A' }]))).text();
    expect(fake.requests).toHaveLength(2);
  });

  it('every tool_use block needs its tool_result in the next message, as the API says (400, no turn used)', async () => {
    fake.enqueue({ text: 'A' });
    const call = (id: string) => ({ type: 'tool_use', id, name: 'clock', input: {} });
    const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'noon' });
    const send = (answer: unknown) =>
      post({ ...body, messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: [call('toolu_a'), call('toolu_b')] }, answer] });
    for (const answer of [{ role: 'user', content: [result('toolu_a')] }, { role: 'user', content: 'Go on' }]) {
      const missing = answer.content === 'Go on' ? 'toolu_a, toolu_b' : 'toolu_b';
      expect(await error(await send(answer))).toEqual([
        400,
        {
          type: 'error',
          error: {
            type: 'invalid_request_error',
            message: `messages.2: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
          },
        },
      ]);
    }
    expect(fake.requests).toHaveLength(0);
    await (await send({ role: 'user', content: [result('toolu_b'), result('toolu_a')] })).text();
    expect(fake.requests).toHaveLength(1);
  });

  it('with thinking enabled, a last assistant message with tool calls must start with its thinking block', async () => {
    const messages = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_x', name: 'clock', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'noon' }] },
    ];
    const [status, json] = await error(await post({ ...body, thinking: { type: 'enabled', budget_tokens: 1024 }, messages }));
    expect(status).toBe(400);
    expect(json).toMatchObject({ error: { message: expect.stringMatching(/^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`/) } });
  });

  it('a stop reason of the turn’s own, an error event in place of the ending, and a stream cut after n events', async () => {
    fake.enqueue(
      { toolCalls: [{ id: 'toolu_m', name: 'clock', args: '{"zone": "Eu' }], stopReason: 'max_tokens' },
      { text: 'Half', streamError: { type: 'overloaded_error', message: 'Overloaded' } },
      { text: 'Cut short here', cut: { afterEvents: 4 } },
    );
    expect((await sse(await post(body))).at(-2)?.[1]).toMatchObject({ delta: { stop_reason: 'max_tokens' } });
    expect((await sse(await post(body))).slice(-2)).toEqual([
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }],
    ]);
    expect((await sse(await post(body))).map(([type]) => type)).toEqual(['message_start', 'ping', 'content_block_start', 'content_block_delta']);
  });

  it('a request that does not stream gets the same reply as one JSON message', async () => {
    fake.enqueue({ thinking: [{ thinking: 'Hmm.', signature: 'sig-3' }], text: 'Let me look.', toolCalls: [{ id: 'toolu_j', name: 'clock', args: { zone: 'UTC' } }], usage: { inputTokens: 9, outputTokens: 5 } });
    const response = await post({ ...body, stream: false });
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({
      id: expect.stringMatching(/^msg_\d+$/),
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [
        { type: 'thinking', thinking: 'Hmm.', signature: 'sig-3' },
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'toolu_j', name: 'clock', input: { zone: 'UTC' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 9, output_tokens: 5 },
    });
  });
});

describe('errors, in the Messages API’s shape', () => {
  const error = async (response: Response) => [response.status, await response.json()];

  it('a wrong key, a missing anthropic-version and a bad body; none uses a turn', async () => {
    fake.enqueue({ text: 'unused' }, { text: 'used' });
    expect(await error(await post(body, { 'x-api-key': 'wrong' }))).toEqual([401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }]);
    const { 'anthropic-version': _, ...unversioned } = headers;
    const response = await fetch(`${fake.baseURL}/messages`, { method: 'POST', headers: unversioned, body: JSON.stringify(body) });
    expect(await error(response)).toEqual([400, { type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' } }]);
    expect((await error(await post({ ...body, max_tokens: undefined })))[1]).toMatchObject({ error: { message: 'max_tokens: Field required' } });
    expect((await error(await fetch(`${fake.baseURL}/complete`, { method: 'POST', headers })))[0]).toBe(404);
    expect(fake.requests).toEqual([]);
  });

  it('a scripted error turn, and a request with no turn queued (400, which the AI SDK does not retry)', async () => {
    fake.enqueue({ error: { status: 529, message: 'Overloaded' } });
    expect(await error(await post(body))).toEqual([529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]);
    fake.enqueue({ error: { status: 429, message: 'Slow down', headers: { 'retry-after': '1' } } });
    const limited = await post(body);
    expect([limited.status, limited.headers.get('retry-after'), await limited.json()]).toEqual([429, '1', { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } }]);
    expect(await error(await post(body))).toEqual([400, { type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(/no turn queued/) } }]);
    expect(fake.requests).toHaveLength(3);
  });
});
