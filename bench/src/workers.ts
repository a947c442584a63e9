/**
 * The two Workers of the worker benches and how to build and run them with wrangler, offline:
 *   edgetool  apps/worker (the demo: edgetool chat agent, tickets, seals, D1 nonce store)
 *   plain     bench/plain-worker (the same routes, tools and model module on the plain AI SDK)
 * Each run gets a throwaway directory with a copy of the Worker's wrangler config (paths made absolute,
 * nothing else changed), its own `.dev.vars` (a random TICKET_SECRET and no API key, so the offline
 * model answers whatever the developer's apps/worker/.dev.vars holds) and its own D1 state
 * (`--persist-to`), so a bench never touches the demo's local database or a wrangler dev of a colleague.
 * Every wrangler process runs in its own process group and is killed with it (`stopAll`, also on exit).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH = fileURLToPath(new URL('..', import.meta.url));
export const ROOT = join(BENCH, '..');
const WRANGLER = join(BENCH, 'node_modules', 'wrangler', 'bin', 'wrangler.js');

export type WorkerName = 'edgetool' | 'plain';

export const WORKERS: Record<WorkerName, { readonly config: string; readonly label: string }> = {
  edgetool: { config: join(ROOT, 'apps', 'worker', 'wrangler.jsonc'), label: 'edgetool (apps/worker)' },
  plain: { config: join(BENCH, 'plain-worker', 'wrangler.jsonc'), label: 'plain AI SDK (bench/plain-worker)' },
};

/** Wrangler offline and quiet (DESIGN.md: Node >= 22 from PATH, no metrics, no cf fetch). */
export function wranglerEnv(): NodeJS.ProcessEnv {
  return { ...process.env, CI: '1', WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', NO_COLOR: '1', FORCE_COLOR: '0' };
}

/** JSONC → JSON: drops // and /* *\/ comments outside strings and trailing commas. */
export function stripJsonc(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2) + 1;
    } else {
      out += c;
    }
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

interface WranglerConfig {
  main: string;
  assets?: { directory: string };
  d1_databases?: { migrations_dir?: string }[];
  $schema?: string;
}

/** A copy of the Worker's config in `dir` with absolute paths, plus its own `.dev.vars`. Returns the config path. */
export function prepareConfig(name: WorkerName, dir: string): string {
  const source = WORKERS[name].config;
  const base = dirname(source);
  const config = JSON.parse(stripJsonc(readFileSync(source, 'utf8'))) as WranglerConfig;
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(base, p));
  config.main = abs(config.main);
  // The web app's build may not exist; the API routes are what is measured (`pnpm dev` falls back the same way).
  if (config.assets) config.assets.directory = join(ROOT, 'apps', 'worker', 'public');
  for (const db of config.d1_databases ?? []) if (db.migrations_dir) db.migrations_dir = abs(db.migrations_dir);
  delete config.$schema;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'wrangler.json');
  writeFileSync(file, JSON.stringify(config, null, 2));
  writeFileSync(join(dir, '.dev.vars'), `TICKET_SECRET=${randomBytes(32).toString('base64url')}\nOFFLINE_DELAY_MS=0\n`);
  return file;
}

/** A free loopback port (bound and released at once). */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? ok(address.port) : fail(new Error('no port'))));
    });
  });
}

/** Runs wrangler to completion (bounded), returns its output. Throws on a non-zero exit. */
export function wrangler(args: readonly string[], cwd: string, timeoutMs = 120_000): string {
  const res = spawnSync(process.execPath, [WRANGLER, ...args], { cwd, env: wranglerEnv(), encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL' });
  const output = `${res.stdout ?? ''}${res.stderr ?? ''}`;
  if (res.status !== 0) throw new Error(`wrangler ${args.join(' ')} failed (${res.status ?? res.signal}):\n${output.slice(-3000)}`);
  return output;
}

const running = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

function groupAlive(child: ChildProcess): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitGone(children: readonly ChildProcess[], ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && children.some(groupAlive)) await new Promise((r) => setTimeout(r, 100));
}

/** Kills every wrangler started here with its whole process group (workerd included) and waits until they are gone. */
export async function stopAll(): Promise<void> {
  const children = [...running];
  for (const child of children) killGroup(child, 'SIGTERM');
  await waitGone(children, 5_000);
  for (const child of children) killGroup(child, 'SIGKILL');
  await waitGone(children, 2_000);
  running.clear();
}

let hooked = false;
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  // Last resort: a crash or Ctrl-C must not leave workerd behind.
  process.on('exit', () => {
    for (const child of running) killGroup(child, 'SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const child of running) killGroup(child, 'SIGKILL');
      process.exit(130);
    });
  }
}

/** `wrangler dev` exited before the Worker answered; `reason` is the runtime's first error line. */
export class DevStartError extends Error {
  readonly reason: string;
  constructor(name: WorkerName, code: number, output: string) {
    const plain = output.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
    const reason = /Uncaught [^\n]*/.exec(plain)?.[0] ?? /ERROR\]? ?([^\n]*)/.exec(plain)?.[1] ?? `exit ${code}`;
    super(`wrangler dev (${name}) exited with ${code}: ${reason}\n${plain.slice(-3000)}`);
    this.name = 'DevStartError';
    this.reason = reason.trim();
  }
}

/** A Worker under `wrangler dev` on 127.0.0.1. */
export interface DevWorker {
  readonly name: WorkerName;
  readonly url: string;
  /** The Chrome DevTools protocol port of the Worker's isolate (for profiles: `bench:profile worker-edgetool`). */
  readonly inspector: number;
  readonly log: () => string;
}

/** Migrates a fresh local D1 in `dir`, starts `wrangler dev` and waits until `/api/health` answers. */
export async function startDev(name: WorkerName, dir: string, readyTimeoutMs = 90_000): Promise<DevWorker> {
  hookExit();
  const config = prepareConfig(name, dir);
  const persist = join(dir, 'state');
  wrangler(['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persist, '-c', config], dir);
  const port = await freePort();
  const inspector = await freePort();
  const args = [
    WRANGLER,
    'dev',
    '-c',
    config,
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(inspector),
    '--persist-to',
    persist,
    '--log-level',
    'warn',
    '--show-interactive-dev-session=false',
  ];
  const cpus = process.env.EDGETOOL_BENCH_WORKER_CPUS;
  const child = cpus
    ? spawn('taskset', ['-c', cpus, process.execPath, ...args], { cwd: dir, env: wranglerEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, args, { cwd: dir, env: wranglerEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let output = '';
  const append = (data: Buffer) => {
    output = (output + data.toString()).slice(-20_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      killGroup(child, 'SIGKILL');
      running.delete(child);
      throw new DevStartError(name, child.exitCode, output);
    }
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return { name, url, inspector, log: () => output };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`wrangler dev (${name}) did not answer /api/health within ${readyTimeoutMs} ms:\n${output.slice(-3000)}`);
}

/** A fresh scratch directory under the OS temp dir, removed by `cleanup`. */
export function scratch(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
