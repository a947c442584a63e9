import { fold, isCalendarDay } from './words.ts';

/** A day named relative to today ("tomorrow", "next Monday", "in 3 days") and the ISO date it was read as. */
export interface ResolvedDate {
  /** The words as the user wrote them. */
  readonly phrase: string;
  /** YYYY-MM-DD. */
  readonly date: string;
}

/**
 * A move by a number of days from a date the text does not give ("by a week", "add 5 days", "two days earlier"): the
 * order's own date, once read, plus `days` (fewer than none for an earlier day).
 */
export interface DateShift {
  /** The words as the user wrote them. */
  readonly phrase: string;
  readonly days: number;
  /**
   * Whether the words alone say that a date moves ("add 5 days", "two days earlier", "back 3 days"), not only by how
   * much ("by 3 days" is also how late an order is: "orders delayed by 3 days").
   */
  readonly moves: boolean;
}

/** A text with its relative days written as ISO dates, what they were read as, and a shift if it asks for one. */
export interface ReadDates {
  readonly text: string;
  /** Today's UTC date, YYYY-MM-DD, that the days were read against. */
  readonly today: string;
  readonly dates: readonly ResolvedDate[];
  readonly shift?: DateShift | undefined;
  /** A calendar day written out that no year has ("31st of February", "30. Februar"), as the text wrote it. */
  readonly impossible?: string | undefined;
  /** Whether {@link impossible} is so for its month: no year has that month ("2026-13-01"), not that day of it. */
  readonly noMonth?: boolean | undefined;
}

const DAY_MS = 86_400_000;

/** Weekdays in English, German and French, Sunday first (as `Date#getUTCDay`). */
const WEEKDAYS: readonly (readonly string[])[] = [
  ['sunday', 'sonntag', 'dimanche'],
  ['monday', 'montag', 'lundi'],
  ['tuesday', 'dienstag', 'mardi'],
  ['wednesday', 'mittwoch', 'mercredi'],
  ['thursday', 'donnerstag', 'jeudi'],
  ['friday', 'freitag', 'vendredi'],
  ['saturday', 'samstag', 'sonnabend', 'samedi'],
];

const COUNTS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  another: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  ein: 1,
  eine: 1,
  einen: 1,
  einer: 1,
  zwei: 2,
  drei: 3,
  vier: 4,
  un: 1,
  une: 1,
  deux: 2,
  trois: 3,
  quatre: 4,
};

const COUNT = String.raw`(\d{1,3}|${Object.keys(COUNTS).join('|')})`;
const DAY_UNIT = '(days?|tage?n?|jours?)';
const WEEK_UNIT = '(weeks?|wochen?|semaines?)';
const UNIT = `(?:${DAY_UNIT}|${WEEK_UNIT})`;
const WEEKDAY = WEEKDAYS.flat().join('|');

/** Months in English (with their short forms), German and French, January first; folded, as the text is matched. */
const MONTHS: readonly (readonly string[])[] = [
  ['january', 'jan', 'januar', 'janvier'],
  ['february', 'feb', 'februar', 'fevrier'],
  ['march', 'mar', 'marz', 'maerz', 'mars'],
  ['april', 'apr', 'avril'],
  ['may', 'mai'],
  ['june', 'jun', 'juni', 'juin'],
  ['july', 'jul', 'juli', 'juillet'],
  ['august', 'aug', 'aout'],
  ['september', 'sep', 'sept', 'septembre'],
  ['october', 'oct', 'oktober', 'okt', 'octobre'],
  ['november', 'nov', 'novembre'],
  ['december', 'dec', 'dezember', 'dez', 'decembre'],
];
const MONTH = MONTHS.flat().join('|');
const ORDINAL = String.raw`(\d{1,2})(?:st|nd|rd|th|er|\.)?`;
/** "Dec 24", "December 24th, 2026" (folded). */
const MONTH_FIRST = new RegExp(String.raw`\b(${MONTH})\.?\s+${ORDINAL}(?:,?\s+(\d{4}))?(?![\w.:-]*\d)`, 'g');
/** "24 December", "24. Dezember", "1er décembre", "31st of February" (folded). */
const DAY_FIRST = new RegExp(String.raw`\b${ORDINAL}\s+(?:of\s+)?(${MONTH})\b\.?(?:\s+(\d{4}))?`, 'g');

