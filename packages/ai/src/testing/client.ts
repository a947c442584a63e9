import { EDIT_PART, type EdgetoolUIMessage, type EditPartData } from '../chat/protocol.ts';

/** A tool part of a UI message, loosely typed (any tool). */
export type ToolPartLike = { type: string; toolCallId?: string; state?: string; approval?: Record<string, unknown>; output?: unknown; errorText?: string; input?: unknown };

/** Changes one tool part in a copy of the history (what `useChat` does on the client); for tests that play the browser. */
export function mapToolPart(messages: EdgetoolUIMessage[], toolCallId: string, change: (part: ToolPartLike) => ToolPartLike): EdgetoolUIMessage[] {
  const copy = structuredClone(messages);
  const last = copy.at(-1);
  if (!last) throw new Error('no messages');
  let found = false;
  for (const message of copy) {
    message.parts = message.parts.map((part) => {
      const p = part as ToolPartLike;
      if (p.toolCallId !== toolCallId || !(p.type.startsWith('tool-') || p.type === 'dynamic-tool')) return part;
      found = true;
      return change(p) as never;
    });
  }
  if (!found) throw new Error(`no tool part ${toolCallId}`);
  return copy;
}

/** `addToolApprovalResponse({ id, approved, reason })`. */
export function respondToApproval(messages: EdgetoolUIMessage[], toolCallId: string, approved: boolean, reason?: string): EdgetoolUIMessage[] {
  return mapToolPart(messages, toolCallId, (p) => ({
    ...p,
    state: 'approval-responded',
    approval: { ...(p.approval ?? {}), approved, ...(reason ? { reason } : {}) },
  }));
}

/**
 * Approves a call with the arguments as the human edited them (the whole arguments): the edit part beside the call,
 * then the approval, as `useEdgeChat`'s `approve(id, { input })` does.
 */
export function approveWithEdits(messages: EdgetoolUIMessage[], toolCallId: string, input: unknown): EdgetoolUIMessage[] {
  const approved = respondToApproval(messages, toolCallId, true);
  const message = approved.find((m) => m.parts.some((p) => (p as ToolPartLike).toolCallId === toolCallId));
  if (!message) throw new Error(`no tool part ${toolCallId}`);
  const data: EditPartData = { toolCallId, input };
  message.parts = [...message.parts, { type: EDIT_PART, id: toolCallId, data }];
  return approved;
}

/** `addToolOutput({ toolCallId, output })`. */
export function addToolOutput(messages: EdgetoolUIMessage[], toolCallId: string, output: unknown): EdgetoolUIMessage[] {
  return mapToolPart(messages, toolCallId, (p) => ({ ...p, state: 'output-available', output }));
}

/** A new user message at the end. */
export function userSays(messages: EdgetoolUIMessage[], text: string): EdgetoolUIMessage[] {
  return [...structuredClone(messages), { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text }] }];
}
