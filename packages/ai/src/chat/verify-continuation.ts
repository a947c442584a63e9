import { clipped } from './clip-text.ts';
import {
  type ApprovalDecision,
  hashArguments,
  type SealSubject,
  TicketError,
  type TicketSigner,
  type TicketSubject,
  type ToolRegistry,
  ToolError,
} from '@edgetool/core';
import {
  type AnyToolPart,
  dataByCallId,
  EDIT_PART,
  type EditPartData,
  historyDataByCallId,
  PART_SEAL_PART,
  SEAL_PART,
  type SealPartData,
  TICKET_PART,
  type TicketPartData,
  toolNameOf,
  toolParts,
} from './protocol.ts';
import { isNotStartedRecord, NOT_STARTED_RECORD, type RecordedCallResult } from './call-results.ts';
import { boundOf, isSealedPartType, partMetadataSubject, type SealedPartMetadata } from './part-seal.ts';
import { metadataSubject, providerMetadataOf, type SealedCall, sealSubject } from './proofs.ts';

/** Why a continuation was refused; nothing was executed. */
export type ContinuationProblem = 'forged-result' | 'forged-approval' | 'stale-approval' | 'wrong-placement' | 'duplicate-call' | 'ticket';

/**
 * The incoming history cannot be trusted: a tool result without a valid seal or ticket, an approval
 * without a valid ticket for exactly that call, a replayed or expired ticket. Thrown before anything runs. Its message,
 * `toolName` and `callId` name what the client chose (ids, tool names) whole up to 64 characters, a longer one by a prefix.
 */
export class ContinuationError extends ToolError {
  readonly problem: ContinuationProblem;

  constructor(problem: ContinuationProblem, message: string, options: { toolName?: string; callId?: string; cause?: unknown } = {}) {
    // The call's id and tool name are the client's: a server that sends them back (the demo's 403) sends a prefix of a
    // long one, as the message does (see `clipped`).
    const { toolName, callId, ...rest } = options;
    const named = { ...(toolName === undefined ? {} : { toolName: clipped(toolName) }), ...(callId === undefined ? {} : { callId: clipped(callId) }) };
    super(problem === 'wrong-placement' ? 'wrong-placement' : 'ticket-invalid', message, { ...rest, ...named });
    this.name = 'ContinuationError';
    this.problem = problem;
  }
}

/** A client's result for a call it was asked to run, accepted with its ticket (to be sealed now). */
export interface AcceptedResult {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
  readonly result: { readonly output: unknown } | { readonly errorText: string };
}

/** What a verified continuation lets the loop do. */
export interface VerifiedContinuation {
  /** Human decisions on approval requests, by tool call id (tickets already verified and consumed). */
  readonly decisions: ReadonlyMap<string, ApprovalDecision>;
  /**
   * The approval ticket of each decision, by tool call id: an approved call's result is recorded under it (see
   * `callResultKey`), and read back only with it.
   */
  readonly approvalTickets: ReadonlyMap<string, string>;
  /**
   * Client results accepted in this request: those of the message being continued, and those of an earlier message
   * whose ticket this request claimed with them, or whose first claim kept the same answer. All are sealed in the response.
   */
  readonly accepted: readonly AcceptedResult[];
  /**
   * Inputs of the calls in the message being continued, by tool call id, with the provider metadata of the call when the
   * part carries some (checked against the seal or ticket that covers it).
   */
  readonly inputs: ReadonlyMap<string, { readonly toolName: string; readonly input: unknown; readonly callMeta?: unknown }>;
  /**
   * Approved calls whose ticket an earlier request already used: the same continuation sent again (its answer was
   * lost). They must not run again; the loop answers them with the recorded result. Also in `decisions`.
   */
  readonly replayed: ReadonlySet<string>;
  /**
   * Of `replayed`, the calls whose ticket's first use kept this very decision (a nonce store with `claimDecision`): the
   * same approval, confirmed. Only such a call may run on a replay, and only if it never started (no record, no mark).
   */
  readonly confirmed: ReadonlySet<string>;
  /**
   * Calls a client answered in an earlier turn that never got their result (authentic: their approval ticket is this
   * server's, though it may have expired or been used), and what the model reads for each. Never run. Also the browser
   * results of an earlier turn that the server can no longer confirm (`unconfirmed`) or took otherwise (`conflict`).
   */
  readonly unfinished: ReadonlyMap<string, UnfinishedCall>;
  /**
   * The arguments earlier results ran with, by tool call id, where a human edited them before approving (from the
   * results' seals, so verified): the model reads what changed beside each such result.
   */
  readonly edited: ReadonlyMap<string, unknown>;
  /**
   * The results in the history a client ran (their call was handed to it with a `client-result` ticket), by tool call id:
   * no chain masked them, so the model reads them as the `redactOutput` of the tool's layers masks them. The seal and
   * ticket checks cover what the client sent.
   */
  readonly clientResults: ReadonlySet<string>;
  /**
   * The tool parts whose provider metadata (`callProviderMetadata`, `resultProviderMetadata`) no proof of this server
   * covers, by tool call id: dropped before the history reaches the model (see `withoutUnprovenMetadata`).
   */
  readonly unproven: ReadonlySet<string>;
  /**
   * The text, reasoning, file, reasoning-file and custom parts of the history (the very part objects) whose
   * `providerMetadata` no part seal of this server covers (a user's message's, a step's sent before part seals or cut
   * before its end, an expired seal's): dropped before the history reaches the model (see `withoutUnprovenMetadata`).
   */
  readonly unprovenParts: ReadonlySet<unknown>;
}

/**
 * What the model reads for an approval answered in an earlier turn whose result never came back: only what the server
 * can confirm, since the client could have rewritten the answer.
 */
