import { findCities, findTimeZones } from './time-zones.ts';
import { contentWords, humanize, isCalendarDay, sameWord, splitIdentifier, stem } from './words.ts';

/** Arguments found in a text for one tool, and the required ones that were not found. */
export interface ExtractedArguments {
  readonly input: Record<string, unknown>;
  /** Required properties without a default that the text does not mention. */
  readonly missing: readonly string[];
}

/** The JSON Schema keywords the extractor reads; everything else is ignored. */
interface SchemaNode {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly format?: string;
  readonly pattern?: string;
  readonly default?: unknown;
  readonly description?: string;
  readonly examples?: readonly unknown[];
  readonly properties?: Readonly<Record<string, unknown>>;
  readonly required?: readonly string[];
  readonly items?: unknown;
  readonly anyOf?: readonly unknown[];
  readonly oneOf?: readonly unknown[];
}

type Kind =
  | 'const'
  | 'enum'
  | 'enum-array'
  | 'email'
  | 'id'
  | 'id-number'
  | 'pattern'
  | 'date'
  | 'date-time'
  | 'timezone'
  | 'expression'
  | 'boolean'
  | 'number'
  | 'integer'
  | 'item'
  | 'string'
  | 'unsupported';

interface Property {
  readonly name: string;
  readonly node: SchemaNode;
  readonly kind: Kind;
  readonly required: boolean;
}

interface Span {
  readonly start: number;
  readonly end: number;
}

/** Extraction order: specific shapes first, so `A-1001` becomes an id before `1001` can become a number. */
const KIND_ORDER: readonly Kind[] = [
  'const',
  'enum',
  'enum-array',
  'email',
  'id',
  'id-number',
  'pattern',
  'date-time',
  'date',
  'timezone',
  'expression',
  'boolean',
  'integer',
  'number',
  'item',
  'string',
];

const DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/g;
const DATE_TIME = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const NUMBER = /(?<![\w#./-])-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w/-])/g;
// A common function of numbers (`sqrt(16)`, `round(3.14159, 2)`: not the `(16)` alone), or a number, in brackets or not.
const CALL = String.raw`\b(?:sqrt|abs|floor|ceil|round|ln|log10|exp|min|max)\s*\(\s*-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?)*\s*\)`;
// A number may group its thousands with commas ("1,000 + 5": it read "000 + 5").
const OPERAND = String.raw`(?:${CALL}|\(?\s*-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\s*\)?)`;
// German and French words too ("17 mal 23", "6 fois 7", "10 geteilt durch 4", "9 moins 2").
const OPERATOR = '(?:[-+*/^%×÷x]|plus|minus|times|multiplied by|divided by|over|mod|mal|fois|moins|geteilt durch|durch|divis[ée] par|multipli[ée] par)';
// A function call is a sum alone ("sqrt(144)"); a number only with an operator and another.
const EXPRESSION = new RegExp(`(?:${CALL}(?:\\s*${OPERATOR}\\s*${OPERAND})*|${OPERAND}(?:\\s*${OPERATOR}\\s*${OPERAND})+)`, 'gi');
const QUOTED = /"([^"]+)"|“([^”]+)”|(?<!\w)'([^']+)'(?!\w)/g;

/**
 * Reads arguments for a tool from free text, guided by the tool's JSON Schema: enum values, ids
 * (`#1234`, `A-1001`), ISO dates, emails, time zones, arithmetic, yes/no, numbers, quoted strings and
 * item names with their count (`add 2 coffee beans to my cart`).
 */
export function extractArguments(text: string, schema: unknown): ExtractedArguments {
  return extract(text, schema).result;
}

/** The most calls {@link extractArgumentSets} makes of one request. */
export const MAX_ARGUMENT_SETS = 10;

/**
 * Arguments for one call per id when the text names several ids of one shape for the tool's only id argument, as a
 * model calls a tool once per order ("Where are orders A-1002 and A-1003?"); the other arguments are shared. Only ids
 * with letters and digits (`A-1001`, `ORD-7`) count, written in the same shape as the first, each once: a bare number
 * may be a quantity or a price. At most {@link MAX_ARGUMENT_SETS}; one set, as {@link extractArguments}, otherwise.
 */
export function extractArgumentSets(text: string, schema: unknown): [ExtractedArguments, ...ExtractedArguments[]] {
  const { result, used, properties } = extract(text, schema);
  const listed = listedZones(text, result, properties) ?? listedItems(text, result, properties);
  if (listed !== undefined) return listed;
  const ids = properties.filter((p) => p.kind === 'id');
  const id = ids[0];
  const first = id === undefined ? undefined : result.input[id.name];
  if (id === undefined || ids.length !== 1 || typeof first !== 'string' || !/[A-Za-z]/.test(first) || !/\d/.test(first)) return [result];
  const shape = shapeOf(first);
  const sets: [ExtractedArguments, ...ExtractedArguments[]] = [result];
  const seen = new Set([first.toUpperCase()]);
  for (let next = findId(text, id.node, used); next !== undefined && sets.length < MAX_ARGUMENT_SETS; next = findId(text, id.node, used)) {
    if (!shape.test(next) || seen.has(next.toUpperCase())) continue;
    seen.add(next.toUpperCase());
    sets.push({ input: { ...result.input, [id.name]: next }, missing: result.missing });
  }
  return sets;
}

/** What joins the members of a list: a comma (not one inside a number: "1,000"), "and", "or", "&", "und", "et", "y". */
const LIST_JOIN = String.raw`(?:\s*,(?!\d)\s*(?:(?:and|or|und|oder|et|ou|y)\s+)?|\s+(?:and|or|&|plus|und|oder|et|ou|y)\s+)`;

/**
 * One set per place when the tool's one time zone argument (and no id: "A-1002 in Tokyo" is one call) is given a list
 * of places, each beside the next with only a comma or an "and" between them ("time in New York, London and Paris");
 * "Berlin, Germany" is one place (a country is no city), and places apart in a sentence are no list.
 */
function listedZones(text: string, result: ExtractedArguments, properties: readonly Property[]): [ExtractedArguments, ...ExtractedArguments[]] | undefined {
  const zones = properties.filter((p) => p.kind === 'timezone');
  const zone = zones[0];
  if (zone === undefined || zones.length !== 1 || properties.some((p) => p.kind === 'id') || typeof result.input[zone.name] !== 'string') return undefined;
  const found = findTimeZones(text)
    .filter((match, i, all) => !all.some((other, j) => j !== i && other.start <= match.start && other.end >= match.end && other.end - other.start > match.end - match.start))
    .sort((a, b) => a.start - b.start);
  const first = found.findIndex((match) => match.zone === result.input[zone.name]);
  if (first === -1) return undefined;
  const join = new RegExp(`^${LIST_JOIN}(?:in\\s+|a\\s+|à\\s+)?$`, 'i');
  const sets: [ExtractedArguments, ...ExtractedArguments[]] = [result];
  const seen = new Set([found[first]?.zone]);
  for (let i = first + 1; i < found.length && sets.length < MAX_ARGUMENT_SETS; i++) {
    const [previous, next] = [found[i - 1], found[i]];
    if (previous === undefined || next === undefined || !join.test(text.slice(previous.end, next.start))) break;
    if (seen.has(next.zone)) continue;
    seen.add(next.zone);
    sets.push({ input: { ...result.input, [zone.name]: next.zone }, missing: result.missing });
  }
  return sets.length > 1 ? sets : undefined;
}

/**
 * One set per item when the text adds a list of things ("add 3 apples and 2 bananas to my cart", "add milk, eggs and
 * bread"), each with its own count (one without a count leaves the quantity out: its default); the other arguments
 * are shared. `undefined` for one item.
 */
function listedItems(text: string, result: ExtractedArguments, properties: readonly Property[]): [ExtractedArguments, ...ExtractedArguments[]] | undefined {
  const item = properties.find((p) => p.kind === 'item');
  const name = item === undefined ? undefined : result.input[item.name];
  if (item === undefined || typeof name !== 'string') return undefined;
  const first = [...text.matchAll(ITEM_PHRASE)].map((match) => toItemPhrase(match, 0, [])).find((phrase) => phrase?.name === name);
  if (first === undefined) return undefined;
  const quantity = properties.find((p) => (p.kind === 'integer' || p.kind === 'number') && isQuantity(p));
  const more = new RegExp(
    String.raw`^${LIST_JOIN}(?:${COUNT}\s+|(?:an?|some|the|ein(?:e[nm]?)?|une?|des|du|de\s+la)\s+)?(?!(?:${ITEM_STOP})${END})([^\n,.;:!?"“”]+?)(?=\s+(?:${ITEM_STOP})${END}|\s*[\n,.;:!?]|\s*$)`,
    'di',
  );
  // "add an apple and 2 pears": the first thing has no count of its own, so none of the others' counts is its.
  const own = quantity === undefined || first.count !== undefined ? result : { ...result, input: Object.fromEntries(Object.entries(result.input).filter(([key]) => key !== quantity.name)) };
  const sets: [ExtractedArguments, ...ExtractedArguments[]] = [own];
  for (let at = first.span.end; sets.length < MAX_ARGUMENT_SETS; ) {
    const match = more.exec(text.slice(at));
    const next = match === null ? undefined : toItemPhrase(match, at, []);
    if (match === null || next === undefined) break;
    at += match[0].length;
    const input: Record<string, unknown> = { ...result.input, [item.name]: next.name };
    if (quantity !== undefined) {
      if (next.count === undefined) delete input[quantity.name];
      else input[quantity.name] = next.count.value;
    }
    sets.push({ input, missing: result.missing });
  }
  return sets.length > 1 ? sets : undefined;
}

