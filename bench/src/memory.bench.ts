// node-flags: --expose-gc --max-opt=0 --no-flush-bytecode
/**
 * Heap growth under sustained use: 10,000 executed calls through one `createExecutor` and 200 chat
 * turns through one `createChatAgent` on the mock model. After a warm-up, `heapUsed` is read after a
 * forced full GC (`--expose-gc`, two collections) at fixed checkpoints; the least-squares slope over
 * the checkpoints is the retained memory per call (or turn). A leak shows as a steady slope; noise
 * as a slope near zero. Baselines (the same work without edgetool) run in the same process.
 * The child runs on V8's interpreter only (`--max-opt=0`) and keeps its bytecode (`--no-flush-bytecode`):
 * with the JIT on, optimised code and feedback grew the heap of both edgetool and the plain AI SDK by
 * ~0.5–1 KB per turn for the first ~600 turns before levelling off, which would hide or fake a leak.
 * What the program itself retains does not depend on the tier.
 */
import { createExecutor, defineInterceptor, defineTool, type ToolCall } from '@edgetool/core';
import * as v from 'valibot';
import { createSides } from './loop-fixtures.ts';
import { type BenchReport, bytes, type Table } from './report.ts';

const QUICK = process.env.EDGETOOL_BENCH_QUICK === '1';
/**
 * Pass thresholds: below what keeping any one object per call alive would cost (a V8 object is ≥ 16 B,
 * a Map entry more, a call result ~1 KB), and below anything a turn could leave behind (its message is ~10 KB).
 */
const MAX_BYTES_PER_CALL = 8;
const MAX_BYTES_PER_TURN = 256;

const CALLS = QUICK ? 5_000 : 10_000;
const CALL_CHECKPOINT = CALLS / 10;
const TURNS = QUICK ? 100 : 200;
const TURN_CHECKPOINT = TURNS / 10;
/** Steps per chat turn here: 2 steps × 4 parallel calls + an answer (the loop bench's long turn, shortened). */
const TURN_TOOL_STEPS = 2;

const gc = (globalThis as { gc?: () => void }).gc;

async function heapAfterGc(): Promise<number> {
  if (!gc) throw new Error('memory.bench.ts needs node --expose-gc (the runner passes it)');
  await new Promise((r) => setImmediate(r));
  gc();
  await new Promise((r) => setImmediate(r));
  gc();
  return process.memoryUsage().heapUsed;
}

interface Series {
  readonly name: string;
  readonly unit: 'call' | 'turn';
  readonly points: readonly (readonly [number, number])[];
  readonly slope: number;
}

/** Least-squares slope of heapUsed over the operation count, bytes per operation. */
function slopeOf(points: readonly (readonly [number, number])[]): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return num / den;
}

/** Warm up, then run `total` operations and read the heap every `every`. */
async function series(name: string, unit: Series['unit'], total: number, every: number, op: (i: number) => Promise<unknown>): Promise<Series> {
  for (let i = 0; i < every; i++) await op(i);
  const points: [number, number][] = [[0, await heapAfterGc()]];
  for (let done = 0; done < total; ) {
    for (let k = 0; k < every; k++, done++) await op(done);
    points.push([done, await heapAfterGc()]);
  }
  return { name, unit, points, slope: slopeOf(points) };
}

// The executor case of executor-overhead.bench.ts: a 3-field valibot tool, 3 pass-through interceptors, a fresh run context per call.
const OrderInput = v.object({ order_id: v.pipe(v.string(), v.minLength(1)), quantity: v.pipe(v.number(), v.integer()), express: v.optional(v.boolean(), false) });
const quote = (input: v.InferOutput<typeof OrderInput>) => ({ order_id: input.order_id, total: input.quantity * 3, express: input.express });
const tool = defineTool({ name: 'quote_order', description: 'Quotes an order.', input: OrderInput, execute: quote });
const executor = createExecutor({
  registry: [tool],
  interceptors: [1, 2, 3].map((i) => defineInterceptor(`pass-${i}`, (_ctx, next) => next())),
});
/** Every call is distinct (id and arguments), so nothing can be cached. */
const call = (i: number): ToolCall => ({ id: `call_${i}`, name: 'quote_order', arguments: `{"order_id":"A-${i}","quantity":${(i % 9) + 1},"express":${i % 2 === 0}}` });
async function direct(i: number) {
  const parsed = v.safeParse(OrderInput, JSON.parse(call(i).arguments as string));
  if (!parsed.success) throw new Error('invalid');
  return JSON.stringify(quote(parsed.output));
}

