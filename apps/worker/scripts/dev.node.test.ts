// scripts/dev.mjs (behind `npm start`) on Node, with a stand-in `wrangler` first on PATH that records how it was run:
// a port already taken is said at once, in npm start's words, before anything is written or migrated; a wrangler that
// cannot be found is named; and whatever signal ends the script (a closed terminal's SIGHUP too) ends wrangler dev.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** Longest any of these runs may take (a bound, not a measurement). */
const BOUND_MS = 15_000;

/** A stand-in for wrangler: `d1 …` succeeds, `dev …` records its pid and waits, and records the signal that ends it. */
const FAKE_WRANGLER = `#!/usr/bin/env node
const { appendFileSync } = require('node:fs');
const log = (line) => appendFileSync(process.env.FAKE_WRANGLER_LOG, line + '\\n');
log('args ' + process.argv.slice(2).join(' '));
if (process.argv[2] === 'dev') {
  log('dev ' + process.pid);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => { log('signal ' + signal); process.exit(0); });
  setInterval(() => {}, 1000);
}
`;

let dir = '';
let log = '';
let bin = '';
const children: ChildProcess[] = [];
const servers: Server[] = [];

beforeEach(() => {
  // A copy of the scripts in a folder of their own: .dev.vars and the rest land there, not in apps/worker.
  dir = mkdtempSync(join(tmpdir(), 'edgetool-dev-'));
  mkdirSync(join(dir, 'scripts'));
  for (const name of ['dev.mjs', 'ensure-dev-vars.mjs']) copyFileSync(join(import.meta.dirname, name), join(dir, 'scripts', name));
  bin = join(dir, 'bin');
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'node'));
  log = join(dir, 'wrangler.log');
});

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  for (const line of existsSync(log) ? readFileSync(log, 'utf8').split('\n') : []) {
    const pid = /^dev (\d+)$/.exec(line)?.[1];
    if (pid !== undefined) killQuietly(Number(pid));
  }
  rmSync(dir, { recursive: true, force: true });
});

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Puts the stand-in wrangler on PATH. */
function installFakeWrangler(): void {
  writeFileSync(join(bin, 'wrangler'), FAKE_WRANGLER);
  chmodSync(join(bin, 'wrangler'), 0o755);
}

/** A port on 127.0.0.1 that a server of the test holds. */
async function takenPort(): Promise<number> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** A port on 127.0.0.1 that was free a moment ago. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts the copied dev.mjs with `PORT` and only the test's bin folder on PATH. */
function startDev(port: string, args: string[] = []): { child: ChildProcess; output: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, [join(dir, 'scripts', 'dev.mjs'), ...args], {
    env: { PATH: bin, PORT: port, FAKE_WRANGLER_LOG: log, HOME: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exit };
}

const wranglerLog = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');

async function until(condition: () => boolean, what: string): Promise<void> {
  const end = Date.now() + BOUND_MS;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`${what} did not happen within ${BOUND_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('scripts/dev.mjs (npm start)', () => {
  it('a port already in use: says so with the PORT to use instead, before writing .dev.vars or migrating', { timeout: BOUND_MS }, async () => {
    installFakeWrangler();
    const port = await takenPort();
    for (const args of [[], ['--check-port']]) {
      const dev = startDev(String(port), args);
      expect(await dev.exit).toBe(1);
      expect(dev.output()).toContain(`127.0.0.1:${port} is already in use`);
      expect(dev.output()).toContain(`PORT=${port + 1} npm start`);
    }
    expect(wranglerLog()).toBe('');
    expect(existsSync(join(dir, '.dev.vars'))).toBe(false);
    const nonsense = startDev('http');
    expect(await nonsense.exit).toBe(1);
    expect(nonsense.output()).toContain('PORT must be a port number from 1 to 65535, not "http"');
  });

  it('--check-port on a free port succeeds and starts nothing', { timeout: BOUND_MS }, async () => {
    installFakeWrangler();
    const dev = startDev(String(await freePort()), ['--check-port']);
    expect(await dev.exit).toBe(0);
    expect(wranglerLog()).toBe('');
  });

  it('names a wrangler it cannot run instead of exiting without a word', { timeout: BOUND_MS }, async () => {
    const dev = startDev(String(await freePort()));
    expect(await dev.exit).toBe(1);
    expect(dev.output()).toContain('could not run wrangler');
  });

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`${signal} to the script ends wrangler dev too: no server is left behind on the port`, { timeout: BOUND_MS }, async () => {
      installFakeWrangler();
      const port = await freePort();
      const dev = startDev(String(port));
      await until(() => /^dev \d+$/m.test(wranglerLog()), 'wrangler dev starting');
      expect(wranglerLog()).toContain(`args dev --ip 127.0.0.1 --port ${port}`);
      const pid = Number(/^dev (\d+)$/m.exec(wranglerLog())?.[1]);
      dev.child.kill(signal);
      await dev.exit;
      await until(() => !isAlive(pid), `wrangler dev (pid ${pid}) ending`);
      expect(wranglerLog()).toContain(`signal ${signal}`);
    });
  }
});

