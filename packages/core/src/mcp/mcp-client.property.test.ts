// The MCP client against 400 random servers per runtime: each answers every request with a random status, content
// type and body (right or wrong JSON-RPC ids, errors, garbage, SSE streams with random events, cut anywhere). Whatever
// the server does, a call settles, with a result of the documented shape or an `McpError`, and a remote tool run by the
// executor settles as a typed outcome: never another exception, an unhandled rejection or a hang.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../executor/executor.ts';
import { connectMcp, McpError } from './mcp-client.ts';

type Body = 'answer' | 'wrong-id' | 'rpc-error' | 'no-content' | 'garbage' | 'empty' | 'array' | 'notification';

interface Reply {
  readonly status: number;
  readonly type: string;
  readonly body: Body;
  /** SSE only: events sent before the body's message, and whether the message is sent at all. */
  readonly before: readonly string[];
  readonly cuts: readonly number[];
}

const sseEvent = fc.constantFrom(
  ': comment\n\n',
  'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"edgetool-2","progress":1}}\n\n',
  'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"edgetool-2","progress":"x","total":-1}}\n\n',
  'data: {"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{}}\n\n',
  'data: {"jsonrpc":"2.0","id":"s2","method":"ping"}\n\n',
  'data: not json\n\n',
  'data: null\n\n',
  'event: other\ndata: {}\n\n',
  'data: {"jsonrpc":"2.0","id":2,"result":',
  'data\n\n',
  '\r\n\r',
);

const reply: fc.Arbitrary<Reply> = fc.record({
  status: fc.constantFrom(200, 200, 200, 200, 202, 400, 401, 404, 500, 307),
  type: fc.constantFrom('application/json', 'application/json', 'text/event-stream', 'text/event-stream', 'text/html', ''),
  body: fc.constantFrom<Body>('answer', 'answer', 'answer', 'wrong-id', 'rpc-error', 'no-content', 'garbage', 'empty', 'array', 'notification'),
  before: fc.array(sseEvent, { maxLength: 4 }),
  cuts: fc.array(fc.nat(), { maxLength: 5 }),
});

function message(body: Body, id: unknown, method: unknown): unknown {
  const result =
    method === 'initialize'
      ? { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'random', version: '1' } }
      : method === 'tools/list'
        ? { tools: [{ name: 'echo', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] }
        : { content: [{ type: 'text', text: 'ok' }] };
  switch (body) {
    case 'answer':
      return { jsonrpc: '2.0', id, result };
    case 'wrong-id':
      return { jsonrpc: '2.0', id: `${String(id)}x`, result };
    case 'rpc-error':
      return { jsonrpc: '2.0', id, error: { code: -32000, message: 'nope' } };
    case 'no-content':
      return { jsonrpc: '2.0', id, result: {} };
    case 'garbage':
      return '{"jsonrpc":';
    case 'empty':
      return '';
    case 'array':
      return [{ jsonrpc: '2.0', id, result }];
    case 'notification':
      return { jsonrpc: '2.0', method: 'notifications/message', params: {} };
  }
}

/** A body cut at random places (as a network would deliver it). */
function stream(text: string, cuts: readonly number[]): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const points = [...new Set(cuts.map((n) => n % (bytes.length + 1))), bytes.length].sort((a, b) => a - b);
  return new ReadableStream({
    start(controller) {
      let from = 0;
      for (const point of points) {
        controller.enqueue(bytes.slice(from, point));
        from = point;
      }
      controller.close();
    },
  });
}

/** Answers each request with the next reply (initialize and its notification always succeed, to reach the calls). */
function randomServer(replies: readonly Reply[]) {
  let next = 0;
  return async (request: Request): Promise<Response> => {
    const sent = (await request.json().catch(() => ({}))) as { id?: unknown; method?: unknown };
    if (sent.method === 'initialize') return Response.json(message('answer', sent.id, 'initialize'));
    if (sent.id === undefined || sent.method === undefined) return new Response(null, { status: 202 });
    const r = replies[next++ % replies.length] as Reply;
    const payload = message(r.body, sent.id, sent.method);
    const json = typeof payload === 'string' ? payload : JSON.stringify(payload);
    const text = r.type === 'text/event-stream' ? `${r.before.join('')}data: ${json}\n\n` : json;
    return new Response(r.status === 202 ? null : stream(text, r.cuts), { status: r.status, headers: r.type ? { 'content-type': r.type } : {} });
  };
}

const hang = () => AbortSignal.timeout(5_000);

describe('MCP client against random servers', () => {
  it('callTool settles with a result of the documented shape or an McpError', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(reply, { minLength: 1, maxLength: 3 }), async (replies) => {
        const client = await connectMcp({ url: 'https://random.example/mcp', fetch: randomServer(replies), maxResponseBytes: 4096 });
        for (let i = 0; i < 2; i++) {
          const signal = hang();
          try {
            const result = await client.callTool('echo', {}, { signal, onProgress: () => {} });
            expect(Array.isArray(result.content)).toBe(true);
            expect(typeof result.isError).toBe('boolean');
          } catch (error) {
            expect(signal.aborted, 'the call hung').toBe(false);
            expect(error).toBeInstanceOf(McpError);
          }
        }
      }),
      { numRuns: 250 },
    );
  });

  it('tools() and the executor: tools or an McpError, then a typed outcome for every call', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(reply, { minLength: 1, maxLength: 3 }), async (replies) => {
        const client = await connectMcp({ url: 'https://random.example/mcp', fetch: randomServer(replies), timeoutMs: 5_000 });
        let tools: Awaited<ReturnType<typeof client.tools>>;
        try {
          tools = await client.tools();
        } catch (error) {
          expect(error).toBeInstanceOf(McpError);
          return;
        }
        expect(tools.map((t) => t.name)).toEqual(['echo']);
        const executor = createExecutor({ registry: tools });
        const result = await executor.execute({ id: 'c1', name: 'echo', arguments: '{}' }, { signal: hang() });
        if (result.outcome.type === 'error') {
          expect(result.outcome.error.code).toBe('execution-failed');
          expect(result.outcome.error.cause ?? result.outcome.error).toBeInstanceOf(McpError);
        } else {
          expect(result.outcome).toEqual({ type: 'success', output: 'ok' });
        }
      }),
      { numRuns: 150 },
    );
  });
});
