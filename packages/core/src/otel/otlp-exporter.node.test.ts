// Node-only: the exporter against a local OTLP collector, a node:http server on 127.0.0.1 that records every POST and
// answers as each test asks (200, 500, 503, a partial success, slowly, never), and against a port nothing listens on.
// The last tests run the exporter in plain Node scripts (child processes): a flush against a collector that never
// answers must end with its time limit, and an exporter must not keep a script alive. Each child has a bound (not a
// measurement) and is killed if it does not end within it.
import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as v from 'valibot';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRunContext } from '../context/run-context.ts';
import { createExecutor } from '../executor/executor.ts';
import type { TraceRecord } from '../interceptors/trace.ts';
import { defineTool } from '../tool/define-tool.ts';
import { createOtlpExporter, type OtlpExporterOptions, type OtlpExportError } from './otlp-exporter.ts';
import type { OtlpTraceRequest } from './otlp-json.ts';
import { setTraceparent } from './trace-context.ts';

/** How the collector answers the next requests (then `ok`). */
type Answer = 'ok' | 'fail-500' | 'fail-503' | 'busy-429' | 'partial' | 'slow' | 'never' | 'cut-200' | 'cut-400' | 'cut-503' | 'stall-200' | 'moved-301' | 'moved-307' | 'endless-200';

interface Post {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: OtlpTraceRequest;
}

const posts: Post[] = [];
/** What the collector's endless answer ('endless-200') wrote, and whether the exporter closed it. */
const endless = { written: 0, closed: false };
let answers: Answer[] = [];
const held: ServerResponse[] = [];

async function collect(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  posts.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(text) as OtlpTraceRequest });
  const answer = answers.shift() ?? 'ok';
  const json = { 'content-type': 'application/json' };
  if (answer === 'never') held.push(res);
  else if (answer === 'fail-500') res.writeHead(500, json).end('{"code":13,"message":"the collector broke"}');
  else if (answer === 'fail-503') res.writeHead(503, json).end('{"message":"busy"}');
  else if (answer === 'busy-429') res.writeHead(429, { ...json, 'retry-after': '2' }).end('{"message":"slow down"}');
  else if (answer === 'endless-200') {
    // A body that never ends and flows as fast as it is read (a URL that serves a large file): written until closed.
    res.writeHead(200, { 'content-type': 'text/plain' });
    held.push(res);
    res.on('close', () => {
      endless.closed = true;
    });
    const chunk = ' '.repeat(16 * 1024);
    const more = () => {
      while (!res.destroyed && res.write(chunk)) endless.written += chunk.length;
      if (!res.destroyed) res.once('drain', more);
    };
    more();
  } else if (answer.startsWith('moved-')) res.writeHead(Number(answer.slice(6)), { location: elsewhere }).end();
  else if (answer === 'partial') res.writeHead(200, json).end('{"partialSuccess":{"rejectedSpans":"2","errorMessage":"spans too old"}}');
  else if (answer === 'slow') setTimeout(() => res.writeHead(200, json).end('{}'), 100);
  else if (answer.startsWith('cut-')) {
    // The status and the start of the body arrive, then the connection drops before the body ends.
    res.writeHead(Number(answer.slice(4)), { ...json, 'content-length': '100' });
    res.write('{"partialSuc', () => res.destroy());
  } else if (answer === 'stall-200') {
    // The status arrives, and the body never ends.
    res.writeHead(200, { ...json, 'content-length': '100' });
    res.write('{');
    held.push(res);
  }
  else res.writeHead(200, json).end('{}');
}

