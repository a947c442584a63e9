/** Words that carry no intent; ignored when matching user text against tools. */
const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the is are was were be been am i me my mine you your yours we us our it its this that these those ' +
    'what whats which who whom whose when where why how please pls can could would should will shall may might ' +
    'do does did done to of in on at by for from with without about into onto over under and or but if then so ' +
    'some any all there here hi hello hey thanks thank ok okay just also too very much many tell let lets want ' +
    'need like know give s t im ive id not no nor'
  ).split(' '),
);

/** Verbs that appear in many tool names; a match on them says little about which tool is meant. */
const WEAK_VERBS: ReadonlySet<string> = new Set(
  'get set list show find fetch query search look lookup check create update change make run do read write'
    .split(' ')
    .map((word) => stem(word)),
);

/** Verbs of tool names that only read: on a tie, such a tool is the safe guess (see `pickTool`). */
const READ_VERBS: ReadonlySet<string> = new Set(
  'get list show find fetch query search look lookup check read view display count'.split(' ').map((word) => stem(word)),
);

/** Verbs of tool names that change something; a name with one of them is not a read, whatever else it says. */
const CHANGE_VERBS: ReadonlySet<string> = new Set(
  'add set put create update change make run do write delete remove clear empty send cancel move insert save reset'
    .split(' ')
    .map((word) => stem(word)),
);

/** Splits `snake_case`, `kebab-case` and `camelCase` identifiers into lower-case words. */
export function splitIdentifier(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

/** Turns an identifier into words a person would write: `orderId` → `order id`. */
export function humanize(name: string): string {
  return splitIdentifier(name).join(' ');
}

/** A light, deterministic stemmer: enough to match `orders`/`order`, `delayed`/`delay`, `changing`/`change`. */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = undouble(w.slice(0, -3));
  else if (w.length > 4 && w.endsWith('ed')) w = undouble(w.slice(0, -2));
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

function undouble(w: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(w) ? w.slice(0, -1) : w;
}

/** Someone a message goes to, not the user ("tell me the time" is no message): them, the customer, the buyer. */
const RECIPIENT = String.raw`(?:them|him|her|(?:the|my|our|their|this|that|each|every)\s+(?:customers?|buyers?|clients?|recipients?|shoppers?|purchasers?|users?|people|persons?))`;
/**
 * Phrases that say "notify" in words that are stopwords alone: "let the customer know", "tell them", "give the buyer a
 * heads-up", "keep them posted"; each becomes `notify`, which names what a tool that sends messages does.
 */
const NOTIFY_PHRASES: readonly RegExp[] = [
  /\blet\s+(?!me\b|us\b)(?:[a-z-]+\s+){1,3}?know\b/g,
  new RegExp(String.raw`\btell\s+(?=${RECIPIENT}\b)`, 'g'),
  new RegExp(String.raw`\b(?:give|send)\s+${RECIPIENT}\s+an?\s+heads?[-\s]?up\b`, 'g'),
  new RegExp(String.raw`\bkeep\s+${RECIPIENT}\s+(?:posted|informed|updated|in\s+the\s+loop)\b`, 'g'),
  // Something sent on to someone: "send it to the customer", "schick sie dem Kunden", "envoie-la au client".
  new RegExp(String.raw`\b(?:send|forward|pass)\s+(?:it|this|that|them)(?:\s+on)?\s+to\s+(?=${RECIPIENT}\b)`, 'g'),
  /\b(?:schick|sende|leite)\w*\s+(?:es|sie|ihn|das|die\s+rechnung)\s+(?:weiter\s+)?(?:an\s+)?(?=(?:dem|den|der|die)\s+kund)/g,
  /\benvoie[sz]?[-\s]+(?:la|le|les)\s+(?=(?:au|aux)\s+client)/g,
];

/**
 * Forms of a German or French word that stem to an English word of another meaning, kept apart: "reporte" (postpone)
 * is no "report".
 */
const OTHER_LANGUAGE_FORMS: Readonly<Record<string, string>> = { reporte: 'reporter', reportez: 'reporter', reportes: 'reporter' };

/** Lower-cased, stemmed content words of a text, stopwords removed, in order of appearance. */
export function contentWords(text: string): string[] {
  let said = text.toLowerCase();
  for (const phrase of NOTIFY_PHRASES) said = said.replace(phrase, ' notify ');
  // "zu spät" is late, not a clock's "wie spät": "wie viele Tage ist sie zu spät?" read the browser's time zone.
  said = said.replace(/\bzu\s+sp(?:ä|ae|a)t\b/g, ' verspatet ');
  return said
    // Accents folded (`verspätet` → `verspatet`), French elisions split (`l'heure` → `heure`), English ones joined.
    .replace(/[\u00C0-\u024F]/g, foldLetter)
    .replace(/\b(?:[cdjlmnst]|qu)['’](?=[a-z])/g, ' ')
    .replace(/['’]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1 && !STOPWORDS.has(word) && !/^\d+$/.test(word))
    .map((word) => (Object.hasOwn(OTHER_LANGUAGE_FORMS, word) ? (OTHER_LANGUAGE_FORMS[word] ?? word) : stem(word)));
}

/** Whether two stems name the same thing: equal, or one a prefix (≥ 5 letters) of the other. */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 5 && long.startsWith(short);
}

/** Whether a stem is a generic verb such as `get` or `list`. */
export function isWeakVerb(word: string): boolean {
  return WEAK_VERBS.has(word);
}

/** Whether a stem is a verb that only reads (`show`, `check`, `look`): a request it leads asks about what is. */
export function isReadVerb(word: string): boolean {
  return READ_VERBS.has(word);
}

/** Whether a tool name only reads: it has a reading verb (`list`, `get`, `query`, ...) and no changing one (`add`, `clear`, ...). */
export function isReadName(name: string): boolean {
  const words = splitIdentifier(name).map((word) => stem(word));
  return words.some((word) => READ_VERBS.has(word)) && !words.some((word) => CHANGE_VERBS.has(word));
}

/** Whether a tool name says it changes something (`update_delivery_date`, `send_email`, `cart_add`). */
export function isChangeName(name: string): boolean {
  return splitIdentifier(name).some((word) => CHANGE_VERBS.has(stem(word)));
}

/** Lower case with the diacritics of Latin letters dropped, one character for one (`Nächsten` → `nachsten`), so spans stay the text's. */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  // A letter whose lower case is two ("İ": an i and a combining dot) would move every span after it: then letter by letter, its first kept.
  const same = lower.length === text.length ? lower : text.replace(/[\s\S]/g, (letter) => letter.toLowerCase().charAt(0));
  return same.replace(/[\u00C0-\u024F]/g, foldLetter);
}

function foldLetter(letter: string): string {
  return letter.normalize('NFD').charAt(0);
}

/** Whether a year, month and day name a day of the calendar (no 31 April, no 29 February in 2027). */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
}
