import type { ToolCallStatus, ToolCallView } from '@edgetool/react';

/** A Retry the hook refused (`CallsPendingError`): the calls it named, in the chat it was refused in. */
export interface RetryRefusal {
  readonly chatId: string;
  readonly toolCallIds: readonly string[];
}

/** What a call the hook counts as waiting waits for, as the notice says it. */
const WAITS_FOR: Partial<Record<ToolCallStatus, string>> = {
  'awaiting-approval': 'for your approval',
  running: 'for its answer in this page',
  pending: 'to start in this page',
  authorising: "for this page's checks",
};

/**
 * The calls of a refused Retry that still wait, as the chat shows them now (in the order the refusal named them); none
 * once they are answered, and the notice goes.
 */
export function stillWaiting(refusal: RetryRefusal | undefined, chatId: string, toolCalls: ReadonlyMap<string, ToolCallView>): ToolCallView[] {
  if (refusal === undefined || refusal.chatId !== chatId) return [];
  return refusal.toolCallIds.flatMap((id) => {
    const view = toolCalls.get(id);
    return view !== undefined && Object.hasOwn(WAITS_FOR, view.status) ? [view] : [];
  });
}

/**
 * What the notice says when Retry sent nothing: which calls of the last answer still wait, and for what; their answer
 * goes out by itself once they are answered (Retry is not needed then).
 */
export function retryRefusedText(waiting: readonly ToolCallView[]): string {
  const waitsFor = (view: ToolCallView) => WAITS_FOR[view.status] ?? 'for you';
  const what = (view: ToolCallView) => `${view.toolName} ${waitsFor(view)}`;
  const [first] = waiting;
  if (first === undefined) return '';
  if (waiting.length === 1) return `Nothing was sent: ${first.toolName} still waits above, ${waitsFor(first)}. The answer goes out by itself once it is answered.`;
  return `Nothing was sent: ${waiting.length} calls still wait above (${waiting.map(what).join(', ')}). The answer goes out by itself once they are answered.`;
}
