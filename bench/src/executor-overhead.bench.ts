/**
 * Per-call cost of `executor.execute(call)` for a small valibot-validated tool, against the
 * baseline a user would write without edgetool: JSON.parse the arguments, `v.safeParse`, call
 * the function. All cases run interleaved in one process (see harness.ts); the target pair (baseline, 3 interceptors)
 * runs again in a process of its own, where no other shape has made the chain's call sites polymorphic.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createExecutor, createRunContext, defineInterceptor, defineTool, type ToolCall, type ToolExecutor } from '@edgetool/core';
import * as v from 'valibot';
import { type BenchCase, type CaseStats, type MeasureOptions, measure, type Paired, paired } from './harness.ts';
import { type BenchReport, ns, ratio } from './report.ts';

const TARGET_OVERHEAD_NS = 1000;

/** The tool's input: a 3-field valibot object. */
export const OrderInput = v.object({
  order_id: v.pipe(v.string(), v.minLength(1)),
  quantity: v.pipe(v.number(), v.integer()),
  express: v.optional(v.boolean(), false),
});
type OrderInput = v.InferOutput<typeof OrderInput>;

/** The tool's own work: deliberately tiny, so what is measured is the machinery around it. */
export const quoteOrder = (input: OrderInput) => ({ order_id: input.order_id, total: input.quantity * 3, express: input.express });

const tool = defineTool({ name: 'quote_order', description: 'Quotes an order.', input: OrderInput, execute: quoteOrder });

/** 16 distinct calls (cycled) so no result can be cached by accident. */
export const CALLS: readonly ToolCall[] = Array.from({ length: 16 }, (_, i) => ({
  id: `call_${i}`,
  name: 'quote_order',
  arguments: JSON.stringify({ order_id: `A-${1000 + i}`, quantity: i + 1, express: i % 2 === 0 }),
}));

const passThrough = (i: number) => defineInterceptor(`pass-${i}`, (_ctx, next) => next());
/** The shape most interceptors have: an async function that awaits `next()` (one more promise per layer). */
const awaiting = (i: number) =>
  defineInterceptor(`await-${i}`, async (_ctx, next) => {
    const outcome = await next();
    return outcome;
  });

/** A case that calls `fn` with each of {@link CALLS} in turn. */
export function cycle<T>(fn: (call: ToolCall) => T): () => T {
  let i = 0;
  return () => fn(CALLS[i++ & 15] as ToolCall);
}

/** The baseline: parse, validate, call. Exactly what the executor does at its core, with nothing around it. */
export function direct(call: ToolCall) {
  const result = v.safeParse(OrderInput, JSON.parse(call.arguments as string));
  if (!result.success) throw new Error(result.issues[0].message);
  return quoteOrder(result.output);
}

/** {@link direct}, awaited as `execute` is: the baseline row. */
export async function directAsync(call: ToolCall) {
  return direct(call);
}

/** The baseline plus what every tool loop needs next: the output as text for the model. */
async function directText(call: ToolCall) {
  return JSON.stringify(direct(call));
}

/** The least an executor's result needs: the reference, plus `durationMs` (two clock reads) in a result object. */
async function directFloor(call: ToolCall) {
  const started = performance.now();
  const output = direct(call);
  const content = JSON.stringify(output);
  return { call, output, content, isError: false, durationMs: performance.now() - started };
}

function executorWith(interceptors: number, options: { clock?: () => number; spans?: boolean; make?: typeof passThrough } = {}): ToolExecutor {
  const list = Array.from({ length: interceptors }, (_, i) => (options.make ?? passThrough)(i + 1));
  return createExecutor({ registry: [tool], interceptors: list, spans: options.spans, ...(options.clock ? { clock: options.clock } : {}) });
}

const exec0 = executorWith(0);
const exec3 = executorWith(3);
const exec3Async = executorWith(3, { make: awaiting });
/** Spans on, as with `onTrace`, a `trace()` interceptor or the chat agent's trace parts. */
const exec3Spans = executorWith(3, { spans: true });
/** Diagnostic: a constant clock shows what the per-span `performance.now()` calls cost. */
const exec3SpansNoClock = executorWith(3, { spans: true, clock: () => 0 });
const sharedRun = createRunContext({ conversationId: 'bench' });
/** The shape of the demo's tools in the chat loop: asynchronous, with `timeoutMs`, called with the turn's signal. */
const timedTool = defineTool({ name: 'quote_order', description: 'Quotes an order.', input: OrderInput, policy: { timeoutMs: 5_000 }, execute: async (input) => quoteOrder(input) });
const exec3Timed = createExecutor({ registry: [timedTool], interceptors: [1, 2, 3].map(passThrough) });
const turnSignal = new AbortController().signal;

