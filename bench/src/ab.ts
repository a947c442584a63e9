/**
 * Paired A/B of `executor.execute` (the executor bench's tool and calls, pass-through interceptors): another checkout's
 * core (A) against this one's (B), interleaved in one process, so that drift of the shared machine hits both alike.
 * A change worth tens of nanoseconds drowns in the noise between two separate bench runs; here it shows.
 *   git worktree add /tmp/base <commit> && (cd /tmp/base && pnpm install --offline)
 *   node src/ab.ts /tmp/base [interceptor counts, default 3,0] [rounds, default 40] [--cpu] [--timed]
 * Take the bench lock when others may run benches (`flock /tmp/edgetool-bench.lock node src/ab.ts ...`), and repeat
 * the run: the paired difference of two identical cores still moves by up to ~±100 ns from run to run here. `--cpu`
 * times batches in the process's CPU time instead of the wall clock: on a loaded machine (other processes on the
 * cores) identical cores then stay within a few tens of ns, where the wall clock reads hundreds. `--mixed` first runs, on
 * each side, the other shapes the executor bench times in the same process (interceptors that `await next()`, spans on, an
 * async tool with `timeoutMs` and a signal): their call sites in the chain and the executor are then as polymorphic as
 * in that bench's process (and in an app with mixed tools), where the 3 pass-throughs cost 70–125 ns more (session 33).
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as core from '@edgetool/core';
import { CALLS, cycle, direct, directAsync, OrderInput, quoteOrder } from './executor-overhead.bench.ts';
import { type BenchCase, measure, paired } from './harness.ts';

type Core = typeof core;

const cpu = process.argv.includes('--cpu');
/** The demo's tool shape: asynchronous, with `timeoutMs`, called with a signal (the chat loop's turn signal). */
const timed = process.argv.includes('--timed');
const signal = timed ? new AbortController().signal : undefined;

function executorOf(lib: Core, interceptors: number): core.ToolExecutor {
  const tool = timed
    ? lib.defineTool({ name: 'quote_order', description: 'Quotes an order.', input: OrderInput, policy: { timeoutMs: 5_000 }, execute: async (input) => quoteOrder(input) })
    : lib.defineTool({ name: 'quote_order', description: 'Quotes an order.', input: OrderInput, execute: quoteOrder });
  const list = Array.from({ length: interceptors }, (_, i) => lib.defineInterceptor(`pass-${i + 1}`, (_ctx, next) => next()));
  return lib.createExecutor({ registry: [tool], interceptors: list });
}

const [other, counts = '3,0', rounds = '40'] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
if (other === undefined) throw new Error('usage: node src/ab.ts <other checkout> [interceptor counts, e.g. 3,0] [rounds]');
const a = (await import(pathToFileURL(join(resolve(other), 'packages', 'core', 'src', 'index.ts')).href)) as Core;

const baseline: BenchCase = { name: 'baseline', fn: cycle(directAsync), async: true };
const pairs = counts.split(',').map((count) => {
  const n = Number(count);
  const [ea, eb] = [executorOf(a, n), executorOf(core, n)];
  return {
    n,
    a: { name: `A, ${n} interceptors`, fn: cycle((call) => ea.execute(call, { signal })), async: true },
    b: { name: `B, ${n} interceptors`, fn: cycle((call) => eb.execute(call, { signal })), async: true },
  } satisfies { n: number; a: BenchCase; b: BenchCase };
});
const cases = [baseline, ...pairs.flatMap((pair) => [pair.a, pair.b])];

/** The executor bench's other shapes on one side, run before anything is timed (`--mixed`). */
async function mix(lib: Core): Promise<void> {
  const tool = lib.defineTool({ name: 'quote_order', description: 'Quotes an order.', input: OrderInput, execute: quoteOrder });
  const slow = lib.defineTool({ name: 'quote_order', description: 'Quotes an order.', input: OrderInput, policy: { timeoutMs: 5_000 }, execute: async (input) => quoteOrder(input) });
  const pass = [1, 2, 3].map((i) => lib.defineInterceptor(`pass-${i}`, (_ctx, next) => next()));
  const awaiting = [1, 2, 3].map((i) => lib.defineInterceptor(`await-${i}`, async (_ctx, next) => await next()));
  const turn = new AbortController().signal;
  const shapes = [
    lib.createExecutor({ registry: [tool], interceptors: awaiting }),
    lib.createExecutor({ registry: [tool], interceptors: pass, spans: true }),
    lib.createExecutor({ registry: [slow], interceptors: pass }),
  ];
  const run = lib.createRunContext({ conversationId: 'mixed' });
  for (let i = 0; i < 20_000; i++) for (const executor of shapes) await executor.execute(CALLS[i & 15] as core.ToolCall, { run, signal: turn });
}
if (process.argv.includes('--mixed')) {
  await mix(a);
  await mix(core);
}

// Both sides must give the baseline's answer before anything is timed.
for (const call of CALLS) {
  const expected = JSON.stringify(direct(call));
  for (const c of cases.slice(1)) {
    const result = (await c.fn()) as core.ToolCallResult;
    if (result.isError || result.content !== expected) throw new Error(`${c.name} disagrees with the baseline on ${call.id}: ${result.content}`);
  }
}

const stats = await measure(cases, { warmupMs: 500, batchMs: 5, rounds: Number(rounds), batchesPerRound: 2, clock: cpu ? 'cpu' : 'wall' });
const by = (c: BenchCase) => stats[cases.indexOf(c)] as (typeof stats)[number];
const f = (x: number) => x.toFixed(0).padStart(6);
console.log(`A: ${resolve(other)}\nB: this checkout\nbaseline ${f(by(baseline).median)} ns/call (${cpu ? 'CPU time' : 'wall clock'})`);
for (const { n, a: ca, b: cb } of pairs) {
  const [oa, ob] = [paired(by(ca), by(baseline)).difference, paired(by(cb), by(baseline)).difference];
  const d = paired(by(cb), by(ca));
  const share = ((d.difference / oa) * 100).toFixed(1);
  console.log(`${n} interceptors: overhead A ${f(oa)} B ${f(ob)} ns; B − A ${f(d.difference)} ns (${share} % of A's overhead), B / A ${d.ratio.toFixed(3)}`);
}
