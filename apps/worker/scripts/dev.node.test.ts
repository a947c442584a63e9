// scripts/dev.mjs (behind `npm start`) on Node, with a stand-in `wrangler` first on PATH that records how it was run:
// a port already taken is said at once, in npm start's words, before anything is written or migrated; a wrangler that
// cannot be found is named; whatever signal ends the script (a closed terminal's SIGHUP too) ends wrangler dev; and the
// model and OTLP variables of the environment never reach wrangler's command line (`ps` shows it to every local user):
// they and .dev.vars go to a private --env-file that the installed wrangler reads back unchanged, removed at the end.
import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unstable_getVarsForDev as getVarsForDev } from 'wrangler';

/** Longest any of these runs may take (a bound, not a measurement). */
const BOUND_MS = 15_000;

/**
 * A stand-in for wrangler: `d1 …` succeeds, `dev …` records its pid, a copy of its --env-file and that file's and
 * folder's modes, then exits with FAKE_WRANGLER_EXIT if set, else waits and records the signal that ends it.
 */
const FAKE_WRANGLER = `#!/usr/bin/env node
const { appendFileSync, copyFileSync, statSync } = require('node:fs');
const { dirname } = require('node:path');
const log = (line) => appendFileSync(process.env.FAKE_WRANGLER_LOG, line + '\\n');
log('args ' + process.argv.slice(2).join(' '));
if (process.argv[2] === 'dev') {
  const envFile = process.argv[process.argv.indexOf('--env-file') + 1];
  if (process.argv.includes('--env-file')) {
    copyFileSync(envFile, process.env.FAKE_WRANGLER_LOG + '.env');
    const mode = (path) => (statSync(path).mode & 0o777).toString(8);
    log('modes ' + mode(envFile) + ' ' + mode(dirname(envFile)));
    log('include ' + process.env.CLOUDFLARE_INCLUDE_PROCESS_ENV + ' load ' + process.env.CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV);
  }
  if (process.env.FAKE_WRANGLER_EXIT) process.exit(Number(process.env.FAKE_WRANGLER_EXIT));
  // The handlers first: a signal sent as soon as the test reads the pid must find them.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => { log('signal ' + signal); process.exit(0); });
  log('dev ' + process.pid);
  setInterval(() => {}, 1000);
}
`;

let dir = '';
let log = '';
let bin = '';
let tmp = '';
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
  // The script's TMPDIR: where its private --env-file folder goes, and must be gone from once it has exited.
  tmp = join(dir, 'tmp');
  mkdirSync(tmp);
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