/** A pattern for ids written like `id`: its letters, digits and other characters in that order (`A-1001` → `A-7`). */
function shapeOf(id: string): RegExp {
  const part = (piece: string) => (/^[A-Za-z]/.test(piece) ? '[A-Za-z]+' : /^\d/.test(piece) ? '\\d+' : `\\${piece}`);
  return new RegExp(`^${id.replace(/[A-Za-z]+|\d+|[^A-Za-z\d]/g, part)}$`);
}

function extract(text: string, schema: unknown): { result: ExtractedArguments; used: Span[]; properties: Property[] } {
  const root = normalize(schema);
  const requiredNames = new Set(root.required ?? []);
  const properties: Property[] = Object.entries(root.properties ?? {}).map(([name, raw]) => {
    const node = normalize(raw);
    return { name, node, kind: kindOf(name, node), required: requiredNames.has(name) };
  });
  const input: Record<string, unknown> = {};
  const used: Span[] = [];
  const numericCount = properties.filter((p) => p.kind === 'number' || p.kind === 'integer').length;

  fillPhrasedNumbers(text, properties, input, used);
  for (const kind of KIND_ORDER) {
    for (const property of properties.filter((p) => p.kind === kind)) {
      if (Object.hasOwn(input, property.name)) continue;
      const value = extractOne(text, property, used, numericCount);
      if (value !== undefined) input[property.name] = value;
    }
  }
  fillRequiredNumbers(text, properties, input, used);
  // A required argument that accepts null (strict mode's rewrite of an optional one) is sent as null, as a model in
  // strict mode does when it leaves it out, instead of being asked for.
  for (const property of properties) {
    if (property.required && !Object.hasOwn(input, property.name) && acceptsNull(root.properties?.[property.name])) input[property.name] = null;
  }

  fillSubjectFromMessage(properties, input);

  const missing = properties
    .filter((p) => p.required && !Object.hasOwn(input, p.name) && p.node.default === undefined)
    .map((p) => p.name);
  return { result: { input, missing }, used, properties };
}

/** An argument that only one kind of value fills, and whether a text holds such a value: see {@link valueArguments}. */
export interface ValueArgument {
  readonly name: string;
  readonly kind: 'timezone' | 'expression' | 'id' | 'date' | 'message' | 'price';
}

/**
 * The arguments of `schema` that a value in `text` fills and that no other kind of argument would take: a time zone
 * (`Europe/Paris`, `UTC`, a city such as Tokyo), an arithmetic expression (`2+2`; an ISO date or an id such as
 * `A-1001` is none), an id of letters and digits that the argument's pattern accepts (`A1001` for `^A-\d{4}$` too),
 * an ISO date for a date argument, a message for a message argument (`saying …`, `: …`, `tell them that …`), or a
 * price for a price argument (`for 12.50 each`, `€3`, `4 EUR`). A
 * tool that takes such a value is likely the one meant even when its name is not in the text, or the text is in
 * another language.
 */
export function valueArguments(text: string, schema: unknown): ValueArgument[] {
  const root = normalize(schema);
  const found: ValueArgument[] = [];
  for (const [name, raw] of Object.entries(root.properties ?? {})) {
    const node = normalize(raw);
    const kind = kindOf(name, node);
    if (kind === 'timezone' && findTimeZones(text).length > 0) found.push({ name, kind });
    if (kind === 'expression' && take(withoutDatesAndIds(text), EXPRESSION, []) !== undefined) found.push({ name, kind });
    if (kind === 'id' && node.pattern !== undefined && hasPatternId(text, node.pattern)) found.push({ name, kind });
    if ((kind === 'date' || kind === 'date-time') && hasDate(text)) found.push({ name, kind: 'date' });
    if (kind === 'string' && MESSAGE_NAMES.test(name) && findMessage(text, []) !== undefined) found.push({ name, kind: 'message' });
    if ((kind === 'number' || kind === 'integer') && isPrice(name, node) && findPrice(text, []) !== undefined) found.push({ name, kind: 'price' });
  }
  return found;
}

/** The name of the schema's time zone argument (`time_zone`, `tz`, `timeZone`), if it has one. */
export function timeZoneArgument(schema: unknown): string | undefined {
  const properties = Object.entries(normalize(schema).properties ?? {});
  return properties.find(([name, raw]) => kindOf(name, normalize(raw)) === 'timezone')?.[0];
}

/** Whether the schema's argument `name` holds what is to be said (`body`, `message`) or its subject (`subject`, `title`). */
export function isMessageArgument(schema: unknown, name: string): boolean {
  const node = normalize(normalize(schema).properties?.[name]);
  return kindOf(name, node) === 'string' && (MESSAGE_NAMES.test(name) || SUBJECT_NAMES.test(name));
}

/** What an id is written as: `#1234`, `A-1001`, `ORD-7`, `a1002` (letters and digits), not a word or a number alone. */
const ID_LIKE = /#[A-Za-z0-9][\w-]*|\b[A-Za-z]{1,6}\s?[-–—]\s?\d+[A-Za-z0-9-]*\b|\b[A-Za-z]{1,4}\d{2,}[A-Za-z0-9]*\b/g;

/** The words of `text` written as ids are (see `ID_LIKE`), whatever tool takes them; a date or a time is none. */
export function idLikeWords(text: string): string[] {
  return [...withoutDateWords(text).matchAll(ID_LIKE)].map((match) => match[0]);
}

function withoutDateWords(text: string): string {
  return text.replace(DATE_TIME, ' ').replace(DATE, ' ');
}

/** Whether the schema's argument `name` takes a day (`new_date`, `format: "date"`, a YYYY-MM-DD pattern). */
export function isDateArgument(schema: unknown, name: string): boolean {
  const kind = kindOf(name, normalize(normalize(schema).properties?.[name]));
  return kind === 'date' || kind === 'date-time';
}

/** The name of the schema's argument that takes arithmetic (`expression`, `formula`), if it has one. */
export function expressionArgument(schema: unknown): string | undefined {
  const properties = Object.entries(normalize(schema).properties ?? {});
  return properties.find(([name, raw]) => kindOf(name, normalize(raw)) === 'expression')?.[0];
}

/** The name of the schema's argument that takes a record's id (`order_id`, `orderId`), if it has one. */
export function idArgument(schema: unknown): string | undefined {
  const properties = Object.entries(normalize(schema).properties ?? {});
  return properties.find(([name, raw]) => kindOf(name, normalize(raw)) === 'id')?.[0];
}

/**
 * The numbers a text gives in words of what they bound, and nothing else: a cap ("top 3", "just the first two", "which
 * one is the worst") and a minimum ("more than a week"), for a list's arguments; no plain number ("2 bananas").
 */
export function phrasedNumbers(text: string, schema: unknown): Record<string, unknown> {
  const root = normalize(schema);
  const properties: Property[] = Object.entries(root.properties ?? {}).map(([name, raw]) => {
    const node = normalize(raw);
    return { name, node, kind: kindOf(name, node), required: false };
  });
  const input: Record<string, unknown> = {};
  fillPhrasedNumbers(text, properties, input, []);
  return input;
}

/** The name of the schema's argument that names a thing (`name`, `item`, `product`), if it has one. */
export function itemArgument(schema: unknown): string | undefined {
  const properties = Object.entries(normalize(schema).properties ?? {});
  return properties.find(([name, raw]) => kindOf(name, normalize(raw)) === 'item')?.[0];
}

/** Whether `text` holds an ISO date of the calendar's months and days (`2027-01-10`). */
export function hasDate(text: string): boolean {
  return takeDate(text, []) !== undefined;
}

/**
 * Whether `text` holds an id of letters and digits that `pattern` accepts (in any case, with or without its hyphen),
 * and the pattern is one that only ids match: one that takes a plain word (`^.+$`) says nothing about the text.
 */
function hasPatternId(text: string, pattern: string): boolean {
  if (safeTest(pattern, 'order') || safeTest(pattern, 'Order')) return false;
  const id = findByPattern(text, pattern, [], true);
  return id !== undefined && /[A-Za-z]/.test(id) && /\d/.test(id);
}

