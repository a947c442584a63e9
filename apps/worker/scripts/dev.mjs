#!/usr/bin/env node
// `pnpm dev` / `npm start`: a TICKET_SECRET in .dev.vars, the local D1 migrated and seeded, then
// `wrangler dev` on 127.0.0.1:$PORT (default 8787). Model settings in the environment (OPENAI_API_KEY,
// OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API, OFFLINE_DELAY_MS, TURN_TOKEN_BUDGET) and OTLP export (OTEL_EXPORTER_OTLP_ENDPOINT,
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_TRACES_HEADERS, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_(TRACES_)TIMEOUT,
// OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL, OTEL_SDK_DISABLED, OTEL_TRACES_EXPORTER) are passed on as Worker vars, so
// `OPENAI_API_KEY=sk-... npm start` works as well as .dev.vars.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

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

const run = (cmd, args) => {
  const res = spawnSync(cmd, args, { cwd, env, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
};
run('node', ['scripts/ensure-dev-vars.mjs']);
run('wrangler', ['d1', 'migrations', 'apply', 'DB', '--local']);

const port = process.env.PORT || '8787';
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
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
