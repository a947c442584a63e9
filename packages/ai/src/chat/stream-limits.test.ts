import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chunkClock } from './stream-limits.ts';

const text = (delta: string): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't', delta });
const finish: LanguageModelV4StreamPart = {
  type: 'finish',
  finishReason: { unified: 'stop', raw: 'stop' },
  usage: { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } },
};

/** A clock with fake timers; `reasons` are the messages it aborted with. */
function clock(firstChunkMs: number | undefined, chunkMs: number | undefined) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  const reasons: string[] = [];
  const c = chunkClock(firstChunkMs, chunkMs, (reason) => reasons.push(`${reason.name}: ${reason.message}`));
  return { c, reasons };
}

describe('chunkClock: the UI turn’s first-chunk and chunk limits', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a first chunk that does not come in firstChunkMs aborts with the AI SDK’s TimeoutError', () => {
    const { c, reasons } = clock(50, 1000);
    c.start();
    vi.advanceTimersByTime(49);
    expect(reasons).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(reasons).toEqual(['TimeoutError: First chunk timeout of 50ms exceeded']);
  });

  it('each output chunk gives the next chunkMs, and silence after one aborts with the chunk limit', () => {
    const { c, reasons } = clock(1000, 50);
    c.start();
    // Ten chunks 40 ms apart: 400 ms in all, never 50 ms without one.
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(40);
      c.saw(text('x'));
    }
    expect(reasons).toEqual([]);
    vi.advanceTimersByTime(49);
    expect(reasons).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(reasons).toEqual(['TimeoutError: Chunk timeout of 50ms exceeded']);
  });

  it('keeps one timer for all the chunks, and none once the turn is closed', () => {
    const { c } = clock(60_000, 60_000);
    const set = vi.spyOn(globalThis, 'setTimeout');
    try {
      for (let step = 0; step < 5; step++) {
        c.start();
        for (let i = 0; i < 20; i++) c.saw(text('x'));
        c.saw(finish);
        c.stop();
      }
      expect(set).toHaveBeenCalledTimes(1);
      expect(vi.getTimerCount()).toBe(1);
      c.close();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      set.mockRestore();
    }
  });

  it('a chunk limit shorter than the first-chunk limit runs out on time (the longer timer is set again)', () => {
    const { c, reasons } = clock(10_000, 50);
    c.start();
    vi.advanceTimersByTime(10);
    c.saw(text('x'));
    vi.advanceTimersByTime(50);
    expect(reasons).toEqual(['TimeoutError: Chunk timeout of 50ms exceeded']);
  });

  it('parts that are no output (a start, an empty delta, metadata) do not reset the limit', () => {
    const { c, reasons } = clock(50, 50);
    c.start();
    vi.advanceTimersByTime(30);
    c.saw({ type: 'stream-start', warnings: [] });
    c.saw({ type: 'text-start', id: 't' });
    c.saw(text(''));
    c.saw({ type: 'response-metadata', id: 'r' });
    vi.advanceTimersByTime(20);
    expect(reasons).toEqual(['TimeoutError: First chunk timeout of 50ms exceeded']);
  });

  it('tool calls, their input and reasoning are output', () => {
    const { c, reasons } = clock(50, 50);
    c.start();
    const parts: LanguageModelV4StreamPart[] = [
      { type: 'reasoning-delta', id: 'r', delta: 'hm' },
      { type: 'tool-input-start', id: 'c1', toolName: 'x' },
      { type: 'tool-input-delta', id: 'c1', delta: '{}' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'x', input: '{}' },
    ];
    for (const part of parts) {
      vi.advanceTimersByTime(20);
      c.saw(part);
    }
    vi.advanceTimersByTime(49);
    expect(reasons).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(reasons).toEqual(['TimeoutError: Chunk timeout of 50ms exceeded']);
  });

  it('no limit runs after finish, an error part or stop, nor between calls (tools run then), however long', () => {
    for (const end of [finish, { type: 'error', error: new Error('x') } as LanguageModelV4StreamPart, undefined]) {
      const { c, reasons } = clock(50, 50);
      c.start();
      c.saw(text('x'));
      if (end === undefined) c.stop();
      else c.saw(end);
      vi.advanceTimersByTime(3_600_000);
      expect(reasons).toEqual([]);
      // The next call starts its own first-chunk limit.
      c.start();
      vi.advanceTimersByTime(50);
      expect(reasons).toEqual(['TimeoutError: First chunk timeout of 50ms exceeded']);
      c.close();
      vi.useRealTimers();
    }
  });

  it('only the limits that are set run; Infinity is none', () => {
    const first = clock(50, undefined);
    first.c.start();
    first.c.saw(text('x'));
    vi.advanceTimersByTime(3_600_000);
    expect(first.reasons).toEqual([]);
    vi.useRealTimers();
    const chunks = clock(undefined, 50);
    chunks.c.start();
    vi.advanceTimersByTime(3_600_000);
    expect(chunks.reasons).toEqual([]);
    chunks.c.saw(text('x'));
    vi.advanceTimersByTime(50);
    expect(chunks.reasons).toEqual(['TimeoutError: Chunk timeout of 50ms exceeded']);
    vi.useRealTimers();
    const none = clock(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
    none.c.start();
    none.c.saw(text('x'));
    vi.advanceTimersByTime(3_600_000);
    expect(none.reasons).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