/**
 * The day `day`.`month` (1-based) of `year`, or when no year is given the next such day from today (29 February: in the
 * next leap year); `undefined` when there is no such day (31 February).
 */
function calendarDay(today: Date, day: number, month: number, year: string | undefined): Date | undefined {
  const at = (y: number): Date | undefined => {
    const date = new Date(Date.UTC(y, month - 1, day));
    return date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : undefined;
  };
  if (year !== undefined) return at(Number(year));
  // A leap day may be eight years on (2096 → 2104); any other day is this year's or next year's.
  for (let y = today.getUTCFullYear(); y <= today.getUTCFullYear() + 8; y++) {
    const date = at(y);
    if (date !== undefined && date.getTime() >= today.getTime()) return date;
  }
  return undefined;
}

/** The next day numbered `day` from today (today too): in this month, else the next month that has it (the 31st). */
function nextDayOfMonth(today: Date, day: number): Date | undefined {
  for (let months = 0; months <= 2; months++) {
    const date = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + months, day));
    if (date.getUTCDate() === day && date.getTime() >= today.getTime()) return date;
  }
  return undefined;
}

/**
 * A day written with a slash: month first, as in the US ("12/24", "1/10/2027"), unless the first number can only be a
 * day ("24/12"); `undefined` when it is neither.
 */
function slashDay(today: Date, first: number, second: number, year: string | undefined): Date | undefined {
  return first <= 12 ? calendarDay(today, second, first, year) : calendarDay(today, first, second, year);
}

/** What may be said after a day of the month that is named alone ("to the 3rd"): the end of the clause. */
const CLAUSE_END = String.raw`(?=\s*(?:$|[,.;!?)])|\s+(?:and|or|at|please|then|instead|if|so|because|as|since|with|but|und|bitte|et)\b)`;
/** A message that opens by taking back a day just asked for: "actually the 6th", "no, the 6th", "nein, den 6.", "plutôt le 6" (folded). */
const CHANGED_MIND = String.raw`(?<=^\s*(?:(?:actually|no|nah|wait|oh|sorry|rather|or|make\s+it|nein|doch|lieber|eher|oder|non|plutot|ou|alors)[\s,]+)+)`;
/** Words before a day that is a date, not a sum ("to 12/24", not "what is 12/24"). */
const DAY_PREPOSITION = String.raw`(?<=\b(?:to|on|for|until|till|by|before|after|from|due|auf|bis|zum|am|au|le|pour|jusqu'au)\s+)`;

/** Days of the month in words ("the third", "the twenty-first"), longest first so the alternation takes the whole word. */
const ORDINAL_WORDS: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries({ first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17, eighteenth: 18, nineteenth: 19, twentieth: 20, 'twenty-first': 21, 'twenty-second': 22, 'twenty-third': 23, 'twenty-fourth': 24, 'twenty-fifth': 25, 'twenty-sixth': 26, 'twenty-seventh': 27, 'twenty-eighth': 28, 'twenty-ninth': 29, thirtieth: 30, 'thirty-first': 31 } as Record<string, number>).sort(([a], [b]) => b.length - a.length),
);

const monthOf = (name: string | undefined): number => MONTHS.findIndex((names) => names.includes(name ?? '')) + 1;

/** One way of naming a day: its pattern (lower-case, diacritics folded) and the day it names from today's, if any. */
type Reader = readonly [RegExp, (match: RegExpExecArray, today: Date) => Date | undefined];

const plus = (today: Date, days: number): Date => new Date(today.getTime() + days * DAY_MS);
const count = (word: string | undefined): number => (word === undefined ? 1 : (COUNTS[word] ?? Number(word)));
const unitDays = (match: RegExpExecArray, countAt: number): number => count(match[countAt]) * (match[countAt + 2] !== undefined ? 7 : 1);

/** The same day `months` months on, or the month's last day when it has no such day (31 January → 28 February). */
function monthsOn(today: Date, months: number): Date {
  const last = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + months + 1, 0));
  return new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth(), Math.min(today.getUTCDate(), last.getUTCDate())));
}

const endOfMonth = (today: Date, months: number): Date => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + months + 1, 0));
const weekdayOf = (name: string | undefined): number => WEEKDAYS.findIndex((names) => names.includes(name ?? ''));

