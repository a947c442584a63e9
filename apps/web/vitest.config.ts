import { basename } from 'node:path';
import { defineConfig } from 'vitest/config';

/** Set by `npm test` (scripts/bootstrap.mjs): each package also writes JSON totals there for the final summary. */
const REPORT_DIR = process.env.EDGETOOL_TEST_REPORT_DIR;

// Unit tests of the app's pure logic (cart store, formatting, server info parsing) on Node, and of its `vite` proxy.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', '*.test.ts'],
    environment: 'node',
    reporters: REPORT_DIR ? ['default', ['json', { outputFile: `${REPORT_DIR}/${basename(import.meta.dirname)}.json` }]] : ['default'],
  },
});
