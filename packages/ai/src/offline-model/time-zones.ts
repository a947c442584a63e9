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
    ['washington', 'America/New_York'],
    ['miami', 'America/New_York'],
    ['atlanta', 'America/New_York'],
    ['houston', 'America/Chicago'],
    ['dallas', 'America/Chicago'],
    ['phoenix', 'America/Phoenix'],
    ['las vegas', 'America/Los_Angeles'],
    ['san diego', 'America/Los_Angeles'],
    ['honolulu', 'Pacific/Honolulu'],
    ['manila', 'Asia/Manila'],
    ['taipei', 'Asia/Taipei'],
    ['edinburgh', 'Europe/London'],
    ['manchester', 'Europe/London'],
    ['helsinki', 'Europe/Helsinki'],
    ['kyiv', 'Europe/Kyiv'],
    ['kolkata', 'Asia/Kolkata'],
    ['calcutta', 'Asia/Kolkata'],
    ['bangalore', 'Asia/Kolkata'],
    ['bengaluru', 'Asia/Kolkata'],
    ['chennai', 'Asia/Kolkata'],
    ['karachi', 'Asia/Karachi'],
    // Zones half an hour or three quarters off the hour (UTC+05:45, +03:30, -03:30, …): the difference of two clocks
    // then has minutes, which the answers say ("5 hours 45 minutes ahead").
    ['kathmandu', 'Asia/Kathmandu'],
    ['katmandu', 'Asia/Kathmandu'],
    ['tehran', 'Asia/Tehran'],
    ['teheran', 'Asia/Tehran'],
    ['kabul', 'Asia/Kabul'],
    ['kaboul', 'Asia/Kabul'],
    ['yangon', 'Asia/Yangon'],
    ['rangoon', 'Asia/Yangon'],
    ['colombo', 'Asia/Colombo'],
    ['adelaide', 'Australia/Adelaide'],
    ['darwin', 'Australia/Darwin'],
    ["st john's", 'America/St_Johns'],
    ['st johns', 'America/St_Johns'],
    ['newfoundland', 'America/St_Johns'],
    ['neufundland', 'America/St_Johns'],
    ['terre-neuve', 'America/St_Johns'],
    ['eucla', 'Australia/Eucla'],
    ['lord howe', 'Australia/Lord_Howe'],
    ['chatham islands', 'Pacific/Chatham'],
    ['marquesas', 'Pacific/Marquesas'],
  ] as const
)
  .slice()
  .sort((a, b) => b[0].length - a[0].length);

/**
 * Countries with one time zone on their mainland, by their English, German and French names (folded), for "time in
 * India": the zone is the country's, as a city's is. Names that are also everyday words (Turkey, Chad, Jordan) are left
 * out; countries of several zones are {@link ZONED_COUNTRIES}.
 */