/** Easter Sunday of `year` (the Gregorian computus of Meeus, Jones and Butcher). */
function easter(year: number): Date {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - Math.floor(b / 4) - g + 15) % 30;
  const l = (32 + 2 * (b % 4) + 2 * Math.floor(c / 4) - h - (c % 4)) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const n = h + l - 7 * m + 114;
  return new Date(Date.UTC(year, Math.floor(n / 31) - 1, (n % 31) + 1));
}

/**
 * Holidays by their English, German and French names (folded), each with the day it falls on in a year: fixed days
 * (Christmas, New Year) and the ones that move (Easter, Thanksgiving). Longer names first, so "Christmas Eve" is not
 * Christmas and "Black Friday" no Friday.
 */
const HOLIDAYS: ReadonlyArray<readonly [string, (year: number) => Date]> = [
  [String.raw`christmas\s+eve|xmas\s+eve|heilig(?:abend|er\s+abend)|(?:la\s+)?veille\s+de\s+noel|reveillon\s+de\s+noel`, (y) => new Date(Date.UTC(y, 11, 24))],
  [String.raw`boxing\s+day|stephanstag|zweite[nr]?\s+weihnachtstag|lendemain\s+de\s+noel`, (y) => new Date(Date.UTC(y, 11, 26))],
  [String.raw`new\s+year['’]?s\s+eve|silvester|(?:la\s+)?saint[-\s]sylvestre|reveillon\s+du\s+nouvel\s+an`, (y) => new Date(Date.UTC(y, 11, 31))],
  [String.raw`(?:christmas|xmas)(?:\s+day)?|(?:erste[nr]?\s+)?weihnacht(?:en|stag)|(?<=\b(?:a|pour|de|jusqu['’]a|apres|avant|est|tombe|sera|jour)\s+)noel`, (y) => new Date(Date.UTC(y, 11, 25))],
  [String.raw`(?:the\s+)?new\s+year(?:['’]?s)?(?:\s+day)?|neujahr(?:stag)?|(?:le\s+)?nouvel\s+an|(?:le\s+)?jour\s+de\s+l['’]an`, (y) => new Date(Date.UTC(y, 0, 1))],
  [String.raw`valentine['’]?s\s+day|valentinstag|(?:la\s+)?saint[-\s]valentin`, (y) => new Date(Date.UTC(y, 1, 14))],
  ['halloween', (y) => new Date(Date.UTC(y, 9, 31))],
  [String.raw`independence\s+day|(?:the\s+)?(?:fourth|4th)\s+of\s+july`, (y) => new Date(Date.UTC(y, 6, 4))],
  [String.raw`good\s+friday|karfreitag|vendredi\s+saint`, (y) => plus(easter(y), -2)],
  [String.raw`easter\s+monday|ostermontag|lundi\s+de\s+paques`, (y) => plus(easter(y), 1)],
  [String.raw`easter(?:\s+sunday)?|ostern|ostersonntag|paques`, (y) => easter(y)],
  [String.raw`(?:christi\s+)?himmelfahrt|ascension\s+day|(?:le\s+jeudi\s+de\s+)?l['’]ascension`, (y) => plus(easter(y), 39)],
  [String.raw`whit\s+monday|pfingstmontag|lundi\s+de\s+(?:la\s+)?pentecote`, (y) => plus(easter(y), 50)],
  [String.raw`pentecost|whit\s+sunday|pfingst(?:en|sonntag)|(?:la\s+)?pentecote`, (y) => plus(easter(y), 49)],
  // Mother's and Father's Day by the custom of the language they are named in: the second Sunday of May in the US, in
  // Germany, Austria and Switzerland; Britain's Mothering Sunday three weeks before Easter; France's fête des mères on
  // the last Sunday of May (the first of June when Pentecost falls on it); Vatertag on Ascension Day, Father's Day and
  // la fête des pères on the third Sunday of June. The answer says the date it read before anything is changed.
  [String.raw`mothering\s+sunday`, (y) => plus(easter(y), -21)],
  [String.raw`mother['’]?s\s+day|muttertag`, (y) => sunday(y, 4, 2)],
  [String.raw`(?:la\s+)?fete\s+des\s+meres`, (y) => motherDayOfFrance(y)],
  [String.raw`father['’]?s\s+day|(?:la\s+)?fete\s+des\s+peres`, (y) => sunday(y, 5, 3)],
  ['vatertag', (y) => plus(easter(y), 39)],
  // The fourth Thursday of November (the US holiday), and the Friday and Monday named after it.
  [String.raw`thanksgiving(?:\s+day)?`, (y) => thanksgiving(y)],
  [String.raw`black\s+friday`, (y) => plus(thanksgiving(y), 1)],
  [String.raw`cyber\s+monday`, (y) => plus(thanksgiving(y), 4)],
];