let server: Server;
let collector: string;
/** A port that refuses connections: a server was there and is gone. */
let refused: string;
/** Another origin, where the collector's redirects point: a web server that answers every request with a page. */
let other: Server;
let elsewhere: string;
const reached: { method: string | undefined; headers: IncomingHttpHeaders }[] = [];
beforeAll(async () => {
  server = createServer((req, res) => void collect(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  collector = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
  other = createServer((req, res) => {
    reached.push({ method: req.method, headers: req.headers });
    req.resume();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Welcome</p>');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  elsewhere = `http://127.0.0.1:${(other.address() as AddressInfo).port}/v1/traces`;
  const gone = createServer();
  await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
  refused = `http://127.0.0.1:${(gone.address() as AddressInfo).port}/v1/traces`;
  await new Promise<void>((resolve) => gone.close(() => resolve()));
});
afterEach(() => {
  posts.length = 0;
  answers = [];
});
afterAll(async () => {
  for (const res of held) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  other.closeAllConnections();
  await new Promise<void>((resolve) => other.close(() => resolve()));
});

const lookup = defineTool({ name: 'lookup', description: 'Looks an order up.', input: v.object({ id: v.string() }), execute: ({ id }) => ({ id, status: 'shipped' }) });

/** An exporter on the test collector whose failures are collected, and an executor that feeds it. */
function setup(options: Partial<OtlpExporterOptions> = {}) {
  const errors: OtlpExportError[] = [];
  const exporter = createOtlpExporter({ url: collector, serviceName: 'orders', onError: (e) => errors.push(e), ...options });
  // One pass-through layer, so each call is three spans: the call, the layer, the tool.
  const executor = createExecutor({ registry: [lookup], interceptors: [function audit(_ctx, next) { return next(); }], onTrace: exporter.export });
  const call = (id: string, run = createRunContext({ conversationId: 'conv-1' })) => executor.execute({ id, name: 'lookup', arguments: { id: 'A-1001' } }, { run });
  return { exporter, errors, call };
}

const spansOf = (post: Post | undefined) => post?.body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)) ?? [];
const callIds = (post: Post | undefined) =>
  spansOf(post)
    .filter((s) => s.name.startsWith('execute_tool'))
    .map((s) => s.attributes.find((a) => a.key === 'gen_ai.tool.call.id')?.value)
    .map((value) => (value as { stringValue: string }).stringValue);

describe('createOtlpExporter against a local collector', () => {
  it('POSTs the queued calls as OTLP JSON with its headers, under the request’s traceparent', async () => {
    const { exporter, errors, call } = setup({ headers: { 'x-honeycomb-team': 'key-1', 'Content-Type': 'text/plain' } });
    const run = createRunContext({ conversationId: 'conv-1' });
    setTraceparent(run, '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    await call('c1', run);
    await call('c2', run);
    expect(exporter.pending).toBe(2);
    expect(posts).toHaveLength(0);
    expect(await exporter.flush()).toEqual({ exported: 2, failed: 0, retrying: 0, dropped: 0 });
    expect(exporter.pending).toBe(0);
    expect(posts).toHaveLength(1);
    const [post] = posts;
    expect(post?.path).toBe('/v1/traces');
    expect(post?.headers['content-type']).toBe('application/json');
    expect(post?.headers['x-honeycomb-team']).toBe('key-1');
    expect(post?.body.resourceSpans[0]?.resource.attributes[0]).toEqual({ key: 'service.name', value: { stringValue: 'orders' } });
    expect(spansOf(post).map((s) => s.name)).toEqual(['execute_tool lookup', 'audit', 'lookup', 'execute_tool lookup', 'audit', 'lookup']);
    expect(new Set(spansOf(post).map((s) => s.traceId))).toEqual(new Set(['4bf92f3577b34da6a3ce929d0e0e4736']));
    expect(errors).toEqual([]);
    // Nothing queued, nothing sent: OTLP asks senders not to send empty requests.
    expect(await exporter.flush()).toEqual({ exported: 0, failed: 0, retrying: 0, dropped: 0 });
    expect(posts).toHaveLength(1);
  });

  it('sends at most maxBatchSpans spans per request, one request after another; a bigger call goes alone', async () => {
    const { exporter, call } = setup({ maxBatchSpans: 7 });
    for (const id of ['c1', 'c2', 'c3', 'c4', 'c5']) await call(id);
    expect(await exporter.flush()).toMatchObject({ exported: 5 });
    expect(posts.map(callIds)).toEqual([['c1', 'c2'], ['c3', 'c4'], ['c5']]);
    const tiny = setup({ maxBatchSpans: 1 });
    await tiny.call('c6');
    expect(await tiny.exporter.flush()).toMatchObject({ exported: 1 });
    expect(spansOf(posts.at(-1))).toHaveLength(3);
  });

  it('a 500 is not retried: the calls are dropped and onError says why', async () => {
    const { exporter, errors, call } = setup();
    await call('c1');
    answers = ['fail-500'];
    expect(await exporter.flush()).toEqual({ exported: 0, failed: 1, retrying: 0, dropped: 0 });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ name: 'OtlpExportError', reason: 'status', status: 500, records: 1, retrying: false });
    expect(errors[0]?.message).toContain('answered 500: {"code":13,"message":"the collector broke"}');
    expect(exporter.pending).toBe(0);
    expect(await exporter.flush()).toMatchObject({ exported: 0 });
    expect(posts).toHaveLength(1);
  });

  it('a 503 is retried at the next flush, with the same spans, and the batches after it wait too', async () => {
    const { exporter, errors, call } = setup({ maxBatchSpans: 3 });
    await call('c1');
    await call('c2');
    answers = ['fail-503'];
    expect(await exporter.flush()).toEqual({ exported: 0, failed: 0, retrying: 2, dropped: 0 });
    expect(errors[0]).toMatchObject({ reason: 'status', status: 503, records: 1, retrying: true });
    expect(posts).toHaveLength(1);
    expect(exporter.pending).toBe(2);
    await call('c3');
    expect(await exporter.flush()).toEqual({ exported: 3, failed: 0, retrying: 0, dropped: 0 });
    expect(posts.map(callIds)).toEqual([['c1'], ['c1'], ['c2'], ['c3']]);
    expect(spansOf(posts[1])).toEqual(spansOf(posts[0]));
  });

  it('a 429 with Retry-After: no request until then (on the exporter’s clock), then the calls go', async () => {
    let t = 1_000;
    const { exporter, errors, call } = setup({ clock: () => t });
    await call('c1');
    answers = ['busy-429'];
    expect(await exporter.flush()).toEqual({ exported: 0, failed: 0, retrying: 1, dropped: 0 });
    expect(errors[0]?.message).toContain('answered 429: {"message":"slow down"} (1 call, kept for the next flush after 2 s (Retry-After))');
    t += 1_999;
    expect(await exporter.flush()).toEqual({ exported: 0, failed: 0, retrying: 1, dropped: 0 });
    expect(posts).toHaveLength(1);
    t += 1;
    expect(await exporter.flush()).toEqual({ exported: 1, failed: 0, retrying: 0, dropped: 0 });
    expect(posts.map(callIds)).toEqual([['c1'], ['c1']]);
  });

  it('a collector that refuses the connection: the calls wait for the next flush, and the flush resolves', async () => {
    const { exporter, errors, call } = setup({ url: refused });
    await call('c1');
    expect(await exporter.flush()).toEqual({ exported: 0, failed: 0, retrying: 1, dropped: 0 });
    expect(errors[0]).toMatchObject({ reason: 'network', records: 1, retrying: true });
    expect(errors[0]?.message).toContain('could not be reached');
    expect(exporter.pending).toBe(1);
  });

  it('a collector that never answers: the request ends at timeoutMs and the calls wait for the next flush', async () => {
    const { exporter, errors, call } = setup({ timeoutMs: 300 });
    await call('c1');
    answers = ['never'];
    expect(await exporter.flush()).toEqual({ exported: 0, failed: 0, retrying: 1, dropped: 0 });
    expect(errors[0]).toMatchObject({ reason: 'timeout', retrying: true });
    expect(errors[0]?.message).toContain('did not answer within 300 ms');
    expect(exporter.pending).toBe(1);
  });

  it('a slow collector within the time limit is simply waited for', async () => {
    const { exporter, errors, call } = setup({ timeoutMs: 10_000 });
    await call('c1');
    answers = ['slow'];
    expect(await exporter.flush()).toMatchObject({ exported: 1, retrying: 0 });
    expect(errors).toEqual([]);
  });

  it('the status decides, not the body after it: a 200 whose body breaks off or never ends is exported once, a 400 dropped', async () => {
    // The limit must outlast the collector's status on a loaded machine (300 ms did not, once, in a run beside two
    // other test suites); the body that never ends is waited for until it, once.
    const { exporter, errors, call } = setup({ timeoutMs: 2_000 });
    await call('c1');
    await call('c2');
    answers = ['cut-200'];
    expect(await exporter.flush()).toEqual({ exported: 2, failed: 0, retrying: 0, dropped: 0 });
    await call('c3');
    answers = ['stall-200'];
    expect(await exporter.flush()).toEqual({ exported: 1, failed: 0, retrying: 0, dropped: 0 });
    expect(errors).toEqual([]);
    // Nothing is sent twice: the collector had accepted each request.
    expect(await exporter.flush()).toMatchObject({ exported: 0 });
    expect(posts.map(callIds)).toEqual([['c1', 'c2'], ['c3']]);
    // A 400 must not be retried (OTLP), however its body ends; a 503 is, as without a body.
    await call('c4');
    answers = ['cut-400'];
    expect(await exporter.flush()).toEqual({ exported: 0, failed: 1, retrying: 0, dropped: 0 });
    expect(errors[0]).toMatchObject({ reason: 'status', status: 400, retrying: false });
    await call('c5');
    answers = ['cut-503'];
    expect(await exporter.flush()).toEqual({ exported: 0, failed: 0, retrying: 1, dropped: 0 });
    expect(errors[1]).toMatchObject({ reason: 'status', status: 503, retrying: true });
    expect(await exporter.flush()).toMatchObject({ exported: 1 });
    expect(posts.map(callIds)).toEqual([['c1', 'c2'], ['c3'], ['c4'], ['c5'], ['c5']]);
  });

  it('refuses limits it cannot keep: a timeoutMs past a timer’s range fired at once, and a NaN maxQueue held every call', () => {
    for (const timeoutMs of [Infinity, 2 ** 31, 0, -5, Number.NaN]) {
      expect(() => setup({ timeoutMs }), String(timeoutMs)).toThrow(/^createOtlpExporter: `timeoutMs` must be a number of milliseconds from 1 to 2147483647/);
    }
    for (const maxQueue of [Number.NaN, 0, -1, 1.5]) {
      expect(() => setup({ maxQueue }), String(maxQueue)).toThrow(/^createOtlpExporter: `maxQueue` must be a whole number from 1/);
      expect(() => setup({ maxBatchSpans: maxQueue }), String(maxQueue)).toThrow(/^createOtlpExporter: `maxBatchSpans` must be a whole number from 1/);
    }
    expect(() => setup({ timeoutMs: 2 ** 31 - 1, maxQueue: Infinity, maxBatchSpans: 1 })).not.toThrow();
  });

  it('a redirect is not followed: the API key stays here, a 301 (POST turned GET, a page’s 200) is not counted as exported', async () => {
    const { exporter, errors, call } = setup({ headers: { 'x-honeycomb-team': 'key-1' } });
    await call('c1');
    await call('c2', createRunContext({ conversationId: 'conv-2' }));
    answers = ['moved-301', 'moved-307'];
    const small = setup({ headers: { 'x-honeycomb-team': 'key-1' }, maxBatchSpans: 3 });
    await small.call('c3');
    await small.call('c4');
    // One batch (two calls) against a 301; then two batches of one call, the first against a 307, the second sent.
    expect(await exporter.flush()).toEqual({ exported: 0, failed: 2, retrying: 0, dropped: 0 });
    expect(await small.exporter.flush()).toEqual({ exported: 1, failed: 1, retrying: 0, dropped: 0 });
    expect(reached).toEqual([]);
    expect([...errors, ...small.errors].map((e) => [e.reason, e.status, e.retrying])).toEqual([
      ['status', 301, false],
      ['status', 307, false],
    ]);
    expect(errors[0]?.message).toContain(`answered 301 (a redirect to ${elsewhere}, which the exporter does not follow)`);
  });

  it('reads at most the start of an answer: a 200 whose body flows without end is exported, and the rest is not read', async () => {
    // No time limit to end the read: the exporter read the whole body, so this flush never ended (and filled memory).
    const { exporter, errors, call } = setup({ timeoutMs: 2 ** 31 - 1 });
    await call('c1');
    answers = ['endless-200'];
    expect(await exporter.flush()).toEqual({ exported: 1, failed: 0, retrying: 0, dropped: 0 });
    await expect.poll(() => endless.closed).toBe(true);
    expect(errors).toEqual([]);
  });

  it('a partial success is reported and not retried', async () => {
    const { exporter, errors, call } = setup();
    await call('c1');
    answers = ['partial'];
    expect(await exporter.flush()).toMatchObject({ exported: 1, retrying: 0 });
    expect(errors[0]).toMatchObject({ reason: 'partial-success', retrying: false });
    expect(errors[0]?.message).toContain('rejected 2 spans: spans too old');
    expect(exporter.pending).toBe(0);
  });

  it('a full queue drops its oldest calls and the next flush says how many', async () => {
    const { exporter, errors, call } = setup({ maxQueue: 3 });
    for (const id of ['c1', 'c2', 'c3', 'c4', 'c5']) await call(id);
    expect(exporter.pending).toBe(3);
    expect(await exporter.flush()).toEqual({ exported: 3, failed: 0, retrying: 0, dropped: 2 });
    expect(errors[0]).toMatchObject({ reason: 'queue-full', records: 2 });
    expect(posts.flatMap(callIds)).toEqual(['c3', 'c4', 'c5']);
  });

  it('leaves out a call whose traceparent is not sampled: the caller decided not to record this trace', async () => {
    const { exporter, call } = setup();
    const run = createRunContext();
    setTraceparent(run, '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00');
    await call('c1', run);
    expect(exporter.pending).toBe(0);
  });

  it('export() never throws; a record that cannot be made into spans is reported and dropped, the others go', async () => {
    const { exporter, errors, call } = setup();
    expect(() => exporter.export(null as unknown as TraceRecord)).not.toThrow();
    exporter.export({ traceId: 'x', callId: 'x', toolName: 'x', conversationId: '', input: undefined, outcome: 'success', errorCode: undefined, attempts: 1, spans: 'no' as never });
    await call('c1');
    expect(await exporter.flush()).toEqual({ exported: 1, failed: 1, retrying: 0, dropped: 0 });
    expect(errors.map((e) => e.reason)).toEqual(['invalid-record']);
  });

  it('a throwing onError does not reject the flush; without one, failures go to console.warn', async () => {
    const throwing = createOtlpExporter({
      url: refused,
      serviceName: 's',
      onError: () => {
        throw new Error('listener down');
      },
    });
    const { exporter } = setup();
    const record = await new Promise<TraceRecord>((resolve) => {
      void createExecutor({ registry: [lookup], onTrace: resolve }).execute({ id: 'c1', name: 'lookup', arguments: { id: 'A' } });
    });
    throwing.export(record);
    await expect(throwing.flush()).resolves.toMatchObject({ retrying: 1 });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const quiet = createOtlpExporter({ url: refused, serviceName: 's' });
      quiet.export(record);
      await quiet.flush();
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^edgetool OTLP export: .*could not be reached/));
    } finally {
      warn.mockRestore();
    }
    expect(exporter.pending).toBe(0);
  });

  it('two flushes at once send each call once', async () => {
    const { exporter, call } = setup();
    await call('c1');
    const first = exporter.flush();
    await call('c2');
    const [a, b] = await Promise.all([first, exporter.flush()]);
    expect(a.exported + b.exported).toBe(2);
    expect(posts.flatMap(callIds).sort()).toEqual(['c1', 'c2']);
  });

  it('goes through a fetch of your own (a service binding), with the URL and a POST', async () => {
    const seen: { url: string; method: string | undefined; body: string }[] = [];
    const exporter = createOtlpExporter({
      url: 'https://collector.invalid/v1/traces',
      serviceName: 's',
      fetch: async (url, init) => {
        seen.push({ url, method: init.method, body: String(init.body) });
        return new Response('{}', { status: 200 });
      },
    });
    const record = await new Promise<TraceRecord>((resolve) => {
      void createExecutor({ registry: [lookup], onTrace: resolve }).execute({ id: 'c1', name: 'lookup', arguments: { id: 'A' } });
    });
    exporter.export(record);
    expect(await exporter.flush()).toMatchObject({ exported: 1 });
    expect(seen.map((s) => [s.url, s.method])).toEqual([['https://collector.invalid/v1/traces', 'POST']]);
    expect(JSON.parse(seen[0]?.body ?? '{}')).toHaveProperty('resourceSpans');
  });
});