const COUNTRY_ZONES: ReadonlyArray<readonly [string, string]> = (
  [
    [['india', 'indien', 'inde'], 'Asia/Kolkata'],
    [['japan', 'japon'], 'Asia/Tokyo'],
    [['china', 'chine'], 'Asia/Shanghai'],
    [['south korea', 'korea', 'sudkorea', 'coree du sud', 'coree'], 'Asia/Seoul'],
    [['taiwan'], 'Asia/Taipei'],
    [['thailand', 'thailande'], 'Asia/Bangkok'],
    [['vietnam'], 'Asia/Ho_Chi_Minh'],
    [['philippines', 'philippinen'], 'Asia/Manila'],
    [['pakistan'], 'Asia/Karachi'],
    [['israel'], 'Asia/Jerusalem'],
    [['united arab emirates', 'uae', 'emirates'], 'Asia/Dubai'],
    [['saudi arabia', 'saudi-arabien', 'arabie saoudite'], 'Asia/Riyadh'],
    [['germany', 'deutschland', 'allemagne'], 'Europe/Berlin'],
    [['france', 'frankreich'], 'Europe/Paris'],
    [['italy', 'italien', 'italie'], 'Europe/Rome'],
    [['spain', 'spanien', 'espagne'], 'Europe/Madrid'],
    [['portugal'], 'Europe/Lisbon'],
    [['united kingdom', 'uk', 'great britain', 'britain', 'england', 'scotland', 'wales', 'grossbritannien', 'großbritannien', 'angleterre', 'royaume-uni'], 'Europe/London'],
    [['ireland', 'irland', 'irlande'], 'Europe/Dublin'],
    [['netherlands', 'holland', 'niederlande', 'pays-bas'], 'Europe/Amsterdam'],
    [['belgium', 'belgien', 'belgique'], 'Europe/Brussels'],
    [['switzerland', 'schweiz', 'suisse'], 'Europe/Zurich'],
    [['austria', 'osterreich', 'autriche'], 'Europe/Vienna'],
    [['poland', 'polen', 'pologne'], 'Europe/Warsaw'],
    [['czech republic', 'czechia', 'tschechien'], 'Europe/Prague'],
    [['sweden', 'schweden', 'suede'], 'Europe/Stockholm'],
    [['norway', 'norwegen', 'norvege'], 'Europe/Oslo'],
    [['denmark', 'danemark'], 'Europe/Copenhagen'],
    [['finland', 'finnland', 'finlande'], 'Europe/Helsinki'],
    [['greece', 'griechenland', 'grece'], 'Europe/Athens'],
    [['ukraine'], 'Europe/Kyiv'],
    [['egypt', 'agypten', 'egypte'], 'Africa/Cairo'],
    [['kenya', 'kenia'], 'Africa/Nairobi'],
    [['nigeria'], 'Africa/Lagos'],
    [['south africa', 'sudafrika', 'afrique du sud'], 'Africa/Johannesburg'],
    [['argentina', 'argentinien', 'argentine'], 'America/Argentina/Buenos_Aires'],
    [['new zealand', 'neuseeland', 'nouvelle-zelande'], 'Pacific/Auckland'],
    [['nepal'], 'Asia/Kathmandu'],
    [['iran'], 'Asia/Tehran'],
    [['afghanistan'], 'Asia/Kabul'],
    [['myanmar', 'burma', 'birma', 'birmanie'], 'Asia/Yangon'],
    [['sri lanka'], 'Asia/Colombo'],
  ] as const
).flatMap(([names, zone]) => names.map((name) => [name, zone] as const));

/**
 * Countries of one mainland zone with parts elsewhere that keep another time (islands, overseas regions), by the name of
 * {@link COUNTRY_ZONES}: "time in Spain" is read as Madrid's, and the answer says that the Canary Islands' differs.
 */
const OUTLYING_ZONES: Readonly<Record<string, readonly string[]>> = {
  'Europe/Madrid': ['Atlantic/Canary'],
  'Europe/Lisbon': ['Atlantic/Azores'],
  'Europe/Paris': ['America/Martinique', 'America/Cayenne', 'Indian/Reunion', 'Pacific/Tahiti', 'Pacific/Noumea'],
  'Pacific/Auckland': ['Pacific/Chatham'],
  'Europe/Copenhagen': ['Atlantic/Faroe', 'America/Nuuk'],
  'Europe/Amsterdam': ['America/Kralendijk'],
};

/**
 * Countries of several time zones (folded names), with cities of each that the model knows: "time in the USA" cannot be
 * read as one zone, so the answer says so and names cities to ask about instead.
 */
const ZONED_COUNTRIES: ReadonlyArray<{ readonly names: readonly string[]; readonly cities: readonly string[] }> = [
  { names: ['usa', 'the us', 'united states', 'america', 'vereinigte staaten', 'etats-unis', 'amerika', 'amerique'], cities: ['New York', 'Chicago', 'Denver', 'Los Angeles'] },
  { names: ['canada', 'kanada'], cities: ['Toronto', 'Vancouver'] },
  { names: ['russia', 'russland', 'russie'], cities: ['Moscow'] },
  { names: ['australia', 'australien', 'australie'], cities: ['Sydney', 'Melbourne'] },
  { names: ['brazil', 'brasilien', 'bresil'], cities: ['Sao Paulo'] },
  { names: ['mexico', 'mexiko', 'mexique'], cities: ['Mexico City'] },
  { names: ['indonesia', 'indonesien', 'indonesie'], cities: ['Jakarta'] },
];

