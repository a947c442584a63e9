import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackHost, startFakeOpenAI } from './server';
import type { FakeOpenAI } from './types';

let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterEach(() => fake.reset());
afterAll(() => fake.close());

function post(path: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(`${fake.baseURL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

/** Parses an SSE body into its `data:` payloads (JSON, or the raw `[DONE]`). */
async function sse(response: Response): Promise<unknown[]> {
  const text = await response.text();
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      expect(block.startsWith('data: ')).toBe(true);
      const data = block.slice('data: '.length);
      return data === '[DONE]' ? data : JSON.parse(data);
    });
}

const chatBody = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] };

describe('startFakeOpenAI', () => {
  it('listens on loopback and exposes a /v1 base URL', () => {
    expect(fake.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(fake.port).toBeGreaterThan(0);
  });

  it('refuses to bind a non-loopback host', async () => {
    await expect(startFakeOpenAI({ host: '0.0.0.0' })).rejects.toThrow(/loopback/);
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('::1')).toBe(true);
    expect(isLoopbackHost('192.168.1.2')).toBe(false);
  });
});

describe('bad requests', () => {
  it('answers an unknown path with an OpenAI-shaped 404', async () => {
    const response = await post('/embeddings', chatBody);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { message: 'Invalid URL (POST /v1/embeddings)', type: 'not_found_error', param: null, code: null },
    });
  });

  it('answers GET on an endpoint with 405', async () => {
    const response = await fetch(`${fake.baseURL}/chat/completions`);
    expect(response.status).toBe(405);
    expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
  });

  it('answers an invalid JSON body with 400 and consumes no turn', async () => {
    fake.enqueue({ text: 'unused' });
    const response = await post('/chat/completions', '{"model": ');
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string; type: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toMatch(/could not parse the JSON body/);
    expect(fake.requests).toHaveLength(0);
    expect(fake.pendingTurns()).toBe(1);
  });

  it('rejects non-object bodies and missing required fields', async () => {
    expect((await post('/responses', '[1,2]')).status).toBe(400);
    const noModel = await post('/chat/completions', { messages: [] });
    expect(noModel.status).toBe(400);
    expect(await noModel.json()).toMatchObject({ error: { param: 'model' } });
    const noMessages = await post('/chat/completions', { model: 'm' });
    expect(await noMessages.json()).toMatchObject({ error: { param: 'messages', code: 'missing_required_parameter' } });
    const noInput = await post('/responses', { model: 'm' });
    expect(await noInput.json()).toMatchObject({ error: { param: 'input' } });
  });

  it('fails loudly (400, not retried) when no turn is queued and no responder is set', async () => {
    const response = await post('/chat/completions', chatBody);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { type: 'fake_openai_error', message: expect.stringMatching(/no turn queued/) },
    });
  });

  it('turns a throwing responder into a 500', async () => {
    fake.respondWith(() => {
      throw new Error('boom');
    });
    const response = await post('/chat/completions', chatBody);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { message: 'fake-openai responder failed: boom' } });
  });
});

describe('API key', () => {
  it('answers a missing or wrong bearer with 401', async () => {
    const guarded = await startFakeOpenAI({ apiKey: 'sk-secret-000001' });
    try {
      const missing = await fetch(`${guarded.baseURL}/responses`, { method: 'POST', body: '{}' });
      expect(missing.status).toBe(401);
      expect(await missing.json()).toMatchObject({ error: { type: 'invalid_request_error', code: null } });
      const wrong = await fetch(`${guarded.baseURL}/responses`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-nope-000000' },
        body: '{}',
      });
      expect(await wrong.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
    } finally {
      await guarded.close();
    }
  });
});

describe('Chat Completions wire format', () => {
  it('streams text as documented: role chunk, content deltas, finish, usage, [DONE]', async () => {
    fake.enqueue({ text: 'Sunny in Paris.' });
    const response = await post('/chat/completions', { ...chatBody, stream: true });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await sse(response)) as Record<string, unknown>[];
    const deltas = events.slice(0, -3).map((event) => (event.choices as { delta: unknown }[])[0]?.delta);

    expect(deltas).toEqual([
      { role: 'assistant', content: '' },
      { content: 'Sunny ' },
      { content: 'in ' },
      { content: 'Paris.' },
    ]);
    expect(events.at(-3)).toMatchObject({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
    expect(events.at(-2)).toMatchObject({
      object: 'chat.completion.chunk',
      choices: [],
      usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) },
    });
    expect(events.at(-1)).toBe('[DONE]');
    expect(events[0]).toMatchObject({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-4o' });
  });

  it('streams parallel tool calls with indexes 0, 1 and split arguments', async () => {
    fake.enqueue({
      toolCalls: [
        { name: 'getWeather', args: { city: 'Paris' } },
        { name: 'getTime', args: '{"zone":"CET"', id: 'call_custom' },
      ],
    });
    const events = (await sse(await post('/chat/completions', { ...chatBody, stream: true }))) as {
      choices?: { delta: { tool_calls?: unknown[] } }[];
    }[];
    const toolDeltas = events.flatMap((event) => event.choices?.[0]?.delta.tool_calls ?? []);

    expect(toolDeltas).toEqual([
      { index: 0, id: expect.stringMatching(/^call_\d+$/), type: 'function', function: { name: 'getWeather', arguments: '' } },
      { index: 0, function: { arguments: '{"city":' } },
      { index: 0, function: { arguments: '"Paris"}' } },
      { index: 1, id: 'call_custom', type: 'function', function: { name: 'getTime', arguments: '' } },
      { index: 1, function: { arguments: '{"zone":' } },
      { index: 1, function: { arguments: '"CET"' } },
    ]);
    expect(events[0]?.choices?.[0]?.delta).toMatchObject({ role: 'assistant', content: null });
    expect(events.at(-3)).toMatchObject({ choices: [{ finish_reason: 'tool_calls' }] });
  });

  it('answers non-streamed with a chat.completion body', async () => {
    fake.enqueue({ text: 'Hi!', toolCalls: [{ name: 'x', args: {} }] });
    const body = await (await post('/chat/completions', chatBody)).json();
    expect(body).toMatchObject({
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Hi!',
            tool_calls: [{ id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'x', arguments: '{}' } }],
          },
        },
      ],
      usage: { total_tokens: expect.any(Number) },
    });
  });

  it('issues call ids unique over the server lifetime, across reset()', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      fake.enqueue({ toolCalls: [{ name: 'a', args: {} }] });
      const body = (await (await post('/chat/completions', chatBody)).json()) as {
        choices: { message: { tool_calls: { id: string }[] } }[];
      };
      ids.push(body.choices[0]?.message.tool_calls[0]?.id ?? '');
      fake.reset();
    }
    expect(new Set(ids).size).toBe(3);
  });
});

describe('Responses wire format', () => {
  it('streams the documented event sequence for text then a tool call', async () => {
    fake.enqueue({ text: 'Let me check.', toolCalls: [{ name: 'getWeather', args: { city: 'Paris' } }] });
    const events = (await sse(await post('/responses', { model: 'gpt-4o', input: 'Hi', stream: true }))) as {
      type?: string;
      sequence_number?: number;
    }[];

    expect(events.map((event) => event.type ?? event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
      '[DONE]',
    ]);
    expect(events.slice(0, -1).map((event) => event.sequence_number)).toEqual([...Array(16).keys()]);
    expect(events[10]).toMatchObject({
      output_index: 1,
      item: { type: 'function_call', id: expect.stringMatching(/^fc_/), call_id: expect.stringMatching(/^call_/), arguments: '' },
    });
    expect(events[15]).toMatchObject({
      response: {
        status: 'completed',
        incomplete_details: null,
        usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) },
        output: [{ type: 'message' }, { type: 'function_call', arguments: '{"city":"Paris"}', status: 'completed' }],
      },
    });
  });

  it('answers non-streamed with output items and usage', async () => {
    fake.enqueue({ text: 'Hello.', usage: { inputTokens: 3, outputTokens: 2 } });
    const body = await (await post('/responses', { model: 'gpt-4o', input: 'Hi' })).json();
    expect(body).toMatchObject({
      id: expect.stringMatching(/^resp_/),
      model: 'gpt-4o',
      output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello.', annotations: [] }] }],
      usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
      incomplete_details: null,
    });
  });

  it('reports finishReason length as an incomplete response', async () => {
    fake.enqueue({ text: 'Cut', finishReason: 'length' });
    const events = (await sse(await post('/responses', { model: 'm', input: 'Hi', stream: true }))) as {
      type?: string;
    }[];
    expect(events.at(-2)).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
  });
});

describe('recording and scripting', () => {
  it('records body, headers and normalised messages of both endpoints', async () => {
    fake.enqueue({ text: 'a' }, { text: 'b' });
    await post(
      '/chat/completions',
      {
        model: 'gpt-4o',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'w', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: '"sunny"' },
        ],
        tools: [{ type: 'function', function: { name: 'w', parameters: {} } }],
      },
      { headers: { 'content-type': 'application/json', 'x-test': 'yes' } },
    );
    await post('/responses', {
      model: 'gpt-4o',
      instructions: 'Be brief.',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
        { type: 'function_call', call_id: 'c1', name: 'w', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: '"sunny"' },
      ],
      tools: [{ type: 'function', name: 'w', parameters: {} }],
    });

    const expected = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'w', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c1', content: '"sunny"' },
    ];
    expect(fake.requests.map((request) => request.messages)).toEqual([expected, expected]);
    expect(fake.requests.map((request) => request.toolNames)).toEqual([['w'], ['w']]);
    expect(fake.requests[0]?.headers['x-test']).toBe('yes');
    expect(fake.requests.map((request) => request.endpoint)).toEqual(['chat', 'responses']);
  });

  it('uses queued turns first, then the responder; reset() clears both', async () => {
    fake.enqueue({ text: 'queued' });
    fake.respondWith((request) => ({ text: `responder saw ${request.messages.length} message(s)` }));
    const texts: unknown[] = [];
    for (let i = 0; i < 2; i++) {
      const body = (await (await post('/chat/completions', chatBody)).json()) as {
        choices: { message: { content: unknown } }[];
      };
      texts.push(body.choices[0]?.message.content);
    }
    expect(texts).toEqual(['queued', 'responder saw 1 message(s)']);
    fake.enqueue({ text: 'left over' });
    fake.reset();
    expect(fake.requests).toHaveLength(0);
    expect(fake.pendingTurns()).toBe(0);
    expect((await post('/chat/completions', chatBody)).status).toBe(400);
  });

  it('keeps a hung request open until the client aborts, and close() drops it', async () => {
    fake.enqueue({ hang: true });
    const controller = new AbortController();
    const response = await post('/chat/completions', { ...chatBody, stream: true }, { signal: controller.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const pending = reader.read();
    const raced = await Promise.race([pending.then(() => 'data'), new Promise((resolve) => setTimeout(resolve, 100, 'waiting'))]);
    expect(raced).toBe('waiting');
    controller.abort();
    await expect(pending).rejects.toThrow();

    const other = await startFakeOpenAI();
    other.enqueue({ hang: true });
    const hung = await fetch(`${other.baseURL}/responses`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', input: 'x', stream: true }),
    });
    const closed = other.close();
    await expect(hung.text()).rejects.toThrow();
    await closed;
  });
});

describe('raw turns', () => {
  it('sends streamed events as written (a string verbatim), [DONE] unless told not to, and a JSON body as written', async () => {
    const event = { choices: [{ index: 0, delta: { reasoning_content: 'Hm' }, finish_reason: null }] };
    fake.enqueue({ raw: { events: [event, '{"not":"checked"'] } }, { raw: { events: [event], done: false } }, { raw: { body: { odd: true }, status: 201 } });
    const stream = { ...chatBody, stream: true };
    expect(await (await post('/chat/completions', stream)).text()).toBe(`data: ${JSON.stringify(event)}\n\ndata: {"not":"checked"\n\ndata: [DONE]\n\n`);
    expect(await (await post('/chat/completions', stream)).text()).toBe(`data: ${JSON.stringify(event)}\n\n`);
    const plain = await post('/responses', { model: 'gpt-4o', input: 'Hi' });
    expect([plain.status, await plain.json()]).toEqual([201, { odd: true }]);
    expect(fake.requests).toHaveLength(3);
  });

  it('writes wire pieces as given, each on its own, with no [DONE] added', async () => {
    const wire = [': keep-alive\r\n\r\n', 'data: {"choices":[{"in', 'dex":0}]}\r\n\r\n'];
    fake.enqueue({ raw: { wire } });
    const streamed = await post('/chat/completions', { ...chatBody, stream: true });
    const reader = (streamed.body as ReadableStream<Uint8Array>).getReader();
    const reads: string[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) reads.push(new TextDecoder().decode(next.value));
    // Each piece leaves on its own; a busy client may still read two at once, so only the bytes are compared.
    expect(reads.join('')).toBe(wire.join(''));
  });

  it('drops the connection after the events, or halfway through a body: the client reads what came, then fails', async () => {
    const event = { choices: [{ index: 0, delta: { content: 'Half' }, finish_reason: null }] };
    fake.enqueue({ raw: { events: [event], drop: true } }, { raw: { body: { a: 'b'.repeat(64) }, drop: true } });
    const streamed = await post('/chat/completions', { ...chatBody, stream: true });
    const reader = (streamed.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('Half');
    await expect((async () => { for (let next = await reader.read(); !next.done; next = await reader.read()); })()).rejects.toThrow();
    await expect((await post('/chat/completions', chatBody)).text()).rejects.toThrow();
  });
});

describe('strict function tools', () => {
  const good = { type: 'object', properties: { city: { type: 'string' }, days: { type: ['integer', 'null'] } }, required: ['city', 'days'], additionalProperties: false };
  const chatTool = (name: string, parameters: unknown, strict: boolean) => ({ type: 'function', function: { name, description: '', parameters, strict } });
  const responsesTool = (name: string, parameters: unknown, strict: boolean) => ({ type: 'function', name, description: '', parameters, strict });

  it('refuses the whole request with OpenAI’s 400 when one strict tool breaks the rules, naming the function, the place and the tool', async () => {
    const cases: [unknown, string][] = [
      [{ ...good, additionalProperties: undefined }, "In context=(), 'additionalProperties' is required to be supplied and to be false."],
      [{ ...good, required: ['city'] }, "In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'days'."],
      [{ ...good, properties: { ...good.properties, city: { type: 'string', minLength: 1 } } }, "In context=('properties', 'city'), 'minLength' is not permitted."],
      [{ ...good, properties: { ...good.properties, city: {} } }, "In context=('properties', 'city'), schema must have a 'type' key."],
      [{ type: 'string' }, `schema must be a JSON Schema of 'type: "object"', got 'type: "string"'.`],
    ];
    fake.enqueue({ text: 'never sent' });
    for (const [parameters, problem] of cases) {
      const chat = await post('/chat/completions', { ...chatBody, tools: [chatTool('ok', good, true), chatTool('bad', parameters, true)] });
      expect(chat.status).toBe(400);
      expect(await chat.json()).toEqual({
        error: { message: `Invalid schema for function 'bad': ${problem}`, type: 'invalid_request_error', param: 'tools[1].function.parameters', code: 'invalid_function_parameters' },
      });
      const responses = await post('/responses', { model: 'gpt-4o', input: 'Hi', tools: [responsesTool('bad', parameters, true)] });
      expect(responses.status).toBe(400);
      expect(await responses.json()).toMatchObject({ error: { message: `Invalid schema for function 'bad': ${problem}`, param: 'tools[0].parameters' } });
    }
    expect(fake.pendingTurns()).toBe(1); // refused before the model: no turn used
  });

  it('takes $defs and $ref as OpenAI documents them (recursion through # and a definition), a $ref only alone and landing somewhere', async () => {
    const node = { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['name', 'children'], additionalProperties: false };
    const tree = { ...good, properties: { ...good.properties, root: { $ref: '#/$defs/node' }, parent: { anyOf: [{ $ref: '#' }, { type: 'null' }] } }, required: [...good.required, 'root', 'parent'], $defs: { node } };
    fake.enqueue({ text: 'a' });
    expect((await post('/chat/completions', { ...chatBody, tools: [chatTool('tree', tree, true)] })).status).toBe(200);
    const cases: [unknown, string][] = [
      [{ ...tree, properties: { ...tree.properties, root: { $ref: '#/$defs/node', description: 'The root' } } }, "In context=('properties', 'root'), $ref cannot have keywords {'description'}."],
      [{ ...tree, properties: { ...tree.properties, root: { $ref: '#/$defs/gone' } } }, "In context=('properties', 'root'), reference to component '#/$defs/gone' which was not found in the schema."],
      [{ ...tree, $defs: { node: { ...node, additionalProperties: undefined } } }, "In context=('$defs', 'node'), 'additionalProperties' is required to be supplied and to be false."],
    ];
    for (const [parameters, problem] of cases) {
      const chat = await post('/chat/completions', { ...chatBody, tools: [chatTool('bad', parameters, true)] });
      expect(chat.status).toBe(400);
      expect(await chat.json()).toMatchObject({ error: { message: `Invalid schema for function 'bad': ${problem}`, code: 'invalid_function_parameters' } });
    }
  });

  it("refuses a strict schema over OpenAI's size limits, with OpenAI's words", async () => {
    const object = (properties: Record<string, unknown>) => ({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false });
    const strings = (n: number, size = 1) => Array.from({ length: n }, (_, i) => String(i).padStart(size, '0'));
    let deep: Record<string, unknown> = object({});
    for (let i = 0; i < 10; i++) deep = object({ next: deep });
    const props = (n: number) => object(Object.fromEntries(strings(n).map((key) => [`p${key}`, { type: 'string' }])));
    const optOut = "Consider reducing the number of enums, or opt out of structured outputs by setting 'strict: false'.";
    const cases: [unknown, string][] = [
      [deep, '11 levels of nesting exceeds limit of 10.'],
      [props(5001), '5001 parameters exceeds limit of 5000.'],
      [object({ a: { enum: strings(600) }, b: { type: 'array', items: { enum: strings(401) } } }), `Expected at most 1000 enum values in total within a single schema when using structured outputs, but received 1001. ${optOut}`],
      [object({ a: { enum: strings(251, 60) } }), `Expected at most 15000 total characters across enum values when there are more than 250 enum values, but received 15060. ${optOut}`],
      [object({ [strings(1, 60_000)[0] as string]: { const: 'x'.repeat(60_001) } }), 'Expected at most 120000 total characters across property names, definition names, enum values and const values'],
    ];
    for (const [parameters, problem] of cases) {
      const responses = await post('/responses', { model: 'gpt-4o', input: 'Hi', tools: [responsesTool('big', parameters, true)] });
      expect(responses.status).toBe(400);
      expect(((await responses.json()) as { error: { message: string } }).error.message).toContain(`Invalid schema for function 'big': ${problem}`);
    }
    // At the limits, and over them without strict: accepted.
    fake.enqueue({ text: 'a' }, { text: 'b' });
    const ten = (deep.properties as { next: unknown }).next;
    expect((await post('/responses', { model: 'gpt-4o', input: 'Hi', tools: [responsesTool('ten', ten, true), responsesTool('five', props(5000), true)] })).status).toBe(200);
    expect((await post('/responses', { model: 'gpt-4o', input: 'Hi', tools: [responsesTool('deep', deep, false)] })).status).toBe(200);
  });

  it('accepts a strict tool that keeps the rules, and any schema on a tool that is not strict', async () => {
    fake.enqueue({ text: 'a' }, { text: 'b' });
    const loose = { type: 'object', properties: { city: { type: 'string', minLength: 1 } } };
    expect((await post('/chat/completions', { ...chatBody, tools: [chatTool('ok', good, true), chatTool('loose', loose, false)] })).status).toBe(200);
    expect((await post('/responses', { model: 'gpt-4o', input: 'Hi', tools: [responsesTool('ok', good, true), responsesTool('loose', loose, false)] })).status).toBe(200);
  });
});

describe('strict response formats (structured outputs for answers)', () => {
  const good = { type: 'object', properties: { city: { type: 'string' }, days: { type: ['integer', 'null'] } }, required: ['city', 'days'], additionalProperties: false };
  const chatFormat = (schema: unknown, strict: boolean) => ({ type: 'json_schema', json_schema: { name: 'response', schema, strict } });
  const responsesFormat = (schema: unknown, strict: boolean) => ({ format: { type: 'json_schema', name: 'response', schema, strict } });

  it('refuses a strict format whose schema breaks the rules with OpenAI’s 400, before any turn is used', async () => {
    fake.enqueue({ text: 'never sent' });
    const bad = { ...good, required: ['city'] };
    const problem = "In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'days'.";
    const chat = await post('/chat/completions', { ...chatBody, response_format: chatFormat(bad, true) });
    expect(chat.status).toBe(400);
    expect(await chat.json()).toEqual({ error: { message: `Invalid schema for response_format 'response': ${problem}`, type: 'invalid_request_error', param: 'response_format', code: null } });
    const responses = await post('/responses', { model: 'gpt-4o', input: 'Hi', text: responsesFormat({ type: 'array', items: { type: 'string' } }, true) });
    expect(responses.status).toBe(400);
    expect(await responses.json()).toMatchObject({
      error: { message: `Invalid schema for response_format 'response': schema must be a JSON Schema of 'type: "object"', got 'type: "array"'.`, param: 'text.format.schema', code: 'invalid_json_schema' },
    });
    expect(fake.pendingTurns()).toBe(1);
  });

  it('accepts a strict format that keeps the rules, any schema that is not strict, and json_object', async () => {
    fake.enqueue({ text: '{"city":"Paris","days":null}' }, { text: 'b' }, { text: 'c' }, { text: 'd' });
    const loose = { type: 'object', properties: { city: { type: 'string', minLength: 1 } } };
    const chat = await post('/chat/completions', { ...chatBody, response_format: chatFormat(good, true) });
    expect(chat.status).toBe(200);
    expect(((await chat.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content).toBe('{"city":"Paris","days":null}');
    expect((await post('/chat/completions', { ...chatBody, response_format: chatFormat(loose, false) })).status).toBe(200);
    expect((await post('/chat/completions', { ...chatBody, response_format: { type: 'json_object' } })).status).toBe(200);
    expect((await post('/responses', { model: 'gpt-4o', input: 'Hi', text: responsesFormat(loose, false) })).status).toBe(200);
  });
});