/**
 * Longest a child may take to end; with the exporter right, every child ends within a second or so after Node has
 * started. A bound on a hang, not a measure: a busy machine can take seconds to start one, so it is 60 s, and each test
 * has 15 s more than that.
 */
const CHILD_BOUND_MS = 60_000;
const EXPORTER = new URL('./otlp-exporter.ts', import.meta.url).href;

/** A plain Node script: exports one record, then flushes (`flush`) or not (`idle`), prints one line, never calls `process.exit`. */
const SCRIPT = `
import { createOtlpExporter } from ${JSON.stringify(EXPORTER)};
const [mode, url] = process.argv.slice(1);
const exporter = createOtlpExporter({ url, serviceName: 's', timeoutMs: 200, onError: (e) => console.log(e.reason) });
exporter.export({ traceId: 'c1', callId: 'c1', toolName: 't', conversationId: '', input: {}, outcome: 'success', errorCode: undefined, attempts: 1, spans: [] });
if (mode === 'flush') console.log(JSON.stringify(await exporter.flush()));
else console.log('pending ' + exporter.pending);
`;

function child(mode: string, url: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const running = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT, mode, url], { stdio: ['ignore', 'pipe', 'pipe'] });
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

describe('createOtlpExporter in a plain Node script', { timeout: CHILD_BOUND_MS + 15_000 }, () => {
  it('a flush against a collector that never answers ends at its time limit: the script finishes (exit 0, not 13)', async () => {
    answers = ['never'];
    const result = await child('flush', collector);
    expect(result.stderr).not.toContain('unsettled top-level await');
    expect(result.stdout.split('\n')).toEqual(['timeout', '{"exported":0,"failed":0,"retrying":1,"dropped":0}']);
    expect(result.code).toBe(0);
  });

  it('an exporter with calls queued and no flush keeps nothing running: the script ends by itself', async () => {
    const result = await child('idle', collector);
    expect(result.stdout).toBe('pending 1');
    expect(result.code).toBe(0);
    expect(posts).toHaveLength(0);
  });
});
