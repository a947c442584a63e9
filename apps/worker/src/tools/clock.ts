// Local time in a time zone from the runtime's Intl data, with no schema library and no edgetool import: the
// demo's world_clock tool and the bench's plain AI SDK Worker (bench/plain-worker) both use it.

const FIELDS: Intl.DateTimeFormatOptions = {
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  weekday: 'long',
};

/** A formatter for `timeZone`, or `undefined` when the runtime does not know the zone. */
function formatterFor(timeZone: string): Intl.DateTimeFormat | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { ...FIELDS, timeZone });
  } catch {
    return undefined;
  }
}

/** Whether `timeZone` is an IANA zone (or offset zone) this runtime's Intl understands. */
export function isTimeZone(timeZone: string): boolean {
  return formatterFor(timeZone) !== undefined;
}

/** What `world_clock` returns. */
export interface WorldClockResult {
  /** The zone asked for, with canonical casing (`europe/berlin` → `Europe/Berlin`). */
  readonly time_zone: string;
  /** YYYY-MM-DD */
  readonly local_date: string;
  /** HH:mm:ss, 24-hour */
  readonly local_time: string;
  readonly weekday: string;
  /** `+05:30`, `-04:00`, `+00:00` */
  readonly utc_offset: string;
  /** Local time with its offset, ISO 8601. */
  readonly iso: string;
  readonly utc: string;
}

/**
 * The zone as the caller named it, with ICU's casing when it only differs in case (`europe/paris` →
 * `Europe/Paris`). ICU may resolve a zone to a legacy alias (`Asia/Kolkata` → `Asia/Calcutta`): keep the asked name then.
 */
function displayName(asked: string, resolved: string): string {
  return asked.toLowerCase() === resolved.toLowerCase() ? resolved : asked;
}

/** Local time and UTC offset of `timeZone` at `date` (whole seconds). */
export function clockIn(timeZone: string, date: Date): WorldClockResult {
  const format = formatterFor(timeZone);
  if (format === undefined) throw new RangeError(`Unknown time zone "${timeZone}".`);
  const at = new Date(Math.floor(date.getTime() / 1000) * 1000);
  const part: Record<string, string> = {};
  for (const { type, value } of format.formatToParts(at)) part[type] = value;
  const local = `${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}`;
  const offsetMinutes = Math.round((Date.parse(`${local}Z`) - at.getTime()) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return {
    time_zone: displayName(timeZone, format.resolvedOptions().timeZone),
    local_date: local.slice(0, 10),
    local_time: local.slice(11),
    weekday: part.weekday ?? '',
    utc_offset: offset,
    iso: `${local}${offset}`,
    utc: at.toISOString().replace('.000Z', 'Z'),
  };
}
