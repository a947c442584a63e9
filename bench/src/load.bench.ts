/**
 * Load: the demo Worker (apps/worker, edgetool) and its plain-AI-SDK twin (bench/plain-worker) under
 * `wrangler dev` on 127.0.0.1, both up at once on their own ports, offline model, internal mode. Every
 * request asks "Where is order A-1002?" in a new conversation (unique id), which makes the model call
 * `query_order` once (a D1 read) and then answer. autocannon keeps 50 connections busy until a fixed
 * number of requests has completed (hard time cap per run), in interleaved rounds; a response counts as
 * good only with status 200 and a complete stream (the tool output, no error chunk, `[DONE]`).
 *
 * Why a fixed amount instead of a fixed duration: one isolate serves all 50 connections, so they move
 * in waves (latency ≈ 50 × service time, seconds here) and a 5–10 s window holds only a few waves;
 * counting completions in it quantises req/s to multiples of 50 ÷ window. Timing a fixed amount
 * (several waves) does not.
 */
import autocannon from 'autocannon';
import { type BenchReport, bytes, ratio, type Table } from './report.ts';
import { type DevWorker, scratch, startDev, stopAll, type WorkerName, WORKERS } from './workers.ts';

const QUICK = process.env.EDGETOOL_BENCH_QUICK === '1';
const CONNECTIONS = 50;
/** Requests per run: whole waves of the 50 connections. */
const WARMUP_REQUESTS = CONNECTIONS;
const ROUND_REQUESTS = CONNECTIONS * (QUICK ? 2 : 4);
/** Rounds vary by ±20 % on a shared 2-core VM (the load generator and two workerd share it): take the median of several. */
const ROUNDS = QUICK ? 1 : 6;
/** Hard cap on one run: it stops by itself even if the Worker stalls (what completed is counted). */
const RUN_CAP_S = 40;
const TARGET_RATIO = 0.95;
const QUESTION = 'Where is order A-1002?';

interface Run {
  readonly worker: WorkerName;
  readonly requests: number;
  readonly seconds: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  /** Status 200 but the stream is not complete: an error chunk, no tool output, or no `[DONE]`. */
  readonly streamErrors: number;
  readonly bytes: number;
  readonly sent: number;
  /** The run hit {@link RUN_CAP_S} before all requests completed. */
  readonly capped: boolean;
  /** The first failed response of the run (status and the start of its body), for the notes. */
  readonly firstFailure: string | undefined;
}

let conversation = 0;

/** The body of one load request: the same question in a new conversation each time. */
export function chatBody(worker: WorkerName): string {
  conversation++;
  return JSON.stringify({
    id: `load-${worker}-${conversation}`,
    mode: 'internal',
    messages: [{ id: `m-${conversation}`, role: 'user', parts: [{ type: 'text', text: QUESTION }] }],
  });
}

/** Whether one response body is a complete, error-free turn that called the read tool. */
export function completeTurn(body: string): boolean {
  return body.includes('"type":"tool-output-available"') && body.includes('"A-1002"') && !body.includes('"type":"error"') && body.includes('data: [DONE]');
}

function load(worker: DevWorker, amount: number): Promise<Run> {
  let sent = 0;
  let streamErrors = 0;
  let capped = false;
  let firstFailure: string | undefined;
  const started = performance.now();
  // autocannon notices that the amount is reached on its 1 s tick: time the last response instead.
  let lastResponse = started;
  return new Promise((resolve, reject) => {
    const tracker = autocannon(
      {
        url: worker.url,
        connections: CONNECTIONS,
        amount,
        timeout: 10,
        requests: [
          {
            method: 'POST',
            path: '/api/chat',
            headers: { 'content-type': 'application/json' },
            setupRequest: (request) => {
              sent++;
              return { ...request, body: chatBody(worker.name) };
            },
            onResponse: (status, body) => {
              lastResponse = performance.now();
              const complete = status === 200 && completeTurn(body);
              if (status === 200 && !complete) streamErrors++;
              if (!complete && firstFailure === undefined) firstFailure = `${status}: ${body.replace(/\s+/g, ' ').slice(0, 300)}`;
            },
          },
        ],
      },
      (error, result) => {
        clearTimeout(cap);
        if (error) return reject(error);
        resolve({
          worker: worker.name,
          requests: result.requests.total,
          seconds: (lastResponse - started) / 1000,
          p50: result.latency.p50,
          p99: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          streamErrors,
          bytes: result.throughput.total,
          sent,
          capped,
          firstFailure,
        });
      },
    );
    const cap = setTimeout(() => {
      capped = true;
      tracker.stop();
    }, RUN_CAP_S * 1000);
  });
}

