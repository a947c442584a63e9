// Node-only: the MCP client's time limits in a plain Node script, run as a child process (`node --input-type=module`)
// against a node:http server on 127.0.0.1 in this process. A script that awaits a server that never answers must get
// the typed error (Node ends a process that only waits on a timer it has unref'd, such as `AbortSignal.timeout`'s, with
// exit code 13, "unsettled top-level await"), and a script whose calls succeeded must end by itself: no timer of the
// client may keep it alive. Each child is given a bound (not a measurement) and killed if it does not end within it.
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Longest a child may take to end; with the client right, every child here ends within its time limits (3 s at most)
 * after Node has started and loaded the client. A bound on a hang, not a measure: starting took 6 s in a run beside
 * other suites (load 20 on 2 cores), so it is 60 s, and each test has 15 s more than that.
 */
const CHILD_BOUND_MS = 60_000;
/** A time limit no child reaches: a timer of it left behind would keep the child alive past the bound. */
const NEVER_MS = 600_000;

const CLIENT = new URL('./mcp-client.ts', import.meta.url).href;
const EXECUTOR = new URL('../executor/executor.ts', import.meta.url).href;

/** The child's code: connects as `mode` says, prints one line, sets its exit code, and never calls `process.exit`. */
const SCRIPT = `
import { request as httpRequest } from 'node:http';
import { connectMcp } from ${JSON.stringify(CLIENT)};
import { createExecutor } from ${JSON.stringify(EXECUTOR)};
const [mode, url] = process.argv.slice(1);
const NEVER_MS = ${NEVER_MS};
// A fetch of your own that holds nothing open in the event loop (an in-process handler or a queue may not either):
// here over node:http, with the socket unref'd.
const ownFetch = (request) =>
  request.text().then((body) => new Promise((resolve, reject) => {
    const sent = httpRequest(request.url, { method: request.method, headers: Object.fromEntries(request.headers) }, (res) => {
      resolve(new Response(res, { status: res.statusCode, headers: res.headers }));
    });
    sent.on('socket', (socket) => socket.unref());
    sent.on('error', reject);
    request.signal.addEventListener('abort', () => sent.destroy(request.signal.reason));
    sent.end(body);
  }));
try {
  if (mode === 'hung') await connectMcp({ url, timeoutMs: 200 });
  if (mode === 'hung-own-fetch') await connectMcp({ url, timeoutMs: 200, fetch: ownFetch });
  if (mode === 'hung-headers') await connectMcp({ url, timeoutMs: 200, headers: () => new Promise(() => {}) });
  if (mode === 'ok') {
    const client = await connectMcp({ url, timeoutMs: NEVER_MS });
    const tools = await client.listTools();
    await client.close();
    console.log('listed ' + tools.map((tool) => tool.name).join(', '));
  }
  if (mode === 'executor') {
    const client = await connectMcp({ url, timeoutMs: NEVER_MS });
    const policy = (tool) => ({ effects: 'read', timeoutMs: tool.name === 'wait' ? 200 : NEVER_MS });
    const executor = createExecutor({ registry: await client.tools({ policy }) });
    const echo = await executor.execute({ id: 'c1', name: 'echo', arguments: '{}' });
    const { outcome } = await executor.execute({ id: 'c2', name: 'wait', arguments: '{}' });
    await client.close();
    console.log(echo.content + '; ' + (outcome.type === 'error' ? outcome.error.name + ' ' + outcome.error.code + ': ' + outcome.error.message : outcome.type));
  }
  if (mode === 'call') {
    // A direct call has the client's call time limit; the other requests one no child reaches, and so does echo's own
    // (200 ms for a round trip to the test's process was a race on a busy machine; its timer must still go).
    const client = await connectMcp({ url, timeoutMs: NEVER_MS, callTimeoutMs: 200 });
    console.log((await client.callTool('echo', {}, { timeoutMs: NEVER_MS })).content[0].text);
    await client.callTool('wait', {}).finally(() => client.close());
  }
  if (mode === 'resume') {
    // The call's stream breaks off and is resumed after the server's retry: no timer of the wait is left.
    const client = await connectMcp({ url, timeoutMs: NEVER_MS, callTimeoutMs: NEVER_MS });
    console.log((await client.callTool('echo', {})).content[0].text);
    await client.close();
  }
  if (mode === 'resume-wait') {
    // The time limit ends the wait for the server's retry (a minute): the wait's timer goes with the call.
    const client = await connectMcp({ url, timeoutMs: NEVER_MS, callTimeoutMs: 200 });
    await client.callTool('wait', {}).finally(() => client.close());
  }
  if (mode === 'cancel') {
    // Long enough to connect on a busy machine; the unaccepted cancellation then holds the script this long at most.
    const client = await connectMcp({ url, timeoutMs: 3_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('the caller gave up')), 50);
    await client.callTool('wait', {}, { signal: controller.signal }).catch((error) => console.log('aborted: ' + error.message));
    await client.close();
  }
} catch (error) {
  console.log(error.name + ': ' + error.message);
  process.exitCode = 1;
}
`;