/** A place's name, its zone, and the matcher of the name as a word in folded text. */
interface NamedZone {
  readonly name: string;
  readonly zone: string;
  readonly pattern: RegExp;
}
/** Each name's matcher made once, not at each of the several `findTimeZones` calls a message gets (`matchAll` copies it). */
const namedZones = (entries: ReadonlyArray<readonly [string, string]>): readonly NamedZone[] =>
  entries.map(([name, zone]) => ({ name, zone, pattern: new RegExp(`\\b${name}\\b`, 'g') }));
const CITIES = namedZones(CITY_ZONES);
const COUNTRIES = namedZones(COUNTRY_ZONES);

/** A found time zone and where in the text it was found. */
export interface ZoneMatch {
  readonly zone: string;
  readonly start: number;
  readonly end: number;
  /** For a country read as its mainland's zone, the zones its other parts keep ("Spain": Atlantic/Canary). */
  readonly others?: readonly string[];
}

/**
 * Abbreviations people use for a city, matched as written in capitals ("time in LA"): "la" is a French word. Lower
 * case counts only as the place a message ends with after "in" ("time in la?").
 */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  LA: 'America/Los_Angeles',
  SF: 'America/Los_Angeles',
  NY: 'America/New_York',
  DC: 'America/New_York',
  HK: 'Asia/Hong_Kong',
};
const ABBREVIATION = new RegExp(String.raw`\b(?:${Object.keys(ABBREVIATIONS).join('|')})\b`, 'g');
const ABBREVIATION_LAST = new RegExp(String.raw`(?<=\bin\s+)(?:${Object.keys(ABBREVIATIONS).join('|')})(?=\s*[?.!]*\s*$)`, 'gi');

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
  for (const pattern of [ABBREVIATION, ABBREVIATION_LAST]) {
    for (const match of text.matchAll(pattern)) {
      const zone = ABBREVIATIONS[match[0].toUpperCase()];
      const start = match.index;
      if (zone !== undefined && !found.some((other) => other.start === start)) found.push({ zone, start, end: start + match[0].length });
    }
  }
  const lower = fold(text);
  // A name not in the text at all is not looked for as a word (most of them, in each of the many calls a message gets).
  for (const { name: city, zone, pattern } of CITIES) {
    if (!lower.includes(city)) continue;
    for (const match of lower.matchAll(pattern)) {
      found.push({ zone, start: match.index, end: match.index + city.length });
    }
  }
  // A country of one zone, where no city of the text's is in it ("time in Berlin, Germany" is Berlin's).
  for (const { name: country, zone, pattern } of COUNTRIES) {
    if (!lower.includes(country)) continue;
    for (const match of lower.matchAll(pattern)) {
      const start = match.index;
      const others = Object.hasOwn(OUTLYING_ZONES, zone) ? OUTLYING_ZONES[zone] : undefined;
      if (!found.some((other) => start < other.end && start + country.length > other.start)) {
        found.push({ zone, start, end: start + country.length, ...(others === undefined ? {} : { others }) });
      }
    }
  }
  return found;
}

/** A question about the time of a place: "time in X", "what time is it in X", "Uhrzeit in X", "l'heure à X". */
const TIME_OF_PLACE = /\b(?:time|clock|uhrzeit|zeit|uhr|spat|heure|hora)\b[^?.!\n]*?\b(?:in|at|a|en|au|aux)\s+((?:the\s+)?[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2})\s*[?.!]*\s*$/;
/** A place alone, going on from a question of the time before: "and in the USA?", "what about in Atlantis?", "et au Canada ?". */
const PLACE_ALONE = /^(?:(?:and|what\s+about|how\s+about|und|et)\s+)?(?:in|at|en|au|aux|a)\s+((?:the\s+)?[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2})\s*[?.!]*\s*$/;
/** Words after "in" that name no place: "in my browser", "in your time zone", "in 3 days", "in total". */
const NOT_PLACES: ReadonlySet<string> = new Set(
  ('my your our their his her its this that here there the a an me us browser zone timezone local utc gmt minutes ' +
    'hours days weeks total words order orders advance general meinem meiner deinem mon ma votre notre').split(' '),
);