/** The pid of a process that has ended (a child that ran and exited). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid as number;
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

/** Starts the copied dev.mjs with `PORT`, only the test's bin folder on PATH and the test's tmp folder as TMPDIR. */
function startDev(
  port: string,
  args: string[] = [],
  extraEnv: Record<string, string> = {},
): { child: ChildProcess; output: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, [join(dir, 'scripts', 'dev.mjs'), ...args], {
    env: { PATH: bin, PORT: port, FAKE_WRANGLER_LOG: log, HOME: dir, TMPDIR: tmp, ...extraEnv },
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

/** The `wrangler dev` command line the stand-in recorded. */
const devArgs = () => /^args (dev .*)$/m.exec(wranglerLog())?.[1] ?? '';

/** The variables the installed wrangler gives the Worker (config vars aside): from `envFile`, else from dir's .dev.vars. */
function workerVars(envFile?: string): Record<string, string> {
  const vars = getVarsForDev(join(dir, 'wrangler.jsonc'), envFile === undefined ? undefined : [envFile], {}, undefined, true);
  return Object.fromEntries(Object.entries(vars).map(([name, binding]) => [name, String(binding.value)]));
}

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

  it('names a wrangler it cannot run instead of exiting without a word, and leaves no --env-file', { timeout: BOUND_MS }, async () => {
    const dev = startDev(String(await freePort()), [], { OPENAI_API_KEY: 'sk-never-used' });
    expect(await dev.exit).toBe(1);
    expect(dev.output()).toContain('could not run wrangler');
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('model and OTLP secrets never reach wrangler dev\'s command line: a private --env-file carries them and .dev.vars, unchanged', { timeout: BOUND_MS }, async () => {
    installFakeWrangler();
    // .dev.vars in every form wrangler reads (no $ expansion there): quotes of three kinds, escapes, comments, CRLF.
    const ticket = `ticket-$HOME-\${PATH}-\\$x`;
    const devVars = [
      `TICKET_SECRET=${ticket}`,
      'OPENAI_API_KEY=sk-from-dev-vars',
      'OPENAI_MODEL="gpt \\"quoted\\" # not a comment" # a comment',
      'MULTI="line 1\\nline 2\\rend"',
      "SINGLE='it has $HOME, # and \"quotes\"'",
      'BACKTICK=`a \'b\' "c" $d`',
      'PLAIN=  spaced value   # comment',
      'export EXPORTED=yes',
      'SPREAD="first',
      'second"',
      'EMPTY=',
      'WINDOWS=crlf\r',
      '',
    ].join('\n');
    writeFileSync(join(dir, '.dev.vars'), devVars);
    const secrets = {
      OPENAI_API_KEY: ` sk-$HOME\${PATH}'"#x\\$y\\\nsecond line `,
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer $TOKEN,x-key=v#1',
      OPENAI_BASE_URL: "http://127.0.0.1:1/v1?q='$1'",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: "x-a='1' # x-b=`2` $x",
      OTEL_SERVICE_NAME: 'x-a="1",x-b=`2`,x-c=\\',
    };
    const dev = startDev(String(await freePort()), [], secrets);
    await until(() => /^dev \d+$/m.test(wranglerLog()), 'wrangler dev starting');
    expect(dev.output()).toContain('passing OPENAI_API_KEY, OPENAI_BASE_URL, OTEL_EXPORTER_OTLP_HEADERS');

    const args = devArgs();
    expect(args).not.toContain('--var');
    for (const piece of ['sk-', 'Bearer', 'q=', 'x-a', 'ticket-']) expect(args).not.toContain(piece);
    const envFile = /--env-file (\S+)/.exec(args)?.[1] ?? '';
    expect(envFile.startsWith(`${tmp}/edgetool-dev-vars-`)).toBe(true);
    expect(wranglerLog()).toContain('modes 600 700');
    expect(wranglerLog()).toContain('include false load true');
    // Every $ escaped: wrangler expands $NAME and ${NAME} in an --env-file, and \$ reads back as $.
    expect(readFileSync(`${log}.env`, 'utf8')).not.toMatch(/(?<!\\)\$/);

    // The installed wrangler reads the file back as .dev.vars read directly, with the environment's values over it.
    const before = workerVars();
    expect(before.TICKET_SECRET).toBe(ticket);
    expect(Object.keys(before)).toContain('BACKTICK');
    const trimmed = Object.fromEntries(Object.entries(secrets).map(([name, value]) => [name, value.trim()]));
    expect(workerVars(`${log}.env`)).toEqual({ ...before, ...trimmed });

    dev.child.kill('SIGINT');
    expect(await dev.exit).toBe(0);
    expect(existsSync(envFile)).toBe(false);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('without model or OTLP variables in the environment wrangler dev reads .dev.vars itself, as before', { timeout: BOUND_MS }, async () => {
    installFakeWrangler();
    const port = await freePort();
    const dev = startDev(String(port), [], { OPENAI_API_KEY: '  ' });
    await until(() => /^dev \d+$/m.test(wranglerLog()), 'wrangler dev starting');
    expect(devArgs()).toBe(`dev --ip 127.0.0.1 --port ${port} --assets public`);
    expect(readdirSync(tmp)).toEqual([]);
    dev.child.kill('SIGTERM');
    await dev.exit;
  });

  it('wrangler dev ending on its own (a crash) ends the script with its code and removes the --env-file', { timeout: BOUND_MS }, async () => {
    installFakeWrangler();
    const dev = startDev(String(await freePort()), [], { OPENAI_API_KEY: 'sk-crash', FAKE_WRANGLER_EXIT: '3' });
    expect(await dev.exit).toBe(3);
    expect(devArgs()).toContain('--env-file');
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('a value no env-file quoting holds is refused by name, without its text, before wrangler dev starts', { timeout: BOUND_MS }, async () => {
    installFakeWrangler();
    const dev = startDev(String(await freePort()), [], { OPENAI_API_KEY: 'sk-\'all"three`#quotes' });
    expect(await dev.exit).toBe(1);
    expect(dev.output()).toContain("OPENAI_API_KEY's value cannot be passed to wrangler dev unchanged");
    expect(dev.output()).not.toContain('three');
    expect(devArgs()).toBe('');
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('a start removes the --env-file folders of starts that were killed (SIGKILL), and nothing else', { timeout: BOUND_MS }, async () => {
    installFakeWrangler();
    const killed = startDev(String(await freePort()), [], { OPENAI_API_KEY: 'sk-killed' });
    await until(() => /^dev \d+$/m.test(wranglerLog()), 'wrangler dev starting');
    const left = /--env-file (\S+)/.exec(devArgs())?.[1] ?? '';
    expect(left).toMatch(new RegExp(`^${tmp}/edgetool-dev-vars-${killed.child.pid}-[A-Za-z0-9]{6}/vars\\.env$`));
    killed.child.kill('SIGKILL');
    await killed.exit;
    expect(existsSync(left)).toBe(true); // no 'exit' handler runs on SIGKILL
    // Its wrangler dev lives on (nothing passed the SIGKILL on); the log is emptied below, so it is killed here, or it
    // was left running after every test run.
    killQuietly(Number(/^dev (\d+)$/m.exec(wranglerLog())?.[1]));

    // Beside it, folders that look alike but are not a killed start's: each must be left as it is.
    const gone = await deadPid();
    const folder = (name: string, mode = 0o700, files: string[] = ['vars.env']) => {
      const path = join(tmp, name);
      mkdirSync(path, { mode });
      chmodSync(path, mode);
      for (const file of files) writeFileSync(join(path, file), 'X=1\n', { mode: 0o600 });
      return path;
    };
    const kept = [
      folder(`edgetool-dev-vars-${process.pid}-aaaaaa`), // its script (this test's process) still runs
      folder('edgetool-dev-vars-bbbbbb'), // the old name, without a pid: whose it was cannot be told
      folder(`edgetool-dev-vars-${gone}-cccccc`, 0o755), // not private: not one this script made
      folder(`edgetool-dev-vars-${gone}-dddddd`, 0o700, ['vars.env', 'notes.txt']), // something else inside
      folder(`edgetool-dev-vars-${gone}-eeeeee-x`), // not the name's exact form
      folder(`other-${gone}-ffffff`),
    ];
    // A link of the right name to a private folder: neither the link nor what it points to is removed.
    const target = folder('a-private-folder');
    kept.push(target);
    symlinkSync(target, join(tmp, `edgetool-dev-vars-${gone}-hhhhhh`));
    kept.push(join(tmp, `edgetool-dev-vars-${gone}-hhhhhh`));
    // Removed: the killed start's, and one of the same form whose vars.env has gone already.
    const swept = [dirname(left), folder(`edgetool-dev-vars-${gone}-iiiiii`), folder(`edgetool-dev-vars-${gone}-jjjjjj`, 0o700, [])];

    writeFileSync(log, '');
    const next = startDev(String(await freePort()), [], { OPENAI_API_KEY: 'sk-next' });
    await until(() => /^dev \d+$/m.test(wranglerLog()), 'wrangler dev starting again');
    for (const path of swept) expect(existsSync(path), path).toBe(false);
    for (const path of kept) expect(existsSync(path), path).toBe(true);
    for (const path of kept) expect(readdirSync(path), path).toContain('vars.env');
    expect(readdirSync(join(tmp, `edgetool-dev-vars-${gone}-dddddd`)).sort()).toEqual(['notes.txt', 'vars.env']);
    expect(next.output()).toContain(`removed ${dirname(left)}, the env file of a start that was killed (pid ${killed.child.pid})`);
    // The new start's own folder is there while it runs, and removed when it ends.
    const own = dirname(/--env-file (\S+)/.exec(devArgs())?.[1] ?? '');
    expect(existsSync(own)).toBe(true);
    next.child.kill('SIGTERM');
    await next.exit;
    expect(existsSync(own)).toBe(false);
  });

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`${signal} to the script ends wrangler dev too: no server is left behind on the port`, { timeout: BOUND_MS }, async () => {
      installFakeWrangler();
      const port = await freePort();
      const dev = startDev(String(port), [], { OPENAI_API_KEY: 'sk-signal' });
      await until(() => /^dev \d+$/m.test(wranglerLog()), 'wrangler dev starting');
      expect(wranglerLog()).toContain(`args dev --ip 127.0.0.1 --port ${port}`);
      expect(devArgs()).toContain('--env-file');
      const pid = Number(/^dev (\d+)$/m.exec(wranglerLog())?.[1]);
      dev.child.kill(signal);
      await dev.exit;
      await until(() => !isAlive(pid), `wrangler dev (pid ${pid}) ending`);
      // SIGHUP reaches wrangler as SIGTERM: the real one's bin script passes on only SIGINT and SIGTERM.
      expect(wranglerLog()).toContain(`signal ${signal === 'SIGHUP' ? 'SIGTERM' : signal}`);
      expect(readdirSync(tmp)).toEqual([]);
    });
  }
});

