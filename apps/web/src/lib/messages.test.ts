import type { EdgetoolUIMessage } from '@edgetool/ai';
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_CHARS, messageLimitState } from './message-limit.ts';
import { isEmptyAnswer, messageText, repeatedCallIds, withoutLastTurn } from './messages.ts';

const user = (id: string, text: string): EdgetoolUIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const assistant = (id: string, ...texts: string[]): EdgetoolUIMessage => ({ id, role: 'assistant', parts: texts.map((text) => ({ type: 'text', text })) });

describe('messages', () => {
  it('withoutLastTurn drops the last user message and what followed it', () => {
    const history = [user('u1', 'hi'), assistant('a1', 'hello'), user('u2', 'x'.repeat(10)), assistant('a2', 'partial')];
    expect(withoutLastTurn(history).map((m) => m.id)).toEqual(['u1', 'a1']);
    expect(withoutLastTurn([user('u1', 'hi')])).toEqual([]);
    expect(withoutLastTurn([assistant('a0', 'welcome')]).map((m) => m.id)).toEqual(['a0']);
  });

  it('messageText joins the non-empty text parts', () => {
    expect(messageText(assistant('a1', ' First. ', '', 'Second.'))).toBe('First.\nSecond.');
    expect(messageText(assistant('a2'))).toBe('');
  });

  it('isEmptyAnswer: an answer with nothing of the model in it (an error came before its first word)', () => {
    expect(isEmptyAnswer(assistant('a1'))).toBe(true);
    expect(isEmptyAnswer({ id: 'a2', role: 'assistant', parts: [{ type: 'step-start' }, { type: 'text', text: ' ', state: 'streaming' }] })).toBe(true);
    expect(isEmptyAnswer({ id: 'a3', role: 'assistant', parts: [{ type: 'step-start' }, { type: 'reasoning', text: '' }] })).toBe(true);
    expect(isEmptyAnswer(assistant('a4', 'Order A-1001'))).toBe(false);
    expect(isEmptyAnswer({ id: 'a5', role: 'assistant', parts: [{ type: 'reasoning', text: 'Looking it up.' }] })).toBe(false);
    const call = { type: 'tool-query_order', toolCallId: 'c1', state: 'input-streaming', input: undefined } as const;
    expect(isEmptyAnswer({ id: 'a6', role: 'assistant', parts: [{ type: 'step-start' }, call] } as EdgetoolUIMessage)).toBe(false);
    expect(isEmptyAnswer(user('u1', ''))).toBe(false);
  });
});

describe('the message limit', () => {
  it('is ok, near (counter shown) or over (refused)', () => {
    expect(messageLimitState(0)).toBe('ok');
    expect(messageLimitState(MAX_MESSAGE_CHARS * 0.8 - 1)).toBe('ok');
    expect(messageLimitState(MAX_MESSAGE_CHARS * 0.8)).toBe('near');
    expect(messageLimitState(MAX_MESSAGE_CHARS)).toBe('near');
    expect(messageLimitState(MAX_MESSAGE_CHARS + 1)).toBe('over');
    expect(messageLimitState(11, 10)).toBe('over');
  });
});

describe('repeatedCallIds', () => {
  const calls = (id: string, ...callIds: string[]): EdgetoolUIMessage =>
    ({ id, role: 'assistant', parts: callIds.map((toolCallId) => ({ type: 'tool-cart_add', toolCallId, state: 'input-available', input: {} })) }) as EdgetoolUIMessage;

  it('names the ids more than one tool part holds, in one answer or across answers', () => {
    expect(repeatedCallIds([user('u1', 'hi'), calls('a1', 'c1', 'c2'), user('u2', 'more'), calls('a2', 'c3')]).size).toBe(0);
    expect([...repeatedCallIds([calls('a1', 'c1', 'c2', 'c1')])]).toEqual(['c1']);
    expect([...repeatedCallIds([calls('a1', 'c1'), user('u2', 'more'), calls('a2', 'c2', 'c1', 'c1')])]).toEqual(['c1']);
  });

  it('reads only tool parts of answers: a data part with the id (a ticket) is no second call', () => {
    const ticket = { ...calls('a1', 'c1'), parts: [...calls('a1', 'c1').parts, { type: 'data-edgetool-ticket', id: 'c1', data: {} }] } as EdgetoolUIMessage;
    expect(repeatedCallIds([ticket]).size).toBe(0);
  });
});
