// Reliability, browser results whose continuation got no answer: the browser ran cart_clear (the cart is empty), and
// the request that carried its result died on the way (a gateway's 502, a dropped connection, Stop), or reached the
// Worker and its answer was lost. The user then asks whether it worked. The Worker must take that result once, from
// the earlier message (the model reads it), keep its hash with the ticket's nonce in D1, and never take a rewritten copy.
//
// The conversation is driven through the Worker's own fetch handler. To read what the model was given, the "did it
// work?" request also goes through an agent built as the Worker builds it (the demo's tools and browser declarations,
// tickets and call results in D1, the offline model), with the model's prompts recorded.
import { ANSWERED_OTHERWISE_TEXT, SEAL_PART } from '@edgetool/ai';
import { describe, expect, it } from 'vitest';
import { type Part, post, readTurn, rows, toolPart, user } from '../../test/chat-client.ts';
import { type Prompt, recordingAgent } from '../../test/recording-agent.ts';

/** What the browser's cart_clear returned (the demo's cart store answers `{ removed }`). */
const CLEARED = { removed: 3 };

/** The tool results a prompt gives the model for `toolCallId`. */
function resultsFor(prompt: Prompt | undefined, toolCallId: string): unknown[] {
  const tools = (prompt ?? []).flatMap((message) => (message.role === 'tool' ? message.content : []));
  return tools.filter((part) => part.type === 'tool-result' && part.toolCallId === toolCallId);
}

/** The user asks to empty the cart; the Worker hands cart_clear to the browser, which runs it and writes `result`. */
async function cartCleared(id: string, result: Partial<Part> = { state: 'output-available', output: CLEARED }) {
  const ask = user('/cart_clear {}');
  const first = await readTurn(await post({ id, messages: [ask] }));
  const part = toolPart(first.message, 'cart_clear');
  expect(part?.state).toBe('input-available');
  const callId = part?.toolCallId as string;
  const answer = (change: Partial<Part>) => {
    const message = structuredClone(first.message);
    message.parts = message.parts.map((p) => ((p as Part).toolCallId === callId ? ({ ...p, ...change } as never) : p));
    return [ask, message];
  };
  return { callId, answered: answer(result), answer };
}

const decisions = () => rows<{ decision: string | null }>('SELECT decision FROM ticket_nonces');

describe('a browser tool whose continuation got no answer, then a new message', () => {
  it('the continuation died on the way: the next message takes cart_clear’s result, the model reads it, a rewritten copy reads that another answer was taken', async () => {
    const id = 'cart-continuation-lost';
    const { callId, answered, answer } = await cartCleared(id);
    // The continuation never reached the Worker (a gateway's 502): nothing is claimed yet.
    expect(await decisions()).toEqual([]);
    const agent = recordingAgent();
    const asked = [...answered, user('did the cart get cleared?')];
    const next = await readTurn(await agent.chat(id, asked));
    // The model read the cart_clear that ran; it used to read no such call (the browser took the result back first).
    expect(resultsFor(agent.prompts[0], callId)).toEqual([expect.objectContaining({ output: { type: 'text', value: JSON.stringify(CLEARED) } })]);
    // D1 keeps the answer's hash with the ticket's nonce, and the response seals the result in its own message.
    const kept = await decisions();
    expect(kept).toEqual([{ decision: expect.stringMatching(/^output [A-Za-z0-9_-]{43}$/) }]);
    expect(next.message.parts.filter((p) => p.type === SEAL_PART).map((p) => (p as { id?: string }).id)).toEqual([callId]);

    // A copy that says the cart was not cleared, or that clearing it failed (another tab that answered second, or a
    // rewrite): not taken. It was a 403 at every message until the ticket expired; now the model reads that the server
    // took another answer, never this one, and nothing seals it.
    for (const [index, change] of [{ state: 'output-available', output: { removed: 0 } }, { state: 'output-error', errorText: 'The user cancelled.' }].entries()) {
      const other = await readTurn(await agent.chat(id, [...answer(change), user('did the cart get cleared?')]));
      const read = resultsFor(agent.prompts[1 + index], callId);
      expect(read).toEqual([expect.objectContaining({ output: { type: 'error-text', value: ANSWERED_OTHERWISE_TEXT } })]);
      expect(other.message.parts.filter((p) => p.type === SEAL_PART)).toEqual([]);
    }
    // The late continuation with another answer is refused by the Worker itself (403): its answer is not taken, and the
    // refusal says how to go on. The history with its seal goes on, through the Worker.
    const late = await post({ id, messages: answer({ state: 'output-available', output: { removed: 0 } }) });
    expect(late.status).toBe(403);
    const refusal = { code: 'ticket-invalid', problem: 'forged-result', reason: 'conflict', toolCallId: callId };
    expect(await late.json()).toEqual({ error: expect.objectContaining({ ...refusal, message: expect.stringMatching(/A new message goes on/) }) });
    const onward = await post({ id, messages: [...asked, next.message, user('/query_order {"order_id":"A-1002"}')] });
    expect(onward.status).toBe(200);
    expect(toolPart((await readTurn(onward)).message, 'query_order')?.state).toBe('output-available');
    expect(await decisions()).toEqual(kept);
  });

  it('the continuation reached the Worker and its answer was lost: the same result is taken again, nothing claimed twice', async () => {
    const id = 'cart-answer-lost';
    const { callId, answered } = await cartCleared(id);
    const lost = await post({ id, messages: answered });
    expect(lost.status).toBe(200);
    await lost.text(); // read by nobody: the answer is lost on the way back
    const kept = await decisions();
    expect(kept).toEqual([{ decision: expect.stringMatching(/^output /) }]);
    const agent = recordingAgent();
    await readTurn(await agent.chat(id, [...answered, user('did the cart get cleared?')]));
    expect(resultsFor(agent.prompts[0], callId)).toHaveLength(1);
    expect(await decisions()).toEqual(kept);
  });
});
