import { addsCountedItem, extractArguments, hasDate, valueArguments, withoutExpressions, withoutMessage } from './extract-arguments.ts';
import { unreadDay } from './relative-dates.ts';
import { findTimeZones } from './time-zones.ts';
import { contentWords, fold, isChangeName, isReadName, isReadVerb, isWeakVerb, sameWord, splitIdentifier, stem } from './words.ts';

/** The part of a function tool the offline model looks at. */
export interface OfflineToolInfo {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema?: unknown;
}

/** How well one tool matches a text. */
export interface ToolScore {
  readonly tool: OfflineToolInfo;
  readonly score: number;
}

/** A text must score at least this much against a tool before the offline model calls it. */
export const MIN_TOOL_SCORE = 2;

/** A few everyday words mapped to the words a tool name is likely to use (stemmed once, at load). */
const SYNONYM_SOURCE: Readonly<Record<string, readonly string[]>> = {
  mail: ['email'],
  compute: ['calculate'],
  math: ['calculate'],
  sum: ['calculate'],
  plus: ['calculate'],
  minus: ['calculate'],
  multiply: ['calculate'],
  divide: ['calculate'],
  late: ['delay'],
  clock: ['time'],
  // "what is the tiem in tokyo": a word of four letters is too short for `isTypoOf`, and this one is typed often.
  tiem: ['time'],
  hour: ['time'],
  day: ['time'],
  temperature: ['weather'],
  forecast: ['weather'],
  rain: ['weather'],
  ship: ['delivery'],
  shipment: ['delivery'],
  purchase: ['order'],
  reschedule: ['change', 'date'],
  put: ['add'],
  place: ['add'],
  insert: ['add'],
  buy: ['add', 'cart'],
  basket: ['cart'],
  empty: ['clear'],
  delete: ['clear'],
  erase: ['clear'],
  postpone: ['change', 'date'],
  push: ['change', 'date'],
  move: ['change', 'date'],
  notify: ['email'],
  inform: ['email'],
  benachrichtig: ['email'],
  bescheid: ['email'],
  preven: ['email'],
  previen: ['email'],
  buyer: ['customer'],
  shopper: ['customer'],
  purchaser: ['customer'],
  contact: ['email'],
  today: ['time'],
  // German and French words for what the demo's tools do (accents folded, as `contentWords` gives them).
  bestellung: ['order'],
  auftrag: ['order'],
  commande: ['order'],
  rechnung: ['invoice'],
  facture: ['invoice'],
  verspatet: ['delay'],
  verspatung: ['delay'],
  retard: ['delay'],
  lieferung: ['delivery'],
  lieferdatum: ['delivery', 'date'],
  livraison: ['delivery'],
  verschieb: ['change', 'date'],
  verleg: ['change', 'date'],
  reporter: ['change', 'date'],
  decale: ['change', 'date'],
  repousse: ['change', 'date'],
  deplace: ['change', 'date'],
  avance: ['change', 'date'],
  uhrzeit: ['time'],
  uhr: ['time'],
  zeit: ['time'],
  spat: ['time'],
  heure: ['time'],
  hora: ['time'],
  zeitzone: ['time', 'zone'],
  timezone: ['time', 'zone'],
  fuseau: ['time', 'zone'],
  diagramm: ['chart'],
  graphique: ['chart'],
  warenkorb: ['cart'],
  panier: ['cart'],
  fuge: ['add'],
  fug: ['add'],
  hinzu: ['add'],
  dazu: ['add'],
  lege: ['add'],
  ajoute: ['add'],
  mets: ['add'],
  leere: ['clear'],
  leeren: ['clear'],
  vide: ['clear'],
  vider: ['clear'],
  berechn: ['calculate'],
  rechne: ['calculate'],
  calcul: ['calculate'],
  kunde: ['customer'],
  kunden: ['customer'],
  // Writing to someone is a mail ("Schreib dem Kunden …", "Écris au client …"); the English "write" is too weak a word.
  schreib: ['email'],
  ecri: ['email'],
  ecrir: ['email'],
  ecriv: ['email'],
  client: ['customer'],
  // "prüfe", "überprüfe", "vérifie" are "check": "die offenen Bestellungen" reach the audit (its description says "checked"),
  // "A-1002" its lookup, "mon panier" the cart; "prüfe A-1002" reached the audit, "vérifie …" asked for an order id.
  prufe: ['check'],
  uberpruf: ['check'],
  verifi: ['check'],
  offen: ['open'],
  ouvert: ['open'],
  rapport: ['report'],
  bericht: ['report'],
};

const SYNONYMS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries(SYNONYM_SOURCE).map(([key, values]) => [stem(key), values.map((value) => stem(value))]),
);

/** A word's synonyms: its own, else those of a key of at least 5 letters it starts with (`bestellungen`, `verschiebe`). */
function synonymsOf(word: string): readonly string[] {
  const own = SYNONYMS.get(word);
  if (own !== undefined) return own;
  for (const [key, values] of SYNONYMS) if (key.length >= 5 && word.startsWith(key)) return values;
  return [];
}

