// Reads the e2e D1 state (the same SQLite files wrangler dev writes) through wrangler: no test-only API.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const worker = fileURLToPath(new URL('../../apps/worker/', import.meta.url));

/** Runs one SQL query against the local D1 of the given e2e state and returns its rows. */
export function queryD1(stateName, sql) {
  const state = fileURLToPath(new URL(`../output/state-${stateName}/`, import.meta.url));
  const out = execFileSync('wrangler', ['d1', 'execute', 'DB', '--local', '--persist-to', state, '--json', '--command', sql], {
    cwd: worker,
    env: { ...process.env, CI: '1', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
    encoding: 'utf8',
  });
  return JSON.parse(out)[0].results;
}
