import { basename } from 'node:path';
import { defineConfig } from 'vitest/config';

/** Set by `npm test`: JSON totals for the bootstrap's final summary (see docs/testing.md). */
const REPORT_DIR = process.env.EDGETOOL_TEST_REPORT_DIR;

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    reporters: REPORT_DIR ? ['default', ['json', { outputFile: `${REPORT_DIR}/${basename(import.meta.dirname)}.json` }]] : ['default'],
  },
});