/** The German and French words the synonyms read as `noun` ("order": "bestellung", "auftrag", "commande"), folded. */
export function wordsFor(noun: string): string[] {
  const target = stem(noun);
  return Object.entries(SYNONYM_SOURCE).flatMap(([word, values]) => (values.length === 1 && values[0] === noun && word !== target && word.length >= 5 ? [word] : []));
}

/** What a value in the text that fills one of a tool's arguments adds (see `valueArguments`). */
const VALUE_ARGUMENT_SCORE = 3;

/**
 * Scores every tool against the text: a content word that matches a word of the tool's name counts 3
 * (1 for generic verbs such as `get`), one that matches a description word counts 1. A value in the text that only
 * one kind of argument takes (`valueArguments`) counts 3 more, once per kind of value. A time zone's or an
 * expression's argument name words count as the tool's: "what time is it in Tokyo" is for a tool with a time zone
 * argument, not one that reads the user's own zone. An expression counts alone (`2+2`), and so does an id that the
 * argument's pattern accepts ("Wo ist Bestellung A-1002?"); a message only beside a word of the tool's; a city, a
 * date or a price only beside a word of the tool's or such an id (a city may be about the weather there, a date about
 * any day): "Move A-1003 to 2027-01-10" is for the tool that takes both, "add 2 coffee beans for 12.50 each" for the
 * one that adds at a price.
 */
export function scoreTools(text: string, tools: readonly OfflineToolInfo[]): readonly ToolScore[] {
  // A message's reading scores one text several times (each of its requests by `pickTool`, then `pickAdder` when that
  // finds none; every request once for `partialRequests` and again for `callsPerRequest`): once per tool set is enough.
  let byText = SCORES.get(tools);
  if (byText === undefined) {
    byText = new Map();
    SCORES.set(tools, byText);
  }
  const known = byText.get(text);
  if (known !== undefined) return known;
  const scores = scoreToolsOnce(text, tools);
  byText.set(text, scores);
  return scores;
}

/**
 * The scores of {@link scoreTools} by tool set (a call's, gone with it) and text. A model call scores a few hundred
 * texts at most: its message is read up to 2,000 characters.
 */
const SCORES = new WeakMap<readonly OfflineToolInfo[], Map<string, readonly ToolScore[]>>();

/** The words of a tool's name (stemmed) and of its description, read once per tool, not once per text scored. */
const TOOL_WORDS = new WeakMap<OfflineToolInfo, { readonly name: readonly string[]; readonly description: ReadonlySet<string> }>();

function toolWords(tool: OfflineToolInfo): { readonly name: readonly string[]; readonly description: ReadonlySet<string> } {
  let words = TOOL_WORDS.get(tool);
  if (words === undefined) {
    words = { name: splitIdentifier(tool.name).map((word) => stem(word)), description: new Set(contentWords(tool.description ?? '')) };
    TOOL_WORDS.set(tool, words);
  }
  return words;
}

function scoreToolsOnce(text: string, tools: readonly OfflineToolInfo[]): readonly ToolScore[] {
  // The words of a place or a sum are values, not what the text asks for: "Berlin" in a clock's description
  // ("Europe/Berlin") is no match for "What's the weather in Berlin?", nor "times" in "12 times 7" one for a clock.
  const said = withoutMessage(text);
  // "times 3" is a product, not a time, and "how many days" a count of them, not a date.
  const valueFree = withoutExpressions(withoutZones(said))
    .replace(/\btimes(?=\s+\d)/gi, '     ')
    .replace(/(?<=\bhow\s+many\s+)(?:days|weeks|hours)\b/gi, (unit) => ' '.repeat(unit.length));
  // A day the model does not know is a day all the same ("Liefere A-1002 am Schützenfest" moves the delivery, and the
  // answer asks for its date): what is said beside one is read as beside a date.
  const words = expand(contentWords(valueFree), namesDay(said));
  // A message that is only a place ("Tokio", "in Berlin?") asks for its time: no other word says what else.
  const placeOnly = words.length === 0 && findTimeZones(text).length > 0;
  return tools.map((tool) => {
    // A message is a value; what else it holds (a day, a place) is what is to be said.
    const values = [
      ...valueArguments(said, tool.inputSchema).filter((value) => value.kind !== 'message'),
      ...valueArguments(text, tool.inputSchema).filter((value) => value.kind === 'message'),
    ];
    const named = values.filter((value) => value.kind === 'timezone' || value.kind === 'expression');
    const own = toolWords(tool);
    const nameWords = [...own.name, ...named.flatMap((value) => splitIdentifier(value.name)).map((word) => stem(word))];
    const descriptionWords = own.description;
    let score = 0;
    for (const word of words) {
      const inName = nameWords.find((nameWord) => sameWord(word, nameWord)) ?? nameWords.find((nameWord) => isTypoOf(word, nameWord));
      if (inName !== undefined) score += isWeakVerb(inName) ? 1 : 3;
      for (const descriptionWord of descriptionWords) {
        if (sameWord(word, descriptionWord)) {
          score += 1;
          break;
        }
      }
    }
    // One value is one piece of evidence, however many arguments take it (`pick_date`'s `min` and `max`).
    const kinds = new Set(values.map((value) => value.kind));
    // A message only beside a word of the tool's: any text may have a colon ("add a note to A-1003: fragile" is no mail).
    if (kinds.has('message') && score > 0) score += VALUE_ARGUMENT_SCORE;
    for (const kind of ['expression', 'id'] as const) if (kinds.has(kind)) score += VALUE_ARGUMENT_SCORE;
    const beside = score > 0 || placeOnly;
    for (const kind of ['timezone', 'date', 'price'] as const) if (kinds.has(kind) && beside) score += VALUE_ARGUMENT_SCORE;
    return { tool, score };
  });
}

