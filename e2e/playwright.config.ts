// Browser tests in Debian's Chromium (Playwright cannot download browsers here) against `wrangler dev`
// serving the built web app. Two Workers: the offline model (port 8790), and the real @ai-sdk/openai
// provider pointed at the local fake OpenAI server (port 8791 → 8788). Loopback only. The offline Worker runs with
// TEST_CLOCK=1: the X-Test-Clock-Offset-Ms header moves its ticket clock forward (specs/expiry.spec.ts).
import { defineConfig } from '@playwright/test';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const OFFLINE_URL = 'http://127.0.0.1:8790';
export const OPENAI_URL = 'http://127.0.0.1:8791';

export default defineConfig({
  testDir: 'specs',
  outputDir: 'output/test-results',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // `npm test` reads the JSON totals from EDGETOOL_TEST_REPORT_DIR for its closing summary.
  reporter: [['list'], ['json', { outputFile: process.env.EDGETOOL_TEST_REPORT_DIR ? `${process.env.EDGETOOL_TEST_REPORT_DIR}/e2e.json` : 'output/report.json' }]],
  use: {
    baseURL: OFFLINE_URL,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 860 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  webServer: [
    {
      command: 'pnpm --filter @edgetool/fake-openai start -- --port 8788',
      url: 'http://127.0.0.1:8788/health',
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
    },
    {
      command: 'node scripts/start-worker.mjs --port 8790 --state offline --var OFFLINE_DELAY_MS=30 --var TEST_CLOCK=1',
      url: `${OFFLINE_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
    },
    {
      command: 'node scripts/start-worker.mjs --port 8791 --state openai --var OPENAI_API_KEY=sk-fake --var OPENAI_BASE_URL=http://127.0.0.1:8788/v1 --var OPENAI_API=chat --var OPENAI_MODEL=gpt-4o',
      url: `${OPENAI_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
    },
  ],
});
