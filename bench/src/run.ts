/**
 * Runs every `src/*.bench.ts` (each in a fresh Node process, so one bench's JIT and heap state
 * never leaks into the next), prints their tables and writes `bench/RESULTS.md`.
 *   pnpm --filter @edgetool/bench bench              all benches, writes RESULTS.md
 *   pnpm --filter @edgetool/bench bench executor     only matching benches, prints only
 *   pnpm --filter @edgetool/bench bench --quick      shorter runs, prints only
 * A missed target is reported, never turned into a failing exit code; a crashed bench is.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, release, tmpdir, totalmem } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type BenchReport, markdownTable, type Table, textTable } from './report.ts';

const SRC = fileURLToPath(new URL('.', import.meta.url));
const BENCH = join(SRC, '..');
const ROOT = join(BENCH, '..');
const CORE = join(ROOT, 'packages', 'core');

/** Child mode: run one bench file and write its report as JSON. */
async function child(file: string, out: string): Promise<void> {
  const mod = (await import(pathToFileURL(join(SRC, file)).href)) as { run?: () => Promise<BenchReport> };
  if (typeof mod.run !== 'function') throw new Error(`${file} does not export run()`);
  writeFileSync(out, JSON.stringify(await mod.run()));
}

function version(dir: string, name: string): string {
  const file = join(dir, 'node_modules', name, 'package.json');
  if (!existsSync(file)) return 'not installed';
  return (JSON.parse(readFileSync(realpathSync(file), 'utf8')) as { version: string }).version;
}

function machine(): Table {
  const cpu = cpus();
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  return {
    title: 'Machine',
    columns: ['', ''],
    rows: [
      ['date', new Date().toISOString()],
      ['cpu', `${cpu[0]?.model ?? 'unknown'} × ${cpu.length} cores`],
      ['memory', `${Math.round(totalmem() / 2 ** 30)} GiB`],
      ['os', `${process.platform} ${process.arch}, kernel ${release()}`],
      ['node', `${process.version} (V8 ${process.versions.v8})`],
      ['commit', commit.status === 0 ? `HEAD ${commit.stdout.trim()} (uncommitted changes in the working tree are included)` : 'unknown'],
    ],
  };
}

function packages(): Table {
  const core = JSON.parse(readFileSync(join(CORE, 'package.json'), 'utf8')) as { version: string };
  return {
    title: 'Packages',
    columns: ['package', 'version'],
    rows: [
      ['@edgetool/core', `${core.version} (workspace source)`],
      ['@edgetool/ai', `${(JSON.parse(readFileSync(join(ROOT, 'packages', 'ai', 'package.json'), 'utf8')) as { version: string }).version} (workspace source)`],
      ['valibot', version(CORE, 'valibot')],
      ['@valibot/to-json-schema', version(CORE, '@valibot/to-json-schema')],
      ['@cfworker/json-schema', version(CORE, '@cfworker/json-schema')],
      ['esbuild', version(BENCH, 'esbuild')],
      ['ai', version(BENCH, 'ai')],
      ['zod', version(BENCH, 'zod')],
      ['wrangler', version(BENCH, 'wrangler')],
      ['workerd', version(join(realpathSync(join(BENCH, 'node_modules', 'wrangler')), '..', '..'), 'workerd')],
      ['autocannon', version(BENCH, 'autocannon')],
    ],
  };
}

function targetsTable(reports: readonly BenchReport[]): Table {
  return {
    title: 'Targets (information only: a miss does not fail the run)',
    columns: ['target', 'measured', 'wanted', 'result'],
    rows: reports.flatMap((r) => r.targets.map((t) => [t.name, t.measured, t.target, t.pass ? 'pass' : 'MISS'])),
  };
}

function printReport(report: BenchReport): void {
  console.log(`\n━━ ${report.title} ━━`);
  for (const table of report.tables) console.log(`\n${table.title}\n${textTable(table)}`);
  for (const note of report.notes) console.log(`\n${note.replaceAll('`', '')}`);
}

function markdown(reports: readonly BenchReport[], seconds: number): string {
  const section = (table: Table) => `**${table.title}**\n\n${markdownTable(table)}\n`;
  const lines = [
    '# Benchmark results',
    '',
    '<!-- Written by bench/src/run.ts: `npm run bench` at the root, or `pnpm --filter @edgetool/bench bench`. Do not edit by hand. -->',
    '',
    'Every figure is compared with a baseline measured in the same run (same process for timings). ' +
      'Absolute nanoseconds depend on the machine and on its neighbours; read the ratios and paired differences.',
    `The whole run took ${seconds.toFixed(1)} s.`,
    '',
    `## ${machine().title}`,
    '',
    markdownTable(machine()),
    '',
    `## ${packages().title}`,
    '',
    markdownTable(packages()),
    '',
    '## Targets',
    '',
    'Information only: a miss does not fail the run.',
    '',
    markdownTable(targetsTable(reports)),
    '',
  ];
  for (const report of reports) {
    lines.push(`## ${report.title}`, '', report.method, '');
    for (const table of report.tables) lines.push(section(table));
    for (const note of report.notes) lines.push(note, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Node flags a bench asks for in a first-line comment `// node-flags: --expose-gc` (its child process gets them). */
function nodeFlags(file: string): string[] {
  const first = readFileSync(join(SRC, file), 'utf8').split('\n', 1)[0] ?? '';
  const match = /^\/\/ node-flags: (.*)$/.exec(first);
  return match ? (match[1] as string).trim().split(/\s+/) : [];
}

function main(filters: readonly string[], quick: boolean): number {
  const started = performance.now();
  const files = readdirSync(SRC)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => filters.length === 0 || filters.some((q) => f.includes(q)))
    .sort();
  if (files.length === 0) {
    console.error(`no bench matches ${filters.join(', ')}`);
    return 1;
  }
  const dir = mkdtempSync(join(tmpdir(), 'edgetool-bench-'));
  const reports: BenchReport[] = [];
  let failed = 0;
  try {
    for (const file of files) {
      const out = join(dir, `${basename(file, '.ts')}.json`);
      console.log(`running ${file} …`);
      const res = spawnSync(process.execPath, [...nodeFlags(file), fileURLToPath(import.meta.url), '--child', file, out], {
        stdio: 'inherit',
        env: { ...process.env, EDGETOOL_BENCH_QUICK: quick ? '1' : '0' },
      });
      if (res.status !== 0 || !existsSync(out)) {
        console.error(`${file} failed (exit ${res.status ?? res.signal})`);
        failed++;
        continue;
      }
      const report = JSON.parse(readFileSync(out, 'utf8')) as BenchReport;
      reports.push(report);
      printReport(report);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const seconds = (performance.now() - started) / 1000;
  const targets = targetsTable(reports);
  console.log(`\n━━ ${targets.title} ━━\n${textTable(targets)}`);
  if (filters.length === 0 && failed === 0 && !quick) {
    writeFileSync(join(BENCH, 'RESULTS.md'), markdown(reports, seconds));
    console.log(`\nwrote bench/RESULTS.md (${seconds.toFixed(1)} s)`);
  } else {
    const why = failed ? `${failed} bench(es) failed` : quick ? '--quick' : 'a filter was given';
    console.log(`\nbench/RESULTS.md not written (${why})`);
  }
  return failed ? 1 : 0;
}

const args = process.argv.slice(2);
if (args[0] === '--child') await child(args[1] as string, args[2] as string);
else
  process.exitCode = main(
    args.filter((a) => a !== '--quick'),
    args.includes('--quick'),
  );
