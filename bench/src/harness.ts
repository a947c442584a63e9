/**
 * A small, dependency-free timing harness. Each case runs in batches timed with
 * `process.hrtime.bigint()`; a batch is long enough (~`batchMs`, hundreds to thousands of calls)
 * that the timer's own cost and the young-generation GCs its allocations cause are amortised the
 * same way for every case: allocation is part of a call's cost, so GC stays in the figure.
 * Forcing a full GC between batches (`--expose-gc`) was tried and rejected: it shrinks the young
 * generation, and the batches after it ran up to 2× slower with a 2× wider spread.
 * Cases are interleaved round by round (rotating the order), so drift of the shared machine hits
 * all of them alike; {@link paired} compares two cases within each round before taking medians.
 */

/** One measured function. `fn` is awaited when `async` is true (the loop then pays one await per call). */
export interface BenchCase {
  readonly name: string;
  readonly fn: () => unknown;
  readonly async: boolean;
}

/** Options for {@link measure}. */
export interface MeasureOptions {
  /** Warm-up per case before calibration (JIT tiers up here). */
  readonly warmupMs: number;
  /** Target duration of one timed batch. */
  readonly batchMs: number;
  /** Interleaved rounds; each runs `batchesPerRound` batches of every case. */
  readonly rounds: number;
  readonly batchesPerRound: number;
  /** Fewest calls in one batch (default 256: amortises the timer for sub-microsecond cases; lower it for cases of milliseconds). */
  readonly minCallsPerBatch?: number;
  /**
   * What a batch is timed by: `'wall'` (default, `process.hrtime`) or `'cpu'`, the process's CPU time (`process.cpuUsage`,
   * GC threads included), which a busy neighbour's share of the cores does not inflate. For A/B runs on a loaded machine.
   */
  readonly clock?: 'wall' | 'cpu';
}

/** Per-case result: nanoseconds per call over all timed batches. */
export interface CaseStats {
  readonly name: string;
  readonly median: number;
  readonly p25: number;
  readonly p75: number;
  readonly min: number;
  readonly batches: number;
  readonly callsPerBatch: number;
  /** The median ns/call of each round, in round order (for paired comparisons, see {@link paired}). */
  readonly perRound: readonly number[];
}

/** A case against a baseline, paired round by round: both ran back to back, so machine drift cancels. */
export interface Paired {
  /** Median over rounds of case / baseline. */
  readonly ratio: number;
  /** Median over rounds of case − baseline, in ns/call. */
  readonly difference: number;
}

/** Keeps results observable so the optimiser cannot drop the work. */
export let sink: unknown;

async function runAsync(fn: () => unknown, n: number): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) sink = await fn();
  return Number(process.hrtime.bigint() - t0);
}

function runSync(fn: () => unknown, n: number): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) sink = fn();
  return Number(process.hrtime.bigint() - t0);
}

/** Nanoseconds of the process's CPU time (all its threads) that `batch` takes. */
async function cpuTime(batch: () => Promise<number> | number): Promise<number> {
  const before = process.cpuUsage();
  await batch();
  const { user, system } = process.cpuUsage(before);
  return (user + system) * 1000;
}

function timeBatch(c: BenchCase, n: number, clock: MeasureOptions['clock']): Promise<number> | number {
  if (clock === 'cpu') return cpuTime(() => timeBatch(c, n, 'wall'));
  return c.async ? runAsync(c.fn, n) : runSync(c.fn, n);
}

/** Linear-interpolated quantile of a sorted array. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (pos - lo);
}

/** Runs every case warm, then interleaved in rounds, and returns ns/call statistics per case. */
export async function measure(cases: readonly BenchCase[], options: MeasureOptions): Promise<CaseStats[]> {
  const calls = new Map<BenchCase, number>();
  // Warm-up, then calibrate the batch size so one batch lasts about `batchMs`.
  for (const c of cases) {
    const deadline = performance.now() + options.warmupMs;
    let n = Math.min(64, options.minCallsPerBatch ?? 64);
    do {
      const elapsed = await timeBatch(c, n, options.clock);
      if (elapsed < options.batchMs * 1e6) n *= 2;
    } while (performance.now() < deadline);
    const ns = (await timeBatch(c, n, options.clock)) / n;
    calls.set(c, Math.max(options.minCallsPerBatch ?? 256, Math.round((options.batchMs * 1e6) / Math.max(ns, 1))));
  }
  const samples = new Map<BenchCase, number[]>(cases.map((c) => [c, []]));
  const perRound = new Map<BenchCase, number[]>(cases.map((c) => [c, []]));
  for (let round = 0; round < options.rounds; round++) {
    for (let k = 0; k < cases.length; k++) {
      const c = cases[(round + k) % cases.length] as BenchCase;
      const n = calls.get(c) as number;
      const batches: number[] = [];
      for (let b = 0; b < options.batchesPerRound; b++) batches.push((await timeBatch(c, n, options.clock)) / n);
      (samples.get(c) as number[]).push(...batches);
      (perRound.get(c) as number[]).push(quantile(batches.sort((a, b) => a - b), 0.5));
    }
  }
  return cases.map((c) => {
    const sorted = [...(samples.get(c) as number[])].sort((a, b) => a - b);
    return {
      perRound: perRound.get(c) as number[],
      name: c.name,
      median: quantile(sorted, 0.5),
      p25: quantile(sorted, 0.25),
      p75: quantile(sorted, 0.75),
      min: sorted[0] as number,
      batches: sorted.length,
      callsPerBatch: calls.get(c) as number,
    };
  });
}

/** Compares a case with the baseline round by round and takes the medians. */
export function paired(stats: CaseStats, baseline: CaseStats): Paired {
  const ratios = stats.perRound.map((x, i) => x / (baseline.perRound[i] as number)).sort((a, b) => a - b);
  const differences = stats.perRound.map((x, i) => x - (baseline.perRound[i] as number)).sort((a, b) => a - b);
  return { ratio: quantile(ratios, 0.5), difference: quantile(differences, 0.5) };
}
