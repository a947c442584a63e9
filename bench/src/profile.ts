/**
 * Profiles one executor case with `node --cpu-prof` and prints where the time goes, per call.
 *   pnpm --filter @edgetool/bench bench:profile [case] [seconds]     (case: a key of CASES, default exec3)
 * The parent re-runs this file as the profiled child, then folds the .cpuprofile into self and
 * inclusive time per function (recursion counted once), expressed in ns per call.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CASES } from './executor-overhead.bench.ts';
import type { BenchCase } from './harness.ts';
import { ns, textTable } from './report.ts';

type CaseKey = keyof typeof CASES;

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly hitCount?: number;
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The profiled child: warm up, then run the case for `seconds` and print how many calls it made. */
async function child(c: BenchCase, seconds: number): Promise<void> {
  const deadline = performance.now() + seconds * 1000;
  let calls = 0;
  const t0 = performance.now();
  while (performance.now() < deadline) {
    for (let i = 0; i < 1000; i++) await c.fn();
    calls += 1000;
  }
  console.log(JSON.stringify({ calls, ms: performance.now() - t0 }));
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

function parent(key: CaseKey, seconds: number): void {
  const dir = mkdtempSync(join(tmpdir(), 'edgetool-prof-'));
  try {
    const res = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=50', fileURLToPath(import.meta.url), '--child', key, String(seconds)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (res.status !== 0) throw new Error(`profiled child exited with ${res.status}`);
    const { calls, ms } = JSON.parse(res.stdout.trim().split('\n').pop() as string) as { calls: number; ms: number };
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error('no .cpuprofile written');
    const { self, total, samples } = fold(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile);
    const nsPerCall = (ms * 1e6) / calls;
    const perCall = (hits: number) => ns((hits / samples) * nsPerCall);
    const pct = (hits: number) => `${((hits / samples) * 100).toFixed(1)} %`;
    const top = (map: Map<string, number>, count: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, count);
    console.log(`${CASES[key].name}: ${calls.toLocaleString('en-US')} calls in ${(ms / 1000).toFixed(1)} s, ${ns(nsPerCall)} ns/call (profiler on)\n`);
    const rows = (map: Map<string, number>, count: number) => top(map, count).map(([name, hits]) => [name, pct(hits), perCall(hits)]);
    console.log(textTable({ title: 'self', columns: ['self time: function', 'share', 'ns/call'], rows: rows(self, 20) }));
    console.log();
    const stackOnly = new Map([...total].filter(([name]) => !name.startsWith('(root)') && !name.startsWith('(program)')));
    console.log(textTable({ title: 'total', columns: ['inclusive time: function', 'share', 'ns/call'], rows: rows(stackOnly, 20) }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    await child(CASES[args[1] as CaseKey], Number(args[2]));
  } else {
    const key = (args[0] ?? 'exec3') as CaseKey;
    if (!(key in CASES)) throw new Error(`unknown case "${key}"; use one of ${Object.keys(CASES).join(', ')}`);
    parent(key, Number(args[1] ?? 4));
  }
}
