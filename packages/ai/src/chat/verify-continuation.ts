import { type ApprovalDecision, type SealSubject, TicketError, type TicketSigner, type TicketSubject, type ToolRegistry, ToolError } from '@edgetool/core';
import { type AnyToolPart, dataByCallId, EDIT_PART, type EditPartData, SEAL_PART, type SealPartData, TICKET_PART, type TicketPartData, toolNameOf, toolParts } from './protocol.ts';
import { sealSubject } from './proofs.ts';

/** Why a continuation was refused; nothing was executed. */
export type ContinuationProblem = 'forged-result' | 'forged-approval' | 'stale-approval' | 'wrong-placement' | 'duplicate-call' | 'ticket';

/**
 * The incoming history cannot be trusted: a tool result without a valid seal or ticket, an approval
 * without a valid ticket for exactly that call, a replayed or expired ticket. Thrown before anything runs.
 */
export class ContinuationError extends ToolError {
  readonly problem: ContinuationProblem;

  constructor(problem: ContinuationProblem, message: string, options: { toolName?: string; callId?: string; cause?: unknown } = {}) {
    super(problem === 'wrong-placement' ? 'wrong-placement' : 'ticket-invalid', message, options);
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
  /** Client results accepted in this request. */
  readonly accepted: readonly AcceptedResult[];
  /** Inputs of the calls in the message being continued, by tool call id. */
  readonly inputs: ReadonlyMap<string, { readonly toolName: string; readonly input: unknown }>;
  /**
   * Approved calls whose ticket an earlier request already used: the same continuation sent again (its answer was
   * lost). They must not run again; the loop answers them with the recorded result. Also in `decisions`.
   */
  readonly replayed: ReadonlySet<string>;
  /**
   * Calls a client answered in an earlier turn that never got their result (authentic: their approval ticket is this
   * server's, though it may have expired or been used). Not run; the model does not see them.
   */
  readonly unfinished: ReadonlySet<string>;
  /**
   * The arguments earlier results ran with, by tool call id, where a human edited them before approving (from the
   * results' seals, so verified): the model reads what changed beside each such result.
   */
  readonly edited: ReadonlyMap<string, unknown>;
}

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
  /** What to do instead of refusing when the ticket was already used (a continuation sent again). */
  readonly onReplayed?: () => void;
}

/**
 * Verifies the history a client sent back before the loop trusts any of it:
 * - every tool result must carry the server's seal, except fresh client results in the message
 *   being continued, which need their `client-result` ticket (single use);
 * - every approval decision needs its `approval` ticket for exactly that call (single use).
 * Everything is checked first and tickets are consumed only when all checks pass, so a forged
 * request burns nothing and runs nothing.
 */