/**
 * Whether a word (stems of five letters and six or more) is a tool name's word typed with two letters swapped or one left out
 * ("invocie", "invoce" for `invoice`): the name's word is what the text most likely meant then.
 */
function isTypoOf(word: string, nameWord: string): boolean {
  if (Math.min(word.length, nameWord.length) < 5 || Math.max(word.length, nameWord.length) < 6 || word === nameWord) return false;
  if (word.length === nameWord.length) {
    const at = [...word].findIndex((letter, i) => letter !== nameWord[i]);
    return at >= 0 && word[at] === nameWord[at + 1] && word[at + 1] === nameWord[at] && word.slice(at + 2) === nameWord.slice(at + 2);
  }
  const [short, long] = word.length < nameWord.length ? [word, nameWord] : [nameWord, word];
  if (long.length - short.length !== 1) return false;
  const at = [...short].findIndex((letter, i) => letter !== long[i]);
  return at < 0 || short.slice(at) === long.slice(at + 1);
}

/**
 * The best-scoring tool above {@link MIN_TOOL_SCORE}. A tie means the text named what it is about (`cart`) but no
 * action that sets one tool apart, as in "show my cart" or "what's in my cart": a tool that only reads
 * (`cart_list`) wins over one that changes something (`cart_add`, `cart_clear`), since guessing wrong must not
 * change anything. Remaining ties go to the tool listed first.
 */
export function pickTool(text: string, tools: readonly OfflineToolInfo[]): OfflineToolInfo | undefined {
  const scores = scoreTools(text, tools).filter((candidate) => candidate.score >= MIN_TOOL_SCORE);
  let best = bestOf(scores, leadsWith(text));
  // A question, or a request led by a verb that reads ("show the delivery date of A-1002"), that does not give what a
  // change needs asks about the present ("When is A-1002 delivered?", "What's the delivery date of A-1002?"): the best
  // tool that only reads answers it, instead of a change asking for a new date.
  const asksWhatIs = isQuestion(text) || leadsWithReadVerb(text);
  if (best !== undefined && isChangeName(best.name) && asksWhatIs && extractArguments(text, best.inputSchema).missing.length > 0) {
    best = bestOf(scores.filter((candidate) => isReadName(candidate.tool.name))) ?? bestOf(scores.filter((candidate) => !isChangeName(candidate.tool.name))) ?? best;
  }
  // A change is made only for a text that names what it changes, not for its verb alone: "add a discount to A-1006"
  // is no request for cart_add (the answer says what the tools can do instead). A tool whose thing the text names
  // answers it instead: "send an invoice for A-1001" is for order_invoice, not a mail with no message.
  if (best !== undefined && isChangeName(best.name) && !namesTarget(text, best)) {
    const changed = best;
    return bestOf(scores.filter((candidate) => candidate.tool !== changed && namesThing(text, candidate.tool)));
  }
  // "Why are orders late?", "summarize the delays", "ask the analyst …": a request for an analysis goes to the tool that
  // analyses or reports (an analyst agent), not to the list it would read; about one record ("why is A-1002 late?") only
  // when the text names the analysis itself.
  const analysis = asksForAnalysis(text);
  if (best !== undefined && analysis !== undefined && (analysis.named || !scores.some((candidate) => takesId(text, candidate.tool)))) {
    best = bestOf(scores.filter((candidate) => analyses(candidate.tool))) ?? best;
  }
  // "How late is A-1002?": a list of late orders reads no id; the tool that reads the one the text names answers it.
  if (best !== undefined && isReadName(best.name) && !takesId(text, best)) {
    const byId = scores.filter((candidate) => isReadName(candidate.tool.name) && takesId(text, candidate.tool));
    best = bestOf(byId) ?? best;
  }
  return best;
}

