import { fold } from './words.ts';

/** Cities people name when they mean a time zone, longest names first so `new york` wins over `york`. */
const CITY_ZONES: ReadonlyArray<readonly [string, string]> = (
  [
    ['amsterdam', 'Europe/Amsterdam'],
    ['athens', 'Europe/Athens'],
    ['auckland', 'Pacific/Auckland'],
    ['bangkok', 'Asia/Bangkok'],
    ['barcelona', 'Europe/Madrid'],
    ['beijing', 'Asia/Shanghai'],
    ['berlin', 'Europe/Berlin'],
    ['boston', 'America/New_York'],
    ['brussels', 'Europe/Brussels'],
    ['buenos aires', 'America/Argentina/Buenos_Aires'],
    ['cairo', 'Africa/Cairo'],
    ['chicago', 'America/Chicago'],
    ['copenhagen', 'Europe/Copenhagen'],
    ['delhi', 'Asia/Kolkata'],
    ['denver', 'America/Denver'],
    ['dubai', 'Asia/Dubai'],
    ['dublin', 'Europe/Dublin'],
    ['hong kong', 'Asia/Hong_Kong'],
    ['istanbul', 'Europe/Istanbul'],
    ['jakarta', 'Asia/Jakarta'],
    ['johannesburg', 'Africa/Johannesburg'],
    ['lagos', 'Africa/Lagos'],
    ['lisbon', 'Europe/Lisbon'],
    ['london', 'Europe/London'],
    ['los angeles', 'America/Los_Angeles'],
    ['madrid', 'Europe/Madrid'],
    ['melbourne', 'Australia/Melbourne'],
    ['mexico city', 'America/Mexico_City'],
    ['milan', 'Europe/Rome'],
    ['montreal', 'America/Toronto'],
    ['moscow', 'Europe/Moscow'],
    ['mumbai', 'Asia/Kolkata'],
    ['munich', 'Europe/Berlin'],
    ['nairobi', 'Africa/Nairobi'],
    ['new york', 'America/New_York'],
    ['nyc', 'America/New_York'],
    ['oslo', 'Europe/Oslo'],
    ['paris', 'Europe/Paris'],
    ['prague', 'Europe/Prague'],
    ['rome', 'Europe/Rome'],
    ['san francisco', 'America/Los_Angeles'],
    ['sao paulo', 'America/Sao_Paulo'],
    ['seattle', 'America/Los_Angeles'],
    ['seoul', 'Asia/Seoul'],
    ['shanghai', 'Asia/Shanghai'],
    ['singapore', 'Asia/Singapore'],
    ['stockholm', 'Europe/Stockholm'],
    ['sydney', 'Australia/Sydney'],
    ['tokyo', 'Asia/Tokyo'],
    ['toronto', 'America/Toronto'],
    ['vancouver', 'America/Vancouver'],
    ['vienna', 'Europe/Vienna'],
    ['warsaw', 'Europe/Warsaw'],
    ['zurich', 'Europe/Zurich'],
    ['geneva', 'Europe/Zurich'],
    // German and French names (accents folded: the text is matched folded too).
    ['munchen', 'Europe/Berlin'],
    ['muenchen', 'Europe/Berlin'],
    ['koln', 'Europe/Berlin'],
    ['cologne', 'Europe/Berlin'],
    ['hamburg', 'Europe/Berlin'],
    ['frankfurt', 'Europe/Berlin'],
    ['wien', 'Europe/Vienna'],
    ['vienne', 'Europe/Vienna'],
    ['genf', 'Europe/Zurich'],
    ['geneve', 'Europe/Zurich'],
    ['zuerich', 'Europe/Zurich'],
    ['tokio', 'Asia/Tokyo'],
    ['peking', 'Asia/Shanghai'],
    ['pekin', 'Asia/Shanghai'],
    ['moskau', 'Europe/Moscow'],
    ['moscou', 'Europe/Moscow'],
    ['rom', 'Europe/Rome'],
    ['mailand', 'Europe/Rome'],
    ['lissabon', 'Europe/Lisbon'],
    ['lisbonne', 'Europe/Lisbon'],
    ['londres', 'Europe/London'],
    ['prag', 'Europe/Prague'],
    ['warschau', 'Europe/Warsaw'],
    ['varsovie', 'Europe/Warsaw'],
    ['kopenhagen', 'Europe/Copenhagen'],
    ['brussel', 'Europe/Brussels'],
    ['bruxelles', 'Europe/Brussels'],
    ['athen', 'Europe/Athens'],
    ['athenes', 'Europe/Athens'],
    ['kairo', 'Africa/Cairo'],
    ['le caire', 'Africa/Cairo'],
    ['neu-delhi', 'Asia/Kolkata'],
    ['new delhi', 'Asia/Kolkata'],
  ] as const
)
  .slice()
  .sort((a, b) => b[0].length - a[0].length);

/** A found time zone and where in the text it was found. */
export interface ZoneMatch {
  readonly zone: string;
  readonly start: number;
  readonly end: number;
}

const IANA_ZONE = /\b(?:Africa|America|Antarctica|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)\/[A-Za-z_]+(?:\/[A-Za-z_]+)?/g;

/** Finds an IANA zone (`Europe/Paris`), `UTC`/`GMT`, or a well-known city name, in that order. */
export function findTimeZones(text: string): ZoneMatch[] {
  const found: ZoneMatch[] = [];
  for (const match of text.matchAll(IANA_ZONE)) {
    found.push({ zone: match[0], start: match.index, end: match.index + match[0].length });
  }
  for (const match of text.matchAll(/\b(?:UTC|GMT)\b/g)) {
    found.push({ zone: 'UTC', start: match.index, end: match.index + match[0].length });
  }
  const lower = fold(text);
  for (const [city, zone] of CITY_ZONES) {
    for (const match of lower.matchAll(new RegExp(`\\b${city}\\b`, 'g'))) {
      found.push({ zone, start: match.index, end: match.index + city.length });
    }
  }
  return found;
}

/** Capitalised names of the cities the offline model knows, for `city`/`location` arguments. */
export function findCities(text: string): Array<{ readonly city: string; readonly start: number; readonly end: number }> {
  const lower = fold(text);
  const found: Array<{ city: string; start: number; end: number }> = [];
  for (const [city] of CITY_ZONES) {
    for (const match of lower.matchAll(new RegExp(`\\b${city}\\b`, 'g'))) {
      const original = text.slice(match.index, match.index + city.length);
      found.push({ city: titleCase(original), start: match.index, end: match.index + city.length });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}


function titleCase(text: string): string {
  return text.replace(/\b[a-z]/g, (letter) => letter.toUpperCase());
}
