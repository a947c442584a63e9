import type {
  LanguageModelV4CallOptions,
  LanguageModelV4FunctionTool,
  LanguageModelV4Prompt,
  LanguageModelV4ToolCallPart,
  LanguageModelV4ToolResultPart,
} from '@ai-sdk/provider';
import {
  describeArgument,
  type ExtractedArguments,
  extractArguments,
  extractArgumentSets,
  expressionArgument,
  hasDate,
  idArgument,
  idLikeWords,
  isDateArgument,
  isLimitName,
  isMessageArgument,
  itemArgument,
  phrasedNumbers,
  timeZoneArgument,
  suggestedId,
  unacceptedIds,
  valueArguments,
  withoutMessage,
} from './extract-arguments.ts';
import { countingTool, type MessageRequest, missingTopic, pickAdder, pickTool, splitRequests, unlistedAll, wordsFor } from './match-tool.ts';
import { addDays, type DateShift, dayNextToAsked, type ReadDates, readRelativeDates, unreadDay } from './relative-dates.ts';
import { summarizeToolResults } from './summarize-results.ts';
import { detectLanguage, type Language, nounIn, WORDINGS, type Wording, wordingFor } from './wording.ts';
import { EDIT_NOTE_END, EDIT_NOTE_START } from '@edgetool/core';
import { findTimeZones, nearCity, unknownPlace, zonedCountry } from './time-zones.ts';
import type { OfflineReply, OfflineRule, OfflineRuleInput, OfflineToolCall } from './types.ts';
import { otherMaths, readWordedSums } from './worded-sums.ts';
import { contentWords, fold, humanize, isChangeName, isReadName, isWeakVerb, splitIdentifier, stem } from './words.ts';

/**
 * Marker the model uses when it asks for a missing argument (in English; each language's wording has its own), so the
 * next user message is read together with it.
 */
export const ASK_MARKER: string = WORDINGS.en.askMarker;

const SLASH_LINE = /^\s*\/([A-Za-z_][\w.-]*)(?:\s+(.*?))?\s*$/;

/** What {@link planReply} reads besides the call: custom rules, and the clock relative days are read against. */
export interface PlanOptions {
  readonly rules?: readonly OfflineRule[] | undefined;
  /** "Now" for "tomorrow", "next Monday", "in 3 days" (its UTC day). Default `new Date()`. */
  readonly now?: (() => Date) | undefined;
}

/**
 * Decides the reply for one model call: custom rules, then tool results (or the call a move "by a week" makes once the
 * date it moves from is read), slash commands, a topic no tool covers, the time of a place it does not know, tool
 * matching (one call per request of a message that makes several), help.
 */
export function planReply(options: LanguageModelV4CallOptions, plan: PlanOptions = {}): OfflineReply {
  const prompt = clippedUserTexts(options.prompt);
  if (prompt === options.prompt) return planWholeReply(options, plan);
  const reply = planWholeReply({ ...options, prompt }, plan);
  const last = options.prompt[lastIndexOfRole(options.prompt, 'user')];
  const length = last?.role === 'user' ? last.content.reduce((sum, part) => sum + (part.type === 'text' ? codePointCount(part.text) : 0), 0) : 0;
  if (length <= OFFLINE_READ_LIMIT) return reply;
  const note = wordingFor(userTextAtLast(prompt)).readOnly(OFFLINE_READ_LIMIT, length);
  return { ...reply, text: reply.text === undefined ? note : `${note} ${reply.text}` };
}

/**
 * The most characters (code points: an emoji is one, as people count it, not the two UTF-16 units JavaScript's `length`
 * counts) of one user message's text the offline model reads; the rest is left out. Its reading goes over a message once
 * per request it finds in it, so its time grows with the square of the length (a 20,000-character note took seconds of
 * CPU, a 192 KB one over a minute, on a Worker that has no model bill to stop it); a request typed to the demo is a few
 * hundred characters.
 */
export const OFFLINE_READ_LIMIT = 2_000;

/**
 * `prompt` with each user message's text parts cut to {@link OFFLINE_READ_LIMIT} characters (code points) in all; the
 * same array when none is longer. A message of emoji was cut at 1,000 of them, and said to hold twice as many.
 */
function clippedUserTexts(prompt: LanguageModelV4Prompt): LanguageModelV4Prompt {
  let clipped = false;
  const cut = prompt.map((message) => {
    if (message.role !== 'user') return message;
    let left = OFFLINE_READ_LIMIT;
    let cutHere = false;
    const content = message.content.map((part) => {
      if (part.type !== 'text') return part;
      // Between characters, never between the two halves of one such as an emoji: the model quotes what it could not
      // do, and a lone half reached the reply ("I did not do "book a taxi to …\ud83d"").
      const end = unitsOfCodePoints(part.text, Math.max(0, left));
      left -= codePointCount(part.text);
      if (end === part.text.length) return part;
      cutHere = true;
      return { ...part, text: part.text.slice(0, end) };
    });
    clipped ||= cutHere;
    return cutHere ? { ...message, content } : message;
  });
  return clipped ? cut : prompt;
}

/** How many code points `text` holds: its UTF-16 units less one for each surrogate pair. */
function codePointCount(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      pairs += 1;
      i += 1;
    }
  }
  return text.length - pairs;
}

/** The UTF-16 length of the first `points` code points of `text` (all of it when it holds fewer). */
function unitsOfCodePoints(text: string, points: number): number {
  let at = 0;
  for (let read = 0; read < points && at < text.length; read++) {
    const unit = text.charCodeAt(at);
    const next = text.charCodeAt(at + 1);
    at += unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return at;
}

/** {@link PlanOptions} and the language of a message read as another text (a correction's value alone: "Tokio meinte ich"). */
interface WholePlan extends PlanOptions {
  readonly language?: Language | undefined;
}

/** {@link planReply} on a prompt whose user messages are within {@link OFFLINE_READ_LIMIT}. */
function planWholeReply(options: LanguageModelV4CallOptions, plan: WholePlan): OfflineReply {
  const ruleInput = readPrompt(options);
  const wordingOf = (text: string): Wording => (plan.language === undefined ? wordingFor(text) : WORDINGS[plan.language]);
  for (const rule of plan.rules ?? []) {
    const reply = rule(ruleInput);
    if (typeof reply === 'string') return { type: 'text', text: reply };
    if (reply !== undefined) return reply;
  }
  const now = plan.now ?? (() => new Date());
  // "move A-1002 to friday, no wait, saturday": the value after the correction replaces the one before it.
  const userText = userTextAtLast(options.prompt);
  const corrected = withoutTrailingCorrection(correctedText(userText, now()));
  // "Tokio meinte ich" is read as "Tokio", and answered in German still (it answered in English: "Tokio" is no German).
  const spoken = detectLanguage(userText);
  const language = spoken === 'en' ? plan.language : spoken;
  if (corrected !== userText) return planWholeReply({ ...options, prompt: withLastUserText(options.prompt, corrected) }, { ...plan, language });
  // "move A-1002 to that day" after "when is christmas?": the day that answer gave (it asked for a date).
  const thatDay = dayReferredTo(options.prompt, userText);
  if (thatDay !== undefined) {
    const reply = planWholeReply({ ...options, prompt: withLastUserText(options.prompt, thatDay.text) }, plan);
    if (ruleInput.toolResults.length > 0) return reply;
    const note = wordingOf(userText).referred(thatDay.phrase, thatDay.date);
    return { ...reply, text: reply.text === undefined ? note : `${note} ${reply.text}` };
  }
  // "time in tokio and londn": a city typed with a slip beside one that is known is read as the city it nearly is, and
  // said so (it read Tokyo alone, and said it did not do "londn").
  const listed = ruleInput.toolResults.length > 0 ? undefined : slippedListedCity(userText);
  if (listed !== undefined) {
    const reply = planWholeReply({ ...options, prompt: withLastUserText(options.prompt, listed.text) }, { ...plan, language: plan.language ?? spoken });
    if (reply.type !== 'tool-calls') return reply;
    const note = wordingOf(userText).placeReadAs(listed.typed, listed.city);
    return { ...reply, text: reply.text === undefined ? note : `${note} ${reply.text}` };
  }
  // "and A-1002?" after "send the invoice for A-1003 to the customer": that whole request again, for A-1002 (each step).
  const restated = restatedRequest(options.prompt, ruleInput.tools, now());
  if (restated !== undefined) {
    const reply = planWholeReply({ ...options, prompt: withLastUserText(options.prompt, restated.text) }, { now });
    if (ruleInput.toolResults.length > 0 || reply.type !== 'tool-calls') return reply;
    const restatedWording = wordingOf(restated.text);
    const again = restatedWording.again(joinList([...new Set(reply.calls.map((call) => call.toolName))], restatedWording.and), restated.ids);
    return { ...reply, text: reply.text === undefined ? again : `${again} ${reply.text}` };
  }
  // "and A-1003?" after "email it to the customer" mailed A-1002's invoice: A-1003's is made, and mailed once it is in.
  const remade = ruleInput.toolResults.length > 0 ? undefined : remadeAndSent(options.prompt, ruleInput.tools);
  if (remade !== undefined) {
    const remadeWording = wordingOf(userTextAtLast(options.prompt));
    const again = remadeWording.again(joinList([...new Set(remade.calls.map((call) => call.toolName))], remadeWording.and), remade.ids);
    const reply = followUpReply(remade, undefined, remadeWording);
    return { ...reply, text: `${again} ${reply.text ?? ''}`.trim() };
  }
  if (ruleInput.toolResults.length > 0) {
    // In the language of the request, also when the last message was only the reply to a question ("ja", "oui").
    const wording = wordingOf(withPendingQuestion(options.prompt, ruleInput.userText));
    return (
      pickedDateChange(ruleInput, wording) ??
      clocksApartFromResults(ruleInput, wording) ??
      shiftFromResults(ruleInput, now(), wording) ??
      followUpFromResults(ruleInput, now(), wording, remadeAndSent(options.prompt, ruleInput.tools)) ?? {
        type: 'text',
        text: summarizeToolResults(ruleInput.toolResults, wording),
      }
    );
  }

  const choice = options.toolChoice ?? { type: 'auto' };
  const tools = choice.type === 'tool' ? ruleInput.tools.filter((t) => t.name === choice.toolName) : ruleInput.tools;
  if (choice.type === 'none') return { type: 'text', text: helpText(ruleInput.userText, [], wordingOf(ruleInput.userText)) };

  // A forced tool (`toolChoice: { type: 'tool' }`) is the only one a slash command may call: the AI SDK rejects any other.
  const known = ruleInput.tools.map((t) => t.name);
  const slashCalls = parseSlashCommands(ruleInput.userText, known).filter((call) => choice.type !== 'tool' || call.toolName === choice.toolName);
  if (slashCalls.length > 0) return { type: 'tool-calls', calls: slashCalls };

  // "never mind", "lass es" after a request: it is left as it is (see `dismissal`), not read as a request of its own.
  const dismissed = choice.type === 'auto' ? dismissal(options.prompt, ruleInput.userText, tools) : undefined;
  if (dismissed !== undefined) return { type: 'text', text: dismissed };
  // "why not?" after a change that was declined: why nothing was done, and how to have it done (it looked the order up).
  const declined = choice.type === 'auto' ? declinedWhy(options.prompt, ruleInput.userText) : undefined;
  if (declined !== undefined) return { type: 'text', text: declined };
  // "have a nice day", "bye": a farewell is answered as one, before "day" reaches a clock.
  const leaving = choice.type === 'auto' ? pleasantryOf(ruleInput.userText) : undefined;
  // "à plus", "à bientôt" hold no word that marks French once folded: French still.
  const leavingWording = /\ba\s+(?:plus|bientot|demain|la\s+prochaine)\b/.test(fold(ruleInput.userText)) ? WORDINGS.fr : wordingOf(ruleInput.userText);
  if (leaving === 'farewell') return { type: 'text', text: leavingWording.farewell };
  // "thanks, bye", "danke, tschüss", "merci, au revoir": thanks said in leaving are a goodbye, not "Anything else?".
  if (leaving === 'thanked-farewell' || leaving === 'thanked-wishes') return { type: 'text', text: leavingWording.welcomeFarewell(leaving === 'thanked-wishes') };

  const asked = withPendingQuestion(options.prompt, ruleInput.userText);
  // The user's language for the answer's fixed phrases ("Reading …", "I still need …"); English unless German or French.
  const wording = wordingOf(asked);
  // "tomorrow", "next Monday", "in 3 days" become ISO dates here, so every rule below reads them as it reads 2027-01-10.
  const dates = readRelativeDates(asked, now());
  // "15% of 240", "half of 90" become arithmetic the same way, for a tool that takes an expression.
  const text = readWordedSums(dates.text);
  const forced = choice.type === 'required' || choice.type === 'tool';
  // "what's the date tomorrow?", "and the day after?" after a clock: the day the model reads, said; no tool asks it.
  const day = forced || asked !== ruleInput.userText ? undefined : dayAnswer(options.prompt, ruleInput.userText, tools, now(), wording);
  if (day !== undefined) return { type: 'text', text: day };
  // "pick a delivery date for A-1003", "lass mich ein Datum für A-1003 wählen": the date picker asks it, and the change
  // is made with the day picked once it is in (pickedDateChange); it asked for the date as text.
  const clocks = forced || asked !== ruleInput.userText ? undefined : clocksAsked(options.prompt, text, tools);
  if (clocks !== undefined) return { type: 'tool-calls', calls: clocks };
  const picking = forced || asked !== ruleInput.userText || dates.dates.length > 0 ? undefined : datePickFor(text, tools);
  if (picking !== undefined) return { type: 'tool-calls', calls: [{ toolName: picking.picker.name, input: { [picking.question]: wording.pickQuestion(picking.id) } }] };
  if (!forced) {
    // "where is A-1002 and book a taxi": the request that is read is done, and the one that is not is named.
    const partial = asked === ruleInput.userText && sendsMade(text, tools) === undefined ? partialRequests(text, tools, wording) : undefined;
    if (partial !== undefined) return withReadingNote(partial, dates, wording);
    // "remove the pears" after they were added to the cart: no tool takes one thing out (cart_clear empties it all).
    // "remove everything" right after: that tool, as "remove everything from my cart" calls it.
    const taken = asked === ruleInput.userText ? takenOut(options.prompt, text, tools) : undefined;
    if (taken?.part === undefined && taken !== undefined) return { type: 'tool-calls', calls: [{ toolName: taken.tool.name, input: {} }] };
    if (taken?.part !== undefined) return { type: 'text', text: wording.removesAll(taken.tool.name, taken.part) };
    // "how many?" after a list: its count, with no tool (it got the help text).
    const counted = asked === ruleInput.userText ? listCount(options.prompt, text, wording) : undefined;
    if (counted !== undefined) return { type: 'text', text: counted };
    // "which status has the most?" after the chart: read from the counts it gave, with no tool (it got the help text).
    const most = asked === ruleInput.userText && pickTool(text, tools) === undefined ? mostCounted(options.prompt, text, wording) : undefined;
    if (most !== undefined) return { type: 'text', text: most };
    // "what is the time difference?" after the time in two cities: from their offsets, with no tool (it got the help text).
    const apart = asked === ruleInput.userText ? timeDifference(options.prompt, text, wording) : undefined;
    if (apart !== undefined) return { type: 'text', text: apart };
    // "actually make it 5" after "add 3 bananas": no tool sets an amount; say what adding or emptying can do (it listed the cart).
    const amount = asked === ruleInput.userText ? newAmount(options.prompt, text, tools) : undefined;
    if (amount !== undefined) {
      const more = amount.wanted > amount.had ? amount.wanted - amount.had : undefined;
      return { type: 'text', text: wording.setsNoAmount(amount.adder, amount.thing, amount.wanted, more, amount.clear) };
    }
    // "add 2 more", "noch 2", "encore 2" after 3 bananas were added (or after the answer to "make it 5"): 2 more bananas.
    const again = asked === ruleInput.userText ? addedAgain(options.prompt, text, tools) : undefined;
    if (again !== undefined) return { type: 'tool-calls', calls: [again] };
    // "What's the weather in Berlin?" with no weather tool: say so, rather than answer with the tool nearest in words.
    const topic = missingTopic(text, tools);
    if (topic !== undefined) return { type: 'text', text: noToolText(topic, text, ruleInput.tools, wording) };
    // "how many orders are there": a tool about them that returns their counts answers it (orders_chart), not a list.
    const counter = countingTool(text, tools);
    if (counter !== undefined) return { type: 'tool-calls', calls: [{ toolName: counter.name, input: {} }] };
    // "show all orders" with tools that list the delayed ones or read one: say no tool lists them all, and what exists.
    const all = unlistedAll(text, tools);
    if (all !== undefined) {
      const offers = all.tools.map((tool) => (tool.description === undefined ? tool.name : `${tool.name} (${firstClause(tool.description)})`));
      return { type: 'text', text: wording.listsNone(all.every, all.thing, joinList(offers, wording.and)) };
    }
    // "What time is it in Atlantis?": say the place is not known, rather than answer with a zone the user did not mean.
    // "and in the USA?" after a question of the time: a place alone goes on from it.
    const afterClock = callsOf(previousTurn(options.prompt)).some((call) => timeZoneArgument(tools.find((candidate) => candidate.name === call.toolName)?.inputSchema) !== undefined);
    const place = unknownPlace(text, asked === ruleInput.userText && afterClock);
    // "time in new yrok", "and londn?" after a clock: a typo of a city it knows is read as that city, and said so (it did
    // not know the place, or got the help text).
    const slip = place ?? (asked === ruleInput.userText && afterClock && findTimeZones(text).length === 0 ? PLACE_GOES_ON.exec(fold(text).trim())?.[1] : undefined);
    const near = slip === undefined ? undefined : nearCity(slip);
    const clock = place === undefined && near === undefined ? undefined : tools.find((tool) => timeZoneArgument(tool.inputSchema) !== undefined);
    const zoneName = clock === undefined ? undefined : timeZoneArgument(clock.inputSchema);
    if (slip !== undefined && near !== undefined && clock !== undefined && zoneName !== undefined) {
      const at = fold(text).indexOf(slip);
      const typed = place ?? (at < 0 ? slip : text.slice(at, at + slip.length));
      return { type: 'tool-calls', calls: [{ toolName: clock.name, input: { [zoneName]: near.zone } }], text: wording.placeReadAs(typed, near.city) };
    }
    if (place !== undefined && clock !== undefined) {
      // "time in the USA": a country of several zones is known, but not which of its times is meant.
      const country = zonedCountry(place);
      const text = country === undefined ? wording.unknownPlace(place, clock.name) : wording.severalZones(country.country, joinList(country.cities, wording.or), clock.name);
      return { type: 'text', text };
    }
    // "factorial of 5" with a calculator of arithmetic: say what it can do, rather than ask for an expression.
    const maths = otherMaths(text);
    const calculator = maths === undefined ? undefined : tools.find((tool) => expressionArgument(tool.inputSchema) !== undefined);
    if (maths !== undefined && calculator !== undefined && !valueArguments(text, calculator.inputSchema).some((value) => value.kind === 'expression')) {
      const can = (calculator.description ?? '').split(/(?<=[.!?])\s+/).slice(1).join(' ');
      return { type: 'text', text: wording.otherMaths(maths, calculator.name, can) };
    }
    // Two requests in one message ("Where is A-1002 and what time is it in Tokyo?"): a call for each.
    // ("send the invoices for A-1001 and A-1003 to the customers" is one: made now, each mailed once it is in.)
    if (asked === ruleInput.userText) {
      const calls = sendsMade(text, tools) === undefined ? callsPerRequest(text, tools) : undefined;
      if (calls !== undefined) return withReadingNote({ type: 'tool-calls', calls }, dates, wording);
      // "Move A-1004 to Friday and email the customer": the change now, the mail once it is made (followUpFromResults).
      // "email the customer to apologise for the delay" after "where is A-1002": the order it refers back to is looked up.
      const mailer = purposeOf(text) === undefined ? undefined : purposeTool(text, tools);
      // "send the invoice to the customer" after "where is A-1003": that order's invoice is made, then mailed.
      const maker = mailer === undefined && sentMade(text, tools) === undefined ? madeToSend(text, tools) : undefined;
      const madeFor = maker === undefined ? undefined : referredId(options.prompt, text, maker);
      // "Schick die Rechnung an den Kunden" with no order named before: the invoice's order id is asked for (the mail's
      // subject and text were asked for too), and the reply makes it and mails it (sentOnAnswer).
      const makerId = maker === undefined || madeFor !== undefined ? undefined : idArgument(maker.inputSchema);
      if (maker !== undefined && makerId !== undefined && extractArguments(text, maker.inputSchema).missing.every((name) => name === makerId)) {
        return { type: 'text', text: wording.ask(maker.name, describeArgument(maker.inputSchema, makerId, wording.argument)) };
      }
      const mailed = mailer === undefined ? madeFor : referredId(options.prompt, text, mailer);
      const follow =
        mailed === undefined ? followUps(text, tools) : madeFor !== undefined ? sentMade(text, tools, madeFor.id) : purposeFollowUp(text, tools, mailed.id);
      if (follow !== undefined && follow.calls.length > 0) {
        const note = mailed === undefined ? undefined : referredNote(mailed, wording);
        return withReadingNote(followUpReply(follow, note, wording), dates, wording);
      }
    }
    // "A-1002" given for the order id "send the invoice to the customer" lacked: made now, and mailed once it is in.
    const answered = asked === ruleInput.userText ? undefined : sentOnAnswer(asked, tools);
    if (answered !== undefined && answered.calls.length > 0) return withReadingNote(followUpReply(answered, undefined, wording), dates, wording);
  }
  // "how much is that with 19% VAT?" after an invoice: its total, taken on (it made the invoice again).
  const rated = forced || asked !== ruleInput.userText ? undefined : rateOfEarlier(options.prompt, ruleInput.userText, tools);
  if (rated !== undefined) {
    const note = rated.phrase === undefined ? wording.ratedAmount(rated.amount) : wording.referred(rated.phrase, rated.amount);
    if (rated.call !== undefined) return { type: 'tool-calls', calls: [rated.call], text: note };
    return { type: 'text', text: `${note} ${rated.said}` };
  }
  // "and with 19% VAT?" after a lookup, which shows no amount: say so, and what does (it looked the order up again).
  const noAmount = forced || asked !== ruleInput.userText ? undefined : noAmountForRate(options.prompt, ruleInput.userText, tools, wording);
  if (noAmount !== undefined) return { type: 'text', text: noAmount };
  // "times 3" after "what is 15% of 80": the last sum, taken on.
  const sum = forced || asked !== ruleInput.userText ? undefined : continuedSum(options.prompt, text, tools);
  if (sum !== undefined) return { type: 'tool-calls', calls: [sum] };
  // "and 3 spoons" after "add 2 mugs": more of what was just added.
  const more = forced || asked !== ruleInput.userText ? undefined : addedMore(options.prompt, text, tools);
  if (more !== undefined) return { type: 'tool-calls', calls: more };
  // "top 3 only", "more than a week?" after the list of late orders: that list again, with that bound.
  const bounded = forced || asked !== ruleInput.userText ? undefined : listAgain(options.prompt, text, tools);
  if (bounded !== undefined) return { type: 'tool-calls', calls: [bounded.call], text: wording.again(bounded.call.toolName, joinList(bounded.values, wording.and)) };
  // "which one is the worst?" after an audit, "which one is later?" after two clocks: from what they showed (it looked the
  // first order up, or got the help text).
  const compared = forced || asked !== ruleInput.userText ? undefined : compareShown(options.prompt, text, wording);
  if (compared !== undefined) return { type: 'text', text: compared };
  // "what is the total?" after an invoice: its total (it looked the order up).
  const total = forced || asked !== ruleInput.userText ? undefined : totalAsked(options.prompt, text, tools, wording);
  if (total !== undefined) return { type: 'text', text: total };
  // "round that" after a lookup, which shows no number: say so (it looked the order up again).
  const noNumber = forced || asked !== ruleInput.userText ? undefined : noNumberToWorkOn(options.prompt, ruleInput.userText, tools, wording);
  if (noNumber !== undefined) return { type: 'text', text: noNumber };
  // "the day after then" after a move to Dec 12 that was denied: that move again, to the day next to the one asked.
  const nextTo = forced || asked !== ruleInput.userText ? undefined : movedNextTo(options.prompt, text, dates, tools);
  if (nextTo !== undefined) return { type: 'tool-calls', calls: [nextTo.call], text: wording.again(nextTo.call.toolName, nextTo.values.join(' ')) };
  // "and for A-1001?" after an invoice, "ok then Dec 15" after a move that was denied: the last call, with the new value.
  const again = forced || asked !== ruleInput.userText ? undefined : repeatedCall(options.prompt, text, tools, now());
  if (again !== undefined) {
    const values = joinList(again.values, wording.and);
    return withReadingNote({ type: 'tool-calls', calls: [again.call], text: wording.again(again.call.toolName, values) }, dates, wording);
  }
  const picked =
    pickTool(withShiftNamed(text, dates.shift), tools) ??
    pickAdder(text, tools) ??
    (forced ? tools[0] : asked === ruleInput.userText ? thingOfLastCall(options.prompt, text, tools) : undefined);
  // "is it late?", "when will it arrive?" after "status of A-1010": a list or no tool at all, read as about that order.
  // "when was it delivered?" after "where is A-1009": a question about it, not a change of its delivery date.
  const asksOfChange =
    picked !== undefined &&
    isChangeName(picked.name) &&
    QUESTION_FIRST.test(fold(text).trim()) &&
    extractArguments(text, picked.inputSchema).missing.some((name) => name !== idArgument(picked.inputSchema));
  const tool =
    forced || asked !== ruleInput.userText
      ? picked
      : asksOfChange
        ? (aboutEarlier(options.prompt, text, tools, undefined) ?? picked)
        : picked !== undefined && (!isReadName(picked.name) || idArgument(picked.inputSchema) !== undefined)
          ? // "why is it late?" after "where's A-1010": about that order, as "why is A-1010 late?" is (not the analyst's task).
            isChangeName(picked.name) || idArgument(picked.inputSchema) !== undefined
            ? picked
            : (aboutEarlier(options.prompt, text, tools, picked) ?? picked)
          : (aboutEarlier(options.prompt, text, tools, picked) ?? picked);
  if (tool === undefined) {
    // "where is #1002": an id no tool takes, in a text that names no tool; say what the lookup's ids look like.
    const unread = unreadId(text, tools);
    if (unread !== undefined) return { type: 'text', text: notAnIdText(unread.tool, unread.name, unread.given, wording) };
    // "thanks!", "hi": a thank-you is answered as one, a greeting with what the model can do (no "I did not find a tool").
    const pleasantry = pleasantryOf(ruleInput.userText);
    if (pleasantry === 'thanks') return { type: 'text', text: wording.welcome };
    if (pleasantry === 'greeting' && ruleInput.tools.length > 0) return { type: 'text', text: `${wording.helpIntro} ${toolList(ruleInput.tools, wording)}` };
    // "ok", "alles klar", "d'accord": an acknowledgement is answered as one (it got the help text).
    if (ACKNOWLEDGEMENT.test(fold(ruleInput.userText).trim())) return { type: 'text', text: wordingOf(ruleInput.userText).noted };
    return { type: 'text', text: helpText(ruleInput.userText, ruleInput.tools, wording) };
  }

  // "move it to Friday" after a lookup of A-1002: the id the conversation is about, for a text that refers back to it.
  const referred = forced ? undefined : referredId(options.prompt, text, tool);
  const said = referred === undefined ? text : `${referred.id} ${text}`;
  const noted = (reply: OfflineReply): OfflineReply =>
    referred === undefined
      ? reply
      : {
          ...reply,
          text: [referredNote(referred, wording), reply.text].filter((part) => part !== undefined).join(' '),
        };
  const part = forced ? undefined : removedPart(said, tool);
  if (part !== undefined) {
    return { type: 'text', text: wording.removesAll(tool.name, part) };
  }
  const read = extractArgumentSets(said, tool.inputSchema);
  // The count of "add 5 days" is no value of the change it asks for (no order "5"), when the change lacks a date.
  const moved = dates.shift !== undefined && isChangeName(tool.name) && read[0].missing.some((name) => isDateArgument(tool.inputSchema, name));
  const sets = moved && dates.shift !== undefined ? extractArgumentSets(withoutShift(said, dates.shift), tool.inputSchema) : read;
  const { missing } = sets[0];
  if (missing.length > 0 && !forced) {
    // "Move A-1006 by a week": read the order's date first; the move follows once its result is in (shiftFromResults).
    const lookup = dates.shift === undefined ? undefined : lookupBeforeShift(said, tool, tools, dates.shift, wording);
    if (lookup !== undefined) return noted(lookup);
    // "email the customer about it" after A-1004 was moved: the mail says what the last message's change made of it.
    // One mail per id ("email them about it" after two moves), each saying what its call made.
    // Mails of one kind are said in one sentence ("what they hold: "…" and "…""), not one each.
    const told = forced ? [] : sets.map((set) => toldFromEarlier(options.prompt, tool, set, wording));
    const each = told.every((mail) => mail !== undefined) ? (told as Told[]) : [];
    if (each.length > 0) {
      const kinds = [...new Set(each.map((mail) => mail.kind))];
      const text = kinds.map((kind) => {
        const mails = each.filter((mail) => mail.kind === kind);
        return wording.toldEarlier(tool.name, kind, joinList(mails.map((mail) => `"${mail.said}"`), wording.and), mails.length > 1);
      });
      return noted({ type: 'tool-calls', calls: each.map((mail) => mail.call), text: text.join(' ') });
    }
    // "add 5 days" with no order named: the shift gives the date once the order's is read, so only the order is asked for.
    const shifted = dates.shift === undefined || !isChangeName(tool.name) ? [] : missing.filter((name) => isDateArgument(tool.inputSchema, name));
    const asked = shifted.length < missing.length ? missing.filter((name) => !shifted.includes(name)) : missing;
    // "What is the status of order Z-9999?": the user gave an id, one the tool does not take; say so, and what ids look like.
    const wrong = asked.flatMap((name) => unacceptedIds(text, tool.inputSchema, name, wordsFor).map((given) => ({ name, given }))).at(-1);
    if (wrong !== undefined) return { type: 'text', text: notAnIdText(tool, wrong.name, wrong.given, wording) };
    const needs = asked.map((name) => describeArgument(tool.inputSchema, name, wording.argument));
    const question = wording.ask(tool.name, joinList(needs, wording.and));
    // "deliver A-1002 on Diwali": a day the model does not know is named, not guessed, and its date asked for.
    // "move A-1003 to the 31st of February": a day no calendar has is said to be none, not asked for as if none were given.
    const asksDate = asked.some((name) => isDateArgument(tool.inputSchema, name));
    if (asksDate && dates.impossible !== undefined) {
      // "2026-13-01": no month 13, which "that month has fewer days" did not say.
      const none = dates.noMonth === true ? wording.noSuchMonth(dates.impossible, dates.impossible.slice(5, 7)) : wording.noSuchDay(dates.impossible);
      return noted({ type: 'text', text: `${none} ${question}` });
    }
    const day = asksDate ? unreadDay(withoutMessage(said)) : undefined;
    return noted({ type: 'text', text: day === undefined ? question : `${wording.unknownDay(day)} ${question}` });
  }
  const lookup = forced ? undefined : lookupInsteadOfItem(sets[0].input, tool, tools, wording);
  if (lookup !== undefined) return lookup;
  // Several ids of one shape ("orders A-1002 and A-1003"): one call each, in parallel, as a model makes them.
  return noted(withReadingNote({ type: 'tool-calls', calls: sets.map((set) => ({ toolName: tool.name, input: set.input })) }, dates, wording));
}

/**
 * Words that refer back to a record named before ("move it to Friday", "its invoice", "that order", "the customer"), in
 * English, German and French (folded); none of them in what is to be said ("tell them that it is late": "them").
 */
const REFERS_BACK =
  /\b(?:it|its|that|this|same|the\s+(?:order|customer|buyer|client)|sie|es|ihn|ihre?[nrm]?|diese[nrs]?|die\s+bestellung|den\s+kunden|la|le|sa|son|elle|cette|celle-ci|la\s+commande|le\s+client)\b/;

/**
 * Words that refer back to every record the last message that named any named ("move both to Dec 1", "and their invoices?"
 * after "where are A-1002 and A-1003?"; "the customers of the flagged orders", "those customers" after a list), in
 * English, German and French (folded).
 */
const REFERS_TO_ALL = /\b(?:both(?:\s+of\s+them)?|(?:all|each)\s+of\s+them|them\s+(?:all|both)|them|their|beide[n]?|alle\s+beide|sie\s+beide|alle\s+drei|(?:tous|toutes)\s+les\s+(?:deux|trois)|les\s+deux|(?:all|every|each)\s+(?:the\s+)?(?:customers?|buyers?|clients?)|alle[nm]?\s+(?:den\s+)?kunden|(?:tous\s+les|chaque|a\s+tous\s+les|aux)\s+clients?|(?:those|these)\s+(?:customers|buyers|clients|orders|ones)|the\s+(?:flagged|listed|late|delayed)\s+(?:orders|ones)|diese[nr]?\s+(?:kunden|bestellungen)|(?:markierten|verspateten)\s+bestellungen|ces\s+(?:clients|commandes)|(?:les\s+)?commandes\s+(?:signalees|en\s+retard))\b/;

/** A member of a list by its place: "the first one", "the worst order", "the second one", "the last one" (folded). */
const LIST_MEMBER =
  /\bthe\s+(first|top|worst|most\s+delayed|second|third|last)(?:\s+one|\s+order)?(?:['’]s)?\b|\b(?:dem|den|der|die|das)\s+(ersten?|zweiten?|dritten?|letzten?)\b(?:\s+(?:kunden|kundin|bestellung))?|\b(?:le|la|au|a\s+la)\s+(premier|premiere|deuxieme|second|seconde|troisieme|dernier|derniere)\b(?:\s+(?:client|cliente|commande))?/;
/** The first few of a list: "the first two", "the top 3", "die ersten beiden", "les deux premières" (folded). */
const FIRST_FEW =
  /\bthe\s+(?:first|top)\s+(two|three|four|2|3|4)\b|\b(?:die|den)\s+ersten\s+(zwei|drei|vier|beiden|2|3|4)\b|\b(?:les|aux)\s+(deux|trois|quatre|2|3|4)\s+premi(?:ers|eres)\b/;
/** {@link FIRST_FEW}'s counts. */
const FEW_COUNTS: Readonly<Record<string, number>> = { two: 2, three: 3, four: 4, zwei: 2, drei: 3, vier: 4, beiden: 2, deux: 2, trois: 3, quatre: 4, '2': 2, '3': 3, '4': 4 };

/** A place of {@link LIST_MEMBER} in English, German or French, as its English word. */
const PLACES: Readonly<Record<string, string>> = {
  zweite: 'second', zweiten: 'second', deuxieme: 'second', seconde: 'second', dritte: 'third', dritten: 'third', troisieme: 'third',
  letzte: 'last', letzten: 'last', dernier: 'last', derniere: 'last',
};

/**
 * The id of a member of the list the message before showed, named by its place ("email the worst one's customer" after
 * "show me the delays": the first of the list, most delayed first), when the tool takes it. `undefined` otherwise.
 */
function memberOfList(prompt: LanguageModelV4Prompt, plain: string, tool: ToolInfo, name: string): Referred | undefined {
  // "the first two", "die ersten beiden", "les deux premières": that many from the top (it took the first alone).
  const few = FIRST_FEW.exec(fold(plain));
  const count = few === null ? 0 : (FEW_COUNTS[few.slice(1).find((group) => group !== undefined) ?? ''] ?? 0);
  if (few !== null && count > 1) {
    const list = recentResults(prompt, () => true)
      .reverse()
      .map((result) => (listIn(resultValue(result.output)) ?? []).flatMap((record: unknown) => idOf(record)?.[1] ?? []))
      .find((ids) => ids.length >= count);
    const ids = list?.slice(0, count);
    if (ids === undefined || ids.some((id) => extractArguments(id, tool.inputSchema).input[name] !== id)) return undefined;
    return { id: ids.join(' and '), phrase: plain.slice(few.index, few.index + few[0].length), ids };
  }
  const match = LIST_MEMBER.exec(fold(plain));
  if (match === null) return undefined;
  // The list of the message before, or of the latest one that showed any ("combien ?" between them was answered so).
  const results = recentResults(prompt, () => true);
  for (const result of results.reverse()) {
    if (result.type !== 'tool-result') continue;
    const list = listIn(resultValue(result.output)) ?? [];
    const ids = list.flatMap((record: unknown) => idOf(record)?.[1] ?? []);
    const said = match[1] ?? match[2] ?? match[3] ?? '';
    const place = Object.hasOwn(PLACES, said) ? (PLACES[said] ?? said) : said;
    // "the worst one" of an audit's flagged orders (in the order of their ids): the one its records show furthest behind;
    // of a list with no such words, the first (most delayed first). It was the first the audit named.
    const shown = list.flatMap((record: unknown) => shownRecord(record) ?? []);
    const rated = shown.length === ids.length && shown.some((record) => lateness(record) > 0) ? shown : [];
    const worst = rated.reduce<ShownRecord | undefined>((best, record) => (best === undefined || lateness(record) > lateness(best) ? record : best), undefined);
    const first = (place === 'worst' || place === 'most delayed') && worst !== undefined ? worst.name : ids[0];
    const id = place === 'second' ? ids[1] : place === 'third' ? ids[2] : place === 'last' ? ids.at(-1) : first;
    if (id === undefined || ids.length < 2) continue;
    if (extractArguments(id, tool.inputSchema).input[name] !== id) return undefined;
    return { id, phrase: plain.slice(match.index, match.index + match[0].length) };
  }
  return undefined;
}

/**
 * The ids of the records a list the message before showed holds ("orders delayed more than 10 days": A-1012), those
 * the tool takes, in the list's order; `undefined` when the message before showed no such list.
 */
function listedIds(prompt: LanguageModelV4Prompt, tool: ToolInfo, name: string): string[] | undefined {
  const results = recentResults(prompt, () => true);
  for (const result of results.reverse()) {
    if (result.type !== 'tool-result') continue;
    const list = listIn(resultValue(result.output));
    const ids = (list ?? []).flatMap((record: unknown) => idOf(record)?.[1] ?? []).filter((id) => extractArguments(id, tool.inputSchema).input[name] === id);
    if (ids.length > 0) return ids;
  }
  return undefined;
}

/** The list a result is, or the one it holds beside its counts (`{ count, orders: [...] }`). */
function listIn(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  return typeof value === 'object' && value !== null ? Object.values(value).find(Array.isArray) : undefined;
}

/** A reading of words that refer back: the id (or, for "both", the ids) they stand for. */
type Referred = { readonly id: string; readonly phrase: string; readonly ids?: readonly string[] };

/**
 * The id a text refers back to when the tool needs one and the text gives none ("move it to Friday", "and its invoice?",
 * "email the customer that it is late" after "where is A-1002"): the one id the tool takes that the latest earlier
 * message naming any gave (a request of the user's, or a call made for it), with the words that refer to it.
 * `undefined` when the text refers to nothing, gives an id itself, or the latest such message names several.
 */
function referredId(prompt: LanguageModelV4Prompt, text: string, tool: ToolInfo): Referred | undefined {
  const name = idArgument(tool.inputSchema);
  if (name === undefined || !extractArguments(text, tool.inputSchema).missing.includes(name)) return undefined;
  const plain = withoutMessage(text);
  // "the worst one", "the first order" after a list: that member of the list the message before showed.
  const member = memberOfList(prompt, plain, tool, name);
  if (member !== undefined) return member;
  // "mail the customer" after a list of one order: that order; "both", "them" after a list of more: each of them.
  const listed = listedIds(prompt, tool, name);
  if (listed !== undefined) {
    const every = REFERS_TO_ALL.exec(fold(plain));
    const one = REFERS_BACK.exec(fold(plain));
    const phraseOf = (match: RegExpExecArray | null): string => (match === null ? '' : plain.slice(match.index, match.index + match[0].length));
    if (listed.length === 1 && listed[0] !== undefined) return { id: listed[0], phrase: phraseOf(every ?? one) };
    const both = every !== null && /^(?:both|beide|alle\s+beide|sie\s+beide|(?:tous|toutes)\s+les\s+deux|les\s+deux)\b/.test(every[0]);
    if (every !== null && (!both || listed.length === 2)) return { id: listed.join(' and '), phrase: phraseOf(every), ids: listed };
    return undefined;
  }
  // "both", "them": every id of the message that named several, the same request for each.
  // "email them about it" after two moves: "them" says more than "it" does.
  // "mail it to them": "them" is who gets it (the customer), not the records it is about.
  const about = /\b(?:it|this|that)\b/.test(fold(plain)) ? fold(plain).replace(/\bto\s+(?:them|him|her)\b/g, (words) => ' '.repeat(words.length)) : fold(plain);
  const all = REFERS_BACK.test(about) && !/\b(?:them|their|both|beide[n]?|les\s+deux)\b/.test(about) ? null : REFERS_TO_ALL.exec(about);
  const refers = all ?? REFERS_BACK.exec(fold(plain));
  if (refers === null) return latestId(prompt, tool, name);
  const phrase = plain.slice(refers.index, refers.index + refers[0].length);
  // "both" after "status of A-1011", then "and A-1012?": the two last named, one message each.
  const two = all !== null && /^(?:both|beide|alle\s+beide|sie\s+beide|(?:tous|toutes)\s+les\s+deux|les\s+deux)\b/.test(fold(phrase));
  const seen: string[] = [];
  for (let i = lastIndexOfRole(prompt, 'user') - 1; i >= 0; i--) {
    const message = prompt[i];
    const texts =
      message?.role === 'user'
        ? message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []))
        : message?.role === 'assistant'
          ? message.content.flatMap((part) => (part.type === 'tool-call' ? stringValues(part.input) : []))
          : [];
    const ids = [...new Set(texts.flatMap((said) => extractArgumentSets(said, tool.inputSchema).map((set) => set.input[name])).filter((id) => typeof id === 'string'))];
    if (ids.length > 1 && seen.length === 0) return all === null ? undefined : { id: ids.join(' and '), phrase, ids };
    if (ids[0] !== undefined && !two) return all === null ? { id: ids[0], phrase } : latestId(prompt, tool, name);
    for (const id of ids) if (!seen.includes(id)) seen.unshift(id);
    if (seen.length >= 2) return { id: seen.slice(-2).join(' and '), phrase, ids: seen.slice(-2) };
  }
  return two && seen[0] !== undefined ? latestId(prompt, tool, name) : undefined;
}

/**
 * The id of a text that does not refer back ("move to Friday") when the user's message before it was about that one
 * record and nothing else: it named no other id (each of its requests that id, when it made several), and every call
 * made for it took that id ("where is A-1002", then its lookup). A chat user expects the next request to go on about it; with two ids, or a call about something else
 * (a clock), the id is asked for. The phrase is empty: the answer says it read the last message.
 */
function latestId(prompt: LanguageModelV4Prompt, tool: ToolInfo, name: string): Referred | undefined {
  const current = lastIndexOfRole(prompt, 'user');
  const previous = lastIndexOfRole(prompt, 'user', current);
  if (previous < 0) return undefined;
  const idsIn = (said: string): string[] => extractArgumentSets(said, tool.inputSchema).flatMap((set) => (typeof set.input[name] === 'string' ? [set.input[name]] : []));
  const said = userTextAt(prompt, previous);
  // Each request of several names the id ("where is A-1002 and what time is it in Tokyo?" said something else too).
  const requests = splitRequests(said).filter((request) => idsIn(request.text).length > 0 || !isPleasantry(request.text));
  if (requests.length > 1 && !requests.every((request) => idsIn(request.text).length > 0)) return undefined;
  const ids = new Set(idsIn(said));
  for (const message of prompt.slice(previous + 1, current)) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-call') continue;
      const called = stringValues(part.input).flatMap(idsIn);
      if (called.length === 0) return undefined;
      for (const id of called) ids.add(id);
    }
  }
  const [id, ...others] = ids;
  return id === undefined || others.length > 0 ? undefined : { id, phrase: '' };
}