/** The `nth` Sunday of a month (0-based `month`); a negative `nth` counts from its end (-1: its last Sunday). */
function sunday(year: number, month: number, nth: number): Date {
  if (nth < 0) {
    const last = new Date(Date.UTC(year, month + 1, 0));
    return plus(last, -last.getUTCDay() + (nth + 1) * 7);
  }
  const first = new Date(Date.UTC(year, month, 1)).getUTCDay();
  return new Date(Date.UTC(year, month, 1 + ((7 - first) % 7) + (nth - 1) * 7));
}

/** France's fête des mères: the last Sunday of May, or the first of June when Pentecost falls on that Sunday. */
function motherDayOfFrance(year: number): Date {
  const last = sunday(year, 4, -1);
  return last.getTime() === plus(easter(year), 49).getTime() ? sunday(year, 5, 1) : last;
}

function thanksgiving(year: number): Date {
  const first = new Date(Date.UTC(year, 10, 1)).getUTCDay();
  return new Date(Date.UTC(year, 10, 1 + ((4 - first + 7) % 7) + 21));
}

/** Words before a holiday that name the day after it or before it: "after Christmas", "vor Weihnachten", "après Noël". */
const AFTER = ['after', 'nach', 'apres'];
const BEFORE = ['before', 'vor', 'avant'];

/** Not a holiday of this calendar's: "Chinese New Year", "Orthodox Christmas", "Jewish New Year" fall on other days. */
const OTHER_CALENDAR = String.raw`(?<!\b(?:chinese|lunar|jewish|hebrew|islamic|hijri|hindu|orthodox|persian|iranian|tamil|thai|vietnamese|korean|tibetan|ethiopian)\s+)`;

/**
 * A holiday, with its year or the next one from today (today included): "on Christmas", "Easter 2027"; "after" or
 * "before" it is the day after or before ("after New Year" is 2 January), which the answer says before the call.
 */
const HOLIDAY_READER: Reader = [
  new RegExp(String.raw`\b(?:(${[...AFTER, ...BEFORE].join('|')})\s+)?${OTHER_CALENDAR}(?:(${HOLIDAYS.map(([names]) => `(?:${names})`).join('|')}))(?:\s+(\d{4}))?\b`, 'g'),
  (match, today) => {
    const said = match[2] ?? '';
    // Read where it was found, so a name that needs the word before it ("après Noël") is read as it matched.
    const before = match.input.slice(0, match.index + match[0].lastIndexOf(said) + said.length);
    const day = HOLIDAYS.find(([names]) => new RegExp(`(?:${names})$`).exec(before)?.[0] === said)?.[1];
    if (day === undefined) return undefined;
    const years = match[3] === undefined ? [0, 1, 2].map((n) => today.getUTCFullYear() + n) : [Number(match[3])];
    const date = years.map(day).find((candidate) => match[3] !== undefined || candidate.getTime() >= today.getTime());
    if (date === undefined) return undefined;
    return plus(date, AFTER.includes(match[1] ?? '') ? 1 : BEFORE.includes(match[1] ?? '') ? -1 : 0);
  },
];