/** The cases, in table order. `baseline` is the reference for ratios. */
export const CASES = {
  directSync: { name: 'direct, sync (no await)', fn: cycle(direct), async: false },
  baseline: { name: 'baseline: parse + safeParse + call, awaited', fn: cycle(directAsync), async: true },
  baselineText: { name: 'reference: baseline + `JSON.stringify(output)` for the model', fn: cycle(directText), async: true },
  floor: { name: 'reference: + `durationMs` (two clock reads) in a result object: what the result needs at least', fn: cycle(directFloor), async: true },
  exec0: { name: 'executor.execute, 0 interceptors', fn: cycle((call) => exec0.execute(call)), async: true },
  exec3: { name: 'executor.execute, 3 interceptors', fn: cycle((call) => exec3.execute(call)), async: true },
  exec3Async: { name: 'diagnostic: 3 `async` interceptors that `await next()`', fn: cycle((call) => exec3Async.execute(call)), async: true },
  exec3Run: { name: 'diagnostic: 3 interceptors, shared run', fn: cycle((call) => exec3.execute(call, { run: sharedRun })), async: true },
  exec3Spans: { name: 'diagnostic: 3 interceptors, spans on', fn: cycle((call) => exec3Spans.execute(call)), async: true },
  exec3SpansNoClock: { name: 'diagnostic: 3 interceptors, spans on, constant clock', fn: cycle((call) => exec3SpansNoClock.execute(call)), async: true },
  exec3Timed: {
    name: "diagnostic: 3 interceptors, an async tool with `timeoutMs`, the caller's signal",
    fn: cycle((call) => exec3Timed.execute(call, { run: sharedRun, signal: turnSignal })),
    async: true,
  },
} satisfies Record<string, BenchCase>;

const SAMPLE_OUTPUT = quoteOrder({ order_id: 'A-1001', quantity: 2, express: true });
let counter = 0;

/** Primitives the executor pays per call, timed the same way, to read the breakdown against. */
export const PRIMITIVES = {
  now: { name: '`performance.now()`', fn: () => performance.now(), async: false },
  uuid: { name: '`crypto.randomUUID()`', fn: () => crypto.randomUUID(), async: false },
  stringify: { name: '`JSON.stringify(output)` (the content for the model)', fn: () => JSON.stringify(SAMPLE_OUTPUT), async: false },
  awaitAsync: { name: 'calling and awaiting an empty async function', fn: async () => counter++, async: true },
} satisfies Record<string, BenchCase>;

/** Every case (of `executors`: all by default) must compute the same answer before any of them is timed. */
async function check(executors: readonly ToolExecutor[] = [exec0, exec3, exec3Async, exec3Spans, exec3SpansNoClock, exec3Timed]): Promise<void> {
  for (const call of CALLS) {
    const expected = JSON.stringify(direct(call));
    for (const executor of executors) {
      const result = await executor.execute(call);
      if (result.isError || result.content !== expected) throw new Error(`executor disagrees with the baseline on ${call.id}: ${result.content}`);
    }
  }
}

const QUICK = process.env.EDGETOOL_BENCH_QUICK === '1';
const OPTIONS: MeasureOptions = { warmupMs: QUICK ? 250 : 500, batchMs: 5, rounds: QUICK ? 20 : 60, batchesPerRound: 2 };
const PRIMITIVE_OPTIONS: MeasureOptions = { warmupMs: 150, batchMs: 2, rounds: QUICK ? 8 : 20, batchesPerRound: 2 };

/** Set in the child process that times the target pair alone. */
const ALONE = 'EDGETOOL_BENCH_EXECUTOR_ALONE';

/**
 * The target pair (baseline, 3 pass-throughs) timed in a process where the executor has run no other shape: V8 then
 * inlines the interceptor calls and the bound `next()`, which the diagnostic rows (awaiting interceptors, spans, a
 * timed async tool) turn into generic calls in the shared process (perf33, session 33: +70–125 ns there).
 */
async function measureAlone(): Promise<Paired & { baseline: number; three: number }> {
  await check([exec3]);
  const [baseline, three] = (await measure([CASES.baseline, CASES.exec3], OPTIONS)) as [CaseStats, CaseStats];
  return { ...paired(three, baseline), baseline: baseline.median, three: three.median };
}

/** Runs this module again as a program that times the target pair alone, and reads what it prints. */
function inOwnProcess(): Promise<Paired & { baseline: number; three: number }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, [ALONE]: '1' };
    execFile(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], { env }, (error, stdout) => {
      if (error) reject(error);
      else resolve(JSON.parse(stdout));
    });
  });
}

if (process.env[ALONE] === '1') process.stdout.write(JSON.stringify(await measureAlone()));

