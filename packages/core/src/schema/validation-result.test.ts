import { describe, expect, it } from 'vitest';
import { NOT_PASSED, passedValue, validationOf } from './validation-result.ts';

/** Every shape a schema's `validate` may answer with, a pass or not. */
const RESULTS: readonly (() => unknown)[] = [
  () => ({ value: 1 }),
  () => ({ value: undefined }),
  () => ({ value: { a: 1 }, issues: undefined }),
  () => ({ typed: true, value: 'x' }),
  () => ({ issues: [] }),
  () => ({ issues: [{ message: 'no', path: ['a', 0] }] }),
  () => ({ value: 1, issues: [{ message: 'no' }] }),
  () => ({ issues: 'not a list' }),
  () => ({}),
  () => null,
  () => undefined,
  () => 5,
  () => Promise.resolve({ value: 1 }),
  () => Object.defineProperty({ value: 1 }, 'then', { value: (resolve: (value: unknown) => void) => resolve({ value: 2 }), enumerable: true }),
];

describe('passedValue', () => {
  it('reads a synchronous pass as validationOf does, and nothing else', async () => {
    for (const make of RESULTS) {
      const fast = passedValue(make());
      let full: unknown;
      try {
        full = await validationOf(make());
      } catch (error) {
        full = error;
      }
      const passed = !(make() instanceof Promise) && typeof (full as { ok?: unknown }).ok === 'boolean' && (full as { ok: boolean }).ok;
      // A thenable's pass is validationOf's to read (asynchronously), never the fast path's.
      const thenable = typeof (make() as { then?: unknown } | null)?.then === 'function';
      if (passed && !thenable) expect(fast).toStrictEqual((full as { value: unknown }).value);
      else expect(fast).toBe(NOT_PASSED);
    }
  });
});
