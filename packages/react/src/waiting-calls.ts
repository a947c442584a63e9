// Not in the barrel: which calls of the last answer a retry (`sendMessage()` without a message) would leave unanswered.
import type { MessageLike } from './plan.ts';
import type { ToolCallView } from './views.ts';

/**
 * The calls of `message` (the last assistant message) that wait for this browser or its user: handed over and not
 * started, running or asking in this browser, authorised by the browser chain, or waiting for a human's decision.
 */
export function waitingCalls(views: ReadonlyMap<string, ToolCallView>, message: MessageLike | undefined): string[] {
  if (message === undefined) return [];
  const waiting: string[] = [];
  for (const view of views.values()) {
    if (view.messageId !== message.id) continue;
    const { status } = view;
    if (status === 'pending' || status === 'awaiting-approval' || status === 'authorising' || (status === 'running' && view.ranOn === 'browser')) waiting.push(view.toolCallId);
  }
  return waiting;
}