/**
 * For a whole message that {@link pickTool} finds no tool for and that is only an adding verb, a count and a thing
 * ("add 2 coffee beans", "add 3 apples and 2 bananas"): the tool that adds such things, as nothing else is named. For a
 * part of a message, when the text `before` it names what the tool adds to ("clear my cart and add 3 apples"), or when
 * the text `after` it does not say where things are added ("where is A-1002 and add 2 mugs"): "add 2 mugs and a
 * notebook to my cart" is one request.
 */
export function pickAdder(text: string, tools: readonly OfflineToolInfo[], before?: string, after?: string): OfflineToolInfo | undefined {
  const adders = scoreTools(text, tools).filter(
    (candidate) =>
      candidate.score >= MIN_TOOL_SCORE &&
      isChangeName(candidate.tool.name) &&
      addsCountedItem(text, candidate.tool.inputSchema) &&
      (before === undefined || namesThing(before, candidate.tool) || (after !== undefined && !namesPlaceFor(after, candidate.tool))),
  );
  return bestOf(adders);
}

/** A word that says where something goes: "to my cart", "into the basket", "in den Warenkorb", "au panier", "dans mon panier". */
const TO_PLACE = /\b(?:to|into|in|onto|on|zum|zur|in\s+(?:den|die|das|meinen|meine)|au|dans|sur)\s+(?:(?:the|my|our|your|a|den|die|das|meinen|meine|le|la|mon|ma|notre|votre)\s+)?([a-z]+)/g;

/**
 * Whether a text says that what is added goes to the tool's thing ("… a notebook to my cart"): then a request of adding
 * before it is the start of the same list, not a request of its own.
 */
function namesPlaceFor(text: string, tool: OfflineToolInfo): boolean {
  return [...fold(text).matchAll(TO_PLACE)].some((match) => namesThing(match[1] ?? '', tool));
}

/** Asking why, or for a summary or an analysis, in English, German or French; `named` when the analysis is named itself. */
const ANALYSIS_ASK = /\b(?:(analy[sz]\w*|summar\w*|zusammenfass\w*|fasse?\b[^.?!\n]*\bzusammen|resume[rz]?)|why|warum|wieso|pourquoi|explain\w*|erklar\w*|expliqu\w*)\b/;

function asksForAnalysis(text: string): { readonly named: boolean } | undefined {
  const match = ANALYSIS_ASK.exec(fold(withoutMessage(text)));
  return match === null ? undefined : { named: match[1] !== undefined };
}

/**
 * Whether a tool analyses or reports: its name says so (`delay_analyst`, `sales_report`), or its description names an
 * analysis or a report it writes ("writes a short report"; not "reports its progress", nor a result's "short summary").
 */
function analyses(tool: OfflineToolInfo): boolean {
  return /\b(?:analy[sz]\w*|reports?|summar\w*|review\w*)\b/i.test(splitIdentifier(tool.name).join(' ')) || /\b(?:analys[ie]s|report)\b/i.test(tool.description ?? '');
}

/**
 * Whether the text names what a tool changes: a word of its name that is not a verb ("cart" of `cart_add`, "date" of
 * `update_delivery_date`, "email"), or a synonym of one ("basket", "postpone"), or a value only such an argument takes
 * (a date, a message, a sum, a time zone; a price with what it is the price of). An id names no target: tools that
 * read an order take it too; nor does a price alone ("add 5 EUR to A-1006" adds no item).
 */
function namesTarget(text: string, tool: OfflineToolInfo): boolean {
  if (namesThing(text, tool)) return true;
  const kinds = valueArguments(text, tool.inputSchema).map((value) => value.kind);
  return kinds.some((kind) => kind !== 'id' && kind !== 'price') || (kinds.includes('price') && extractArguments(text, tool.inputSchema).missing.length === 0);
}

/** Whether the text has a word of the tool's name that is not a verb ("invoice" of `order_invoice`), or a synonym of one. */
function namesThing(text: string, tool: OfflineToolInfo): boolean {
  const words = expand(contentWords(withoutExpressions(withoutZones(text))), namesDay(text));
  const targets = splitIdentifier(tool.name)
    .filter((word) => !isChangeName(word) && !isWeakVerb(stem(word)))
    .map((word) => stem(word));
  return words.some((word) => targets.some((target) => sameWord(word, target)));
}

/** Whether the text holds an id that one of the tool's id arguments takes. */
function takesId(text: string, tool: OfflineToolInfo): boolean {
  return valueArguments(text, tool.inputSchema).some((value) => value.kind === 'id');
}

/** The text with its time zones and known cities blanked out (same length). */
function withoutZones(text: string): string {
  let out = text;
  for (const zone of findTimeZones(text)) out = `${out.slice(0, zone.start)}${' '.repeat(zone.end - zone.start)}${out.slice(zone.end)}`;
  return out;
}

/** One request of a message that makes several, and where it ends in the message. */
export interface MessageRequest {
  readonly text: string;
  readonly end: number;
}

