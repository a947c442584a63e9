// One `vitest run` = the pure logic on Node and in Chromium, and the hook in Chromium (it needs a DOM).
// `*.browser.test.ts` files run in Chromium only. Type tests (`*.test-d.ts`) are checked by `tsc`.
import { basename } from 'node:path';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';

const ALL = ['src/**/*.test.ts'];
const BROWSER_ONLY = ['src/**/*.browser.test.ts'];
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
  test: {
    reporters: REPORT_DIR ? ['default', ['json', { outputFile: `${REPORT_DIR}/${basename(import.meta.dirname)}.json` }]] : ['default'],
    // The sandbox has 2 cores: at most two test files in flight per project.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'node', include: ALL, exclude: BROWSER_ONLY, environment: 'node' },
      },
      {
        extends: true,
        // Pre-bundle what the tests import, so Vite never reloads the page mid-run to optimise a late find.
        optimizeDeps: { include: ['react', 'react-dom', 'react-dom/client', '@ai-sdk/react', 'ai', 'ai/test', 'valibot'] },
        test: {
          name: 'chromium',
          include: ALL,
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
