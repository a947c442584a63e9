// `vitest run` = every `src/**/*.test.ts` on Node and inside workerd (the chat loop must run in a Worker
// without nodejs_compat). `*.node.test.ts` (the real OpenAI and Anthropic providers against the local
// fake servers, which are Node HTTP servers) run on Node only. See docs/testing.md.
import { basename } from 'node:path';
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

const ALL = ['src/**/*.test.ts'];
const NODE_ONLY = ['src/**/*.node.test.ts'];
const REPORT_DIR = process.env.EDGETOOL_TEST_REPORT_DIR;

export default defineConfig({
  test: {
    reporters: REPORT_DIR ? ['default', ['json', { outputFile: `${REPORT_DIR}/${basename(import.meta.dirname)}.json` }]] : ['default'],
    maxWorkers: 2,
    // A bound on a hang, not on speed: on a busy 2-core machine (other suites, helpers' builds) a resumable-answer test
    // took over vitest's default 5 s while the same file passed 40 of 40 alone. A real hang still fails here.
    testTimeout: 20_000,
    projects: [
      { extends: true, test: { name: 'node', include: ALL, environment: 'node' } },
      {
        extends: true,
        plugins: [cloudflareTest({ miniflare: { compatibilityDate: '2026-07-01', compatibilityFlags: [] } })],
        test: { name: 'workerd', include: ALL, exclude: NODE_ONLY },
      },
    ],
  },
});
