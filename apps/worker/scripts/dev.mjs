#!/usr/bin/env node
// `pnpm dev` / `npm start`: a TICKET_SECRET in .dev.vars, the local D1 migrated and seeded, then
// `wrangler dev` on 127.0.0.1:$PORT (default 8787). Model settings in the environment (OPENAI_API_KEY,
// OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API, OFFLINE_DELAY_MS, TURN_TOKEN_BUDGET) and OTLP export (OTEL_EXPORTER_OTLP_ENDPOINT,
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_TRACES_HEADERS, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_(TRACES_)TIMEOUT,
// OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL, OTEL_SDK_DISABLED, OTEL_TRACES_EXPORTER) are passed on as Worker vars, so
// `OPENAI_API_KEY=sk-... npm start` works as well as .dev.vars. They never go on wrangler's command line (any local
// user can read that with `ps`): .dev.vars and those variables go to a file only this user can read, in a private
// temporary folder, that wrangler dev reads with --env-file and that is removed when this script ends (or, when it was
// killed and could not, by the next start).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const FORWARDED = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'OPENAI_MODEL',
  'OPENAI_API',
  'OFFLINE_DELAY_MS',
  'TURN_TOKEN_BUDGET',
  'CLIENT_ADDRESS_HEADER',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  'OTEL_SERVICE_NAME',
  'OTEL_RESOURCE_ATTRIBUTES',
  'OTEL_EXPORTER_OTLP_TIMEOUT',
  'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  'OTEL_SDK_DISABLED',
  'OTEL_TRACES_EXPORTER',
];
const cwd = new URL('..', import.meta.url);
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };

/** Stops with a message that says what to do, not a stack trace or a silent exit code. */
function fail(message) {
  console.error(`[worker] ${message}`);
  process.exit(1);
}

// The parser of dotenv 16.3.1, which wrangler 4 bundles for .dev.vars and --env-file (`(?:^|^)` and `(?:$|$)` there are
// `^` and `$`): .dev.vars's values reach the Worker as wrangler itself would read them. dev.node.test.ts checks it
// against the installed wrangler.
const DOTENV_LINE = /^\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?$/gm;

