import { describe, expect, it } from 'vitest';
import { initialDate, localToday } from './dates.ts';

describe('initialDate', () => {
  it('today when the question allows it, else the nearest end of its range', () => {
    expect(initialDate({ min: undefined, max: undefined }, '2026-11-23')).toBe('2026-11-23');
    expect(initialDate({ min: '2026-12-01', max: undefined }, '2026-11-23')).toBe('2026-12-01');
    // A range that ended before today (a birthday, a past delivery): its last day, not a today the picker refuses.
    expect(initialDate({ min: undefined, max: '2000-01-01' }, '2026-11-23')).toBe('2000-01-01');
    expect(initialDate({ min: '1990-01-01', max: '2000-01-01' }, '2026-11-23')).toBe('2000-01-01');
    expect(initialDate({ min: '2026-11-23', max: '2026-11-23' }, '2026-11-23')).toBe('2026-11-23');
  });
});

describe('localToday', () => {
  it('the date where the browser is, not in UTC', () => {
    const late = new Date('2026-11-23T23:30:00-08:00');
    late.getTimezoneOffset = () => 480;
    expect(localToday(late)).toBe('2026-11-23');
    const early = new Date('2026-11-24T00:30:00+09:00');
    early.getTimezoneOffset = () => -540;
    expect(localToday(early)).toBe('2026-11-24');
  });
});
