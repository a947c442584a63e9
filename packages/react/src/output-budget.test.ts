import { utf8Bytes } from '@edgetool/ai';
import { describe, expect, it } from 'vitest';
import { outputBytes, stepOutputBytes } from './output-budget.ts';
import { assistant, stepStart, ticket, toolPart, user } from './test-support/messages.ts';

describe('the bytes a browser output takes of its continuation', () => {
  it('counts UTF-8 as TextEncoder does: one to four bytes a character, a surrogate pair as four', () => {
    for (const text of ['', 'plain', 'é', 'déjà vu', '中文', '😀', 'a😀é中', 'x'.repeat(1000) + '€'.repeat(10)]) {
      expect(utf8Bytes(text)).toBe(new TextEncoder().encode(text).byteLength);
    }
    // JSON escapes a lone surrogate, so what it counts is ASCII.
    expect(outputBytes('\ud800')).toBe(JSON.stringify('\ud800').length);
    expect(outputBytes({ total: 'é' })).toBe(14);
    expect(outputBytes(undefined)).toBe(4);
  });

  it("sums the other outputs of the call's step: written ones, and accepted ones not written yet", () => {
    const out = (id: string, output: unknown) => toolPart('read', id, 'output-available', { output });
    const message = (c2: Record<string, unknown>) =>
      assistant([
        stepStart,
        out('s1', 'é'.repeat(100)),
        ticket('read', 's1', 'client-result'),
        stepStart,
        out('c1', 'x'.repeat(10)),
        c2,
        toolPart('read', 'c3', 'input-available'),
        toolPart('read', 'c4', 'output-error', { errorText: 'Error (aborted): stopped.' }),
        // A server call of the same step: the server wrote its output, this browser sends nothing of it.
        toolPart('query', 'q1', 'output-available', { output: 'y'.repeat(50) }),
        ticket('read', 'c1', 'client-result'),
        ticket('read', 'c2', 'client-result'),
        ticket('read', 'c3', 'client-result'),
        ticket('read', 'c4', 'client-result'),
      ]);
    const messages = [user('read'), message(toolPart('read', 'c2', 'input-available'))];
    // c2's result is accepted and not written yet; c3 still runs; c4 failed (an error text is no output).
    const pending = new Map([['c2', 300]]);
    expect(stepOutputBytes(messages, 'c3', pending)).toBe(12 + 300);
    // Nor a call's own bytes, nor an earlier step's outputs (s1's 202 went with the last continuation).
    expect(stepOutputBytes(messages, 'c2', pending)).toBe(12);
    expect(stepOutputBytes(messages, 's1', pending)).toBe(0);
    // Written, its pending bytes are not counted twice.
    expect(stepOutputBytes([user('read'), message(out('c2', 'z'))], 'c3', pending)).toBe(12 + 3);
    // A call the last assistant message does not hold takes nothing.
    expect(stepOutputBytes(messages, 'elsewhere', pending)).toBe(0);
    expect(stepOutputBytes([...messages, user('next')], 'c3', pending)).toBe(0);
  });
});