/** "and 3 spoons", "also a teapot", "plus 2 mugs", "und 2 Löffel", "et 3 cuillères": more things, with their counts. */
const MORE_THINGS = /^\s*(?:(?:and|also|plus|und|auch|et|aussi)\s+)+(?=\S)/i;

/** "a teapot", "an apple", "ein Teller", "une baguette" after the adding verb: one thing, its count unwritten. */
const ONE_THING = /^add\s+(?:an?|one|ein(?:e[nm]?)?|une?)\s+(?=\S)/i;

/**
 * More of what the message before added ("and 3 spoons" after "add 2 mugs"): the adding call's tool with the things
 * the text names, as if it said "add 3 spoons". `undefined` unless the text only names things to add after such a word,
 * and the last call of the message before added some.
 */
function addedMore(prompt: LanguageModelV4Prompt, text: string, tools: readonly ToolInfo[]): OfflineToolCall[] | undefined {
  if (!MORE_THINGS.test(text) || pickTool(text, tools) !== undefined) return undefined;
  const last = callsOf(previousTurn(prompt)).at(-1);
  const tool = last === undefined ? undefined : tools.find((candidate) => candidate.name === last.toolName);
  const adding = text.replace(MORE_THINGS, 'add ');
  // "also a teapot": one, as "add a teapot" reads it; the thing needs a count only to be told from other words.
  const counted = adding.replace(ONE_THING, 'add 1 ');
  if (tool === undefined || pickAdder(counted, [tool]) === undefined) return undefined;
  return extractArgumentSets(adding, tool.inputSchema).map((set) => ({ toolName: tool.name, input: set.input }));
}

