import { createRunContext, type ToolCallResult } from '@edgetool/core';
import { describe, expect, it } from 'vitest';
import { meterCall, openTokenMeter, tokenMeterOf } from './token-meter.ts';

const none = (): Map<string, ToolCallResult> => new Map();

describe('openTokenMeter', () => {
  it('opens no meter for a turn without a budget, and leaves nothing on the run', () => {
    const run = createRunContext({ conversationId: 'conv-meter' });
    expect(openTokenMeter(run, undefined, none())).toBeUndefined();
    openTokenMeter(run, 100, none());
    // A later turn without a budget takes nothing an earlier one opened: no meter, no callback.
    expect(openTokenMeter(run, undefined, none())).toBeUndefined();
    expect(tokenMeterOf(run, 'c1')).toBeUndefined();
  });

  it("hands a turn's meter to each call it runs, by run and call id, while the call runs (budget34)", () => {
    const run = createRunContext({ conversationId: 'conv-meter' });
    const first = openTokenMeter(run, 100, none());
    const second = openTokenMeter(run, 1_000, none());
    if (first === undefined || second === undefined) throw new Error('no meter');
    const endFirst = meterCall(run, 'a1', first);
    const endSecond = meterCall(run, 'b1', second);
    // Each call reads its own turn's meter, whichever turn opened last.
    expect(tokenMeterOf(run, 'a1')).toBe(first);
    expect(tokenMeterOf(run, 'b1')).toBe(second);
    // Another run object (an agent call's fork) sees none of them.
    expect(tokenMeterOf(createRunContext({ parent: run }), 'a1')).toBeUndefined();
    // Two turns that run calls of one id at once: the meter with less left.
    const endSame = meterCall(run, 'a1', second);
    expect(tokenMeterOf(run, 'a1')).toBe(first);
    second.step({ totalTokens: 950 });
    expect(tokenMeterOf(run, 'a1')).toBe(second);
    endSame();
    endFirst();
    endFirst();
    expect(tokenMeterOf(run, 'a1')).toBeUndefined();
    expect(tokenMeterOf(run, 'b1')).toBe(second);
    endSecond();
    expect(tokenMeterOf(run, 'b1')).toBeUndefined();
  });
});