/** `text` with its arithmetic (`12 times 7`, `2+2`; not a date or an id) blanked out, one space for each character. */
export function withoutExpressions(text: string): string {
  const plain = withoutDatesAndIds(text);
  let out = text;
  for (const match of plain.matchAll(EXPRESSION)) {
    out = `${out.slice(0, match.index)}${' '.repeat(match[0].length)}${out.slice(match.index + match[0].length)}`;
  }
  return out;
}

/**
 * `text` with the message it gives (`saying …`, `: …`, `tell them that …`) blanked out, one space for each character:
 * the words and days of what is to be said are no request ("tell the customer that it ships tomorrow" moves nothing).
 */
export function withoutMessage(text: string): string {
  const used: Span[] = [];
  if (findMessage(text, used) === undefined) return text;
  const span = used[0];
  return span === undefined ? text : `${text.slice(0, span.start)}${' '.repeat(span.end - span.start)}${text.slice(span.end)}`;
}

/** `text` with ISO dates and ids (`A-1001`, `#12`) blanked out: `2026-12-24` is a day, not two subtractions. */
function withoutDatesAndIds(text: string): string {
  const blank = (match: string): string => ' '.repeat(match.length);
  return text.replace(DATE_TIME, blank).replace(DATE, blank).replace(/#\d+|\b[A-Za-z]{1,6}-\d+/g, blank);
}

/** What a question for a missing argument says of the value it wants, besides its name (see {@link describeArgument}). */
export type ArgumentHint =
  | { readonly kind: 'id'; readonly examples: readonly string[]; readonly pattern?: string | undefined }
  | { readonly kind: 'date' | 'email' | 'timezone' | 'none' }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'described'; readonly description: string };

/**
 * Describes a missing argument for a question to the user: `the order id (for example A-1001)`, in the words of
 * `say` (English unless given: the wording of the user's language builds it from the label and the hint).
 */
export function describeArgument(
  schema: unknown,
  name: string,
  say: (label: string, hint: ArgumentHint) => string = (label, hint) => `the ${label}${englishHint(hint)}`,
): string {
  const root = normalize(schema);
  const node = normalize(root.properties?.[name]);
  return say(humanize(name), argumentHint(name, node));
}

function argumentHint(name: string, node: SchemaNode): ArgumentHint {
  switch (kindOf(name, node)) {
    case 'id':
    case 'id-number':
      return idHint(node);
    case 'date':
      return { kind: 'date' };
    case 'email':
      return { kind: 'email' };
    case 'timezone':
      return { kind: 'timezone' };
    case 'enum':
      return { kind: 'enum', values: (node.enum ?? []).map((v) => String(v)) };
    default:
      return node.description !== undefined ? { kind: 'described', description: node.description } : { kind: 'none' };
  }
}

/**
 * What ids of an argument look like, read from its schema: the examples its `examples` or its description give that its
 * pattern takes ("The order id, e.g. A-1001"), else its pattern; a common shape when it has neither.
 */