/** A message that only acknowledges: "ok", "okay then", "got it", "alles klar", "gut", "d'accord", "entendu" (folded). */
const ACKNOWLEDGEMENT =
  /^(?:(?:ok(?:ay)?|alright|all\s+right|fine|good|great|cool|got\s+it|understood|i\s+see|sounds\s+good|alles\s+klar|gut|okay|verstanden|in\s+ordnung|d['’]accord|entendu|bien|tres\s+bien|compris)[\s,]*)+(?:then|dann|alors)?\s*[.!]*$/;

/** Asking how many a list holds: "how many?", "how many are there?", "wie viele?", "combien ?" (folded). */
const HOW_MANY =
  /^(?:(?:and|so|ok|und|also|et|alors)[\s,]+)?(?:how\s+many(?:\s+(?:orders|items|things|products|of\s+them))?(?:\s+(?:are\s+there|is\s+that|in\s+total|(?:are|is)\s+in\s+(?:it|there)))?|wie\s*viele(?:\s+(?:artikel|sachen|dinge|bestellungen))?(?:\s+(?:sind\s+(?:es|das)|insgesamt))?|combien(?:\s+d['’]?\s*(?:articles?|elements?|produits?|commandes?))?(?:\s+(?:y\s+en\s+a-t-il|il\s+y\s+en\s+a|en\s+tout|sont-elles|sont-ils))?)\s*[?.!]*$/;

/**
 * "how many?" after a list the message before showed: how many records it held (the list, or its `count` beside it),
 * with their ids; `undefined` for any other text, or when the message before showed no list.
 */
function listCount(prompt: LanguageModelV4Prompt, text: string, wording: Wording): string | undefined {
  if (CHECKED_ASKED.test(fold(text).trim())) return checkedCount(prompt, wording);
  if (!HOW_MANY.test(fold(text).trim())) return undefined;
  const results = previousTurn(prompt).flatMap((message) => (message.role === 'tool' ? message.content : []));
  for (const result of results.reverse()) {
    if (result.type !== 'tool-result') continue;
    const list = listIn(resultValue(result.output));
    if (list === undefined) continue;
    // Records by their id, or their name (a cart's items).
    const named = (record: unknown): string[] => {
      const name = typeof record === 'object' && record !== null ? (record as { name?: unknown }).name : undefined;
      const id = idOf(record)?.[1] ?? name;
      return typeof id === 'string' ? [id] : [];
    };
    const ids = list.flatMap((record: unknown) => named(record));
    // "how many items?" after a cart of 3 bananas and 2 apples: 5 things of 2 kinds, both said (it said "2" alone).
    const quantities = list.map((record: unknown) => (typeof record === 'object' && record !== null ? (record as { quantity?: unknown }).quantity : undefined));
    const counted = quantities.every((quantity) => typeof quantity === 'number' && Number.isInteger(quantity) && quantity > 0) ? (quantities as number[]) : [];
    const things = counted.reduce((sum, quantity) => sum + quantity, 0);
    if (counted.length > 0 && ids.length === list.length && things !== list.length) {
      return wording.thingsCount(things, list.length, joinList(ids.map((name, index) => `${counted[index]} ${name}`), wording.and));
    }
    return wording.listCount(list.length, ids.length === list.length ? joinList(ids, wording.and) : '');
  }
  // "how many?" after the chart, whose counts reach the model in words ("Bar chart of the 10 orders by status, left to
  // right: pending 2 (amber), …"): the total and each count it gave (it got the help text).
  for (const result of results) {
    const counted = result.type === 'tool-result' ? countsShown(result) : undefined;
    if (result.type === 'tool-result' && counted !== undefined) return wording.countsShown(result.toolName, counted.total, counted.noun, counted.parts.join(', '));
  }
  // "how many?" after "where is A-1002": no list was shown, only the records looked up by id; say so (it got the help text).
  const looked = callsOf(previousTurn(prompt)).filter((call) => isReadName(call.toolName) && idOf(call.input) !== undefined);
  const ids = [...new Set(looked.map((call) => idOf(call.input)?.[1] ?? ''))];
  const names = [...new Set(looked.map((call) => call.toolName))];
  return looked.length === 0 ? undefined : wording.lookedUpCount(ids.length, joinList(ids, wording.and), joinList(names, wording.and));
}

/** Asking how many an audit looked at: "how many were checked?", "wie viele wurden geprüft?", "combien ont été vérifiées ?" (folded). */
const CHECKED_ASKED =
  /^(?:(?:and|so|ok|und|also|et|alors)[\s,]+)?(?:how\s+many(?:\s+orders)?\s+(?:were|did\s+(?:it|you)|have\s+been|has\s+it|have\s+you)\s+(?:checked|check|audited|audit|looked\s+at|look\s+at)|wie\s*viele(?:\s+bestellungen)?\s+(?:wurden|hast\s+du|hat\s+es)\s+(?:gepruft|uberpruft|kontrolliert)(?:\s+worden)?|combien(?:\s+de\s+commandes)?\s+(?:ont\s+ete|as-tu|avez-vous|a-t-il)\s+(?:verifiee?s?|controlee?s?|examinee?s?))\s*[?.!]*$/;

/**
 * "how many were checked?" after an audit: how many its result says it checked (`checked`), and the flagged ones of
 * them; `undefined` when no result of the turns before says so (it got the help text).
 */
function checkedCount(prompt: LanguageModelV4Prompt, wording: Wording): string | undefined {
  for (const result of recentResults(prompt, () => true).reverse()) {
    const { record } = resultRecordAndWords(result.output);
    if (typeof record?.checked !== 'number') continue;
    const flagged = listIn(record) ?? [];
    const ids = flagged.flatMap((item: unknown) => idOf(item)?.[1] ?? []);
    return wording.checkedCount(result.toolName, record.checked, flagged.length, joinList(ids, wording.and));
  }
  return undefined;
}

/** "of the 10 orders", "all 10 orders" in a result's words: a total, and what it counts. */
const TOTAL_OF = /\b(?:of\s+the|all(?:\s+the)?|the)\s+(\d+)\s+([a-z]+)\b/i;
/** "pending 2 (amber)", "shipped 3" after the total's colon: a count and what it counts, a colour after it left out. */
const COUNT_OF = /^\s*(?:and\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(\d+)\b(?:\s*\([^)]*\))?\s*\.?\s*$/i;

/**
 * The counts a result gives, in its fields (`total` and `counts`) or its words ("Bar chart of the 10 orders by status,
 * left to right: pending 2 (amber), shipped 3 (blue), …"); `undefined` when it gives a total and no counts of it.
 */
function countsShown(result: LanguageModelV4ToolResultPart): { readonly total: number; readonly noun: string; readonly parts: string[] } | undefined {
  const { record, words } = resultRecordAndWords(result.output);
  const counts = typeof record?.counts === 'object' && record.counts !== null ? Object.entries(record.counts as Record<string, unknown>) : [];
  if (typeof record?.total === 'number' && counts.length > 0 && counts.every(([, count]) => typeof count === 'number')) {
    return { total: record.total, noun: '', parts: counts.map(([name, count]) => `${name} ${count}`) };
  }
  const total = TOTAL_OF.exec(words);
  const colon = words.indexOf(':', total?.index ?? 0);
  if (total === null || colon < 0) return undefined;
  const parts = words
    .slice(colon + 1)
    .split(/,|\band\b/)
    .map((part) => COUNT_OF.exec(part))
    .flatMap((match) => (match === null ? [] : [`${match[1]} ${match[2]}`]));
  return parts.length > 1 ? { total: Number(total[1]), noun: total[2] ?? '', parts } : undefined;
}

/**
 * "which status has the most?", "which is the biggest?", "and the fewest?", "welcher Status hat die meisten?", "quel
 * statut en a le plus ?" (folded).
 */
const MOST_OR_LEAST =
  /\b(?:which|what|and\s+the)\b.*?\b(?:(most|biggest|largest|highest|greatest|tallest)|(fewest|least|smallest|lowest))\b|\b(?:welche[rsn]?|und\s+die)\b.*?\b(?:(meisten|grosste|hochste|langste)|(wenigsten|kleinste|niedrigste|kurzeste))\b|\b(?:quel(?:le)?s?|et\s+celui|et\s+celle)\b.*?\b(?:(le\s+plus|la\s+plus)|(le\s+moins|la\s+moins))\b/;

/**
 * "which status has the most?" after the chart (a text that asks no tool: "which orders are delayed the most?" lists
 * them): the names its counts give the most (or the fewest) to, with their count
 * and the total; `undefined` for any other text, or when the latest result of the conversation gave no counts ("and the
 * fewest?" after that answer reads the chart's still).
 */
function mostCounted(prompt: LanguageModelV4Prompt, text: string, wording: Wording): string | undefined {
  const match = MOST_OR_LEAST.exec(fold(text));
  if (match === null) return undefined;
  const least = match[2] !== undefined || match[4] !== undefined || match[6] !== undefined;
  const results = prompt.slice(0, lastIndexOfRole(prompt, 'user')).flatMap((message) => (message.role === 'tool' ? message.content : []));
  const turn = previousTurn(prompt).flatMap((message) => (message.role === 'tool' ? message.content : []));
  for (const result of (turn.length > 0 ? turn : results).reverse()) {
    const counted = result.type === 'tool-result' ? countsShown(result) : undefined;
    if (counted === undefined) continue;
    const parts = counted.parts.map((part) => ({ name: part.replace(/\s+\d+$/, ''), count: Number(/\d+$/.exec(part)?.[0]) }));
    const best = least ? Math.min(...parts.map((part) => part.count)) : Math.max(...parts.map((part) => part.count));
    const names = parts.filter((part) => part.count === best).map((part) => part.name);
    return wording.mostCounted(joinList(names, wording.and), best, counted.total, least);
  }
  return undefined;
}

/**
 * Asking how far apart clocks are: "what's the time difference?", "how many hours ahead is it?", "are they the same?",
 * "Zeitunterschied", "ist es gleich spät?", "décalage horaire", "la même heure ?" (folded).
 */
const TIME_APART =
  /\b(?:time\s+difference|difference(?:\s+in\s+time)?|how\s+(?:many\s+hours|far)\s+(?:ahead|behind|apart)|how\s+many\s+hours\s+(?:difference|between)|zeitunterschied|zeitverschiebung|unterschied|wie\s+viele\s+stunden|decalage(?:\s+horaire)?|difference\s+(?:d['’]heures?|horaire)|combien\s+d['’]heures|(?:are|is)\s+(?:they|it|those|these)\s+(?:on\s+)?the\s+same(?:\s+time)?|same\s+time|(?:ist\s+es|sind\s+sie)\s+(?:dort\s+)?gleich(?:\s+spat)?|gleiche\s+(?:zeit|uhrzeit)|(?:la\s+)?meme\s+heure)\b/;

/** A clock a result showed: its zone, its offset as shown and in minutes, and the moment it was read (ms, UTC). */
interface ShownClock {
  readonly zone: string;
  readonly offset: string;
  readonly minutes: number;
  readonly at: number;
}

/** The clocks of `results` (a zone and a UTC offset each), each zone once. */
function clocksIn(results: readonly LanguageModelV4ToolResultPart[]): ShownClock[] {
  const clocks: ShownClock[] = [];
  for (const part of results) {
    const value = resultValue(part.output);
    const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
    const offset = typeof record.utc_offset === 'string' ? /^([+-])(\d{2}):(\d{2})$/.exec(record.utc_offset) : null;
    if (typeof record.time_zone !== 'string' || offset === null || clocks.some((clock) => clock.zone === record.time_zone)) continue;
    const minutes = (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3]));
    // The moment the clock was read, in UTC: its local date and time less its offset.
    const local = typeof record.local_date === 'string' && typeof record.local_time === 'string' ? Date.parse(`${record.local_date}T${record.local_time}Z`) : Number.NaN;
    clocks.push({ zone: record.time_zone, offset: `UTC${record.utc_offset}`, minutes, at: local - minutes * 60_000 });
  }
  return clocks;
}

/** How far ahead of the one furthest west each other clock is (`shown`: said after the clocks' results, with their tools). */
function clocksApart(clocks: readonly ShownClock[], wording: Wording, shown: boolean): string | undefined {
  const [base, ...others] = [...clocks].sort((a, b) => a.minutes - b.minutes);
  if (base === undefined || others.length === 0) return undefined;
  const each = others.map((clock) => wording.aheadOf(clock.zone, clock.minutes - base.minutes, clock.offset));
  return wording.timesApart(joinList(each, wording.and), base.zone, base.offset, shown);
}

/**
 * "what is the time difference?" after the clocks of two or more places (of the turns before, over answers that called
 * no tool: "what day is it there?"): how far ahead of the one furthest west each other one is, from the offsets their
 * results gave; after one clock, against the user's zone or UTC. `undefined` for any other text, no clock, or a text
 * that names a place none of them shows ("… between Berlin and Sydney" after Tokyo's: those clocks are read, see
 * {@link clocksAsked}).
 */
function timeDifference(prompt: LanguageModelV4Prompt, text: string, wording: Wording): string | undefined {
  if (!TIME_APART.test(fold(text))) return undefined;
  // The clocks of the message before, or of it and the ones before it ("time in Berlin", "and in Kathmandu?").
  const clocks = clocksIn(recentResults(prompt, (found) => clocksIn(found).length >= 2));
  if (findTimeZones(text).some((named) => !clocks.some((clock) => clock.zone === named.zone))) return undefined;
  // "how far ahead is it?" after one clock: against the user's zone when the browser gave it, against UTC otherwise.
  const [only] = clocks;
  if (clocks.length === 1 && only !== undefined) {
    const own = browserClock(prompt, only);
    const each = wording.aheadOf(only.zone, only.minutes - (own?.minutes ?? 0), only.offset);
    return own === undefined ? wording.againstUtc(each) : wording.timesApart(each, wording.yourZone(own.zone), own.offset, false);
  }
  return clocksApart(clocks, wording, false);
}

/**
 * "what is the time difference between Berlin and Sydney?", "Zeitunterschied zwischen Berlin und Tokio?": a clock's
 * call for each place it names (two or more, or one against a clock shown before: "… to London?"), and the difference said once they are in ({@link clocksApartFromResults});
 * the German one left "Zeitunterschied zwischen Berlin" undone, and the English one only listed the clocks.
 */
function clocksAsked(prompt: LanguageModelV4Prompt, text: string, tools: readonly ToolInfo[]): OfflineToolCall[] | undefined {
  if (!TIME_APART.test(fold(text))) return undefined;
  const zones = [...new Set(findTimeZones(text).sort((a, b) => a.start - b.start).map((match) => match.zone))];
  const clock = tools.find((tool) => timeZoneArgument(tool.inputSchema) !== undefined);
  const name = clock === undefined ? undefined : timeZoneArgument(clock.inputSchema);
  // One place named after a clock ("what is the difference to London?" after Berlin's): that place's, against it.
  const shown = zones.length === 1 ? clocksIn(recentResults(prompt, (found) => clocksIn(found).length > 0)) : [];
  const against = shown.length > 0 && !shown.some((other) => other.zone === zones[0]);
  if ((zones.length < 2 && !against) || clock === undefined || name === undefined) return undefined;
  return zones.map((zone) => ({ toolName: clock.name, input: { [name]: zone } }));
}

/** The clocks a message asked the difference of, once their results are in: what they showed, then how far apart. */
function clocksApartFromResults(input: OfflineRuleInput, wording: Wording): OfflineReply | undefined {
  if (!TIME_APART.test(fold(input.userText))) return undefined;
  // The clocks read now, and the one shown before when one place was named against it.
  const now = clocksIn(input.toolResults);
  const before = now.length === 1 ? clocksIn(recentResults(input.prompt, (found) => clocksIn(found).length > 0)) : [];
  const apart = clocksApart([...now, ...before.filter((clock) => !now.some((other) => other.zone === clock.zone))], wording, true);
  return apart === undefined ? undefined : { type: 'text', text: `${summarizeToolResults(input.toolResults, wording)}\n\n${apart}` };
}

/**
 * The user's own zone, as a result of the conversation gave it (a tool called with no arguments, unlike a clock: the
 * demo's `browser_time_zone`, `{ time_zone, locale, utc_offset?, local_time }`), with its offset: the one it gave, or
 * by `Intl` at the moment `clock` was read; `undefined` when none did, or `Intl` does not know the zone.
 */
function browserClock(prompt: LanguageModelV4Prompt, clock: { readonly zone: string; readonly at: number }): { readonly zone: string; readonly offset: string; readonly minutes: number } | undefined {
  const calls = callsOf(prompt);
  const results = prompt.flatMap((message) => (message.role === 'tool' ? message.content : []));
  for (const part of results.reverse()) {
    if (part.type !== 'tool-result') continue;
    const input = calls.find((call) => call.toolCallId === part.toolCallId)?.input;
    const { record } = resultRecordAndWords(part.output);
    if (typeof record?.time_zone !== 'string' || typeof input !== 'object' || input === null || Object.keys(input).length > 0) continue;
    try {
      const given = typeof record.utc_offset === 'string' ? `GMT${record.utc_offset}` : undefined;
      const format = new Intl.DateTimeFormat('en-US', { timeZone: record.time_zone, timeZoneName: 'longOffset' });
      const name = given ?? format.formatToParts(Number.isNaN(clock.at) ? new Date() : new Date(clock.at)).find((field) => field.type === 'timeZoneName')?.value;
      const offset = name === undefined ? null : /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name);
      if (offset === null) return undefined;
      const minutes = offset[1] === undefined ? 0 : (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3]));
      const sign = minutes < 0 ? '-' : '+';
      const hours = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0');
      return { zone: record.time_zone, offset: `UTC${sign}${hours}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`, minutes };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Asking to pick a date oneself: "pick a delivery date", "let me choose a date", "Datum wählen", "choisir une date" (folded). */
const PICKS_DATE =
  /\b(?:pick|choose|select|w(?:a|ae)hl\w*|aussuchen|such\w*\s+(?:\w+\s+)*aus|choisi\w*|selectionne\w*)\b.*\b(?:date|day|\w*datum|\w*tag|termin|jour)\b|\b(?:date|day|\w*datum|\w*tag|termin|jour)\b.*\b(?:pick|choose|select|w(?:a|ae)hl\w*|aussuchen|choisi\w*)\b/;

/**
 * A date picker among `tools` (a tool whose description says it lets the user pick a date), with the argument its
 * question goes in: the first required string that is no date.
 */
function datePicker(tools: readonly ToolInfo[]): { readonly picker: ToolInfo; readonly question: string } | undefined {
  const picker = tools.find((tool) => !isChangeName(tool.name) && /\b(?:date\s*picker|pick\s+a\s+date)\b/i.test(tool.description ?? ''));
  const schema = picker?.inputSchema as { properties?: Record<string, { type?: unknown }>; required?: unknown } | undefined;
  const required = Array.isArray(schema?.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [];
  const question = required.find((name) => schema?.properties?.[name]?.type === 'string' && !isDateArgument(picker?.inputSchema, name));
  return picker === undefined || question === undefined ? undefined : { picker, question };
}

/**
 * "pick a delivery date for A-1003": the date picker and the argument its question goes in, and the id whose date the
 * change tool the text reads as sets (the date the only argument it lacks); `undefined` for any other text, with no
 * picker, or no id.
 */
function datePickFor(text: string, tools: readonly ToolInfo[]): { readonly picker: ToolInfo; readonly question: string; readonly id: string } | undefined {
  if (!PICKS_DATE.test(fold(text))) return undefined;
  const picking = datePicker(tools);
  const change = picking === undefined ? undefined : tools.find((tool) => isChangeName(tool.name) && idArgument(tool.inputSchema) !== undefined && dateArgument(tool) !== undefined);
  const idName = change === undefined ? undefined : idArgument(change.inputSchema);
  if (picking === undefined || change === undefined || idName === undefined) return undefined;
  const read = extractArguments(text, change.inputSchema);
  const id = read.input[idName];
  return typeof id === 'string' && read.missing.every((name) => isDateArgument(change.inputSchema, name)) ? { ...picking, id } : undefined;
}

/** The first argument of a tool's schema that takes a date. */
function dateArgument(tool: ToolInfo): string | undefined {
  const properties = (tool.inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  return Object.keys(properties).find((name) => isDateArgument(tool.inputSchema, name));
}

/**
 * The results of the date picker a message asked for ("pick a delivery date for A-1003"): the change of that id to the
 * day picked, said; `undefined` when the turn called no picker, its result holds no day (cancelled), or it made the
 * change already.
 */
function pickedDateChange(input: OfflineRuleInput, wording: Wording): OfflineReply | undefined {
  const turn = callsOf(input.prompt.slice(lastIndexOfRole(input.prompt, 'user') + 1));
  const picking = datePickFor(input.userText, input.tools);
  const asked = picking === undefined ? undefined : turn.find((call) => call.toolName === picking.picker.name);
  const result = asked === undefined ? undefined : input.toolResults.find((part) => part.toolCallId === asked.toolCallId);
  if (picking === undefined || result === undefined || turn.some((call) => isChangeName(call.toolName))) return undefined;
  const { record, words } = resultRecordAndWords(result.output);
  const said = typeof record === 'object' ? Object.values(record).find((value) => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) : undefined;
  const day = said ?? /^\s*"?(\d{4}-\d{2}-\d{2})"?\s*$/.exec(words)?.[1];
  const change = input.tools.find((tool) => isChangeName(tool.name) && idArgument(tool.inputSchema) !== undefined && dateArgument(tool) !== undefined);
  const idName = change === undefined ? undefined : idArgument(change.inputSchema);
  const dateName = change === undefined ? undefined : dateArgument(change);
  if (typeof day !== 'string' || change === undefined || idName === undefined || dateName === undefined) return undefined;
  return { type: 'tool-calls', calls: [{ toolName: change.name, input: { [idName]: picking.id, [dateName]: day } }], text: wording.picked(day, change.name, picking.id) };
}

/** A place alone after a clock, with no "in": "and londn?", "what about sydeny", "und Berln?", "et Londre ?" (folded). */
const PLACE_GOES_ON = /^(?:and|what\s+about|how\s+about|und|et)\s+([a-z][a-z'-]*(?:\s+[a-z][a-z'-]*)?)\s*[?.!]*$/;

/** A question that asks which one of what was shown: "which one …?", "and the …?", "welche …?", "laquelle …?" (folded). */
const WHICH_ONE =
  /^(?:(?:and|so|ok|then|und|also|dann|et|alors)[\s,]+)?(?:(?:which|what|who|where)\b(?!\s+(?:orders|ones|of\s+the\s+orders)\b)|(?:the|welche[rsn]?|wer|wo|die|der|das|laquelle|lequel|qui|ou|le|la)\b)/;
/** Words of several records: "orders", "ones", "all", "Bestellungen", "commandes", "toutes" (folded). */
const MANY = /\b(?:orders|ones|all|those|these|alle[nms]?|bestellungen|diese|commandes|toutes|tous|celles|ceux)\b/;
/** Asking the one furthest behind: "worst", "most late", "am schlimmsten", "la pire", "le plus en retard" (folded). */
const WORST = /\b(?:worst|worse|more\s+(?:late|delayed|overdue|behind)|most\s+(?:late|delayed|overdue|behind)|furthest\s+behind|further\s+behind|latest|schlimmste[nr]?|schlimmer|am\s+schlimmsten|am\s+meisten\s+(?:verspatet|im\s+verzug)|mehr\s+(?:verspatet|im\s+verzug)|am\s+spatesten|pire|plus\s+en\s+retard)\b/;
/** Asking the one least behind: "least late", "the best", "am wenigsten verspätet", "la moins en retard" (folded). */
const LEAST_LATE = /\b(?:least\s+(?:late|delayed|behind)|best|am\s+wenigsten\s+(?:verspatet|im\s+verzug)|am\s+besten|moins\s+en\s+retard|meilleure?)\b/;
/** Asking the later one: "later", "latest", "ahead", "später", "plus tard" (folded). */
const LATER = /\b(?:later|latest|ahead|spater|am\s+spatesten|plus\s+tard)\b/;
/** Asking the earlier one: "earlier", "earliest", "sooner", "früher", "plus tôt" (folded). */
const EARLIER = /\b(?:earlier|earliest|sooner|soonest|fruher|am\s+fruhesten|plus\s+tot|(?:arrives?|comes?|gets?\s+here|(?:is\s+)?delivered|kommt|ankommt|geliefert\s+wird|arrive)\s+(?:first|zuerst|als\s+erste[rs]?|en\s+premier))\b/;

/** Asking the higher amount: "higher", "more expensive", "bigger", "höher", "teurer", "plus élevé", "plus cher" (folded). */
const HIGHER = /\b(?:higher|highest|more\s+expensive|most\s+expensive|dearer|bigger|biggest|larger|largest|hoher|hochste[nr]?|teurer|teuerste[nr]?|grosser|grosste[nr]?|plus\s+(?:eleve|elevee|cher|chere|gros|grosse))\b/;
/** Asking the lower amount: "lower", "cheaper", "smaller", "niedriger", "billiger", "moins cher" (folded). */
const LOWER = /\b(?:lower|lowest|cheaper|cheapest|less\s+expensive|smaller|smallest|niedriger|niedrigste[nr]?|billiger|billigste[nr]?|kleiner|kleinste[nr]?|moins\s+(?:eleve|elevee|cher|chere)|plus\s+(?:bas|basse|petit|petite))\b/;

/**
 * The amounts the tool results of the latest turns showed (see {@link recentResults}), by the id each was made for: a
 * `total` field, or a total in its words ("Invoice INV-A-1002 …; total 89.00 EUR."), as {@link amountShown} reads one.
 */
function amountsShown(prompt: LanguageModelV4Prompt): { readonly name: string; readonly value: number; readonly shown: string }[] {
  const calls = callsOf(prompt);
  const read = (results: readonly LanguageModelV4ToolResultPart[]): { readonly name: string; readonly value: number; readonly shown: string }[] =>
    results.flatMap((result) => {
      const { record, words } = resultRecordAndWords(result.output);
      const name = idOf(calls.find((call) => call.toolCallId === result.toolCallId)?.input)?.[1] ?? idOf(record)?.[1];
      const total = TOTAL_IN_WORDS.exec(words);
      const currency = typeof record?.currency === 'string' ? ` ${record.currency}` : total?.[2] === undefined ? '' : ` ${total[2]}`;
      const value = typeof record?.total === 'number' ? record.total : total === null ? Number.NaN : Number((total[1] ?? '').replace(/,/g, ''));
      const shown = typeof record?.total === 'number' ? record.total.toFixed(2) : (total?.[1] ?? '');
      return name === undefined || Number.isNaN(value) ? [] : [{ name, value, shown: `${shown}${currency}` }];
    });
  const found = read(recentResults(prompt, (results) => read(results).length >= 2));
  return found.filter((record, index) => found.findIndex((other) => other.name === record.name) === index);
}

/** A record an earlier answer showed: its name (an id, a clock's zone), how late it runs, its time or date, and why. */
interface ShownRecord {
  readonly name: string;
  readonly days?: number | undefined;
  readonly when?: string | undefined;
  readonly reasons?: readonly string[] | undefined;
}

/**
 * The records the tool results of the latest turns showed (see {@link recentResults}): a list's (an audit's flagged orders), a lookup's order, a
 * clock; each with its name and what it says of how late it is (`delay_days`, "running 9 days late") or when it is (a
 * clock's local date and time, a delivery date).
 */
function recordsShown(prompt: LanguageModelV4Prompt): ShownRecord[] {
  const read = (results: readonly LanguageModelV4ToolResultPart[]): ShownRecord[] => {
    const records: ShownRecord[] = [];
    for (const part of results) {
      const value = resultValue(part.output);
      const list = listIn(value);
      const nested = typeof value === 'object' && value !== null ? Object.values(value).find((field) => idOf(field) !== undefined) : undefined;
      for (const item of list ?? [nested ?? value]) {
        const record = shownRecord(item);
        if (record !== undefined && !records.some((other) => other.name === record.name)) records.push(record);
      }
    }
    return records;
  };
  return read(recentResults(prompt, (results) => read(results).length >= 2));
}

/** A record of a result as {@link ShownRecord} reads it; `undefined` for no object, or one with no id or zone. */
function shownRecord(item: unknown): ShownRecord | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const record = item as Record<string, unknown>;
  const name = idOf(record)?.[1] ?? (typeof record.time_zone === 'string' ? record.time_zone : undefined);
  if (name === undefined) return undefined;
  const reasons = Array.isArray(record.reasons) ? record.reasons.filter((reason): reason is string => typeof reason === 'string') : undefined;
  const field = [record.delay_days, record.days_late, record.daysLate].find((days) => typeof days === 'number');
  const said = reasons?.map((reason) => /\b(\d+)\s+days?\s+late\b/.exec(reason)?.[1]).find((days) => days !== undefined);
  const days = typeof field === 'number' ? field : said === undefined ? undefined : Number(said);
  const clock = typeof record.local_date === 'string' && typeof record.local_time === 'string' ? `${record.local_date} ${record.local_time.slice(0, 5)}` : undefined;
  const date = Object.entries(record).find(([key, field]) => isDateField(key, field))?.[1];
  return { name, days, when: clock ?? (typeof date === 'string' ? date : undefined), reasons };
}

/** How far behind a record is, to rank records by: the days late it shows, then how many reasons it was flagged for. */
function lateness(record: ShownRecord): number {
  return (record.days ?? 0) * 100 + (record.reasons?.length ?? 0);
}

/** The messages of the message before, or of the latest turn that has tool results when it has none (4 turns back at most). */
function latestTurnWithResults(prompt: LanguageModelV4Prompt): LanguageModelV4Prompt {
  let end = lastIndexOfRole(prompt, 'user');
  for (let turns = 0; end > 0 && turns < 4; turns++) {
    const start = lastIndexOfRole(prompt, 'user', end);
    const turn = prompt.slice(start + 1, end);
    if (turn.some((message) => message.role === 'tool' && message.content.some((part) => part.type === 'tool-result'))) return turn;
    end = start;
  }
  return previousTurn(prompt);
}

/**
 * The tool results of the latest turns that called a tool, going back over answers that called none ("and the least
 * late?" after the answer to "which one is the worst?" reads the audit's results still) and over turns that called the
 * same tools, until `enough` holds of them ("where is A-1002", "and A-1006?", "which one is later?": both lookups).
 */
function recentResults(prompt: LanguageModelV4Prompt, enough: (results: readonly LanguageModelV4ToolResultPart[]) => boolean): LanguageModelV4ToolResultPart[] {
  const results: LanguageModelV4ToolResultPart[] = [];
  let tools: ReadonlySet<string> | undefined;
  let end = lastIndexOfRole(prompt, 'user');
  for (let turns = 0; end > 0 && turns < 4; turns++) {
    const start = lastIndexOfRole(prompt, 'user', end);
    const turn = prompt.slice(start + 1, end);
    end = start;
    const parts = turn.flatMap((message) => (message.role === 'tool' ? message.content : [])).filter((part) => part.type === 'tool-result');
    if (parts.length === 0) continue;
    const names = new Set(parts.map((part) => part.toolName));
    if (tools !== undefined && [...names].some((name) => !tools?.has(name))) break;
    tools ??= names;
    results.unshift(...parts);
    if (enough(results)) break;
  }
  return results;
}

/**
 * "which one is the worst?" after an audit or lookups (the one furthest behind, by the days late each shows, then by how
 * many reasons it was flagged for), "which one is later?" after two clocks or two orders (by the time or date each
 * shows): said from what the message before showed, with no tool; it looked the first order up, or got the help text.
 * A list that a bound cuts ("which one is the worst?" after the delayed orders) is asked again instead (`listAgain`).
 * `undefined` for any other text, or fewer than two records that show it.
 */
function compareShown(prompt: LanguageModelV4Prompt, text: string, wording: Wording): string | undefined {
  const folded = fold(text).trim();
  // One of them, not a list of some ("the latest orders please", "what are the latest ones?" ask for a list).
  if (!WHICH_ONE.test(folded) || folded.split(/\s+/).length > 9 || MANY.test(folded)) return undefined;
  // "which one is higher?" after two invoices: by the totals they showed (it looked the last order up).
  const dearer = HIGHER.test(folded);
  const cheaper = !dearer && LOWER.test(folded);
  const amounts = dearer || cheaper ? amountsShown(prompt) : [];
  if (amounts.length >= 2) {
    const sorted = [...amounts].sort((a, b) => (cheaper ? a.value - b.value : b.value - a.value));
    const [best, ...others] = sorted;
    if (best === undefined) return undefined;
    if (others.every((other) => other.value === best.value)) return wording.sameWhen(joinList(sorted.map((record) => record.name), wording.and), best.shown);
    return wording.higherOf(best.name, best.shown, joinList(others.map((other) => `${other.shown} (${other.name})`), wording.and), cheaper, others.length > 1);
  }
  const later = LATER.test(folded);
  const earlier = !later && EARLIER.test(folded);
  const records = recordsShown(prompt);
  const timed = records.filter((record) => record.when !== undefined);
  if ((later || earlier) && timed.length >= 2) {
    const sorted = [...timed].sort((a, b) => ((a.when ?? '') < (b.when ?? '') ? -1 : (a.when ?? '') > (b.when ?? '') ? 1 : 0));
    if (later) sorted.reverse();
    const [best, ...others] = sorted;
    if (best === undefined) return undefined;
    if (others.every((other) => other.when === best.when)) return wording.sameWhen(joinList(sorted.map((record) => record.name), wording.and), best.when ?? '');
    return wording.laterOf(best.name, best.when ?? '', joinList(others.map((other) => `${other.when} (${other.name})`), wording.and), earlier, others.length > 1);
  }
  const least = LEAST_LATE.test(folded);
  if (!least && !WORST.test(folded)) return undefined;
  const rated = records.filter((record) => record.days !== undefined || (record.reasons?.length ?? 0) > 0);
  if (rated.length < 2) return undefined;
  const sorted = [...rated].sort((a, b) => (least ? lateness(a) - lateness(b) : lateness(b) - lateness(a)));
  const why = (record: ShownRecord): string =>
    record.reasons !== undefined && record.reasons.length > 0 ? record.reasons.join(', ') : wording.daysLate(record.days ?? 0);
  const [best, ...others] = sorted;
  if (best === undefined) return undefined;
  return wording.furthestBehind(best.name, why(best), others.map((other) => `${other.name}: ${why(other)}`).join('; '), least);
}

/** Asking the amount shown: "what is the total?", "how much is it?", "wie hoch ist die Summe?", "quel est le total ?" (folded). */
const TOTAL_ASKED =
  /^(?:(?:and|so|ok|und|also|et|alors)[\s,]+)?(?:what(?:'s|s|\s+is|\s+was)\s+(?:the|its|the\s+invoice's)\s+(?:total|amount|sum)(?:\s+amount)?(?:\s+of\s+(?:the|that|this)\s+(?:invoice|bill))?(?:\s+again)?|(?:the\s+)?total|how\s+much\s+(?:is|was|does)\s+(?:it|that|the\s+invoice|the\s+bill)(?:\s+(?:come\s+to|cost))?|how\s+much\s+in\s+total|wie\s+hoch\s+ist\s+(?:die\s+summe|der\s+betrag|der\s+gesamtbetrag|die\s+rechnung)|was\s+kostet\s+(?:das|es|sie)|wie\s*viel\s+kostet\s+(?:das|es|sie)|(?:die\s+)?summe|(?:quel\s+est\s+le\s+)?(?:total|montant)|combien\s+(?:ca\s+coute|coute-t-elle|ca\s+fait))\s*[?.!]*$/;

/**
 * "what is the total?" after an invoice: the amount the latest result of the conversation shows, said with the tool that
 * showed it, with no tool; it read "the total" as about the order and looked it up. `undefined` for any other text, or
 * when no result showed an amount.
 */
function totalAsked(prompt: LanguageModelV4Prompt, text: string, tools: readonly ToolInfo[], wording: Wording): string | undefined {
  if (!TOTAL_ASKED.test(fold(text).trim())) return undefined;
  const earlier = prompt.slice(0, lastIndexOfRole(prompt, 'user'));
  const shown = amountShown(earlier, tools);
  return shown === undefined ? undefined : wording.totalShown(shown.toolName, shown.shown);
}

/**
 * "round that", "square root of it" after lookups, which show no amount: say so, and how to give a number; it looked
 * the order up again. `undefined` for any other text, after a sum (taken on by `functionOfSum`), or when no lookup by
 * id came before it.
 */
function noNumberToWorkOn(prompt: LanguageModelV4Prompt, text: string, tools: readonly ToolInfo[], wording: Wording): string | undefined {
  if (!FUNCTION_OF_IT.test(functionOnIt(fold(text).trim())) || lastSumCall(prompt, tools) !== undefined) return undefined;
  if (amountShown(previousTurn(prompt), tools) !== undefined) return undefined;
  const looked = callsOf(previousTurn(prompt)).filter((call) => idOf(call.input) !== undefined);
  if (looked.length === 0) return undefined;
  const ids = [...new Set(looked.map((call) => idOf(call.input)?.[1] ?? ''))];
  const names = [...new Set(looked.map((call) => call.toolName))];
  return wording.noNumberShown(text.trim().replace(/[?.!]+$/, ''), joinList(names, wording.and), joinList(ids, wording.and));
}

/** Another amount for what was just added: "actually make it 5", "make that 2", "I meant 5", "mach 5 daraus", "mets-en 5" (folded). */
const SETS_AMOUNT =
  /^(?:(?:actually|no|nah|wait|oh|sorry|oops|hmm|ok|nein|doch|ach|eigentlich|non|oups|en\s+fait|finalement)[\s,!.]+)*(?:(?:please\s+)?(?:make\s+(?:it|that|them)|change\s+(?:it|that)\s+to|i\s+meant|i\s+wanted|should\s+be|only|just|mach(?:e)?(?:\s+(?:es|daraus))?|lieber|besser|nur|mets?-en|plutot|seulement)\s+(\d+)(?:\s+daraus)?|(\d+)\s+(?:instead|then|stattdessen|lieber|plutot))\s*(?:please|bitte|stp|s['’]il\s+te\s+plait)?\s*[.!]*$/;

/**
 * "actually make it 5" after the message before added 3 of a thing: the thing, what was added, the amount now asked
 * for, and the tools that add and empty; `undefined` for any other text, or when the message before added nothing.
 */
function newAmount(
  prompt: LanguageModelV4Prompt,
  text: string,
  tools: readonly ToolInfo[],
): { readonly adder: string; readonly thing: string; readonly had: number; readonly wanted: number; readonly clear?: string | undefined } | undefined {
  const match = SETS_AMOUNT.exec(fold(text).trim());
  const wanted = Number(match?.[1] ?? match?.[2]);
  if (match === null || !Number.isInteger(wanted) || wanted < 1) return undefined;
  // One thing added by a tool that adds counted things (of two, "make it 5" does not say which).
  const calls = callsOf(previousTurn(prompt));
  const last = calls.length === 1 ? calls[0] : undefined;
  const input = typeof last?.input === 'object' && last.input !== null ? (last.input as Record<string, unknown>) : {};
  const thing = Object.values(input).find((value) => typeof value === 'string');
  const had = Object.values(input).find((value) => typeof value === 'number') ?? 1;
  const adder = tools.find((tool) => tool.name === last?.toolName);
  if (last === undefined || adder === undefined || typeof thing !== 'string' || typeof had !== 'number' || pickAdder(`add 2 ${thing}`, [adder]) === undefined) return undefined;
  const stems = splitIdentifier(last.toolName).map((word) => stem(word));
  const clear = tools.find((tool) => tool.name !== last.toolName && isChangeName(tool.name) && !takesArguments(tool) && splitIdentifier(tool.name).some((word) => stems.includes(stem(word))));
  return { adder: last.toolName, thing, had, wanted, clear: clear?.name };
}

/** More of what was just added, by a count alone: "2 more", "add 2 more", "yes, 2 more please", "noch 2", "encore 2" (folded). */
const MORE_OF_IT =
  /^(?:(?:and|yes|ok|okay|then|also|please|und|ja|dann|bitte|et|oui|alors)[\s,!.]+)*(?:(?:add|put\s+in)\s+)?(?:(\d+)\s+more|(?:leg\s+|gib\s+)?noch\s+(\d+)(?:\s+dazu)?|(?:ajoute(?:s|z)?-en\s+|mets-en\s+)?encore\s+(\d+)|(?:ajoute(?:s|z)?-en|mets-en)\s+(\d+)\s+de\s+plus)(?:\s+(?:please|bitte|stp))?\s*[.!]*$/;

/**
 * "2 more" when the last call of the conversation added a counted thing ("add 3 bananas", or that call before an
 * answer that made none, as the one to "make it 5"): the same tool and thing with that count. `undefined` otherwise.
 */
function addedAgain(prompt: LanguageModelV4Prompt, text: string, tools: readonly ToolInfo[]): OfflineToolCall | undefined {
  const match = MORE_OF_IT.exec(fold(text).trim());
  const count = Number(match?.slice(1).find((group) => group !== undefined));
  if (match === null || !Number.isInteger(count) || count < 1) return undefined;
  const last = callsOf(prompt).at(-1);
  const adder = tools.find((tool) => tool.name === last?.toolName);
  const input = typeof last?.input === 'object' && last.input !== null ? (last.input as Record<string, unknown>) : {};
  const thing = Object.values(input).find((value) => typeof value === 'string');
  if (adder === undefined || typeof thing !== 'string' || pickAdder(`add ${count} ${thing}`, [adder]) === undefined) return undefined;
  const read = extractArguments(`add ${count} ${thing}`, adder.inputSchema);
  return read.missing.length === 0 ? { toolName: adder.name, input: read.input } : undefined;
}

/** An operator and a number that go on from the last sum: "times 3", "and divide by 4", "plus 10", "mal 2", "fois 3", "* 3". */
const GOES_ON_SUM =
  /^(?:(?:and|then|now|und|dann|et|puis)\s+)*(times|multiplied\s+by|multiply\s+(?:it\s+|that\s+)?by|plus|add|minus|less|subtract|divided\s+by|divide\s+(?:it\s+|that\s+)?by|over|mal|plus|minus|durch|geteilt\s+durch|fois|moins|divise\s+par|[*x×+\-/÷])\s*(\d+(?:[.,]\d+)?)\s*[?.!]*$/;
const SUM_OPERATORS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(?:times|multipl|mal|fois|[*x×])/, '*'],
  [/^(?:plus|add|\+)/, '+'],
  [/^(?:minus|less|subtract|moins|-)/, '-'],
  [/^(?:divi|over|durch|geteilt|[/÷])/, '/'],
];

/**
 * The last result added to a number or taken from one: "add that to 89", "and add it to 100", "subtract that from 100",
 * "take it from 100", "addiere das zu 89", "zieh das von 100 ab", "ajoute ça à 89", "soustrais ça de 100" (folded); the
 * number in group 2 (added) or 4 (taken from).
 */
const SUM_WITH_IT =
  /^(?:(?:and|then|now|und|dann|et|puis)\s+)*(?:(add|addiere|zahl\w*|ajoute)\s+(?:that|it|this|the\s+result|das|es|ca|cela)\s+(?:to|zu|a|à)\s+(\d+(?:[.,]\d+)?)|(subtract|take|zieh\w*|soustrais|retire|enleve)\s+(?:that|it|this|the\s+result|das|es|ca|cela)\s+(?:from|von|de|a|à)\s+(\d+(?:[.,]\d+)?)(?:\s+ab)?)\s*[?.!]*$/;

/** A part or a multiple of the last result: "half of that", "and double it", "a third of it", "die Hälfte davon", "la moitié" (folded). */
const PART_OF_IT =
  /^(?:(?:and|now|then|und|jetzt|dann|et|puis)\s+)*(?:what(?:'s|\s+is)\s+)?(half|double|twice|triple|a\s+third|a\s+quarter|die\s+halfte|das\s+doppelte|ein\s+drittel|ein\s+viertel|la\s+moitie|le\s+double|le\s+triple|le\s+tiers|le\s+quart)(?:\s+(?:of\s+)?(?:that|it|this|the\s+result|davon|des\s+ergebnisses|de\s+ca|de\s+cela|du\s+resultat))?\s*[?.!]*$/;
/** {@link PART_OF_IT}'s words as an operator and a number. */
const PARTS: ReadonlyArray<readonly [RegExp, string, string]> = [
  [/^(?:half|die\s+halfte|la\s+moitie)/, '/', '2'],
  [/^(?:double|twice|das\s+doppelte|le\s+double)/, '*', '2'],
  [/^(?:triple|le\s+triple)/, '*', '3'],
  [/^(?:a\s+third|ein\s+drittel|le\s+tiers)/, '/', '3'],
  [/^(?:a\s+quarter|ein\s+viertel|le\s+quart)/, '/', '4'],
];

/**
 * The last call of the message before that took an expression, taken on by an operator and a number ("times 3" after
 * "15% of 80": `(15 / 100 * 80) * 3`), so the calculator works it out exactly; `undefined` for any other text, or
 * when the message before made no such call.
 */
function continuedSum(prompt: LanguageModelV4Prompt, text: string, tools: readonly ToolInfo[]): OfflineToolCall | undefined {
  const other = OF_ANOTHER.exec(fold(text).trim());
  if (other !== null) return sumOfAnother(prompt, { number: other[1] ?? '', tools, place: /\b(?:of|von|de|du)\s+\d+(?:[.,]\d+)?/gi, part: 'of' });
  // "and 20%?" after "15% of 80": the same sum with that percentage.
  const rate = ANOTHER_RATE.exec(fold(text).trim());
  if (rate !== null) return sumOfAnother(prompt, { number: rate[1] ?? '', tools, place: /\d+(?:[.,]\d+)?(?=\s*(?:%|percent|prozent|pour\s*cent))/gi, part: 'rate' });
  // "half of that", "double it", "die Hälfte davon", "le double": an operator and a number in words.
  const applied = functionOfSum(prompt, text, tools);
  if (applied !== undefined) return applied;
  // "add that to 89", "subtract it from 100", "zieh das von 100 ab": the last sum on one side of a number.
  const sided = SUM_WITH_IT.exec(fold(text).trim());
  const last = sided === null ? undefined : lastSumCall(prompt, tools);
  if (sided !== null && last !== undefined) {
    const number = (sided[2] ?? sided[4] ?? '').replace(',', '.');
    const expression = sided[1] !== undefined ? `(${last.expression}) + ${number}` : `${number} - (${last.expression})`;
    return { toolName: last.tool.name, input: { ...last.input, [last.name]: expression } };
  }
  const partOf = PART_OF_IT.exec(fold(text).trim());
  const worded = partOf === null ? undefined : PARTS.find(([pattern]) => pattern.test(partOf[1] ?? ''));
  const match = worded === undefined ? GOES_ON_SUM.exec(fold(text).trim()) : ['', worded[1], worded[2]];
  const operator = match === null ? undefined : worded !== undefined ? worded[1] : SUM_OPERATORS.find(([pattern]) => pattern.test(match[1] ?? ''))?.[1];
  if (match === null || operator === undefined) return undefined;
  const sum = lastSumCall(prompt, tools);
  if (sum === undefined) return undefined;
  const { tool, name, expression, input } = sum;
  return { toolName: tool.name, input: { ...input, [name]: `(${expression}) ${operator} ${(match[2] ?? '').replace(',', '.')}` } };
}

/**
 * The last call of the message before whose tool takes an expression, with that expression and the call's input;
 * `undefined` when it made none.
 */
function lastSumCall(
  prompt: LanguageModelV4Prompt,
  tools: readonly ToolInfo[],
): { readonly tool: ToolInfo; readonly name: string; readonly expression: string; readonly input: Record<string, unknown> } | undefined {
  for (const part of callsOf(previousTurn(prompt)).reverse()) {
    if (typeof part.input !== 'object' || part.input === null) continue;
    const tool = tools.find((candidate) => candidate.name === part.toolName);
    const name = tool === undefined ? undefined : expressionArgument(tool.inputSchema);
    const input = part.input as Record<string, unknown>;
    const expression = name === undefined ? undefined : input[name];
    if (tool !== undefined && name !== undefined && typeof expression === 'string') return { tool, name, expression, input };
  }
  return undefined;
}

/**
 * A percentage put on what an earlier answer showed: "how much is that with 19% VAT?", "what is 19% of it?", "und mit
 * 19 % MwSt?", "combien ça fait avec 20 % de TVA ?" (folded); the words for it in group 1, the percentage in group 2.
 */
const RATE_OF_EARLIER =
  /^(?=.*?\b(that|it|this|the\s+(?:total|invoice|amount|sum|bill|result)|das|dies|davon|der\s+betrag|die\s+rechnung|die\s+summe|das\s+ergebnis|ca|cela|ceci|le\s+total|la\s+facture|le\s+montant|le\s+resultat)\b)[^\d]*?(\d+(?:[.,]\d+)?)\s*(?:%|percent|prozent|pour\s*cent)[^\d]*$/;
/**
 * A rate alone, on what an earlier answer showed: "and with 19% VAT?", "und mit 19 % MwSt?", "et avec 20 % de TVA ?",
 * "minus 10%" (taken off: {@link TAKEN_OFF}) (folded).
 */
const RATE_ALONE =
  /^(?:(?:and|so|what\s+about|how\s+about|und|also|et|alors)\s+)?(?:with|plus|minus|less|mit|zuzuglich|abzuglich|avec|moins)\s+(\d+(?:[.,]\d+)?)\s*(?:%|percent|prozent|pour\s*cent)(?:\s+(?:de\s+)?(?:vat|tax|sales\s+tax|mwst|ust|mehrwertsteuer|steuer|tva|taxe))?\s*[?.!]*$/;
/** A rate taken off: "take 10% off that", "minus 20%", "less 5%", "a 10% discount", "abzüglich", "Rabatt", "moins", "remise" (folded). */
const TAKEN_OFF = /\b(?:minus|less|off|discount(?:ed)?|subtract|deduct|abzuglich|weniger|rabatt|nachlass|moins|remise|reduction|rabais)\b/;
/** "19% of that", "19 % davon", "19 % de ça": a part of the amount, not the amount with it added ("20 % de TVA") (folded). */
const PART_OF_EARLIER = /(?:%|percent|prozent|pour\s*cent)\s+(?:of|von|de|du)\s+(?:that|it|this|the|das|dem|der|ca|cela|ceci|ce|la|le)\b|\bdavon\b/;

/**
 * "how much is that with 19% VAT?" after an invoice (or a sum): the amount the latest result of the conversation shows
 * (an invoice's total, a sum's result) with that percentage put on it, as the calculator's call when there is one, or
 * worked out and said when there is none; the words read as the amount and the amount, for the note. `undefined` for
 * any other text, or when no earlier result shows an amount. Before, "that" was read as the order and its invoice made
 * again.
 */
function rateOfEarlier(
  prompt: LanguageModelV4Prompt,
  userText: string,
  tools: readonly ToolInfo[],
): { readonly phrase?: string | undefined; readonly amount: string; readonly call?: OfflineToolCall | undefined; readonly said: string } | undefined {
  const folded = fold(userText).trim();
  // "and with 19% VAT?", "und mit 19 % MwSt?", "et avec 20 % de TVA ?": a rate alone, on what was shown (it looked the
  // order up); no word of it is read as the amount.
  const alone = RATE_ALONE.exec(folded);
  const match = alone === null ? RATE_OF_EARLIER.exec(folded) : ['', '', alone[1]];
  if (match === null) return undefined;
  const earlier = amountShown(prompt.slice(0, lastIndexOfRole(prompt, 'user')), tools);
  if (earlier === undefined) return undefined;
  const rate = (match[2] ?? '').replace(',', '.');
  // "take 10% off that", "minus 20% of it": the amount less the rate ("of" then says what the rate is of).
  const off = TAKEN_OFF.test(folded);
  const part = !off && PART_OF_EARLIER.test(folded);
  const expression = part ? `${rate} / 100 * ${earlier.expression}` : `${earlier.expression} * (1 ${off ? '-' : '+'} ${rate} / 100)`;
  const phrase = alone === null ? userText.slice(folded.indexOf(match[1] ?? ''), folded.indexOf(match[1] ?? '') + (match[1] ?? '').length) : undefined;
  const calculator = tools.find((tool) => expressionArgument(tool.inputSchema) !== undefined);
  const name = calculator === undefined ? undefined : expressionArgument(calculator.inputSchema);
  const value = part ? (Number(rate) / 100) * earlier.value : earlier.value * (1 + ((off ? -1 : 1) * Number(rate)) / 100);
  const said = `${expression} = ${Math.round(value * 100) / 100}`;
  const call = calculator === undefined || name === undefined ? undefined : { toolName: calculator.name, input: { [name]: expression } };
  return call === undefined && Number.isNaN(value) ? undefined : { phrase, amount: earlier.shown, call, said };
}

/**
 * "and with 19% VAT?", "what is 19% of it?" after lookups by id, which show no amount (the turns before showed none):
 * say so, with a tool that takes the same id and says it shows a total or an invoice (one to ask first), and how to
 * give an amount. Decision: a status and dates are nothing a rate goes on, and the lookup again answered nothing asked.
 * `undefined` for any other text, when an earlier result showed an amount, or when the message before looked nothing up.
 */
function noAmountForRate(prompt: LanguageModelV4Prompt, userText: string, tools: readonly ToolInfo[], wording: Wording): string | undefined {
  const folded = fold(userText).trim();
  const rate = (RATE_ALONE.exec(folded) ?? RATE_OF_EARLIER.exec(folded))?.at(-1);
  if (rate === undefined || amountShown(prompt.slice(0, lastIndexOfRole(prompt, 'user')), tools) !== undefined) return undefined;
  const looked = callsOf(previousTurn(prompt)).filter((call) => isReadName(call.toolName) && idOf(call.input) !== undefined);
  if (looked.length === 0) return undefined;
  const ids = [...new Set(looked.map((call) => idOf(call.input)?.[1] ?? ''))];
  const names = [...new Set(looked.map((call) => call.toolName))];
  const idName = idOf(looked[0]?.input)?.[0];
  const maker = tools.find(
    (tool) => !names.includes(tool.name) && !isChangeName(tool.name) && idArgument(tool.inputSchema) === idName && /\b(?:invoice|bill|total)\b/i.test(`${splitIdentifier(tool.name).join(' ')} ${tool.description ?? ''}`),
  );
  return wording.noAmountShown(userText.trim().replace(/\s*[?.!]+$/, ''), joinList(names, wording.and), joinList(ids, wording.and), rate.replace('.', wording.language === 'en' ? '.' : ','), maker?.name);
}

/** "total 1,299.00 EUR" in a result's words (an invoice's summary): the amount and its currency. */
const TOTAL_IN_WORDS = /\btotal\s*(?:of\s+|:\s*)?(\d{1,3}(?:,\d{3})*(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s*([A-Z]{3})\b)?/i;

/**
 * The amount the latest tool result of `messages` shows: a `total` field, a total in its words ("total 89.00 EUR"), or
 * a sum (its expression, so the calculator works on it exactly); `undefined` when none shows one.
 */
function amountShown(
  messages: LanguageModelV4Prompt,
  tools: readonly ToolInfo[],
): { readonly expression: string; readonly value: number; readonly shown: string; readonly toolName: string } | undefined {
  const results = messages.flatMap((message) => (message.role === 'tool' ? message.content : []));
  const calls = callsOf(messages);
  for (const result of results.reverse()) {
    if (result.type !== 'tool-result') continue;
    const { record, words } = resultRecordAndWords(result.output);
    if (typeof record?.total === 'number') {
      const currency = typeof record.currency === 'string' ? ` ${record.currency}` : '';
      return { expression: String(record.total), value: record.total, shown: `${record.total.toFixed(2)}${currency}`, toolName: result.toolName };
    }
    const total = TOTAL_IN_WORDS.exec(words);
    if (total !== null) {
      const amount = (total[1] ?? '').replace(/,/g, '');
      return { expression: amount, value: Number(amount), shown: `${total[1]}${total[2] === undefined ? '' : ` ${total[2]}`}`, toolName: result.toolName };
    }
    // A sum: its expression, for the calculator to take on exactly.
    const call = calls.find((part) => part.toolCallId === result.toolCallId);
    const tool = tools.find((candidate) => candidate.name === call?.toolName);
    const name = tool === undefined ? undefined : expressionArgument(tool.inputSchema);
    const expression = name === undefined || typeof call?.input !== 'object' || call.input === null ? undefined : (call.input as Record<string, unknown>)[name];
    if (typeof expression === 'string') {
      const worked = typeof record?.result === 'number' ? record.result : Number.NaN;
      return { expression: `(${expression})`, value: worked, shown: Number.isNaN(worked) ? expression : String(worked), toolName: result.toolName };
    }
  }
  return undefined;
}

/** A calculator's function put on the last result: "round that to 2 digits", "square root of it", "runde das", "arrondis ça" (folded). */
const FUNCTION_OF_IT =
  /^(?:(?:and|now|then|und|jetzt|dann|et|puis|maintenant)\s+)*(?:(?:what(?:'s|\s+is)|was\s+ist|quelle\s+est)\s+)?(?:(?:the\s+)?square\s+root|sqrt|(?:die\s+)?(?:quadrat)?wurzel|(?:la\s+)?racine(?:\s+carree)?|round(?:\s+(?:up|down))?|runde|arrondis|arrondir)\s+(?:(?:of|aus|von|de)\s+)?(that|it|this|the\s+result|das|davon|dem\s+ergebnis|das\s+ergebnis|ca|cela|le\s+resultat)\b[^\d]*?(?:\d{1,2}[^\d]*)?$/;

/** A calculator's function alone: "and the square root?", "rounded?", "und die Wurzel?", "et la racine ?" (folded). */
const FUNCTION_ALONE =
  /^((?:(?:and|now|then|und|jetzt|dann|et|puis|maintenant)\s+)*(?:(?:what(?:'s|\s+is)|was\s+ist|quelle\s+est)\s+)?(?:the\s+|die\s+|la\s+)?(?:square\s+root|sqrt|(?:quadrat)?wurzel|racine(?:\s+carree)?|round))(?:ed)?\s*[?.!]*$/;

/** `folded` with "of that" after a calculator's function said alone ("and the square root?"), as {@link FUNCTION_OF_IT} reads it. */
function functionOnIt(folded: string): string {
  const alone = FUNCTION_ALONE.exec(folded);
  return alone === null ? folded : `${alone[1]}${alone[1]?.endsWith('round') ? '' : ' of'} that`;
}

/**
 * "round that to 2 digits", "square root of it" after a sum: the calculator's function on the last call's expression
 * (`round((12.5 / 100 * 80), 2)`), read as the same words with a number are; `undefined` for any other text, or when
 * the message before made no sum. It asked for an expression.
 */
function functionOfSum(prompt: LanguageModelV4Prompt, text: string, tools: readonly ToolInfo[]): OfflineToolCall | undefined {
  const folded = functionOnIt(fold(text).trim());
  const match = FUNCTION_OF_IT.exec(folded);
  if (match === null || match[1] === undefined) return undefined;
  // The words with a stand-in number where "that" was, read as "round 3.14159 to 2 digits" is.
  const stand = '987654321';
  const at = folded.lastIndexOf(match[1], folded.length);
  const read = readWordedSums(`${folded.slice(0, at)}${stand}${folded.slice(at + match[1].length)}`);
  const sum = lastSumCall(prompt, tools);
  if (sum === undefined) return undefined;
  const { tool, name, expression: before, input } = sum;
  const expression = extractArguments(read, tool.inputSchema).input[name];
  if (typeof expression !== 'string' || !new RegExp(`^\\w+\\(${stand}(?:,\\s*\\d+)?\\)$`).test(expression)) return undefined;
  return { toolName: tool.name, input: { ...input, [name]: expression.replace(stand, `(${before})`) } };
}

/** Another percentage for the last sum: "and 20%?", "what about 20 percent", "und 20 Prozent?", "et 20 % ?" (folded). */
const ANOTHER_RATE = /^(?:(?:and|what\s+about|how\s+about|now|und|jetzt|et|maintenant)\s+)*(\d+(?:[.,]\d+)?)\s*(?:%|percent|prozent|pour\s*cent)\s*[?.!]*$/;

/** Another number for the last sum's "of": "and of 300?", "what about of 300", "und von 300?", "et de 300 ?" (folded). */
const OF_ANOTHER = /^(?:(?:and|what\s+about|how\s+about|now|und|jetzt|et|maintenant)\s+)*(?:of|von|de|du)\s+(\d+(?:[.,]\d+)?)\s*[?.!]*$/;

/** What {@link sumOfAnother} changes in the last sum: the number given, the tools, where it goes in its words, and which part it is. */
interface AnotherOfSum {
  /** The number given ("300" of "and of 300?"), as written. */
  readonly number: string;
  readonly tools: readonly ToolInfo[];
  /** Where the part is in the words of the message before (global: its last match is changed). */
  readonly place: RegExp;
  /** The percentage (`rate`) or what it is of (`of`). */
  readonly part: 'rate' | 'of';
}

/**
 * The sum the message before asked in words ("15% of 240"), with `number` in the last `place` it names (what it was
 * "of", or its percentage: `part`): the calculator's call again (`15 / 100 * 300`); when its words name none ("and of
 * 300?" before "and 21%?"), its call's percentage with that part changed. `undefined` when the message before made no
 * such call, or neither names the place.
 */
function sumOfAnother(prompt: LanguageModelV4Prompt, another: AnotherOfSum): OfflineToolCall | undefined {
  const { number, tools, place, part } = another;
  const last = callsOf(previousTurn(prompt)).at(-1);
  const tool = last === undefined ? undefined : tools.find((candidate) => candidate.name === last.toolName);
  const name = tool === undefined ? undefined : expressionArgument(tool.inputSchema);
  if (tool === undefined || name === undefined) return undefined;
  const current = lastIndexOfRole(prompt, 'user');
  const before = userTextAt(prompt, lastIndexOfRole(prompt, 'user', current));
  const ofs = [...before.matchAll(place)];
  const at = ofs.at(-1);
  // "and 21%?" after "and of 300?" (whose words name no rate): the rate or the "of" of the last call's percentage.
  const input = typeof last?.input === 'object' && last.input !== null ? (last.input as Record<string, unknown>) : {};
  const shown = typeof input[name] === 'string' ? /^(\d+(?:\.\d+)?) \/ 100 \* (\d+(?:\.\d+)?)$/.exec(input[name]) : null;
  if (at === undefined && shown !== null) {
    const value = number.replace(',', '.');
    return { toolName: tool.name, input: { ...input, [name]: part === 'rate' ? `${value} / 100 * ${shown[2]}` : `${shown[1]} / 100 * ${value}` } };
  }
  if (at === undefined) return undefined;
  const changed = `${before.slice(0, at.index)}${at[0].replace(/\d+(?:[.,]\d+)?$/, number)}${before.slice(at.index + at[0].length)}`;
  const expression = extractArguments(readWordedSums(changed), tool.inputSchema).input[name];
  return typeof expression === 'string' ? { toolName: tool.name, input: { [name]: expression } } : undefined;
}

/**
 * Words that go on from the last request with another value ("and for A-1001?", "what about Tokyo?", "ok then Dec
 * 15", "no wait, Saturday", "Dec 15 instead"), in English, German and French (folded).
 */
const GOES_ON =
  /^(?:and|what\s+about|how\s+about|same\s+for|also|ok(?:ay)?|then|no|wait|actually|rather|und|was\s+ist\s+mit|und\s+fur|dann|nein|lieber|et|et\s+pour|pareil\s+pour|alors|non|plutot)\b|\b(?:instead|then|stattdessen|plutot)\s*[?.!]*$/;
/** Words of such a text that ask for nothing of their own. */
const GOES_ON_WORDS: ReadonlySet<string> = new Set(
  'and what about how same also ok okay then no wait actually rather instead try again one make it that do the for und was ist mit fur dann nein lieber doch eher stattdessen auf am et pour pareil alors non plutot au le'.split(' '),
);

/**
 * The last call of the message before, made again with the values a text gives and nothing else ("and for A-1001?"
 * after "invoice for A-1003", "ok then Dec 15" after a move of A-1012 that was denied, "Saturday" after it): the text
 * says it goes on from there, or names no tool of its own, and each value it gives is one the call takes (an id, a
 * day, a place, a sum, a price). `undefined` otherwise.
 */
function repeatedCall(
  prompt: LanguageModelV4Prompt,
  text: string,
  tools: readonly ToolInfo[],
  now: Date,
): { readonly call: OfflineToolCall; readonly values: string[] } | undefined {
  const folded = fold(text).trim();
  const current = lastIndexOfRole(prompt, 'user');
  const previous = lastIndexOfRole(prompt, 'user', current);
  if (previous < 0) return undefined;
  // "no wait, Friday" while the move asked for waits for approval: that call is left out of what the model reads (see
  // `dismissal`), so the request it was made for is read again instead.
  const made = callsOf(prompt.slice(previous + 1, current));
  const calls = made.length > 0 ? made : requestedCalls(userTextAt(prompt, previous), tools, now);
  for (const part of calls.reverse()) {
    if (typeof part.input !== 'object' || part.input === null) continue;
    const tool = tools.find((candidate) => candidate.name === part.toolName);
    const found = tool === undefined ? [] : valueArguments(text, tool.inputSchema).filter((value) => value.kind !== 'message');
    // A text that reads as that call on its own ("and in London?" after a clock) is read as it is.
    if (tool === undefined || found.length === 0 || pickTool(text, tools)?.name === tool.name) continue;
    // A mail whose words came from a result (an invoice, a lookup) is about its record alone: "and A-1002?" after "send
    // the invoice of A-1006" makes A-1002's invoice, and does not mail A-1006's to A-1002's customer.
    // The words as the customer reads them count as the user's: "that their order is delayed" mailed "your order is delayed".
    const person = (words: string): string => fold(words).replace(/\b(?:their|his|her|your)\b/g, 'your');
    const asked = person(userTextAt(prompt, previous));
    const input = part.input as Record<string, unknown>;
    const derived = Object.entries(input).some(([name, value]) => typeof value === 'string' && isMessageArgument(tool.inputSchema, name) && !asked.includes(person(value)));
    if (derived && found.some((value) => value.kind === 'id')) continue;
    // Nothing else is asked: the words left once the values are out go on from the last request, or name no tool.
    const read = extractArguments(text, tool.inputSchema).input;
    let rest = withoutMessage(text);
    for (const value of Object.values(read)) if (typeof value === 'string') rest = rest.split(value).join(' ');
    rest = rest.replace(/\b\d{4}-\d{2}-\d{2}\b/g, ' ');
    for (const zone of findTimeZones(rest)) rest = `${rest.slice(0, zone.start)}${' '.repeat(zone.end - zone.start)}${rest.slice(zone.end)}`;
    const words = fold(rest).split(/[^a-z]+/).filter((word) => contentWords(word).length > 0 && !GOES_ON_WORDS.has(word));
    if (words.length > 0 || (!GOES_ON.test(folded) && pickTool(text, tools) !== undefined)) return undefined;
    const changed = Object.fromEntries(found.flatMap(({ name }) => (read[name] === undefined ? [] : [[name, read[name]]])));
    if (Object.keys(changed).length === 0) return undefined;
    const again = { ...input, ...changed };
    if (JSON.stringify(again) === JSON.stringify(part.input)) return undefined;
    return { call: { toolName: tool.name, input: again }, values: Object.values(changed).map((value) => String(value)) };
  }
  return undefined;
}

/** The ids of a text that gives nothing else but words that go on from the request before ("and A-1002?", "und für A-1002?"). */
function idsGoingOn(text: string): string[] | undefined {
  const ids = idLikeWords(text);
  let rest = text;
  for (const id of ids) rest = rest.replace(id, ' ');
  return ids.length > 0 && wordsOf(rest).every((word) => GOES_ON_WORDS.has(word) || ID_ONLY_WORDS.has(word)) ? ids : undefined;
}

/**
 * "and A-1002?" after "send the invoice for A-1003 to the customer" (or after a mail that says what it is for, or a
 * lookup and a mail): the request before, with the one id it named replaced by the one given, as the text this message
 * is read as in each step of its turn, so what that request left for a result (the mail) is done too; before, only its
 * first call was made again ("and A-1002?" made A-1002's invoice and mailed nothing). `undefined` unless the request
 * before (itself read so, when it went on from one) made calls and left a request for their results, about one id.
 */
function restatedRequest(prompt: LanguageModelV4Prompt, tools: readonly ToolInfo[], now: Date): { readonly text: string; readonly ids: string } | undefined {
  const current = lastIndexOfRole(prompt, 'user');
  const previous = lastIndexOfRole(prompt, 'user', current);
  const ids = previous < 0 ? undefined : idsGoingOn(userTextAt(prompt, current));
  if (ids === undefined || ids.length === 0) return undefined;
  const earlier = restatedRequest(prompt.slice(0, previous + 1), tools, now)?.text ?? userTextAt(prompt, previous);
  const follow = followUps(readWordedSums(readRelativeDates(earlier, now).text), tools);
  const named = [...new Set(idLikeWords(earlier))];
  if (follow === undefined || follow.later.length === 0 || follow.calls.length === 0 || named.length !== 1) return undefined;
  // "and A-1002 and A-1004?": each of them, as a list in the request's own words ("… for A-1002 and A-1004 …").
  const given = joinList(ids, wordingFor(earlier).and);
  return { text: earlier.split(named[0] ?? '').join(given), ids: given };
}

/**
 * "and A-1003?" after "email it to the customer" mailed what an invoice of A-1002 held (the turn before made it): the
 * thing is made for the id given and mailed as that request was, once it is in; before, the id was looked up and nothing
 * made or mailed. `undefined` unless the message before only mailed what a call of the one before it made, for one id.
 */
function remadeAndSent(prompt: LanguageModelV4Prompt, tools: readonly ToolInfo[]): (FollowUps & { readonly ids: string }) | undefined {
  const current = lastIndexOfRole(prompt, 'user');
  const previous = lastIndexOfRole(prompt, 'user', current);
  const before = lastIndexOfRole(prompt, 'user', previous);
  const ids = previous < 0 || before < 0 ? undefined : idsGoingOn(userTextAt(prompt, current));
  const id = ids?.length === 1 ? ids[0] : undefined;
  const mails = callsOf(prompt.slice(previous + 1, current));
  const mailer = mails.length === 1 ? tools.find((tool) => tool.name === mails[0]?.toolName) : undefined;
  const mailed = mails.length === 1 ? idOf(mails[0]?.input)?.[1] : undefined;
  if (id === undefined || mailer === undefined || mailed === undefined || !isChangeName(mailer.name)) return undefined;
  // Only a mail whose words came from a result: "email the customer that it is ready" says the same to the next one.
  const asked = fold(userTextAt(prompt, previous));
  const words = Object.entries(mails[0]?.input ?? {}).filter(([key, value]) => typeof value === 'string' && isMessageArgument(mailer.inputSchema, key));
  if (words.length === 0 || words.some(([, value]) => asked.includes(fold(String(value))))) return undefined;
  const made = callsOf(prompt.slice(before + 1, previous)).find((call) => idOf(call.input)?.[1] === mailed);
  const maker = made === undefined ? undefined : tools.find((tool) => tool.name === made.toolName);
  const name = maker === undefined ? undefined : idArgument(maker.inputSchema);
  if (maker === undefined || name === undefined || isReadName(maker.name) || isChangeName(maker.name) || mailer === maker) return undefined;
  const request = userTextAt(prompt, previous);
  return { calls: [{ toolName: maker.name, input: { ...(made?.input as object), [name]: id } }], later: [{ request: { text: request, end: request.length }, tool: mailer }], changes: false, made: maker.name, ids: id };
}

/**
 * Words that take back the value just given, in English, German and French (folded): "no wait", "sorry, I meant", "I
 * mean", "actually", "nein, lieber", "ich meine", "non, plutôt", "en fait".
 */
const CORRECTION =
  /[,;.!]?\s+(?:(?:no|nope|oh)[\s,]+(?:wait|sorry)(?:[\s,]+(?:i\s+meant?|make\s+it))?|wait[\s,]+no|sorry[\s,]+(?:i\s+)?meant|i\s+meant?|or\s+rather|nein[\s,]+(?:warte|lieber|doch|ich\s+meine)|(?:sorry|pardon)[\s,]+ich\s+meine|ich\s+meine|oder\s+(?:besser|lieber)|non[\s,]+(?:attends|plutot|pardon)|(?:pardon[\s,]+)?je\s+veux\s+dire|ou\s+plutot|actually|eigentlich|en\s+fait)[\s,:!]+/g;
/** Words that lead to the value after a correction: "make it", "to", "the", "auf", "au" (folded). */
const LEADS_TO_VALUE = /^(?:(?:make\s+(?:it|that)|to|on|for|the|auf|am|den|au|le|a)\s+)*/;

/**
 * A message that corrects itself ("move A-1002 to friday, no wait, saturday", "where is A-1003, sorry I meant A-1002",
 * "verschiebe A-1002 auf Freitag, nein lieber Samstag"): the value after the correction (an id, a day) put in place of
 * the last one of its kind before it, and the correction left out; the text as it is when it corrects nothing so.
 * Before, both values were read: the move took the first day, the lookup looked both orders up.
 */
function correctedText(text: string, now: Date): string {
  // Only the last correction can end the message with a value alone (any before it has the later one's words after it);
  // reading each of many ("no wait no wait …") read the message once per correction (seconds for 2,000 characters).
  const match = [...fold(text).matchAll(CORRECTION)].at(-1);
  const said = match === undefined ? '' : text.slice(match.index + match[0].length).replace(/[\s.!?]+$/, '');
  // A value is a few words ("make it the 6th of December"); a longer tail is something else said.
  if (match !== undefined && said.length > 0 && said.length <= 40) {
    const head = text.slice(0, match.index);
    // "make it saturday", "the 6th": the value, and the words that lead to it (kept for a day: "the 6th" is one).
    const lead = LEADS_TO_VALUE.exec(fold(said))?.[0].length ?? 0;
    const tail = said.slice(lead);
    const ids = idLikeWords(tail);
    if (ids.length === 1 && idsOnly(tail)) {
      const before = idLikeWords(head).at(-1);
      const at = before === undefined ? -1 : head.lastIndexOf(before);
      return before !== undefined && at >= 0 ? `${head.slice(0, at)}${tail.trim()}${head.slice(at + before.length)}` : text;
    }
    // A day alone, or after "to" ("the 6th" is read as a day after a word that leads to one).
    const dayIn = (words: string): string => {
      const dates = readRelativeDates(words, now).dates;
      return dates.length === 1 ? (dates[0]?.phrase.trim() ?? '') : '';
    };
    const phrase = dayIn(said) || dayIn(`to ${said}`);
    const before = fold(said.slice(0, said.length - phrase.length));
    const only = phrase.length > 0 && said.endsWith(phrase) && LEADS_TO_VALUE.exec(before)?.[0] === before;
    const iso = /^\s*\d{4}-\d{2}-\d{2}\s*$/.test(tail);
    if (!only && !iso) return recountedText(head, tail) ?? text;
    const value = only ? phrase : tail.trim();
    const isoBefore = [...head.matchAll(/\b\d{4}-\d{2}-\d{2}\b/g)].at(-1);
    const last = readRelativeDates(head, now).dates.at(-1)?.phrase ?? isoBefore?.[0];
    const at = last === undefined ? -1 : head.lastIndexOf(last);
    if (last !== undefined && at >= 0) return `${head.slice(0, at)}${value}${head.slice(at + last.length)}`;
  }
  return text;
}

/** A count before a thing, not a part of an id ("A-1002") nor a day ("5th"): "2 mugs", "3 Tassen". */
const COUNT_BEFORE_THING = /(?<![\w.,-])(\d{1,3})(?=\s+[a-z\u00C0-\u024F])/gi;
/** The thing after a count, up to where it goes or the next one: "mugs" of "2 mugs to my cart". */
const THING_AFTER_COUNT = /^\s+([^\d,;.!?]+?)(?=\s+(?:to|into|in|and|zum|zur|und|et|au|aux|dans)\b|[,;.!?]|$)/i;

/**
 * "add 2 mugs, no wait, 3 mugs", "add 2 mugs, sorry I meant 3", "leg 2 Tassen in den Warenkorb, nein lieber 3": the
 * message with the count (and the thing, when another is named) given after the correction in place of the last one
 * before it; `undefined` when the correction gives no count, or nothing before it was counted. It added both, and "no
 * wait" as a thing.
 */
function recountedText(head: string, tail: string): string | undefined {
  const counted = /^(\d{1,3})(?:\s+(\S.*))?$/.exec(tail.trim());
  const last = [...head.matchAll(COUNT_BEFORE_THING)].at(-1);
  if (counted === null || last === undefined) return undefined;
  const after = head.slice(last.index + last[0].length);
  const thing = THING_AFTER_COUNT.exec(after);
  const named = counted[2];
  // Another thing named ("3 cups"): it replaces the one counted before; the same one ("3 mugs") or none: the count only.
  const same = named === undefined || thing === null || stem(fold(named).split(/\s+/)[0] ?? '') === stem(fold(thing[1] ?? '').split(/\s+/)[0] ?? '');
  const rest = same || thing === null ? after : ` ${named}${after.slice(thing[0].length)}`;
  return `${head.slice(0, last.index)}${counted[1]}${rest}`;
}

/** Words for a day an earlier answer gave: "that day", "the same day", "an dem Tag", "ce jour-là", "cette date" (folded). */
const THAT_DAY = /\b(?:that\s+(?:day|date)|the\s+same\s+(?:day|date)|(?:an\s+)?(?:diesem|dem|diesen)\s+(?:tag|datum)|ce\s+jour(?:-la)?|cette\s+date|ce\s+meme\s+jour)\b/;

/**
 * A day next to the one an earlier answer gave: "the day before that", "the day after it", "am Tag davor", "am Tag
 * danach", "la veille", "le lendemain" (folded); group 1 when it is the day before.
 */
const NEXT_TO_THAT_DAY =
  /\b(?:(?:the\s+)?day\s+(?:(before)|after)\s+(?:that|it|this)|(?:(?:am|auf\s+den|den)\s+)?tag\s+(?:(davor)|danach)|(?:(la\s+veille)|le\s+lendemain))\b/;

/**
 * A text that names a day by an earlier answer ("move A-1002 to that day" after ""christmas" is 2026-12-25, …"): the
 * text with the first ISO date of the answer before in its place, the words and the date; `undefined` when the text
 * names none so, or the answer before gave no date.
 */
function dayReferredTo(prompt: LanguageModelV4Prompt, text: string): { readonly text: string; readonly phrase: string; readonly date: string } | undefined {
  // A question of it ("und am Tag danach?" after a clock) is the day asked (dayAnswer), not a day to move to.
  const next = ASKS.test(fold(text).trim()) ? null : NEXT_TO_THAT_DAY.exec(fold(text));
  const match = next ?? THAT_DAY.exec(fold(text));
  if (match === null) return undefined;
  const said = previousTurn(prompt).flatMap((message) =>
    message.role === 'assistant' ? message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])) : [],
  );
  const date = said.map((words) => /\b\d{4}-\d{2}-\d{2}\b/.exec(words)?.[0]).find((found) => found !== undefined);
  if (date === undefined) return undefined;
  const phrase = text.slice(match.index, match.index + match[0].length);
  // "the day before that": a day off the date the answer gave.
  const day = next === null ? date : addDays(date, next[1] !== undefined || next[2] !== undefined || next[3] !== undefined ? -1 : 1);
  return { text: `${text.slice(0, match.index)}${day}${text.slice(match.index + match[0].length)}`, phrase, date: day };
}

/** A correction said after the value it gives: "tokyo I mean", "A-1003 I meant", "Tokio meinte ich", "Tokyo je veux dire" (folded). */
const TRAILING_CORRECTION = /^((?:\S+\s+){0,2}\S+?)[\s,]+(?:i\s+mean|i\s+meant|meine\s+ich|meinte\s+ich|ich\s+meinte?|je\s+veux\s+dire)\s*[.!]*$/;

/**
 * A short message that ends with the words of a correction ("in tokyo I mean" after "time in Berlin"): its value alone,
 * read as going on from the message before, as "in tokyo" is; it got the help text. Three words at most, none that says
 * what is meant ("what I mean"); the text as it is otherwise.
 */
function withoutTrailingCorrection(text: string): string {
  const match = TRAILING_CORRECTION.exec(fold(text).trim());
  const value = match?.[1];
  if (value === undefined || /\b(?:what|that|was|ce\s+que|que)$/.test(value)) return text;
  const start = fold(text).indexOf(value);
  return start < 0 ? text : text.slice(start, start + value.length);
}

/** The text of the last user message. */
function userTextAtLast(prompt: LanguageModelV4Prompt): string {
  return userTextAt(prompt, lastIndexOfRole(prompt, 'user'));
}

/** The prompt with the text of its last user message replaced. */
/** A place of a list or a pair of places ("in", "between", "and", a comma, in English, German and French before it). */
const LISTED_PLACE = /(?:\b(?:in|between|and|und|zwischen|et|entre)|,)\s+(?:(?:in|at|a|au|en)\s+)?([a-z][a-z'-]*)(?=(?:\s+([a-z][a-z'-]*))?)/g;

/**
 * A text that names a known place and one typed with a slip ("time in tokio and londn", "zwischen Berln und Tokio"):
 * the text with the slip replaced by the city it nearly is, what was typed and that city. `undefined` when it names no
 * known place (the clock's own reading says so of a place alone) or none is typed with a slip.
 */
function slippedListedCity(text: string): { readonly text: string; readonly typed: string; readonly city: string } | undefined {
  if (findTimeZones(text).length === 0) return undefined;
  const folded = fold(text);
  for (const match of folded.matchAll(LISTED_PLACE)) {
    const [, first = '', second] = match;
    const start = match.index + match[0].length - first.length;
    for (const place of second === undefined ? [first] : [`${first} ${second}`, first]) {
      const near = findTimeZones(place).length > 0 ? undefined : nearCity(place);
      if (near === undefined) continue;
      const typed = text.slice(start, start + place.length);
      return { text: `${text.slice(0, start)}${near.city}${text.slice(start + place.length)}`, typed, city: near.city };
    }
  }
  return undefined;
}

function withLastUserText(prompt: LanguageModelV4Prompt, text: string): LanguageModelV4Prompt {
  const index = lastIndexOfRole(prompt, 'user');
  return prompt.map((message, i) => (i === index ? { role: 'user', content: [{ type: 'text', text }] } : message));
}

/**
 * The list the message before asked for, asked again with a bound ("top 3 only", "just the first two", "which one is
 * the worst?", "what about more than a week?" after "show me the delayed orders"): its last call again with the numbers
 * the text gives in words of what they bound (a cap on the results, a minimum), when it names no other tool.
 * `undefined` otherwise (a plain number, "2 bananas", bounds nothing).
 */
function listAgain(prompt: LanguageModelV4Prompt, text: string, tools: readonly ToolInfo[]): { readonly call: OfflineToolCall; readonly values: string[] } | undefined {
  const last = callsOf(previousTurn(prompt)).at(-1);
  const tool = last === undefined ? undefined : tools.find((candidate) => candidate.name === last.toolName);
  if (last === undefined || tool === undefined || typeof last.input !== 'object' || last.input === null) return undefined;
  const picked = pickTool(text, tools);
  const bounds = Object.entries({ ...phrasedNumbers(text, tool.inputSchema), ...nextMemberBound(text, last.input as Record<string, unknown>) });
  // "and by more than 3 days?" goes on from the list whatever tool "days" scores for (it read the browser's time zone).
  const goesOn = /^(?:and|what\s+about|how\s+about|und|et)\b/.test(fold(text).trim());
  if ((picked !== undefined && picked !== tool && !goesOn) || bounds.length === 0) return undefined;
  const input = { ...(last.input as Record<string, unknown>), ...Object.fromEntries(bounds) };
  return { call: { toolName: tool.name, input }, values: bounds.map(([name, value]) => `${humanize(name)} ${String(value)}`) };
}

/** A member of a list by its place alone, going on from it: "and the third?", "und die dritte?", "et la troisième ?" (folded). */
const NEXT_MEMBER =
  /^(?:(?:and|what\s+about|und|et)\s+)?(?:the|die|der|den|das|le|la)\s+(third|fourth|fifth|next|dritte|vierte|funfte|nachste|troisieme|quatrieme|cinquieme|suivante?)(?:\s+(?:one|order|bestellung|commande))?\s*[?.!]*$/;
const MEMBER_PLACES: Readonly<Record<string, number>> = {
  third: 3, fourth: 4, fifth: 5, dritte: 3, vierte: 4, funfte: 5, troisieme: 3, quatrieme: 4, cinquieme: 5,
};

/**
 * A cap raised to a list member past it ("and the third?" after "top 2 delayed orders": a cap of 3; "and the next
 * one?": one more), when the call before capped its list below that place. It got the help text.
 */
function nextMemberBound(text: string, input: Record<string, unknown>): Record<string, number> {
  const place = NEXT_MEMBER.exec(fold(text).trim())?.[1];
  const name = Object.keys(input).find(isLimitName);
  const cap = name === undefined ? undefined : input[name];
  if (place === undefined || name === undefined || typeof cap !== 'number') return {};
  const wanted = MEMBER_PLACES[place] ?? cap + 1;
  return wanted > cap ? { [name]: wanted } : {};
}

/**
 * The last call of the message before that took a day, made again with the day next to it ("the day after then" after
 * a move of A-1003 to 2026-12-12 that was denied or failed: 2026-12-13; "the day before", "two days later", "am Tag
 * danach", "le lendemain"), when the text names no day, no id and nothing else of its own (a word of that call's tool
 * at most: "move it to the day after"). `undefined` otherwise.
 */
function movedNextTo(prompt: LanguageModelV4Prompt, text: string, dates: ReadDates, tools: readonly ToolInfo[]): { readonly call: OfflineToolCall; readonly values: string[] } | undefined {
  if (dates.dates.length > 0 || idLikeWords(text).length > 0) return undefined;
  const next = dayNextToAsked(text) ?? (dates.shift?.moves === true ? dates.shift : undefined);
  if (next === undefined) return undefined;
  const rest = text.replace(next.phrase, ' ');
  const words = fold(rest).split(/[^a-z]+/).filter((word) => contentWords(word).length > 0 && !GOES_ON_WORDS.has(word));
  for (const part of callsOf(previousTurn(prompt)).reverse()) {
    const tool = tools.find((candidate) => candidate.name === part.toolName);
    if (tool === undefined || typeof part.input !== 'object' || part.input === null) continue;
    const input = part.input as Record<string, unknown>;
    const name = Object.keys(input).find((key) => isDateArgument(tool.inputSchema, key) && typeof input[key] === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(input[key]));
    const day = name === undefined ? undefined : input[name];
    if (name === undefined || typeof day !== 'string') continue;
    if (words.length > 0 && pickTool(rest, tools)?.name !== tool.name) return undefined;
    const to = addDays(day, next.days);
    return { call: { toolName: tool.name, input: { ...input, [name]: to } }, values: [to] };
  }
  return undefined;
}

/** Words of a question of which day or date a day is that ask for nothing else (folded). */
const DAY_QUESTION_WORDS: ReadonlySet<string> = new Set(
  (
    'what whats which when is it will be date day weekday of the week does fall falls on wann welcher welches welchen ist ' +
    'datum tag wochentag fallt der die das am haben wir ein quel quelle quand est sera serons il t que jour tombe tombera le la ce cest sommes nous there dort da bas ' +
    // "what day is christmas this year?", "wann ist Ostern dieses Jahr?", "quel jour tombe Noël cette année ?"
    'this year dieses jahr cette annee'
  ).split(' '),
);
/**
 * The date alone, after a clock: "and the date?", "what's the date there?", "and what day is it there?", "und das
 * Datum?", "welcher Tag ist es dort?", "et la date ?", "quel jour est-il là-bas ?" (folded).
 */
const THE_DATE =
  /^(?:(?:and|what(?:'s|\s+is)|und|welches\s+ist|et|quelle\s+est)\s+)*(?:the\s+date|the\s+day|das\s+datum|der\s+tag|la\s+date|le\s+jour)(?:\s+(?:there|today|dort|heute|la-bas|aujourd['’]hui))?\s*[?.!]*$|^(?:and\s+|und\s+|et\s+)?(?:what\s+day\s+is\s+it|what\s+date\s+is\s+it|welcher\s+tag\s+ist\s+(?:es|heute)|welches\s+datum\s+ist\s+(?:es|heute)|quel\s+jour\s+(?:est-il|est-on|sommes-nous|on\s+est)|quelle\s+date\s+est-on)\s+(?:there|over\s+there|dort|da\s+druben|la-bas)(?:\s+(?:now|today|jetzt|heute|maintenant|aujourd['’]hui))?\s*[?.!]*$/;
/** Today's date asked in German or French: "welcher Tag ist heute?", "welches Datum haben wir?", "quel jour sommes-nous ?" (folded). */
const TODAY_ASKED =
  /^(?:welcher\s+tag\s+ist\s+heute|welches\s+datum\s+(?:ist\s+heute|haben\s+wir(?:\s+heute)?)|der\s+wievielte\s+ist\s+heute|quel\s+jour\s+(?:sommes-nous|on\s+est|est-on)(?:\s+aujourd['’]hui)?|on\s+est\s+quel\s+jour|quelle\s+est\s+la\s+date\s+(?:d['’]aujourd['’]hui|du\s+jour))\s*[?.!]*$/;
/** A word that places a question where a clock was just read: "there", "dort", "là-bas" (folded). */
const THERE = /\b(?:there|dort|da|drueben|druben|la-bas|la\s+bas)\b/;
/** A day counted from today ("tomorrow", "in 3 days", "übermorgen", "demain"), not a day of the calendar (folded). */
const COUNTED_DAY = /^(?:today|tomorrow|the\s+day\s+after\s+tomorrow|in\s+\w+\s+days?|heute|morgen|ubermorgen|in\s+\w+\s+tagen|aujourd['’]hui|demain|apres-demain|dans\s+\w+\s+jours?)$/;
/** A word that asks for a day, a date or when. */
const ASKS_DAY = /\b(?:date|day|weekday|when|datum|tag|wochentag|wann|jour|quand)\b/;

/**
 * The answer to a question of which day a day is: "what's the date tomorrow?", "when is Mother's Day?", "welcher Tag ist
 * übermorgen?" (the day the model reads, as it reads one for a tool, from today's UTC date), or "and the day after?",
 * "und am Tag danach?", "et le lendemain ?" after a clock's answer (the day next to the date it gave in its zone, or to
 * today's when it gave none). No tool is called: none is needed, and the answer says so, with the date it counted from.
 * `undefined` for a text that asks anything else (an id, a time, an order), or "the day after" after no clock.
 */
function dayAnswer(prompt: LanguageModelV4Prompt, text: string, tools: readonly ToolInfo[], now: Date, wording: Wording): string | undefined {
  const folded = fold(text).trim();
  // "and the date?" after a clock: the date it gave; "welcher Tag ist heute?", "quel jour sommes-nous ?": today's UTC date.
  const clockNow = THE_DATE.test(folded) ? clockDay(prompt, tools, now.toISOString().slice(0, 10)) : undefined;
  const asked = clockNow ?? (TODAY_ASKED.test(folded) ? { date: now.toISOString().slice(0, 10), zone: 'UTC' } : undefined);
  if (asked !== undefined) {
    const weekday = new Date(`${asked.date}T00:00:00Z`).toLocaleDateString(wording.language, { weekday: 'long', timeZone: 'UTC' });
    return wording.dateIsNow(asked.date, weekday, asked.zone ?? 'UTC');
  }
  if (!ASKS.test(folded) && !GOES_ON.test(folded)) return undefined;
  if (idLikeWords(text).length > 0) return undefined;
  const today = now.toISOString().slice(0, 10);
  const next = dayNextToAsked(text);
  const read = readRelativeDates(text, now);
  const clock = clockDay(prompt, tools, today);
  let answer: { readonly phrase: string; readonly date: string; readonly from: { readonly date: string; readonly zone?: string | undefined } } | undefined;
  if (next !== undefined && read.dates.length === 0 && clock !== undefined) {
    answer = { phrase: next.phrase, date: addDays(clock.date, next.days), from: clock };
  } else if (read.dates.length === 1 && read.shift === undefined && ASKS.test(folded) && (ASKS_DAY.test(folded) || clock !== undefined)) {
    const [{ phrase, date }] = read.dates as [{ phrase: string; date: string }];
    // "what's the date there tomorrow?" after a clock: counted from the date there, not from today's UTC date.
    // "et demain ?" right after "et la date ?" there: the date asked about was the one there, so it counts from it too.
    const afterDate = THE_DATE.test(fold(userTextAt(prompt, lastIndexOfRole(prompt, 'user', lastIndexOfRole(prompt, 'user')))).trim());
    const there = clock?.zone !== undefined && (THERE.test(folded) || afterDate) && COUNTED_DAY.test(fold(phrase).trim());
    const days = Math.round((Date.parse(date) - Date.parse(today)) / 86_400_000);
    answer = there && clock !== undefined ? { phrase, date: addDays(clock.date, days), from: clock } : { phrase, date, from: { date: today } };
  }
  if (answer === undefined) return undefined;
  const rest = fold(text.replace(answer.phrase, ' '));
  const words = rest.split(/[^a-z]+/).filter((word) => word.length > 0 && !DAY_QUESTION_WORDS.has(word) && !GOES_ON_WORDS.has(word) && contentWords(word).length > 0);
  if (words.length > 0) return undefined;
  const weekday = new Date(`${answer.date}T00:00:00Z`).toLocaleDateString(wording.language, { weekday: 'long', timeZone: 'UTC' });
  return wording.dayIs(answer.phrase, answer.date, weekday, answer.from);
}

/**
 * The day a clock of the message before gave: a call that takes a time zone or names a time or a clock (no record's id),
 * its result's date in its zone, or today's UTC date when it gave none (the browser's own time, written out in words).
 */
function clockDay(prompt: LanguageModelV4Prompt, tools: readonly ToolInfo[], today: string): { readonly date: string; readonly zone?: string | undefined } | undefined {
  // "et demain ?" after "et la date ?" after a clock: that question was answered from the clock, with no tool.
  const previous = lastIndexOfRole(prompt, 'user', lastIndexOfRole(prompt, 'user'));
  if (previous > 0 && callsOf(previousTurn(prompt)).length === 0 && THE_DATE.test(fold(userTextAt(prompt, previous)).trim())) {
    return clockDay(prompt.slice(0, previous + 1), tools, today);
  }
  const turn = previousTurn(prompt);
  const results = turn.flatMap((message) => (message.role === 'tool' ? message.content : []));
  for (const call of callsOf(turn).reverse()) {
    const tool = tools.find((candidate) => candidate.name === call.toolName);
    const named = splitIdentifier(call.toolName).some((word) => word === 'time' || word === 'clock');
    if (tool === undefined || idOf(call.input) !== undefined || (!named && timeZoneArgument(tool.inputSchema) === undefined)) continue;
    const result = results.find((part) => part.type === 'tool-result' && part.toolCallId === call.toolCallId);
    if (result?.type !== 'tool-result' || (result.output.type !== 'json' && result.output.type !== 'text')) continue;
    const value = resultValue(result.output);
    const fields = typeof value === 'object' && value !== null ? Object.entries(value) : [];
    const date = fields.find(([key, field]) => isDateField(key, field))?.[1];
    const zone = fields.find(([key, field]) => /zone/i.test(key) && typeof field === 'string')?.[1];
    return typeof date === 'string' ? { date, zone: typeof zone === 'string' ? zone : 'UTC' } : { date: today };
  }
  return undefined;
}

/**
 * The tool a text that refers back names by its verb alone, with the thing the last call of the message before was
 * about ("empty it" after "what's in my cart?": cart_clear, as "empty the cart"; "leere ihn", "vide-le"): the text
 * read with that call's thing (the words of its tool's name that are no verb). `undefined` when the text refers to
 * nothing, or the thing picks no tool about it.
 */
function thingOfLastCall(prompt: LanguageModelV4Prompt, text: string, tools: readonly ToolInfo[]): ToolInfo | undefined {
  if (!REFERS_BACK.test(fold(withoutMessage(text)))) return undefined;
  const last = callsOf(previousTurn(prompt)).at(-1);
  const tool = last === undefined ? undefined : tools.find((candidate) => candidate.name === last.toolName);
  const things = tool === undefined ? [] : splitIdentifier(tool.name).filter((word) => !isReadName(word) && !isChangeName(word) && !isWeakVerb(stem(word)));
  if (things.length === 0) return undefined;
  // "can you make it earlier? like the 1st of december" after "when is A-1002 arriving": read with that call's id, the
  // text names the change of its date (with its thing, "make … order" made the invoice).
  const id = idOf(last?.input)?.[1];
  const byId = id === undefined ? undefined : pickTool(`${text} ${id}`, tools);
  if (byId !== undefined && isChangeName(byId.name) && idArgument(byId.inputSchema) !== undefined && hasDate(text)) return byId;
  const picked = pickTool(`${text} ${things.join(' ')}`, tools);
  return picked !== undefined && splitIdentifier(picked.name).some((word) => things.includes(word)) ? picked : undefined;
}

/** The call a request reads as on its own, in full (one tool, one set of arguments, none missing); none otherwise. */
function requestedCalls(request: string, tools: readonly ToolInfo[], now: Date): Array<{ readonly toolName: string; readonly input: unknown }> {
  const said = readWordedSums(readRelativeDates(request, now).text);
  const tool = pickTool(said, tools);
  const sets = tool === undefined ? [] : extractArgumentSets(said, tool.inputSchema);
  return tool === undefined || sets.length !== 1 || sets[0].missing.length > 0 ? [] : [{ toolName: tool.name, input: sets[0].input }];
}

/** A question word first ("when was it delivered", "wann kommt sie", "quand arrive-t-elle"), not a request ("can you"). */
const QUESTION_FIRST = /^(?:is|are|was|were|when|where|how|what|has|have|does|did|ist|sind|war|wann|wo|wie|hat|quand|ou|est|comment)\b/;
/** A question: a question mark, or a question word first ("is it late", "wann kommt sie", "quand arrive-t-elle"). */
const ASKS = /\?\s*$|^(?:is|are|was|were|when|where|how|what|has|have|does|did|will|can|ist|sind|wann|wo|wie|hat|quand|ou|est|comment)\b/;

/**
 * The tool that reads the one record a conversation is about, for a question that names no tool ("when will it
 * arrive?", "by how many days?" after "status of A-1010"), or a list of such records that takes no id, asked about
 * "it" ("is it late?" is no list of the late orders): the text read with that record's id (the one
 * {@link referredId} finds) picks a tool that reads it. A list of something else stays ("what time is it?" is a clock).
 */
function aboutEarlier(prompt: LanguageModelV4Prompt, text: string, tools: readonly ToolInfo[], picked: ToolInfo | undefined): ToolInfo | undefined {
  if (!ASKS.test(fold(text).trim())) return undefined;
  const reader = tools.find((tool) => isReadName(tool.name) && idArgument(tool.inputSchema) !== undefined);
  const referred = reader === undefined ? undefined : referredId(prompt, text, reader);
  if (referred === undefined) return undefined;
  const tool = pickTool(`${referred.id} ${text}`, tools);
  if (tool === undefined || !isReadName(tool.name) || idArgument(tool.inputSchema) === undefined) return undefined;
  if (picked === undefined) return tool;
  // A tool that takes no id (an analyst's task) asked about "it": the record, as the text with its id reads.
  if (!isReadName(picked.name) && referred.phrase !== '') return tool;
  // A list of the same things as the record ("orders" of list_delayed_orders and query_order), asked about "it".
  const things = (name: string): string[] => splitIdentifier(name).filter((word) => !isReadName(word) && !isChangeName(word));
  const same = things(picked.name).some((word) => things(tool.name).some((other) => stem(word) === stem(other)));
  return same && referred.phrase !== '' ? tool : undefined;
}

/**
 * The answer to an id the user gave that the tool's argument `name` does not take: what its ids look like, and the id it
 * likely stands for when only its letters are missing ("#1002": "Did you mean A-1002?", which a yes answers).
 */
function notAnIdText(tool: ToolInfo, name: string, given: string, wording: Wording): string {
  const suggestion = suggestedId(tool.inputSchema, name, given);
  return describeArgument(tool.inputSchema, name, (label, hint) => wording.notAnId(tool.name, given, label, hint, suggestion));
}

/** An id written as ids are: a `#` or up to three letters before its digits ("#1002", "B-2001", "Z1"), not "covid-19". */
const SHORT_ID = /^(?:#\s*[A-Za-z]{0,3}[-–—]?\s*\d|[A-Za-z]{1,3}\s?[-–—]?\s?\d)/;

/**
 * An id in a text that names no tool ("where is #1002", "status of B-2001") that no tool takes: the first tool that
 * only reads and needs nothing but such an id (the lookup of one record) is the one it was likely written for.
 */
function unreadId(text: string, tools: readonly ToolInfo[]): { readonly tool: ToolInfo; readonly name: string; readonly given: string } | undefined {
  for (const tool of tools) {
    const required = extractArguments('', tool.inputSchema).missing;
    const name = required[0];
    if (!isReadName(tool.name) || name === undefined || required.length > 1) continue;
    const given = unacceptedIds(text, tool.inputSchema, name, wordsFor).find((id) => SHORT_ID.test(id));
    if (given !== undefined) return { tool, name, given };
  }
  return undefined;
}

/** "remove the coffee beans from my cart": what is taken out, unless it is all of it ("everything", "all items"). */
const REMOVED = /\b(?:remove|delete|take|drop|erase)\s+(?:(?:the|my|an?|\d+|one|two|three)\s+)*(?!(?:all|everything|every|each|items?|things|it|them|stuff|the|my|an?)(?![\w-]))([a-z0-9][\w\s-]*?)\s+(?:from|out\s+of|off)\b/i;

/**
 * What a request takes out of something when the tool it reaches takes no arguments and changes it, so empties it
 * whole (`cart_clear`): a part that such a tool cannot remove alone; `undefined` otherwise.
 */
function removedPart(text: string, tool: ToolInfo): string | undefined {
  if (!isChangeName(tool.name) || takesArguments(tool)) return undefined;
  return REMOVED.exec(text)?.[1]?.trim();
}

/** Whether a tool's schema has any argument. */
function takesArguments(tool: ToolInfo): boolean {
  const schema = tool.inputSchema as { properties?: Record<string, unknown> } | undefined;
  return Object.keys(schema?.properties ?? {}).length > 0;
}

/**
 * A message that only takes something out, without saying of what ("remove the pears", "nimm die Birnen raus",
 * "enlève les poires"): the verb, then the thing (articles and a count before it dropped), folded.
 */
const TAKE_OUT =
  /^(?:(?:please|pls|bitte|can\s+you|could\s+you)\s+)?(?:remove|delete|take\s+out|drop|erase|entferne|losche|nimm|enleve|enlevez|retire|retirez|supprime|supprimez)\s+(?:(?:the|my|an?|\d+|one|two|three|die|den|das|meine|le|la|les|mes)\s+|l['’]\s*)*([a-z][a-z\s-]*?)(?:\s+(?:raus|heraus|please|bitte|again|wieder|stp|svp))*\s*[.!?]*$/d;

/** All of what a message takes out: "everything", "all items", "alles", "tout" (folded). */
const EVERYTHING = /^(?:everything|all(?:\s+of\s+(?:it|them))?|all\s+(?:the\s+)?(?:items|things|stuff)|alles|tout)$/;

/**
 * The thing a message takes out ({@link TAKE_OUT}) when a call earlier in the conversation added it to something a
 * tool empties whole and no tool takes one thing out of ("remove the pears" after "add 2 pears to my cart": cart_clear),
 * with that tool; `undefined` otherwise (the thing was never added, or a tool takes it out by its name).
 */
function takenOut(prompt: LanguageModelV4Prompt, text: string, tools: readonly ToolInfo[]): { readonly tool: ToolInfo; readonly part?: string } | undefined {
  const match = TAKE_OUT.exec(fold(text).trim());
  const span = match?.indices?.[1];
  if (match === null || span === undefined) return undefined;
  // Folding keeps each letter in its place: the thing as the user wrote it ("Birnen", "poires").
  const part = text.trim().slice(span[0], span[1]).trim();
  const stems = contentWords(part);
  const clearing = (call: LanguageModelV4ToolCallPart): ToolInfo | undefined => {
    const things = splitIdentifier(call.toolName).filter((word) => !isReadName(word) && !isChangeName(word) && !isWeakVerb(stem(word)));
    return tools.find((candidate) => isChangeName(candidate.name) && !takesArguments(candidate) && splitIdentifier(candidate.name).some((word) => things.includes(word)));
  };
  // "remove everything", "delete all items" after a call about the cart: all of it.
  if (EVERYTHING.test(fold(part))) {
    const last = callsOf(previousTurn(prompt)).at(-1);
    const tool = last === undefined ? undefined : clearing(last);
    return tool === undefined ? undefined : { tool };
  }
  // "remove them", "nimm sie raus" right after one thing was added: that thing.
  if (/^(?:them|it|those|these|sie|es|les|la|le)$/.test(fold(part))) {
    const added = callsOf(previousTurn(prompt));
    const thing = added.length === 1 && added[0] !== undefined ? stringValues(added[0].input)[0] : undefined;
    const tool = thing === undefined || added[0] === undefined ? undefined : clearing(added[0]);
    return tool === undefined || thing === undefined ? undefined : { tool, part: thing };
  }
  const same = (value: string): boolean => {
    const added = contentWords(value);
    return stems.length > 0 && added.length === stems.length && added.every((word) => stems.includes(word));
  };
  for (const call of callsOf(prompt).reverse()) {
    if (!stringValues(call.input).some(same)) continue;
    const tool = clearing(call);
    // A tool that takes the thing out by its name ("cart_remove") would be the one meant: then it is read as usual.
    const picked = tool === undefined ? undefined : pickTool(`${text} ${splitIdentifier(tool.name).join(' ')}`, tools);
    if (tool === undefined || (picked !== undefined && takesArguments(picked))) return undefined;
    return { tool, part };
  }
  return undefined;
}

/** The tool info the matcher reads. */
type ToolInfo = { readonly name: string; readonly description?: string | undefined; readonly inputSchema?: unknown };

/**
 * One call per request when a message makes several ("… and …", "…; …", "… then …") and each names a tool with all
 * it needs (an argument a request leaves out may come from one before it: "Look up A-1002 and email its customer that
 * it is late"); `undefined` when any does not, so the message is read as one request.
 */
function callsPerRequest(text: string, tools: readonly ToolInfo[]): OfflineToolCall[] | undefined {
  const requests = splitRequests(text).filter((request) => !isPleasantry(request.text));
  if (requests.length < 2) return undefined;
  const calls: OfflineToolCall[] = [];
  for (const { read } of readParts(text, requests, tools)) {
    if (read === undefined || (read.sets[0]?.missing.length ?? 0) > 0) return undefined;
    for (const set of read.sets) calls.push({ toolName: read.tool.name, input: set.input });
  }
  const distinct = calls.filter((call, i) => calls.findIndex((other) => other.toolName === call.toolName && JSON.stringify(other.input) === JSON.stringify(call.input)) === i);
  return distinct.length > 1 ? distinct : undefined;
}

/** Where a request of a message starts in it. */
function startOf(request: MessageRequest): number {
  return request.end - request.text.length;
}

/**
 * A message of several requests of which some are read in full and others name no tool, or a topic no tool covers
 * ("where is A-1002 and book a taxi", "show A-1002 and cancel A-1003"): the calls of the ones read, and an answer that
 * names the ones left undone and why. `undefined` when every request is read (see `callsPerRequest`), none is, one
 * that names a tool lacks an argument (it is asked for), or the parts not read are pleasantries ("… and thanks") or
 * what is to be said ("…: sorry for the delay and thanks for waiting").
 */
function partialRequests(text: string, tools: readonly ToolInfo[], wording: Wording): (OfflineReply & { readonly type: 'tool-calls' }) | undefined {
  const requests = splitRequests(text);
  if (requests.length < 2) return undefined;
  const plain = withoutMessage(text);
  const said = [...plain].findIndex((letter, i) => letter !== text[i]);
  const undone: string[] = [];
  const asked: MessageRequest[] = [];
  for (const request of requests) {
    if ((said >= 0 && startOf(request) >= said) || isPleasantry(request.text)) continue;
    const topic = missingTopic(request.text, tools);
    if (topic === undefined) asked.push(request);
    else undone.push(wording.undone(request.text, Object.hasOwn(wording.topics, topic) ? (wording.topics[topic] ?? topic) : topic));
  }
  const calls: OfflineToolCall[] = [];
  for (const { request, read } of readParts(text, asked, tools)) {
    if (read === undefined) undone.push(wording.undone(request.text));
    else if ((read.sets[0]?.missing.length ?? 0) > 0) return undefined;
    else for (const set of read.sets) calls.push({ toolName: read.tool.name, input: set.input });
  }
  if (calls.length === 0 || undone.length === 0) return undefined;
  return { type: 'tool-calls', calls, text: undone.join(' ') };
}

/**
 * A request that starts with a verb and then names what it acts on ("book a taxi", "call the driver", "buche ein
 * Taxi", "réserve un taxi"): no member of a list of things, whose first word is a count, an article or the thing.
 */
const ACTION = /^\s*(?!(?:a|an|one|some|the|ein|eine|einen|un|une|des|le|la|les)\b)[a-z\u00C0-\u024F]+\s+(?:a|an|the|my|our|some|ein|eine|einen|den|die|das|un|une|le|la|les|mon|ma|mes)\s+\S/i;

/** An adding verb at the start of a request: what follows it is the first thing of a list, not an action's object. */
const ADDS = /^\s*(?:please\s+)?(?:add|buy|purchase|put|f[üu]ge?|leg[e]?|kaufe?|ajoute[rz]?|mets|ach[eè]te)\s/i;

/** A part of a message as read: its request (a list's members taken together) and, when it names a tool, that read. */
type ReadPart = { readonly request: MessageRequest; readonly read?: RequestRead | undefined };

/**
 * The requests of a message as read, in order, a request that names no tool joined to the list the one before it
 * begins ("… add 2 mugs" and "a teapot") or the one after it ends ("add 2 mugs" and "a teapot to my cart"): what
 * `callsPerRequest` and `partialRequests` both read.
 */
function readParts(text: string, requests: readonly MessageRequest[], tools: readonly ToolInfo[]): ReadPart[] {
  const parts: ReadPart[] = [];
  const span = (from: MessageRequest, to: MessageRequest): MessageRequest => ({ text: text.slice(startOf(from), to.end), end: to.end });
  for (let index = 0; index < requests.length; index++) {
    const request = requests[index] as MessageRequest;
    const [previous, next] = [parts.at(-1), requests[index + 1]];
    // "invoices for A-1001 and A-1003": a part that is only ids (an "order" at most) is more of the request before it.
    if (previous?.read !== undefined && idsOnly(request.text)) {
      const joined = readRequest(text, span(previous.request, request), tools);
      if (joined?.tool === previous.read.tool) {
        parts[parts.length - 1] = { request: span(previous.request, request), read: joined };
        continue;
      }
    }
    const read = readRequest(text, request, tools);
    const joined = read !== undefined || previous?.read === undefined ? undefined : listedRead(text, previous.request, request, previous.read, tools);
    const ends = read !== undefined || joined !== undefined || next === undefined ? undefined : listedRead(text, request, next, readRequest(text, next, tools), tools);
    if (joined !== undefined && previous !== undefined) parts[parts.length - 1] = { request: span(previous.request, request), read: joined };
    else if (ends !== undefined && next !== undefined) {
      parts.push({ request: span(request, next), read: ends });
      index++;
    } else parts.push({ request, read });
  }
  return parts;
}

/** Words beside ids that ask nothing of their own: what they are, and what joins them (folded). */
const ID_ONLY_WORDS: ReadonlySet<string> = new Set(
  'and also too or the order orders for of und auch oder die der den fur von bestellung bestellungen auftrag et aussi ou la le les de pour commande commandes nr no number nummer numero'.split(' '),
);

/** Whether a part of a message gives ids and nothing else but words for what they are ("A-1003", "order A-1003", "#7"). */
function idsOnly(text: string): boolean {
  const ids = idLikeWords(text);
  let rest = text;
  for (const id of ids) rest = rest.replace(id, ' ');
  return ids.length > 0 && wordsOf(rest).every((word) => ID_ONLY_WORDS.has(word));
}

/** What {@link readRequest} reads of a request: the tool it names, and one set of arguments per call. */
type RequestRead = { readonly tool: ToolInfo; readonly sets: ExtractedArguments[] };

/**
 * Two requests of a message read as one, from the start of `from` to the end of `to` ("… add 3 apples" and "2 bananas
 * to my cart"), when that makes more calls of one tool than one of them makes alone (`alone`: its read; another tool's
 * calls, or none, count as none: "a notebook to my cart" alone shows the cart); `undefined` otherwise.
 * `callsPerRequest` and `partialRequests` both join so.
 */
function listedRead(text: string, from: MessageRequest, to: MessageRequest, alone: RequestRead | undefined, tools: readonly ToolInfo[]): RequestRead | undefined {
  // A member of a list is a thing: "book a taxi" (a verb, then its object) is a request of its own, not one more item;
  // "add an apple" begins the list ("add an apple and 2 pears", "add a coffee and a tea to my cart").
  if (ACTION.test(to.text) || (ACTION.test(from.text) && !ADDS.test(from.text))) return undefined;
  const joined = readRequest(text, { text: text.slice(startOf(from), to.end), end: to.end }, tools);
  return joined !== undefined && joined.sets.length > (alone?.tool === joined.tool ? alone.sets.length : 0) ? joined : undefined;
}

/**
 * The tool a request of a message names and the arguments it gives; an argument the request leaves out may come from
 * the text before it ("Look up A-1002 and email its customer"), and so may what an adding request adds to. `undefined` when it names no tool.
 */
function readRequest(text: string, request: MessageRequest, tools: readonly ToolInfo[]): RequestRead | undefined {
  // "clear my cart and add 3 apples": what is added to may be named before ("add 3 apples" alone names no tool).
  const before = text.slice(0, Math.max(0, startOf(request)));
  // "where is A-1002 and add 2 mugs": an adding request with nothing after it that says where things go is one too.
  const after = text.slice(request.end);
  const tool = pickTool(request.text, tools) ?? pickAdder(request.text, tools, before, after);
  if (tool === undefined) return undefined;
  const sets = extractArgumentSets(request.text, tool.inputSchema);
  return (sets[0]?.missing.length ?? 0) > 0 ? { tool, sets: extractArgumentSets(text.slice(0, request.end), tool.inputSchema) } : { tool, sets };
}

/**
 * Says how a relative day was read ("tomorrow" → 2026-11-25) when a call takes it, so the user sees it before approving,
 * and how a country was read when its other parts keep other times ("Spain": its mainland's, not the Canary Islands').
 */
function withReadingNote(reply: OfflineReply & { readonly type: 'tool-calls' }, dates: ReadDates, wording: Wording): OfflineReply {
  const inputs = reply.calls.map((call) => JSON.stringify(call.input));
  const zones = findTimeZones(dates.text).flatMap(({ zone, start, end, others }) =>
    others === undefined || !inputs.some((input) => input.includes(`"${zone}"`)) ? [] : [wording.mainland(dates.text.slice(start, end), zone, joinList(others, wording.or))],
  );
  const noted = zones.length === 0 ? reply : { ...reply, text: [...new Set(zones), reply.text].filter((part) => part !== undefined).join(' ') };
  const used = dates.dates.filter((date) => inputs.some((input) => input.includes(`"${date.date}"`)));
  if (used.length === 0) return noted;
  // Each reading once: "move A-1002 to friday and A-1003 to friday" read "friday" as 2026-11-27 twice.
  const read = joinList([...new Set(used.map((date) => wording.readAs(date.phrase, date.date)))], wording.and);
  return { ...noted, text: `${wording.reading(read, dates.today)}${noted.text === undefined ? '' : ` ${noted.text}`}` };
}

/** A request to be done once a change before it is made, with the tool that does it. */
interface FollowUp {
  readonly request: MessageRequest;
  readonly tool: ToolInfo;
  /** What the mail is for, worded from the ask ("We apologise for the delay."): it opens the message. */
  readonly purpose?: string | undefined;
  /** The one record it is about, when the request names its own ("… and email the customer of A-1003"). */
  readonly id?: string | undefined;
}

/**
 * The calls of a message made now, and the requests left until their results are in; `made` names the tool whose
 * result is sent ("send the invoice for A-1003 to the customer": order_invoice), when it is neither a change nor a lookup.
 */
interface FollowUps {
  readonly calls: OfflineToolCall[];
  readonly later: FollowUp[];
  readonly changes: boolean;
  readonly made?: string | undefined;
  /**
   * The calls of `made`, when they wait for the change made now ("move A-1002 to friday and send the invoice": the
   * invoice is made once the move is, so the mail does not carry the old date).
   */
  readonly madeAfter?: OfflineToolCall[] | undefined;
}

/** Sending, in English, German and French (folded): "send", "email", "forward", "schick", "versende", "envoie", "transmets". */
const SENDS = /\b(?:send|sned|e-?mail|mail|forward|schick\w*|sende|versend\w*|e-?maile|maile|envoie\w*|envoy\w*|transmet\w*|mailer)\b/;

/**
 * "send the invoice for A-1003 to the customer": a request to send what a tool makes (neither a change nor a lookup)
 * that names all it needs: the thing is made now, and a tool that takes a message sends it once it is in, saying what it
 * holds (`followUpFromResults`); the mail still asks for approval. Before, only the invoice was made. `undefined` for any
 * other text.
 */
function sentMade(asked: string, tools: readonly ToolInfo[], id?: string): FollowUps | undefined {
  // "send the invoice to the customer" after "where is A-1003": the id it refers back to, read by the caller.
  const text = id === undefined ? asked : `${id} ${asked}`;
  if (!SENDS.test(fold(withoutMessage(text)))) return undefined;
  // One request, whose ids may be listed ("the invoices for A-1001 and A-1003 to the customers").
  const parts = splitRequests(fold(text).replace(TO_CUSTOMER, ' '));
  if (!parts.slice(1).every((part) => idsOnly(part.text))) return undefined;
  // "email the invoice of A-1002": what is made is named beside the verb that sends it.
  const maker = pickTool(text, tools);
  const picked = maker !== undefined && isChangeName(maker.name) ? pickTool(text, tools.filter((tool) => !isChangeName(tool.name))) : maker;
  // "A-1002 schick die Rechnung an den Kunden": "an den Kunden" beside an id reads as a lookup; the thing is "Rechnung".
  const made = picked === undefined || isReadName(picked.name) ? madeToSend(asked, tools) : picked;
  if (made === undefined || isReadName(made.name) || isChangeName(made.name) || idArgument(made.inputSchema) === undefined) return undefined;
  return sendsWhatIsMade(text, made, tools, asked);
}

/** The tool whose result a text asks to send when it names no id ("send the invoice to the customer"): what refers back to one. */
function madeToSend(text: string, tools: readonly ToolInfo[]): ToolInfo | undefined {
  if (!SENDS.test(fold(withoutMessage(text))) || splitRequests(text).length > 1) return undefined;
  const sends = fold(text).replace(TO_CUSTOMER, ' ');
  const named = pickTool(sends, tools);
  const made = named !== undefined && isChangeName(named.name) ? pickTool(sends, tools.filter((tool) => !isChangeName(tool.name))) : named;
  return made === undefined || isReadName(made.name) || isChangeName(made.name) || idArgument(made.inputSchema) === undefined ? undefined : made;
}

/** The calls of a message that leaves requests for their results, and the answer that says what is done once they are in. */
function followUpReply(follow: FollowUps, note: string | undefined, wording: Wording): OfflineReply & { readonly type: 'tool-calls' } {
  const later = joinList(
    follow.later.map(({ request, tool }) => `${wording.quote(lowerFirst(request.text))} (${tool.name})`),
    wording.and,
  );
  const made = follow.calls.filter((call) => call.toolName === follow.made).length;
  const makers = joinList([...new Set((follow.madeAfter ?? []).map((call) => call.toolName))], wording.and);
  const once =
    follow.madeAfter !== undefined
      ? wording.onceChangedMade(makers, later)
      : follow.made !== undefined
        ? wording.onceMade(later, made > 1)
        : follow.changes
          ? wording.onceChanged(later)
          : wording.onceLookedUp(later, sourcesOf(follow.calls).length > 1);
  return { type: 'tool-calls', calls: follow.calls, text: note === undefined ? once : `${note} ${once}` };
}

/**
 * A request to send what a tool makes that lacked the id, read with the reply that gives it (`asked`: the request, a
 * line break, the reply, as {@link withPendingQuestion} joins them): the thing is made for that id and mailed once it is
 * in; before, only the thing was made. `undefined` when the reply is not ids alone, or the request sends nothing made.
 */
function sentOnAnswer(asked: string, tools: readonly ToolInfo[]): FollowUps | undefined {
  const at = asked.lastIndexOf('\n');
  const [request, reply] = [asked.slice(0, Math.max(0, at)), asked.slice(at + 1).trim()];
  const ids = at < 0 || !idsOnly(reply) ? [] : idLikeWords(reply);
  return ids.length === 1 && ids[0] !== undefined ? sentMade(request, tools, ids[0]) : undefined;
}

/** Sending what was just named, with nothing else to say: "send it (to the customer)", "schick sie", "envoie-la" (folded). */
const IT_SENT = /^\s*(?:(?:then|and|dann|und|et|puis)\s+)?(?:send|sned|e-?mail|mail|forward|schick\w*|sende|maile|envoie)(?:-la|-le|-les|-lui)?(?:\s+(?:it|them|sie|es|ihn|la|le|les)\b)?(?:\s+(?:(?:to|an|au|aux|a)\s+)?(?:(?:(?:the|their|its|den|dem|der|die|le|la|les|leurs?)\s+)?(?:customers?|buyers?|clients?|kunden|kundin)|them|him|her|ihm|ihr|ihnen))?\s*[.!]*$/;

/** A message that sends what a tool makes, alone ({@link sentMade}) or after requests that only read ({@link sentAfterReads}). */
function sendsMade(text: string, tools: readonly ToolInfo[]): FollowUps | undefined {
  return sentMade(text, tools) ?? sentAfterReads(text, tools);
}

/**
 * "where is A-1002 and send the invoice": the requests before the last are read now, the thing the last one sends is
 * made with them (for the id named before it) and mailed once it is in, as {@link sentMade} does; before, the invoice
 * was made and nothing mailed. When a request before it changes something ("move A-1002 to friday and send the
 * invoice"), the thing is made once the change is (`madeAfter`), so the mail does not say what it held before; it made
 * the invoice beside the move and mailed nothing. `undefined` when a request before it is not read in full, or the last
 * one sends nothing made.
 */
function sentAfterReads(text: string, tools: readonly ToolInfo[]): FollowUps | undefined {
  const requests = splitRequests(text).filter((request) => !isPleasantry(request.text));
  const last = requests.at(-1);
  if (requests.length < 2 || last === undefined || !SENDS.test(fold(withoutMessage(last.text)))) return undefined;
  // Who it goes to names no thing made ("an den Kunden" read alone is a customer's order to look up).
  const sends = fold(last.text).replace(TO_CUSTOMER, ' ');
  const named = pickTool(sends, tools);
  const picked = named !== undefined && isChangeName(named.name) ? pickTool(sends, tools.filter((tool) => !isChangeName(tool.name))) : named;
  const before = readParts(text, requests.slice(0, -1), tools);
  // "invoice for A-1002 and send it": what "it" is, is what the request before makes.
  const made = picked ?? (IT_SENT.test(fold(last.text)) ? before.at(-1)?.read?.tool : undefined);
  if (made === undefined || isReadName(made.name) || isChangeName(made.name) || idArgument(made.inputSchema) === undefined) return undefined;
  const own = extractArgumentSets(last.text, made.inputSchema);
  const sets = own[0].missing.length > 0 ? extractArgumentSets(text.slice(0, last.end), made.inputSchema) : own;
  const messenger = purposeTool(last.text, tools);
  if (sets[0].missing.length > 0 || messenger === undefined || messenger === made) return undefined;
  const calls: OfflineToolCall[] = [];
  for (const { read } of before) {
    const reads = read !== undefined && (isReadName(read.tool.name) || isChangeName(read.tool.name) || read.tool === made);
    if (read === undefined || (read.sets[0]?.missing.length ?? 0) > 0 || !reads) return undefined;
    for (const set of read.sets) calls.push({ toolName: read.tool.name, input: set.input });
  }
  for (const set of sets) {
    if (!calls.some((call) => call.toolName === made.name && JSON.stringify(call.input) === JSON.stringify(set.input))) calls.push({ toolName: made.name, input: set.input });
  }
  const later = [{ request: last, tool: messenger }];
  if (!calls.some((call) => isChangeName(call.toolName))) return { calls, later, changes: false, made: made.name };
  // The thing is made once the change is, from what it changed.
  const madeAfter = calls.filter((call) => call.toolName === made.name);
  return { calls: calls.filter((call) => call.toolName !== made.name), later, changes: true, made: made.name, madeAfter };
}

/** "to the customer", "to them", "an den Kunden", "au client", "aux clients" (folded): who a mail goes to, no request of its own. */
const TO_CUSTOMER = /\s+(?:(?:to|an|au|aux|a)\s+(?:(?:the|their|its|his|her|den|die|das|le|la|les|leurs?|ses?|son|sa)\s+)?(?:customers?|buyers?|clients?|kunden|kundin(?:nen)?|clientes?)|to\s+(?:them|him|her))\b/g;

/** The calls of `maker` a text asks to send (each of its ids), and the mail left for their results. */
function sendsWhatIsMade(text: string, maker: ToolInfo, tools: readonly ToolInfo[], asked = text): FollowUps | undefined {
  const sets = extractArgumentSets(text, maker.inputSchema);
  if (sets[0].missing.length > 0) return undefined;
  const messenger = purposeTool(text, tools);
  if (messenger === undefined || messenger === maker) return undefined;
  const calls = sets.map((set) => ({ toolName: maker.name, input: set.input }));
  return { calls, later: [{ request: { text: asked.trim(), end: asked.length }, tool: messenger }], changes: false, made: maker.name };
}

/**
 * A message whose requests end with ones that lack only what is to be said, after a change ("Move A-1004 to next
 * Friday and email the customer"): the calls of the requests before, and those left for later. What the user did not
 * word is not made up now; once the change is made its result says what changed, and that is the message
 * (`followUpFromResults`). `undefined` for any other message.
 */
function followUps(text: string, tools: readonly ToolInfo[]): FollowUps | undefined {
  const requests = splitRequests(text);
  if (requests.length < 2) return purposeFollowUp(text, tools) ?? sentMade(text, tools);
  const sent = sendsMade(text, tools);
  if (sent !== undefined) return sent;
  // "email the customers of A-1006 and A-1004 to apologise for the delay": one request whose ids are listed.
  const head = text.split(PURPOSE_START)[0] ?? text;
  if (head !== text && splitRequests(head).slice(1).every((request) => idsOnly(request.text))) {
    const purposed = purposeFollowUp(text, tools);
    if (purposed !== undefined) return purposed;
  }
  const calls: OfflineToolCall[] = [];
  const later: FollowUp[] = [];
  for (const request of requests) {
    const read = readRequest(text, request, tools);
    if (read === undefined) return undefined;
    const { tool, sets } = read;
    const missing = sets[0]?.missing ?? [];
    if (missing.length === 0 && later.length === 0) {
      for (const set of sets) calls.push({ toolName: tool.name, input: set.input });
      continue;
    }
    if (!missing.every((name) => isMessageArgument(tool.inputSchema, name))) return undefined;
    // "where is A-1002 and email the customer of A-1003 to apologise": that mail is about its own order, looked up
    // beside the others, and says what it is for; it mailed A-1002's customer what A-1002's lookup showed.
    const idName = idArgument(tool.inputSchema);
    const own = idName === undefined ? undefined : extractArguments(request.text, tool.inputSchema).input[idName];
    const id = typeof own === 'string' ? own : undefined;
    if (id !== undefined && !calls.some((call) => idOf(call.input)?.[1] === id)) {
      const reader = tools.find((candidate) => isReadName(candidate.name) && idArgument(candidate.inputSchema) !== undefined && extractArguments(id, candidate.inputSchema).missing.length === 0);
      if (reader === undefined || calls.some((call) => isChangeName(call.toolName))) return undefined;
      calls.push({ toolName: reader.name, input: extractArguments(id, reader.inputSchema).input });
    }
    if (sourcesOf(calls).length === 0) return undefined;
    later.push({ request, tool, purpose: purposeOf(request.text), id });
  }
  return later.length > 0 ? { calls, later, changes: calls.some((call) => isChangeName(call.toolName)) } : undefined;
}

/**
 * What a mail is for when the ask says it instead of what to say ("email the customer of A-1002 to apologise for the
 * delay"), as the opening sentence of the mail: "We apologise for the delay.", "We are sorry for …", "Thank you for your
 * patience.", "We confirm …" ("them", "their" become "you", "your"). The verb's spelling is the user's.
 */
const PURPOSE =
  /\b(?:e-?mail|mail|write(?:\s+to)?|message|contact|reach\s+out\s+to)\b[^\n]*?\bto\s+(apologi[sz]e|say\s+sorry|thank|confirm)\b(?:\s+(?:them|him|her|the\s+(?:customer|buyer|client)))?\s*([^\n]*?)[.!?]*\s*$/i;
/** The same in German: "Schreib dem Kunden von A-1002, um sich für die Verspätung zu entschuldigen" (what is said comes before the verb). */
const PURPOSE_DE =
  /\b(?:e-?mail\w*|mail\w*|schreib\w*|kontaktier\w*|benachrichtig\w*)\b[^\n]*?\bum\s+(?:sich\s+)?(?:(?:ihm|ihr|ihnen|dem\s+kunden|der\s+kundin)\s+)?([^\n]*?)\s*zu\s+(entschuldigen|danken|bestätigen|bestatigen)\b[.!?]*\s*$/i;
/** The same in French: "Écris au client de A-1002 pour s'excuser du retard", "… pour le remercier de sa patience". */
const PURPOSE_FR =
  /(?:\b(?:e-?mail\w*|mail\w*|envoie\w*|contacte\w*|ecri\w*)|(?<![\wÀ-ÿ])[éÉ]cri\w*)\b[^\n]*?\bpour\s+(s(?:['’]\s*|\s+)excuser|nous\s+excuser|(?:le|la|les|lui|leur)\s+remercier|remercier|confirmer)\b\s*([^\n]*?)[.!?]*\s*$/i;

/** A mail asked for as an apology: "email them an apology", "send the customer of A-1002 an apology for the delay". */
const APOLOGY = /\b(?:e-?mail|mail|send|write|message)\b[^\n]*?\ban\s+apology\b(?:\s+((?:for|about)\s+[^\n]*?))?[.!?]*\s*$/i;

/** The same in German: "Schick dem Kunden von A-1006 eine Entschuldigung (für die Verspätung)". */
const APOLOGY_DE = /\b(?:schick\w*|send\w*|schreib\w*|e-?mail\w*|mail\w*)\b[^\n]*?\beine\s+entschuldigung\b(?:\s+((?:für|fur|wegen)\s+[^\n]*?))?[.!?]*\s*$/i;
/** The same in French: "envoie des excuses au client de A-1006", "… nos excuses pour le retard". */
const APOLOGY_FR = /(?:\b(?:envoie\w*|envoy\w*|ecri\w*|mail\w*)|(?<![\wÀ-ÿ])[éÉ]cri\w*)\b[^\n]*?\b(?:des|nos|mes)\s+excuses\b(?:\s+(?:au|aux|a|à)\s+[^\n]*?(?=\s+pour\b|$))?(?:\s+(pour\s+[^\n]*?))?[.!?]*\s*$/i;

/** Where what a mail is for begins ("… to apologise …", "… um sich …", "… pour s'excuser …", "… an apology …"). */
const PURPOSE_START = /\s(?:to\s+(?:apologi[sz]e|say\s+sorry|thank|confirm)|um\s|pour\s|an\s+apology|eine\s+entschuldigung|(?:des|nos|mes)\s+excuses)\b/i;

function purposeOf(text: string): string | undefined {
  const german = PURPOSE_DE.exec(text);
  if (german !== null) {
    const rest = ` ${(german[1] ?? '').trim()}`.replace(/\s(?:sein|ihr)(e[nmrs]?)?\b/gi, (_, end: string | undefined) => ` Ihr${end ?? ''}`).trimEnd();
    const verb = (german[2] ?? '').toLowerCase();
    if (verb === 'entschuldigen') return `Wir entschuldigen uns${rest}.`;
    if (verb === 'danken') return `Vielen Dank${rest}.`;
    return rest.length > 0 ? `Wir bestätigen${rest}.` : undefined;
  }
  const french = PURPOSE_FR.exec(text);
  if (french !== null) {
    const rest = ` ${(french[2] ?? '').trim()}`.replace(/\s(?:son|sa)\b/gi, ' votre').replace(/\sses\b/gi, ' vos').trimEnd();
    const verb = fold(french[1] ?? '');
    // "pour s'excuser", "pour nous excuser" (it asked for a subject and a body for the second).
    if (verb.endsWith('excuser')) return `Nous nous excusons${rest}.`;
    if (verb.endsWith('remercier')) return `Merci${rest}.`;
    return rest.length > 0 ? `Nous confirmons${rest}.` : undefined;
  }
  // "email them an apology", "send the customer an apology for the delay": as "to apologise" says it.
  const apology = APOLOGY.exec(text);
  if (apology !== null) return `We apologise${apology[1] === undefined ? '' : ` ${apology[1].trim().replace(/\b(?:their|his|her)\b/gi, 'your')}`}.`;
  const entschuldigung = APOLOGY_DE.exec(text);
  if (entschuldigung !== null) return `Wir entschuldigen uns${entschuldigung[1] === undefined ? '' : ` ${entschuldigung[1].trim().replace(/\b(?:seine?|ihre?)([nmrs]?)\b/g, 'Ihre$1').replace(/Ihree/g, 'Ihre')}`}.`;
  const excuses = APOLOGY_FR.exec(text);
  if (excuses !== null) return `Nous nous excusons${excuses[1] === undefined ? '' : ` ${excuses[1].trim().replace(/\b(?:son|sa)\b/gi, 'votre').replace(/\bses\b/gi, 'vos')}`}.`;
  const match = PURPOSE.exec(text);
  const verb = match?.[1]?.toLowerCase();
  if (match === null || verb === undefined) return undefined;
  const rest = (match[2] ?? '')
    .replace(/\b(?:them|him|they)\b/gi, 'you')
    .replace(/\b(?:their|his|her)\b/gi, 'your')
    .trim();
  const tail = rest.length > 0 ? ` ${rest}` : '';
  if (verb.startsWith('apologi')) return `We ${verb}${tail}.`;
  if (verb.startsWith('say')) return `We are sorry${tail}.`;
  if (verb === 'thank') return `Thank you${tail}.`;
  return rest.length > 0 ? `We confirm${tail}.` : undefined;
}

/**
 * A request for a mail that says what it is for but not what to say ("email the customer of A-1002 to apologise for
 * the delay"): the order is looked up first, and the mail once its result is in opens with the purpose and says what
 * the lookup shows (`followUpFromResults`), as for "look up A-1002 and email the customer"; the mail still asks for
 * approval. `undefined` for any other text, or when no tool that only reads takes the id it gives.
 */
function purposeFollowUp(asked: string, tools: readonly ToolInfo[], id?: string): FollowUps | undefined {
  const text = id === undefined ? asked : `${id} ${asked}`;
  const purpose = purposeOf(text);
  const tool = purpose === undefined ? undefined : purposeTool(text, tools);
  if (purpose === undefined || tool === undefined) return undefined;
  const { missing } = extractArguments(text, tool.inputSchema);
  if (missing.length === 0 || !missing.every((name) => isMessageArgument(tool.inputSchema, name) || name === idArgument(tool.inputSchema))) return undefined;
  // With no id in the text (one it refers back to is read by the caller), nothing is looked up yet.
  const reader = tools.find((candidate) => isReadName(candidate.name) && extractArguments(text, candidate.inputSchema).missing.length === 0 && idArgument(candidate.inputSchema) !== undefined);
  const calls = reader === undefined ? [] : extractArgumentSets(text, reader.inputSchema).map((set) => ({ toolName: reader.name, input: set.input }));
  return { calls, later: [{ request: { text: asked.trim(), end: asked.length }, tool, purpose }], changes: false };
}

/**
 * The tool a mail that says what it is for is written with: of the tools that take a message, the one a mail is asked
 * of ("write to the customer …", "contact …" ask for one as "email …" does).
 */
function purposeTool(text: string, tools: readonly ToolInfo[]): ToolInfo | undefined {
  const messengers = tools.filter((tool) => extractArguments('', tool.inputSchema).missing.some((name) => isMessageArgument(tool.inputSchema, name)));
  return pickTool(`email ${text}`, messengers);
}

/**
 * The calls whose results a message left for later is worded from: the changes ("Move A-1004 to Friday and email the
 * customer"), else lookups of one record by its id ("Look up A-1002 and email the customer"), not a list.
 */
function sourcesOf<T extends { readonly toolName: string }>(calls: readonly T[], inputOf: (call: T) => unknown = (call) => (call as { input?: unknown }).input): T[] {
  const changes = calls.filter((call) => isChangeName(call.toolName));
  if (changes.length > 0) return changes;
  return calls.filter((call) => isReadName(call.toolName) && idOf(inputOf(call)) !== undefined);
}

/** The id an input names (`order_id`, `orderId`, `id`) and its argument's name. */
function idOf(input: unknown): readonly [string, string] | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const entry = Object.entries(input).find(([name, value]) => /(?:^|_|[a-z])(?:id|Id|ID)$/.test(name) && typeof value === 'string');
  return entry as [string, string] | undefined;
}

/**
 * After {@link followUps}' change: the request left for later, said with what the change did ("The delivery date of
 * your order A-1004 is now 2026-11-27."), read from the result (an approver may have edited the date), one call per
 * change. A change that failed or was denied leaves it undone, and the answer says so. `undefined` when the message
 * left nothing for later, or it was already done in this turn.
 */
function followUpFromResults(input: OfflineRuleInput, now: Date, wording: Wording, remade?: FollowUps): OfflineReply | undefined {
  const { prompt, toolResults, tools } = input;
  const asked = readWordedSums(readRelativeDates(input.userText, now).text);
  const turn = prompt.slice(lastIndexOfRole(prompt, 'user') + 1).flatMap((message) => (message.role === 'assistant' ? message.content : []));
  // What a message that referred back to an id asked to send: the id is the one the turn's call made the thing for.
  const made = madeToSend(asked, tools);
  const madeFor = made === undefined ? undefined : turn.find((part) => part.type === 'tool-call' && part.toolName === made.name && idOf(part.input) !== undefined);
  const referred = madeFor?.type === 'tool-call' ? idOf(madeFor.input)?.[1] : undefined;
  const follow =
    remade ??
    followUps(asked, tools) ??
    (referred === undefined ? undefined : sentMade(asked, tools, referred)) ??
    sentOnAnswer(withPendingQuestion(prompt, input.userText), tools);
  if (follow === undefined) return undefined;
  if (turn.some((part) => part.type === 'tool-call' && follow.later.some((later) => later.tool.name === part.toolName))) return undefined;
  const inputOf = (result: LanguageModelV4ToolResultPart): Record<string, unknown> | undefined => {
    const call = turn.find((part) => part.type === 'tool-call' && part.toolCallId === result.toolCallId);
    return call?.type === 'tool-call' && typeof call.input === 'object' && call.input !== null ? (call.input as Record<string, unknown>) : undefined;
  };
  const summary = summarizeToolResults(toolResults, wording);
  const requests = joinList(
    follow.later.map((later) => wording.quote(lowerFirst(later.request.text))),
    wording.and,
  );
  // "move A-1002 to friday and send the invoice": once the move is in, the invoice is made (and mailed once it is).
  const madeNow = follow.madeAfter !== undefined && !turn.some((part) => part.type === 'tool-call' && part.toolName === follow.made);
  if (follow.madeAfter !== undefined && madeNow) {
    const changed = toolResults.filter((result) => isChangeName(result.toolName));
    const done = changed.length > 0 && changed.every((result) => ['json', 'text', 'content'].includes(result.output.type));
    if (!done) return { type: 'text', text: `${summary}\n\n${wording.notDoneChange(requests)}` };
    const later = joinList(
      follow.later.map(({ request, tool }) => `${wording.quote(lowerFirst(request.text))} (${tool.name})`),
      wording.and,
    );
    return { type: 'tool-calls', calls: follow.madeAfter, text: `${summary}\n\n${wording.onceMade(later, follow.madeAfter.length > 1)}` };
  }
  if (follow.made !== undefined) return sentFromResults(toolResults.filter((result) => result.toolName === follow.made), follow, inputOf, { summary, requests, wording });
  const sources = sourcesOf(toolResults, inputOf);
  if (sources.length === 0) return undefined;
  const failed = sources.some((result) => result.output.type !== 'json' && result.output.type !== 'text');
  if (failed && follow.changes) return { type: 'text', text: `${summary}\n\n${wording.notDoneChange(requests)}` };
  const calls: OfflineToolCall[] = [];
  const said: string[] = [];
  for (const result of sources) {
    const input = inputOf(result);
    if (input === undefined) return undefined;
    const message = failed ? undefined : follow.changes ? whatChanged(result, input, wording) : whatIs(result, input, wording);
    // A lookup that found nothing, or nothing to tell (no status, no date), leaves the mail unwritten.
    if (message === undefined && !follow.changes) return { type: 'text', text: `${summary}\n\n${wording.notDoneLookup(requests)}` };
    if (message === undefined) return undefined;
    for (const { tool, purpose, id } of follow.later) {
      if (id !== undefined && id !== message.id) continue;
      const text = purpose === undefined ? message.text : `${purpose} ${message.text}`;
      const args = extractArguments(`${message.id} saying ${text}`, tool.inputSchema);
      if (args.missing.length > 0) return undefined;
      calls.push({ toolName: tool.name, input: args.input });
      said.push(`"${text}"`);
    }
  }
  return { type: 'tool-calls', calls, text: `${summary}\n\n${wording.nowDone(requests, follow.changes ? 'change' : 'lookup', joinList(said, wording.and))}` };
}

/**
 * {@link followUpFromResults} for what a call made ("send the invoice for A-1003 to the customer"): one mail per thing
 * made, under a subject that names it, saying what it holds; none when a call failed, was denied or gave no words.
 */
function sentFromResults(
  results: readonly LanguageModelV4ToolResultPart[],
  follow: FollowUps,
  inputOf: (result: LanguageModelV4ToolResultPart) => Record<string, unknown> | undefined,
  said: { readonly summary: string; readonly requests: string; readonly wording: Wording },
): OfflineReply | undefined {
  const { summary, requests, wording } = said;
  const calls: OfflineToolCall[] = [];
  const texts: string[] = [];
  for (const result of results) {
    const input = inputOf(result);
    const succeeded = ['json', 'text', 'content'].includes(result.output.type);
    const message = input === undefined || !succeeded ? undefined : whatMade(result, input, wording);
    if (message === undefined) return { type: 'text', text: `${summary}\n\n${wording.notDoneMade(requests)}` };
    for (const { tool } of follow.later) {
      const args = extractArguments(`${message.id} about ${message.subject} saying ${message.text}`, tool.inputSchema);
      if (args.missing.length > 0) return undefined;
      calls.push({ toolName: tool.name, input: args.input });
      texts.push(`"${message.text}"`);
    }
  }
  if (calls.length === 0) return undefined;
  return { type: 'tool-calls', calls, text: `${summary}\n\n${wording.nowDone(requests, calls.length > 1 ? 'made several' : 'made', joinList(texts, wording.and))}` };
}

/**
 * A mail that lacks only what to say, about a record that a call of the message before changed or looked up (its
 * result is in the conversation): "email the customer about it" after "move A-1004 to Monday" says what changed, as
 * "… and email the customer" in the same message does; after a lookup, what it showed. `undefined` when the message
 * before made no such call for that id, or the call failed or was denied (nothing new to say).
 */
/** A mail {@link toldFromEarlier} words: its call, what it says, and what of the earlier call it says. */
type Told = { readonly call: OfflineToolCall; readonly said: string; readonly kind: 'change' | 'lookup' | 'listed' | 'made' };

function toldFromEarlier(prompt: LanguageModelV4Prompt, tool: ToolInfo, read: ExtractedArguments, wording: Wording): Told | undefined {
  if (read.missing.length === 0 || !read.missing.every((name) => isMessageArgument(tool.inputSchema, name))) return undefined;
  const idName = idArgument(tool.inputSchema);
  const id = idName === undefined ? undefined : read.input[idName];
  if (typeof id !== 'string') return undefined;
  // The message before, or the latest that called a tool when it answered with none ("what is the total?" after the
  // invoice, then "send it to the customer": it asked for a subject and a body).
  const turn = latestTurnWithResults(prompt);
  const calls = callsOf(turn);
  const results = turn.flatMap((message) => (message.role === 'tool' ? message.content : [])).filter((part) => part.type === 'tool-result');
  const inputOf = (result: LanguageModelV4ToolResultPart): Record<string, unknown> | undefined => {
    const call = calls.find((part) => part.toolCallId === result.toolCallId);
    return typeof call?.input === 'object' && call.input !== null ? (call.input as Record<string, unknown>) : undefined;
  };
  const byId = (found: readonly LanguageModelV4ToolResultPart[]) => found.filter((result) => idOf(inputOf(result))?.[1] === id);
  // "email it to the customer" after an invoice was made: what the call made (neither a change nor a lookup) is said.
  const made = (result: LanguageModelV4ToolResultPart) => !isChangeName(result.toolName) && !isReadName(result.toolName) && result.toolName !== tool.name;
  const about = byId(sourcesOf(results, inputOf));
  const result = about.at(-1) ?? byId(results.filter(made)).at(-1);
  // "mail the customer" after a list that showed the order (one of one, or "them"): what the list said of it.
  const listed = result === undefined && idName !== undefined ? listedRecord(results, id) : undefined;
  const told = listed === undefined || idName === undefined ? undefined : recordIs(listed, idName, id, wording);
  if (told !== undefined) {
    const args = extractArguments(`${told.id} saying ${told.text}`, tool.inputSchema);
    if (args.missing.length === 0) return { call: { toolName: tool.name, input: args.input }, said: told.text, kind: 'listed' };
  }
  const input = result === undefined ? undefined : inputOf(result);
  const succeeded = result !== undefined && (result.output.type === 'json' || result.output.type === 'text' || result.output.type === 'content');
  if (result === undefined || input === undefined || !succeeded) return undefined;
  const kind = isChangeName(result.toolName) ? 'change' : isReadName(result.toolName) ? 'lookup' : 'made';
  const message = kind === 'change' ? whatChanged(result, input, wording) : kind === 'lookup' ? whatIs(result, input, wording) : whatMade(result, input, wording);
  if (message === undefined) return undefined;
  const subject = 'subject' in message ? ` about ${message.subject}` : '';
  const args = extractArguments(`${message.id}${subject} saying ${message.text}`, tool.inputSchema);
  if (args.missing.length > 0) return undefined;
  return { call: { toolName: tool.name, input: args.input }, said: message.text, kind };
}

/**
 * What a call that made something for a record says of it ("Invoice INV-A-1001 of order A-1001 …; total 89.00 EUR.":
 * the text it gave the model, or its JSON's `summary`), with a subject that names it ("Your invoice for order A-1001",
 * in the user's language); `undefined` when it gave no such text.
 */
function whatMade(result: LanguageModelV4ToolResultPart, input: Readonly<Record<string, unknown>>, wording: Wording): { readonly id: string; readonly text: string; readonly subject: string } | undefined {
  const idEntry = idOf(input);
  if (idEntry === undefined) return undefined;
  const [idName, id] = idEntry;
  const { output } = result;
  const value = resultValue(output);
  const summary = typeof value === 'object' && value !== null && typeof (value as { summary?: unknown }).summary === 'string' ? (value as { summary: string }).summary : undefined;
  const text =
    output.type === 'content'
      ? output.value.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ')
      : (summary ?? (output.type === 'text' && value === undefined ? output.value : ''));
  // A file's line of text ("[document: invoice-A-1001.pdf, application/pdf, 1.9 KB]") is no words for the customer.
  const words = text.replace(/\[(?:image|document|file|audio|video):[^\]\n]*\]/g, ' ').trim().replace(/\s+/g, ' ');
  if (words.length === 0) return undefined;
  const record = humanize(idName.replace(/_?id$/i, ''));
  const thing = splitIdentifier(result.toolName).filter((word) => word !== record && !isWeakVerb(stem(word))).join(' ');
  const noun = nounIn(wording, record).replace(/^(?:la|le|les)\s+|^l['’]/i, '');
  return { id, text: words, subject: wording.yourMade(nounIn(wording, thing), `${noun} ${id}`) };
}

/**
 * What a lookup of one record shows, in a sentence for the one it concerns: "Your order A-1002 is delayed, delivery date
 * 2026-12-03." (its status and its date, read from the result); `undefined` when it found nothing, or shows neither.
 */
function whatIs(result: LanguageModelV4ToolResultPart, input: Readonly<Record<string, unknown>>, wording: Wording): { readonly id: string; readonly text: string } | undefined {
  const idEntry = idOf(input);
  const record = recordOf(result.output);
  if (idEntry === undefined || record === undefined || record.found === false) return undefined;
  return recordIs(record, ...idEntry, wording);
}

/** The record of id `id` a list among `results` holds (the last such list's). */
function listedRecord(results: readonly LanguageModelV4ToolResultPart[], id: string): Record<string, unknown> | undefined {
  for (const result of [...results].reverse()) {
    const found = (listIn(resultValue(result.output)) ?? []).find((record: unknown) => idOf(record)?.[1] === id);
    if (typeof found === 'object' && found !== null) return found as Record<string, unknown>;
  }
  return undefined;
}

/** {@link whatIs}'s sentence for a record, its id the argument `idName` named (`order_id`: "Your order A-1002 is …"). */
function recordIs(record: Readonly<Record<string, unknown>>, idName: string, id: string, wording: Wording): { readonly id: string; readonly text: string } | undefined {
  const status = ['status', 'state'].map((key) => record[key]).find((value) => typeof value === 'string');
  const date = mainDate(Object.entries(record).flatMap(([key, value]) => (isDateField(key, value) ? [{ key, date: value }] : [])));
  // In the user's language ("Ihre Bestellung A-1002 ist delayed, Lieferdatum 2026-12-03."); the values are the tool's.
  const noun = nounIn(wording, humanize(idName.replace(/_?id$/i, ''))).replace(/^(?:la|le|les)\s+|^l['’]/i, '');
  const subject = wording.your(`${noun.length > 0 ? `${noun} ` : ''}${id}`);
  const label = date === undefined ? undefined : nounIn(wording, humanize(date.key));
  if (typeof status === 'string') return { id, text: wording.recordIs(subject, status.replace(/_/g, ' '), label === undefined || date === undefined ? undefined : `${label} ${date.date}`) };
  return date === undefined || label === undefined ? undefined : { id, text: wording.dateIs(label, subject, date.date) };
}

/** The one record a result gives: its JSON object, or the one object it holds beside a flag (`{ found, order }`). */
function recordOf(output: LanguageModelV4ToolResultPart['output']): Record<string, unknown> | undefined {
  const value = resultValue(withoutEditNote(output));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const nested = Object.values(record).filter((child) => typeof child === 'object' && child !== null && !Array.isArray(child));
  return nested.length === 1 && Object.keys(record).length <= 3 && record.found !== false ? (nested[0] as Record<string, unknown>) : record;
}

/** What a change did, in a sentence for the one it concerns: "The delivery date of your order A-1004 is now 2026-11-27." */
function whatChanged(result: LanguageModelV4ToolResultPart, input: Readonly<Record<string, unknown>>, wording: Wording): { readonly id: string; readonly text: string } | undefined {
  const idEntry = idOf(input);
  if (idEntry === undefined) return undefined;
  const [idName, id] = idEntry;
  const thing = splitIdentifier(result.toolName).filter((word) => !isChangeName(word)).join(' ');
  const value = dateOf(withoutEditNote(result.output)) ?? Object.entries(input).find(([name, v]) => name !== idName && typeof v === 'string')?.[1];
  if (thing.length === 0 || typeof value !== 'string') return undefined;
  // In the user's language ("Neues Lieferdatum für Ihre Bestellung A-1004: 2026-11-27."); the value is the tool's.
  const record = nounIn(wording, humanize(idName.replace(/_?id$/i, ''))).replace(/^(?:la|le|les)\s+|^l['’]/i, '');
  const label = nounIn(wording, thing).replace(/^(?:la|le|les)\s+|^l['’]/i, '');
  return { id, text: wording.nowChanged(label, `${record.length > 0 ? `${record} ` : ''}${id}`, value) };
}

/** A result as the tool gave it, without the note of an approver's edits before it (see `summarizeToolResults`). */
function withoutEditNote(output: LanguageModelV4ToolResultPart['output']): LanguageModelV4ToolResultPart['output'] {
  if (output.type !== 'text' || !output.value.startsWith(EDIT_NOTE_START)) return output;
  const end = output.value.indexOf(`${EDIT_NOTE_END}\n`);
  return end < 0 ? output : { ...output, value: output.value.slice(end + EDIT_NOTE_END.length + 1) };
}

/**
 * A move by a number of days ("Move A-1006 by a week") needs the date the thing has: a tool that only reads and takes
 * the id the text gives looks it up first; `undefined` when there is none, or the change lacks more than a date.
 */
function lookupBeforeShift(said: string, tool: ToolInfo, tools: readonly ToolInfo[], shift: DateShift, wording: Wording): OfflineReply | undefined {
  if (!isChangeName(tool.name)) return undefined;
  const text = withoutShift(said, shift);
  const probe = extractArguments(`${text} 2000-01-01`, tool.inputSchema);
  if (probe.missing.length > 0) return undefined;
  // The first tool that only reads and takes what the text gives for it (the order's id): not a list that takes nothing.
  const reader = tools.find((candidate) => {
    if (!isReadName(candidate.name)) return false;
    const { input, missing } = extractArguments(text, candidate.inputSchema);
    return missing.length === 0 && Object.values(input).some((value) => typeof value === 'string' && /\d/.test(value));
  });
  if (reader === undefined) return undefined;
  const calls = extractArgumentSets(text, reader.inputSchema).map((set) => ({ toolName: reader.name, input: set.input }));
  return { type: 'tool-calls', calls, text: wording.shiftFirst(shift.phrase, shift.days) };
}

/**
 * An id given as the thing to add ("put A-1003 in my cart"): a record, not an item, so nothing is added by that name.
 * A tool that only reads and takes the id looks it up instead, so the user sees what it holds and can name the items;
 * `undefined` when the item is a name (a few words with no such id), or the tool takes an id itself.
 */
function lookupInsteadOfItem(input: Record<string, unknown>, tool: ToolInfo, tools: readonly ToolInfo[], wording: Wording): OfflineReply | undefined {
  const item = itemArgument(tool.inputSchema);
  const name = item === undefined ? undefined : input[item];
  if (typeof name !== 'string' || name.split(/\s+/).length > 3 || valueArguments(name, tool.inputSchema).some((value) => value.kind === 'id')) return undefined;
  const reader = tools.find((candidate) => isReadName(candidate.name) && valueArguments(name, candidate.inputSchema).some((value) => value.kind === 'id'));
  if (reader === undefined) return undefined;
  const calls = extractArgumentSets(name, reader.inputSchema).map((set) => ({ toolName: reader.name, input: set.input }));
  const ids = calls.flatMap((call) => Object.values(call.input).filter((value) => typeof value === 'string'));
  return { type: 'tool-calls', calls, text: wording.idNotItem(joinList(ids, wording.and), tool.name, reader.name) };
}

/**
 * After {@link lookupBeforeShift}'s lookup: the change, to the date each result gives plus the shift ("by a week":
 * 2026-12-12 → 2026-12-19). `undefined` when the user asked for no shift, the results are not such a lookup's, or the
 * change was already made in this turn (its result is what is summarised).
 */
function shiftFromResults(input: OfflineRuleInput, now: Date, wording: Wording): OfflineReply | undefined {
  const { prompt, toolResults, tools } = input;
  const dates = readRelativeDates(input.userText, now);
  const shift = dates.shift;
  if (shift === undefined || !toolResults.every((result) => isReadName(result.toolName))) return undefined;
  const change = pickTool(withShiftNamed(dates.text, shift), tools);
  if (change === undefined || !isChangeName(change.name)) return undefined;
  const userIndex = lastIndexOfRole(prompt, 'user');
  const calls = prompt.slice(userIndex + 1).flatMap((message) => (message.role === 'assistant' ? message.content : []));
  if (calls.some((part) => part.type === 'tool-call' && part.toolName === change.name)) return undefined;
  const planned: OfflineToolCall[] = [];
  const notes: string[] = [];
  for (const result of toolResults) {
    const from = dateOf(result.output);
    const call = calls.find((part) => part.type === 'tool-call' && part.toolCallId === result.toolCallId);
    if (from === undefined || call === undefined || call.type !== 'tool-call') return undefined;
    const to = addDays(from, shift.days);
    const ids = stringValues(call.input);
    const args = extractArguments(`${ids.join(' ')} ${to}`, change.inputSchema);
    if (args.missing.length > 0) return undefined;
    planned.push({ toolName: change.name, input: args.input });
    notes.push(wording.shifted(ids.join(' '), from, shift.days, to).trim());
  }
  return { type: 'tool-calls', calls: planned, text: `${notes.join('. ')}.` };
}

/**
 * The text a tool is picked from when it asks to move a date by some days: the shift's words become "move", so the
 * change of a date is what they name ("add 5 days to A-1003": not a clock for "days", not cart_add for "add"). Words
 * that only say by how much ("by 3 days") do so beside an id a tool takes ("delay A-1003 by two weeks"), not alone
 * ("orders delayed by 3 days" is how late they are).
 */
function withShiftNamed(text: string, shift: DateShift | undefined): string {
  if (shift === undefined || !text.includes(shift.phrase)) return text;
  if (!shift.moves && idLikeWords(text).length === 0) return text;
  return text.replace(shift.phrase, 'move');
}

/** `text` with the words of a shift blanked out, one space for each character: its count is no id, nor a quantity. */
function withoutShift(text: string, shift: DateShift): string {
  return text.replace(shift.phrase, ' '.repeat(shift.phrase.length));
}

/** The date a lookup's result gives: a delivery or due date first, any other date that is not a record's history after. */
function dateOf(output: LanguageModelV4ToolResultPart['output']): string | undefined {
  const found: Array<{ key: string; date: string }> = [];
  const visit = (node: unknown, depth: number): void => {
    if (depth > 3 || typeof node !== 'object' || node === null || Array.isArray(node)) return;
    for (const [key, child] of Object.entries(node)) {
      if (isDateField(key, child)) found.push({ key, date: child });
      else visit(child, depth + 1);
    }
  };
  visit(resultValue(output), 0);
  return mainDate(found)?.date;
}

/** A tool result's JSON object (`undefined` when it is none) and its words: its text, or its content's text parts. */
function resultRecordAndWords(output: LanguageModelV4ToolResultPart['output']): { readonly record: Record<string, unknown> | undefined; readonly words: string } {
  const value = resultValue(output);
  const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  const words =
    output.type === 'content'
      ? output.value.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ')
      : output.type === 'text'
        ? output.value
        : '';
  return { record, words };
}

/** A result's JSON value: its `json`, or its text parsed; `undefined` for other parts or text that is no JSON. */
function resultValue(output: LanguageModelV4ToolResultPart['output']): unknown {
  if (output.type === 'json') return output.value;
  if (output.type !== 'text') return undefined;
  try {
    return JSON.parse(output.value);
  } catch {
    return undefined;
  }
}

/** Whether a record's field holds a date (`YYYY-MM-DD` under a key that names a date, a due day or an ETA). */
function isDateField(key: string, value: unknown): value is string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && /date|due|eta/i.test(key);
}

/** The date a record is about among its dates: a delivery or due date first, then any that is not its history. */
function mainDate<T extends { readonly key: string }>(dates: readonly T[]): T | undefined {
  return dates.find((entry) => /deliver|due|eta|arriv|ship/i.test(entry.key)) ?? dates.find((entry) => !/previous|old|created|updated/i.test(entry.key));
}

/** The answer to a request no tool covers: that, what would fit instead (a time zone's clock for a city), and the tools. */
function noToolText(topic: string, text: string, tools: readonly LanguageModelV4FunctionTool[], wording: Wording): string {
  const zone = findTimeZones(text)[0];
  const clock = zone === undefined ? undefined : tools.find((tool) => valueArguments(text, tool.inputSchema).some((value) => value.kind === 'timezone'));
  const instead = clock === undefined || zone === undefined ? '' : wording.clockInstead(text.slice(zone.start, zone.end), clock.name);
  const said = Object.hasOwn(wording.topics, topic) ? (wording.topics[topic] ?? topic) : topic;
  return `${wording.noTool(said)}${instead}\n${toolList(tools, wording)}`;
}

/**
 * Lines of the form `/tool_name {json}`; each becomes one call, so several lines make parallel calls.
 *
 * A line is a command when it names one of `toolNames`, or when its arguments start with `{` (so `/nope {}` still
 * tests an unknown tool): `/tmp is full` is text. JSON may go on over the next lines (`/tool {` … `}`); arguments that
 * never parse pass through as text, so the SDK reports invalid input.
 */
export function parseSlashCommands(text: string, toolNames?: readonly string[]): OfflineToolCall[] {
  const calls: OfflineToolCall[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = SLASH_LINE.exec(lines[i] ?? '');
    if (match === null) continue;
    const toolName = match[1] ?? '';
    const raw = (match[2] ?? '').trim();
    if (toolNames !== undefined && !toolNames.includes(toolName) && !raw.startsWith('{')) continue;
    if (raw.length === 0) {
      calls.push({ toolName, input: {} });
      continue;
    }
    const json = raw.startsWith('{') ? readJsonObject(raw, lines, i + 1) : undefined;
    if (json === undefined) {
      calls.push({ toolName, input: raw });
      continue;
    }
    calls.push({ toolName, input: json.value });
    i = json.lastLine;
  }
  return calls;
}

/** The JSON object that starts `raw` and may go on over the lines from `next`; `undefined` if it never parses. */
function readJsonObject(raw: string, lines: readonly string[], next: number): { value: Record<string, unknown>; lastLine: number } | undefined {
  let text = raw;
  for (let line = next - 1; ; line++) {
    const value = parseObject(text);
    if (value !== undefined) return { value, lastLine: line };
    // Stop at the next command, or after 200 lines: a brace left open must not swallow the rest of the message.
    const following = lines[line + 1];
    if (following === undefined || line + 1 - next >= 200 || SLASH_LINE.test(following)) return undefined;
    text += `\n${following}`;
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function readPrompt(options: LanguageModelV4CallOptions): OfflineRuleInput {
  const prompt = options.prompt;
  const tools = (options.tools ?? []).filter((tool): tool is LanguageModelV4FunctionTool => tool.type === 'function');
  const toolResults: LanguageModelV4ToolResultPart[] = [];
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message?.role !== 'tool') break;
    const parts = message.content.filter((part): part is LanguageModelV4ToolResultPart => part.type === 'tool-result');
    toolResults.unshift(...parts);
  }
  return { prompt, userText: userTextAt(prompt, lastIndexOfRole(prompt, 'user')), tools, toolResults };
}

function lastIndexOfRole(prompt: LanguageModelV4Prompt, role: string, before = prompt.length): number {
  for (let i = before - 1; i >= 0; i--) if (prompt[i]?.role === role) return i;
  return -1;
}

/** The messages between the user's last two messages: what answered the one before (all before it when it is the first). */
function previousTurn(prompt: LanguageModelV4Prompt): LanguageModelV4Prompt {
  const current = lastIndexOfRole(prompt, 'user');
  return prompt.slice(lastIndexOfRole(prompt, 'user', current) + 1, current);
}

/** The tool calls the assistant made in `messages`, in order. */
function callsOf(messages: LanguageModelV4Prompt): LanguageModelV4ToolCallPart[] {
  return messages.flatMap((message) => (message.role === 'assistant' ? message.content.filter((part) => part.type === 'tool-call') : []));
}

/** The string values of a call's input (its ids, dates, texts), none when it is no object. */
function stringValues(input: unknown): string[] {
  return typeof input === 'object' && input !== null ? Object.values(input).filter((value) => typeof value === 'string') : [];
}

/** What an answer says of the id it read from earlier: the words that referred to it, or the last message. */
function referredNote(referred: Referred, wording: Wording): string {
  const id = referred.ids === undefined ? referred.id : joinList(referred.ids, wording.and);
  return referred.phrase === '' ? wording.fromLast(id) : wording.referred(referred.phrase, id);
}

function userTextAt(prompt: LanguageModelV4Prompt, index: number): string {
  const message = prompt[index];
  if (message?.role !== 'user') return '';
  return message.content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n')
    .trim();
}

/** When the model's last answer asked for a missing argument, reads the earlier request together with the reply. */
function withPendingQuestion(prompt: LanguageModelV4Prompt, userText: string): string {
  const userIndex = lastIndexOfRole(prompt, 'user');
  const previous = prompt[userIndex - 1];
  // "thanks, bye" after a question is no answer to it.
  if (previous?.role !== 'assistant' || pleasantryOf(userText) !== undefined) return userText;
  const markers = Object.values(WORDINGS).map((wording) => wording.askMarker);
  const question = previous.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  if (!markers.some((marker) => question.includes(marker))) return userText;
  const earlier = userTextAt(prompt, lastIndexOfRole(prompt, 'user', userIndex - 1));
  // "Did you mean A-1002?" answered "yes": the id it names is the reply.
  const suggested = AFFIRMATION.test(fold(userText).trim()) ? suggestionIn(question) : undefined;
  const reply = suggested ?? userText;
  return earlier.length > 0 ? `${earlier}\n${reply}` : reply;
}

/**
 * A message that only calls off what was asked ("never mind", "forget it", "cancel that", "scratch that", "lass es",
 * "vergiss es", "schon gut", "laisse tomber", "oublie ça", "annule"), folded; `cancel` as the second group, since
 * "cancel that" after a request that was done may be about cancelling an order.
 */
const DISMISSAL =
  /^(?:(?:oh|ah|ok|okay|no|nah|actually|wait|hmm|ach|nein|non|bon)[\s,]+)*(?:(never\s*mind|nvm|forget\s+(?:it|that|about\s+it)|scratch\s+that|leave\s+it|keep\s+(?:it|that|them)(?:\s+as\s+it\s+is)?|skip\s+(?:it|that)|behalte?\s+(?:es|ihn|sie)|garde[sz]?(?:-le|-la|-les)?|don'?t\s+bother|lass(?:\s+(?:es|das|mal|gut\s+sein))+|vergiss\s+(?:es|das)|schon\s+gut|egal|laissez?\s+tomber|oubliez?(?:\s+(?:ca|cela|le))?|pas\s+la\s+peine)|(cancel(?:\s+(?:that|this|it))?|abbrechen|brich\s+(?:es|das)\s+ab|annulez?(?:\s+(?:ca|cela))?))(?:[\s,]+(?:then|please|thanks|bitte|danke|merci|alors|dann))*\s*[.!]*$/;

/**
 * The answer to a message that calls off the request before it ("never mind" after "move A-1003 to Dec 24"). Decision:
 * the model cannot answer an approval itself (only the user's decision does), and the demo's chat holds a new message
 * while one waits; a client that sends one anyway leaves that call out of what the model reads (its call is dropped), as
 * is a request still waiting for an argument the model asked for. So a request whose calls gave no result, or were
 * denied or failed, is left undone and the answer says so, in the user's language ("OK, I left "move A-1003 to Dec 24"
 * undone: nothing was changed."), instead of the help text, "no tool for cancelling orders", or the question read with
 * it; after a request that was done it is an acknowledgement, and "cancel that" then is read as before (an order to
 * cancel). `undefined` for any other message, or the first one.
 */
function dismissal(prompt: LanguageModelV4Prompt, userText: string, tools: readonly ToolInfo[]): string | undefined {
  const match = DISMISSAL.exec(fold(userText).trim());
  const previous = lastIndexOfRole(prompt, 'user', lastIndexOfRole(prompt, 'user'));
  if (match === null || previous < 0) return undefined;
  const turn = previousTurn(prompt);
  const results = turn.flatMap((message) => (message.role === 'tool' ? message.content : []));
  const done = results.some((part) => part.type === 'tool-result' && (part.output.type === 'json' || part.output.type === 'text'));
  // A request: it made calls, or reaches a tool (its call left out of what the model reads while it waits, or asked about).
  const request = userTextAt(prompt, previous);
  const asked = callsOf(turn).length > 0 || pickTool(request, tools) !== undefined || pickAdder(request, tools) !== undefined;
  const wording = wordingFor(userText);
  if (!done && asked) return wording.dismissed(request.replace(/\s+/g, ' ').slice(0, 120));
  return match[2] === undefined ? wording.dismissedDone : undefined;
}

/** Asking why, alone: "why not?", "how come?", "warum nicht?", "wieso?", "pourquoi pas ?" (folded). */
const WHY_ALONE = /^(?:(?:but|and|ok|aber|und|mais|et)[\s,]+)?(?:why(?:\s+not)?|how\s+come|warum(?:\s+nicht)?|wieso(?:\s+nicht)?|weshalb|pourquoi(?:\s+pas)?)\s*[?.!]*$/;

/**
 * "why not?" after the message before asked a change whose approval was declined: the tools that did not run, and that
 * asking again brings the approval back; `undefined` for any other text, or when nothing was declined.
 */
function declinedWhy(prompt: LanguageModelV4Prompt, userText: string): string | undefined {
  if (!WHY_ALONE.test(fold(userText).trim())) return undefined;
  const previous = lastIndexOfRole(prompt, 'user', lastIndexOfRole(prompt, 'user'));
  const results = previousTurn(prompt).flatMap((message) => (message.role === 'tool' ? message.content : []));
  const denied = [...new Set(results.flatMap((part) => (part.type === 'tool-result' && part.output.type === 'execution-denied' ? [part.toolName] : [])))];
  if (denied.length === 0 || previous < 0) return undefined;
  const wording = wordingFor(userText);
  return wording.declinedWhy(joinList(denied, wording.and), userTextAt(prompt, previous).replace(/\s+/g, ' ').slice(0, 120));
}

/** A reply that says yes, and gives nothing else of its own (no number): "yes", "yes please", "ja, genau", "oui". */
const AFFIRMATION = /^(?:yes|yeah|yep|yup|sure|ok|okay|correct|right|exactly|ja|jawohl|genau|richtig|oui|ouais|exact|exactement|d'accord|bien sur)\b[^\d]*$/;

/** The id an answer asked about with {@link Wording.suggest} ("Did you mean A-1002?"), in any of the languages. */
function suggestionIn(text: string): string | undefined {
  for (const wording of Object.values(WORDINGS)) {
    const [before = '', after = ''] = wording.suggest('\u0000').split('\u0000');
    const start = text.indexOf(before);
    const end = start < 0 ? -1 : text.indexOf(after, start + before.length);
    const id = end < 0 ? undefined : text.slice(start + before.length, end);
    if (id !== undefined && /^\S+$/.test(id)) return id;
  }
  return undefined;
}

/**
 * Words of thanks, of greeting, and of what goes with them ("thank you very much", "guten Morgen", "merci beaucoup",
 * "best regards"), folded as written: one list for a message that only thanks or greets ({@link pleasantryOf}) and for
 * a part of a message that asks for nothing beside its requests ({@link isPleasantry}).
 */
const PLEASANTRIES: ReadonlyMap<string, 'thanks' | 'greeting' | 'with'> = new Map([
  ...'thanks thank thx ty cheers danke dankeschon dank merci'.split(' ').map((word) => [word, 'thanks'] as const),
  ...'hi hello hey hallo bonjour salut moin servus morning evening afternoon'.split(' ').map((word) => [word, 'greeting'] as const),
  ...(
    'you very much so lot many vielen schon sehr beaucoup great perfect awesome cool nice ok okay super parfait good guten tag morgen bien a and ' +
    'und et bitte bye regards best'
  )
    .split(' ')
    .map((word) => [word, 'with'] as const),
]);

/** The words of a text, folded as written. */
const wordsOf = (text: string): string[] => fold(text).split(/[^a-z]+/).filter((word) => word.length > 0);

/** Wishes said in leaving: "have a nice day", "good day", "schönen Tag noch", "bonne journée" (folded); no question of a day. */
const GOOD_WISHES = /\b(?:have\s+a\s+(?:nice|good|great|lovely)\s+(?:day|evening|weekend|one)|good\s+day|(?:einen\s+)?schonen\s+(?:tag|abend|feierabend)(?:\s+noch)?|bonne\s+(?:journee|soiree)|bon\s+week-?end)\b/g;

/** Taking leave: "see you (later)", "talk to you soon", "take care", "bis bald", "mach's gut", "à plus", "à bientôt" (folded). */
const LEAVE_TAKING =
  /\b(?:see\s+(?:you|ya)(?:\s+(?:later|soon|tomorrow))?|cya|talk\s+(?:to\s+you\s+)?(?:later|soon)|take\s+care|bis\s+(?:bald|dann|spater|morgen|zum\s+nachsten\s+mal)|mach['’]?s\s+gut|a\s+(?:plus|bientot|demain|la\s+prochaine|tout\s+a\s+l['’]heure))\b/g;

/**
 * Whether a part of a message asks for nothing: each of its words that carries content is a pleasantry ("… and
 * thanks"), or of good wishes ("… and have a nice day": no question of the day, whatever "day" says to a clock).
 */
function isPleasantry(text: string): boolean {
  if (/\d/.test(text)) return false;
  return wordsOf(fold(text).replace(GOOD_WISHES, ' ')).every((word) => PLEASANTRIES.has(word) || contentWords(word).length === 0);
}

/** Asking what the model can do: "what can you do?", "help", "was kannst du?", "que sais-tu faire ?". */
const ASKS_HELP = /^(?:(?:what|which)\s+(?:can\s+you\s+do|tools\s+do\s+you\s+have|are\s+your\s+tools)|help|hilfe|aide|was\s+kannst\s+du(?:\s+alles)?(?:\s+tun|\s+machen)?|que\s+(?:sais|peux)[-\s]tu\s+faire|qu['’]est-ce\s+que\s+tu\s+(?:sais|peux)\s+faire)\s*[?!.]*$/;

/**
 * Whether a text only thanks ("thanks!", "danke schön", "merci beaucoup"), only greets ("hi", "hallo", "bonjour"), only
 * takes leave ("bye", "have a nice day"), or thanks in leaving ("thanks, bye": `thanked-farewell`; "danke, schönen Tag
 * noch": `thanked-wishes`).
 */
function pleasantryOf(text: string): 'thanks' | 'greeting' | 'farewell' | 'thanked-farewell' | 'thanked-wishes' | undefined {
  if (ASKS_HELP.test(fold(text).trim())) return 'greeting';
  // "have a nice day", "bye", "schönen Tag noch": a farewell, whatever "day" says to a clock; "see you", "bis bald", "à
  // plus" too (it added "plus" to a sum).
  const wished = fold(text).replace(GOOD_WISHES, ' ');
  const left = wished.replace(LEAVE_TAKING, ' ');
  const bye = left !== wished || /\b(?:bye|goodbye|tschuss|ciao|au\s+revoir|salut)\b/.test(fold(text));
  const farewell = wished !== fold(text) || bye;
  const words = wordsOf(left);
  if (!words.every((word) => PLEASANTRIES.has(word) || /^(?:goodbye|tschuss|ciao|au|revoir)$/.test(word)) || (words.length === 0 && !farewell)) return undefined;
  // Thanks with "bye" or good wishes: a goodbye that thanks ("salut" alone greets, and is left to the greeting below).
  const thanked = words.some((word) => PLEASANTRIES.get(word) === 'thanks');
  if (thanked && wished !== fold(text)) return 'thanked-wishes';
  if (thanked && bye) return 'thanked-farewell';
  if (thanked) return 'thanks';
  if (left === wished && words.some((word) => PLEASANTRIES.get(word) === 'greeting' || word === 'morgen' || word === 'tag')) return 'greeting';
  return farewell ? 'farewell' : undefined;
}

function helpText(userText: string, tools: readonly LanguageModelV4FunctionTool[], wording: Wording): string {
  if (tools.length === 0) return `${wording.helpIntro} ${wording.noTools}${userText.length > 0 ? ` ${wording.youSaid(userText.slice(0, 120))}` : ''}`;
  return `${wording.helpIntro} ${wording.noToolFound} ${toolList(tools, wording)}`;
}

/** The tools offered, one a line with the first sentence of its description, and how to call one by name. */
function toolList(tools: readonly LanguageModelV4FunctionTool[], wording: Wording): string {
  const list = tools
    .map((tool) => (tool.description !== undefined ? `${tool.name} (${firstSentence(tool.description)})` : tool.name))
    .map((line) => `- ${line}`)
    .join('\n');
  return `${wording.canUse}\n${list}\n${wording.howTo}`;
}

function firstSentence(text: string): string {
  const sentence = text.split(/(?<=[.!?])\s/)[0] ?? text;
  return sentence.replace(/[.!?]$/, '');
}

/** A description's first clause, for a short list: up to its first full stop, semicolon or colon. */
function firstClause(text: string): string {
  return firstSentence(text).split(/[;:]\s/)[0] ?? text;
}

function lowerFirst(text: string): string {
  return `${text.charAt(0).toLowerCase()}${text.slice(1)}`;
}

function joinList(items: readonly string[], and = 'and'): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${and} ${items.at(-1)}`;
}
