import { extractArguments, hasDate, valueArguments } from './extract-arguments.ts';
import { contentWords, isChangeName, isReadName, isWeakVerb, sameWord, splitIdentifier, stem } from './words.ts';

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
  postpone: ['change', 'date'],
  move: ['change', 'date'],
  notify: ['email'],
  inform: ['email'],
  contact: ['email'],
};

const SYNONYMS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries(SYNONYM_SOURCE).map(([key, values]) => [stem(key), values.map((value) => stem(value))]),
);

function synonymsOf(word: string): readonly string[] {
  return SYNONYMS.get(word) ?? [];
}

/** What a value in the text that fills one of a tool's arguments adds (see `valueArguments`). */
const VALUE_ARGUMENT_SCORE = 3;

/**
 * Scores every tool against the text: a content word that matches a word of the tool's name counts 3
 * (1 for generic verbs such as `get`), one that matches a description word counts 1. A value in the text that only
 * one kind of argument takes (`valueArguments`) counts 3 more, once per kind of value. A time zone's or an
 * expression's argument name words count as the tool's: "what time is it in Tokyo" is for a tool with a time zone
 * argument, not one that reads the user's own zone. An expression counts alone (`2+2`), and so does an id that the
 * argument's pattern accepts ("Wo ist Bestellung A-1002?"); a city or a date only beside a word of the tool's or such
 * an id (a city may be about the weather there, a date about any day): "Move A-1003 to 2027-01-10" is for the tool
 * that takes both.
 */
export function scoreTools(text: string, tools: readonly OfflineToolInfo[]): ToolScore[] {
  const words = expand(contentWords(text), hasDate(text));
  return tools.map((tool) => {
    const values = valueArguments(text, tool.inputSchema);
    const named = values.filter((value) => value.kind === 'timezone' || value.kind === 'expression');
    const nameWords = [tool.name, ...named.map((value) => value.name)].flatMap((name) => splitIdentifier(name)).map((word) => stem(word));
    const descriptionWords = new Set(contentWords(tool.description ?? ''));
    let score = 0;
    for (const word of words) {
      const inName = nameWords.find((nameWord) => sameWord(word, nameWord));
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
    for (const kind of ['expression', 'id'] as const) if (kinds.has(kind)) score += VALUE_ARGUMENT_SCORE;
    const beside = score > 0;
    for (const kind of ['timezone', 'date', 'message'] as const) if (kinds.has(kind) && beside) score += VALUE_ARGUMENT_SCORE;
    return { tool, score };
  });
}

/**
 * The best-scoring tool above {@link MIN_TOOL_SCORE}. A tie means the text named what it is about (`cart`) but no
 * action that sets one tool apart, as in "show my cart" or "what's in my cart": a tool that only reads
 * (`cart_list`) wins over one that changes something (`cart_add`, `cart_clear`), since guessing wrong must not
 * change anything. Remaining ties go to the tool listed first.
 */
export function pickTool(text: string, tools: readonly OfflineToolInfo[]): OfflineToolInfo | undefined {
  const scores = scoreTools(text, tools).filter((candidate) => candidate.score >= MIN_TOOL_SCORE);
  const best = bestOf(scores);
  // A question that does not give what a change needs asks about the present ("When is A-1002 delivered?", "What's
  // the delivery date of A-1002?"): the best tool that only reads answers it, instead of a change asking for a new date.
  if (best !== undefined && isChangeName(best.name) && isQuestion(text) && extractArguments(text, best.inputSchema).missing.length > 0) {
    return bestOf(scores.filter((candidate) => isReadName(candidate.tool.name))) ?? best;
  }
  return best;
}

function bestOf(scores: readonly ToolScore[]): OfflineToolInfo | undefined {
  let best: { readonly candidate: ToolScore; readonly reads: boolean } | undefined;
  for (const candidate of scores) {
    const reads = isReadName(candidate.tool.name);
    if (best === undefined || candidate.score > best.candidate.score || (candidate.score === best.candidate.score && reads && !best.reads)) {
      best = { candidate, reads };
    }
  }
  return best?.candidate.tool;
}

/** Requests put as questions: "Can you …", "Could we …", "Please …". */
const REQUEST = /^(?:please|pls|kindly|(?:can|could|would|will)\s+(?:you|u|we|i)\b)/;
const QUESTION_WORD = /^(?:what|whats|when|where|which|who|why|how|is|are|was|were|has|have|does|do|did)\b/;

/** Whether the text asks something rather than asking for something: a `?` or a question word, and no request. */
function isQuestion(text: string): boolean {
  const trimmed = text.trim().toLowerCase().replace(/['’]/g, '');
  return !REQUEST.test(trimmed) && (trimmed.endsWith('?') || QUESTION_WORD.test(trimmed));
}

/**
 * Words that mean "change the date" only beside a date: "delay A-1003 until 2027-01-10", but "the delay", "delayed
 * orders" otherwise (stemmed once, at load).
 */
const DATED_SYNONYMS: ReadonlyMap<string, readonly string[]> = new Map([[stem('delay'), ['change', 'date'].map((value) => stem(value))]]);

function expand(words: readonly string[], dated: boolean): string[] {
  const out = new Set<string>();
  for (const word of words) {
    out.add(word);
    for (const synonym of synonymsOf(word)) out.add(synonym);
    if (dated) for (const synonym of DATED_SYNONYMS.get(word) ?? []) out.add(synonym);
  }
  return [...out];
}
