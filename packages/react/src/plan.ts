import type { AnyTool } from '@edgetool/core';
import { dataByCallId, type ExecutionMode, TICKET_PART, type TicketPartData, toolNameOf, toolParts } from '@edgetool/ai';

/** A UI message as far as edgetool's browser logic reads it. */
export interface MessageLike {
  readonly id: string;
  readonly role: string;
  readonly parts: readonly unknown[];
  readonly metadata?: unknown;
}

/** What the browser must do for one pending call of the last assistant message. */
export type BrowserWork =
  /** The server handed the call to the browser (a `client-result` ticket): run it through the browser chain. */
  | { readonly kind: 'run'; readonly toolCallId: string; readonly toolName: string; readonly input: unknown; readonly ticket: string }
  /** The server handed over a call the browser cannot run (unknown here, or server-only): report an error. */
  | { readonly kind: 'reject'; readonly toolCallId: string; readonly toolName: string; readonly input: unknown; readonly errorText: string }
  /** Manual mode: a server tool waits for the browser chain to authorise its run on the server. */
  | { readonly kind: 'authorise'; readonly toolCallId: string; readonly toolName: string; readonly input: unknown; readonly approvalId: string; readonly requestReason?: string }
  /** Internal mode: the server asks a human to approve a call (`requestReason`: the tool's words, `policy.approvalReason`). */
  | { readonly kind: 'ask'; readonly toolCallId: string; readonly toolName: string; readonly input: unknown; readonly approvalId: string; readonly requestReason?: string };

/** Options for {@link planBrowserWork}. */
export interface PlanOptions {
  /** The browser's tools by name. */
  readonly browserTools: ReadonlyMap<string, AnyTool>;
  /** The mode to assume when a message carries none in its metadata. */
  readonly mode: ExecutionMode;
  /** Assistant messages the user stopped: nothing more starts for their calls (a reload does not undo Stop). */
  readonly stopped?: ReadonlySet<string> | undefined;
  /** Calls whose ticket expired: the server would refuse their answer, so nothing runs or asks for them. */
  readonly expired?: ReadonlySet<string> | undefined;
}

/** Whether a browser tool may run in the browser: it exists here and its policy is not server-only. */
export function canRunInBrowser(tool: AnyTool | undefined): tool is AnyTool {
  return tool !== undefined && tool.policy.runsOn !== 'server';
}

/** The mode a message was produced in (from the loop's metadata), or `fallback`. */
export function messageMode(message: MessageLike | undefined, fallback: ExecutionMode): ExecutionMode {
  const mode = (message?.metadata as { mode?: unknown } | undefined)?.mode;
  return mode === 'internal' || mode === 'manual' ? mode : fallback;
}

/** The last message when it is the assistant's (the only one whose pending calls can still be answered). */
export function lastAssistantMessage<T extends MessageLike>(messages: readonly T[]): T | undefined {
  const last = messages.at(-1);
  return last?.role === 'assistant' ? last : undefined;
}

/**
 * Decides what the browser does for the pending calls of the last assistant message.
 * A call runs here only when the server asked for it with a `client-result` ticket AND the browser
 * has the tool AND its policy allows the client: `useChat`'s `onToolCall` also fires for server tools,
 * so the tool name alone never decides.
 */
export function planBrowserWork(messages: readonly MessageLike[], options: PlanOptions): BrowserWork[] {
  const message = lastAssistantMessage(messages);
  if (message === undefined || options.stopped?.has(message.id) === true) return [];
  const tickets = dataByCallId<TicketPartData>(message, TICKET_PART);
  const mode = messageMode(message, options.mode);
  const work: BrowserWork[] = [];
  const seen = callIdsBefore(messages, message);
  for (const part of toolParts(message)) {
    const toolName = toolNameOf(part);
    const { toolCallId, input } = part;
    // A part that repeats an earlier part's call id (a hostile or buggy server: ours never sends one) is no new call:
    // it never runs, asks or answers. Its answer would go to the AI SDK's addToolOutput by id, which writes it over every
    // part of that id, the earlier result too, and the server then refuses the history.
    if (seen.has(toolCallId)) continue;
    seen.add(toolCallId);
    if (options.expired?.has(toolCallId) === true) continue;
    if (part.state === 'input-available') {
      const ticket = tickets.get(toolCallId);
      if (ticket?.purpose !== 'client-result') continue;
      const tool = options.browserTools.get(toolName);
      if (canRunInBrowser(tool)) {
        work.push({ kind: 'run', toolCallId, toolName, input, ticket: ticket.ticket });
      } else {
        const errorText =
          tool === undefined
            ? `Error (unknown-tool): This browser has no tool "${toolName}". Available browser tools: ${[...options.browserTools.keys()].join(', ') || '(none)'}.`
            : `Error (wrong-placement): Tool "${toolName}" runs on the server only and cannot run in the browser.`;
        work.push({ kind: 'reject', toolCallId, toolName, input, errorText });
      }
    } else if (part.state === 'approval-requested' && part.approval?.id !== undefined) {
      const approvalId = part.approval.id;
      const reason = part.approval.requestReason;
      work.push({ kind: mode === 'manual' ? 'authorise' : 'ask', toolCallId, toolName, input, approvalId, ...(typeof reason === 'string' ? { requestReason: reason } : {}) });
    }
  }
  return work;
}

/** The call ids of the tool parts of the messages before `message`. */
function callIdsBefore(messages: readonly MessageLike[], message: MessageLike): Set<string> {
  const ids = new Set<string>();
  for (const earlier of messages) {
    if (earlier === message) break;
    if (earlier.role === 'assistant') for (const part of toolParts(earlier)) ids.add(part.toolCallId);
  }
  return ids;
}