export type UnfinishedCall =
  /** Approved, and it ran: its recorded result, whatever this history answered (another tab may have approved it first). */
  | { readonly read: 'result'; readonly result: RecordedCallResult }
  /** Denied, as the decision kept with its ticket says (or as claimed now, so it can never run): the denial. */
  | { readonly read: 'denied' }
  /** Nothing confirms what happened (no record; an approval, or a denial whose decision is gone): an unknown outcome. */
  | { readonly read: 'unknown' }
  /**
   * A client's result of an earlier turn, unsealed, whose ticket has expired (and with it the answer kept with its nonce)
   * or whose nonce store kept no answer: the model reads that its outcome is unknown, not the result the client shows.
   */
  | { readonly read: 'unconfirmed' }
  /**
   * An answer of an earlier turn (a client's result, or an approval's decision) whose ticket was used with another one:
   * another copy of the conversation (another tab) answered the call otherwise, or the history was rewritten; the server
   * cannot tell which. The model reads that its outcome is unknown, never the answer shown; nothing runs.
   */
  | { readonly read: 'conflict' };

interface Check {
  readonly ticket: string | undefined;
  /** A ticket's subject, or a seal's. */
  readonly subject: TicketSubject | SealSubject;
  readonly onValid: () => void;
  readonly problem: ContinuationProblem;
  readonly part: AnyToolPart;
  readonly consume: boolean;
  /** Only prove the ticket is this server's (see `TicketVerifyOptions.origin`). */
  readonly originOnly?: boolean;
  /** An approval answered in an earlier turn (`approved`: what the client says it answered). */
  readonly earlier?: { readonly approved: boolean };
  /** A client's result in an earlier message with no seal: taken when its ticket's nonce keeps (or now takes) this answer. */
  readonly earlierResult?: AcceptedResult;
  /**
   * What to do instead of refusing when the ticket was already used (a continuation sent again); `same`: its first use
   * kept this very decision (see `TicketError.sameDecision`).
   */
  readonly onReplayed?: (same: boolean) => void;
  /** A denial of an approval request in the message being continued. */
  readonly denial?: boolean;
  /**
   * What this request decides with its ticket, kept with the nonce (see `TicketVerifyOptions.decision`): an approval's
   * decision, or a client result's answer. The leader's also names every decision of its copy (see {@link leadCopy}).
   */
  decision?: string;
  /** The ticket a copy claims first: whoever claims it claims the copy's other tickets (see {@link leadCopy}). */
  leader?: boolean;
}

/** Options for {@link verifyContinuation}. */
export interface VerifyContinuationOptions {
  readonly tickets: TicketSigner;
  readonly registry: ToolRegistry;
  readonly conversationId: string;
  /**
   * The recorded result of an approved call of this conversation (the chat loop's `callResults`), `undefined` when none.
   * `ticket`: the approval ticket the history shows for the call, which the record is kept under: a regenerated
   * answer's call with the id of the call it replaced (a model that repeats ids) has another ticket, and no record.
   * A continuation sent again that denies a call whose ticket was used, and which has a record (it was approved and
   * ran), is refused: it is not the same continuation, and its denial would be sealed for a call that ran. Only needed
   * with a nonce store that keeps no decisions (no `claimDecision`): one that does refuses every copy that decides
   * otherwise than the first, whether its call ran, still runs, or was given up on.
   */
  readonly recorded?: ((toolCallId: string, ticket: string) => Promise<RecordedCallResult | undefined> | RecordedCallResult | undefined) | undefined;
  /**
   * Called once every check has passed and the answers of earlier turns are read, before any ticket of the message being
   * continued is claimed: what can still fail on the request's own content (the chat loop converts the history for the
   * model here) throws without spending its approvals, so the same continuation can be sent again.
   */
  readonly beforeClaims?:
    | ((known: Pick<VerifiedContinuation, 'unfinished' | 'edited' | 'clientResults' | 'unproven' | 'unprovenParts'>) => Promise<void> | void)
    | undefined;
}

/**
 * Verifies the history a client sent back before the loop trusts any of it:
 * - every tool result must carry the server's seal (in its message, or in a later one for a client result accepted
 *   after its turn), except client results not sealed yet, which need their `client-result` ticket: single use in the
 *   message being continued; in an earlier message, claimed with its answer or matching the answer its first claim kept;
 * - every approval decision needs its `approval` ticket for exactly that call (single use).
 * - the provider metadata of text, reasoning, file, reasoning-file and custom parts must be exactly what their step's
 *   part seal covers; where no seal covers it, it is dropped (`unprovenParts`).
 * Everything is checked first and tickets are consumed only when all checks pass, so a forged
 * request burns nothing and runs nothing.
 */
