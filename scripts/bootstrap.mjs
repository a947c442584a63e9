#!/usr/bin/env node
// Dependency-free set-up behind `npm start`, `npm test`, `npm run bench` and `npm run pack`.
// Runs on the machine's own Node (20 is enough) and, idempotently:
//   1. provides Node >= 22 from the npm registry under .tools/node when the system Node is older,
//   2. installs pnpm under .tools/pnpm,
//   3. runs `pnpm install --frozen-lockfile` when the lockfile or a manifest changed,
//   4. (tests only) installs Debian's chromium with apt-get when it is missing,
// then runs the requested job with .tools/bin first on PATH. After `test` it prints one summary:
// the turbo tasks that failed and the vitest totals of every package (via a JSON reporter that
// each package's vitest.config.ts writes to $EDGETOOL_TEST_REPORT_DIR), ending in a line
// `tests: N passed, N failed, N skipped`. The exit code is the job's (non-zero on any failure).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TOOLS = join(ROOT, '.tools');
const BIN = join(TOOLS, 'bin');
const NODE_VERSION = '24.21.0';
const MIN_NODE_MAJOR = 22;
const PNPM_VERSION = '12.21.0';
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const REPORT_DIR = join(ROOT, '.turbo', 'test-reports');
const INSTALL_LOCK = '/tmp/edgetool-pnpm.lock';
const RUNS_DIR = join(ROOT, '.turbo', 'runs');

const JOBS = {
  start: { script: 'ci:start', chromium: false },
  test: { script: 'ci:test', chromium: true },
  bench: { script: 'ci:bench', chromium: false },
  pack: { script: 'ci:pack', chromium: false },
  setup: { script: null, chromium: true },
};

const log = (msg) => console.log(`[edgetool] ${msg}`);

/** Stops with a clear message instead of a stack trace. */
function fail(msg, hint) {
  console.error(`\n[edgetool] setup failed: ${msg}`);
  if (hint) console.error(`[edgetool] ${hint}`);
  process.exit(1);
}

function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, ...opts });
  if (res.error) return { ok: false, error: res.error.message, status: 1 };
  return { ok: res.status === 0, status: res.status ?? 1, signal: res.signal };
}

function capture(cmd, args, env) {
  const res = spawnSync(cmd, args, { encoding: 'utf8', env });
  return res.status === 0 ? res.stdout.trim() : null;
}

/** Links .tools/bin/<name>; a target inside .tools is linked relatively, so a .tools shared by symlink with another
 *  clone (or moved with its checkout) never points into a folder that may be gone. */
function link(target, name) {
  const path = join(BIN, name);
  rmSync(path, { force: true });
  symlinkSync(target.startsWith(TOOLS) ? relative(BIN, target) : target, path);
}

function ensureNode() {
  mkdirSync(BIN, { recursive: true });
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= MIN_NODE_MAJOR) {
    link(process.execPath, 'node');
    return;
  }
  const nodeBin = join(TOOLS, 'node', 'node_modules', 'node', 'bin', 'node');
  if (capture(nodeBin, ['--version']) !== `v${NODE_VERSION}`) {
    log(`system Node ${process.version} is older than ${MIN_NODE_MAJOR}; installing node@${NODE_VERSION} from the npm registry into .tools/node`);
    const res = run('npm', ['install', '--prefix', join(TOOLS, 'node'), '--no-audit', '--no-fund', '--loglevel=error', `node@${NODE_VERSION}`]);
    if (!res.ok || capture(nodeBin, ['--version']) !== `v${NODE_VERSION}`) {
      fail(`could not install node@${NODE_VERSION} from the npm registry.`, 'Install Node >= 22 yourself (it will then be used as is) or check access to the npm registry.');
    }
  }
  link(nodeBin, 'node');
}

function ensurePnpm(env) {
  const pnpmBin = join(TOOLS, 'pnpm', 'node_modules', '.bin', 'pnpm');
  if (capture(pnpmBin, ['--version'], env) !== PNPM_VERSION) {
    log(`installing pnpm@${PNPM_VERSION} into .tools/pnpm`);
    const res = run('npm', ['install', '--prefix', join(TOOLS, 'pnpm'), '--no-audit', '--no-fund', '--loglevel=error', `pnpm@${PNPM_VERSION}`]);
    if (!res.ok || capture(pnpmBin, ['--version'], env) !== PNPM_VERSION) {
      fail(`could not install pnpm@${PNPM_VERSION} from the npm registry.`, 'Check access to the npm registry.');
    }
  }
  link(pnpmBin, 'pnpm');
}

