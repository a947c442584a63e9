// The error codes the docs list are those of `ToolErrorCode`: docs/errors.md's "Error codes" table has a row for each, and
// @edgetool/core's README names each one a call can end with (all but the reserved `approval-required`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The members of the `ToolErrorCode` union, from its source. */
const CODES = [...(/export type ToolErrorCode =([\s\S]*?);/.exec(read('packages/core/src/errors/tool-error.ts'))?.[1] ?? '').matchAll(/\|\s*'([a-z-]+)'/g)].map(
  ([, code = '']) => code,
);

describe('the error codes in the docs', () => {
  it('reads the union', () => {
    expect(CODES).toContain('invalid-json');
    expect(CODES).toContain('approval-required');
  });

  it("docs/errors.md's table has a row for every code, and no other", () => {
    const page = read('docs/errors.md');
    const start = page.indexOf('\n## Error codes\n');
    expect(start).toBeGreaterThan(-1);
    const table = page.slice(start, page.indexOf('\n\n', page.indexOf('| --- |', start)));
    const listed = table
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([a-z-]+)`/g)].map(([, code = '']) => code));
    expect([...listed].sort()).toEqual([...CODES].sort());
  });

  it("@edgetool/core's README names every code a call ends with", () => {
    const bullet = /- \*\*Errors\*\*: `ToolError` with a stable `code`: ([\s\S]*?) \(/.exec(read('packages/core/README.md'))?.[1] ?? '';
    const named = [...bullet.matchAll(/`([a-z-]+)`/g)].map(([, code = '']) => code);
    expect([...named].sort()).toEqual(CODES.filter((code) => code !== 'approval-required').sort());
  });
});