const READERS: readonly Reader[] = [
  HOLIDAY_READER,
  [/\b(?:the\s+)?day\s+after\s+tomorrow\b|\bubermorgen\b|\bapres-demain\b/g, (_, today) => plus(today, 2)],
  [/\b(?:the\s+)?day\s+before\s+yesterday\b|\bvorgestern\b|\bavant-hier\b/g, (_, today) => plus(today, -2)],
  [/\b(?:yesterday|yesterdy|yesteday|ystd)\b|\bgestern\b/g, (_, today) => plus(today, -1)],
  // The one before today ("last Friday" on a Friday is a week ago), in German and French too ("vendredi dernier").
  [
    new RegExp(String.raw`\b(?:last|previous|letzten|letzter|vergangenen)\s+(${WEEKDAY})\b|\b(${WEEKDAY})\s+(?:dernier|passe)\b`, 'g'),
    (match, today) => plus(today, -(((today.getUTCDay() - weekdayOf(match[1] ?? match[2]) + 6) % 7) + 1)),
  ],
  [
    /\b(?:the\s+)?end\s+of\s+next\s+month\b|\bende\s+nachsten\s+monats\b|\b(?:a\s+la\s+)?fin\s+du\s+mois\s+prochain\b/g,
    (_, today) => endOfMonth(today, 1),
  ],
  // A day of this or the next month: "the 1st of next month", "the 15th of this month", "den 3. nächsten Monats", "le 3
  // de ce mois", "le 1er du mois prochain". One of this month already past is the next such day, as "the 3rd" alone is:
  // a delivery is not moved into the past, and the answer says the date it was read as.
  [
    new RegExp(
      String.raw`\b(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+of\s+(?:the\s+)?(next|this|coming)\s+month\b|\b(?:den\s+|am\s+)?(\d{1,2})\.\s*(dieses|nachsten|kommenden)\s+monats\b` +
        String.raw`|\b(?:le\s+)?(\d{1,2})(?:er)?\s+(?:(de\s+ce)\s+mois(?:-ci)?|du\s+mois\s+prochain)\b`,
      'g',
    ),
    (match, today) => {
      const day = Number(match[1] ?? match[3] ?? match[5]);
      const thisMonth = ['this', 'dieses', 'de ce'].includes(match[2] ?? match[4] ?? match[6] ?? '');
      const next = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + (thisMonth ? 0 : 1), 1));
      const date = calendarDay(today, day, next.getUTCMonth() + 1, String(next.getUTCFullYear()));
      return thisMonth && date !== undefined && date.getTime() < today.getTime() ? nextDayOfMonth(today, day) : date;
    },
  ],
  // The same day of the next month (or its last day): what "next month" names as a day, shown before it is used.
  [/\bnext\s+month\b|\bnachsten\s+monat\b|\b(?:le\s+)?mois\s+prochain\b/g, (_, today) => monthsOn(today, 1)],
  [
    new RegExp(String.raw`\b(?:in|dans)\s+${COUNT}\s+(?:months?|monaten?|mois)\b`, 'g'),
    (match, today) => monthsOn(today, count(match[1])),
  ],
  [/\b(?:tomorrow|tommorow|tomorow|tommorrow|tmrw|tmr)\b|\bdemain\b|(?<!\b(?:guten|am|den|jeden|heute)\s+)\bmorgen\b/g, (_, today) => plus(today, 1)],
  [new RegExp(String.raw`\b(?:in|dans)\s+${COUNT}\s+${UNIT}`, 'g'), (match, today) => plus(today, unitDays(match, 1))],
  [/\bnext\s+week\b|\bnachste\s+woche\b|\b(?:la\s+)?semaine\s+prochaine\b/g, (_, today) => plus(today, 7)],
  [
    /\b(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?month\b|\bmonatsende\b|\bende\s+(?:des|dieses)\s+monats\b|\b(?:a\s+la\s+)?fin\s+(?:du|de\s+ce)\s+mois\b/g,
    (_, today) => endOfMonth(today, 0),
  ],
  [
    new RegExp(String.raw`\b(?:(?:next|this|coming|nachsten|nachster|kommenden)\s+)?(${WEEKDAY})(?:\s+prochain)?\b`, 'g'),
    (match, today) => plus(today, ((weekdayOf(match[1]) - today.getUTCDay() + 6) % 7) + 1),
  ],
  // A calendar day without the ISO form: "Dec 24", "December 24th, 2026", "24 December", "24. Dezember", "1er décembre",
  // "24.12.2026", "24.12." (a year left out is the next such day).
  [
    MONTH_FIRST,
    (match, today) => calendarDay(today, Number(match[2]), monthOf(match[1]), match[3]),
  ],
  [
    DAY_FIRST,
    (match, today) => calendarDay(today, Number(match[1]), monthOf(match[2]), match[3]),
  ],
  // A day with a slash after a word that names a day, month first (US): "to 12/24", "on 1/10/2027" ("what is 12/24" is a sum).
  [
    new RegExp(String.raw`${DAY_PREPOSITION}(\d{1,2})\/(\d{1,2})(?:\/(\d{4}))?(?![\d/]|\s*[-+*/×÷^%]\s*\d)`, 'g'),
    (match, today) => slashDay(today, Number(match[1]), Number(match[2]), match[3]),
  ],
  // A day of the month alone: "to the 3rd" (or "the third", "the 3rd of the month") is the next 3rd, next month's when
  // this month's is past; "auf den 3." too; a reply on a line of its own to the question for a date too. Not "the 3rd
  // most delayed".
  [
    new RegExp(
      String.raw`(?:${DAY_PREPOSITION}|(?<=\n\s*)|${CHANGED_MIND})(?:the\s+|den\s+)?(?:(\d{1,2})(?:st|nd|rd|th)|(\d{1,2})\.(?!\d)|(${Object.keys(ORDINAL_WORDS).join('|')}))` +
        String.raw`(?:\s+of\s+the\s+month)?${CLAUSE_END}`,
      'g',
    ),
    (match, today) => nextDayOfMonth(today, match[3] === undefined ? Number(match[1] ?? match[2]) : (ORDINAL_WORDS[match[3]] ?? 0)),
  ],
  // French writes that day bare: "au 6", "le 6", "jusqu'au 1er", "plutôt le 6" after a move to the 5th.
  [new RegExp(String.raw`(?:(?<=(?:^|[\s,])(?:au|jusqu'au)\s+)|(?<=^|[\s,])le\s+)(\d{1,2})(?:er)?${CLAUSE_END}`, 'g'), (match, today) => nextDayOfMonth(today, Number(match[1]))],
  // Not the last number of a sum before a full stop ("2.5 * 4.12."): after an operator, or a minus after a number.
  [
    /(?<![\d.]|[+*/×÷^%=(]\s*|[\d)]\s*-\s*)(\d{1,2})\.(\d{1,2})\.(\d{4})?(?![\d.])/g,
    (match, today) => calendarDay(today, Number(match[1]), Number(match[2]), match[3]),
  ],
];