export async function verifyContinuation(
  messages: readonly { readonly role: string; readonly parts: readonly unknown[] }[],
  options: VerifyContinuationOptions,
): Promise<VerifiedContinuation> {
  const { tickets, registry, conversationId, recorded } = options;
  const last = messages.length - 1;
  const continuing = messages[last]?.role === 'assistant';
  const decisions = new Map<string, ApprovalDecision>();
  const approvalTickets = new Map<string, string>();
  const accepted: AcceptedResult[] = [];
  const inputs = new Map<string, { toolName: string; input: unknown; callMeta?: unknown }>();
  const checks: Check[] = [];
  const seenCalls = new Set<string>();
  const replayed = new Set<string>();
  const confirmed = new Set<string>();
  const unfinished = new Map<string, UnfinishedCall>();
  const edited = new Map<string, unknown>();
  const clientResults = new Set<string>();
  const unproven = new Set<string>();
  const unprovenParts = new Set<unknown>();
  const partSeals: PartSealCheck[] = [];
  const partSealIds = new Set<string>();
  // Every seal of the history: a client result of an earlier turn accepted later is sealed in that later response.
  const allSeals = historyDataByCallId<SealPartData>(messages, SEAL_PART);
  // The sealed answers of the message being continued that belong to the copy it carries (see `sealedAnswers`).
  let sealedInCopy: Check[] = [];

  for (const [index, message] of messages.entries()) {
    readPartMetadata(message, { conversationId, seen: partSealIds, checks: partSeals, unproven: unprovenParts });
    if (message.role !== 'assistant') continue;
    const isLast = continuing && index === last;
    const ticketParts = dataByCallId<TicketPartData>(message, TICKET_PART);
    const seals = dataByCallId<SealPartData>(message, SEAL_PART);
    const edits = dataByCallId<EditPartData>(message, EDIT_PART);
    // The answers of an earlier turn this message holds: they were one copy of a continuation, decided together.
    const answered: Check[] = [];
    // Answers this message holds with their seal, by the step they are in: their copy's response sealed them.
    const sealedHere: { readonly step: number | undefined; readonly check: Check }[] = [];
    const steps = stepsOf(message);
    for (const part of toolParts(message)) {
      const toolName = toolNameOf(part);
      const callId = part.toolCallId;
      // One part per call: a duplicate could pair one ticket with two decisions or results.
      if (seenCalls.has(callId)) throw new ContinuationError('duplicate-call', `The tool call ${clipped(callId)} ("${clipped(toolName)}") appears more than once in the history.`, { toolName, callId });
      seenCalls.add(callId);
      const metadata = providerMetadataOf(part);
      // The part's provider metadata goes to the provider only when a proof of this server covers it (see `unproven`).
      const proven = metadataProof(part, seals.get(callId) ?? allSeals.get(callId), ticketParts.get(callId), metadata);
      if (!proven && ('callMeta' in metadata || 'resultMeta' in metadata)) unproven.add(callId);
      const covered = proven ? metadata : {};
      if (isLast) inputs.set(callId, { toolName, input: part.input, ...('callMeta' in covered ? { callMeta: covered.callMeta } : {}) });
      const meta = { toolName, callId };
      if (part.state === 'output-available' || part.state === 'output-error') {
        const result = resultOf(part);
        const ticket = ticketParts.get(callId);
        if (ticket?.purpose === 'client-result') clientResults.add(callId);
        const seal = seals.get(callId) ?? allSeals.get(callId);
        if (seal) {
          // A call a human edited ran with the arguments its seal records: the seal covers those, and the model's
          // arguments the part shows (what the model reads it proposed).
          const ran = ranWith(seal, part);
          const subject = historySeal({ toolName, toolCallId: callId, input: ran, result, conversationId, ...('input' in seal ? { proposed: part.input } : {}), ...covered });
          if (ran !== part.input) edited.set(callId, ran);
          const earlierSeal = 'input' in seal && seal.metadata !== true ? await editedBefore(tickets, seal, part, ticket, { toolName, toolCallId: callId, input: ran, result, conversationId }) : false;
          if (!earlierSeal) checks.push({ ticket: seal.seal, subject, onValid: () => {}, problem: 'forged-result', part, consume: false });
          // Sealed after its turn, in a later response: it still was one of the answers its message's continuation carried.
          if (!isLast && !seals.has(callId) && ticket?.purpose === 'client-result') answered.push(await sealedAnswer(part, ticket, edits, conversationId));
          if (seals.has(callId) && ticket !== undefined) sealedHere.push({ step: steps.get(part), check: await sealedAnswer(part, ticket, edits, conversationId) });
          continue;
        }
        if (ticket?.purpose !== 'client-result') {
          throw new ContinuationError('forged-result', `The result of "${clipped(toolName)}" (${clipped(callId)}) has no valid server seal or client ticket: this server did not produce or request it.`, meta);
        }
        // The call's provider metadata, carried back with the client's result, as the ticket's metadata seal has it.
        if (proven) checkMetadata(checks, { part, ticket, metadata, conversationId, problem: 'forged-result' });
        const tool = await registry.resolve(toolName);
        if (tool?.policy.runsOn === 'server') {
          throw new ContinuationError('wrong-placement', `"${clipped(toolName)}" runs on the server only; a client result for it is refused.`, meta);
        }
        const answer: AcceptedResult = { toolCallId: callId, toolName, input: part.input, result };
        if (!isLast) {
          // A browser's result whose continuation never got its answer (a network error, a 502, Stop), and the user went
          // on. It must be this server's call; it is taken once its ticket's nonce keeps this very answer (see
          // `earlierClientResult`), and sealed in the response.
          const check: Check = {
            decision: await answerOf(result, meta),
            ticket: ticket.ticket,
            subject: clientSubject(toolName, callId, part.input, conversationId),
            onValid: () => {},
            problem: 'forged-result',
            part,
            consume: false,
            originOnly: true,
            earlierResult: answer,
          };
          answered.push(check);
          checks.push(check);
          continue;
        }
        const accept = () => accepted.push(answer);
        checks.push({
          // Kept with the ticket's nonce: a copy sent again with another answer is refused (`conflict`).
          decision: await answerOf(result, meta),
          ticket: ticket.ticket,
          subject: clientSubject(toolName, callId, part.input, conversationId),
          onValid: accept,
          // The same continuation again (its answer was lost): the client's result for its own call, the same answer as
          // the first copy's (or any, with a nonce store that keeps no decisions), accepted again. Nothing runs on the
          // server for it, so taking it twice changes nothing.
          onReplayed: accept,
          problem: 'ticket',
          part,
          consume: true,
        });
      } else if (part.state === 'output-denied') {
        // A denial is history the model reads (its reason included): only the server's seal makes it true.
        const seal = seals.get(callId);
        if (!seal) throw new ContinuationError('forged-result', `The denial of "${clipped(toolName)}" (${clipped(callId)}) has no server seal: this server did not record it.`, meta);
        const result = { deniedReason: part.approval?.reason ?? null };
        const subject = historySeal({ toolName, toolCallId: callId, input: ranWith(seal, part), result, conversationId, ...covered });
        checks.push({ ticket: seal.seal, subject, onValid: () => {}, problem: 'forged-result', part, consume: false });
        const ticket = ticketParts.get(callId);
        if (ticket?.purpose === 'approval') sealedHere.push({ step: steps.get(part), check: await sealedAnswer(part, ticket, edits, conversationId) });
      } else if (part.state === 'approval-responded') {
        const ticket = ticketParts.get(callId);
        if (ticket?.purpose !== 'approval') throw new ContinuationError('forged-approval', `The approval of "${clipped(toolName)}" (${clipped(callId)}) has no approval ticket from this server.`, meta);
        const subject: TicketSubject = { purpose: 'approval', toolName, callId, args: part.input, conversationId };
        const approved = part.approval?.approved === true;
        if (proven) checkMetadata(checks, { part, ticket, metadata, conversationId, problem: 'forged-approval' });
        // The human's edits of the arguments, from the client's edit part: the executor decides whether the tool takes them.
        const input = editedInputOf(edits, callId, approved);
        if (!isLast) {
          // Answered, but its result never came back (the response was lost, or the approval came too late) and the
          // user went on. It must be a call this server asked about; it does not run, and the model reads only what
          // the server can confirm of it (see `unfinishedCall`).
          const check: Check = {
            decision: await decisionOf(approved, input, meta),
            ticket: ticket.ticket,
            subject,
            onValid: () => {},
            problem: 'forged-approval',
            part,
            consume: false,
            originOnly: true,
            earlier: { approved },
          };
          answered.push(check);
          checks.push(check);
          continue;
        }
        const decide = () => {
          decisions.set(callId, { approved, reason: part.approval?.reason, ...input });
          approvalTickets.set(callId, ticket.ticket);
        };
        checks.push({
          decision: await decisionOf(approved, input, meta),
          ticket: ticket.ticket,
          subject,
          onValid: decide,
          // The same continuation again: its call already ran (or was denied) in the request that used the ticket.
          onReplayed: (same) => {
            decide();
            if (approved) replayed.add(callId);
            if (approved && same) confirmed.add(callId);
          },
          problem: 'forged-approval',
          part,
          consume: true,
          denial: !approved,
        });
      }
    }
    // The answers still open (claimed by this request, or read from what their claim kept) lead with those of their step
    // that their copy's response sealed before it broke off: the copy was claimed with all of them.
    const open = isLast ? checks.filter((check) => check.consume) : answered.filter((check) => checks.includes(check));
    const copySteps = new Set(open.map((check) => steps.get(check.part)));
    const sealedAnswers = sealedHere.filter((answer) => copySteps.has(answer.step)).map((answer) => answer.check);
    if (isLast) sealedInCopy = sealedAnswers;
    else answered.push(...sealedAnswers);
    // Kept with the first of them as their copy's leader kept it, when that copy claimed several tickets (see leadCopy).
    await leadCopy(answered);
  }

  const copy = checks.filter((check) => check.consume);
  const lead = await leadCopy([...copy, ...sealedInCopy]);
  // A leader sealed in the message was claimed, with the rest of its copy, by the request whose response sealed it:
  // nothing to claim there. The others were claimed with their own decisions, and are compared on those.
  const leader = lead !== undefined && copy.includes(lead) ? lead : undefined;
  if (leader !== undefined) leader.leader = true;
  // Pass 1: everything must be valid (seals checked concurrently). Pass 2: claim the single-use tickets.
  const [refused] = await Promise.all([Promise.all(checks.map((check) => problemWith(tickets, check, false))), verifyPartSeals(tickets, partSeals, unprovenParts)]);
  const isReplay = (check: Check, error: TicketError | undefined) => error?.reason === 'replayed' && check.onReplayed !== undefined;
  const first = refused.findIndex((error, index) => error !== undefined && !isReplay(checks[index]!, error));
  if (first >= 0) throw refusal(checks[first]!, refused[first]!);
  // A used ticket whose first use kept its decision: a copy that decides otherwise is not the same continuation (an
  // approval denied while its call runs, a denial approved, a browser tool's result with another answer). Asked before
  // any fresh ticket is claimed (claiming a used one writes nothing), so a refused copy burns nothing. The leader last:
  // its decision names the whole copy, so a call decided otherwise is named by its own ticket first.
  const used = checks.filter((check, index) => check.decision !== undefined && isReplay(check, refused[index]));
  // The checks whose first use kept this very decision (a store with `claimDecision` confirmed it).
  const same = new Set<Check>();
  for (const check of [...used.filter((check) => check !== leader), ...used.filter((check) => check === leader)]) {
    const error = await problemWith(tickets, check, true);
    if (error?.reason === 'conflict') throw refusal(check, error);
    if (error?.sameDecision === true) same.add(check);
  }
  // A copy whose leader another request claimed (before this one, or since pass 1) claims nothing: that request claims
  // every ticket of the copy and runs its calls.
  let replaying = leader !== undefined && used.includes(leader);
  for (const [index, check] of checks.entries()) {
    // A used ticket denied now, for a call that ran with it: the first copy approved it. Sealing this denial would put
    // a refusal the server never made into the history (and tell the model a write that happened did not).
    if (check.denial !== true || !isReplay(check, refused[index]) || recorded === undefined || check.ticket === undefined) continue;
    // A call given up on before it started (NOT_STARTED_RECORD) did not run: the denial goes on as for no record.
    const record = await recorded(check.part.toolCallId, check.ticket);
    if (record === undefined || isNotStartedRecord(record)) continue;
    const name = toolNameOf(check.part);
    throw new ContinuationError('forged-approval', `The approval of "${clipped(name)}" (${clipped(check.part.toolCallId)}) was answered before and the call ran; this copy denies it. A new message goes on without this answer (the model reads the call's result).`, {
      toolName: name,
      callId: check.part.toolCallId,
    });
  }
  // Earlier answers, before any fresh ticket is claimed: an answer the server knows otherwise refuses the history. All
  // settle before a refusal is thrown, so no claim is still on its way when the request has been answered.
  const taken = new Set<Check>();
  const earlier = await Promise.allSettled(
    checks.map(async (check) => {
      if (check.earlierResult !== undefined) {
        const read = await earlierClientResult(tickets, check);
        if (read === undefined) taken.add(check);
        else unfinished.set(check.part.toolCallId, read);
        return;
      }
      if (check.earlier === undefined) return;
      const read = await unfinishedCall(tickets, check, check.earlier.approved, recorded);
      unfinished.set(check.part.toolCallId, read);
      if (read.read === 'result' && 'input' in read.result) edited.set(check.part.toolCallId, read.result.input);
    }),
  );
  for (const outcome of earlier) if (outcome.status === 'rejected') throw outcome.reason;
  // Taken in the order of the history, whichever claim came back first: the response seals them in that order.
  for (const check of checks) if (check.earlierResult !== undefined && taken.has(check)) accepted.push(check.earlierResult);
  // Claiming an earlier answer again with the same decision reads the same, so a request that fails here can come again.
  await options.beforeClaims?.({ unfinished, edited, clientResults, unproven, unprovenParts });
  // The leader is claimed first: its claim is also the conflict check of every decision of the copy, before any other
  // ticket is claimed.
  if (leader !== undefined && !replaying) {
    const error = await problemWith(tickets, leader, true);
    if (error !== undefined && !isReplay(leader, error)) throw refusal(leader, error);
    replaying = error !== undefined;
    if (error?.sameDecision === true) same.add(leader);
  }
  // A copy's leader names every decision of its copy: confirmed, it confirms those it claims for them.
  const copyConfirmed = leader !== undefined && same.has(leader);
  for (const [index, check] of checks.entries()) {
    if (check === leader) {
      if (replaying) check.onReplayed?.(same.has(check));
      else check.onValid();
      continue;
    }
    // A ticket used before this request (pass 1 saw it), or whose copy's leader another request claimed (it claims this
    // one too, and runs the call), or used between the two passes.
    const seen = refused[index];
    if (isReplay(check, seen) || (replaying && check.consume)) {
      check.onReplayed?.(same.has(check) || (replaying && check.consume && copyConfirmed));
      continue;
    }
    const error = check.consume ? await problemWith(tickets, check, true) : undefined;
    if (isReplay(check, error)) check.onReplayed?.(error?.sameDecision === true);
    else if (error) throw refusal(check, error);
    else check.onValid();
  }
  return { decisions, approvalTickets, accepted, inputs, replayed, confirmed, unfinished, edited, clientResults, unproven, unprovenParts };
}

