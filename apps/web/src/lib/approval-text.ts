import type { ExecutionMode } from '@edgetool/ai';
import type { ApprovalSource } from '@edgetool/react';

/**
 * The sentence an approval opens with: who asks for it and what kind of call it is ("write", "destructive"), so the
 * user knows what Approve lets happen, on the server or in this browser.
 */
export function approvalText(approval: { readonly source: ApprovalSource | undefined; readonly mode: ExecutionMode; readonly effects: string | undefined }): string {
  const kind = approval.effects ? ` (${approval.effects})` : '';
  if (approval.source === 'browser') return `Your browser asks for your approval before it runs this tool${kind}.`;
  if (approval.mode === 'manual') return `The server wants to run this call, and your browser asks you first${kind}.`;
  return `The server needs your approval to run this call${kind}.`;
}
