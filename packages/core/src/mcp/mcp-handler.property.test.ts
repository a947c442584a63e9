// Property-based tests of the MCP handler against random requests (issue "Reliability"): what any client on the
// network may post. Runs per runtime: 600 random requests (random bodies, JSON-RPC shapes, ids, methods, tool names,
// arguments, progress tokens and headers). Failures print fast-check's seed and path.
import fc from 'fast-check';
import * as v from 'valibot';
import { afterAll, describe, expect, it } from 'vitest';
import { HOSTILE_KEYS, jsonObject, jsonString, jsonValue, settle, watchUnhandledRejections } from '../test-support/arbitraries.ts';
import { defineTool } from '../tool/define-tool.ts';
import { createMcpHandler } from './mcp-handler.ts';

/** What each tool received: the handler may run a tool only with input its schema accepts. */
const received: { tool: string; input: unknown }[] = [];

const tools = [
  defineTool({
    name: 'lookup',
    description: 'Looks up',
    input: v.object({ id: v.pipe(v.string(), v.maxLength(20)) }),
    execute: (input) => {
      received.push({ tool: 'lookup', input });
      return { found: input.id };
    },
  }),
  defineTool({
    name: 'count',
    description: 'Counts with progress',
    input: v.object({ n: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(5)) }),
    output: v.object({ counted: v.number() }),
    execute: async (input, ctx) => {
      received.push({ tool: 'count', input });
      for (let i = 1; i <= input.n; i++) {
        ctx.progress({ completed: i, total: input.n });
        await Promise.resolve();
      }
      return { counted: input.n };
    },
  }),
  defineTool({
    name: 'delete_all',
    description: 'Destructive: never offered with the default approvals',
    input: v.object({}),
    policy: { effects: 'destructive' },
    execute: () => {
      received.push({ tool: 'delete_all', input: {} });
      return 'deleted';
    },
  }),
  defineTool({
    name: 'fail',
    description: 'Throws',
    input: v.object({}),
    execute: (): string => {
      throw new Error('broken');
    },
  }),
];
const handle = createMcpHandler({ tools, name: 'fuzz', version: '1', maxBodyBytes: 4096 });

const METHODS = ['initialize', 'ping', 'tools/list', 'tools/call', 'resources/list', 'notifications/initialized', '', 'tools/call\u0000'];
const NAMES = ['lookup', 'count', 'delete_all', 'fail', 'unknown', ...HOSTILE_KEYS];

/** A JSON-RPC-shaped message, with every field sometimes wrong or missing. */
const rpcMessage = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('1.0'), jsonValue),
    id: fc.oneof(fc.integer(), jsonString, fc.constant(null), jsonObject),
    method: fc.oneof(fc.constantFrom(...METHODS), jsonValue),
    params: fc.oneof(
      fc.record(
        {
          name: fc.oneof(fc.constantFrom(...NAMES), jsonValue),
          arguments: fc.oneof(
            fc.record({ id: fc.oneof(jsonString, jsonValue) }, { requiredKeys: [] }),
            fc.record({ n: fc.oneof(fc.integer({ min: -2, max: 8 }), jsonValue) }, { requiredKeys: [] }),
            jsonValue,
            fc.string(),
          ),
          _meta: fc.oneof(fc.record({ progressToken: fc.oneof(fc.integer(), jsonString, jsonValue) }, { requiredKeys: [] }), jsonValue),
          protocolVersion: fc.oneof(fc.constantFrom('2025-11-25', '2025-06-18', '1999-01-01'), jsonValue),
        },
        { requiredKeys: [] },
      ),
      jsonValue,
    ),
  },
  { requiredKeys: [] },
);

const body = fc.oneof(
  { weight: 6, arbitrary: rpcMessage.map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: fc.array(rpcMessage, { maxLength: 3 }).map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: jsonValue.map((value) => JSON.stringify(value) ?? 'null') },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 4097, maxLength: 4200 }) },
);

const headers = fc.record({
  'content-type': fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', undefined),
  accept: fc.constantFrom('application/json, text/event-stream', 'application/json', 'text/event-stream', undefined),
  'mcp-protocol-version': fc.constantFrom('2025-03-26', '2025-06-18', '2025-11-25', 'nope', undefined),
});

type Event = { jsonrpc?: unknown; id?: unknown; method?: unknown; result?: unknown; error?: { code?: unknown } };

/** A JSON-RPC response: a result or an error, with an id, and a code the handler documents. */
function checkResponse(message: Event): void {
  expect(message.jsonrpc).toBe('2.0');
  expect('id' in message).toBe(true);
  expect(('result' in message ? 1 : 0) + ('error' in message ? 1 : 0)).toBe(1);
  if (message.error) expect([-32700, -32600, -32601, -32602, -32603, -32000]).toContain(message.error.code);
}

/** Checks one answer: a status the handler documents, and a well-formed JSON-RPC body for each (a batch's, each). */
async function checkAnswer(response: Response): Promise<void> {
  expect([200, 202, 400, 413, 415]).toContain(response.status);
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  if (response.status === 202) {
    expect(text).toBe('');
    return;
  }
  const body: unknown = type.startsWith('text/event-stream') ? undefined : JSON.parse(text);
  if (Array.isArray(body)) {
    // A batch (MCP 2025-03-26): one response per request, never empty.
    expect(response.status).toBe(200);
    expect(body.length).toBeGreaterThan(0);
    for (const message of body as Event[]) checkResponse(message);
    return;
  }
  const messages: Event[] = type.startsWith('text/event-stream')
    ? text
        .split('\n\n')
        .filter(Boolean)
        .map((event) => JSON.parse(event.slice(event.indexOf('data: ') + 6)) as Event)
    : [body as Event];
  const last = messages.at(-1) as Event;
  for (const note of messages.slice(0, -1)) expect(note).toMatchObject({ jsonrpc: '2.0', method: 'notifications/progress' });
  checkResponse(last);
  if (response.status === 400) expect(last.error).toBeDefined();
}

describe('MCP handler properties: random requests', () => {
  const watcher = watchUnhandledRejections();
  afterAll(() => watcher.stop());

  it('always answers with a documented status and a well-formed JSON-RPC body; tools run only with valid input', async () => {
    await fc.assert(
      fc.asyncProperty(body, headers, async (text, head) => {
        const request = new Request('https://mcp.example/mcp', {
          method: 'POST',
          headers: Object.fromEntries(Object.entries(head).filter(([, value]) => value !== undefined)) as Record<string, string>,
          body: text,
        });
        await checkAnswer(await handle(request));
      }),
      { numRuns: 600 },
    );
    await settle();
    expect(watcher.reasons).toEqual([]);
    expect(received.some((r) => r.tool === 'delete_all')).toBe(false);
    for (const { tool, input } of received) {
      const schema = tools.find((t) => t.name === tool)?.input;
      expect(schema && (await schema['~standard'].validate(input)).issues).toBeUndefined();
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('id');
  });
});