/** A step's part seal, with what it must cover and the parts whose metadata it proves. */
interface PartSealCheck {
  readonly seal: string;
  readonly subject: SealSubject;
  readonly parts: readonly unknown[];
  readonly messageId: string;
}

/**
 * Reads the provider metadata of a message's text, reasoning, file, reasoning-file and custom parts, step by step
 * (`step-start` parts divide them): in an assistant message, a step whose part seal (one at most, an id once in the
 * history) must cover exactly the metadata its parts carry, at their places (checked in {@link verifyPartSeals}); a step
 * without one, and every other message, has metadata no proof covers (`unproven`: dropped). A malformed seal part is
 * refused as forged.
 */
function readPartMetadata(
  message: { readonly id?: unknown; readonly role: string; readonly parts: readonly unknown[] },
  o: { conversationId: string; seen: Set<string>; checks: PartSealCheck[]; unproven: Set<unknown> },
): void {
  const messageId = String(message.id);
  const assistant = message.role === 'assistant';
  let index = 0;
  let metas: (SealedPartMetadata & { readonly part: unknown })[] = [];
  let seals: unknown[] = [];
  const endStep = () => {
    if (seals.length === 0) {
      for (const { part } of metas) o.unproven.add(part);
    } else {
      const data = seals[0] as { id?: unknown; seal?: unknown } | null;
      const id = typeof data?.id === 'string' && data.id !== '' ? data.id : undefined;
      if (seals.length > 1 || id === undefined || typeof data?.seal !== 'string' || o.seen.has(id)) {
        throw new ContinuationError(
          'forged-result',
          `A step of message ${clipped(messageId)} has ${seals.length > 1 ? 'more than one part seal' : id !== undefined && o.seen.has(id) ? 'a part seal that another step has too' : 'a malformed part seal'}: this server did not send it.`,
        );
      }
      o.seen.add(id);
      o.checks.push({ seal: data?.seal as string, subject: partSubject(id, metas, o.conversationId, messageId), parts: metas.map(({ part }) => part), messageId });
    }
    index = 0;
    metas = [];
    seals = [];
  };
  for (const part of message.parts) {
    const p = part as { type?: unknown; providerMetadata?: unknown; data?: unknown };
    if (isSealedPartType(p.type)) {
      const at = index++;
      if (p.providerMetadata != null) metas.push({ index: at, type: p.type, meta: p.providerMetadata, bound: boundOf(p.type, part as object), part });
    } else if (!assistant) {
      // A user's message: no step, no seal; its parts' metadata is the client's.
    } else if (p.type === 'step-start') {
      endStep();
    } else if (p.type === PART_SEAL_PART) {
      seals.push(p.data);
    }
  }
  if (assistant) endStep();
  else for (const { part } of metas) o.unproven.add(part);
}

