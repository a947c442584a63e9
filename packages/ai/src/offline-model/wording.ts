import { type ArgumentHint, englishHint } from './extract-arguments.ts';
import { fold } from './words.ts';

/** The languages the offline model answers in: the user's, when it reads as German or French; English otherwise. */
export type Language = 'en' | 'de' | 'fr';

/**
 * Words that mark a language (folded), and none of the others: "was", "in", "des" say nothing, nor do English words
 * spelled the same ("tag", "die", "leg", "font", "ai"): one of them alone made "tag A-1002" a German request.
 */
const MARKERS: Readonly<Record<Exclude<Language, 'en'>, ReadonlySet<string>>> = {
  de: new Set(
    (
      'ist sind der das den dem und oder nicht mein meine meinen meinem meiner mir mich ich du wir wo wann wie welche welcher ' +
      'warum wieviel viel viele bitte zeig zeige auf zum zur fur mit von bis heute morgen ubermorgen gestern uhr uhrzeit spat zeit ' +
      'bestellung bestellungen warenkorb rechnung verschiebe verschieben fuge hinzu leere lege berechne rechne liefere ' +
      'nachsten nachste ein eine einen es andere losche prufe alle wetter kunde kunden habe hast gibt kommt tage tagen woche ' +
      'wochen spater fruher verlege hallo kannst kann storniere stornieren danke dankeschon lass vergiss egal schon ' +
      'zwei drei vier ersten nur reicht reichen doch lieber schreib schick schonen noch tschuss nimm raus entferne nein alles klar verstanden montag dienstag mittwoch donnerstag freitag samstag sonntag ' +
      'schreibe schicke sende ihm entschuldigung verschieb'
    ).split(' '),
  ),
  fr: new Set(
    (
      'le la les un une du de est sont et ou mon ma mes ou quelle quel quelles quels combien pourquoi je tu il elle nous vous pour ' +
      'dans au aux avec sur demain hier heure commande commandes panier facture ajoute mets vide reporte livraison retard ' +
      'fois plait moi client cliente quand montre affiche est-il quelle-heure jour jours semaine semaines tard tot ' +
      'decale reporte avance repousse deplace bonjour salut sais peux merci laisse laissez tomber oublie oubliez annule annulez ' +
      'bonne journee revoir seulement premieres plutot accord entendu compris lundi mardi mercredi jeudi vendredi samedi dimanche ' +
      'envoie envoyer envoyez ecris ecrire ecrivez lui leur excuses previens prevenir'
    ).split(' '),
  ),
};
/** English words that outweigh a German or French one written among them ("time in München"). */
const ENGLISH = new Set(
  (
    'the is are what where when how my me to of and for show order orders time please move add which why can could you it ' +
    'list all delayed late cart invoice change date tomorrow next email customer'
  ).split(' '),
);

