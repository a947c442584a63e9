import type { AnyTool, ApprovalDecision, RunContext, ToolCallResult } from '@edgetool/core';
import type { AssistantModelMessage, ModelMessage, ToolModelMessage } from 'ai';
import type { PendingToolCall } from './chat-agent.ts';

/** A turn for server code (see `ChatAgent.generateText`): model messages in and out, no UI stream, no proofs. */
export interface TextTurnRequest<TDeps = unknown> {
  /**
   * The conversation as model messages (an earlier turn's `messages`), or one user prompt. Trusted input: it comes
   * from your server code, never from a client (a client's conversation goes through `stream()`, which checks
   * every proof).
   */
  readonly messages: readonly ModelMessage[] | string;
  readonly run: RunContext<TDeps>;
  readonly signal?: AbortSignal | undefined;
  /** A human approval already covers this whole turn: calls that would need approval run without asking. */
  readonly grantApprovals?: boolean;
  /**
   * Answers to the approval requests the previous turn ended on (its `pending` calls of kind `approval`), by tool
   * call id: `true`, `false`, or `{ approved, reason }` (a denial's reason is what the model reads).
   */
  readonly approvals?: Readonly<Record<string, boolean | Pick<ApprovalDecision, 'approved' | 'reason'>>>;
}

/** The outcome of {@link TextTurnRequest}. */
export interface TextTurnResult {
  /** The answer: the last step's text (or the return-direct output). */
  readonly text: string;
  readonly finishReason: string;
  /** The whole conversation after this turn: pass it to the next turn. */
  readonly messages: ModelMessage[];
  /** Calls this server executed during the turn. */
  readonly toolResults: readonly ToolCallResult[];
  /** Calls the turn ended on: approvals to answer (`approvals` of the next turn), or calls of client tools. */
  readonly pending: readonly PendingToolCall[];
  /** The loop ended on return-direct tools; the model was not called again. */
  readonly returnDirect: boolean;
  /** How many model steps ran. */
  readonly steps: number;
  readonly run: RunContext;
}

type AssistantPart = Exclude<AssistantModelMessage['content'], string>[number];
type ToolPart = ToolModelMessage['content'][number];

/** A conversation's open approval requests: tool call id → approval id, with the call's name and input. */
function openApprovals(messages: readonly ModelMessage[]): Map<string, { approvalId: string; toolName: string; input: unknown }> {
  const calls = new Map<string, { toolName: string; input: unknown }>();
  const open = new Map<string, { approvalId: string; toolName: string; input: unknown }>();
  const byApproval = new Map<string, string>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    if (message.role === 'assistant') {
      for (const part of message.content as AssistantPart[]) {
        if (part.type === 'tool-call') calls.set(part.toolCallId, { toolName: part.toolName, input: part.input });
        else if (part.type === 'tool-approval-request') {
          const call = calls.get(part.toolCallId);
          if (call) {
            open.set(part.toolCallId, { approvalId: part.approvalId, ...call });
            byApproval.set(part.approvalId, part.toolCallId);
          }
        }
      }
    } else if (message.role === 'tool') {
      for (const part of message.content as ToolPart[]) {
        if (part.type === 'tool-approval-response') {
          const id = byApproval.get(part.approvalId);
          if (id !== undefined) open.delete(id);
        } else if (part.type === 'tool-result') open.delete(part.toolCallId);
      }
    }
  }
  return open;
}

/**
 * The conversation with the caller's approval answers appended as one tool message (the AI SDK runs the approved
 * calls first), and the decisions for the executor. An answer for a call that is not waiting is an error: it would
 * otherwise be dropped without a word.
 */
export function answerApprovals(
  messages: readonly ModelMessage[],
  approvals: TextTurnRequest['approvals'],
): { messages: ModelMessage[]; decisions: Map<string, ApprovalDecision> } {
  const decisions = new Map<string, ApprovalDecision>();
  const entries = Object.entries(approvals ?? {});
  if (entries.length === 0) return { messages: [...messages], decisions };
  const open = openApprovals(messages);
  const content: ToolPart[] = [];
  for (const [toolCallId, answer] of entries) {
    const request = open.get(toolCallId);
    if (request === undefined) throw new TypeError(`No approval request is open for tool call "${toolCallId}".`);
    const decision: ApprovalDecision = typeof answer === 'boolean' ? { approved: answer } : { approved: answer.approved === true, reason: answer.reason };
    decisions.set(toolCallId, decision);
    content.push({
      type: 'tool-approval-response',
      approvalId: request.approvalId,
      approved: decision.approved,
      ...(decision.reason === undefined ? {} : { reason: decision.reason }),
    });
  }
  return { messages: [...messages, { role: 'tool', content }], decisions };
}

/** The calls the conversation ends on: approval requests without an answer, and calls without a result. */
export function pendingModelCalls(messages: readonly ModelMessage[], tools: ReadonlyMap<string, AnyTool>): PendingToolCall[] {
  const calls = new Map<string, { toolName: string; input: unknown; approval: boolean }>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    if (message.role === 'assistant') {
      for (const part of message.content as AssistantPart[]) {
        if (part.type === 'tool-call' && part.providerExecuted !== true) calls.set(part.toolCallId, { toolName: part.toolName, input: part.input, approval: false });
        else if (part.type === 'tool-approval-request') {
          const call = calls.get(part.toolCallId);
          if (call) call.approval = true;
        }
      }
    } else if (message.role === 'tool') {
      for (const part of message.content as ToolPart[]) if (part.type === 'tool-result') calls.delete(part.toolCallId);
    }
  }
  const open = openApprovals(messages);
  const pending: PendingToolCall[] = [];
  for (const [toolCallId, call] of calls) {
    // An answered approval whose call has no result yet runs at the start of the next turn: not pending.
    if (call.approval && !open.has(toolCallId)) continue;
    pending.push({
      toolCallId,
      toolName: call.toolName,
      input: call.input,
      kind: call.approval ? 'approval' : 'client',
      ticket: undefined,
      runsOn: tools.get(call.toolName)?.policy.runsOn,
    });
  }
  return pending;
}
