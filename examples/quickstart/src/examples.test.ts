import { readdirSync, readFileSync } from 'node:fs';
import type { EdgetoolUIMessage } from '@edgetool/ai';
import { respondToApproval } from '@edgetool/ai/testing';
import { startFakeOpenAI } from '@edgetool/fake-openai';
import { readUIMessageStream, type UIMessageChunk } from 'ai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const lines: string[] = [];
// The examples talk to 127.0.0.1 at most: a model (or anything) they would reach elsewhere fails the test, offline.
const realFetch = globalThis.fetch;
beforeEach(() => {
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname !== '127.0.0.1') return Promise.reject(new Error(`The examples fetch only 127.0.0.1 in tests, not ${url.origin}.`));
    return realFetch(input, init);
  });
});
afterEach(() => {
  lines.length = 0;
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.resetModules();
});
const capture = () => vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));

/** A fake OpenAI server that the examples' `createModelFromEnv(process.env)` reaches: key, base URL and model set. */
async function fakeFromEnv(): Promise<Awaited<ReturnType<typeof startFakeOpenAI>>> {
  const fake = await startFakeOpenAI({ apiKey: 'sk-test' });
  vi.stubEnv('OPENAI_API_KEY', 'sk-test');
  vi.stubEnv('OPENAI_BASE_URL', fake.baseURL);
  vi.stubEnv('OPENAI_MODEL', 'gpt-test');
  return fake;
}

/** The UI message chunks of an SSE response of the AI SDK's UI message protocol. */
async function chunksOf(response: Response): Promise<UIMessageChunk[]> {
  const lines = (await response.text()).split('\n').filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]');
  return lines.map((line) => JSON.parse(line.slice('data: '.length)) as UIMessageChunk);
}

/** The assistant message `useChat` folds from those chunks. */
async function assistantMessage(chunks: readonly UIMessageChunk[]): Promise<EdgetoolUIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let message: EdgetoolUIMessage | undefined;
  for await (const folded of readUIMessageStream<EdgetoolUIMessage>({ stream })) message = folded;
  if (message === undefined) throw new Error('the stream carried no message');
  return message;
}