/** What may stand between a count and its unit when the days are added to a date: "2 more days", "3 extra days". */
const MORE = String.raw`(?:(?:more|extra|additional|further|weitere|zusatzliche)\s+)?`;
const SPAN = String.raw`${COUNT}\s+${MORE}${UNIT}`;
/**
 * A move from the date a thing already has, and whether the words alone say that it moves: "by a week", "back 2 days",
 * "um 3 Tage", "de deux jours" only say by how much; "add 5 days", "a week later", "two days earlier", "2 more days",
 * "subtract 2 days", "3 Tage später", "2 jours plus tôt" say that a date moves.
 */
const SHIFTS: ReadonlyArray<{ readonly pattern: RegExp; readonly moves: boolean }> = [
  { pattern: new RegExp(String.raw`\b(?:add|adding|plus|subtract|subtracting|minus|take\s+off|knock\s+off)\s+(?:another\s+|an?\s+extra\s+)?${SPAN}`), moves: true },
  { pattern: new RegExp(String.raw`\b${SPAN}\s+(?:later|spater|plus\s+tard|earlier|sooner|fruher|eher|plus\s+tot)\b`), moves: true },
  { pattern: new RegExp(String.raw`\b(?:back|forward|ahead)(?:\s+by)?\s+${SPAN}`), moves: true },
  { pattern: new RegExp(String.raw`\b(?:take|knock)\s+${SPAN}\s+off\b`), moves: true },
  { pattern: new RegExp(String.raw`(?:\b(?:by|um|de)\s+|\bd['’]\s*)${SPAN}`), moves: false },
  { pattern: new RegExp(String.raw`\b${COUNT}\s+(?:more|extra|additional|further|weitere|zusatzliche)\s+${UNIT}`), moves: true },
];
/** The count and unit of a shift's words, for the number of days they name. */
const SPAN_OF = new RegExp(SPAN);
/**
 * Words that make a shift an earlier day: "earlier", "sooner", "subtract 2 days", "take off", "bring … forward", "move
 * … up", "advance", "vorziehen", "nach vorne", "früher", "avancer", "plus tôt".
 */