/** Verbs that lead a request of their own after a comma ("clear my cart, add 3 apples"), in English, German and French. */
const LEADING_VERB =
  'add|show|list|move|clear|empty|email|mail|send|tell|check|find|look|give|put|buy|remove|delete|postpone|push|change|update|cancel|book|calculate|' +
  'f[üu]ge|zeig|leere|verschieb|schick|schreib|berechne|ajoute|montre|vide|reporte|envoie|[ée]cris|calcule';
/**
 * Words that lead an example of what was just asked, no request of its own: "can you make it earlier? like the 1st of
 * December", "say Friday", "maybe the 3rd", "etwa am Freitag", "genre vendredi" (the example made the change no call).
 */
const EXAMPLE_LEAD =
  String.raw`like|say|maybe|perhaps|e\.?g\.?|for\s+example|for\s+instance|preferably|ideally|etwa|vielleicht|sagen\s+wir|zum\s+Beispiel|z\.\s?B\.|am\s+liebsten|genre|disons|peut-[eê]tre|par\s+exemple|id[ée]alement|de\s+pr[ée]f[ée]rence`;

/**
 * Where one request of a message ends and the next begins: "and", "then", "also", "und", "et", "puis", `;`, `?`, `. `,
 * and a comma before a verb that leads a request ("clear my cart, add 3 apples"; not "add milk, eggs and bread").
 */
const REQUEST_BREAK = new RegExp(
  String.raw`\s*(?:[;\n]|[.?!](?=\s)(?!\s+(?:${EXAMPLE_LEAD})\b)|,\s*(?=(?:${LEADING_VERB})\w*\s)|,?\s+\b(?:and(?:\s+then)?|then|also|und(?:\s+dann)?|dann|et(?:\s+puis)?|puis)\b)\s*`,
  'gi',
);

/**
 * The requests of a message that may make several ("Where is A-1002 and what time is it in Tokyo?"), in order; a
 * message of one request is one. The caller decides whether each is a request of its own (see `planReply`).
 */
export function splitRequests(text: string): MessageRequest[] {
  const requests: MessageRequest[] = [];
  let start = 0;
  const push = (end: number): void => {
    // A break may leave the next one's word at its start ("…; et puis …"): it is no part of the request.
    const piece = text.slice(start, end).trim().replace(/^(?:(?:and|then|also|und|dann|et|puis)\b\s*)+/i, '');
    if (/[A-Za-z\u00C0-\u024F0-9]/.test(piece)) requests.push({ text: piece, end });
  };
  for (const match of text.matchAll(REQUEST_BREAK)) {
    push(match.index);
    start = match.index + match[0].length;
  }
  push(text.length);
  return requests;
}

/**
 * Topics people ask a demo about that need a tool of their own, by the (folded) word beginnings that name them. A
 * topic that is an action on a thing (`thing`) is covered only by the tool the text is for, whose words name the action
 * (or `alike`: "clear" deletes too): `cart_clear` ("Remove every item from the user's shopping cart") covers "delete
 * my cart", not "remove order A-1006".
 */
const TOPICS: ReadonlyArray<{ readonly topic: string; readonly beginnings: readonly string[]; readonly thing?: true; readonly alike?: readonly string[] }> = [
  { topic: 'the weather', beginnings: ['weather', 'forecast', 'temperatur', 'rain', 'snow', 'wetter', 'meteo', 'pluie'] },
  { topic: 'cancelling orders', beginnings: ['cancel', 'stornier', 'storno', 'annul'] },
  { topic: 'refunds', beginnings: ['refund', 'erstatt', 'rembours'] },
  // "how much is that in dollars?" after an invoice: no tool knows exchange rates (it made the invoice again).
  { topic: 'converting currencies', beginnings: ['dollar', 'currenc', 'exchang', 'wechselkurs', 'wahrung', 'devise', 'umrechn', 'convert'] },
  { topic: 'deleting things', beginnings: ['delet', 'remov', 'erase', 'losch', 'supprim', 'efface', 'entfern'], thing: true, alike: ['clear', 'empty'] },
  // A note sent to someone is a message: "send a note to the customer of A-1002" is for a tool that sends one.
  { topic: 'notes on orders', beginnings: ['note', 'notiz', 'vermerk', 'kommentar', 'annot'], thing: true, alike: ['email', 'messag', 'send'] },
];

/**
 * The topic the text asks about that no tool's name or description names ("the weather" for "What's the weather in
 * Berlin?" when no tool mentions weather, rain or a forecast), so the answer can say so instead of calling the tool
 * nearest in words; `undefined` when the text names none, or a tool covers it.
 */
