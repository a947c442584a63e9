#!/usr/bin/env node
// Starts the demo Worker for the browser tests: a fresh local D1 (migrated + seeded) in its own state
// directory, then `wrangler dev` on 127.0.0.1 with the given vars. Playwright's webServer runs it and
// kills it afterwards. Usage: start-worker.mjs --port 8790 --state offline [--var KEY=VALUE ...]
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string' }, state: { type: 'string' }, var: { type: 'string', multiple: true, default: [] } } });
const worker = fileURLToPath(new URL('../../apps/worker/', import.meta.url));
const state = fileURLToPath(new URL(`../output/state-${values.state}/`, import.meta.url));
const env = { ...process.env, CI: '1', WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', NO_COLOR: '1' };

rmSync(state, { recursive: true, force: true });
const migrate = spawnSync('wrangler', ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state], { cwd: worker, env, stdio: 'inherit' });
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

const vars = [`TICKET_SECRET:${randomBytes(32).toString('base64url')}`, ...values.var.map((v) => v.replace('=', ':'))];
const args = ['dev', '--ip', '127.0.0.1', '--port', String(values.port), '--persist-to', state, '--show-interactive-dev-session=false', ...vars.flatMap((v) => ['--var', v])];
const child = spawn('wrangler', args, { cwd: worker, env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