/** What a step's part seal must cover; metadata with no JSON form (nested deeper than the stack) was never sealed here. */
function partSubject(id: string, metas: readonly SealedPartMetadata[], conversationId: string, messageId: string): SealSubject {
  try {
    return partMetadataSubject({ id, parts: metas, conversationId });
  } catch (error) {
    throw new ContinuationError('forged-result', `The provider metadata of a step of message ${clipped(messageId)} has no JSON form this server could have sealed.`, { cause: error });
  }
}

/**
 * Checks each step's part seal against the metadata its parts carry: anything else (changed, moved to another part,
 * added to a sealed step, removed, a sealed file's url or media type or a custom part's kind changed) is refused. An
 * expired seal is this server's (its MAC is checked first) but too old to trust: its parts' metadata is dropped, not
 * refused, so an old conversation without tools goes on.
 */
async function verifyPartSeals(tickets: TicketSigner, checks: readonly PartSealCheck[], unproven: Set<unknown>): Promise<void> {
  if (checks.length === 0) return;
  const errors = await Promise.all(checks.map((check) => tickets.verifySeal(check.seal, check.subject).then(() => undefined, (error: unknown) => error)));
  for (const [i, error] of errors.entries()) {
    const check = checks[i] as PartSealCheck;
    if (error === undefined) continue;
    if (!TicketError.isInstance(error)) throw error;
    if (error.reason === 'expired') {
      for (const part of check.parts) unproven.add(part);
      continue;
    }
    throw new ContinuationError(
      'forged-result',
      `The provider metadata of the parts of a step of message ${clipped(check.messageId)} is not what this server sent (changed, moved to another part, ` +
        `added or removed, or the file or kind it came with changed): ${error.message}`,
      { cause: error },
    );
  }
}