/** The variables of an env file, read as wrangler reads .dev.vars (no `$` expansion). */
function parseDotenv(text) {
  const vars = new Map();
  for (const match of text.replace(/\r\n?/g, '\n').matchAll(DOTENV_LINE)) {
    const raw = (match[2] ?? '').trim();
    let value = raw.replace(/^(['"`])([\s\S]*)\1$/gm, '$2');
    if (raw.startsWith('"')) value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r');
    vars.set(match[1], value);
  }
  return vars;
}

/**
 * `name=value` as a line that wrangler's --env-file reading (dotenv, then dotenv-expand) turns back into `value`
 * exactly: every `$` escaped (`\$` reads back as `$`, never as another variable), then the first quoting that holds the
 * rest (quotes, `#`, newlines). Undefined for the rare value no quoting holds.
 */
function envLine(name, value) {
  const text = value.replaceAll('$', '\\$');
  const safe = (quote) => !text.includes(quote) && !text.includes('\r') && !text.endsWith('\\');
  if (text && text === text.trim() && !/[#\r\n]/.test(text) && !/^['"`]/.test(text)) return `${name}=${text}`;
  for (const quote of ["'", '`']) if (safe(quote)) return `${name}=${quote}${text}${quote}`;
  // In double quotes \n and \r are escapes (the only ones), so a value may hold a carriage return but not the text \n.
  if (!text.includes('"') && !/\\[nr]/.test(text) && !text.endsWith('\\')) return `${name}="${text.replaceAll('\r', '\\r')}"`;
  return undefined;
}

/**
 * The private folders of env files carry the pid of the script that made them: `edgetool-dev-vars-<pid>-<random>`, so a
 * later start can tell one whose script was killed (SIGKILL runs no 'exit' handler) from one still in use.
 */
const VARS_FOLDER = /^edgetool-dev-vars-(\d+)-[A-Za-z0-9]{6}$/;

/** Whether process `pid` is still running (a process of another user counts: it cannot be signalled, but it is there). */
function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Removes the env-file folders that a killed start left behind: only one of this script's name, a real folder (not a
 * link) of this user with mode 0700, whose script is no longer running, holding nothing but its vars.env. Anything
 * else is left as it is, and so is anything that cannot be removed. Not on Windows (no uid, no modes to check).
 */
function sweepVarsFolders() {
  if (typeof process.getuid !== 'function') return;
  let names = [];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(VARS_FOLDER.exec(name)?.[1]);
    if (!pid || pid === process.pid || isRunning(pid)) continue;
    const folder = join(tmpdir(), name);
    try {
      const stat = lstatSync(folder);
      if (!stat.isDirectory() || stat.uid !== process.getuid() || (stat.mode & 0o777) !== 0o700) continue;
      const inside = readdirSync(folder);
      if (inside.some((entry) => entry !== 'vars.env')) continue;
      if (inside.length > 0) {
        const file = join(folder, 'vars.env');
        const fileStat = lstatSync(file);
        if (!fileStat.isFile() || fileStat.uid !== process.getuid()) continue;
        unlinkSync(file);
      }
      rmdirSync(folder);
      console.log(`[worker] removed ${folder}, the env file of a start that was killed (pid ${pid})`);
    } catch {
      // Gone meanwhile, or not ours to remove: left as it is.
    }
  }
}

/** Writes `lines` to a new file only this user can read, in a new private folder removed when this script exits. */
function writeVarsFile(lines) {
  const folder = mkdtempSync(join(tmpdir(), `edgetool-dev-vars-${process.pid}-`));
  // 'exit' also comes after a crash and after the signal handlers below (they end wrangler; its exit ends this script).
  process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
  const file = join(folder, 'vars.env');
  const header = '# apps/worker/scripts/dev.mjs: .dev.vars and the environment for one wrangler dev run; removed when it ends.\n';
  writeFileSync(file, `${header}${lines.join('\n')}\n`, { mode: 0o600, flag: 'wx' });
  return file;
}

/** Whether 127.0.0.1:`port` is free, tried the way wrangler dev will bind it. */
function portIsFree(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

// Before anything else (.dev.vars, the migrations): a second start, or another server on the port, is told so in the
// words of `npm start` (wrangler's own message names a --port flag npm start does not take).
const port = process.env.PORT || '8787';
if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) fail(`PORT must be a port number from 1 to 65535, not "${port}".`);
if (!(await portIsFree(Number(port)))) {
  fail(
    `127.0.0.1:${port} is already in use: is the demo already running (http://127.0.0.1:${port})? ` +
      `Stop that one, or start this one on another port: PORT=${Number(port) === 65535 ? 8788 : Number(port) + 1} npm start`,
  );
}
// `npm start` checks the port this way before it builds the web app, so a second start says so at once.
if (process.argv.includes('--check-port')) process.exit(0);
sweepVarsFolders();

const run = (cmd, args) => {
  const res = spawnSync(cmd, args, { cwd, env, stdio: 'inherit' });
  if (res.error) fail(`could not run ${cmd}: ${res.error.message}. Start the demo with \`npm start\` or \`pnpm --filter @edgetool/worker dev\`.`);
  if (res.status !== 0) process.exit(res.status ?? 1);
};
run('node', ['scripts/ensure-dev-vars.mjs']);
run('wrangler', ['d1', 'migrations', 'apply', 'DB', '--local']);

const args = ['dev', '--ip', '127.0.0.1', '--port', port];
// wrangler refuses to start without the assets directory: serve the placeholder until apps/web is built.
if (!existsSync(new URL('../../web/dist/index.html', import.meta.url))) args.push('--assets', 'public');
const forwarded = FORWARDED.filter((name) => process.env[name]?.trim());
if (forwarded.length) {
  // .dev.vars as wrangler would read it, then the environment's values over it: the precedence `--var` had.
  const vars = parseDotenv(readFileSync(new URL('../.dev.vars', import.meta.url), 'utf8'));
  for (const name of forwarded) vars.set(name, process.env[name].trim());
  const unreadable = (name) => fail(`${name}'s value cannot be passed to wrangler dev unchanged: it holds ', \` and ", or ends with \\.`);
  const lines = [...vars].map(([name, value]) => envLine(name, value) ?? unreadable(name));
  args.push('--env-file', writeVarsFile(lines));
  // With --env-file wrangler skips .dev.vars and reads only that file; with these two it reads no less (it would not
  // load env files at all) and adds nothing from its own environment, as when it read .dev.vars.
  env.CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV = 'true';
  env.CLOUDFLARE_INCLUDE_PROCESS_ENV = 'false';
  console.log(`[worker] passing ${forwarded.join(', ')} from the environment (with .dev.vars, in a file only you can read, removed on exit)`);
}
const child = spawn('wrangler', args, { cwd, env, stdio: 'inherit' });
child.on('error', (error) => fail(`could not run wrangler: ${error.message}.`));
// Whatever ends this script ends wrangler dev too (a closed terminal sends SIGHUP): no server left on the port. SIGHUP
// goes on as SIGTERM: wrangler's bin script passes only SIGINT and SIGTERM to the wrangler it runs, and dies of a
// SIGHUP alone, leaving that wrangler and workerd serving the port.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal));
child.on('exit', (code) => process.exit(code ?? 0));
