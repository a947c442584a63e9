// One `vitest run` = every `src/**/*.test.ts` on three real runtimes: Node, workerd and Chromium.
// Each file runs once per project; the output prefixes each result with the project name.
// `*.node.test.ts` files run on Node only. Type tests (`*.test-d.ts`) are checked by `tsc` (see docs/testing.md).
import { basename } from 'node:path';
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { decorators } from './tooling/vite-decorators.ts';

const ALL = ['src/**/*.test.ts'];
const NODE_ONLY = ['src/**/*.node.test.ts'];
/** Set by `npm test` (scripts/bootstrap.mjs): each package also writes JSON totals there for the final summary. */
const REPORT_DIR = process.env.EDGETOOL_TEST_REPORT_DIR;

/** Flags that keep Debian's Chromium quiet and offline when run as root in a sandbox. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export default defineConfig({
  // Vite 8 passes TC39 decorators through and no runtime here parses them: the tests lower them with the same plugin
  // users get from `@edgetool/core/vite`, so that plugin runs over every test file of the core.
  plugins: [decorators()],
  test: {
    reporters: REPORT_DIR ? ['default', ['json', { outputFile: `${REPORT_DIR}/${basename(import.meta.dirname)}.json` }]] : ['default'],
    // The sandbox has 2 cores: at most two test files in flight per project.
    maxWorkers: 2,
    // Property suites are bounded by run counts, not time; on a busy 2-core machine one can take
    // several seconds. A real hang still fails here.
    testTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: { name: 'node', include: ALL, environment: 'node' },
      },
      {
        extends: true,
        plugins: [
          cloudflareTest({
            // No Wrangler file and no `main`: plain unit tests inside a bare Worker.
            // Dates from 2026-08-04 on turn `nodejs_compat` on by default; stay before it so the core is
            // tested without it. The plugin itself still enables the Node modules its runner needs.
            miniflare: { compatibilityDate: '2026-07-01', compatibilityFlags: [] },
          }),
        ],
        test: { name: 'workerd', include: ALL, exclude: NODE_ONLY },
      },
      {
        extends: true,
        test: {
          name: 'chromium',
          include: ALL,
          exclude: NODE_ONLY,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: {
                executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
                args: CHROMIUM_ARGS,
              },
            }),
            instances: [{ browser: 'chromium', name: 'chromium' }],
          },
        },
      },
    ],
  },
});