/**
 * What the model may read of an approval answered in an earlier turn whose result never came back, from what the server
 * knows of it: a recorded result (it was approved and ran), whatever this history answered (a denial here is another
 * copy's answer, or a rewrite: the model reads the write that happened); else the decision kept with its ticket's
 * nonce, read by claiming it with the answer the client shows (a used ticket keeps its first decision, so this writes
 * nothing; an unused one is claimed now, so that approval can never run later). A confirmed denial reads as denied; a
 * decision kept otherwise (`conflict`: another tab decided first) as an answer the server did not take; anything else as
 * an unknown outcome (an approval whose result was not recorded, or a denial whose ticket has expired, and with it the
 * decision, or whose store keeps none).
 */
async function unfinishedCall(
  tickets: TicketSigner,
  check: Check,
  approved: boolean,
  recorded: VerifyContinuationOptions['recorded'],
): Promise<UnfinishedCall> {
  const { part } = check;
  const result = recorded === undefined || check.ticket === undefined ? undefined : await recorded(part.toolCallId, check.ticket);
  // Given up on before it started: the same continuation sent late would run it on its second mark, so that mark is
  // taken here, and then it never runs (the model reads so). Taken by another request: that one runs it, or ran it.
  if (isNotStartedRecord(result) && check.ticket !== undefined) return (await takeMark(tickets, check.ticket, 'rerun')) ? { read: 'result', result: NOT_STARTED_RECORD } : { read: 'unknown' };
  if (result !== undefined) return { read: 'result', result };
  const verdict = await tickets.safeVerify(check.ticket, check.subject as TicketSubject, check.decision === undefined ? {} : { decision: check.decision });
  // An approval the user went on from never runs: its "started" mark is taken too, so that the same continuation sent
  // late (which its ticket's kept decision confirms) finds the call started and does not run it (see the chat loop).
  if (approved && check.ticket !== undefined) await takeMark(tickets, check.ticket, 'started');
  if (!verdict.ok && verdict.error.reason === 'conflict') return { read: 'conflict' };
  const confirmed = verdict.ok || verdict.error.sameDecision === true;
  return !approved && confirmed ? { read: 'denied' } : { read: 'unknown' };
}

/**
 * Takes `mark` of an approval's ticket (`claimMark`): `true` when this request took it, or no request can (a signer
 * without marks, an expired ticket: it needs none), `false` when another request did. "started" for an approval the user
 * went on from; "rerun" for one whose call was given up on before it started: either way the call never runs later.
 */
async function takeMark(tickets: TicketSigner, ticket: string, mark: 'started' | 'rerun'): Promise<boolean> {
  try {
    return (await tickets.claimMark?.(ticket, mark)) ?? true;
  } catch (error) {
    if (!TicketError.isInstance(error)) throw error;
    return true;
  }
}

/**
 * Whether a client's result of an earlier turn (no seal) is taken: its ticket is claimed with the answer it shows (an
 * unused one, whose continuation never reached the server, now keeps that answer, so no other can be taken later), or
 * its first claim kept the very same answer (the continuation reached the server, its response was lost): `undefined`,
 * taken. A claim that kept another answer (another tab answered first, or the history was rewritten) is not taken: the
 * model reads that the answer shown is not the one the server took (`conflict`). An expired ticket (the nonce store
 * forgets it, and the answer with it) or a used one that kept no answer (a store without `claimDecision`, a row from
 * before) confirms nothing: the model reads that the outcome is unknown, never the client's unconfirmed result.
 */
