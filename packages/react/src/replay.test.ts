import { describe, expect, it } from 'vitest';
import { answerAfter, browserAnswers } from './replay.ts';

const ticket = (toolCallId: string, purpose: string) => ({ type: 'data-edgetool-ticket', id: toolCallId, data: { toolCallId, purpose, ticket: 't' } });
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
  ],
};

describe('browserAnswers and answerAfter', () => {
  it("keeps the browser's results and decisions, not the server's results nor open calls", () => {
    expect([...browserAnswers(message)]).toEqual([
      ['c1', { type: 'tool-output-available', toolCallId: 'c1', output: '2026-12-24' }],
      ['c2', { type: 'tool-output-error', toolCallId: 'c2', errorText: 'Error (aborted): no' }],
      ['c3', { type: 'tool-approval-response', approvalId: 'a3', approved: false, reason: 'Not now' }],
    ]);
    expect(browserAnswers(undefined).size).toBe(0);
  });

  it('puts a result back after its call, a decision after its own request only', () => {
    const answers = browserAnswers(message);
    expect(answerAfter({ type: 'tool-input-available', toolCallId: 'c1', toolName: 'pick_date', input: {} }, answers)).toMatchObject({ output: '2026-12-24' });
    expect(answerAfter({ type: 'tool-input-available', toolCallId: 'c3', toolName: 'erase_all', input: {} }, answers)).toBeUndefined();
    expect(answerAfter({ type: 'tool-approval-request', toolCallId: 'c3', approvalId: 'a3' }, answers)).toMatchObject({ approved: false });
    expect(answerAfter({ type: 'tool-approval-request', toolCallId: 'c3', approvalId: 'other' }, answers)).toBeUndefined();
    expect(answerAfter({ type: 'tool-input-available', toolCallId: 'c5', toolName: 'pick_date', input: {} }, answers)).toBeUndefined();
    expect(answerAfter({ type: 'text-delta', id: 't', delta: 'x' }, answers)).toBeUndefined();
  });
});
