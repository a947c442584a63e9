import { EDIT_PART, type EditPartData } from '@edgetool/ai';
import { argumentEdits, parseArguments, refusedEdits } from '@edgetool/core';
import type { MessageLike } from './plan.ts';
import type { ToolCallView } from './views.ts';

/**
 * Why `approve(id, { input })` cannot send `input` for the call `view` shows, or `undefined` when it can. The server
 * would refuse such an edit, and in the chat loop a refused edit ends the call (its ticket is spent), so the mistake is
 * the developer's to see at once: a tool that lets nothing be edited, or a change of an argument its `policy.editable`
 * does not list.
 */
export function refusedEdit(view: Pick<ToolCallView, 'toolCallId' | 'toolName' | 'input' | 'editable'>, input: unknown): string | undefined {
  const { toolName, editable } = view;
  if (editable === undefined) return `"${toolName}" lets no argument be edited (its policy.editable); approve without input.`;
  // The edited arguments as the server reads them (JSON text too); ones it cannot read change them as a whole.
  const parsed = parseArguments(input, { toolName, callId: view.toolCallId });
  const refused = refusedEdits(editable, argumentEdits(view.input, parsed.ok ? parsed.value : input));
  return refused === undefined ? undefined : `"${toolName}" ${refused}.`;
}

/** The call an edit part is for (`data-edgetool-edit`), or `undefined` for any other part. */
export function editPartCall(part: unknown): string | undefined {
  const p = part as { type?: unknown; data?: { toolCallId?: unknown } };
  return p.type === EDIT_PART && typeof p.data?.toolCallId === 'string' ? p.data.toolCallId : undefined;
}

/**
 * The messages with a human's edited arguments for a call beside it (an edit part in the message that holds the call,
 * replacing an earlier one for the same call), as `approve(id, { input })` sends them. Unchanged when no message holds
 * the call.
 */
export function withEditPart<T extends MessageLike>(messages: readonly T[], toolCallId: string, input: unknown): T[] {
  const holds = (message: T) => message.parts.some((part) => (part as { toolCallId?: unknown }).toolCallId === toolCallId);
  const index = messages.findIndex(holds);
  if (index < 0) return [...messages];
  const message = messages[index] as T;
  const data: EditPartData = { toolCallId, input };
  const others = message.parts.filter((part) => editPartCall(part) !== toolCallId);
  return messages.map((m, i) => (i === index ? { ...m, parts: [...others, { type: EDIT_PART, id: toolCallId, data }] } : m));
}

/**
 * The messages with the edit parts of `edits` (call id → edited arguments) put back beside approved calls that lost
 * theirs: a response that was still streaming when the human approved writes its message from its own copy, which keeps
 * the approval but not a part added beside it. The same array when nothing was missing.
 */
export function withSentEdits<T extends MessageLike>(messages: T[], edits: ReadonlyMap<string, unknown>): T[] {
  let restored = messages;
  for (const [toolCallId, input] of edits) {
    const message = restored.find((m) => m.parts.some((part) => (part as { toolCallId?: unknown }).toolCallId === toolCallId));
    if (message === undefined || message.parts.some((part) => editPartCall(part) === toolCallId)) continue;
    const call = message.parts.find((part) => (part as { toolCallId?: unknown }).toolCallId === toolCallId) as { state?: unknown; approval?: { approved?: unknown } };
    if (call.state === 'approval-responded' && call.approval?.approved === true) restored = withEditPart(restored, toolCallId, input);
  }
  return restored;
}