/**
 * The place a question asks the time of when no time zone or known city is in it ("What time is it in Atlantis?"):
 * the answer says the place is not known, rather than read a zone the user did not mean; with `goesOn` (the message
 * before asked a time) a place alone too ("and in the USA?"). `undefined` otherwise.
 */
export function unknownPlace(text: string, goesOn = false): string | undefined {
  if (findTimeZones(text).length > 0) return undefined;
  const folded = fold(text);
  const match = TIME_OF_PLACE.exec(folded) ?? (goesOn ? PLACE_ALONE.exec(folded) : null);
  const place = match?.[1];
  if (match === null || place === undefined) return undefined;
  const words = place.split(/\s+/);
  const start = match.index + match[0].lastIndexOf(place);
  // "the US" is a place, though "us" after "in" is none.
  if (zonedCountry(place) !== undefined) return text.slice(start, start + place.length);
  if (NOT_PLACES.has(words[0] ?? '') && !(words[0] === 'the' && words.length > 1 && !NOT_PLACES.has(words[1] ?? ''))) return undefined;
  if (words.some((word) => /\d/.test(word))) return undefined;
  return text.slice(start, start + place.length);
}

/**
 * A place of {@link unknownPlace} that is a country of several time zones ("the USA", "Kanada"), with cities of it the
 * model knows: the answer names them instead of saying the place is unknown. `undefined` for any other place.
 */
export function zonedCountry(place: string): { readonly country: string; readonly cities: readonly string[] } | undefined {
  const folded = fold(place).replace(/^the\s+/, '').trim();
  const found = ZONED_COUNTRIES.find((country) => country.names.includes(folded) || country.names.includes(`the ${folded}`));
  return found === undefined ? undefined : { country: `${place.charAt(0).toUpperCase()}${place.slice(1)}`, cities: found.cities };
}

/**
 * The city a place of {@link unknownPlace} is a typo of ("new yrok", "londn", "sydeny": two letters swapped, one left
 * out or one too many), with its zone; `undefined` when none is, or more than one. Names of five letters or more only.
 */
export function nearCity(place: string): { readonly city: string; readonly zone: string } | undefined {
  const typed = fold(place).trim().replace(/^the\s+/, '');
  if (typed.length < 5) return undefined;
  const near = CITIES.filter(({ name }) => name.length >= 5 && oneSlipFrom(typed, name));
  const zones = new Set(near.map((city) => city.zone));
  const first = near[0];
  return first === undefined || zones.size > 1 ? undefined : { city: titleCase(first.name), zone: first.zone };
}

/** Whether `typed` is `name` with two neighbouring letters swapped, or one letter left out or added. */
function oneSlipFrom(typed: string, name: string): boolean {
  if (typed === name) return false;
  if (typed.length === name.length) {
    const at = [...typed].findIndex((letter, i) => letter !== name[i]);
    return at >= 0 && typed[at] === name[at + 1] && typed[at + 1] === name[at] && typed.slice(at + 2) === name.slice(at + 2);
  }
  const [short, long] = typed.length < name.length ? [typed, name] : [name, typed];
  if (long.length - short.length !== 1) return false;
  const at = [...short].findIndex((letter, i) => letter !== long[i]);
  return at < 0 || short.slice(at) === long.slice(at + 1);
}

/** Capitalised names of the cities the offline model knows, for `city`/`location` arguments. */
export function findCities(text: string): Array<{ readonly city: string; readonly start: number; readonly end: number }> {
  const lower = fold(text);
  const found: Array<{ city: string; start: number; end: number }> = [];
  for (const { name: city, pattern } of CITIES) {
    if (!lower.includes(city)) continue;
    for (const match of lower.matchAll(pattern)) {
      const original = text.slice(match.index, match.index + city.length);
      found.push({ city: titleCase(original), start: match.index, end: match.index + city.length });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}


function titleCase(text: string): string {
  return text.replace(/\b[a-z]/g, (letter) => letter.toUpperCase());
}