async function earlierClientResult(tickets: TicketSigner, check: Check): Promise<UnfinishedCall | undefined> {
  const verdict = await tickets.safeVerify(check.ticket, check.subject as TicketSubject, check.decision === undefined ? {} : { decision: check.decision });
  if (verdict.ok || verdict.error.sameDecision === true) return undefined;
  if (verdict.error.reason === 'conflict') return { read: 'conflict' };
  if (verdict.error.reason === 'expired' || verdict.error.reason === 'replayed') return { read: 'unconfirmed' };
  throw refusal(check, verdict.error);
}

/** What a `client-result` ticket binds: the call the server handed to the client, with the model's arguments. */
function clientSubject(toolName: string, callId: string, args: unknown, conversationId: string): TicketSubject {
  return { purpose: 'client-result', toolName, callId, args, conversationId };
}

/** A result part's result as its ticket and seal cover it: its output, or its error text. */
function resultOf(part: AnyToolPart): { output: unknown } | { errorText: string } {
  return part.state === 'output-available' ? { output: part.output } : { errorText: String(part.errorText ?? '') };
}

/** The human's edit of an approved call's arguments, from the client's edit part (none for a denial). */
function editedInputOf(edits: ReadonlyMap<string, EditPartData>, callId: string, approved: boolean): { input?: unknown } {
  const edit = approved ? edits.get(callId) : undefined;
  return edit !== undefined && 'input' in edit ? { input: edit.input } : {};
}

/** The step of each part of a message: how many `step-start` parts come before it. */
function stepsOf(message: { readonly parts: readonly unknown[] }): Map<unknown, number> {
  const steps = new Map<unknown, number>();
  let step = 0;
  for (const part of message.parts) {
    if ((part as { type?: unknown }).type === 'step-start') step++;
    else steps.set(part, step);
  }
  return steps;
}

/**
 * A ticketed call of a message that holds its seal, as its copy claimed it: a browser result's answer, or an approval's
 * decision (its edit part stays in the message). A response seals a copy's browser results first, then its calls'
 * results as they finish: one cut on the way leaves some of the copy sealed and the rest open, and the copy's leader
 * kept a decision that names them all; a browser result sealed in a later response was one of its message's copy too.
 * Never claimed again: only counted with the open ones (see `leadCopy`).
 */
async function sealedAnswer(part: AnyToolPart, ticket: TicketPartData, edits: ReadonlyMap<string, EditPartData>, conversationId: string): Promise<Check> {
  const toolName = toolNameOf(part);
  const meta = { toolName, callId: part.toolCallId };
  const approved = part.approval?.approved === true;
  const decision =
    ticket.purpose === 'approval' ? await decisionOf(approved, editedInputOf(edits, part.toolCallId, approved), meta) : await answerOf(resultOf(part), meta);
  const subject: TicketSubject = { purpose: ticket.purpose, toolName, callId: part.toolCallId, args: part.input, conversationId };
  return { ticket: ticket.ticket, subject, decision, onValid: () => {}, problem: 'forged-result', part, consume: false };
}

/**
 * Picks the ticket a copy of a continuation claims first, its leader: the one of the lowest call id among the tickets it
 * claims (the same in every copy of the message, whatever the order of its parts). Two copies at once each claiming
 * some tickets could each be refused on one the other took, every ticket spent and nothing run; a copy that loses the
 * leader claims none of the others, and the copy that won it claims them all. With more than one ticket, the leader's
 * decision also names every decision of the copy (a hash), so a copy that decides otherwise on any call is refused at
 * the leader, before it has claimed anything, even when the winner has not claimed that call's ticket yet.
 */
async function leadCopy(copy: readonly Check[]): Promise<Check | undefined> {
  const claimed = [...copy].sort((a, b) => (a.part.toolCallId < b.part.toolCallId ? -1 : 1));
  const leader = claimed[0];
  if (leader === undefined) return undefined;
  if (claimed.length > 1) leader.decision = `${leader.decision} copy ${await hashArguments(claimed.map((check) => [check.part.toolCallId, check.decision ?? null]))}`;
  return leader;
}

/**
 * What the seal of a result in the history must cover. Content with no JSON form (nested deeper than the stack, where
 * `JSON.stringify` throws a RangeError) was never sealed by this server: refused as forged, not a crash.
 */
function historySeal(call: SealedCall): SealSubject {
  try {
    return sealSubject(call);
  } catch (error) {
    throw new ContinuationError('forged-result', `The result of "${clipped(call.toolName)}" (${clipped(call.toolCallId)}) has no JSON form this server could have sealed.`, {
      toolName: call.toolName,
      callId: call.toolCallId,
      cause: error,
    });
  }
}

/**
 * Whether a proof of this server says it covers the part's provider metadata: a result's seal made with it
 * (`metadata: true`), or for an answer the client brings (an approval, its result) the ticket's `metadataSeal`. The
 * proof is then checked with the metadata (a change is refused); without one, the metadata is not the server's (a seal
 * or ticket from before, a part in no answered state, a client's own) and is dropped before the model's prompt.
 */
function metadataProof(part: AnyToolPart, seal: SealPartData | undefined, ticket: TicketPartData | undefined, metadata: { callMeta?: unknown; resultMeta?: unknown }): boolean {
  if (part.state === 'output-available' || part.state === 'output-error' || part.state === 'output-denied') {
    if (seal !== undefined) return seal.metadata === true;
    return ticket?.metadataSeal !== undefined && !('resultMeta' in metadata);
  }
  return part.state === 'approval-responded' && ticket?.metadataSeal !== undefined && !('resultMeta' in metadata);
}

