#!/usr/bin/env node
// `pnpm dev` / `npm start`: a TICKET_SECRET in .dev.vars, the local D1 migrated and seeded, then
// `wrangler dev` on 127.0.0.1:$PORT (default 8787). Model settings in the environment (OPENAI_API_KEY,
// OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API, OFFLINE_DELAY_MS, TURN_TOKEN_BUDGET) and OTLP export (OTEL_EXPORTER_OTLP_ENDPOINT,
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_TRACES_HEADERS, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_(TRACES_)TIMEOUT,
// OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL, OTEL_SDK_DISABLED, OTEL_TRACES_EXPORTER) are passed on as Worker vars, so
// `OPENAI_API_KEY=sk-... npm start` works as well as .dev.vars.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

const FORWARDED = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'OPENAI_MODEL',
  'OPENAI_API',
  'OFFLINE_DELAY_MS',
  'TURN_TOKEN_BUDGET',
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
for (const name of FORWARDED) {
  const value = process.env[name]?.trim();
  if (value) args.push('--var', `${name}:${value}`);
}
const forwarded = FORWARDED.filter((name) => process.env[name]?.trim());
if (forwarded.length) console.log(`[worker] passing ${forwarded.join(', ')} from the environment`);
const child = spawn('wrangler', args, { cwd, env, stdio: 'inherit' });
child.on('error', (error) => fail(`could not run wrangler: ${error.message}.`));
// Whatever ends this script ends wrangler dev too (a closed terminal sends SIGHUP): no server left on the port.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