describe('the examples of the README and the guides', () => {
  it('the 30-second example prints a result, a timing line and a readable validation error', async () => {
    capture();
    await import('./quickstart.ts');
    expect(lines[0]).toMatch(/^get_weather → success in \d+\.\d\d ms$/);
    expect(lines[1]).toBe('{"city":"Paris","celsius":21,"askedBy":"ada"}');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^Error \(invalid-input\): Invalid arguments for "get_weather"\.\n- city: /);
  });

  it('the approvals example refuses the forged approval and the replay, and runs the genuine one once', async () => {
    capture();
    await import('./approvals.ts');
    expect(lines).toEqual([
      'Refunds 25.00 EUR on order A-1001.',
      expect.stringMatching(/^Error \(ticket-invalid\): .*args/),
      'Refunded 25 on A-1001',
      expect.stringMatching(/^Error \(ticket-invalid\): .*already been used/),
    ]);
  });

  it('the edits example: a change the tool does not allow is refused, then the edited date runs once with a note for the model', async () => {
    capture();
    await import('./edits.ts');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Error \(invalid-input\): .*lets a human edit only "new_date" \(changed: "order_id"\); it was not performed\.$/);
    expect(lines[1]).toBe(
      'The user edited your arguments before approving this call: new_date changed from "2026-12-24" to "2026-12-27". The outcome below is for the edited arguments.\n{"order_id":"A-1001","delivery_date":"2026-12-27"}',
    );
  });

  it('the chat example: the offline model looks an order up, then a write runs once after its approval', async () => {
    capture();
    await import('./chat.ts');
    expect(lines).toEqual([
      expect.stringMatching(/A-1001.*shipped/),
      'update_delivery_date waits for approval',
      expect.stringMatching(/delivery_date 2026-12-24\. 2026-12-24$/),
    ]);
  });

  it('the chat example takes its model from the environment: OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API', async () => {
    const fake = await fakeFromEnv();
    try {
      vi.stubEnv('OPENAI_API', 'chat');
      fake.enqueue(
        { text: 'Order A-1001 has shipped.' },
        { toolCalls: [{ name: 'update_delivery_date', args: { order_id: 'A-1001', new_date: '2026-12-24' } }] },
        { text: 'It now arrives on 2026-12-24.' },
      );
      capture();
      await import('./chat.ts');
      expect(lines).toEqual(['Order A-1001 has shipped.', 'update_delivery_date waits for approval', 'It now arrives on 2026-12-24. 2026-12-24']);
      expect(fake.requests.map(({ endpoint, model }) => `${endpoint} ${model}`)).toEqual(['chat gpt-test', 'chat gpt-test', 'chat gpt-test']);
    } finally {
      await fake.close();
    }
  });

  it('the job and settings examples take their model from the environment too', async () => {
    const fake = await fakeFromEnv();
    try {
      fake.enqueue(
        { toolCalls: [{ name: 'update_delivery_date', args: { order_id: 'A-1001', new_date: '2026-12-24' } }] },
        { text: 'Moved.' },
        { text: 'A-1001 has shipped.', usage: { inputTokens: 12, outputTokens: 5 } },
      );
      capture();
      await import('./job.ts');
      await import('./settings.ts');
      expect(lines).toEqual(['update_delivery_date waits for approval 2026-12-01', 'Moved. 2026-12-24', 'A-1001 has shipped.', '12 in, 5 out, 17 in all']);
      expect(fake.requests.map(({ endpoint, model }) => `${endpoint} ${model}`)).toEqual(['responses gpt-test', 'responses gpt-test', 'responses gpt-test']);
    } finally {
      await fake.close();
    }
  });

  it('the structured output example: a typed value and the JSON the calling model reads, from a model that gives JSON', async () => {
    const fake = await fakeFromEnv();
    try {
      fake.enqueue(
        { toolCalls: [{ name: 'query_order', args: { order_id: 'A-1001' } }] },
        { text: '{"order_id":"A-1001","late":true,"days_late":3}' },
        { text: '{"order_id":"A-1001","late":true,"days_late":3}' },
      );
      capture();
      await import('./structured.ts');
      expect(lines).toEqual(['3', '{"order_id":"A-1001","late":true,"days_late":3}']);
      const formats = fake.requests.map((request) => (request.body.text as { format?: { type: string; strict: boolean } } | undefined)?.format);
      expect(formats).toEqual([0, 1, 2].map(() => expect.objectContaining({ type: 'json_schema', strict: true })));
    } finally {
      await fake.close();
    }
  });

  it('the structured output example on the offline model: a clear invalid-output, for the job and for the calling model', async () => {
    capture();
    await import('./structured.ts');
    const why = 'The answer was not valid JSON. This model cannot give structured output: The offline model answers in plain text.';
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(why);
    expect(lines[1]?.startsWith(`Error (invalid-output): ${why}\n- (root): `)).toBe(true);
  });

  it('the job example: a text turn waits for the approval, then runs the write once', async () => {
    capture();
    await import('./job.ts');
    expect(lines).toEqual(['update_delivery_date waits for approval 2026-12-01', expect.stringMatching(/delivery_date 2026-12-24\. 2026-12-24$/)]);
  });

  it('the settings example: instructions per run, settings per turn, and the tokens the turn used', async () => {
    capture();
    await import('./settings.ts');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/A-1001.*shipped/);
    const [input, output, total] = (lines[1]?.match(/^(\d+) in, (\d+) out, (\d+) in all$/) ?? []).slice(1).map(Number);
    expect(input).toBeGreaterThan(0);
    expect(output).toBeGreaterThan(0);
    expect(total).toBe((input ?? 0) + (output ?? 0));
  });

  it('the usage example: each call’s tokens, a failed call’s too', async () => {
    capture();
    await import('./usage.ts');
    expect(lines).toEqual([
      '["Call the supplier on Monday"] {"inputTokens":6,"totalTokens":6}',
      'Error (execution-failed): No note is close to a vector of 3 numbers. {"inputTokens":2,"totalTokens":2}',
    ]);
  });

  it('the errors example: a ToolError reads as written; a driver’s error is hidden from the model, not from the server', async () => {
    capture();
    await import('./errors.ts');
    expect(lines).toEqual([
      'Error (invalid-input): Invoice numbers look like INV-7.',
      'Error (execution-failed): The tool failed unexpectedly (reference call_2).',
      'connect ECONNREFUSED 10.0.3.7:5432 (user billing)',
    ]);
  });

  it('the progress example prints each report, then the result', async () => {
    capture();
    await import('./progress.ts');
    expect(lines).toEqual(['Imported 2 of 3 rows', 'Imported 3 of 3 rows', '{"imported":3}']);
  });

  it('the MCP example answers a tools/call as an MCP client reads it', async () => {
    capture();
    await import('./mcp.ts');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '{"city":"Paris","celsius":21}' }], isError: false } },
    ]);
  });

  it('the MCP client example: a remote lookup, a remote destructive tool that waits for its approval, a bad call refused here', async () => {
    capture();
    await import('./mcp-client.ts');
    expect(lines).toEqual([
      '{"id":"A-1001","status":"shipped"}',
      'approval-required',
      'Cancelled A-1001',
      expect.stringMatching(/^Error \(invalid-input\): Invalid arguments for "orders_get_order"\.\n- id: /),
    ]);
  });

  it('the limits example: two searches then a refusal; one SMS then a refusal', async () => {
    capture();
    await import('./limits.ts');
    expect(lines).toEqual([
      '3 pages about tickets',
      '3 pages about seals',
      expect.stringMatching(/^Error \(rate-limited\): Tool "search_docs" may run at most 2 times per request/),
      'Sent https://example.com',
      expect.stringMatching(/^Error \(rate-limited\): Tool "send_sms" is rate limited/),
    ]);
  });

  it('the bounded example: the output whole, the model reads 2,000 characters of it with a note', async () => {
    capture();
    await import('./bounded.ts');
    expect(lines).toEqual([
      '143889',
      '2000',
      '[… 142,116 of 143,889 characters left out here: this result is longer than the 2,000 characters you may read of one tool result. ' +
        'If you need what is missing, call the tool again for less of it (a narrower query, one page).]',
    ]);
  });

  it('the cache example: a repeated read from the cache, then a write empties it', async () => {
    capture();
    await import('./cache.ts');
    expect(lines).toEqual([
      '{"from":"EUR","to":"USD","rate":1.08,"lookup":1}',
      '{"from":"EUR","to":"USD","rate":1.08,"lookup":1}',
      '{"from":"EUR","to":"USD","rate":1.08,"lookup":2}',
    ]);
  });

  it('the available example: staff may refund; for a customer the tool does not exist', async () => {
    capture();
    await import('./available.ts');
    expect(lines).toEqual(['Refunded A-1001', 'Error (unknown-tool): Unknown tool "refund_order". Available tools: lookup_order.']);
  });

  it('the registry example: a paid module’s tools are there on the pro plan; on the free plan they do not exist', async () => {
    capture();
    await import('./available-registry.ts');
    expect(lines).toEqual(['orders-late.csv', 'Error (unknown-tool): Unknown tool "export_csv". Available tools: search.']);
  });

  it('the images example: the model gets text and an image, or the text that names it', async () => {
    capture();
    await import('./images.ts');
    expect(lines).toEqual(['text, image', 'Sales in May: 1234 EUR\n[image: image/png, 68 B]']);
  });

  it('the documents example: the model gets text and a PDF, or the text that names it', async () => {
    capture();
    await import('./documents.ts');
    expect(lines).toEqual(['text, document', 'Invoice INV-7, attached:\n[document: INV-7.pdf, application/pdf, 125 B]']);
  });

  it('the OpenTelemetry example: the call’s span under the caller’s, each layer inside it, then what the flush did', async () => {
    capture();
    await import('./otel.ts');
    expect(lines).toEqual([
      'execute_tool get_weather ← 00f067aa0ba902b7',
      'get_weather ← execute_tool get_weather',
      '{"exported":1,"failed":0,"retrying":0,"dropped":0}',
    ]);
  });

  it('the strict example: optional arguments go out required and nullable, and their nulls reach the tool as absent', async () => {
    capture();
    await import('./strict.ts');
    expect(lines).toEqual([
      '{"from":{"type":"string"},"to":{"type":"string"},"date":{"type":["string","null"],"format":"date"},"maxStops":{"type":["number","null"]}}',
      '{"from":"CDG","to":"JFK"}',
    ]);
  });

  it('the Worker example: a destructive call waits for its approval, a forged approval is a 403 that names the call, the genuine one runs', async () => {
    const { default: worker } = await import('./worker.ts');
    const env = { TICKET_SECRET: 'a-test-secret-of-at-least-32-bytes-long' };
    const post = (body: unknown) => worker.fetch(new Request('http://127.0.0.1/api/chat', { method: 'POST', body: JSON.stringify(body) }), env);
    const user: EdgetoolUIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: '/cancel_order {"order_id":"A-1001"}' }] };

    const asked = await post({ id: 'conv-1', messages: [user], mode: 'internal' });
    expect(asked.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const chunks = await chunksOf(asked);
    expect(chunks.map((chunk) => chunk.type)).toContain('tool-approval-request');
    expect(chunks.map((chunk) => chunk.type)).not.toContain('tool-output-available');
    const assistant = await assistantMessage(chunks);
    const part = assistant.parts.find((p) => p.type === 'tool-cancel_order') as { toolCallId: string; input: unknown } | undefined;
    expect(part?.input).toEqual({ order_id: 'A-1001' });
    const toolCallId = part?.toolCallId ?? '';
    const approved = respondToApproval([user, assistant], toolCallId, true);

    // Another order under the same ticket: refused before anything runs, with the body useEdgeChat reads.
    const forged = structuredClone(approved);
    const forgedPart = forged[1]?.parts.find((p) => p.type === 'tool-cancel_order') as { input: unknown };
    forgedPart.input = { order_id: 'A-2002' };
    const refused = await post({ id: 'conv-1', messages: forged, mode: 'internal' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: { code: 'ticket-invalid', message: expect.any(String), reason: 'mismatch', toolCallId } });

    // The genuine one, with fetch's third argument as a Worker passes it (the example's in-memory record store writes
    // at once, so nothing is left for waitUntil; a D1 store's writes go to it: apps/worker's chat-wait-until.test.ts).
    const work: Promise<unknown>[] = [];
    const ctx = { waitUntil: (promise: Promise<unknown>) => void work.push(promise) };
    const request = new Request('http://127.0.0.1/api/chat', { method: 'POST', body: JSON.stringify({ id: 'conv-1', messages: approved, mode: 'internal' }) });
    const done = await chunksOf(await worker.fetch(request, env, ctx));
    expect(done).toContainEqual(expect.objectContaining({ type: 'tool-output-available', toolCallId, output: 'Cancelled A-1001' }));
    await Promise.all(work);
  });

  it('the Worker example answers a request that is no conversation with a 400 that says why, not a thrown 500', async () => {
    const { default: worker } = await import('./worker.ts');
    const env = { TICKET_SECRET: 'a-test-secret-of-at-least-32-bytes-long' };
    const post = (body: unknown) => worker.fetch(new Request('http://127.0.0.1/api/chat', { method: 'POST', body: JSON.stringify(body) }), env);
    const user = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Cancel A-1001' }] };
    const cases = [
      { body: { id: 'c', messages: [{ role: 'user', content: 'hi' }], mode: 'internal' }, message: /^Invalid messages: / },
      { body: { id: 'c', messages: [user], mode: 'Manual' }, message: /^Unknown mode "Manual": use "internal" or "manual"\.$/ },
      {
        body: { id: 'c', messages: [{ ...user, parts: [{ type: 'file', mediaType: 'image/png', url: 'http://169.254.169.254/latest' }] }], mode: 'internal' },
        message: /url/,
      },
    ];
    for (const { body, message } of cases) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: { code: 'invalid-input', message: expect.stringMatching(message) } });
    }
  });

  it('the resumable example: a turn whose client went away completes, a reload (the same owner) reads it all, Stop stops it', async () => {
    const { resumableChat } = await import('./resumable.ts');
    const { createChatAgent, createOfflineModel, RESUMABLE_TURN_HEADER } = await import('@edgetool/ai');
    const { createTicketSigner } = await import('@edgetool/core');
    const agent = createChatAgent({
      model: createOfflineModel({ delayMs: 2 }),
      tools: [],
      tickets: createTicketSigner({ keys: [{ id: 'k1', secret: 'a-test-secret-of-at-least-32-bytes-long' }] }),
    });
    const work: Promise<unknown>[] = [];
    const call = (method: string, path: string, owner: string, turn: string, body?: unknown) =>
      resumableChat(
        agent,
        new Request(`http://127.0.0.1${path}`, { method, headers: { [RESUMABLE_TURN_HEADER]: turn }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
        owner,
        (promise) => void work.push(promise),
      );
    const user = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hello! What can you do for me?' }] };
    /** Posts a turn, reads its first bytes and goes away (a reload); `stop` is sent before it goes. */
    const postAndLeave = async (chatId: string, turn: string, stop = false) => {
      const reader = (await call('POST', '/api/chat', 'ada', turn, { id: chatId, messages: [user], mode: 'internal' })).body?.getReader();
      const first = await reader?.read();
      if (stop) expect((await call('DELETE', `/api/chat/${chatId}/stream`, 'ada', turn)).status).toBe(204);
      await reader?.cancel();
      return new TextDecoder().decode(first?.value);
    };

    const first = await postAndLeave('chat-1', 't1');
    expect(work).toHaveLength(1);
    const resumed = await call('GET', '/api/chat/chat-1/stream', 'ada', 't1');
    expect(resumed.status).toBe(200);
    const replay = await resumed.text();
    expect(replay.startsWith(first)).toBe(true);
    expect(replay.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(await chunksOf(new Response(replay))).toContainEqual(expect.objectContaining({ type: 'finish', finishReason: 'stop' }));
    expect((await call('GET', '/api/chat/chat-1/stream', 'bob', 't1')).status).toBe(204);
    expect((await call('POST', '/api/chat/chat-1/stream', 'ada', 't1', {})).status).toBe(405);

    // Stop (DELETE) before the turn noticed its client left: it stops, and there is nothing to resume.
    await postAndLeave('chat-2', 't2', true);
    await Promise.all(work);
    expect((await call('GET', '/api/chat/chat-2/stream', 'ada', 't2')).status).toBe(204);
  });

  // Where each example is shown: the README keeps the front door's four, the guides in docs/ the rest (session 32 moved
  // them there from a README of ~2,000 lines). A block moved to another page moves here too.
  const shownIn: Readonly<Record<string, string>> = {
    'quickstart.ts': 'README.md',
    'approvals.ts': 'README.md',
    'chat.ts': 'README.md',
    'worker.ts': 'README.md',
    'edits.ts': 'docs/approvals.md',
    'limits.ts': 'docs/tools.md',
    'available.ts': 'docs/tools.md',
    'available-registry.ts': 'docs/tools.md',
    'strict.ts': 'docs/tools.md',
    'cache.ts': 'docs/cache.md',
    'images.ts': 'docs/tool-results.md',
    'documents.ts': 'docs/tool-results.md',
    'progress.ts': 'docs/tool-results.md',
    'usage.ts': 'docs/tool-results.md',
    'bounded.ts': 'docs/tool-results.md',
    'errors.ts': 'docs/errors.md',
    'otel.ts': 'docs/otel.md',
    'mcp.ts': 'docs/mcp.md',
    'mcp-client.ts': 'docs/mcp.md',
    'resumable.ts': 'docs/resumable.md',
    'job.ts': 'docs/chat-loop.md',
    'structured.ts': 'docs/chat-loop.md',
    'settings.ts': 'docs/chat-loop.md',
  };
  const examples = Object.keys(shownIn);
  const read = (page: string) => readFileSync(new URL(`../../../${page}`, import.meta.url), 'utf8');
  const readme = read('README.md');
  /** The README and every page of docs/: a TypeScript block anywhere in them is one of the examples. */
  const pages = ['README.md', ...readdirSync(new URL('../../../docs', import.meta.url)).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)];
  const source = (file: string) => readFileSync(new URL(`./${file}`, import.meta.url), 'utf8').trim();
  it.each(examples)('%s is shown verbatim in its page', (file) => {
    expect(read(shownIn[file] ?? '')).toContain(source(file));
  });

  it('the front door: the 30-second example is the first code the README shows, on its first screen', () => {
    const first = /^```(\w*)\n([\s\S]*?)^```$/m.exec(readme);
    expect(first?.[2]?.trim()).toBe(source('quickstart.ts'));
    expect(readme.slice(0, first?.index).split('\n').length).toBeLessThanOrEqual(25);
  });

  it('every TypeScript block of the README and of docs/ is one of these files, whole, in its page, once; every example file is one of them', () => {
    const blocks = pages.flatMap((page) => [...read(page).matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map(([, block = '']) => ({ page, block: block.trim() })));
    expect(blocks).toHaveLength(examples.length);
    expect(blocks.filter(({ page, block }) => !examples.some((file) => shownIn[file] === page && source(file) === block))).toEqual([]);
    const files = readdirSync(new URL('.', import.meta.url)).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && file !== 'main.ts');
    expect(files.filter((file) => !examples.includes(file))).toEqual([]);
  });
});
