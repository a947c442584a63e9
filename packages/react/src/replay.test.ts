import { describe, expect, it } from 'vitest';
import { answerAfter, browserAnswers } from './replay.ts';

const ticket = (toolCallId: string, purpose: string, editable?: string[]) => ({
  type: 'data-edgetool-ticket',
  id: toolCallId,
  data: { toolCallId, purpose, ticket: 't', ...(editable === undefined ? {} : { editable }) },
});
const approved = (toolCallId: string) => ({ type: 'tool-move', toolCallId, state: 'approval-responded', input: {}, approval: { id: `a-${toolCallId}`, approved: true } });
const message = {
  id: 'm1',
  role: 'assistant',
  parts: [
    { type: 'tool-pick_date', toolCallId: 'c1', state: 'output-available', input: {}, output: '2026-12-24' },
    ticket('c1', 'client-result'),
    { type: 'tool-note_down', toolCallId: 'c2', state: 'output-error', input: {}, errorText: 'Error (aborted): no' },
    ticket('c2', 'client-result'),
    { type: 'tool-erase_all', toolCallId: 'c3', state: 'approval-responded', input: {}, approval: { id: 'a3', approved: false, reason: 'Not now' } },
    // The server's own result (no client-result ticket) comes back with the replay itself.
    { type: 'tool-slow_export', toolCallId: 'c4', state: 'output-available', input: {}, output: { exported: 1 } },
    { type: 'tool-pick_date', toolCallId: 'c5', state: 'input-available', input: {} },
    ticket('c5', 'client-result'),
    // Approved with edits: with its edit part; without it (lost), not put back; a call nothing of which may be edited.
    approved('c6'),
    ticket('c6', 'approval', ['date']),
    { type: 'data-edgetool-edit', id: 'c6', data: { toolCallId: 'c6', input: { date: 'x' } } },
    approved('c7'),
    ticket('c7', 'approval', ['date']),
    approved('c8'),
    ticket('c8', 'approval'),
  ],
};

describe('browserAnswers and answerAfter', () => {
  it("keeps the browser's results and decisions, not the server's results nor open calls", () => {
    expect([...browserAnswers(message)]).toEqual([
      ['c1', [{ type: 'tool-output-available', toolCallId: 'c1', output: '2026-12-24' }]],
      ['c2', [{ type: 'tool-output-error', toolCallId: 'c2', errorText: 'Error (aborted): no' }]],
      ['c3', [{ type: 'tool-approval-response', approvalId: 'a3', approved: false, reason: 'Not now' }]],
      [
        'c6',
        [
          { type: 'tool-approval-response', approvalId: 'a-c6', approved: true },
          { type: 'data-edgetool-edit', id: 'c6', data: { toolCallId: 'c6', input: { date: 'x' } } },
        ],
      ],
      ['c8', [{ type: 'tool-approval-response', approvalId: 'a-c8', approved: true }]],
    ]);
    expect(browserAnswers(undefined).size).toBe(0);
    // c7 (editable, approved, its edit part lost) goes back as noted: as it was, or with the noted edit.
    expect(browserAnswers(message, { c7: {} }).get('c7')).toEqual([{ type: 'tool-approval-response', approvalId: 'a-c7', approved: true }]);
    expect(browserAnswers(message, { c7: { input: { date: 'y' } } }).get('c7')).toEqual([
      { type: 'tool-approval-response', approvalId: 'a-c7', approved: true },
      { type: 'data-edgetool-edit', id: 'c7', data: { toolCallId: 'c7', input: { date: 'y' } } },
    ]);
  });

  it('puts a result back after its call, a decision after its own request only', () => {
    const answers = browserAnswers(message);
    expect(answerAfter({ type: 'tool-input-available', toolCallId: 'c1', toolName: 'pick_date', input: {} }, answers)).toMatchObject([{ output: '2026-12-24' }]);
    expect(answerAfter({ type: 'tool-input-available', toolCallId: 'c3', toolName: 'erase_all', input: {} }, answers)).toEqual([]);
    expect(answerAfter({ type: 'tool-approval-request', toolCallId: 'c3', approvalId: 'a3' }, answers)).toMatchObject([{ approved: false }]);
    expect(answerAfter({ type: 'tool-approval-request', toolCallId: 'c3', approvalId: 'other' }, answers)).toEqual([]);
    expect(answerAfter({ type: 'tool-approval-request', toolCallId: 'c6', approvalId: 'a-c6' }, answers).map((c) => c.type)).toEqual(['tool-approval-response', 'data-edgetool-edit']);
    expect(answerAfter({ type: 'tool-input-available', toolCallId: 'c5', toolName: 'pick_date', input: {} }, answers)).toEqual([]);
    expect(answerAfter({ type: 'text-delta', id: 't', delta: 'x' }, answers)).toEqual([]);
  });
});
