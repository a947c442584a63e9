/**
 * Profiles one bench case with `node --cpu-prof` and prints where the time goes, per call.
 *   pnpm --filter @edgetool/bench bench:profile [case] [seconds]
 * case: a key of the executor bench's CASES (default exec3), or `loop-edgetool` / `loop-plain` (one
 * whole 20-step UI chat turn of the loop bench per call), `loop-edgetool-text` / `loop-plain-text` (the text turn). The parent re-runs this file as the profiled
 * child, then folds the .cpuprofile into self and inclusive time per function (recursion counted
 * once), expressed in ns per call. `loop.bench.ts` uses {@link profileCase} for its top-costs table.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CASES } from './executor-overhead.bench.ts';
import type { BenchCase } from './harness.ts';
import { ns, textTable } from './report.ts';

/** Loop cases are built on demand (they load the AI SDK). */
const LOOP_CASES = ['loop-edgetool', 'loop-plain', 'loop-edgetool-text', 'loop-plain-text'] as const;
type CaseKey = keyof typeof CASES | (typeof LOOP_CASES)[number];

const isCase = (key: string): key is CaseKey => key in CASES || (LOOP_CASES as readonly string[]).includes(key);

async function caseFor(key: CaseKey): Promise<BenchCase> {
  if (key in CASES) return CASES[key as keyof typeof CASES];
  const { createSides, LOOP_TOOL_STEPS } = await import('./loop-fixtures.ts');
  const sides = createSides(LOOP_TOOL_STEPS);
  const side = { 'loop-edgetool': sides.edgetool, 'loop-plain': sides.plainMessages, 'loop-edgetool-text': sides.edgetoolText, 'loop-plain-text': sides.plainGenerate }[key as (typeof LOOP_CASES)[number]];
  return { name: `${key}: one ${LOOP_TOOL_STEPS}-step chat turn`, fn: side.run, async: true };
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly hitCount?: number;
  readonly children?: readonly number[];
}

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The profiled child: warm up, then run the case for `seconds` and print how many calls it made. */
async function child(c: BenchCase, seconds: number, perBatch: number): Promise<void> {
  for (let i = 0; i < Math.min(perBatch, 5); i++) await c.fn();
  const deadline = performance.now() + seconds * 1000;
  let calls = 0;
  const t0 = performance.now();
  while (performance.now() < deadline) {
    for (let i = 0; i < perBatch; i++) await c.fn();
    calls += perBatch;
  }
  console.log(JSON.stringify({ calls, ms: performance.now() - t0, name: c.name }));
}

function label(frame: ProfileNode['callFrame']): string {
  const file = frame.url.startsWith('file://') ? relative(ROOT, fileURLToPath(frame.url)).replace(/^.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, '') : frame.url;
  return `${frame.functionName || '(anonymous)'} ${file ? `${file}:${frame.lineNumber + 1}` : ''}`.trim();
}

/** Self and inclusive sample counts per function (a function recursing into itself counts once). */
export function fold(profile: CpuProfile): { self: Map<string, number>; total: Map<string, number>; samples: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let samples = 0;
  const visit = (node: ProfileNode, onStack: readonly string[]) => {
    const key = label(node.callFrame);
    const stack = onStack.includes(key) ? onStack : [...onStack, key];
    const hits = node.hitCount ?? 0;
    if (hits > 0) {
      samples += hits;
      self.set(key, (self.get(key) ?? 0) + hits);
      for (const k of stack) total.set(k, (total.get(k) ?? 0) + hits);
    }
    for (const id of node.children ?? []) visit(byId.get(id) as ProfileNode, stack);
  };
  visit(profile.nodes[0] as ProfileNode, []);
  return { self, total, samples };
}

/** Where one case spends its time: the profiled rate and the top functions by self and inclusive time. */
export interface ProfileSummary {
  readonly name: string;
  readonly calls: number;
  readonly nsPerCall: number;
  /** `[function at file:line, share of samples]`, most first. */
  readonly self: readonly (readonly [string, number])[];
  readonly total: readonly (readonly [string, number])[];
}

/** Runs `key` for `seconds` in a child under `node --cpu-prof` and folds the profile. */
export function profileCase(key: string, seconds: number, top = 20): ProfileSummary {
  if (!isCase(key)) throw new Error(`unknown case "${key}"; use one of ${[...Object.keys(CASES), ...LOOP_CASES].join(', ')}`);
  const dir = mkdtempSync(join(tmpdir(), 'edgetool-prof-'));
  try {
    const res = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=50', fileURLToPath(import.meta.url), '--child', key, String(seconds)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (res.status !== 0) throw new Error(`profiled child exited with ${res.status}`);
    const { calls, ms, name } = JSON.parse(res.stdout.trim().split('\n').pop() as string) as { calls: number; ms: number; name: string };
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error('no .cpuprofile written');
    const { self, total, samples } = fold(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile);
    const ranked = (map: Map<string, number>) =>
      [...map]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([fn, hits]) => [fn, hits / samples] as const);
    const stackOnly = new Map([...total].filter(([fn]) => !NOT_ON_STACK.some((prefix) => fn.startsWith(prefix))));
    return { name, calls, nsPerCall: (ms * 1e6) / calls, self: ranked(self), total: ranked(stackOnly) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Frames every sample has (the module runner, the event loop): left out of the inclusive table. */
const NOT_ON_STACK = ['(root)', '(program)', 'processTicksAndRejections', 'runMicrotasks', '(anonymous) node:internal/main', 'executeUserEntryPoint', 'runEntryPoint', 'asyncRunEntryPoint', 'import node:internal/modules', 'tracePromise', '(anonymous) node:internal/modules/run_main'];

function parent(key: string, seconds: number): void {
  const p = profileCase(key, seconds);
  const pct = (share: number) => `${(share * 100).toFixed(1)} %`;
  console.log(`${p.name}: ${p.calls.toLocaleString('en-US')} calls, ${ns(p.nsPerCall)} ns/call (profiler on)\n`);
  const rows = (list: ProfileSummary['self']) => list.map(([fn, share]) => [fn, pct(share), ns(share * p.nsPerCall)]);
  console.log(textTable({ title: 'self', columns: ['self time: function', 'share', 'ns/call'], rows: rows(p.self) }));
  console.log();
  console.log(textTable({ title: 'total', columns: ['inclusive time: function', 'share', 'ns/call'], rows: rows(p.total) }));
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    const key = args[1] as CaseKey;
    await child(await caseFor(key), Number(args[2]), key.startsWith('loop-') ? 1 : 1000);
  } else {
    parent(args[0] ?? 'exec3', Number(args[1] ?? 4));
  }
}