const EARLIER = new RegExp(
  String.raw`\b(?:earlier|sooner|fruher|eher|plus\s+tot|avance[rz]?|advance|expedite|vorziehen|vorverlegen|nach\s+vorne?|subtract(?:ing)?|minus)\b|\b(?:take|knock)\s+(?:\S+\s+){0,3}?off\b` +
    String.raw`|\b(?:bring|pull|move|get)\s+(?:\S+\s+){0,3}?(?:forward|ahead|up)\b|\bzieh\w*\s+(?:\S+\s+){0,5}?vor\b`,
);

/** The first shift the text asks for (see {@link SHIFTS}), with where its words are in the text. */
function readShift(folded: string, text: string): (DateShift & { readonly start: number; readonly end: number }) | undefined {
  const matches = SHIFTS.flatMap(({ pattern, moves }) => {
    const match = pattern.exec(folded);
    return match === null ? [] : [{ match, moves }];
  });
  const first = matches.sort((a, b) => a.match.index - b.match.index || b.match[0].length - a.match[0].length)[0];
  if (first === undefined) return undefined;
  const { match, moves } = first;
  const span = SPAN_OF.exec(match[0]);
  if (span === null) return undefined;
  const days = unitDays(span, 1) * (EARLIER.test(folded) ? -1 : 1);
  const start = match.index;
  const end = start + match[0].length;
  return { phrase: text.slice(start, end), days, moves, start, end };
}

/**
 * Reads the days a text names relative to `now` (its UTC day, as the demo's tools count "today"): "tomorrow", "the day
 * after tomorrow", "yesterday", "in 3 days", "in a week", "next week", "next Monday" (the next one after today),
 * "Friday", "last Friday" (the one before today), "next month" and "in 2 months" (the same day then, or that month's
 * last), "end of the month", "end of next month", "to 12/24" (month first, as in the US), "to the 3rd" (the next 3rd),
 * and their German and French words ("morgen", "nächsten Montag",
 * "demain", "fin du mois"). Each becomes its ISO date in the text, so a tool that takes a date reads it as it reads
 * `2027-01-10` (one in the past too: the tool says it is past). A move "by a week", "add 5 days", "two days earlier"
 * names no day: it is returned as a shift (below zero for an earlier day), for the caller to add to the date the thing
 * has.
 */
export function readRelativeDates(text: string, now: Date): ReadDates {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const folded = fold(text);
  const shifted = readShift(folded, text);
  const shift = shifted === undefined ? undefined : { phrase: shifted.phrase, days: shifted.days, moves: shifted.moves };
  const found: Array<{ start: number; end: number; date: string }> = [];
  for (const [pattern, read] of READERS) {
    for (const match of folded.matchAll(new RegExp(pattern.source, 'g'))) {
      const start = match.index;
      const end = start + match[0].length;
      if (found.some((other) => start < other.end && end > other.start)) continue;
      if (shifted !== undefined && start < shifted.end && end > shifted.start) continue;
      const day = read(match as RegExpExecArray, today);
      if (day !== undefined) found.push({ start, end, date: day.toISOString().slice(0, 10) });
    }
  }
  found.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const { start, end, date } of found) {
    out += `${text.slice(at, start)}${date}`;
    at = end;
  }
  out += text.slice(at);
  const dates = found.map(({ start, end, date }) => ({ phrase: text.slice(start, end), date }));
  const impossible = impossibleDay(folded, text);
  return { text: out, today: today.toISOString().slice(0, 10), dates, shift, impossible: impossible?.day, noMonth: impossible?.noMonth };
}

/**
 * The first calendar day a text writes out that no year has ("31st of February": February has at most 29 days), and
 * whether that is so for its month ("2026-13-01": a year has 12).
 */