export async function run(): Promise<BenchReport> {
  const alone = await inOwnProcess();
  await check();
  const stats = await measure(Object.values(CASES), OPTIONS);
  const primitives = await measure(Object.values(PRIMITIVES), PRIMITIVE_OPTIONS);
  const by = (c: BenchCase) => stats.find((s) => s.name === c.name) as CaseStats;
  const base = by(CASES.baseline);
  /** Paired difference a − b in ns/call (median over rounds). */
  const minus = (a: BenchCase, b: BenchCase) => paired(by(a), by(b)).difference;
  const overhead0 = minus(CASES.exec0, CASES.baseline);
  const overhead3 = minus(CASES.exec3, CASES.baseline);
  return {
    id: 'executor-overhead',
    title: 'Executor overhead',
    method:
      'A 3-field valibot tool (`v.object` of string, integer, optional boolean) called with JSON-string arguments. ' +
      'Baseline: `JSON.parse` + `v.safeParse` + direct call inside an async function, awaited by the same loop as `executor.execute` ' +
      '(so both pay the loop and one await; the row "direct, sync" shows that await). ' +
      'The executor runs with its defaults: spans off (they are on with `onTrace`, a `trace()` interceptor in the chain, `spans: true`, and in the chat agent), so a call reads the clock twice, for `durationMs`. ' +
      'The interceptors are pass-throughs `(ctx, next) => next()`; a diagnostic row has the `async`/`await next()` shape. ' +
      `Cases interleaved in ${OPTIONS.rounds} rounds of ${OPTIONS.batchesPerRound} batches of ~${OPTIONS.batchMs} ms each, after ${OPTIONS.warmupMs} ms of warm-up per case (no forced GC: allocation cost stays in the figure). ` +
      'ns/call is the median of all batches; overhead and ratio are medians of per-round differences and ratios against the baseline measured in the same round, ' +
      'so drift of the shared machine cancels. ' +
      'The target pair (baseline, 3 interceptors) is timed first in a process of its own, the same way: there V8 inlines the chain, which the ' +
      "diagnostic rows' other shapes make polymorphic in the shared process (as in an app whose executors run interceptors of several shapes).",
    tables: [
      {
        title: 'Per-call cost',
        columns: ['case', 'ns/call', 'p25–p75', 'overhead ns', 'ratio vs baseline'],
        rows: stats.map((s) => {
          const p = paired(s, base);
          return [s.name, ns(s.median), `${ns(s.p25)}–${ns(s.p75)}`, s === base ? '—' : ns(p.difference), ratio(p.ratio)];
        }),
      },
      {
        title: 'Where the overhead goes (paired differences, ns/call)',
        columns: ['figure', 'ns/call'],
        rows: [
          ['executor overhead, 0 interceptors', ns(overhead0)],
          ['executor overhead, 3 interceptors', ns(overhead3)],
          ['per pass-through interceptor `(ctx, next) => next()`: (3 − 0 interceptors) / 3', ns(minus(CASES.exec3, CASES.exec0) / 3)],
          ['per `async` interceptor that awaits next(): (3 async − 0 interceptors) / 3', ns(minus(CASES.exec3Async, CASES.exec0) / 3)],
          ['the output as text for the model (reference − baseline)', ns(minus(CASES.baselineText, CASES.baseline))],
          ['the result itself: model text, `durationMs`, result object (floor − baseline)', ns(minus(CASES.floor, CASES.baseline))],
          ['the machinery above that floor: chain, context, checks (3 interceptors − floor)', ns(minus(CASES.exec3, CASES.floor))],
          ['a call without a run against one with a shared run (the run is made only if read: about 0)', ns(minus(CASES.exec3, CASES.exec3Run))],
          ['the rest (3 interceptors, shared run − reference)', ns(minus(CASES.exec3Run, CASES.baselineText))],
          ['spans on: a timed span per layer (spans on − 3 interceptors)', ns(minus(CASES.exec3Spans, CASES.exec3))],
          ['of which clock: 8 × `performance.now()` (spans on − constant clock)', ns(minus(CASES.exec3Spans, CASES.exec3SpansNoClock))],
          ["an async tool with `timeoutMs` and the caller's signal (its time limit, the race with the signal: timed − 3 interceptors)", ns(minus(CASES.exec3Timed, CASES.exec3))],
        ],
      },
      {
        title: 'The target pair in a process of its own (no other shape run before it)',
        columns: ['figure', 'ns/call'],
        rows: [
          ['baseline: parse + safeParse + call, awaited', ns(alone.baseline)],
          ['executor.execute, 3 interceptors', ns(alone.three)],
          ['executor overhead, 3 interceptors (paired)', ns(alone.difference)],
          ['ratio vs baseline (paired)', ratio(alone.ratio)],
        ],
      },
      {
        title: 'Primitives, for reading the breakdown (same harness, same run)',
        columns: ['primitive', 'ns/call', 'p25–p75'],
        rows: primitives.map((s) => [s.name, ns(s.median), `${ns(s.p25)}–${ns(s.p75)}`]),
      },
    ],
    targets: [
      {
        name: 'executor overhead, 3 interceptors, in a process of its own',
        measured: `${ns(alone.difference)} ns`,
        target: `< ${ns(TARGET_OVERHEAD_NS)} ns`,
        pass: alone.difference < TARGET_OVERHEAD_NS,
      },
      {
        name: 'executor overhead, 3 interceptors, beside the diagnostic shapes in one process',
        measured: `${ns(overhead3)} ns`,
        target: `< ${ns(TARGET_OVERHEAD_NS)} ns`,
        pass: overhead3 < TARGET_OVERHEAD_NS,
      },
    ],
    notes: [
      'Absolute ns/call follow the machine (a shared VM here: whole runs came out up to 2× slower when its neighbours were busy); ' +
        'the paired ratios and differences are the figures to compare between runs. `pnpm --filter @edgetool/bench bench:profile [case]` shows where a case spends its time.',
    ],
  };
}