/**
 * A call handed out for an answer (an approval, a client's result) whose ticket seals its provider metadata: the part
 * must carry back exactly that (a part that drops it is refused too, as a sealed result is: Gemini refuses a call
 * without its signature), or the continuation is refused before anything runs.
 */
function checkMetadata(
  checks: Check[],
  o: { part: AnyToolPart; ticket: TicketPartData; metadata: { callMeta?: unknown }; conversationId: string; problem: ContinuationProblem },
): void {
  const subject = metadataSubject({ toolName: toolNameOf(o.part), toolCallId: o.part.toolCallId, meta: o.metadata.callMeta, conversationId: o.conversationId });
  checks.push({ ticket: o.ticket.metadataSeal, subject, onValid: () => {}, problem: o.problem, part: o.part, consume: false });
}

/**
 * Whether an edited call's seal is one made before seals covered the model's arguments too (they covered only what
 * ran): it is, when it covers exactly what ran and its result, and the call's approval ticket, which names the model's
 * arguments, is this server's for the part's `input`. Such a history (sealed in the last 30 days) goes on; a seal of
 * either form whose part's `input` was changed is refused.
 */
async function editedBefore(tickets: TicketSigner, seal: SealPartData, part: AnyToolPart, ticket: TicketPartData | undefined, call: SealedCall): Promise<boolean> {
  if (ticket?.purpose !== 'approval') return false;
  try {
    await tickets.verifySeal(seal.seal, sealSubject(call));
  } catch {
    return false;
  }
  const approval: TicketSubject = { purpose: 'approval', toolName: call.toolName, callId: call.toolCallId, args: part.input, conversationId: call.conversationId };
  return (await tickets.safeVerify(ticket.ticket, approval, { origin: true })).ok;
}

/** The arguments a sealed call ran with: those its seal records (a human edited them), or the part's. */
function ranWith(seal: SealPartData, part: AnyToolPart): unknown {
  return 'input' in seal ? seal.input : part.input;
}

/**
 * What an answer to an approval decides, as kept with its ticket's nonce: approved (with a hash of the arguments a human
 * edited) or denied. A denial's reason and an approval's note are not part of it: they change what the model reads, not
 * what runs. Edited arguments with no JSON form (nested deeper than the stack) cannot be approved.
 */
async function decisionOf(approved: boolean, edit: { readonly input?: unknown }, meta: { toolName: string; callId: string }): Promise<string> {
  if (!approved) return 'denied';
  if (!('input' in edit)) return 'approved';
  try {
    return `approved ${await hashArguments(edit.input)}`;
  } catch (error) {
    throw new ContinuationError('forged-approval', `The edited arguments of "${clipped(meta.toolName)}" (${clipped(meta.callId)}) have no JSON form.`, { ...meta, cause: error });
  }
}

/**
 * What a client answered for a call it ran, as kept with its `client-result` ticket's nonce: the state (`output` or
 * `error`) and a hash of the canonical JSON of the result (`hashArguments`, as tickets bind arguments), so key order
 * and the JSON's spacing do not make another answer. A result with no JSON form (nested deeper than the stack) is refused.
 */
async function answerOf(result: AcceptedResult['result'], meta: { toolName: string; callId: string }): Promise<string> {
  try {
    return `${'output' in result ? 'output' : 'error'} ${await hashArguments(result)}`;
  } catch (error) {
    throw new ContinuationError('forged-result', `The result of "${clipped(meta.toolName)}" (${clipped(meta.callId)}) has no JSON form.`, { ...meta, cause: error });
  }
}

/** The reason a check fails (`undefined`: it passes). Anything but a refused ticket or seal rejects. */
async function problemWith(tickets: TicketSigner, check: Check, consume: boolean): Promise<TicketError | undefined> {
  if (!('purpose' in check.subject)) {
    try {
      await tickets.verifySeal(check.ticket, check.subject);
      return undefined;
    } catch (error) {
      if (TicketError.isInstance(error)) return error;
      throw error;
    }
  }
  const { decision } = check;
  const verdict = await tickets.safeVerify(check.ticket, check.subject, check.originOnly === true ? { origin: true } : decision === undefined ? { consume } : { consume, decision });
  return verdict.ok ? undefined : verdict.error;
}

function refusal(check: Check, cause: ToolError): ContinuationError {
  const name = toolNameOf(check.part);
  const what = check.problem === 'forged-result' ? 'result' : check.problem === 'forged-approval' ? 'approval' : 'client result';
  const conflict = (cause as TicketError).reason === 'conflict';
  // A client result whose ticket was used with another answer is not the result this server took: forged, as an
  // approval that decides otherwise is (`forged-approval`), not merely a bad ticket.
  const problem = conflict && check.problem === 'ticket' ? 'forged-result' : check.problem;
  // A ticket used with another decision: say what that means for a chat (the same request sent again would match), and
  // how a copy of the conversation that answered second (another tab) goes on: its answer is not taken, a message is.
  const how = ' (another tab of this conversation may have answered it first). A new message goes on without this answer.';
  const why = !conflict
    ? cause.message
    : check.problem === 'ticket'
      ? `it was answered before with another result (another output, or an error instead of an output): this is not the same request sent again${how}`
      : `it was answered before with another decision (approved or denied, or with other edits): this is not the same request sent again${how}`;
  return new ContinuationError(problem, `Refused the ${what} for "${clipped(name)}" (${clipped(check.part.toolCallId)}): ${why}`, {
    toolName: name,
    callId: check.part.toolCallId,
    cause,
  });
}