export function missingTopic(text: string, tools: readonly OfflineToolInfo[]): string | undefined {
  if (setsStatus(text) && !tools.some(takesStatus)) return 'changing a status';
  const words = fold(text).split(/[^a-z]+/);
  const wordsOf = (tool: OfflineToolInfo): string[] => [...splitIdentifier(tool.name), ...fold(tool.description ?? '').split(/[^a-z]+/)];
  const toolWords = tools.flatMap(wordsOf);
  let forText: string[] | undefined;
  for (const { topic, beginnings, thing, alike = [] } of TOPICS) {
    const names = (list: readonly string[]) => (word: string) =>
      list.some((beginning) => (beginning.length <= 4 ? word === beginning || word === `${beginning}s` : word.startsWith(beginning)));
    if (!words.some(names(beginnings))) continue;
    forText ??= ((picked) => (picked === undefined ? [] : wordsOf(picked)))(pickTool(text, tools));
    if (!(thing === true ? forText : toolWords).some(names([...beginnings, ...alike]))) return topic;
  }
  return undefined;
}

/** Words for the state a record is in (an order's status), in English, German and French (folded). */
const STATUS_WORDS =
  'shipped|delivered|dispatched|pending|completed?|done|paid|returned|processing|in\\s+transit|on\\s+hold|cancell?ed|closed|open|delayed|' +
  'versendet|verschickt|geliefert|zugestellt|bezahlt|offen|storniert|expediee?s?|livree?s?|payee?s?|en\\s+attente|annulee?s?';
/**
 * A request that sets a record's status: "set A-1003 to shipped", "mark A-1003 as delivered", "change the status of
 * A-1003 to pending", "markiere A-1003 als geliefert", "marque A-1003 comme livrée" (a request, not a question).
 */
const STATUS_CHANGE = new RegExp(
  String.raw`^(?:(?:please|pls|kindly|bitte)\s+|(?:can|could|would)\s+(?:you|u)\s+)?(?:set|mark|change|update|switch|flag|make|move|setze?|markiere?|andere|marque[rz]?|passe[rz]?|mets)\s` +
    // "… to shipped", "… as delivered", "mark A-1003 shipped" (the state ends the clause), "… status … to urgent".
    String.raw`(?:(?:[^.?!\n]*?\s(?:to|as|auf|als|comme|en|a)(?:\s+being|\s+be)?\s+|(?:it|this|that|the\s+order|order\s+\S+|[a-z]{1,6}\s*-?\s*\d+)\s+)` +
    String.raw`(?:${STATUS_WORDS})(?=\s*$|\s*[,;!?]|\.(?!\w)|\s+(?:please|now|today|bitte|and|und|et)\b)|[^.?!\n]*\bstatus\b[^.?!\n]*\s(?:to|as|auf|als|a|en)\s+\w)`,
);

/** Whether the text asks to set a status (see `STATUS_CHANGE`). */
function setsStatus(text: string): boolean {
  return STATUS_CHANGE.test(fold(withoutMessage(text)).trim());
}

