import { describe, expect, it } from 'vitest';
import { call, describeOutcome, outputOf, testRun } from '../../test/support.ts';
import { clockIn, isTimeZone, type WorldClockResult } from './world-clock.ts';

const SUMMER = new Date('2026-07-01T12:34:56.789Z');
const WINTER = new Date('2026-11-20T12:00:00.000Z');

describe('world_clock', () => {
  it('returns local time, weekday and UTC offset (from the run clock)', async () => {
    const result = outputOf<WorldClockResult>(await call('world_clock', { time_zone: 'Asia/Kolkata' }));
    expect(result).toEqual({
      time_zone: 'Asia/Kolkata',
      local_date: '2026-11-20',
      local_time: '17:30:00',
      weekday: 'Friday',
      utc_offset: '+05:30',
      iso: '2026-11-20T17:30:00+05:30',
      utc: '2026-11-20T12:00:00Z',
    });
  });

  it.each([
    ['Europe/Berlin', WINTER, '13:00:00', '+01:00'],
    ['Europe/Berlin', SUMMER, '14:34:56', '+02:00'],
    ['America/New_York', SUMMER, '08:34:56', '-04:00'],
    ['America/St_Johns', WINTER, '08:30:00', '-03:30'],
    ['Asia/Kathmandu', WINTER, '17:45:00', '+05:45'],
    ['UTC', SUMMER, '12:34:56', '+00:00'],
  ])('%s at %s → %s (%s), daylight saving included', (zone, at, time, offset) => {
    expect(clockIn(zone, at)).toMatchObject({ local_time: time, utc_offset: offset });
  });

  it('crosses the date line correctly', () => {
    expect(clockIn('Pacific/Kiritimati', WINTER)).toMatchObject({ local_date: '2026-11-21', local_time: '02:00:00', utc_offset: '+14:00', weekday: 'Saturday' });
  });

  it('canonicalises the case of a zone name', async () => {
    const result = outputOf<WorldClockResult>(await call('world_clock', { time_zone: ' europe/paris ' }, { run: testRun() }));
    expect(result.time_zone).toBe('Europe/Paris');
  });

  it.each(['Mars/Olympus_Mons', 'CEST', 'Europe/Berlin; DROP TABLE orders', ''])('refuses the unknown zone %j with a hint', async (time_zone) => {
    const result = await call('world_clock', { time_zone });
    expect(describeOutcome(result.outcome)).toBe('invalid-input');
    expect(result.content).toMatch(/- time_zone: /);
    if (time_zone) expect(result.content).toMatch(/use an IANA name such as Europe\/Berlin/);
  });

  it('isTimeZone knows real zones only', () => {
    expect(isTimeZone('Australia/Sydney')).toBe(true);
    expect(isTimeZone('Nowhere/Special')).toBe(false);
    expect(() => clockIn('Nowhere/Special', WINTER)).toThrow(RangeError);
  });
});
