import * as v from 'valibot';
import { clockIn, isTimeZone, type WorldClockResult } from './clock.ts';
import { defineDemoTool, nowFrom } from './deps.ts';

export { clockIn, isTimeZone, type WorldClockResult } from './clock.ts';

/** The current local time in any IANA time zone, from the runtime's Intl data. */
export const worldClock = defineDemoTool({
  name: 'world_clock',
  description:
    'Get the current local date, time, weekday and UTC offset in a time zone. Use IANA names such as ' +
    '"Europe/Berlin", "America/New_York", "Asia/Kolkata" or "UTC" (not abbreviations like CET or PST).',
  input: v.object({
    time_zone: v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, 'Give a time zone such as Europe/Berlin'),
      v.maxLength(64),
      v.check(isTimeZone, (issue) => `Unknown time zone ${JSON.stringify(issue.input)}: use an IANA name such as Europe/Berlin, America/New_York or UTC`),
      v.description('IANA time zone, e.g. Europe/Berlin'),
    ),
  }),
  policy: { effects: 'read' },
  execute: ({ time_zone }, ctx): WorldClockResult => clockIn(time_zone, nowFrom(ctx.run.deps)),
});