/** One request through `fetch`, checked in full, before any load (also shows the worker answers offline). */
async function probe(worker: DevWorker): Promise<{ offline: boolean; bytes: number }> {
  const health = (await (await fetch(`${worker.url}/api/health`)).json()) as { model?: { offline?: boolean } };
  const res = await fetch(`${worker.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: chatBody(worker.name) });
  const body = await res.text();
  if (res.status !== 200 || !completeTurn(body)) throw new Error(`${worker.name}: the probe request failed (${res.status}):\n${body.slice(0, 2000)}`);
  return { offline: health.model?.offline === true, bytes: body.length };
}

const sum = (runs: readonly Run[], key: keyof Run) => runs.reduce((n, r) => n + (r[key] as number), 0);
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

export async function run(): Promise<BenchReport> {
  const { dir, cleanup } = scratch('edgetool-load-');
  const runs: Run[] = [];
  const probes = new Map<WorkerName, { offline: boolean; bytes: number }>();
  const logs = new Map<WorkerName, string>();
  try {
    const workers: Record<WorkerName, DevWorker> = { edgetool: await startDev('edgetool', `${dir}/edgetool`), plain: await startDev('plain', `${dir}/plain`) };
    for (const w of Object.values(workers)) probes.set(w.name, await probe(w));
    if (![...probes.values()].every((p) => p.offline)) throw new Error('a worker does not use the offline model (OPENAI_API_KEY set?): refusing to load it');
    for (const w of Object.values(workers)) await load(w, WARMUP_REQUESTS);
    for (let round = 0; round < ROUNDS; round++) {
      const order: WorkerName[] = round % 2 === 0 ? ['edgetool', 'plain'] : ['plain', 'edgetool'];
      for (const name of order) runs.push(await load(workers[name], ROUND_REQUESTS));
    }
    for (const w of Object.values(workers)) logs.set(w.name, w.log());
  } finally {
    await stopAll();
    cleanup();
  }
  const of = (name: WorkerName) => runs.filter((r) => r.worker === name);
  const rps = (rs: readonly Run[]) => sum(rs, 'requests') / sum(rs, 'seconds');
  /** Failed responses, plus requests a capped run never completed. */
  const bad = (rs: readonly Run[]) =>
    sum(rs, 'non2xx') + sum(rs, 'errors') + sum(rs, 'timeouts') + sum(rs, 'streamErrors') + rs.reduce((n, r) => n + (r.capped ? ROUND_REQUESTS - r.requests : 0), 0);
  const roundRatios = Array.from({ length: ROUNDS }, (_, i) => rps([of('edgetool')[i] as Run]) / rps([of('plain')[i] as Run]));
  const perRoundRatio = median(roundRatios);
  const edge = of('edgetool');
  const plain = of('plain');
  const rowFor = (name: WorkerName, rs: readonly Run[]) => [
    WORKERS[name].label,
    bytes(sum(rs, 'requests')),
    rps(rs).toFixed(1),
    String(median(rs.map((r) => r.p50))),
    String(Math.max(...rs.map((r) => r.p99))),
    String(sum(rs, 'non2xx')),
    String(sum(rs, 'errors') + sum(rs, 'timeouts') + rs.reduce((n, r) => n + (r.capped ? ROUND_REQUESTS - r.requests : 0), 0)),
    String(sum(rs, 'streamErrors')),
    bytes(Math.round(sum(rs, 'bytes') / Math.max(1, sum(rs, 'requests')))),
  ];
  const table: Table = {
    title: `${CONNECTIONS} connections, ${ROUNDS} × ${ROUND_REQUESTS} requests per Worker after ${WARMUP_REQUESTS} warm-up requests each`,
    columns: ['worker', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'non-200', 'socket errors, timeouts, unfinished', 'stream errors', 'B/response'],
    rows: [
      rowFor('edgetool', edge),
      rowFor('plain', plain),
      ['edgetool ÷ plain: median of the rounds (lowest–highest)', '—', `${ratio(perRoundRatio)} (${ratio(Math.min(...roundRatios))}–${ratio(Math.max(...roundRatios))})`, '—', '—', '—', '—', '—', '—'],
    ],
  };
  const rounds: Table = {
    title: 'Rounds (order alternates)',
    columns: ['round', 'worker', 'requests', 'seconds', 'req/s', 'p99 ms'],
    rows: runs.map((r, i) => [
      String(Math.floor(i / 2) + 1),
      r.worker,
      `${bytes(r.requests)}${r.capped ? ' (capped)' : ''}`,
      r.seconds.toFixed(1),
      (r.requests / r.seconds).toFixed(1),
      String(r.p99),
    ]),
  };
  const zeroErrors = bad(edge) === 0;
  const failures = (['edgetool', 'plain'] as const).flatMap((name) => {
    const rs = of(name);
    if (bad(rs) === 0) return [];
    const first = rs.find((r) => r.firstFailure)?.firstFailure ?? 'none recorded';
    const log = (logs.get(name) ?? '').replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '').trim().split('\n').slice(-12).join(' ⏎ ');
    return [`${name}: ${bad(rs)} failed or unfinished requests. First failure: \`${first}\`. End of its wrangler dev log: \`${log.slice(-1500) || '(empty)'}\``];
  });
  return {
    id: 'load',
    title: 'Worker load',
    method:
      `Both Workers under \`wrangler dev --ip 127.0.0.1\` at once (own ports, own throwaway D1 state migrated from apps/worker/migrations, own \`.dev.vars\` with a random TICKET_SECRET and no API key: the offline model answers; checked through /api/health). ` +
      `Every request is \`POST /api/chat\` \`{ id: <unique conversation id>, mode: "internal", messages: [user: "${QUESTION}"] }\`: the model calls \`query_order\` (one D1 read), then answers; the SSE stream is read to the end. ` +
      `autocannon 9 with ${CONNECTIONS} connections: ${WARMUP_REQUESTS} warm-up requests per Worker, then ${ROUNDS} round(s) of ${ROUND_REQUESTS} requests per Worker (every connection busy until all completed; ` +
      `a run stops by itself after ${RUN_CAP_S} s), the order alternating. A fixed amount rather than a fixed window: one isolate serves all connections in waves of ${CONNECTIONS}, which a short window would quantise. ` +
      'req/s = completed responses ÷ time from the start to the last response, over all rounds; the ratio is the median of per-round ratios; p50 is the median and p99 the worst of the rounds. ' +
      'A response is a stream error when its status is 200 but it lacks the tool output, contains an error chunk or does not end with `[DONE]`. ' +
      'The load generator shares the 2 cores with both workerd processes (the idle one costs nothing), so absolute req/s are low; read the ratio.',
    tables: [table, rounds],
    targets: [
      { name: 'worker load, edgetool ÷ plain req/s', measured: ratio(perRoundRatio), target: `≥ ${ratio(TARGET_RATIO)}`, pass: perRoundRatio >= TARGET_RATIO },
      { name: 'worker load, edgetool errors (non-200 + socket + stream)', measured: String(bad(edge)), target: '0', pass: zeroErrors },
    ],
    notes: [
      ...failures,
      `Probe responses (one request each, before the load): edgetool ${bytes(probes.get('edgetool')?.bytes ?? 0)} B, plain ${bytes(probes.get('plain')?.bytes ?? 0)} B; edgetool's carries a seal and a trace part for the call.`,
    ],
  };
}