export async function verifyContinuation(
  messages: readonly { readonly role: string; readonly parts: readonly unknown[] }[],
  options: { readonly tickets: TicketSigner; readonly registry: ToolRegistry; readonly conversationId: string },
): Promise<VerifiedContinuation> {
  const { tickets, registry, conversationId } = options;
  const last = messages.length - 1;
  const continuing = messages[last]?.role === 'assistant';
  const decisions = new Map<string, ApprovalDecision>();
  const accepted: AcceptedResult[] = [];
  const inputs = new Map<string, { toolName: string; input: unknown }>();
  const checks: Check[] = [];
  const seenCalls = new Set<string>();
  const replayed = new Set<string>();
  const unfinished = new Set<string>();
  const edited = new Map<string, unknown>();

  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant') continue;
    const isLast = continuing && index === last;
    const ticketParts = dataByCallId<TicketPartData>(message, TICKET_PART);
    const seals = dataByCallId<SealPartData>(message, SEAL_PART);
    const edits = isLast ? dataByCallId<EditPartData>(message, EDIT_PART) : undefined;
    for (const part of toolParts(message)) {
      const toolName = toolNameOf(part);
      const callId = part.toolCallId;
      // One part per call: a duplicate could pair one ticket with two decisions or results.
      if (seenCalls.has(callId)) throw new ContinuationError('duplicate-call', `The tool call ${callId} ("${toolName}") appears more than once in the history.`, { toolName, callId });
      seenCalls.add(callId);
      if (isLast) inputs.set(callId, { toolName, input: part.input });
      const meta = { toolName, callId };
      if (part.state === 'output-available' || part.state === 'output-error') {
        const result = part.state === 'output-available' ? { output: part.output } : { errorText: String(part.errorText ?? '') };
        const seal = seals.get(callId);
        if (seal) {
          // A call a human edited ran with the arguments its seal records: the seal covers those.
          const ran = ranWith(seal, part);
          if (ran !== part.input) edited.set(callId, ran);
          checks.push({ ticket: seal.seal, subject: sealSubject({ toolName, toolCallId: callId, input: ran, result, conversationId }), onValid: () => {}, problem: 'forged-result', part, consume: false });
          continue;
        }
        const ticket = ticketParts.get(callId);
        if (!isLast || ticket?.purpose !== 'client-result') {
          throw new ContinuationError('forged-result', `The result of "${toolName}" (${callId}) has no valid server seal or client ticket: this server did not produce or request it.`, meta);
        }
        const tool = await registry.resolve(toolName);
        if (tool?.policy.runsOn === 'server') {
          throw new ContinuationError('wrong-placement', `"${toolName}" runs on the server only; a client result for it is refused.`, meta);
        }
        const accept = () => accepted.push({ toolCallId: callId, toolName, input: part.input, result });
        checks.push({
          ticket: ticket.ticket,
          subject: { purpose: 'client-result', toolName, callId, args: part.input, conversationId },
          onValid: accept,
          // The same continuation again (its answer was lost): the client's result for its own call, accepted again.
          // Nothing runs on the server for it, so taking it twice changes nothing.
          onReplayed: accept,
          problem: 'ticket',
          part,
          consume: true,
        });
      } else if (part.state === 'output-denied') {
        // A denial is history the model reads (its reason included): only the server's seal makes it true.
        const seal = seals.get(callId);
        if (!seal) throw new ContinuationError('forged-result', `The denial of "${toolName}" (${callId}) has no server seal: this server did not record it.`, meta);
        const result = { deniedReason: part.approval?.reason ?? null };
        checks.push({ ticket: seal.seal, subject: sealSubject({ toolName, toolCallId: callId, input: ranWith(seal, part), result, conversationId }), onValid: () => {}, problem: 'forged-result', part, consume: false });
      } else if (part.state === 'approval-responded') {
        const ticket = ticketParts.get(callId);
        if (ticket?.purpose !== 'approval') throw new ContinuationError('forged-approval', `The approval of "${toolName}" (${callId}) has no approval ticket from this server.`, meta);
        const subject: TicketSubject = { purpose: 'approval', toolName, callId, args: part.input, conversationId };
        if (!isLast) {
          // Answered, but its result never came back (the response was lost, or the approval came too late) and the
          // user went on. It must be a call this server asked about; it does not run, and the conversation goes on.
          checks.push({ ticket: ticket.ticket, subject, onValid: () => unfinished.add(callId), problem: 'forged-approval', part, consume: false, originOnly: true });
          continue;
        }
        const approved = part.approval?.approved === true;
        // The human's edits of the arguments, from the client's edit part: the executor decides whether the tool takes them.
        const edit = approved ? edits?.get(callId) : undefined;
        const input = edit !== undefined && 'input' in edit ? { input: edit.input } : {};
        const decide = () => decisions.set(callId, { approved, reason: part.approval?.reason, ...input });
        checks.push({
          ticket: ticket.ticket,
          subject,
          onValid: decide,
          // The same continuation again: its call already ran (or was denied) in the request that used the ticket.
          onReplayed: () => {
            decide();
            if (approved) replayed.add(callId);
          },
          problem: 'forged-approval',
          part,
          consume: true,
        });
      }
    }
  }

  // Pass 1: everything must be valid (seals checked concurrently). Pass 2: claim the single-use tickets.
  const refused = await Promise.all(checks.map((check) => problemWith(tickets, check, false)));
  const isReplay = (check: Check, error: TicketError | undefined) => error?.reason === 'replayed' && check.onReplayed !== undefined;
  const first = refused.findIndex((error, index) => error !== undefined && !isReplay(checks[index]!, error));
  if (first >= 0) throw refusal(checks[first]!, refused[first]!);
  for (const [index, check] of checks.entries()) {
    // A ticket used before this request (pass 1 saw it), or between the two passes (the same continuation twice at
    // once: the other request runs it).
    const seen = refused[index];
    const error = isReplay(check, seen) ? seen : check.consume ? await problemWith(tickets, check, true) : undefined;
    if (isReplay(check, error)) check.onReplayed?.();
    else if (error) throw refusal(check, error);
    else check.onValid();
  }
  return { decisions, accepted, inputs, replayed, unfinished, edited };
}

/** The arguments a sealed call ran with: those its seal records (a human edited them), or the part's. */
function ranWith(seal: SealPartData, part: AnyToolPart): unknown {
  return 'input' in seal ? seal.input : part.input;
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
  const verdict = await tickets.safeVerify(check.ticket, check.subject, check.originOnly === true ? { origin: true } : { consume });
  return verdict.ok ? undefined : verdict.error;
}

function refusal(check: Check, cause: ToolError): ContinuationError {
  const name = toolNameOf(check.part);
  const what = check.problem === 'forged-result' ? 'result' : check.problem === 'forged-approval' ? 'approval' : 'client result';
  return new ContinuationError(check.problem, `Refused the ${what} for "${name}" (${check.part.toolCallId}): ${cause.message}`, {
    toolName: name,
    callId: check.part.toolCallId,
    cause,
  });
}
