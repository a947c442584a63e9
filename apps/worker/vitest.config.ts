// Every test of src/ and test/ runs inside workerd with this Worker's wrangler.jsonc (D1 binding DB, compatibility date,
// no nodejs_compat). The migrations are read here, in Node, and applied inside workerd by
// test/apply-migrations.ts before each test. scripts/**/*.node.test.ts (the dev script) run on Node.
import { basename } from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

/** Set by `npm test` (scripts/bootstrap.mjs): each package also writes JSON totals there for the final summary. */
const REPORT_DIR = process.env.EDGETOOL_TEST_REPORT_DIR;

export default defineConfig({
  test: {
    reporters: REPORT_DIR ? ['default', ['json', { outputFile: `${REPORT_DIR}/${basename(import.meta.dirname)}.json` }]] : ['default'],
    // The sandbox has 2 cores. Each of the two workers has its own storage, tests reset it before each
    // test (test/reset-storage.ts: D1 too, also when its object had stopped between two files, and checked), no module
    // keeps mutable state (test/chat-client.ts's list of answered streams is emptied after each test) and no test ends
    // with a turn still writing (test/apply-migrations.ts), so files can share a worker: ~10 s instead of ~26 s.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        plugins: [
          cloudflareTest(async () => ({
            main: './src/index.ts',
            wrangler: { configPath: './wrangler.jsonc' },
            miniflare: {
              // apps/web/dist may not be built yet: tests serve the placeholder in public/.
              assets: { directory: './public', binding: 'ASSETS' },
              bindings: { TICKET_SECRET: 'test-ticket-secret-with-at-least-32-bytes', TEST_MIGRATIONS: await readD1Migrations({ projectPath: import.meta.dirname, migrationsDir: 'migrations' }) },
              // A real (simulated) Workers Rate Limiting binding that src/api/chat-rate-limit.test.ts hands the Worker as
              // CHAT_LIMITER; under that name every other test's chat would count against it.
              ratelimits: { TEST_CHAT_LIMITER: { namespace_id: '1902', simple: { limit: 3, period: 60 } } },
            },
          })),
        ],
        test: {
          name: 'workerd',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          setupFiles: ['./test/apply-migrations.ts'],
          // A local OTLP collector on 127.0.0.1 for the tracing tests (workerd reaches it over real fetch).
          globalSetup: ['./test/collector.global-setup.ts'],
          isolate: false,
        },
      },
      // The Node scripts behind `npm start` (scripts/dev.mjs), run as a person runs them.
      { extends: true, test: { name: 'node', include: ['scripts/**/*.node.test.ts'], environment: 'node' } },
    ],
  },
});
