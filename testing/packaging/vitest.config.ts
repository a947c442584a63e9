import { basename } from 'node:path';
import { defineConfig } from 'vitest/config';

/** Set by `npm test`: JSON totals for the bootstrap's final summary (see docs/testing.md). */
const REPORT_DIR = process.env.EDGETOOL_TEST_REPORT_DIR;

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Every test here starts processes (node, tsc, tar) or bundles: seconds each on a busy machine.
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: REPORT_DIR ? ['default', ['json', { outputFile: `${REPORT_DIR}/${basename(import.meta.dirname)}.json` }]] : ['default'],
  },
});
