import { PROGRESS_PART } from '@edgetool/ai';
import { describe, expect, it } from 'vitest';
import { createProgressBuffer, type ProgressByCall, readProgressPart } from './progress.ts';

describe('readProgressPart', () => {
  it('reads a progress chunk as its call and a checked copy of the report', () => {
    const data = { toolCallId: 'c1', toolName: 'scan', message: 'Half way', completed: 5, total: 10 };
    expect(readProgressPart({ type: PROGRESS_PART, data })).toEqual({ toolCallId: 'c1', progress: { message: 'Half way', completed: 5, total: 10 } });
  });

  it.each([
    ['another data part', { type: 'data-edgetool-trace', data: { toolCallId: 'c1', message: 'x' } }],
    ['no data', { type: PROGRESS_PART }],
    ['no call id', { type: PROGRESS_PART, data: { message: 'x' } }],
    ['a numeric call id', { type: PROGRESS_PART, data: { toolCallId: 1, message: 'x' } }],
    ['no report field', { type: PROGRESS_PART, data: { toolCallId: 'c1' } }],
    ['a negative count', { type: PROGRESS_PART, data: { toolCallId: 'c1', completed: -3 } }],
    ['an object message', { type: PROGRESS_PART, data: { toolCallId: 'c1', message: { html: '<b>' } } }],
  ])('ignores %s', (_label, part) => {
    expect(readProgressPart(part)).toBeUndefined();
  });
});

describe('createProgressBuffer', () => {
  /** A schedule the test ticks by hand. */
  function manual() {
    const queued: (() => void)[] = [];
    return {
      schedule: (callback: () => void) => {
        queued.push(callback);
        return () => queued.splice(queued.indexOf(callback), 1);
      },
      tick: () => {
        for (const callback of queued.splice(0)) callback();
      },
      pending: () => queued.length,
    };
  }

  it('hands over the latest report of each call once per tick', () => {
    const clock = manual();
    const flushed: ProgressByCall[] = [];
    const buffer = createProgressBuffer((reports) => flushed.push(reports), clock.schedule);
    for (let i = 1; i <= 1000; i++) buffer.add('a', { completed: i, total: 1000 });
    buffer.add('b', { message: 'started' });
    expect(clock.pending()).toBe(1);
    clock.tick();
    expect(flushed).toEqual([
      new Map([
        ['a', { completed: 1000, total: 1000 }],
        ['b', { message: 'started' }],
      ]),
    ]);
    buffer.add('a', { message: 'done' });
    clock.tick();
    expect(flushed[1]).toEqual(new Map([['a', { message: 'done' }]]));
  });

  it('dispose drops what waits and cancels the tick', () => {
    const clock = manual();
    const flushed: ProgressByCall[] = [];
    const buffer = createProgressBuffer((reports) => flushed.push(reports), clock.schedule);
    buffer.add('a', { message: 'x' });
    buffer.dispose();
    expect(clock.pending()).toBe(0);
    clock.tick();
    expect(flushed).toEqual([]);
  });
});
