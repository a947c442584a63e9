import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { answerApprovals, pendingModelCalls } from './text-turn.ts';

// The text turn reads a conversation's open calls in one walk: the approvals a caller may answer, and the calls a turn
// ends on. These pin what each reads of the same messages.
const call = (toolCallId: string, toolName: string, providerExecuted?: boolean) =>
  ({ type: 'tool-call', toolCallId, toolName, input: { id: toolCallId }, ...(providerExecuted ? { providerExecuted } : {}) }) as const;
const request = (toolCallId: string, reason?: string) =>
  ({ type: 'tool-approval-request', approvalId: `a-${toolCallId}`, toolCallId, ...(reason === undefined ? {} : { reason }) }) as const;
const result = (toolCallId: string) => ({ type: 'tool-result', toolCallId, toolName: 't', output: { type: 'text', value: 'ok' } }) as const;

const history: ModelMessage[] = [
  { role: 'user', content: 'go' },
  {
    role: 'assistant',
    content: [call('c1', 'write'), request('c1', 'It writes.'), call('c2', 'browser'), call('c3', 'read'), call('p1', 'search', true), request('p1')],
  },
  { role: 'tool', content: [result('c3')] },
];

describe('open calls of a text turn', () => {
  it('a turn ends on its approval requests and on calls without a result, not on a provider-executed call', () => {
    expect(pendingModelCalls(history)).toEqual([
      { toolCallId: 'c1', toolName: 'write', input: { id: 'c1' }, kind: 'approval', ticket: undefined, reason: 'It writes.' },
      { toolCallId: 'c2', toolName: 'browser', input: { id: 'c2' }, kind: 'client', ticket: undefined },
    ]);
  });

  it('an approval request is answered once: not a call without one, not one already answered or with a result', () => {
    const { messages, decisions } = answerApprovals(history, { c1: true, p1: { approved: false, reason: 'no' } });
    expect(decisions).toEqual(
      new Map([
        ['c1', { approved: true }],
        ['p1', { approved: false, reason: 'no' }],
      ]),
    );
    expect(messages.at(-1)).toEqual({
      role: 'tool',
      content: [
        { type: 'tool-approval-response', approvalId: 'a-c1', approved: true },
        { type: 'tool-approval-response', approvalId: 'a-p1', approved: false, reason: 'no' },
      ],
    });
    // Answered, its result not in yet (the turn failed before the call ran): the same answer cannot be given twice.
    expect(() => answerApprovals(messages, { c1: true })).toThrow('No approval request is open for tool call "c1".');
    expect(() => answerApprovals(history, { c2: true })).toThrow('No approval request is open for tool call "c2".');
    expect(() => answerApprovals(history, { c3: true })).toThrow('No approval request is open for tool call "c3".');
    // The answer does not make the call any less open for the calls the turn ends on.
    expect(pendingModelCalls(messages).map((c) => c.toolCallId)).toEqual(['c1', 'c2']);
  });
});