const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;

export async function run(): Promise<BenchReport> {
  const sides = createSides(TURN_TOOL_STEPS);
  const all: Series[] = [];
  all.push(await series('baseline: parse + safeParse + call + JSON.stringify', 'call', CALLS, CALL_CHECKPOINT, direct));
  all.push(
    await series('edgetool: executor.execute (3 interceptors)', 'call', CALLS, CALL_CHECKPOINT, async (i) => {
      const result = await executor.execute(call(i));
      if (result.isError) throw new Error(result.content);
    }),
  );
  // The method's own check: the same executor with every result kept alive must show a clear slope.
  const kept: unknown[] = [];
  const control = await series('control: executor.execute, every result kept (a deliberate leak)', 'call', CALLS, CALL_CHECKPOINT, async (i) => {
    kept.push(await executor.execute(call(i)));
  });
  kept.length = 0;
  all.push(await series(`baseline: plain AI SDK turn (${TURN_TOOL_STEPS}×4 calls)`, 'turn', TURNS, TURN_CHECKPOINT, () => sides.plain.run()));
  all.push(await series(`edgetool: createChatAgent().generate() turn (${TURN_TOOL_STEPS}×4 calls)`, 'turn', TURNS, TURN_CHECKPOINT, () => sides.edgetool.run()));
  const [, exec, , chat] = all as [Series, Series, Series, Series];
  all.splice(2, 0, control);
  const table: Table = {
    title: 'Heap after forced GC (heapUsed), least-squares slope over the checkpoints',
    columns: ['workload', 'operations', 'first checkpoint', 'last checkpoint', 'slope B/op', 'threshold B/op'],
    rows: all.map((s) => [
      s.name,
      `${bytes(s.points.at(-1)?.[0] ?? 0)} ${s.unit}s`,
      kib(s.points[0]?.[1] ?? 0),
      kib(s.points.at(-1)?.[1] ?? 0),
      s.slope.toFixed(1),
      s.name.startsWith('edgetool') ? String(s.unit === 'call' ? MAX_BYTES_PER_CALL : MAX_BYTES_PER_TURN) : '—',
    ]),
  };
  const checkpoints: Table = {
    title: 'Checkpoints (heapUsed in KiB after each tenth of the run)',
    columns: ['workload', ...Array.from({ length: 11 }, (_, i) => String(i))],
    rows: all.map((s) => [s.name, ...s.points.map(([, y]) => (y / 1024).toFixed(0))]),
  };
  return {
    id: 'memory',
    title: 'Memory',
    method:
      'Node with `--expose-gc --max-opt=0 --no-flush-bytecode` (interpreter only, so compiled code and its feedback, which grow for hundreds of turns under the JIT, do not blur the figure). ' +
      `Each workload warms up for one checkpoint interval, then runs ${bytes(CALLS)} executor calls (checkpoint every ${bytes(CALL_CHECKPOINT)}) ` +
      `or ${TURNS} chat turns (every ${TURN_CHECKPOINT}); at each checkpoint \`heapUsed\` is read after two forced full GCs. The slope is the least-squares fit over the 11 checkpoints. ` +
      'Executor: the executor bench\'s 3-field valibot tool behind 3 pass-through interceptors, one shared `createExecutor`, a fresh run context and a distinct call per execution. ' +
      `Chat: one shared \`createChatAgent\` (4 tools, tickets) on the loop bench's scripted mock model, turns of ${TURN_TOOL_STEPS} steps × 4 parallel calls + an answer, each with a new conversation id; ` +
      "the mock's call log is emptied after each turn. The baselines (plain parse/validate/call, a plain AI SDK turn) show the noise floor of the same measurement.",
    tables: [table, checkpoints],
    targets: [
      { name: 'memory, executor heap growth', measured: `${exec.slope.toFixed(1)} B/call`, target: `< ${MAX_BYTES_PER_CALL} B/call`, pass: exec.slope < MAX_BYTES_PER_CALL },
      { name: 'memory, chat agent heap growth', measured: `${chat.slope.toFixed(0)} B/turn`, target: `< ${MAX_BYTES_PER_TURN} B/turn`, pass: chat.slope < MAX_BYTES_PER_TURN },
    ],
    notes: [
      `The control row shows what a leak looks like with this method: keeping each \`ToolCallResult\` alive retains ${control.slope.toFixed(0)} B/call.`,
    ],
  };
}
