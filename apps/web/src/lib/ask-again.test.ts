import { describe, expect, it } from 'vitest';
import { askAgainText } from './ask-again.ts';
import { MAX_MESSAGE_CHARS } from './message-limit.ts';

describe('askAgainText', () => {
  it('asks in words, and names the call as a line the offline model reads as that call', () => {
    const text = askAgainText({ toolName: 'update_delivery_date', input: { order_id: 'A-1001', new_date: '2027-01-20' } });
    expect(text).toBe('The update_delivery_date call expired before I answered it. Please ask me again.\n/update_delivery_date {"order_id":"A-1001","new_date":"2027-01-20"}');
    // The offline model reads a line `/tool_name {json}` as a call (e2e: "Ask again" brings a new approval).
    const [, name, json] = /^\/([A-Za-z_][\w.-]*) (.*)$/m.exec(text) ?? [];
    expect([name, JSON.parse(json ?? 'null')]).toEqual(['update_delivery_date', { order_id: 'A-1001', new_date: '2027-01-20' }]);
    expect(askAgainText({ toolName: 'cart_clear', input: undefined })).toMatch(/\n\/cart_clear \{\}$/);
  });

  it('says the server refused the answer when that is why (a used ticket), with the same call line', () => {
    const text = askAgainText({ toolName: 'update_delivery_date', input: { order_id: 'A-1001' } }, 'refused');
    expect(text).toBe('The server refused my answer to the update_delivery_date call. Please ask me again.\n/update_delivery_date {"order_id":"A-1001"}');
  });

  it('leaves the line out when the input has no JSON form or is too long for a message', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(askAgainText({ toolName: 'send_email', input: cyclic })).toBe('The send_email call expired before I answered it. Please ask me again.');
    const long = askAgainText({ toolName: 'send_email', input: { body: 'x'.repeat(MAX_MESSAGE_CHARS) } });
    expect(long).toBe('The send_email call expired before I answered it. Please ask me again.');
  });
});