function impossibleDay(folded: string, text: string): { readonly day: string; readonly noMonth: boolean } | undefined {
  const lengths = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  for (const [pattern, day, month] of [[MONTH_FIRST, 2, 1], [DAY_FIRST, 1, 2]] as const) {
    for (const match of folded.matchAll(new RegExp(pattern.source, 'g'))) {
      const number = Number(match[day]);
      if (number > (lengths[monthOf(match[month]) - 1] ?? 31)) return { day: text.slice(match.index, match.index + match[0].length).trim(), noMonth: false };
    }
  }
  // "2027-02-31", "2027-02-29": written as the tools take it, but of a month that has fewer days that year;
  // "2026-13-01", "2026-00-10": of a month no year has (it asked for a date as if none were given).
  for (const match of folded.matchAll(/(?<![\d-])(\d{4})-(\d{2})-(\d{2})(?![\d-])/g)) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if ((month < 1 || month > 12) && day >= 1 && day <= 31) return { day: match[0], noMonth: true };
    if (month >= 1 && month <= 12 && day >= 1 && !isCalendarDay(year, month, day)) return { day: match[0], noMonth: false };
  }
  return undefined;
}

/**
 * The day next to one said before, with no day of its own: "the day after", "the next day", "the day before", "am Tag
 * danach", "tags darauf", "le lendemain", "la veille", "le jour d'après" (folded); not "the day after tomorrow", which
 * names a day ({@link readRelativeDates} reads it first).
 */
const NEXT_TO_ASKED =
  /\b(?:(?:the\s+)?(?:day\s+after|next\s+day|following\s+day)|(?:am\s+|den\s+)?tag\s+(?:danach|darauf)|tags\s+darauf|(?:le\s+)?lendemain|(?:le\s+)?jour\s+d['’]?\s*apres|(?:le\s+)?jour\s+suivant)\b|\b((?:the\s+)?day\s+before|(?:am\s+|den\s+)?tag\s+davor|(?:la\s+)?veille|(?:le\s+)?jour\s+d['’]?\s*avant)\b/;

/**
 * The day next to a day said before ("the day after then" after a move to 2026-12-12 that was denied): the words as
 * written and the days from that day (1, or -1 for "the day before"); `undefined` when the text says no such thing.
 */
export function dayNextToAsked(text: string): { readonly phrase: string; readonly days: number } | undefined {
  const match = NEXT_TO_ASKED.exec(fold(text));
  return match === null ? undefined : { phrase: text.slice(match.index, match.index + match[0].length), days: match[1] === undefined ? 1 : -1 };
}

/**
 * The name of a day the readers above do not know, after a word that says a day follows ("on Diwali", "until Chinese
 * New Year", "by Labor Day", "am Muttertag", "pour l'Aïd"; not "for", which names people too): a name written with a capital (not all capitals: "by DHL"),
 * or a word that ends as days' names do ("labor day"; in German "Muttertag", "Weinfest" only). Where it goes ("to Berlin", "nach
 * Paris") is no day. Read on a text whose known days are already dates.
 */
const UNREAD_DAY = new RegExp(
  String.raw`(?:\b(?:on|until|till|by|before|after|pour|avant|apres|après|jusqu['’]?\s*(?:a|à))\s+(?:the\s+|l['’]\s*|le\s+|la\s+)?)` +
    String.raw`((?:[A-ZÀ-Ý][a-zà-ÿ'’-]+)(?:\s+[A-ZÀ-Ý][a-zà-ÿ'’-]+){0,2}|[a-zà-ÿ'’-]*\s?(?:day|eve))\b(?!\s*\d)` +
    // "to" names a day after a verb that moves one ("move A-1007 to Hanukkah"), a place otherwise ("deliver A-1002 to Berlin").
    String.raw`|\b(?:move|postpone|push|reschedule|shift)\b[^.?!\n]*?\bto\s+(?:the\s+)?((?:[A-ZÀ-Ý][a-zà-ÿ'’-]+)(?:\s+[A-ZÀ-Ý][a-zà-ÿ'’-]+){0,2})\b(?!\s*\d)` +
    // German capitalises every noun: only a word that ends as days' names do ("am Muttertag", "auf das Weinfest").
    String.raw`|\b(?:am|bis|vor|zum|zu|auf)\s+(?:den\s+|dem\s+|das\s+)?([A-ZÄÖÜ]?[a-zäöüß]+(?:tag|fest))\b`,
);

/** The name of a day a text gives that is no day the model knows (see {@link UNREAD_DAY}); `undefined` when none. */
export function unreadDay(text: string): string | undefined {
  const match = UNREAD_DAY.exec(text);
  return (match?.[1] ?? match?.[2] ?? match?.[3])?.trim();
}

/** `date` plus `days` calendar days, both YYYY-MM-DD. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
