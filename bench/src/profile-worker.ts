/**
 * Profiles the Workers' isolates under `wrangler dev` through the Chrome DevTools protocol (the inspector
 * port wrangler opens) while chat requests run, and prints where the isolate spends its time.
 *   pnpm --filter @edgetool/bench bench:profile-worker [edgetool,plain] [connections] [requests]
 * The sampler measures wall time of the isolate thread: on a shared machine, CPU taken by the load
 * generator or the other processes shows up as slower functions, so compare shares, not milliseconds.
 */
import { chatBody, completeTurn } from './load.bench.ts';
import { type CpuProfile, fold } from './profile.ts';
import { type DevWorker, scratch, startDev, stopAll, type WorkerName } from './workers.ts';

async function load(worker: DevWorker, requests: number, connections: number): Promise<void> {
  let left = requests;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (left-- > 0) {
        const res = await fetch(`${worker.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: chatBody(worker.name) });
        const text = await res.text();
        if (res.status !== 200 || !completeTurn(text)) throw new Error(`${worker.name} answered ${res.status}: ${text.slice(0, 300)}`);
      }
    }),
  );
}

/** A DevTools protocol session with the isolate (wrangler's inspector proxy wants a DevTools origin). */
async function inspect(port: number) {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string }[];
  if (!target) throw new Error('no inspector target');
  const ws = new WebSocket(target.webSocketDebuggerUrl, { headers: { Origin: 'https://devtools.devprod.cloudflare.dev' } } as never);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let id = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  ws.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  };
  return {
    send: <T>(method: string, params: object = {}) =>
      new Promise<T>((resolve) => {
        waiting.set(++id, resolve as (result: unknown) => void);
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}

const names = (process.argv[2] ?? 'edgetool,plain').split(',') as WorkerName[];
const connections = Number(process.argv[3] ?? 4);
const requests = Number(process.argv[4] ?? 400);
const { dir, cleanup } = scratch('edgetool-profile-worker-');
try {
  for (const name of names) {
    const worker = await startDev(name, `${dir}/${name}`);
    await load(worker, 100, connections);
    const session = await inspect(worker.inspector);
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: 100 });
    await session.send('Profiler.start');
    const started = performance.now();
    await load(worker, requests, connections);
    const ms = performance.now() - started;
    const { profile } = await session.send<{ profile: CpuProfile }>('Profiler.stop');
    session.close();
    await stopAll();
    const { self, total, samples } = fold(profile);
    const busy = samples - (self.get('(idle)') ?? 0);
    console.log(`\n━━ ${name}: ${requests} requests over ${connections} connections, ${(ms / requests).toFixed(2)} ms/request, isolate busy ${((busy / samples) * 100).toFixed(1)} % ━━`);
    const top = (map: Map<string, number>, count: number) =>
      [...map]
        .filter(([fn]) => !['(idle)', '(root)', '(program)'].includes(fn))
        .sort((a, b) => b[1] - a[1])
        .slice(0, count);
    console.log('self time (share of busy samples)');
    for (const [fn, hits] of top(self, 25)) console.log(`${((hits / busy) * 100).toFixed(1).padStart(6)} %  ${fn}`);
    console.log('inclusive time');
    for (const [fn, hits] of top(total, 40)) console.log(`${((hits / busy) * 100).toFixed(1).padStart(6)} %  ${fn}`);
  }
} finally {
  await stopAll();
  cleanup();
}
