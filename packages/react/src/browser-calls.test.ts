import { describe, expect, it } from 'vitest';
import { type BrowserCall, cancelBrowserCalls } from './browser-calls.ts';

const call = (toolCallId: string, status: BrowserCall['status']): BrowserCall => ({ toolCallId, toolName: 't', input: {}, kind: 'run', approvalId: undefined, status, traces: [] });

describe('cancelBrowserCalls', () => {
  it('cancels every running or waiting call, except those kept; the same map when nothing changes', () => {
    const calls = new Map([call('a', 'running'), call('b', 'awaiting-approval'), call('c', 'done'), call('d', 'running')].map((c) => [c.toolCallId, c] as const));
    expect([...cancelBrowserCalls(calls).values()].map((c) => c.status)).toEqual(['cancelled', 'cancelled', 'done', 'cancelled']);
    expect([...cancelBrowserCalls(calls, new Set(['d'])).values()].map((c) => c.status)).toEqual(['cancelled', 'cancelled', 'done', 'running']);
    expect(cancelBrowserCalls(calls, new Set(['a', 'b', 'd']))).toBe(calls);
  });
});
