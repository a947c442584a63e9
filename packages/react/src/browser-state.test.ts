import { describe, expect, it } from 'vitest';
import { EMPTY_BROWSER_STATE, parseBrowserState, readCallTrace } from './browser-state.ts';
import type { CallTrace } from './trace.ts';

const trace: CallTrace = {
  side: 'client',
  outcome: 'success',
  errorCode: undefined,
  durationMs: 4,
  spans: [
    { name: 'audit', kind: 'interceptor', depth: 0, start: 10, duration: 4, outcome: 'success' },
    { name: 'cart_add', kind: 'execute', depth: 1, start: 11, duration: 2, outcome: 'success' },
  ],
};
const state = { stopped: ['a1'], expired: ['c2'], traces: { c1: [trace] }, progress: { c1: { message: 'Added', completed: 1, total: 1 } } };
const json = (value: unknown) => JSON.parse(JSON.stringify(value));

describe('parseBrowserState', () => {
  it('reads back what it saved (JSON round trip)', () => {
    expect(parseBrowserState(json(state))).toEqual(state);
  });

  it('reads nothing from what is not an object', () => {
    for (const value of [undefined, null, 'x', 42, [state]]) expect(parseBrowserState(value)).toEqual(EMPTY_BROWSER_STATE);
  });

  it('drops each entry it cannot check and keeps the rest', () => {
    const value = json({
      stopped: ['a1', 42, '', 'a1', null, 'a2'],
      expired: 'c2',
      traces: {
        c1: [trace],
        c2: [{ ...trace, side: 'elsewhere' }],
        c3: [{ ...trace, spans: [{ ...trace.spans[0], depth: -1 }] }],
        c4: [{ ...trace, durationMs: 'slow' }],
        c5: trace,
        c6: [{ ...trace, outcome: 'exploded' }],
        c7: [{ ...trace, spans: [{ ...trace.spans[0], kind: 'magic' }] }],
      },
      progress: { c1: { message: 'ok' }, c2: { completed: -1 }, c3: {}, c4: 'half', c5: { total: 3, message: 7 } },
    });
    expect(parseBrowserState(value)).toEqual({ stopped: ['a1', 'a2'], expired: [], traces: { c1: [trace] }, progress: { c1: { message: 'ok' } } });
  });

  it('a call id "__proto__" is just a key: nothing reaches a prototype', () => {
    const parsed = parseBrowserState(JSON.parse(`{"traces":{"__proto__":[${JSON.stringify(trace)}]},"progress":{"__proto__":{"message":"x"}}}`));
    expect(Object.hasOwn(parsed.traces, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(parsed.traces)).toBe(Object.prototype);
    expect(Object.hasOwn(parsed.progress, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).message).toBeUndefined();
  });

  it('readCallTrace keeps an error code and refuses a span that is not one', () => {
    expect(readCallTrace({ ...trace, outcome: 'error', errorCode: 'aborted' })).toEqual({ ...trace, outcome: 'error', errorCode: 'aborted' });
    expect(readCallTrace({ ...trace, errorCode: 7 })).toBeUndefined();
    expect(readCallTrace({ ...trace, spans: [{ ...trace.spans[0], start: Number.NaN }] })).toBeUndefined();
    expect(readCallTrace({ ...trace, spans: [null] })).toBeUndefined();
  });
});