/** The language a user's text reads as: German or French when more of its words are theirs than English, else English. */
export function detectLanguage(text: string): Language {
  const words = fold(text)
    .replace(/\b[cdjlmnst]['’]/g, ' ')
    .split(/[^a-z]+/)
    .filter((word) => word.length > 0);
  const count = (set: ReadonlySet<string>): number => words.filter((word) => set.has(word)).length;
  const en = count(ENGLISH);
  const de = count(MARKERS.de);
  const fr = count(MARKERS.fr);
  if (de > en && de > fr) return 'de';
  if (fr > en && fr > de) return 'fr';
  return 'en';
}

/** The fixed phrases of the offline model's answers in one language; tool output (values, field names) is never translated. */
export interface Wording {
  readonly language: Language;
  readonly and: string;
  readonly or: string;
  /** A request of the user's, quoted in a sentence of another language ("„benachrichtige den Kunden“"). */
  readonly quote: (request: string) => string;
  /** `"tomorrow" as 2026-11-21`. */
  readonly readAs: (phrase: string, date: string) => string;
  /** `Reading … (today is 2026-11-20 UTC).` */
  readonly reading: (read: string, today: string) => string;
  /**
   * The answer to which day a day is ("what's the date tomorrow?", "and the day after?" after a clock): `"tomorrow" is
   * 2026-11-21, a Saturday (today is 2026-11-20 UTC).`, or counted from the date a clock gave in a zone.
   */
  readonly dayIs: (phrase: string, date: string, weekday: string, from: { readonly date: string; readonly zone?: string | undefined }) => string;
  /** Today's date: in a zone a clock just read ("and the date?" after it), or today's UTC date ("welcher Tag ist heute?"). */
  readonly dateIsNow: (date: string, weekday: string, zone: string) => string;
  /** A clock's result ("world_clock" of a zone): its local time, weekday, date and offset, said as a sentence. */
  readonly clockIs: (zone: string, time: string, weekday: string, date: string, offset: string) => string;
  /** Asks for what a call still needs; holds {@link Wording.askMarker}, so the reply is read with the request. */
  readonly ask: (tool: string, needs: string) => string;
  readonly askMarker: string;
  /** A missing argument, for {@link Wording.ask}: "the new date (as YYYY-MM-DD)", "das neue Datum (als JJJJ-MM-TT)". */
  readonly argument: (label: string, hint: ArgumentHint) => string;
  /**
   * An id the user gave that the tool does not take ("Z-9999"), what its ids look like, and a question for one; with the
   * id it likely stands for ("#1002": A-1002), asked whether that is the one (see {@link Wording.suggest}).
   */
  readonly notAnId: (tool: string, given: string, label: string, hint: ArgumentHint, suggestion?: string) => string;
  /** How words that refer back ("it") were read: as the id named earlier in the conversation. */
  readonly referred: (phrase: string, id: string) => string;
  /** "and with 19% VAT?" after an invoice: the amount the rate is put on, from earlier (no word of the message refers to it). */
  readonly ratedAmount: (amount: string) => string;
  /** How a request that names no id was read: as about the one id the user's last message was about. */
  readonly fromLast: (id: string) => string;
  /** The last call made again with the values a follow-up gave ("and for A-1001?"). */
  readonly again: (tool: string, values: string) => string;
  /** "Did you mean A-1002?": the question a yes answers, read back from the answer (so its id is its only variable part). */
  readonly suggest: (id: string) => string;
  readonly onceChanged: (later: string) => string;
  readonly onceLookedUp: (later: string, several: boolean) => string;
  /** Once what a call makes is in (an invoice), the request to send it is done, saying what it holds. */
  readonly onceMade: (later: string, several: boolean) => string;
  /** A thing to make once a change is made, and to send once it is: "Once the change is made, I'll make it with …". */
  readonly onceChangedMade: (makers: string, later: string) => string;
  readonly nowDone: (requests: string, from: 'change' | 'lookup' | 'made' | 'made several', said: string) => string;
  /** A request to send what a call was to make, left undone: it failed, was denied, or gave no words to send. */
  readonly notDoneMade: (requests: string) => string;
  readonly notDoneChange: (requests: string) => string;
  /**
   * A mail asked for after a change, a lookup, a list or a call that made something (an invoice) in the message before:
   * what it says, from that result; `several` when more than one mail of that kind is said ("what they hold").
   */
  readonly toldEarlier: (tool: string, kind: 'change' | 'lookup' | 'listed' | 'made', said: string, several: boolean) => string;
  /** The subject of a mail that sends what a call made: "Your invoice for order A-1001". */
  readonly yourMade: (thing: string, record: string) => string;
  readonly notDoneLookup: (requests: string) => string;
  /** How a move by a number of days was read, before the date it moves from is looked up; `days` < 0 is earlier. */
  readonly shiftFirst: (phrase: string, days: number) => string;
  readonly shifted: (ids: string, from: string, days: number, to: string) => string;
  readonly idNotItem: (ids: string, tool: string, reader: string) => string;
  readonly removesAll: (tool: string, part: string) => string;
  /**
   * "make it 5" after 3 bananas were added, with no tool that sets how many: what the adding tool and the one that
   * empties can do instead (`more` to add, or `undefined` when fewer are wanted).
   */
  readonly setsNoAmount: (adder: string, thing: string, wanted: number, more: number | undefined, clear: string | undefined) => string;
  /** A request of a message left undone while the others are done: no tool does it, or none covers its `topic`. */
  readonly undone: (request: string, topic?: string) => string;
  // Summaries of tool results.
  readonly noResults: string;
  readonly happened: string;
  readonly withEdit: (changes: string, rest: string) => string;
  readonly finishedEmpty: (name: string) => string;
  readonly finished: (name: string) => string;
  readonly returned: (name: string, what: string) => string;
  readonly withFiles: (name: string, files: string, text: string) => string;
  readonly nonText: string;
  readonly nothing: (name: string) => string;
  readonly none: (name: string) => string;
  readonly results: (name: string, count: number, shown: string, more: number) => string;
  readonly is: (subject: string, status: string) => string;
  readonly status: (name: string, status: string) => string;
  readonly late: (days: number) => string;
  readonly details: string;
  readonly notFoundAny: (name: string) => string;
  readonly notFound: (what: string, key: string) => string;
  readonly denied: (name: string, why: string) => string;
  readonly failed: (name: string, message: string) => string;
  readonly emptyObject: string;
  readonly items: (count: number) => string;
  readonly images: (count: number) => string;
  readonly documents: (count: number) => string;
  readonly document: (name: string | undefined) => string;
  // The help text, and the answers that no tool covers a request.
  readonly helpIntro: string;
  /** A day named as the readers do not know ("on Diwali"): none is guessed. */
  readonly unknownDay: (day: string) => string;
  /** A calendar day that does not exist ("31st of February"), before the question for a date. */
  readonly noSuchDay: (day: string) => string;
  /** A date of a month that does not exist ("2026-13-01"), before the question for a date. */
  readonly noSuchMonth: (day: string, month: string) => string;
  /** A mail's sentence of what a change made: "The delivery date of your order A-1004 is now 2026-11-27." */
  readonly nowChanged: (thing: string, record: string, value: string) => string;
  /** "your order A-1002", in a mail to the one it concerns. */
  readonly your: (record: string) => string;
  /** A mail's sentence of what a lookup shows: "Your order A-1002 is delayed, delivery date 2026-12-03." */
  readonly recordIs: (subject: string, status: string, dated: string | undefined) => string;
  /** The same with no status: "The delivery date of your order A-1002 is 2026-12-03." */
  readonly dateIs: (label: string, subject: string, date: string) => string;
  /** A country read as its mainland's zone, whose other parts keep other times ("Spain": Atlantic/Canary). */
  readonly mainland: (country: string, zone: string, others: string) => string;
  /** The answer to a farewell ("have a nice day", "bye"). */
  readonly farewell: string;
  /** The answer to thanks said in leaving ("thanks, bye", "danke, tschüss"; `wished`: "thanks, have a nice day"). */
  readonly welcomeFarewell: (wished: boolean) => string;
  /** Said before the answer to a message longer than the offline model reads (`limit` of `length` characters). */
  readonly readOnly: (limit: number, length: number) => string;
  /** The answer to thanks. */
  readonly welcome: string;
  /** The answer to a message that only acknowledges ("ok", "alles klar", "d'accord"). */
  readonly noted: string;
  /** How many records the list the message before showed has ("how many?" after it), with their ids when they have them. */
  readonly listCount: (count: number, ids: string) => string;
  /** "how many items?" after a list of counted things (a cart): how many things, of how many kinds, and each count. */
  readonly thingsCount: (things: number, kinds: number, each: string) => string;
  /** "how many were checked?" after an audit: the tool, how many it checked, how many it flagged, and their ids. */
  readonly checkedCount: (tool: string, checked: number, flagged: number, ids: string) => string;
  /** "how many?" after lookups by id, not a list: what they looked up, and that they counted nothing more. */
  readonly lookedUpCount: (count: number, ids: string, tools: string) => string;
  /** "which status has the most?" after counts: the names with the most (or the fewest), their count and the total. */
  readonly mostCounted: (names: string, count: number, total: number, least: boolean) => string;
  /** A place's clock against another's: "Asia/Tokyo is 14 hours ahead (UTC+09:00)"; `minutes` 0 when they agree. */
  readonly aheadOf: (zone: string, minutes: number, offset: string) => string;
  /** "how far ahead is it?" after one clock, with no zone of the user's known: {@link aheadOf} UTC, and why UTC. */
  readonly againstUtc: (each: string) => string;
  /** The user's own time zone (the browser's), named as the one a clock is compared with. */
  readonly yourZone: (zone: string) => string;
  /** "what is the time difference?" after clocks: each one {@link aheadOf} the one furthest west (`shown`: after their results, no "no tool"). */
  readonly timesApart: (each: string, base: string, offset: string, shown: boolean) => string;
  /** "how many?" after a result that counted things (the chart): its total, what it counts, and each count it gave. */
  readonly countsShown: (tool: string, total: number, noun: string, parts: string) => string;
  /** "which one is the worst?" after records that say how late each is: the one furthest behind (or least), why, the others. */
  readonly furthestBehind: (best: string, why: string, others: string, least: boolean) => string;
  /** How late a record is, when it says so in a number of days alone (`delay_days`). */
  readonly daysLate: (days: number) => string;
  /** "which one is later?" after clocks or dates: the one whose time or date is later (or earlier; of `many`, the latest), then the others'. */
  readonly laterOf: (best: string, when: string, others: string, earlier: boolean, many: boolean) => string;
  /** "which one is higher?" after amounts (two invoices): the one whose amount is higher (or lower; of `many`, the highest), then the others'. */
  readonly higherOf: (best: string, amount: string, others: string, lower: boolean, many: boolean) => string;
  /** "which one is later?" when all of them show the same time or date. */
  readonly sameWhen: (names: string, when: string) => string;
  /** "what is the total?" after a result that showed an amount (an invoice): the tool and the amount. */
  readonly totalShown: (tool: string, amount: string) => string;
  /** "round that" after results with no number to work on (a lookup): say so, and how to give one. */
  readonly noNumberShown: (asked: string, tools: string, ids: string) => string;
  /**
   * "and with 19% VAT?" after results with no amount to put it on (a lookup): say so, and how to give one (`maker`: a tool
   * that shows a total, to ask for first).
   */
  readonly noAmountShown: (asked: string, tools: string, ids: string, rate: string, maker: string | undefined) => string;
  /** The question of the date picker "pick a delivery date for A-1003" opens. */
  readonly pickQuestion: (id: string) => string;
  /** The day picked, and the change made with it. */
  readonly picked: (day: string, tool: string, id: string) => string;
  /** "why not?" after a change whose approval was declined: the tools that did not run, and the request to ask again. */
  readonly declinedWhy: (tools: string, request: string) => string;
  /** "never mind" after a request that was not done (asked about, denied, left waiting): it stays undone. */
  readonly dismissed: (request: string) => string;
  /** "never mind" after a request that was done: nothing more is done. */
  readonly dismissedDone: string;
  readonly noTools: string;
  readonly youSaid: (text: string) => string;
  readonly noToolFound: string;
  readonly canUse: string;
  readonly howTo: string;
  readonly noTool: (topic: string) => string;
  /** The topics no tool covers (`missingTopic`'s, in English), as said in the language; as written when not listed. */
  readonly topics: Readonly<Record<string, string>>;
  readonly clockInstead: (place: string, tool: string) => string;
  /** No tool lists all of a thing (`every`: asked as "every order"), and what exists instead. */
  readonly listsNone: (every: boolean, thing: string, offers: string) => string;
  readonly unknownPlace: (place: string, tool: string) => string;
  /** A place read as the city it is a typo of ("new yrok": New York). */
  readonly placeReadAs: (place: string, city: string) => string;
  /** A country of several time zones ("the USA"): which one is meant is not known; cities of it to ask about instead. */
  readonly severalZones: (country: string, cities: string, tool: string) => string;
  /** Maths a calculator of arithmetic cannot do ("factorial"), and what it can (its description's own words, after it). */
  readonly otherMaths: (maths: string, tool: string, can: string) => string;
  /** The words a record's noun or a field's name is said in ("order" → "Bestellung"); as written when not listed. */
  readonly nouns: Readonly<Record<string, string>>;
}

/** The arguments people are asked for most, by their name in words, as the object of "I still need" in German and French. */
const ARGUMENTS_DE: Readonly<Record<string, string>> = {
  'new date': 'das neue Datum',
  date: 'das Datum',
  'order id': 'die Bestellnummer',
  id: 'die ID',
  expression: 'die Rechnung',
  'time zone': 'die Zeitzone',
  name: 'den Namen',
  subject: 'den Betreff',
  body: 'den Text',
  to: 'den Empfänger',
};
const ARGUMENTS_FR: Readonly<Record<string, string>> = {
  'new date': 'la nouvelle date',
  date: 'la date',
  'order id': 'le numéro de commande',
  id: "l'identifiant",
  expression: 'le calcul',
  'time zone': 'le fuseau horaire',
  name: 'le nom',
  subject: "l'objet",
  body: 'le texte',
  to: 'le destinataire',
};

/** What ids look like, from a hint: its examples ("A-1001"), else its pattern. */
const looks = (hint: ArgumentHint, or: string): string =>
  hint.kind !== 'id' ? '' : hint.examples.length > 0 ? hint.examples.join(` ${or} `) : (hint.pattern ?? hint.examples.join(` ${or} `));

/** A table's own entry for a key (a tool's argument name may be `constructor`). */
const ownOf = (table: Readonly<Record<string, string>>, key: string): string | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);

/** A hint in another language; a tool's own description is the tool's words, quoted as written. */
function localHint(hint: ArgumentHint, words: { readonly date: string; readonly email: string; readonly example: string; readonly or: string; readonly oneOf: string }): string {
  switch (hint.kind) {
    case 'id':
      return hint.examples.length > 0 ? ` (${words.example} ${hint.examples.join(` ${words.or} `)})` : ` (${hint.pattern ?? ''})`;
    case 'date':
      return ` (${words.date})`;
    case 'email':
      return ` (${words.email})`;
    case 'timezone':
      return ` (${words.example} Europe/Paris)`;
    case 'enum':
      return ` (${words.oneOf} ${hint.values.join(', ')})`;
    case 'described':
      return ` (${hint.description})`;
    default:
      return '';
  }
}

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;
/**
 * Minutes as hours and the minutes left: "14 hours", "5 hours 30 minutes", "1 Stunde 45 Minuten", and "15 minutes"
 * alone under an hour (Kathmandu against Kolkata: it said "0 hours 15 minutes").
 */
const hoursOf = (minutes: number, one: string, many: string, mins: string): string => {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60 === 0 ? '' : `${minutes % 60} ${mins}`;
  return hours === 0 ? rest : `${plural(hours, one, many)}${rest === '' ? '' : ` ${rest}`}`;
};
const shiftEn = (days: number): string => `${plural(Math.abs(days), 'day', 'days')} ${days < 0 ? 'earlier' : 'later'}`;
const shiftDe = (days: number): string => `${plural(Math.abs(days), 'Tag', 'Tage')} ${days < 0 ? 'früher' : 'später'}`;
const shiftFr = (days: number): string => `${plural(Math.abs(days), 'jour', 'jours')} ${days < 0 ? 'plus tôt' : 'plus tard'}`;

const EN: Wording = {
  language: 'en',
  and: 'and',
  or: 'or',
  quote: (request) => request,
  readAs: (phrase, date) => `"${phrase}" as ${date}`,
  reading: (read, today) => `Reading ${read} (today is ${today} UTC).`,
  dateIsNow: (date, weekday, zone) => `In ${zone} it is ${date}, a ${weekday}. No tool was needed for that.`,
  clockIs: (zone, time, weekday, date, offset) => `In ${zone} it is ${time} on ${weekday}, ${date}${offset === '' ? '' : ` (UTC${offset})`}.`,
  dayIs: (phrase, date, weekday, from) =>
    `"${phrase}" is ${date}, a ${weekday} (${from.zone === undefined ? `today is ${from.date} UTC` : `from ${from.date} in ${from.zone}`}). No tool was needed for that.`,
  askMarker: 'I still need',
  argument: (label, hint) => `the ${label}${englishHint(hint)}`,
  notAnId: (tool, given, label, hint, suggestion) =>
    `I can do that with ${tool}, but "${given}" is not ${/^[aeiou]/i.test(label) ? 'an' : 'a'} ${label} it takes: ${label}s look like ${looks(hint, 'or')}. ` +
    (suggestion === undefined ? `I still need the ${label}; could you check it?` : `${EN.suggest(suggestion)} If not, I still need the ${label}.`),
  suggest: (id) => `Did you mean ${id}?`,
  referred: (phrase, id) => `Reading "${phrase}" as ${id}, from earlier in our conversation.`,
  ratedAmount: (amount) => `Putting it on ${amount}, from earlier in our conversation.`,
  fromLast: (id) => `Reading this as about ${id}, as your last message was.`,
  again: (tool, values) => `As before with ${tool}, now with ${values}.`,
  ask: (tool, needs) => `I can do that with ${tool}, but I still need ${needs}. Could you tell me?`,
  onceChanged: (later) => `Once the change is made, I'll ${later}, saying what changed.`,
  onceLookedUp: (later, several) => `Once I have looked ${several ? 'them' : 'it'} up, I'll ${later}, saying what ${several ? 'they show' : 'it shows'}.`,
  onceMade: (later, several) => `Once ${several ? 'they are' : 'it is'} made, I'll ${later}, saying what ${several ? 'they hold' : 'it holds'}.`,
  onceChangedMade: (makers, later) => `Once the change is made, I'll make it with ${makers}, then ${later}, saying what it holds, so it is up to date.`,
  nowDone: (requests, from, said) =>
    `As you asked, I now ${requests}, saying ${{ change: 'what changed', lookup: 'what the lookup shows', made: 'what it holds', 'made several': 'what they hold' }[from]}: ${said}`,
  notDoneMade: (requests) => `I did not ${requests}: there was nothing made to send.`,
  toldEarlier: (tool, kind, said, several) =>
    `Using ${tool}, I say ${{ change: 'what changed', lookup: 'what the lookup showed', listed: 'what the list showed', made: several ? 'what they hold' : 'what it holds' }[kind]}: ${said}`,
  yourMade: (thing, record) => `Your ${thing} for ${record}`,
  notDoneChange: (requests) => `I did not ${requests}: the change was not made, so there is nothing new to say.`,
  notDoneLookup: (requests) => `I did not ${requests}: the lookup gave nothing to tell them.`,
  shiftFirst: (phrase, days) => `Reading "${phrase}" as ${shiftEn(days)} than the date it has now, which I look up first.`,
  shifted: (ids, from, days, to) => `${ids} is due ${from}; ${shiftEn(days)} is ${to}`,
  idNotItem: (ids, tool, reader) => `${ids} is an id, not an item for ${tool}: I look it up with ${reader} first; then tell me which of its items to add.`,
  setsNoAmount: (adder, thing, wanted, more, clear) => {
    const ways = [more === undefined ? '' : `add ${more} more to make ${wanted}`, clear === undefined ? '' : `empty the cart with ${clear} (all of it) and add ${wanted} again`];
    const can = ways.filter((way) => way.length > 0).join(', or ');
    const ask = ways.every((way) => way.length > 0) ? ': tell me which.' : ', if you want that.';
    return `No tool sets how many "${thing}" the cart holds (${adder} only adds), so I left it as it is.${can.length > 0 ? ` I can ${can}${ask}` : ''}`;
  },
  removesAll: (tool, part) =>
    `${tool} removes everything at once, and no tool removes just "${part}", so I left it as it is. Ask me to empty it all if that is what you want.`,
  undone: (request, topic) =>
    `I did not do "${request}": ${topic === undefined ? 'none of my tools does that' : `I have no tool for ${topic}`}.`,
  noResults: 'There were no tool results to report.',
  happened: 'Here is what happened:',
  withEdit: (changes, rest) => `With your edit (${changes}): ${rest}`,
  finishedEmpty: (name) => `${name} finished without output.`,
  finished: (name) => `${name} finished.`,
  returned: (name, what) => `${name} returned ${what}`,
  withFiles: (name, files, text) => `${name} (with ${files}): ${text}`,
  nonText: 'non-text content',
  nothing: (name) => `${name} returned nothing.`,
  none: (name) => `${name} returned no results.`,
  results: (name, count, shown, more) => `${name} returned ${plural(count, 'result', 'results')}: ${shown}${more > 0 ? `; and ${more} more` : ''}`,
  is: (subject, status) => `${subject} is ${status}`,
  status: (name, status) => `${name} returned status ${status}`,
  late: (days) => ` (${plural(days, 'day', 'days')} late)`,
  details: 'Details:',
  notFoundAny: (name) => `I couldn't find anything with ${name}. Could you check the details you gave?`,
  notFound: (what, key) => `I couldn't find ${what}. Could you check the ${key}?`,
  denied: (name, why) => `${name} was not run because the request was denied${why}, so the action was not performed.`,
  failed: (name, message) => `The tool failed: ${name} reported "${message}".`,
  emptyObject: 'an empty object',
  items: (count) => plural(count, 'item', 'items'),
  images: (count) => (count === 1 ? 'an image' : `${count} images`),
  documents: (count) => `${count} documents`,
  document: (name) => (name === undefined ? 'a document' : `the document ${name}`),
  welcome: "You're welcome. Anything else?",
  noted: 'OK. Anything else?',
  listCount: (count, ids) => `The list showed ${count}${ids.length > 0 ? `: ${ids}` : ''}. No tool was needed for that.`,
  thingsCount: (things, kinds, each) => `That is ${things} items in all${kinds > 1 ? `, of ${kinds} kinds` : ''}: ${each}. No tool was needed for that.`,
  checkedCount: (tool, checked, flagged, ids) =>
    `${tool} checked ${checked} and flagged ${flagged}${ids === '' ? '' : ` (${ids})`}. No tool was needed for that.`,
  lookedUpCount: (count, ids, tools) =>
    `That was a lookup by id, not a list: it showed ${count} (${ids}, with ${tools}), and nothing more was counted. No tool was needed for that.`,
  mostCounted: (names, count, total, least) => `${names} ${least ? 'has the fewest' : 'has the most'}: ${count} of ${total}. No tool was needed for that.`,
  aheadOf: (zone, minutes, offset) =>
    `${zone} ${minutes === 0 ? 'keeps the same time' : `is ${hoursOf(Math.abs(minutes), 'hour', 'hours', 'minutes')} ${minutes < 0 ? 'behind' : 'ahead'}`} (${offset})`,
  againstUtc: (each) => `Against UTC, ${each}: I do not know your own time zone, so I compared with UTC. No tool was needed for that.`,
  yourZone: (zone) => `your time zone ${zone}`,
  timesApart: (each, base, offset, shown) => `Against ${base} (${offset}), ${each}.${shown ? '' : ' No tool was needed for that.'}`,
  countsShown: (tool, total, noun, parts) => `${tool} counted ${total}${noun === '' ? '' : ` ${noun}`} in all: ${parts}. No tool was needed for that.`,
  furthestBehind: (best, why, others, least) =>
    `${best} is ${least ? 'the least behind' : 'the furthest behind'} (${why})${others === '' ? '' : `; ${others}`}. No tool was needed for that.`,
  daysLate: (days) => plural(days, 'day late', 'days late'),
  laterOf: (best, when, others, earlier, many) =>
    `${best} is ${many ? (earlier ? 'the earliest' : 'the latest') : earlier ? 'earlier' : 'later'}: ${when}, against ${others}. No tool was needed for that.`,
  higherOf: (best, amount, others, lower, many) =>
    `The total of ${best} is ${many ? (lower ? 'the lowest' : 'the highest') : lower ? 'lower' : 'higher'}: ${amount}, against ${others}. No tool was needed for that.`,
  sameWhen: (names, when) => `${names} show the same: ${when}. No tool was needed for that.`,
  totalShown: (tool, amount) => `${tool} showed a total of ${amount}. No tool was needed for that.`,
  noNumberShown: (asked, tools, ids) =>
    `What ${tools} showed for ${ids} has no number that "${asked}" could work on (it gives a status and dates). ` +
    'Give me the number, as in "round 3.14159 to 2 digits".',
  noAmountShown: (asked, tools, ids, rate, maker) =>
    `What ${tools} showed for ${ids} has no amount that "${asked}" could be put on (it gives a status and dates). ` +
    `${maker === undefined ? 'Give' : `${maker} shows a total: ask me for it first, or give`} me the amount, as in "120 with ${rate}%".`,
  pickQuestion: (id) => `Which date suits you for ${id}?`,
  picked: (day, tool, id) => `You picked ${day}: ${tool} now sets it for ${id}.`,
  declinedWhy: (tools, request) =>
    `${tools} did not run because its approval was declined, so nothing was changed. To have it done after all, ask again ("${request}") and approve it.`,
  farewell: 'Thank you, you too. Goodbye!',
  welcomeFarewell: (wished) => `You're welcome${wished ? ', and you too' : ''}. Goodbye!`,
  readOnly: (limit, length) => `(The offline model read the first ${limit.toLocaleString('en-US')} of your message's ${length.toLocaleString('en-US')} characters.)`,
  mainland: (country, zone, others) => `Reading "${country}" as its mainland time (${zone}); other parts of it keep another time (${others}).`,
  your: (record) => `your ${record}`,
  nowChanged: (thing, record, value) => `The ${thing} of your ${record} is now ${value}.`,
  recordIs: (subject, status, dated) => `${subject.charAt(0).toUpperCase()}${subject.slice(1)} is ${status}${dated === undefined ? '' : `, ${dated}`}.`,
  dateIs: (label, subject, date) => `The ${label} of ${subject} is ${date}.`,
  unknownDay: (day) => `I don't know which day "${day}" is, so I did not guess one.`,
  noSuchDay: (day) => `"${day}" does not exist: that month has fewer days.`,
  noSuchMonth: (day, month) => `"${day}" is not a date: a year has 12 months, and there is no month ${month}.`,
  dismissed: (request) => `OK, I left "${request}" undone: nothing was changed.`,
  dismissedDone: "OK, I'll leave it there. Anything else?",
  helpIntro: "I'm the offline model: a small rule-based stand-in that runs without an API key.",
  noTools: 'No tools are available in this conversation, so I can only chat in a limited way.',
  youSaid: (text) => `You said: "${text}".`,
  noToolFound: 'I did not find a tool for that.',
  canUse: 'I can use these tools:',
  howTo: 'Ask in plain words, or type /tool_name {"arg": "value"} to call one directly.',
  noTool: (topic) => `I have no tool for ${topic}, so I can't answer that.`,
  topics: {},
  clockInstead: (place, tool) => ` I can tell you the local time in ${place} with ${tool}, if that helps.`,
  listsNone: (every, thing, offers) => `No tool lists ${every ? 'every' : 'all'} ${thing}. What I can do instead: ${offers}.`,
  placeReadAs: (place, city) => `Reading "${place}" as ${city}.`,
  unknownPlace: (place, tool) =>
    `I don't know where "${place}" is, so I can't tell its time. Name a city I know (such as Tokyo, New York or Berlin) or an IANA time zone (such as Europe/Paris) and I'll ask ${tool}.`,
  severalZones: (country, cities, tool) =>
    `${country} has several time zones, so I can't tell which time you mean. Name a city there (such as ${cities}) and I'll ask ${tool}.`,
  otherMaths: (maths, tool, can) => `I have no tool for that ("${maths}"): ${tool} only works out arithmetic.${can.length > 0 ? ` ${can}` : ''}`,
  nouns: {},
};

const DE: Wording = {
  language: 'de',
  and: 'und',
  or: 'oder',
  quote: (request) => `„${request}“`,
  readAs: (phrase, date) => `„${phrase}“ als ${date}`,
  reading: (read, today) => `Ich lese ${read} (heute ist ${today} UTC).`,
  dateIsNow: (date, weekday, zone) => `In ${zone} ist heute der ${date}, ein ${weekday}. Dafür brauchte ich kein Werkzeug.`,
  clockIs: (zone, time, weekday, date, offset) => `In ${zone} ist es ${time} Uhr am ${weekday}, dem ${date}${offset === '' ? '' : ` (UTC${offset})`}.`,
  dayIs: (phrase, date, weekday, from) =>
    `„${phrase}“ ist der ${date}, ein ${weekday} (${from.zone === undefined ? `heute ist ${from.date} UTC` : `ab ${from.date} in ${from.zone}`}). Dafür brauchte ich kein Werkzeug.`,
  askMarker: 'brauche ich noch',
  argument: (label, hint) =>
    `${ownOf(ARGUMENTS_DE, label) ?? `„${label}“`}${localHint(hint, { date: 'als JJJJ-MM-TT', email: 'eine E-Mail-Adresse', example: 'zum Beispiel', or: 'oder', oneOf: 'eins von' })}`,
  notAnId: (tool, given, label, hint, suggestion) =>
    `Das geht mit ${tool}, aber „${given}“ hat nicht die Form, die es annimmt (so sieht sie aus: ${looks(hint, 'oder')})` +
    (suggestion === undefined
      ? `; dafür brauche ich noch ${ownOf(ARGUMENTS_DE, label) ?? `„${label}“`}. Kannst du es prüfen?`
      : `. ${DE.suggest(suggestion)} Wenn nicht, brauche ich noch ${ownOf(ARGUMENTS_DE, label) ?? `„${label}“`}.`),
  suggest: (id) => `Meinst du ${id}?`,
  referred: (phrase, id) => `Ich lese „${phrase}“ als ${id} aus unserem Gespräch.`,
  ratedAmount: (amount) => `Ich rechne es auf ${amount} aus unserem Gespräch.`,
  fromLast: (id) => `Ich beziehe das auf ${id}, wie deine letzte Nachricht.`,
  again: (tool, values) => `Wie zuvor mit ${tool}, jetzt mit ${values}.`,
  ask: (tool, needs) => `Das geht mit ${tool}, aber dafür brauche ich noch ${needs}. Kannst du es mir sagen?`,
  onceChanged: (later) => `Sobald die Änderung gemacht ist, erledige ich ${later} und sage, was sich geändert hat.`,
  onceLookedUp: (later) => `Sobald ich nachgesehen habe, erledige ich ${later} und sage, was sich zeigt.`,
  onceMade: (later, several) => `Sobald ${several ? 'sie erstellt sind' : 'es erstellt ist'}, erledige ich ${later} und sage, was ${several ? 'in ihnen' : 'darin'} steht.`,
  onceChangedMade: (makers, later) =>
    `Sobald die Änderung gemacht ist, erstelle ich es mit ${makers} und erledige dann ${later} und sage, was darin steht, damit es aktuell ist.`,
  nowDone: (requests, from, said) =>
    `Wie gewünscht erledige ich jetzt ${requests} und sage, ${{ change: 'was sich geändert hat', lookup: 'was sich zeigt', made: 'was darin steht', 'made several': 'was in ihnen steht' }[from]}: ${said}`,
  notDoneMade: (requests) => `${requests} habe ich nicht erledigt: Es wurde nichts erstellt, was ich schicken könnte.`,
  toldEarlier: (tool, kind, said, several) =>
    `Mit ${tool} sage ich, ${{ change: 'was sich geändert hat', lookup: 'was das Nachsehen gezeigt hat', listed: 'was die Liste gezeigt hat', made: several ? 'was in ihnen steht' : 'was darin steht' }[kind]}: ${said}`,
  yourMade: (thing, record) => `Ihre ${thing} für ${record}`,
  notDoneChange: (requests) => `${requests} habe ich nicht erledigt: Die Änderung wurde nicht gemacht, es gibt also nichts Neues zu sagen.`,
  notDoneLookup: (requests) => `${requests} habe ich nicht erledigt: Beim Nachsehen fand sich nichts, was ich sagen könnte.`,
  shiftFirst: (phrase, days) => `Ich lese „${phrase}“ als ${shiftDe(days)} als das Datum, das sie jetzt hat; das sehe ich zuerst nach.`,
  shifted: (ids, from, days, to) => `${ids} ist für ${from} geplant; ${shiftDe(days)} ist das ${to}`,
  idNotItem: (ids, tool, reader) =>
    `${ids} ist eine ID, kein Artikel für ${tool}: Ich sehe sie zuerst mit ${reader} nach; dann sag mir, welche ihrer Artikel ich hinzufügen soll.`,
  setsNoAmount: (adder, thing, wanted, more, clear) => {
    const ways = [more === undefined ? '' : `${more} dazulegen (dann sind es ${wanted})`, clear === undefined ? '' : `den Warenkorb mit ${clear} ganz leeren und ${wanted} neu hineinlegen`];
    const can = ways.filter((way) => way.length > 0).join(' oder ');
    const ask = ways.every((way) => way.length > 0) ? ': Sag mir, was dir lieber ist.' : ', wenn du willst.';
    return `Kein Werkzeug legt fest, wie viele „${thing}“ im Warenkorb sind (${adder} fügt nur hinzu), also habe ich nichts geändert.${can.length > 0 ? ` Ich kann ${can}${ask}` : ''}`;
  },
  removesAll: (tool, part) =>
    `${tool} entfernt alles auf einmal, und kein Werkzeug entfernt nur „${part}“, also habe ich alles gelassen, wie es ist. Sag mir, wenn ich alles leeren soll.`,
  undone: (request, topic) => `„${request}“ habe ich nicht erledigt: ${topic === undefined ? 'Das kann keines meiner Werkzeuge' : `Ich habe kein Werkzeug für ${topic}`}.`,
  noResults: 'Es gab keine Ergebnisse von Werkzeugen.',
  happened: 'Das ist passiert:',
  withEdit: (changes, rest) => `Mit deiner Änderung (${changes}): ${rest}`,
  finishedEmpty: (name) => `${name} ist ohne Ausgabe fertig.`,
  finished: (name) => `${name} ist fertig.`,
  returned: (name, what) => `${name} lieferte ${what}`,
  withFiles: (name, files, text) => `${name} (mit ${files}): ${text}`,
  nonText: 'Inhalt, der kein Text ist',
  nothing: (name) => `${name} lieferte nichts.`,
  none: (name) => `${name} lieferte keine Ergebnisse.`,
  results: (name, count, shown, more) => `${name} lieferte ${plural(count, 'Ergebnis', 'Ergebnisse')}: ${shown}${more > 0 ? `; und ${more} weitere` : ''}`,
  is: (subject, status) => `${subject} ist ${status}`,
  status: (name, status) => `${name} lieferte den Status ${status}`,
  late: (days) => ` (${plural(days, 'Tag', 'Tage')} Verspätung)`,
  details: 'Details:',
  notFoundAny: (name) => `Ich habe mit ${name} nichts gefunden. Kannst du deine Angaben prüfen?`,
  notFound: (what, key) => `Ich habe ${what} nicht gefunden. Kannst du ${key === 'id' ? 'die ID' : key} prüfen?`,
  denied: (name, why) => `${name} wurde nicht ausgeführt, weil die Anfrage abgelehnt wurde${why}; es ist also nichts geschehen.`,
  failed: (name, message) => `Das Werkzeug ist fehlgeschlagen: ${name} meldete „${message}“.`,
  emptyObject: 'ein leeres Objekt',
  items: (count) => plural(count, 'Eintrag', 'Einträge'),
  images: (count) => (count === 1 ? 'einem Bild' : `${count} Bildern`),
  documents: (count) => `${count} Dokumenten`,
  document: (name) => (name === undefined ? 'einem Dokument' : `dem Dokument ${name}`),
  welcome: 'Gern geschehen. Noch etwas?',
  noted: 'Gut. Noch etwas?',
  thingsCount: (things, kinds, each) => `Das sind ${things} Stück${kinds > 1 ? ` in ${kinds} Sorten` : ''}: ${each}. Dafür brauchte ich kein Werkzeug.`,
  checkedCount: (tool, checked, flagged, ids) =>
    `${tool} hat ${checked} geprüft und ${flagged} markiert${ids === '' ? '' : ` (${ids})`}. Dafür brauchte ich kein Werkzeug.`,
  listCount: (count, ids) => `Die Liste zeigte ${count}${ids.length > 0 ? `: ${ids}` : ''}. Dafür brauchte ich kein Werkzeug.`,
  lookedUpCount: (count, ids, tools) =>
    `Das war eine Abfrage nach Nummer, keine Liste: Sie zeigte ${count} (${ids}, mit ${tools}), mehr wurde nicht gezählt. Dafür brauchte ich kein Werkzeug.`,
  mostCounted: (names, count, total, least) => `${names} ${least ? 'hat die wenigsten' : 'hat die meisten'}: ${count} von ${total}. Dafür brauchte ich kein Werkzeug.`,
  aheadOf: (zone, minutes, offset) =>
    `${zone} ist ${minutes === 0 ? 'gleich spät' : `${hoursOf(Math.abs(minutes), 'Stunde', 'Stunden', 'Minuten')} ${minutes < 0 ? 'zurück' : 'voraus'}`} (${offset})`,
  againstUtc: (each) => `Gegenüber UTC: ${each}. Deine eigene Zeitzone kenne ich nicht, darum habe ich mit UTC verglichen. Dafür brauchte ich kein Werkzeug.`,
  yourZone: (zone) => `deiner Zeitzone ${zone}`,
  timesApart: (each, base, offset, shown) => `Gegenüber ${base} (${offset}): ${each}.${shown ? '' : ' Dafür brauchte ich kein Werkzeug.'}`,
  countsShown: (tool, total, _noun, parts) => `${tool} zählte insgesamt ${total}: ${parts}. Dafür brauchte ich kein Werkzeug.`,
  furthestBehind: (best, why, others, least) =>
    `${best} ist ${least ? 'am wenigsten' : 'am weitesten'} im Verzug (${why})${others === '' ? '' : `; ${others}`}. Dafür brauchte ich kein Werkzeug.`,
  daysLate: (days) => plural(days, 'Tag zu spät', 'Tage zu spät'),
  laterOf: (best, when, others, earlier, many) =>
    `${best} ist ${many ? (earlier ? 'am frühesten' : 'am spätesten') : earlier ? 'früher' : 'später'}: ${when}, gegenüber ${others}. Dafür brauchte ich kein Werkzeug.`,
  higherOf: (best, amount, others, lower, many) =>
    `Die Summe von ${best} ist ${many ? (lower ? 'am niedrigsten' : 'am höchsten') : lower ? 'niedriger' : 'höher'}: ${amount}, gegenüber ${others}. Dafür brauchte ich kein Werkzeug.`,
  sameWhen: (names, when) => `${names} zeigen dasselbe: ${when}. Dafür brauchte ich kein Werkzeug.`,
  totalShown: (tool, amount) => `${tool} zeigte eine Summe von ${amount}. Dafür brauchte ich kein Werkzeug.`,
  noNumberShown: (asked, tools, ids) =>
    `Was ${tools} für ${ids} zeigte, hat keine Zahl, mit der „${asked}“ rechnen könnte (es nennt einen Status und Daten). ` +
    'Nenne mir die Zahl, etwa „runde 3,14159 auf 2 Stellen“.',
  noAmountShown: (asked, tools, ids, rate, maker) =>
    `Was ${tools} für ${ids} zeigte, hat keinen Betrag, auf den „${asked}“ käme (es nennt einen Status und Daten). ` +
    `${maker === undefined ? 'Nenne' : `${maker} zeigt eine Summe: Frag mich zuerst danach, oder nenne`} mir den Betrag, etwa „120 mit ${rate} %“.`,
  pickQuestion: (id) => `Welches Datum passt dir für ${id}?`,
  picked: (day, tool, id) => `Du hast ${day} gewählt: ${tool} setzt es jetzt für ${id}.`,
  declinedWhy: (tools, request) =>
    `${tools} lief nicht, weil die Freigabe abgelehnt wurde; es wurde also nichts geändert. Soll es doch geschehen, frag noch einmal („${request}“) und gib es frei.`,
  farewell: 'Danke, gleichfalls. Auf Wiedersehen!',
  welcomeFarewell: (wished) => `Gern geschehen${wished ? ', gleichfalls' : ''}. Auf Wiedersehen!`,
  readOnly: (limit, length) => `(Das Offline-Modell hat die ersten ${limit.toLocaleString('de-DE')} der ${length.toLocaleString('de-DE')} Zeichen Ihrer Nachricht gelesen.)`,
  mainland: (country, zone, others) => `Ich lese „${country}“ als die Zeit des Festlands (${zone}); andere Landesteile haben eine andere Uhrzeit (${others}).`,
  your: (record) => `Ihre ${record}`,
  nowChanged: (thing, record, value) => `Neues ${thing} für Ihre ${record}: ${value}.`,
  recordIs: (subject, status, dated) => `${subject.charAt(0).toUpperCase()}${subject.slice(1)} ist ${status}${dated === undefined ? '' : `, ${dated}`}.`,
  dateIs: (label, subject, date) => `${label} für ${subject}: ${date}.`,
  unknownDay: (day) => `Ich weiß nicht, welcher Tag „${day}“ ist, also rate ich keinen.`,
  noSuchDay: (day) => `„${day}“ gibt es nicht: Der Monat hat weniger Tage.`,
  noSuchMonth: (day, month) => `„${day}“ ist kein Datum: Ein Jahr hat 12 Monate, einen Monat ${month} gibt es nicht.`,
  dismissed: (request) => `Gut, ich lasse „${request}“ sein: Es wurde nichts geändert.`,
  dismissedDone: 'Gut, dann lasse ich es dabei. Noch etwas?',
  helpIntro: 'Ich bin das Offline-Modell: ein kleiner regelbasierter Ersatz, der ohne API-Schlüssel läuft.',
  noTools: 'In diesem Gespräch gibt es keine Werkzeuge, also kann ich nur eingeschränkt antworten.',
  youSaid: (text) => `Du hast geschrieben: „${text}“.`,
  noToolFound: 'Dafür habe ich kein Werkzeug gefunden.',
  canUse: 'Diese Werkzeuge kann ich verwenden:',
  howTo: 'Frag in einfachen Worten, oder tippe /tool_name {"arg": "value"}, um eines direkt aufzurufen.',
  noTool: (topic) => `Ich habe kein Werkzeug für ${topic}, also kann ich das nicht beantworten.`,
  topics: {
    'the weather': 'das Wetter',
    'cancelling orders': 'das Stornieren von Bestellungen',
    refunds: 'Rückerstattungen',
    'deleting things': 'das Löschen',
    'notes on orders': 'Notizen zu Bestellungen',
    'changing a status': 'das Ändern eines Status',
    'converting currencies': 'das Umrechnen von Währungen',
  },
  clockInstead: (place, tool) => ` Ich kann dir mit ${tool} die Ortszeit in ${place} sagen, wenn das hilft.`,
  listsNone: (every, thing, offers) => `Kein Werkzeug listet ${every ? 'jede' : 'alle'} ${thing} auf. Stattdessen habe ich: ${offers}.`,
  placeReadAs: (place, city) => `Ich lese „${place}“ als ${city}.`,
  unknownPlace: (place, tool) =>
    `Ich weiß nicht, wo „${place}“ liegt, also kann ich die Uhrzeit dort nicht sagen. Nenne eine Stadt, die ich kenne (etwa Tokio, New York oder Berlin), oder eine IANA-Zeitzone (etwa Europe/Paris), dann frage ich ${tool}.`,
  severalZones: (country, cities, tool) =>
    `${country} hat mehrere Zeitzonen, also weiß ich nicht, welche Uhrzeit du meinst. Nenne eine Stadt dort (etwa ${cities}), dann frage ich ${tool}.`,
  otherMaths: (maths, tool, can) => `Dafür habe ich kein Werkzeug („${maths}“): ${tool} rechnet nur Arithmetik aus.${can.length > 0 ? ` ${can}` : ''}`,
  nouns: { order: 'Bestellung', invoice: 'Rechnung', 'delivery date': 'Lieferdatum', item: 'Artikel', cart: 'Warenkorb' },
};

const FR: Wording = {
  language: 'fr',
  and: 'et',
  or: 'ou',
  quote: (request) => `« ${request} »`,
  readAs: (phrase, date) => `« ${phrase} » comme le ${date}`,
  reading: (read, today) => `Je lis ${read} (nous sommes le ${today} UTC).`,
  dateIsNow: (date, weekday, zone) => `${zone === 'UTC' ? 'En UTC' : `À ${zone}`}, nous sommes le ${date}, un ${weekday}. Je n'ai eu besoin d'aucun outil pour cela.`,
  clockIs: (zone, time, weekday, date, offset) => `À ${zone}, il est ${time}, le ${weekday} ${date}${offset === '' ? '' : ` (UTC${offset})`}.`,
  dayIs: (phrase, date, weekday, from) =>
    `« ${phrase} » est le ${date}, un ${weekday} (${from.zone === undefined ? `nous sommes le ${from.date} UTC` : `à partir du ${from.date} à ${from.zone}`}). Je n'ai eu besoin d'aucun outil pour cela.`,
  askMarker: 'il me manque encore',
  argument: (label, hint) =>
    `${ownOf(ARGUMENTS_FR, label) ?? `« ${label} »`}${localHint(hint, { date: 'au format AAAA-MM-JJ', email: 'une adresse e-mail', example: 'par exemple', or: 'ou', oneOf: 'parmi' })}`,
  notAnId: (tool, given, label, hint, suggestion) =>
    `Je peux le faire avec ${tool}, mais « ${given} » n'a pas la forme qu'il accepte (qui ressemble à ${looks(hint, 'ou')})` +
    (suggestion === undefined
      ? ` ; il me manque encore ${ownOf(ARGUMENTS_FR, label) ?? `« ${label} »`}. Pouvez-vous le vérifier ?`
      : `. ${FR.suggest(suggestion)} Sinon, il me manque encore ${ownOf(ARGUMENTS_FR, label) ?? `« ${label} »`}.`),
  suggest: (id) => `Vouliez-vous dire ${id} ?`,
  referred: (phrase, id) => `Je lis « ${phrase} » comme ${id}, dont nous avons parlé.`,
  ratedAmount: (amount) => `Je l'applique à ${amount}, dont nous avons parlé.`,
  fromLast: (id) => `Je l'applique à ${id}, comme votre dernier message.`,
  again: (tool, values) => `Comme avant avec ${tool}, cette fois avec ${values}.`,
  ask: (tool, needs) => `Je peux le faire avec ${tool}, mais il me manque encore ${needs}. Pouvez-vous me le dire ?`,
  onceChanged: (later) => `Une fois la modification faite, je m'occupe de ${later}, en disant ce qui a changé.`,
  onceLookedUp: (later) => `Une fois la recherche faite, je m'occupe de ${later}, en disant ce qu'elle montre.`,
  onceMade: (later, several) =>
    `Une fois ${several ? 'les documents faits' : 'le document fait'}, je m'occupe de ${later}, en disant ce qu'${several ? 'ils contiennent' : 'il contient'}.`,
  onceChangedMade: (makers, later) =>
    `Une fois la modification faite, je fais le document avec ${makers}, puis je m'occupe de ${later}, en disant ce qu'il contient, pour qu'il soit à jour.`,
  nowDone: (requests, from, said) =>
    `Comme demandé, je m'occupe maintenant de ${requests}, en disant ${{ change: 'ce qui a changé', lookup: 'ce que montre la recherche', made: "ce qu'il contient", 'made several': "ce qu'ils contiennent" }[from]} : ${said}`,
  notDoneMade: (requests) => `Je ne me suis pas occupé de ${requests} : rien n'a été fait à envoyer.`,
  toldEarlier: (tool, kind, said, several) =>
    `Avec ${tool}, je dis ${{ change: 'ce qui a changé', lookup: 'ce que la recherche a montré', listed: 'ce que la liste a montré', made: several ? "ce qu'elles contiennent" : "ce qu'elle contient" }[kind]} : ${said}`,
  yourMade: (thing, record) => `Votre ${thing.replace(/^(?:la|le|les)\s+|^l['’]/i, '')} pour ${record}`,
  notDoneChange: (requests) => `Je ne me suis pas occupé de ${requests} : la modification n'a pas été faite, il n'y a donc rien de nouveau à dire.`,
  notDoneLookup: (requests) => `Je ne me suis pas occupé de ${requests} : la recherche n'a rien donné à dire.`,
  shiftFirst: (phrase, days) => `Je lis « ${phrase} » comme ${shiftFr(days)} que la date qu'elle a maintenant, que je cherche d'abord.`,
  shifted: (ids, from, days, to) => `${ids} est prévue le ${from} ; ${shiftFr(days)}, cela donne le ${to}`,
  idNotItem: (ids, tool, reader) =>
    `${ids} est un identifiant, pas un article pour ${tool} : je le cherche d'abord avec ${reader} ; dites-moi ensuite lesquels de ses articles ajouter.`,
  setsNoAmount: (adder, thing, wanted, more, clear) => {
    const ways = [more === undefined ? '' : `en ajouter ${more} pour arriver à ${wanted}`, clear === undefined ? '' : `vider tout le panier avec ${clear} et en remettre ${wanted}`];
    const can = ways.filter((way) => way.length > 0).join(', ou ');
    const ask = ways.every((way) => way.length > 0) ? ' : dites-moi ce que vous préférez.' : ', si vous le voulez.';
    return `Aucun outil ne fixe combien de « ${thing} » contient le panier (${adder} ne fait qu'ajouter), donc je n'ai rien changé.${can.length > 0 ? ` Je peux ${can}${ask}` : ''}`;
  },
  removesAll: (tool, part) =>
    `${tool} retire tout d'un coup, et aucun outil ne retire seulement « ${part} », donc je n'ai rien changé. Demandez-moi de tout vider si c'est ce que vous voulez.`,
  undone: (request, topic) =>
    `Je n'ai pas fait « ${request} » : ${topic === undefined ? "aucun de mes outils ne le fait" : `je n'ai pas d'outil pour ${topic}`}.`,
  noResults: "Aucun outil n'a renvoyé de résultat.",
  happened: "Voici ce qui s'est passé :",
  withEdit: (changes, rest) => `Avec votre modification (${changes}) : ${rest}`,
  finishedEmpty: (name) => `${name} s'est terminé sans rien renvoyer.`,
  finished: (name) => `${name} est terminé.`,
  returned: (name, what) => `${name} a renvoyé ${what}`,
  withFiles: (name, files, text) => `${name} (avec ${files}) : ${text}`,
  nonText: 'un contenu non textuel',
  nothing: (name) => `${name} n'a rien renvoyé.`,
  none: (name) => `${name} n'a renvoyé aucun résultat.`,
  results: (name, count, shown, more) => `${name} a renvoyé ${plural(count, 'résultat', 'résultats')} : ${shown}${more > 0 ? ` ; et ${more} de plus` : ''}`,
  is: (subject, status) => `${subject} est ${status}`,
  status: (name, status) => `${name} a renvoyé le statut ${status}`,
  late: (days) => ` (${plural(days, 'jour', 'jours')} de retard)`,
  details: 'Détails :',
  notFoundAny: (name) => `Je n'ai rien trouvé avec ${name}. Pouvez-vous vérifier vos indications ?`,
  notFound: (what, key) => `Je n'ai pas trouvé ${what}. Pouvez-vous vérifier ${key === 'id' ? "l'identifiant" : key} ?`,
  denied: (name, why) => `${name} n'a pas été exécuté car la demande a été refusée${why} ; rien n'a donc été fait.`,
  failed: (name, message) => `L'outil a échoué : ${name} a signalé « ${message} ».`,
  emptyObject: 'un objet vide',
  items: (count) => plural(count, 'élément', 'éléments'),
  images: (count) => (count === 1 ? 'une image' : `${count} images`),
  documents: (count) => `${count} documents`,
  document: (name) => (name === undefined ? 'un document' : `le document ${name}`),
  welcome: 'Je vous en prie. Autre chose ?',
  noted: "D'accord. Autre chose ?",
  thingsCount: (things, kinds, each) => `Cela fait ${things} articles en tout${kinds > 1 ? `, de ${kinds} sortes` : ''} : ${each}. Je n'ai eu besoin d'aucun outil pour cela.`,
  checkedCount: (tool, checked, flagged, ids) =>
    `${tool} en a vérifié ${checked} et en a signalé ${flagged}${ids === '' ? '' : ` (${ids})`}. Je n'ai eu besoin d'aucun outil pour cela.`,
  listCount: (count, ids) => `La liste en montrait ${count}${ids.length > 0 ? ` : ${ids}` : ''}. Je n'ai eu besoin d'aucun outil pour cela.`,
  lookedUpCount: (count, ids, tools) =>
    `C'était une recherche par identifiant, pas une liste : elle en montrait ${count} (${ids}, avec ${tools}), rien de plus n'a été compté. Je n'ai eu besoin d'aucun outil pour cela.`,
  mostCounted: (names, count, total, least) => `${names} ${least ? 'en a le moins' : 'en a le plus'} : ${count} sur ${total}. Je n'ai eu besoin d'aucun outil pour cela.`,
  aheadOf: (zone, minutes, offset) =>
    `${zone} ${minutes === 0 ? 'a la même heure' : `a ${hoursOf(Math.abs(minutes), 'heure', 'heures', 'minutes')} ${minutes < 0 ? 'de retard' : "d'avance"}`} (${offset})`,
  againstUtc: (each) => `Par rapport à UTC, ${each} : je ne connais pas votre fuseau horaire, j'ai donc comparé avec UTC. Je n'ai eu besoin d'aucun outil pour cela.`,
  yourZone: (zone) => `votre fuseau horaire ${zone}`,
  timesApart: (each, base, offset, shown) => `Par rapport à ${base} (${offset}), ${each}.${shown ? '' : " Je n'ai eu besoin d'aucun outil pour cela."}`,
  countsShown: (tool, total, _noun, parts) => `${tool} en comptait ${total} en tout : ${parts}. Je n'ai eu besoin d'aucun outil pour cela.`,
  furthestBehind: (best, why, others, least) =>
    `${best} a ${least ? 'le moins' : 'le plus'} de retard (${why})${others === '' ? '' : ` ; ${others}`}. Je n'ai eu besoin d'aucun outil pour cela.`,
  daysLate: (days) => plural(days, 'jour de retard', 'jours de retard'),
  laterOf: (best, when, others, earlier, many) =>
    `${best} est ${many ? 'le ' : ''}${earlier ? 'plus tôt' : 'plus tard'} : ${when}, contre ${others}. Je n'ai eu besoin d'aucun outil pour cela.`,
  higherOf: (best, amount, others, lower, many) =>
    `Le total de ${best} est ${many ? (lower ? 'le plus bas' : 'le plus élevé') : lower ? 'plus bas' : 'plus élevé'} : ${amount}, contre ${others}. Je n'ai eu besoin d'aucun outil pour cela.`,
  sameWhen: (names, when) => `${names} indiquent la même chose : ${when}. Je n'ai eu besoin d'aucun outil pour cela.`,
  totalShown: (tool, amount) => `${tool} indiquait un total de ${amount}. Je n'ai eu besoin d'aucun outil pour cela.`,
  noNumberShown: (asked, tools, ids) =>
    `Ce que ${tools} a montré pour ${ids} n'a aucun nombre sur lequel « ${asked} » pourrait porter (un statut et des dates). ` +
    'Donne-moi le nombre, par exemple « arrondis 3,14159 à 2 décimales ».',
  noAmountShown: (asked, tools, ids, rate, maker) =>
    `Ce que ${tools} a montré pour ${ids} n'a aucun montant auquel « ${asked} » pourrait s'appliquer (un statut et des dates). ` +
    `${maker === undefined ? 'Donne' : `${maker} indique un total : demande-le-moi d'abord, ou donne`}-moi le montant, par exemple « 120 avec ${rate} % ».`,
  pickQuestion: (id) => `Quelle date vous convient pour ${id} ?`,
  picked: (day, tool, id) => `Vous avez choisi le ${day} : ${tool} l'applique maintenant à ${id}.`,
  declinedWhy: (tools, request) =>
    `${tools} n'a pas été exécuté car son approbation a été refusée : rien n'a été modifié. Pour le faire malgré tout, redemandez-le (« ${request} ») et approuvez-le.`,
  farewell: 'Merci, vous aussi. Au revoir !',
  welcomeFarewell: (wished) => `Je vous en prie${wished ? ', vous aussi' : ''}. Au revoir !`,
  readOnly: (limit, length) => `(Le modèle hors ligne a lu les ${limit.toLocaleString('fr-FR')} premiers des ${length.toLocaleString('fr-FR')} caractères de votre message.)`,
  mainland: (country, zone, others) => `Je lis « ${country} » comme l'heure de la métropole (${zone}) ; d'autres parties du pays ont une autre heure (${others}).`,
  your: (record) => `votre ${record}`,
  nowChanged: (thing, record, value) => `Nouvelle ${thing} pour votre ${record} : ${value}.`,
  recordIs: (subject, status, dated) => `${subject.charAt(0).toUpperCase()}${subject.slice(1)} est ${status}${dated === undefined ? '' : `, ${dated}`}.`,
  dateIs: (label, subject, date) => `${label.charAt(0).toUpperCase()}${label.slice(1)} de ${subject} : ${date}.`,
  unknownDay: (day) => `Je ne sais pas quel jour est « ${day} », je n'en devine donc aucun.`,
  noSuchDay: (day) => `« ${day} » n'existe pas : ce mois a moins de jours.`,
  noSuchMonth: (day, month) => `« ${day} » n'est pas une date : une année a 12 mois, il n'y a pas de mois ${month}.`,
  dismissed: (request) => `D'accord, je laisse « ${request} » de côté : rien n'a été modifié.`,
  dismissedDone: "D'accord, j'en reste là. Autre chose ?",
  helpIntro: "Je suis le modèle hors ligne : un petit substitut à base de règles qui fonctionne sans clé d'API.",
  noTools: "Aucun outil n'est disponible dans cette conversation, je ne peux donc discuter que de façon limitée.",
  youSaid: (text) => `Vous avez écrit : « ${text} ».`,
  noToolFound: "Je n'ai pas trouvé d'outil pour cela.",
  canUse: 'Je peux utiliser ces outils :',
  howTo: 'Demandez en langage courant, ou tapez /tool_name {"arg": "value"} pour en appeler un directement.',
  noTool: (topic) => `Je n'ai pas d'outil pour ${topic}, je ne peux donc pas répondre.`,
  topics: {
    'the weather': 'la météo',
    'cancelling orders': "l'annulation de commandes",
    refunds: 'les remboursements',
    'deleting things': 'la suppression',
    'notes on orders': 'les notes sur les commandes',
    'changing a status': 'le changement de statut',
    'converting currencies': 'la conversion de devises',
  },
  clockInstead: (place, tool) => ` Je peux vous donner l'heure locale à ${place} avec ${tool}, si cela aide.`,
  listsNone: (every, thing, offers) => `Aucun outil ne liste ${every ? 'chaque' : "l'ensemble des"} ${thing}. À la place, je peux utiliser : ${offers}.`,
  placeReadAs: (place, city) => `Je lis « ${place} » comme ${city}.`,
  unknownPlace: (place, tool) =>
    `Je ne sais pas où se trouve « ${place} », je ne peux donc pas donner son heure. Nommez une ville que je connais (comme Tokyo, New York ou Berlin) ou un fuseau horaire IANA (comme Europe/Paris) et je demanderai à ${tool}.`,
  severalZones: (country, cities, tool) =>
    `${country} a plusieurs fuseaux horaires, je ne sais donc pas quelle heure vous voulez. Nommez une ville (comme ${cities}) et je demanderai à ${tool}.`,
  otherMaths: (maths, tool, can) => `Je n'ai pas d'outil pour cela (« ${maths} ») : ${tool} ne fait que de l'arithmétique.${can.length > 0 ? ` ${can}` : ''}`,
  nouns: { order: 'la commande', invoice: 'la facture', 'delivery date': 'date de livraison', item: "l'article", cart: 'le panier' },
};

/** The fixed phrases of each language. */
export const WORDINGS: Readonly<Record<Language, Wording>> = { en: EN, de: DE, fr: FR };

/** The wording for a user's text (see {@link detectLanguage}). */
export function wordingFor(text: string): Wording {
  return WORDINGS[detectLanguage(text)];
}

/** A noun or a field's name in the wording's language, as written when its table does not list it. */
export function nounIn(wording: Wording, noun: string): string {
  return Object.hasOwn(wording.nouns, noun) ? (wording.nouns[noun] ?? noun) : noun;
}
