import { defineInterceptor, failure } from '../chain/interceptor.ts';
import type { ToolContext, ToolInterceptor } from '../chain/types.ts';
import { contextKey, type ContextKey } from '../context/context-key.ts';
import { approvedNonceKey } from '../context/idempotency-key.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { TicketSigner, TicketSubject } from '../tickets/index.ts';
import type { ApprovalRule } from '../tool/types.ts';
import { withinToolTime } from './timeout.ts';

/** A human's answer to an approval request, as it comes back with the next request. */
export interface ApprovalDecision {
  readonly approved: boolean;
  /** The ticket issued with the approval request. Required whenever the executor has a signer. */
  readonly ticket?: string | undefined;
  readonly reason?: string | undefined;
  /**
   * The arguments as the human edited them before approving: the whole arguments, not only the changes. Taken only
   * with `approved: true`, and only for changes the tool's `policy.editable` allows; the ticket stays the one issued
   * for the model's arguments. The call is validated and checked again with them, and the model reads what changed.
   */
  readonly input?: unknown;
}

/**
 * Whether a decision approves the call with edited arguments: the executor then runs it with them, and the approval
 * layer checks the decision's ticket whatever the tool's rule says of the edited input.
 */
export function approvesWithEdits(decision: ApprovalDecision | undefined): decision is ApprovalDecision & { readonly approved: true } {
  return decision?.approved === true && decision.input !== undefined;
}

/**
 * The words `policy.approvalReason` gives for this call; `undefined` for none or an empty text. A function that outlives
 * the tool's `timeoutMs`, or the abort of `ctx.signal`, rejects (`timeout`, `aborted`), as one that throws does.
 */
export async function approvalReasonOf(ctx: ToolContext): Promise<string | undefined> {
  const given = ctx.tool.policy.approvalReason;
  const reason = typeof given === 'function' ? await withinToolTime(ctx, 'approval reason', () => given(ctx.input, ctx)) : given;
  return typeof reason === 'string' && reason.trim() !== '' ? reason : undefined;
}

/** Where the executor puts the caller's approval decision for this call. */
export const approvalDecisionKey: ContextKey<ApprovalDecision> = contextKey<ApprovalDecision>('edgetool.approval-decision');

/** The ticket subject binding exactly this call. */
export function ticketSubject(ctx: ToolContext, purpose: TicketSubject['purpose']): TicketSubject {
  return { purpose, toolName: ctx.tool.name, callId: ctx.call.id, args: ctx.args, conversationId: ctx.run.conversationId };
}

/** Options for {@link approval}. */
export interface ApprovalOptions {
  /** Signs approval requests and verifies decisions. Without it, decisions from the caller are trusted. */
  readonly tickets?: TicketSigner | undefined;
  /** Overrides the tool policy's `needsApproval` (for example: only amounts over 100). */
  readonly when?: ApprovalRule;
}

/**
 * Pauses calls that need a human approval: without a decision the call ends as
 * `approval-required` with a ticket; with one, the ticket must be valid for exactly this call.
 * A denial becomes an `approval-denied` error the model can read; nothing runs.
 */
/* @__NO_SIDE_EFFECTS__ */
export function approval(options: ApprovalOptions = {}): ToolInterceptor {
  const { tickets, when } = options;
  return defineInterceptor('approval', async (ctx, next) => {
    const decision = ctx.get(approvalDecisionKey);
    // Edited arguments are the human's approval: its ticket is checked even when the rule would not ask for them. A
    // denial stands too: the rule may read state that changed since the human was asked, and must not overrule them.
    if (!approvesWithEdits(decision) && (decision === undefined || decision.approved)) {
      const rule = when ?? ctx.tool.policy.needsApproval;
      const required = typeof rule === 'function' ? await withinToolTime(ctx, 'approval rule', () => rule(ctx.input, ctx)) : rule;
      if (!required) return next();
    }
    const subject = ticketSubject(ctx, 'approval');
    if (decision === undefined) {
      // Before the ticket: a reason that throws refuses the call, as `check` does, and no human is asked.
      const reason = await approvalReasonOf(ctx);
      return { type: 'approval-required', ticket: tickets ? await tickets.sign(subject) : undefined, reason };
    }
    // The verified ticket's nonce makes the call's `idempotencyKey` its own: another call given this id has another ticket.
    if (tickets) ctx.set(approvedNonceKey, (await tickets.verify(decision.ticket, subject)).nonce);
    if (!decision.approved) {
      const why = decision.reason ? ` Reason: ${decision.reason}` : '';
      return failure(
        new ToolError('approval-denied', `The user denied this call of "${ctx.tool.name}"; it was not performed.${why}`, { toolName: ctx.tool.name, callId: ctx.call.id }),
      );
    }
    return next();
  });
}

/**
 * Enforces `policy.runsOn`: on the server a client tool ends as `client-pending` with a ticket
 * for its result; on the client a server-only tool is refused with `wrong-placement`.
 */
/* @__NO_SIDE_EFFECTS__ */
export function placement(options: { readonly tickets?: TicketSigner | undefined } = {}): ToolInterceptor {
  return defineInterceptor('placement', async (ctx, next) => {
    const runsOn = ctx.tool.policy.runsOn;
    if (runsOn === 'anywhere' || runsOn === ctx.side) return next();
    if (ctx.side === 'server') {
      return { type: 'client-pending', ticket: options.tickets ? await options.tickets.sign(ticketSubject(ctx, 'client-result')) : undefined };
    }
    return failure(new ToolError('wrong-placement', `Tool "${ctx.tool.name}" runs on the server only and cannot run in the client.`, { toolName: ctx.tool.name, callId: ctx.call.id }));
  });
}