/** Whether a tool takes a status to set: an argument named `status`, `state`, `new_status`. */
function takesStatus(tool: OfflineToolInfo): boolean {
  const properties = (tool.inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  return Object.keys(properties).some((name) => /^(?:new_?)?(?:status|state)$/i.test(name));
}

/** "all orders", "every order", "alle Bestellungen", "jede Bestellung", "toutes les commandes", "chaque commande": the word that names what all of is asked for. */
const ALL_OF = /\b(?:all|every|each|alle[nrs]?|jede[nrs]?|toutes|tous|chaque)\s+(?:(?:of\s+)?(?:the|my|our|die|meine|unsere|les|mes|nos)\s+)?([a-z]+)/;
/**
 * Words that, beside a plural alone, ask to see or have all of it: reading verbs, having ("what orders do I have",
 * "welche Bestellungen habe ich", "quelles commandes ai-je"), and German and French words for "my", "show", "which".
 */
const ALL_FILLER: ReadonlySet<string> = new Set(
  (
    'list show display give get see view find fetch have has got own exist existing current currently open ' +
    'zeig zeige zeigen mir meine meinen mein unsere habe hast haben hab gibt es welche sind ich wir alle liste ' +
    'montre montrez affiche affichez moi mes mon nos les des quelles quels quel quelle ai as avons est sont je j'
  ).split(' '),
);

/**
 * What a request for all of something names ("show all orders"), when no tool lists them all: the tool it reaches
 * only reads and lists some of them (`list_delayed_orders`: a word of its name, "delayed", the text does not give) or
 * reads one by its id, which the text does not give. What is asked for as written ("all orders", "every order") and
 * the tools that work on the thing, for an answer that says so and offers what exists; `undefined` when a tool lists them all, or the request is no such one.
 */
export function unlistedAll(
  text: string,
  tools: readonly OfflineToolInfo[],
): { readonly all: string; readonly every: boolean; readonly thing: string; readonly tools: readonly OfflineToolInfo[] } | undefined {
  const folded = fold(text).trim();
  const word = ALL_OF.exec(folded)?.[1] ?? barePlural(folded);
  // "by how many days?" asks a measure, not for every day.
  if (word === undefined || MEASURE_WORDS.test(word)) return undefined;
  const thing = expand([stem(word)], false);
  const about = readersOf(thing, tools);
  if (about.length === 0) return undefined;
  const said = expand(contentWords(text), false);
  // What a tool's name says besides its verb and the thing: "delayed" of `list_delayed_orders`.
  const qualifiers = (tool: OfflineToolInfo): string[] =>
    nameStems(tool).filter((name) => !isReadName(name) && !isWeakVerb(name) && !thing.some((part) => sameWord(part, name)));
  // A list whose name says nothing besides the thing lists it all, and so does one whose thing is what qualifies it: a
  // list of the delayed orders is one of all delays, not of all orders.
  const qualifies = (tool: OfflineToolInfo): boolean => !thing.some((part) => sameWord(part, nameStems(tool).at(-1) ?? ''));
  const listsAll = about.some(
    (tool) => isReadName(tool.name) && (qualifiers(tool).length === 0 || qualifies(tool)) && extractArguments(text, tool.inputSchema).missing.length === 0,
  );
  const reached = pickTool(text, tools);
  if (listsAll || (reached !== undefined && !about.includes(reached))) return undefined;
  // The tool reached is the one asked for when the text says what it does besides the thing: "audit all orders",
  // "a chart of all orders", "all delayed orders". One that does something else with them is no list of them all:
  // "show me every order" reached audit_orders (its description says "every … order"), which flags the late ones.
  const asked =
    reached !== undefined && qualifiers(reached).some((name) => said.some((part) => sameWord(part, name) || (Object.hasOwn(ASKED_BY, name) && (ASKED_BY[name]?.includes(part) ?? false))));
  if (reached !== undefined && asked && (!isReadName(reached.name) || extractArguments(text, reached.inputSchema).missing.length === 0)) return undefined;
  // The word as written: "all orders", "every order" ("alle Bestellungen": all Bestellungen); a plural alone is all of them.
  const quantified = ALL_OF.exec(folded);
  const end = folded.indexOf(word, quantified?.index ?? 0) + word.length;
  const every = quantified !== null && /^(?:every|each|jede[nrs]?|chaque)\b/.test(quantified[0]);
  const written = text.trim().slice(end - word.length, end);
  return { all: `${every ? 'every' : 'all'} ${written}`, every, thing: written, tools: about };
}

/**
 * Words that ask for what a tool's name says it does besides its thing (stemmed): "check all orders", "prüfe alle
 * Bestellungen" ask for the audit, as "audit all orders" does (they said no tool lists all orders).
 */
const ASKED_BY: Readonly<Record<string, readonly string[]>> = { audit: ['check', 'inspect', 'review', 'verify'].map((word) => stem(word)) };

/** The stems of a tool name's words (`list_delayed_orders`: list, delay, order). */
function nameStems(tool: OfflineToolInfo): string[] {
  return splitIdentifier(tool.name).map((name) => stem(name));
}

/** The tools whose name names the `thing` (its stems and synonyms) and that change nothing: what reads or lists it. */
function readersOf(thing: readonly string[], tools: readonly OfflineToolInfo[]): OfflineToolInfo[] {
  return tools.filter((tool) => !isChangeName(tool.name) && nameStems(tool).some((name) => thing.some((part) => sameWord(part, name))));
}

/** Units a count measures in, not things to list: "how many days", "in 3 weeks", "all day". */
const MEASURE_WORDS = /^(?:days?|weeks?|months?|years?|hours?|minutes?|seconds?|times?|tage?n?|wochen?|monate?n?|stunden?|jours?|semaines?|mois|heures?)$/;

/** "how many orders", "wie viele Bestellungen", "combien de commandes": the word that names what is counted. */
const HOW_MANY = /\b(?:how\s+many\s+|wie\s*viele?\s+|combien\s+(?:de\s+|d['’]\s*))(?:(?:of\s+)?(?:the|my|our|die|meine|les|mes)\s+)?([a-z]+)/;
/** Words that, beside "how many" and the thing, ask for nothing else: "are there", "in total", "gibt es", "y a-t-il". */
const COUNT_FILLER: ReadonlySet<string> = new Set('there total altogether overall insgesamt gesamt y a t il au en tout'.split(' '));

/**
 * For "how many orders are there" (in German and French too), or how many are in a state that the counts are by ("how
 * many orders are shipped"): a tool about the thing that takes no arguments and says it returns their counts ("it also
 * returns the counts": `orders_chart`), or how many there are. `undefined` when the text asks about some of them in
 * another way ("how many orders are late" is for the list of late ones), or no tool counts them.
 */
export function countingTool(text: string, tools: readonly OfflineToolInfo[]): OfflineToolInfo | undefined {
  const folded = fold(text);
  const match = HOW_MANY.exec(folded);
  const word = match?.[1];
  if (match === null || word === undefined) return undefined;
  const rest = `${folded.slice(0, match.index)} ${folded.slice(match.index + match[0].length)}`
    .split(/[^a-z]+/)
    .filter((other) => contentWords(other).length > 0 && !ALL_FILLER.has(other) && !COUNT_FILLER.has(other));
  const about = readersOf(expand([stem(word)], false), tools);
  const counts = about.filter((tool) => extractArguments('', tool.inputSchema).missing.length === 0);
  const counter = counts.find((tool) => /\bcounts\b/i.test(tool.description ?? '')) ?? counts.find((tool) => /\bhow many\b/i.test(tool.description ?? ''));
  // What else is said is what the counts are by ("how many orders are shipped": a status its description names), and
  // no other tool's name says it, nor a word of the same meaning ("delayed", and "late" for it, of `list_delayed_orders`
  // are that list's: "how many orders are late?" ran the audit, which counts what it checked).
  const by = counter === undefined ? [] : contentWords(counter.description ?? '');
  const others = about.filter((tool) => tool !== counter).flatMap(nameStems);
  const fits = rest
    .flatMap((other) => contentWords(other))
    .every((other) => by.some((known) => sameWord(other, known)) && !expand([other], false).some((word) => others.some((name) => sameWord(word, name))));
  return fits ? counter : undefined;
}

/**
 * The one word of a request that, beside stopwords and {@link ALL_FILLER}, is a plural ("show me my orders", "what
 * orders do I have", "my orders", "meine Bestellungen", "mes commandes"): all of them are asked for.
 */
function barePlural(folded: string): string | undefined {
  // Numbers name some of them: "where are orders 1002 and 1003" asks for those.
  if (/\d/.test(folded)) return undefined;
  const rest = folded.split(/[^a-z]+/).filter((word) => contentWords(word).length > 0 && !ALL_FILLER.has(word));
  const word = rest[0];
  return rest.length === 1 && word !== undefined && /(?:[^su]s|en|es|x)$/.test(word) ? word : undefined;
}

function bestOf(scores: readonly ToolScore[], leads: (tool: OfflineToolInfo) => boolean = () => false): OfflineToolInfo | undefined {
  let best: { readonly candidate: ToolScore; readonly rank: number } | undefined;
  for (const candidate of scores) {
    // On a tie: the tool the request's first word names ("Email Grace about A-1002"), then one that only reads.
    const rank = (leads(candidate.tool) ? 2 : 0) + (isReadName(candidate.tool.name) ? 1 : 0);
    if (best === undefined || candidate.score > best.candidate.score || (candidate.score === best.candidate.score && rank > best.rank)) {
      best = { candidate, rank };
    }
  }
  return best?.candidate.tool;
}

/** Whether a tool's name holds the text's first content word, a verb it starts with ("email", "move"), not a generic one. */
function leadsWith(text: string): (tool: OfflineToolInfo) => boolean {
  const first = contentWords(text)[0];
  if (first === undefined) return () => false;
  const words = expand([first], false);
  return (tool) => splitIdentifier(tool.name).some((name) => !isWeakVerb(stem(name)) && words.some((word) => sameWord(word, stem(name))));
}

/** Requests put as questions: "Can you …", "Could we …", "Please …". */
const REQUEST = /^(?:please|pls|kindly|(?:can|could|would|will)\s+(?:you|u|we|i)\b)/;
const QUESTION_WORD = /^(?:what|whats|when|where|which|who|why|how|is|are|was|were|has|have|does|do|did)\b/;

/** Whether the text asks something rather than asking for something: a `?` or a question word, and no request. */
function isQuestion(text: string): boolean {
  const trimmed = text.trim().toLowerCase().replace(/['’]/g, '');
  return !REQUEST.test(trimmed) && (trimmed.endsWith('?') || QUESTION_WORD.test(trimmed));
}

/** Whether the request's first word, after "please" or "can you", is a verb that only reads: "show", "check", "look up". */
function leadsWithReadVerb(text: string): boolean {
  const trimmed = text.trim().toLowerCase().replace(/['’]/g, '');
  const first = /^[a-z]+/.exec(trimmed.replace(REQUEST, '').trimStart())?.[0];
  return first !== undefined && isReadVerb(stem(first));
}

/**
 * Words that mean "change the date" only beside a date: "delay A-1003 until 2027-01-10", but "the delay", "delayed
 * orders" otherwise (stemmed once, at load).
 */
const DATED_SYNONYMS: ReadonlyMap<string, readonly string[]> = new Map(
  ['delay', 'report', 'liefer', 'deliver'].map((word) => [stem(word), ['change', 'date'].map((value) => stem(value))]),
);

/** Whether a text gives a date, or names a day the model does not know ("am Schützenfest"): a day all the same. */
function namesDay(text: string): boolean {
  return hasDate(text) || unreadDay(text) !== undefined;
}

function expand(words: readonly string[], dated: boolean): string[] {
  const out = new Set<string>();
  for (const word of words) {
    out.add(word);
    for (const synonym of synonymsOf(word)) out.add(synonym);
    if (dated) for (const synonym of DATED_SYNONYMS.get(word) ?? []) out.add(synonym);
  }
  return [...out];
}
