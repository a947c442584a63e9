import { createRunContext, type ToolCallResult } from '@edgetool/core';
import { describe, expect, it } from 'vitest';
import { openTokenMeter, tokenMeterOf } from './token-meter.ts';

const none = (): Map<string, ToolCallResult> => new Map();

describe('openTokenMeter', () => {
  it('opens no meter for a turn without a budget once an earlier turn on the run has closed its own', () => {
    const run = createRunContext({ conversationId: 'conv-meter' });
    expect(openTokenMeter(run, undefined, none())).toBeUndefined();
    const first = openTokenMeter(run, 100, none());
    expect(tokenMeterOf(run)).toBe(first);
    first?.close();
    expect(tokenMeterOf(run)).toBeUndefined();
    // Nothing is left on the run for a later call to take: no meter, no callback for this turn.
    expect(openTokenMeter(run, undefined, none())).toBeUndefined();
  });

  it('replaces a meter still on the run (a turn that has not closed), budget or not, and puts it back when it closes', () => {
    const run = createRunContext({ conversationId: 'conv-meter' });
    const open = openTokenMeter(run, 100, none());
    const later = openTokenMeter(run, undefined, none());
    expect(later).toBeDefined();
    expect(later?.left()).toBe(Number.POSITIVE_INFINITY);
    expect(tokenMeterOf(run)).toBe(later);
    later?.close();
    expect(tokenMeterOf(run)).toBe(open);
  });
});