/** Hash of everything that decides the installed tree, so a second run skips the install. */
function installFingerprint() {
  const hash = createHash('sha256');
  const add = (file) => existsSync(file) && hash.update(file).update(readFileSync(file));
  add(join(ROOT, 'pnpm-lock.yaml'));
  add(join(ROOT, 'pnpm-workspace.yaml'));
  add(join(ROOT, 'package.json'));
  for (const group of ['packages', 'apps', 'testing', 'examples']) {
    const dir = join(ROOT, group);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) add(join(dir, name, 'package.json'));
  }
  for (const name of ['bench', 'e2e']) add(join(ROOT, name, 'package.json'));
  hash.update(NODE_VERSION + PNPM_VERSION);
  return hash.digest('hex');
}

function ensureDeps(env) {
  const stamp = join(ROOT, 'node_modules', '.edgetool-install');
  const want = installFingerprint();
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  log('installing workspace packages (pnpm install --frozen-lockfile)');
  // No prompt ever (CI has no stdin): purge a foreign node_modules instead of asking.
  const install = [join(BIN, 'pnpm'), 'install', '--frozen-lockfile', '--config.confirm-modules-purge=false'];
  // Several checkouts share this machine's pnpm store: take the same lock as a hand-run install, when flock exists.
  const flock = capture('sh', ['-c', 'command -v flock']);
  const res = flock ? run(flock, [INSTALL_LOCK, ...install], { env }) : run(install[0], install.slice(1), { env });
  if (!res.ok) fail('pnpm install failed (see the output above).', 'If you changed a package.json, run `.tools/bin/pnpm install` to update pnpm-lock.yaml.');
  writeFileSync(stamp, installFingerprint());
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  log(`${CHROMIUM} is missing; installing Debian's chromium with apt-get (Playwright cannot download browsers here)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const asRoot = !process.getuid || process.getuid() === 0;
  const aptGet = (args) => (asRoot ? run('apt-get', args, { env }) : run('sudo', ['apt-get', ...args], { env }));
  const ok = aptGet(['update', '-qq']).ok && aptGet(['install', '-y', '-qq', '--no-install-recommends', 'chromium']).ok;
  if (!ok || !existsSync(CHROMIUM)) {
    fail(`could not install chromium at ${CHROMIUM}.`, 'Install it with `apt-get install chromium`, or set CHROMIUM_PATH to an existing Chromium binary.');
  }
}

function main() {
  const job = process.argv[2] ?? 'setup';
  const spec = JOBS[job];
  if (!spec) fail(`unknown job "${job}"`, `Use one of: ${Object.keys(JOBS).join(', ')}.`);
  ensureNode();
  const env = {
    ...process.env,
    PATH: `${BIN}:${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
    CHROMIUM_PATH: CHROMIUM,
    // Offline-friendly defaults for the tools we drive.
    WRANGLER_SEND_METRICS: 'false',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    TURBO_TELEMETRY_DISABLED: '1',
    DO_NOT_TRACK: '1',
  };
  ensurePnpm(env);
  ensureDeps(env);
  if (spec.chromium) ensureChromium();
  if (!spec.script) return log('set-up done');
  log(`running ${job} with Node ${capture(join(BIN, 'node'), ['--version'])}`);
  const extra = process.argv.slice(3);
  if (job === 'test') {
    rmSync(REPORT_DIR, { recursive: true, force: true });
    rmSync(RUNS_DIR, { recursive: true, force: true });
    mkdirSync(REPORT_DIR, { recursive: true });
    Object.assign(env, { EDGETOOL_TEST_REPORT_DIR: REPORT_DIR, TURBO_RUN_SUMMARY: 'true' });
  }
  const started = Date.now();
  const res = run(join(BIN, 'pnpm'), ['run', spec.script, ...extra], { env });
  if (res.signal === 'SIGINT' || res.signal === 'SIGTERM') process.exit(130);
  if (job === 'test') process.exit(summarizeTests(res.status, Date.now() - started));
  process.exit(res.status);
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** One line per failed test of a vitest or Playwright JSON report: package, file, title, the error's first line. */
function failedTests(report, pkg) {
  const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
  const firstLine = (text) => String(text ?? '').replace(ansi, '').trim().split('\n')[0].slice(0, 200);
  const lines = [];
  if (Array.isArray(report.testResults)) {
    for (const file of report.testResults) {
      const name = relative(ROOT, file.name ?? '');
      const failedCases = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
      for (const a of failedCases) lines.push(`${pkg} ${name} › ${a.fullName ?? a.title}: ${firstLine(a.failureMessages?.[0])}`);
      if (!failedCases.length && file.status === 'failed') lines.push(`${pkg} ${name}: ${firstLine(file.message)}`);
    }
  }
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== 'unexpected') continue;
        const last = t.results?.at(-1);
        lines.push(`${pkg} ${suite.file ?? file} › ${spec.title}: ${firstLine(last?.error?.message ?? last?.status)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, suite.file ?? file);
  };
  for (const suite of report.suites ?? []) walk(suite, suite.file);
  for (const e of report.errors ?? []) lines.push(`${pkg}: ${firstLine(e.message)}`);
  return lines;
}

/** Prints the closing summary of `npm test` and returns the exit code. */
function summarizeTests(status, ms) {
  const runs = existsSync(RUNS_DIR) ? readdirSync(RUNS_DIR).filter((f) => f.endsWith('.json')) : [];
  const tasks = runs.flatMap((f) => readJson(join(RUNS_DIR, f))?.tasks ?? []);
  const failedTasks = tasks.filter((t) => t.execution?.exitCode !== 0 && t.execution?.exitCode !== undefined).map((t) => t.taskId);
  const reports = existsSync(REPORT_DIR) ? readdirSync(REPORT_DIR).filter((f) => f.endsWith('.json')).sort() : [];
  const total = { passed: 0, failed: 0, skipped: 0 };
  const failures = [];
  console.log('\n[edgetool] ──────────── summary ────────────');
  for (const file of reports) {
    const r = readJson(join(REPORT_DIR, file));
    if (!r) continue;
    // Playwright (e2e) reports `stats`; vitest reports jest-style totals.
    const pw = r.stats && typeof r.stats.expected === 'number' ? r.stats : undefined;
    const passed = pw ? pw.expected + (pw.flaky ?? 0) : (r.numPassedTests ?? 0);
    // A file that fails to load counts as one failure even though none of its tests ran.
    const failed = pw ? pw.unexpected + ((r.errors?.length ?? 0) > 0 && pw.unexpected === 0 ? 1 : 0) : r.numFailedTests || (r.success === false ? Math.max(r.numFailedTestSuites ?? 0, 1) : 0);
    const skipped = pw ? (pw.skipped ?? 0) : (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    total.passed += passed;
    total.failed += failed;
    total.skipped += skipped;
    console.log(`[edgetool] ${file.replace(/\.json$/, '').padEnd(24)} ${passed} passed, ${failed} failed, ${skipped} skipped`);
    if (failed > 0) failures.push(...failedTests(r, file.replace(/\.json$/, '')));
  }
  // The names come last so that a log cut to its tail still says which tests failed and why.
  for (const line of failures.slice(0, 20)) console.log(`[edgetool] ✗ ${line}`);
  if (failures.length > 20) console.log(`[edgetool] ✗ … and ${failures.length - 20} more`);
  const reported = new Set(reports.map((f) => f.replace(/\.json$/, '')));
  for (const t of tasks) {
    if (t.task !== 'test' || reported.has(basename(t.directory ?? ''))) continue;
    console.log(`[edgetool] ${t.taskId} exited ${t.execution?.exitCode ?? '?'} without a vitest JSON report (every test task must write a JSON report: see docs/testing.md)`);
  }
  if (tasks.length) console.log(`[edgetool] turbo tasks: ${tasks.length - failedTasks.length}/${tasks.length} succeeded`);
  for (const id of failedTasks) console.log(`[edgetool] FAILED task ${id}`);
  let code = status;
  if (code === 0 && total.passed + total.failed === 0) {
    console.log('[edgetool] FAILED: no test ran (is a package test script or its vitest reporter misconfigured?)');
    code = 1;
  }
  const seconds = (ms / 1000).toFixed(1);
  console.log(`[edgetool] test ${code === 0 ? 'PASSED' : `FAILED (exit ${code})`} in ${seconds}s`);
  console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  return code;
}

main();