/** Runs the script as `mode` against `path` of the server; resolves with its exit code and output once it has ended. */
function child(mode: string, path: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const running = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT, mode, `${base}${path}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    running.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    running.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const bound = setTimeout(() => {
      running.kill();
      reject(new Error(`The child "${mode}" did not end within ${CHILD_BOUND_MS} ms (stdout: ${stdout.trim() || '-'}).`));
    }, CHILD_BOUND_MS);
    running.on('error', reject);
    running.on('close', (code) => {
      clearTimeout(bound);
      resolve({ code, stdout: stdout.trim(), stderr });
    });
  });
}

/** Requests this server never answers; ended when the tests are done. */
const held: ServerResponse[] = [];
/** How many sessions each child of the forgetful server has started. */
const sessionsOf = new Map<string, number>();
/** The cancellations (`notifications/cancelled` params) each child has sent. */
const cancelledBy = new Map<string, unknown[]>();

/**
 * `/hung`: never answers. `/mcp`: a small MCP server (JSON answers) whose tool `echo` answers and `wait` never does; with `?cancel=hang`
 * it never answers the cancellation either. `/forgetful?child=X`: forgets X's first session (404), as a restarted
 * server does, so the client starts another one. `/resume`: a tool call's SSE stream ends after a priming event (an id
 * and a `retry`); a GET with that id as `Last-Event-ID` gets the answer of `echo`, and `wait`'s is never asked for.
 */
async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  const url = new URL(req.url ?? '/', base);
  if (url.pathname === '/hung') {
    held.push(res);
    return;
  }
  if (req.method === 'DELETE') {
    res.writeHead(200).end();
    return;
  }
  if (req.method === 'GET') {
    const id = Number(/^echo-(\d+)$/.exec(String(req.headers['last-event-id']))?.[1]);
    if (Number.isNaN(id)) res.writeHead(405).end();
    else res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`id: echo-end\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'resumed' }] } })}\n\n`);
    return;
  }
  const message = JSON.parse(text) as { id?: number; method: string; params?: { protocolVersion?: string; name?: string } };
  const child = url.searchParams.get('child') ?? '';
  const session = req.headers['mcp-session-id'];
  const answer = (result: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  };
  switch (message.method) {
    case 'initialize': {
      const count = (sessionsOf.get(child) ?? 0) + 1;
      sessionsOf.set(child, count);
      const result = { protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'local', version: '1' } };
      answer(result, { 'mcp-session-id': `${child}-${count}` });
      return;
    }
    case 'tools/list':
      if (url.pathname === '/forgetful' && session === `${child}-1`) {
        res.writeHead(404).end();
        return;
      }
      answer({ tools: ['echo', 'wait'].map((name) => ({ name, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } })) });
      return;
    case 'tools/call':
      if (url.pathname === '/resume') {
        const primed = message.params?.name === 'echo' ? `id: echo-${message.id}\nretry: 10` : 'id: wait-1\nretry: 600000';
        res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`${primed}\ndata: \n\n`);
      } else if (message.params?.name === 'echo') answer({ content: [{ type: 'text', text: 'echoed' }] });
      else held.push(res);
      return;
    case 'notifications/cancelled':
      cancelledBy.set(child, [...(cancelledBy.get(child) ?? []), message.params]);
      if (url.searchParams.get('cancel') === 'hang') {
        held.push(res);
        return;
      }
      res.writeHead(202).end();
      return;
    default:
      res.writeHead(202).end();
  }
}

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => void route(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of held) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('connectMcp in a plain Node script', { timeout: CHILD_BOUND_MS + 15_000 }, () => {
  const noAnswer = 'McpTimeoutError: The MCP server did not answer initialize within 200 ms.';

  it('a server that never answers: the script gets the McpTimeoutError and exits as it decides (1), not 13', async () => {
    const result = await child('hung', '/hung');
    expect(result.stdout).toBe(noAnswer);
    expect(result.code).toBe(1);
  });

  it('the same through a fetch of your own that holds nothing open: the time limit keeps the script alive until it fires', async () => {
    const result = await child('hung-own-fetch', '/hung');
    expect(result.stderr).not.toContain('unsettled top-level await');
    expect(result.stdout).toBe(noAnswer);
    expect(result.code).toBe(1);
  });

  it('a header function that never settles is bound by the time limit too', async () => {
    const result = await child('hung-headers', '/mcp');
    expect(result.stderr).not.toContain('unsettled top-level await');
    expect(result.stdout).toBe(noAnswer);
    expect(result.code).toBe(1);
  });

  it('after connecting, listing (through a new session) and closing, the script ends by itself: no time limit is left running', async () => {
    const result = await child('ok', '/forgetful?child=ok');
    expect(result.stdout).toBe('listed echo, wait');
    expect(result.code).toBe(0);
    expect(sessionsOf.get('ok')).toBe(2);
  });

  it("through the executor: a remote tool that never answers ends with the timeout ToolError, one that answers leaves no timer", async () => {
    const result = await child('executor', '/mcp?child=executor');
    expect(result.stdout).toBe('echoed; ToolError timeout: Tool "wait" did not finish within 200 ms.');
    expect(result.code).toBe(0);
  });

  it('a direct callTool against a tool that never answers: the script gets the McpTimeoutError, the server is told, no timer is left', async () => {
    const result = await child('call', '/mcp?child=call');
    expect(result.stderr).not.toContain('unsettled top-level await');
    expect(result.stdout).toBe('echoed\nMcpTimeoutError: The MCP server did not answer tools/call of "wait" within 200 ms.');
    expect(result.code).toBe(1);
    expect(cancelledBy.get('call')).toEqual([{ requestId: 3, reason: 'No answer within 200 ms.' }]);
  });

  it('a call whose stream is resumed after the server’s retry gets its answer, and the script ends by itself', async () => {
    const result = await child('resume', '/resume?child=resume');
    expect(result.stdout).toBe('resumed');
    expect(result.code).toBe(0);
  });

  it('the time limit during the wait for a resumption: the script gets the McpTimeoutError at once, not after the server’s retry', async () => {
    const result = await child('resume-wait', '/resume?child=resume-wait');
    expect(result.stderr).not.toContain('unsettled top-level await');
    expect(result.stdout).toBe('McpTimeoutError: The MCP server did not answer tools/call of "wait" within 200 ms.');
    expect(result.code).toBe(1);
  });

  it('a cancellation the server never accepts does not keep the script alive past the time limit', async () => {
    const result = await child('cancel', '/mcp?child=cancel&cancel=hang');
    expect(result.stdout).toBe('aborted: the caller gave up');
    expect(result.code).toBe(0);
  });
});