function idHint(node: SchemaNode): ArgumentHint {
  if (node.pattern === undefined) return { kind: 'id', examples: ['#1234', 'A-1001'] };
  const pattern = node.pattern;
  const given = [...(node.examples ?? []).filter((example) => typeof example === 'string'), ...(node.description ?? '').split(/\s+/)];
  const examples = given.map((word) => word.replace(/^[("'“]+|[)"'”,.;:!?]+$/g, '')).filter((word) => /\d/.test(word) && safeTest(pattern, word));
  return { kind: 'id', examples: [...new Set(examples)].slice(0, 2), pattern };
}

/**
 * The ids the text gives for the schema's id argument `name` that its pattern does not take, as written ("Z-9999" for
 * `^A-\d{4}$`; "order 1002" too, a number after the argument's noun or a word `otherWords` gives for it: "Bestellung
 * 1002"): an id the user gave, though not one the tool takes.
 */
export function unacceptedIds(text: string, schema: unknown, name: string, otherWords: (noun: string) => readonly string[] = () => []): string[] {
  const node = normalize(normalize(schema).properties?.[name]);
  const pattern = node.pattern;
  if (kindOf(name, node) !== 'id' || pattern === undefined || safeTest(pattern, 'order')) return [];
  const noun = humanize(name.replace(/[_-]?(?:id|ids|number|no|num|ref|reference|code)$/i, '')).split(' ').at(-1) ?? '';
  // The noun, or a word of another language for it ("Bestellung", "commande"; `otherWords`), then "no.", "Nr.", "n°".
  const nouns = [noun, ...otherWords(noun)].filter((word) => /^[a-z]{3,}$/.test(word)).map((word) => `${word}(?:s|en|n)?`);
  const numbered =
    noun.length < 3
      ? []
      : [...text.matchAll(new RegExp(String.raw`\b(?:${nouns.join('|')})\s+(?:(?:no|nr|n°|number|nummer|num[eé]ro)\.?\s*)?(\d+)\b`, 'gi'))].map((match) => match[1] ?? '');
  return [...idLikeWords(text), ...numbered].filter((word) => word.length > 0 && inPatternCase(pattern, word.replace(/\s+/g, ''), true) === undefined);
}

/**
 * The id a number given for the schema's id argument `name` likely stands for: its digits in the shape of the ids the
 * argument shows ("#1002", "order 1002" → A-1002 for ids like A-1001), when its pattern takes that; `undefined` for an
 * id with letters of its own ("B-2001" is some other id), digits no such id has ("#42"), or an argument with no example.
 */
export function suggestedId(schema: unknown, name: string, given: string): string | undefined {
  const node = normalize(normalize(schema).properties?.[name]);
  const digits = /^#?\s*(\d+)$/.exec(given.trim())?.[1];
  const hint = kindOf(name, node) === 'id' ? idHint(node) : undefined;
  const example = hint?.kind === 'id' ? hint.examples[0] : undefined;
  if (digits === undefined || example === undefined || node.pattern === undefined) return undefined;
  const id = example.replace(/\d+(?=\D*$)/, digits);
  return safeTest(node.pattern, id) ? id : undefined;
}

/** A hint in English: ` (as YYYY-MM-DD)`, ` (for example A-1001)`. */
export function englishHint(hint: ArgumentHint): string {
  switch (hint.kind) {
    case 'id':
      return hint.examples.length > 0 ? ` (for example ${hint.examples.join(' or ')})` : ` (matching ${hint.pattern ?? ''})`;
    case 'date':
      return ' (as YYYY-MM-DD)';
    case 'email':
      return ' (an email address)';
    case 'timezone':
      return ' (for example Europe/Paris)';
    case 'enum':
      return ` (one of ${hint.values.join(', ')})`;
    case 'described':
      return ` (${hint.description})`;
    default:
      return '';
  }
}

function extractOne(text: string, property: Property, used: Span[], numericCount: number): unknown {
  const { name, node } = property;
  switch (property.kind) {
    case 'const':
      return node.const;
    case 'enum':
      return firstEnumValue(text, node.enum ?? [], used);
    case 'enum-array': {
      const values: unknown[] = [];
      const items = normalize(node.items).enum ?? [];
      for (let value = firstEnumValue(text, items, used); value !== undefined; ) {
        values.push(value);
        value = firstEnumValue(text, items, used);
      }
      return values.length > 0 ? values : undefined;
    }
    case 'email':
      return take(text, EMAIL, used, node);
    case 'id':
      return findId(text, node, used);
    case 'id-number': {
      const id = take(text, /#(\d+)\b|\b[A-Za-z]{1,6}-(\d+)\b|(?<![\w.-])(\d+)(?![\w.-])/g, used);
      return id === undefined ? undefined : Number(id);
    }
    case 'pattern':
      return findByPattern(text, node.pattern ?? '', used);
    case 'date-time': {
      const full = take(text, DATE_TIME, used);
      if (full !== undefined) return full.replace(' ', 'T');
      const date = takeDate(text, used);
      return date === undefined ? undefined : `${date}T00:00:00Z`;
    }
    case 'date':
      return takeDate(text, used);
    case 'timezone': {
      // The first one written, not the first one the city list has ("time in Tokyo, Sydney" starts with Tokyo).
      const zone = findTimeZones(text)
        .filter((match) => isFree(match, used))
        .sort((a, b) => a.start - b.start)[0];
      if (zone === undefined) return undefined;
      used.push(zone);
      return zone.zone;
    }
    case 'expression': {
      // "17,5 mal 4": a decimal comma is a point (it read "5 mal 4"), not in a function's arguments ("max(1,2)"); "1,000"
      // is a thousand. Same length, same places.
      const expression = take(text.replace(/(?<![(,]\s*-?[\d.]*)(\d),(\d{1,2}|\d{4,})(?!\d)/g, '$1.$2'), EXPRESSION, used);
      return expression === undefined ? undefined : normalizeExpression(expression);
    }
    case 'boolean':
      return findBoolean(text, name);
    case 'integer':
    case 'number':
      return findNumber(text, property, used, numericCount);
    case 'item':
      return findItem(text, used);
    case 'string':
      return findString(text, property, used);
    default:
      return undefined;
  }
}

function kindOf(name: string, node: SchemaNode): Kind {
  if (node.const !== undefined) return 'const';
  if (node.enum !== undefined && node.enum.length > 0) return 'enum';
  const type = primaryType(node);
  const lower = name.toLowerCase();
  if (type === 'array') {
    const items = normalize(node.items);
    return items.enum !== undefined && items.enum.length > 0 ? 'enum-array' : 'unsupported';
  }
  if (type === 'boolean') return 'boolean';
  if (type === 'integer' || type === 'number') {
    if (isIdName(name)) return 'id-number';
    return type;
  }
  if (type !== 'string') return 'unsupported';
  if (node.format === 'date-time') return 'date-time';
  const words = splitIdentifier(name);
  if (node.format === 'date' || isDatePattern(node.pattern) || words.includes('date') || words.includes('day')) {
    return 'date';
  }
  if (node.format === 'email' || lower.includes('email') || /^(to|from|cc|bcc|recipient|sender)$/.test(lower)) {
    return 'email';
  }
  if (/time_?zone|(^|_)zone$|^tz$/.test(lower) || /Zone$/.test(name)) return 'timezone';
  if (isIdName(name)) return 'id';
  if (/^(expr|expression|formula|equation|calculation|math)$/i.test(name)) return 'expression';
  if (ITEM_NAMES.test(name.replace(/[^A-Za-z]/g, ''))) return 'item';
  // A pattern that any line of words passes (a subject's "no line breaks") names no shape to look for.
  if (node.pattern !== undefined && !safeTest(node.pattern, 'Two words')) return 'pattern';
  return 'string';
}

function isIdName(name: string): boolean {
  return (
    /^(id|ids|sku|ref)$/i.test(name) ||
    /[_-](id|ids|number|no|num|ref|reference|code|sku)$/i.test(name) ||
    /[a-z0-9](Id|Ids|ID|Number|No|Num|Ref|Code|Sku)$/.test(name)
  );
}

function isDatePattern(pattern: string | undefined): boolean {
  if (pattern === undefined) return false;
  try {
    return new RegExp(pattern, 'u').test('2024-01-31') && !new RegExp(pattern, 'u').test('A-1001');
  } catch {
    return false;
  }
}

function normalize(raw: unknown): SchemaNode {
  if (typeof raw !== 'object' || raw === null) return {};
  const node = raw as SchemaNode;
  const branches = (node.anyOf ?? node.oneOf ?? []).map((branch) => normalize(branch));
  if (branches.length === 0) return node;
  const nonNull = branches.filter((branch) => primaryType(branch) !== 'null');
  if (nonNull.length > 0 && nonNull.every((branch) => branch.const !== undefined)) {
    return { ...node, enum: nonNull.map((branch) => branch.const) };
  }
  const first = nonNull[0] ?? {};
  return { ...first, ...withoutBranches(node) };
}

/** Whether a property's schema takes `null`: `type` lists it, or a branch of `anyOf`/`oneOf` is null. */
function acceptsNull(raw: unknown): boolean {
  if (typeof raw !== 'object' || raw === null) return false;
  const node = raw as SchemaNode;
  if (node.type === 'null' || (Array.isArray(node.type) && node.type.includes('null'))) return true;
  return (node.anyOf ?? node.oneOf ?? []).some((branch) => acceptsNull(branch));
}

function withoutBranches(node: SchemaNode): SchemaNode {
  const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = node;
  return rest;
}

function primaryType(node: SchemaNode): string | undefined {
  if (typeof node.type === 'string') return node.type;
  return node.type?.find((type) => type !== 'null');
}

function isFree(span: Span, used: readonly Span[]): boolean {
  return used.every((other) => span.end <= other.start || span.start >= other.end);
}

/**
 * The first free match of `pattern` (its first defined group, or the whole match) that `node.pattern` accepts, in
 * another case too with `anyCase` (an id: see {@link inPatternCase}); marks it used.
 */
function take(text: string, pattern: RegExp, used: Span[], node?: SchemaNode, anyCase = false): string | undefined {
  for (const match of text.matchAll(pattern)) {
    const span = { start: match.index, end: match.index + match[0].length };
    if (!isFree(span, used)) continue;
    const found = match.slice(1).find((group) => group !== undefined) ?? match[0];
    const value = node?.pattern === undefined ? found : inPatternCase(node.pattern, found, anyCase);
    if (value === undefined) continue;
    used.push(span);
    return value;
  }
  return undefined;
}

/**
 * `value` as `pattern` accepts it: as written, else (with `anyCase`, for an id: it has a digit) upper- or lower-cased
 * and with or without a hyphen between its letters and digits, since people type `a-1002` or `A1002` for the id
 * `A-1002` and a model writes it as the schema asks; `undefined` when none fits.
 */
function inPatternCase(pattern: string, value: string, anyCase: boolean): string | undefined {
  if (!anyCase || !/\d/.test(value)) return safeTest(pattern, value) ? value : undefined;
  const cases = [value, value.toUpperCase(), value.toLowerCase()];
  const joined = cases.map((candidate) => candidate.replace(/^([A-Za-z]+)[-–—_](\d)/, '$1$2'));
  const hyphened = cases.map((candidate) => candidate.replace(/^([A-Za-z]+)[–—_]?(\d)/, '$1-$2'));
  return [...cases, ...hyphened, ...joined].find((candidate) => safeTest(pattern, candidate));
}

/** Each schema pattern compiled once (`null`: not a pattern JavaScript reads); a tool set has a handful. */
const compiledPatterns = new Map<string, RegExp | null>();

function safeTest(pattern: string, value: string): boolean {
  let compiled = compiledPatterns.get(pattern);
  if (compiled === undefined) {
    try {
      compiled = new RegExp(pattern, 'u');
    } catch {
      compiled = null;
    }
    if (compiledPatterns.size >= 256) compiledPatterns.clear();
    compiledPatterns.set(pattern, compiled);
  }
  return compiled === null || compiled.test(value);
}

function takeDate(text: string, used: Span[]): string | undefined {
  for (const match of text.matchAll(DATE)) {
    const month = Number(match[2]);
    const day = Number(match[3]);
    const span = { start: match.index, end: match.index + match[0].length };
    // "2027-02-31" is no day (February has 28 that year): not taken, so the date is asked for and the day said to be none.
    if (!isCalendarDay(Number(match[1]), month, day) || !isFree(span, used)) continue;
    used.push(span);
    return match[0];
  }
  return undefined;
}

function firstEnumValue(text: string, values: readonly unknown[], used: Span[]): unknown {
  let best: { value: unknown; span: Span } | undefined;
  for (const value of values) {
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const words = String(value)
      .split(/[\s_-]+/)
      .filter((word) => word.length > 0)
      .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    if (words.length === 0) continue;
    const pattern = new RegExp(`(?<![A-Za-z0-9])${words.join('[\\s_-]+')}(?![A-Za-z0-9])`, 'gi');
    for (const match of text.matchAll(pattern)) {
      const span = { start: match.index, end: match.index + match[0].length };
      if (!isFree(span, used)) continue;
      const better =
        best === undefined ||
        span.start < best.span.start ||
        (span.start === best.span.start && span.end > best.span.end);
      if (better) best = { value, span };
      break;
    }
  }
  if (best === undefined) return undefined;
  used.push(best.span);
  return best.value;
}

function findId(text: string, node: SchemaNode, used: Span[]): string | undefined {
  if (node.pattern !== undefined) {
    const byPattern = findByPattern(text, node.pattern, used, true);
    if (byPattern !== undefined) return byPattern;
  }
  return (
    take(text, /#([A-Za-z0-9][\w-]*)/g, used, node, true) ??
    take(text, /\b([A-Za-z]{1,6}-\d+[A-Za-z0-9-]*)\b/g, used, node, true) ??
    take(text, /\b([A-Za-z]{1,4}\d{2,}[A-Za-z0-9]*)\b/g, used, node, true) ??
    take(text, /(?<![\w.-])(\d+)(?![\w.-])/g, used, node, true)
  );
}

/**
 * The first whitespace-separated word (trimmed of punctuation) that matches `pattern` (in any case with `anyCase`).
 * With `anyCase` (an id), letters and the digits after them typed apart count as one ("a 1006", "A - 1006" for
 * `^A-\d{4}$`).
 */
function findByPattern(text: string, pattern: string, used: Span[], anyCase = false): string | undefined {
  const words = [...text.matchAll(/\S+/g)].map((match) => {
    const raw = match[0];
    const lead = raw.length - raw.replace(/^[("'“[{]+/, '').length;
    const word = raw.replace(/^[("'“[{]+/, '').replace(/[)"'”\]},.;:!?]+$/, '');
    return { word, span: { start: match.index + lead, end: match.index + lead + word.length } };
  });
  for (const [i, { word, span }] of words.entries()) {
    const value = word.length === 0 || !isFree(span, used) ? undefined : inPatternCase(pattern, word, anyCase);
    if (value !== undefined) {
      used.push(span);
      return value;
    }
    // A hyphen typed apart is part of it too ("A - 1002").
    const dash = /^[-–—]$/.test(words[i + 1]?.word ?? '') ? 1 : 0;
    const next = words[i + 1 + dash];
    if (!anyCase || next === undefined || !/^[A-Za-z]{1,6}$/.test(word) || !/^\d+$/.test(next.word)) continue;
    const both = { start: span.start, end: next.span.end };
    const joined = isFree(both, used) ? inPatternCase(pattern, `${word}-${next.word}`, true) : undefined;
    if (joined === undefined) continue;
    used.push(both);
    return joined;
  }
  return undefined;
}

function normalizeExpression(expression: string): string {
  return expression
    .replace(/(\d),(?=\d{3}(?!\d))/g, '$1')
    .replace(/multiplied by|multipli[ée] par|times|\bmal\b|\bfois\b|×|\bx\b/gi, '*')
    .replace(/(\d)\s*x\s*(\d)/gi, '$1 * $2')
    .replace(/divided by|divis[ée] par|(?:geteilt )?durch|over|÷/gi, '/')
    .replace(/plus/gi, '+')
    .replace(/minus|moins/gi, '-')
    .replace(/mod/gi, '%')
    .replace(/\s+/g, ' ')
    .trim();
}

const YES = /\b(yes|yeah|yep|true)\b/i;
const NO = /\b(no(?!\.?\s*\d)|nope|false)\b/i;
const NEGATIONS: ReadonlySet<string> = new Set(['no', 'not', 'dont', 'don', 'without', 'never', 'nope', 'false']);
const FLAG_PREFIXES: ReadonlySet<string> = new Set(['is', 'has', 'should', 'include', 'send', 'with', 'enable', 'allow', 'use']);

/** A flag is set by its distinctive word (`urgent` for `isUrgent`, negated by `not`/`without`), else by yes/no. */
function findBoolean(text: string, name: string): boolean | undefined {
  const nameWords = splitIdentifier(name)
    .filter((word) => !FLAG_PREFIXES.has(word) && word.length > 2)
    .slice(0, 1)
    .map((word) => stem(word));
  const tokens = text
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((token) => token.length > 0);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] ?? '';
    if (!nameWords.some((word) => sameWord(stem(token), word))) continue;
    const before = tokens.slice(Math.max(0, i - 3), i);
    return !before.some((word) => NEGATIONS.has(word));
  }
  if (NO.test(text)) return false;
  if (YES.test(text)) return true;
  return undefined;
}

function findNumber(text: string, property: Property, used: Span[], numericCount: number): number | undefined {
  const candidates = numberCandidates(text, property, used);
  const nameWords = [...splitIdentifier(property.name), ...contentWords(property.node.description ?? '').slice(0, 3)]
    .map((word) => stem(word))
    .filter((word) => word.length > 2);
  const tokens = tokenSpans(text);
  let best: { candidate: (typeof candidates)[number]; distance: number } | undefined;
  for (const candidate of candidates) {
    const after = tokens.findIndex((token) => token.start >= candidate.span.end);
    const cut = after === -1 ? tokens.length : after;
    tokens.forEach((token, i) => {
      // Label before the value ("limit 5") wins a tie over a word after it ("5 results").
      const distance = i < cut ? cut - i - 0.5 : i - cut + 1;
      if (distance > 3 || !nameWords.some((word) => sameWord(stem(token.word), word))) return;
      if (best === undefined || distance < best.distance) best = { candidate, distance };
    });
  }
  if (best !== undefined) {
    used.push(best.candidate.span);
    return best.candidate.value;
  }
  const count = isQuantity(property) ? findItemPhrase(text, used)?.count : undefined;
  if (count !== undefined && isFree(count.span, used)) {
    used.push(count.span);
    return count.value;
  }
  const first = candidates[0];
  // "add a teapot for 20" to a cart that takes no price: 20 is what it costs, not how many (it added 20 teapots).
  const priced = first !== undefined && isQuantity(property) && PRICE_BEFORE.test(text.slice(0, first.span.start));
  if (first !== undefined && numericCount === 1 && !priced) {
    used.push(first.span);
    return first.value;
  }
  return undefined;
}

/** A word that puts a price before a number: "for", "at", "für", "zu", "je", "pour", "à", a currency sign. */
const PRICE_BEFORE = /(?:\b(?:for|at|für|zu|je|pour)|(?<![a-z])à)\s+[€$£]?\s*$/i;

/**
 * A count in digits or words ("3", "three"); "a"/"an" as one only before a unit ("more than a week"). Digits after a
 * hyphen, a point, a slash or a colon are the end of a date, an id or a time ("2026-11-23 latest first"), no count.
 */
const COUNT_WORD = String.raw`((?<![-./:])\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|zwei|drei|vier|fünf|funf|deux|trois|quatre|cinq)`;
/** "the three most delayed", "top 5", "the 3 latest", "first ten", "the worst 5": how many of a ranked list, for a `limit`. */
const LIMIT_PHRASE = new RegExp(
  String.raw`\b(?:top|first|worst|ersten|[a-z]{3,}est)\s+${COUNT_WORD}\b|\b${COUNT_WORD}\s+(?:most|worst|premi[eè]re?s|[a-z]{3,}est)\b` +
    // "only 3", "just 2", "nur 3", "seulement 2": so many of the list, not of days ("only 3 days late").
    String.raw`|\b(?:only|just|nur|seulement)\s+(?:the\s+|die\s+|les\s+)?${COUNT_WORD}\b(?!\s*(?:days?|weeks?|hours?|tage?n?|wochen?|jours?|semaines?|%|percent))`,
  'gi',
);
/**
 * The one record a ranked list has at its top, asked for as one: "which one is the worst?", "which order is the most
 * delayed?", "the latest one", "welche ist am schlimmsten?", "laquelle est la pire ?" (a limit of 1); "is A-1012 the
 * most delayed" asks about one it names, and "the orders that are most late" about all of them.
 */
const TOP_ONE =
  /\b(?:one|which|what|whats|welche[rs]?|laquelle|lequel|quel(?:le)?)\b(?:(?!\b(?:are|sind|sont)\b).)*?\b(?:worst|most\s+[a-z]+|latest|longest|oldest|biggest|largest|am\s+schlimmsten|schlimmste[nr]?|am\s+meisten\s+[a-zäöü]+|pire|plus\s+en\s+retard)(?:\s+(?:one|order|bestellung|commande))?\s*[?.!]*$/i;
/** Names of an argument that caps how many results come back. */
const LIMIT_NAMES = /^(limit|top|max_?results|max_?items|max_?count|first|n)$/i;

/** Whether an argument caps how many results a list gives (`limit`, `top`, `max_results`). */
export function isLimitName(name: string): boolean {
  return LIMIT_NAMES.test(name);
}
/** A bound's count: as {@link COUNT_WORD}, or a fraction ("at least 2.5 days"), read whole for a whole-number bound. */
const BOUND_COUNT = String.raw`(?<![-./:])\d{1,3}(?:\.\d+)?|${COUNT_WORD.slice(1, -1)}`;
/**
 * A bound on a number: "more than 3 days", "over a week", "at least 10", "5 days or more", "mehr als 3 Tage", "plus de
 * 3 jours". A strict one ("more than 3") is one more for a whole-number minimum.
 */
const BOUND_PHRASE = new RegExp(
  String.raw`\b(?:(more\s+than|over|above|beyond|longer\s+than|greater\s+than|mehr\s+als|[uü]ber|plus\s+de)|(?:at\s+least|no\s+less\s+than|mindestens|au\s+moins))\s+` +
    String.raw`(an?|${BOUND_COUNT}|ein(?:e[nrm]?)?|une?)\s*(days?|weeks?|tage?n?|wochen?|jours?|semaines?)?\b|\b(${BOUND_COUNT})\s+(days?|weeks?)\s+or\s+more\b`,
  'gi',
);
const ONE = /^(?:an?|ein(?:e[nrm]?)?|une?)$/i;

const numberOf = (word: string): number => (ONE.test(word) ? 1 : (COUNT_WORDS[word.toLowerCase()] ?? Number(word)));

/**
 * Numbers said in words of what they bound, not beside their argument's name: a cap on results (`limit`) from "the
 * three most delayed", and a minimum (an argument described as one, "Minimum delay in days") from "more than a week"
 * (8 days: more than 7, in whole days) or "at least 10". Runs before plain numbers are read, so "3" in "more than 3
 * days" is not read as 3 for a minimum.
 */
function fillPhrasedNumbers(text: string, properties: readonly Property[], input: Record<string, unknown>, used: Span[]): void {
  for (const property of properties) {
    if (property.kind !== 'integer' && property.kind !== 'number') continue;
    if (isPrice(property.name, property.node)) {
      const price = findPrice(text, used);
      if (price !== undefined && (property.kind === 'number' || Number.isInteger(price))) input[property.name] = price;
      continue;
    }
    if (LIMIT_NAMES.test(property.name)) {
      const match = [...text.matchAll(LIMIT_PHRASE)].find((m) => isFree({ start: m.index, end: m.index + m[0].length }, used));
      const word = match?.[1] ?? match?.[2] ?? match?.[3];
      if ((match === undefined || word === undefined) && TOP_ONE.test(text)) input[property.name] = 1;
      if (match === undefined || word === undefined) continue;
      used.push({ start: match.index, end: match.index + match[0].length });
      input[property.name] = numberOf(word);
      continue;
    }
    const about = `${property.name} ${property.node.description ?? ''}`;
    if (!/\b(?:min|minimum|at least)\b|^min_|_min$/i.test(about)) continue;
    const inDays = /\bdays?\b|_days?\b|^days?_/i.test(about);
    for (const match of text.matchAll(BOUND_PHRASE)) {
      const span = { start: match.index, end: match.index + match[0].length };
      const word = match[2] ?? match[4];
      const unit = (match[3] ?? match[5] ?? '').toLowerCase();
      // "a"/"an" is a number only before a unit; a week is a number of days only for an argument counted in days.
      if (!isFree(span, used) || word === undefined || (ONE.test(word) && unit === '')) continue;
      const weeks = /^(?:week|woche|semaine)/.test(unit);
      if (weeks && !inDays) continue;
      const value = numberOf(word) * (weeks ? 7 : 1);
      used.push(span);
      // In whole days: "more than 3" is 4 and "more than 2.5" is 3; "at least 2.5" is 3 too.
      if (property.kind !== 'integer') input[property.name] = value;
      else input[property.name] = match[1] !== undefined ? Math.floor(value) + 1 : Math.ceil(value);
      break;
    }
  }
}

/** Names of an argument that holds a price. */
const PRICE_NAMES = /^(price|cost|amount|unit_?price|price_?each|each)$/i;
const MONEY = String.raw`(\d+(?:[.,]\d{1,2})?)(?![\d.,]*\d)`;
const CURRENCY = String.raw`(?:€|\$|£|eur(?:os?)?\b|euros?\b|usd\b|dollars?\b|gbp\b|pounds?\b|chf\b)`;
/**
 * A price: an amount with a currency ("€3", "12.50 EUR", "4 euros"), or one "each" or "per piece" ("for 12.50 each",
 * "at 3 apiece", "à 2 € pièce", "für 3 Euro das Stück"), or a bare amount ending the text after one thing ("add a mug
 * for 8", "leg eine Tasse für 8 rein": one thing's price; "2 mugs for 8" may be both together, and stays unread).
 */
const PRICE = new RegExp(
  String.raw`(?:[€$£]\s*${MONEY}|${MONEY}\s*${CURRENCY}|\b(?:for|at|à|a|für|zu|je)\s+${MONEY}\s+(?:each|apiece|a\s+piece|per\s+(?:item|piece|unit)|pi[eè]ce|chacune?|das\s+st[uü]ck|pro\s+st[uü]ck)\b|` +
    String.raw`(?<=\b(?:an?|one|ein(?:e[nm]?)?|une?)\s+[^\d\n,.;:!?]{1,40}\s)(?:for|at|für|zu|à|pour)\s+${MONEY}(?=(?:\s+(?:rein|dazu|hinzu|please|bitte))?\s*[.!]?\s*$))`,
  'gi',
);

/** Whether a number argument holds a price: its name says so (`price`, `unit_price`), or its description ("Unit price in EUR"). */
function isPrice(name: string, node: SchemaNode): boolean {
  return PRICE_NAMES.test(name) || /\bprice\b/i.test(node.description ?? '');
}

/** The first free price in the text (a decimal comma read as a point: "12,50 €"), marked used. */
function findPrice(text: string, used: Span[]): number | undefined {
  for (const match of text.matchAll(PRICE)) {
    const span = { start: match.index, end: match.index + match[0].length };
    const amount = match.slice(1).find((group) => group !== undefined);
    if (amount === undefined || !isFree(span, used)) continue;
    used.push(span);
    return Number(amount.replace(',', '.'));
  }
  return undefined;
}

function fillRequiredNumbers(text: string, properties: readonly Property[], input: Record<string, unknown>, used: Span[]): void {
  for (const property of properties) {
    if (!property.required || Object.hasOwn(input, property.name)) continue;
    if (property.kind !== 'number' && property.kind !== 'integer') continue;
    const first = numberCandidates(text, property, used)[0];
    if (first === undefined) continue;
    used.push(first.span);
    input[property.name] = first.value;
  }
}

function numberCandidates(text: string, property: Property, used: readonly Span[]): Array<{ value: number; span: Span }> {
  const out: Array<{ value: number; span: Span }> = [];
  for (const match of text.matchAll(NUMBER)) {
    const span = { start: match.index, end: match.index + match[0].length };
    const value = Number(match[0].replace(/,/g, ''));
    if (!isFree(span, used) || !Number.isFinite(value)) continue;
    if (property.kind === 'integer' && !Number.isInteger(value)) continue;
    out.push({ value, span });
  }
  return out;
}

function tokenSpans(text: string): Array<{ word: string; start: number; end: number }> {
  return [...text.matchAll(/[A-Za-z]+/g)].map((match) => ({
    word: match[0].toLowerCase(),
    start: match.index,
    end: match.index + match[0].length,
  }));
}

const PLACE_NAMES = /^(city|location|place|destination|origin|town|region|country|where)$/i;
const MESSAGE_NAMES = /^(body|message|text|content|note|comment|reason|details|msg)$/i;
const SUBJECT_NAMES = /^(subject|title|topic|summary)$/i;
/**
 * A message in the text: after `saying`, `with the message`, a colon (not one between digits: "at 10:30" is a time;
 * nor one after a line's first word, a label: "Reminder: move A-1003 to Friday"), or what someone is to be told
 * (`TOLD_THAT`).
 */
function findMessage(text: string, used: Span[]): string | undefined {
  const said = /(?:\bsaying|\bthat says|\bwith (?:the )?(?:message|text|body)|(?<!^\s*[A-Za-z]+)(?:(?<!\d):|:(?!\d)))\s*(.+)$/gim;
  const quoted = take(text, said, used);
  if (quoted !== undefined) return quoted;
  const told = take(text, TOLD_THAT, used) ?? take(text, TOLD_BARE, used) ?? take(text, MAILED_BARE, used) ?? take(text, TOLD_BARE_DE, used);
  return told === undefined ? undefined : addressed(told, text.slice(0, text.lastIndexOf(told)));
}

/**
 * What someone is to be told with no "that": "tell the customer of A-1006 we're sorry for the delay", "remind them
 * their order ships Monday": a clause that opens with a subject after "tell" (or "remind", "inform") and who is told.
 */
const TOLD_BARE =
  /(?=(?:we|we['’](?:re|ve|ll)|i|i['’]m|your|it|it['’]s|its|the\s+order|our|they|their|there)\b)(?<=\b(?:tell|remind|inform|notify|warn)\s+(?:(?:the|that|this)\s+(?:customer|buyer|client)(?:\s+(?:of|for)\s+(?:order\s+)?[A-Za-z]{1,3}-?\d+)?|them|him|her|(?:order\s+)?[A-Za-z]{1,3}-?\d+['’]s\s+(?:customer|buyer|client))(?:\s*,)?\s+)(\S.*)$/gim;

/**
 * What a mail says with no "that": "email the customer of A-1002 we are sorry", "email that customer we're sorry": a
 * clause that opens with "we", "I" or "it is" after a verb of mailing and who gets it (fewer openings than after "tell":
 * "email the customer their invoice" sends the invoice). It asked for a subject and a body, or mailed "customer we are
 * sorry".
 */
const MAILED_BARE =
  /(?=(?:we|we['’](?:re|ve|ll)|i|i['’]m|it['’]s|it\s+(?:is|was|will|has|ships|arrives))\b)(?<=\b(?:e-?mail|mail|write(?:\s+to)?|message)\s+(?:(?:the|that|this)\s+(?:customer|buyer|client)(?:\s+(?:of|for)\s+(?:order\s+)?[A-Za-z]{1,3}-?\d+)?|them|him|her|(?:order\s+)?[A-Za-z]{1,3}-?\d+['’]s\s+(?:customer|buyer|client)|the\s+[a-z]+(?:\s+(?:one|order))?['’]s\s+(?:customer|buyer|client))(?:\s*,)?\s+)(\S.*)$/gim;

/** The same in German, in a main clause's order already: "sag dem Kunden von A-1002 es tut uns leid". */
const TOLD_BARE_DE =
  /(?=(?:wir|es|ihre|die|der|das|sie|er|leider)\b)(?<=\b(?:sag|sage|schreib|schreibe|teile?)\s+(?:dem\s+(?:kunden|käufer|kaufer)|der\s+kundin|ihm|ihr|ihnen)(?:\s+(?:von|der|zu|zur)\s+(?:bestellung\s+)?[A-Za-z]{1,3}-?\d+)?(?:\s*,)?\s+)(\S.*)$/gim;

/** The verbs a German clause with "dass" ends with that split in a main clause ("ankommt": "kommt … an"), prefix and stem. */
const SEPARABLE =
  /^(an|ab|auf|aus|ein|mit|nach|vor|zu|zuruck|zurück|weg|bei|fest|los)(kommt|kommen|geht|gehen|stellt|stellen|ruft|rufen|liefert|liefern|trifft|treffen|gibt|geben|hört|hort|sieht|teilt|nimmt|schickt|holt|zeigt|fällt|fallt|kündigt|kundigt|läuft|lauft)$/i;
/** Words that open a German subject of two words ("ihre Bestellung", "die Lieferung"). */
const DETERMINERS = /^(?:der|die|das|den|dem|des|ein|eine|einen|ihre?[nm]?|seine?[nm]?|unsere?[nm]?|deine?[nm]?)$/i;

/**
 * A clause said to someone, as it is said to them: after "dass", in a main clause's order ("es uns leid tut": "es tut
 * uns leid"; "sie morgen ankommt": "sie kommt morgen an"), their order theirs ("seine Bestellung": "Ihre Bestellung",
 * "sa commande": "votre commande", "their order": "your order"). A German clause of more than one clause is left as it
 * is written. `before` is the text before the clause.
 */
function addressed(clause: string, before: string): string {
  if (/\bdass\s*$/i.test(before)) {
    const end = /[.!?]+$/.exec(clause)?.[0] ?? '';
    const words = clause.slice(0, clause.length - end.length).trim().split(/\s+/);
    const yours = (word: string): string => word.replace(/^(?:seine?|ihre?)([nm]?)$/, 'Ihre$1').replace(/^Ihree/, 'Ihre');
    const verb = words.at(-1);
    if (words.length < 2 || verb === undefined || /[,;]|\b(?:weil|dass|ob|wenn|da)\b/i.test(clause)) return clause;
    const rest = words.slice(0, -1).map(yours);
    const subject = DETERMINERS.test(words[0] ?? '') && rest.length > 1 ? 2 : 1;
    const split = SEPARABLE.exec(verb);
    const moved = [...rest.slice(0, subject), split?.[2] ?? verb, ...rest.slice(subject), ...(split?.[1] === undefined ? [] : [split[1]])];
    return `${moved.join(' ')}${end}`;
  }
  if (/\bqu(?:e\s*|['’]\s*)$/i.test(before)) return clause.replace(/\b(?:sa|son)\b/gi, 'votre').replace(/\bses\b/gi, 'vos');
  return clause.replace(/\b(?:his|her|their)\s+(order|package|parcel|delivery|invoice|purchase)\b/gi, 'your $1');
}

/**
 * The last line of a text of several lines (a request, then the reply to "I still need the body"), when nothing
 * else took it: the message itself, as the user typed it.
 */
function lastLineReply(text: string, used: Span[]): string | undefined {
  const start = text.lastIndexOf('\n') + 1;
  const line = text.slice(start).trim();
  if (start === 0 || line.length === 0) return undefined;
  const span = { start, end: text.length };
  if (!isFree(span, used)) return undefined;
  used.push(span);
  return line;
}

/**
 * What someone is to be told: the clause after `that` in "email the customer that it is late", "let them know that …",
 * after `dass` in "sag dem Kunden, dass sie spät kommt", after `que` in "pour dire que ça arrive lundi".
 */
// The lookahead first: the lookbehind reads back to the line's start, so it runs only where a `that` begins (run at
// every position, it made a 20,000-character message take seconds).
const TOLD_THAT =
  /(?=\bthat(?!\s+(?:customer|buyer|client|order|one|person)s?\b)|,?\s*\bdass|\bque|\bqu['’])(?<=\b(?:e-?mail|mail|tell|notify|inform|write|message|remind|warn|let\b[^\n]{1,40}?\bknow|sag\w*|schreib\w*|teil\w*\s+mit|mitteil\w*|inform\w*|dire|dis|dites|ecri\w*|previen\w*|préviens|prevenir|prévenir)\b[^\n]*?|(?<![\wÀ-ÿ])[éÉ]cri\w*\b[^\n]*?)(?:\bthat(?!\s+(?:customer|buyer|client|order|one|person)s?\b)|,?\s*\bdass|\bque|\bqu['’])\s*(\S.*)$/gim;
const QUERY_NAMES = /^(query|q|search|keyword|keywords|term|terms|question|prompt|input)$/i;
/** Property names of what a sub-agent is asked to do: `agentTool`'s `task`, and its like. */
const TASK_NAMES = /^(task|instructions?|request|assignment|goal)$/i;

function findString(text: string, property: Property, used: Span[]): string | undefined {
  const name = property.name.replace(/^(new|target|the)_?/i, '');
  const quoted = take(text, QUOTED, used);
  if (quoted !== undefined) return quoted;
  if (PLACE_NAMES.test(name)) {
    const city = findCities(text).find((match) => isFree(match, used));
    if (city !== undefined) {
      used.push(city);
      return city.city;
    }
    return take(text, /\b(?:in|for|at|to|from|near)\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)/g, used);
  }
  if (SUBJECT_NAMES.test(name)) {
    return take(text, /\b(?:about|regarding|subject:?|titled)\s+(.+?)(?=\s+(?:saying|that says)\b|[.!?\n:]|$)/gi, used);
  }
  if (MESSAGE_NAMES.test(name)) return findMessage(text, used) ?? (property.required ? lastLineReply(text, used) : undefined);
  // What an agent is to do (`agentTool`'s `task`): the request itself, as a model would pass it on.
  if (property.required && TASK_NAMES.test(name)) {
    const request = text.trim();
    return request.length > 0 ? request : undefined;
  }
  if (property.required && QUERY_NAMES.test(name)) {
    // "for me" names no topic: what follows "for" or "about" is one only when it has a word of content.
    const topic = take(text.replace(/\b(?:for|about)\s+(?=(?:me|us|you|mir|uns|moi|nous)\b)/gi, (match) => ' '.repeat(match.length)), /\b(?:for|about)\s+(.+?)[?.!]*$/gi, used);
    if (topic !== undefined) return topic;
    const words = text.split(/\s+/).filter((word) => contentWords(word).length > 0);
    return words.length > 0 ? words.join(' ').replace(/[?!.]+$/, '') : undefined;
  }
  return undefined;
}

/**
 * A required subject that the text does not give, taken from the message it does give (its first sentence, up to 60
 * characters), as a model writes a subject for the mail it was asked to send: "email the customer of A-1002 that it is
 * late" needs no second question. The user still sees both before anything is sent when the tool asks for approval.
 */
function fillSubjectFromMessage(properties: readonly Property[], input: Record<string, unknown>): void {
  const message = properties.find((p) => p.kind === 'string' && MESSAGE_NAMES.test(p.name) && typeof input[p.name] === 'string');
  const subject = properties.find((p) => p.kind === 'string' && p.required && SUBJECT_NAMES.test(p.name) && !Object.hasOwn(input, p.name));
  if (message === undefined || subject === undefined) return;
  const sentence = (String(input[message.name]).split(/(?<=[.!?])\s|\n/)[0] ?? '').replace(/[.!?]+$/, '').trim();
  const short = sentence.length <= 60 ? sentence : `${sentence.slice(0, 60).replace(/\s+\S*$/, '')}…`;
  if (short.length > 0) input[subject.name] = `${short.charAt(0).toUpperCase()}${short.slice(1)}`;
}

/** Property names (letters only) that hold the name of a thing: `name`, `item`, `productName`. */
const ITEM_NAMES = /^(name|item|itemname|product|productname|article|thing)$/i;
const QUANTITY_NAMES = /^(qty|quantity|count|units|pieces|how_?many)$/i;
const COUNT_WORDS: Readonly<Record<string, number>> = {
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
  eleven: 11,
  twelve: 12,
  zwei: 2,
  drei: 3,
  vier: 4,
  fünf: 5,
  funf: 5,
  deux: 2,
  trois: 3,
  quatre: 4,
  cinq: 5,
};
const COUNT = String.raw`(\d{1,3}|${Object.keys(COUNT_WORDS).join('|')})\s*(?:x|×)?`;
// German and French too: "Füge 2 Äpfel zum Warenkorb hinzu", "Ajoute 2 pommes au panier", "Leg 3 Tassen in den Warenkorb".
const ITEM_VERBS = 'add|put|place|insert|include|buy|purchase|order|get|grab|f[üu]ge?|leg[e]?|gib|pack|kaufe?|ajoute[rz]?|mets|mettre|ach[eè]te';
/**
 * Words that end an item phrase: where it goes (`to my cart`, `zum Warenkorb`, `au panier`), a price (`for 5 EUR`), politeness,
 * the end of a German separable verb (`Leg 2 Bananen rein`, `… dazu`, `… hinzu`).
 */
const ITEM_STOP = 'to|into|in|inside|on|onto|at|for|from|with|please|each|and|then|zum|zur|ins|den|dem|für|bitte|und|hinzu|dazu|rein|hinein|herein|au|aux|dans|à|sur|pour|et';
/** The end of a word, accented letters included (`\b` after "à" finds none). */
const END = String.raw`(?![A-Za-z\u00C0-\u024F])`;
const ITEM_PHRASE = new RegExp(
  // "add 3 more bananas": "more" says nothing of the thing (it added "more bananas").
  String.raw`\b(?:${ITEM_VERBS})\s+(?:(?:me|us|mir|uns|moi|nous)\s+)?(?:${COUNT}\s+(?:(?:more|extra|other|additional|weitere|autres)\s+)?|(?:an?|some|the|a\s+few|a\s+couple\s+of|ein(?:e[nm]?)?|une?|des|du|de\s+la)\s+)?` +
    String.raw`(?!(?:${ITEM_STOP})${END})([^\n,.;:!?"“”]+?)(?=\s+(?:${ITEM_STOP})${END}|\s*[\n,.;:!?]|\s*$)`,
  'dgi',
);
/** A line that is only a thing, as a reply to "which item?": `2 coffee beans`, `a notebook please`. */
const BARE_ITEM = new RegExp(
  String.raw`^\s*(?:(?:it\s+is|its|it's|i\s+want|just)\s+)?(?:${COUNT}\s+|(?:an?|some|the)\s+)?([A-Za-z][^,.;:!?"“”]*?)(?:\s+please)?[.!]?\s*$`,
  'di',
);
const PLACEHOLDERS = /^(something|anything|it|that|this|them|those|these|stuff|things?|items?|more|one|some|yes|no|ok|okay|sure)$/i;

/** What a count before it makes a measure, not a thing to add: "add 5 days", "add 10 percent", "add 3 euros". */
const MEASURES = /^(?:(?:days?|weeks?|months?|years?|hours?|minutes?|seconds?|percent|per\s*cent|points?|euros?|eur|dollars?|usd|cents?|tage?|wochen?|jours?|semaines?)\b|%)/i;

/** An adding verb and "a", "an", "ein(e)", "un(e)": one thing, as a count of 1 says. */
const ONE_ADDED = /^(?:add|buy|purchase|put|f[üu]ge?|leg[e]?|kaufe?|ajoute[rz]?|mets|ach[eè]te)\s+(?:(?:me|us|mir|uns|moi|nous)\s+)?(?:an?|ein(?:e[nm]?)?|une?)\s/i;
/** What is added to something other than a cart, or is not a thing at all: "a discount", "a note", "a reminder". */
const NOT_GOODS = /^(?:discount|rebate|coupon|voucher|note|comment|remark|reminder|tag|label|task|user|customer|order|delivery|e-?mail|mail|message|rabatt|notiz|kommentar|remise|commentaire)s?$/i;

/**
 * Whether the whole request is an adding verb, a count and a thing ("add 2 coffee beans", "please buy three mugs"),
 * for a tool that takes both: nothing else says where it goes or what it is for, so it is that tool's thing to add.
 */
/**
 * A price after the last thing added: "for 8 euros", "at 4.50 each", "for 8", "für 3 Euro", "à 2 €" (not part of the
 * thing's name: "add a mug for 8 euros" is a mug).
 */
const PRICE_TAIL = /\s+(?:for|at|für|fur|zu|je|pour|a|à)\s+(?:€\s*|\$\s*)?\d+(?:[.,]\d+)?\s*(?:€|\$|eur|euros?|dollars?|usd)?(?:\s+(?:each|apiece|a\s+piece|per\s+piece|pro\s+stück|pro\s+stuck|das\s+stück|chacun|chacune|la\s+pièce|piece))?$/i;

export function addsCountedItem(text: string, schema: unknown): boolean {
  const root = normalize(schema);
  const properties = Object.entries(root.properties ?? {}).map(([name, raw]) => {
    const node = normalize(raw);
    return { name, node, kind: kindOf(name, node), required: false };
  });
  if (!properties.some((p) => p.kind === 'item') || !properties.some((p) => (p.kind === 'integer' || p.kind === 'number') && isQuantity(p))) return false;
  const request = text
    .trim()
    .replace(/^(?:please|pls|kindly|(?:can|could|would)\s+(?:you|u)(?:\s+please)?)\s+/i, '')
    .replace(/(?:\s+(?:please|bitte|hinzu|dazu|rein|hinein|herein))*\s*[.!]*$/i, '')
    .replace(PRICE_TAIL, '');
  const match = new RegExp(ITEM_PHRASE.source, 'di').exec(request);
  const item = match === null ? undefined : toItemPhrase(match, 0, []);
  // "add a teapot", "füge eine Teekanne hinzu", "ajoute une théière": one, when the verb only adds and the thing is one
  // a cart holds (not "add a discount", "add a note": what those are added to is not said).
  const one = item !== undefined && ONE_ADDED.test(request) && !NOT_GOODS.test(item.name);
  if (match?.index !== 0 || (item?.count === undefined && !one) || item === undefined || MEASURES.test(item.name)) return false;
  // More things may follow, each with its count or none: "add 3 apples and 2 bananas".
  const more = new RegExp(String.raw`^${LIST_JOIN}(?:${COUNT}\s+|(?:an?|some|ein(?:e[nm]?)?|une?)\s+)?([^\n,.;:!?"“”]+?)(?=${LIST_JOIN}|$)`, 'i');
  for (let rest = request.slice(item.span.end); rest.length > 0; ) {
    const next = more.exec(rest);
    if (next === null || MEASURES.test(next[2] ?? '')) return false;
    rest = rest.slice(next[0].length);
  }
  return true;
}

/** A thing named in the text, and the count written before it. */
interface ItemPhrase {
  readonly name: string;
  readonly span: Span;
  readonly count?: { readonly value: number; readonly span: Span } | undefined;
}

function isQuantity(property: Property): boolean {
  return QUANTITY_NAMES.test(property.name) || /^how many\b/i.test(property.node.description ?? '');
}

function findItem(text: string, used: Span[]): string | undefined {
  const quoted = take(text, QUOTED, used);
  if (quoted !== undefined) return quoted;
  const item = findItemPhrase(text, used);
  if (item === undefined) return undefined;
  used.push(item.span);
  return item.name;
}

/**
 * The object of an adding verb (`add 2 coffee beans to my cart` → 2, `coffee beans`); else, when the text
 * has several lines (a request, then the reply to a question), a last line that names only a thing.
 */
function findItemPhrase(text: string, used: readonly Span[]): ItemPhrase | undefined {
  for (const match of text.matchAll(ITEM_PHRASE)) {
    const item = toItemPhrase(match, 0, used);
    if (item !== undefined) return item;
  }
  const lastLine = text.slice(text.lastIndexOf('\n') + 1);
  if (lastLine.length === text.length) return undefined;
  const match = BARE_ITEM.exec(lastLine);
  const item = match === null ? undefined : toItemPhrase(match, text.length - lastLine.length, used);
  return item !== undefined && item.name.split(/\s+/).length <= 6 ? item : undefined;
}

function toItemPhrase(match: RegExpMatchArray, offset: number, used: readonly Span[]): ItemPhrase | undefined {
  const name = (match[2] ?? '').trim();
  const [start, end] = match.indices?.[2] ?? [0, 0];
  const span = { start: offset + start, end: offset + start + name.length };
  if (end <= start || PLACEHOLDERS.test(name) || !/[A-Za-z]/.test(name) || !isFree(span, used)) return undefined;
  const rawCount = match[1]?.toLowerCase();
  const countAt = match.indices?.[1];
  if (rawCount === undefined || countAt === undefined) return { name, span };
  const value = Object.hasOwn(COUNT_WORDS, rawCount) ? (COUNT_WORDS[rawCount] ?? 1) : Number(rawCount);
  return { name, span, count: { value, span: { start: offset + countAt[0], end: offset + countAt[1] } } };
}
