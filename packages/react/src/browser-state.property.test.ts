import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BrowserState, parseBrowserState } from './browser-state.ts';
import type { CallTrace } from './trace.ts';

const OUTCOMES = ['success', 'error', 'approval-required', 'client-pending'] as const;
const KEYS = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'c1'));
const count = fc.double({ min: 0, max: 1e6, noNaN: true });

const span = fc.record({
  name: fc.string({ maxLength: 12 }),
  kind: fc.constantFrom('interceptor', 'execute'),
  depth: fc.nat(8),
  start: fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  duration: count,
  outcome: fc.constantFrom(...OUTCOMES, 'running'),
});
const trace: fc.Arbitrary<CallTrace> = fc.record({
  side: fc.constantFrom('client', 'server'),
  outcome: fc.constantFrom(...OUTCOMES),
  errorCode: fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
  durationMs: count,
  spans: fc.array(span, { maxLength: 3 }),
});
const progress = fc
  .record({ message: fc.string({ maxLength: 30 }), completed: count, total: count }, { requiredKeys: [] })
  .filter((p) => Object.keys(p).length > 0);
/**
 * Per-test timeout of these property tests. Their runs are kept (500 and 1000 hostile inputs); the timeout is raised
 * instead: the 1000 runs take ~2.5 s on Node on an idle 2-core sandbox and passed 5 s under load, so 30 s leaves room
 * for a loaded machine and still fails a parser that becomes an order of magnitude slower.
 */
const PROPERTY_TIMEOUT_MS = 30_000;

const ids = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 4 });

/** A state `useEdgeChat` could have saved. */
const state: fc.Arbitrary<BrowserState> = fc.record({
  stopped: ids,
  expired: ids,
  traces: fc.dictionary(KEYS, fc.array(trace, { maxLength: 2 }), { maxKeys: 3 }),
  progress: fc.dictionary(KEYS, progress, { maxKeys: 3 }),
});

/** Any JSON at all, deep enough to reach every field. */
const anything = fc.jsonValue({ maxDepth: 5 });

/** What `localStorage` may hold instead: the saved state with any part of it replaced by any JSON, or a hostile key added. */
const tampered = fc.tuple(state, fc.array(fc.tuple(fc.constantFrom('stopped', 'expired', 'traces', 'progress'), KEYS, anything), { maxLength: 3 })).map(([saved, edits]) => {
  const value = JSON.parse(JSON.stringify(saved)) as Record<string, Record<string, unknown>>;
  for (const [field, key, replacement] of edits) {
    if (key === '' || (typeof value[field] === 'object' && value[field] !== null && !Array.isArray(value[field]) && key in value[field])) value[field] = replacement as never;
    // A named key on an array would not survive JSON (and `length` with a value that is no length throws): objects only.
    else if (typeof value[field] === 'object' && value[field] !== null && !Array.isArray(value[field])) {
      Object.defineProperty(value[field], key, { value: replacement, enumerable: true, writable: true, configurable: true });
    }
  }
  // Through JSON, as it comes out of localStorage.
  return JSON.parse(JSON.stringify(value)) as unknown;
});

describe('parseBrowserState: what localStorage holds is untrusted (property)', () => {
  it('reads back every state it could have saved, through JSON', () => {
    fc.assert(
      fc.property(state, (saved) => {
        const read = parseBrowserState(JSON.parse(JSON.stringify(saved)));
        expect(read).toEqual(JSON.parse(JSON.stringify(saved)));
      }),
      { numRuns: 500 },
    );
  }, PROPERTY_TIMEOUT_MS);

  it('never throws on any JSON, keeps only well-formed entries, and pollutes no prototype', () => {
    fc.assert(
      fc.property(fc.oneof(anything, tampered), (value) => {
        const read = parseBrowserState(value);
        for (const id of [...read.stopped, ...read.expired]) expect(typeof id === 'string' && id !== '').toBe(true);
        expect(new Set(read.stopped).size).toBe(read.stopped.length);
        for (const [, traces] of Object.entries(read.traces)) {
          for (const t of traces) {
            expect(['client', 'server']).toContain(t.side);
            expect(t.durationMs).toBeGreaterThanOrEqual(0);
            for (const s of t.spans) expect(Number.isSafeInteger(s.depth) && s.depth >= 0).toBe(true);
          }
        }
        for (const [, p] of Object.entries(read.progress)) {
          expect(p.message === undefined || typeof p.message === 'string').toBe(true);
          for (const n of [p.completed, p.total]) expect(n === undefined || (Number.isFinite(n) && n >= 0)).toBe(true);
        }
        // What it read is plain data: it survives JSON unchanged, and nothing leaked onto Object.prototype.
        expect(JSON.parse(JSON.stringify(read))).toEqual(read);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.getPrototypeOf(read.traces)).toBe(Object.prototype);
      }),
      { numRuns: 1000 },
    );
  }, PROPERTY_TIMEOUT_MS);
});
