import { type EdgetoolUIMessage, SEAL_PART } from '@edgetool/ai';
import { describe, expect, it } from 'vitest';
import type { FailedRequest } from './chat-storage.ts';
import {
  continuationUnsent,
  endsAtAnswers,
  goesOnAfterFailure,
  refusedContinuation,
  refusedDecisionText,
  unansweredAfterReload,
  unsentDecision,
} from './unsent.ts';

const question: EdgetoolUIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Move A-1003 to 2027-02-01' }] };
const answer = (state: string, extra: Record<string, unknown> = {}): EdgetoolUIMessage =>
  ({
    id: 'a1',
    role: 'assistant',
    parts: [{ type: 'step-start' }, { type: 'tool-update_delivery_date', toolCallId: 'c1', state, input: { order_id: 'A-1003' }, ...extra }],
  }) as EdgetoolUIMessage;
const approved = [question, answer('approval-responded', { approval: { id: 'ap1', approved: true } })];
const denied = [question, answer('approval-responded', { approval: { id: 'ap1', approved: false, reason: 'no' } })];

describe('continuationUnsent', () => {
  it('a decision whose continuation failed, or that a reload brought back before it went: send it again', () => {
    for (const messages of [approved, denied]) {
      expect(continuationUnsent(messages, { busy: false, failed: true, sentHere: true })).toBe(true);
      expect(continuationUnsent(messages, { busy: false, failed: false, sentHere: false })).toBe(true);
    }
  });

  it('not while its continuation is on its way, nor after a request of this page ended without an error (a stop)', () => {
    expect(continuationUnsent(approved, { busy: true, failed: false, sentHere: true })).toBe(false);
    expect(continuationUnsent(approved, { busy: true, failed: false, sentHere: false })).toBe(false);
    expect(continuationUnsent(approved, { busy: false, failed: false, sentHere: true })).toBe(false);
  });

  it('a browser result the server has not sealed is an answer to send too', () => {
    expect(continuationUnsent([question, answer('output-available', { output: {} })], { busy: false, failed: true, sentHere: true })).toBe(true);
  });

  it('nothing to send: a call still waiting for the user, an outcome the server sent (sealed), a question of the user', () => {
    const state = { busy: false, failed: true, sentHere: false };
    expect(continuationUnsent([question, answer('approval-requested', { approval: { id: 'ap1' } })], state)).toBe(false);
    const sealed = answer('output-available', { output: {} });
    sealed.parts.push({ type: SEAL_PART, id: 'c1', data: { toolCallId: 'c1', toolName: 'update_delivery_date', seal: 'et1.k1.seal' } } as never);
    expect(continuationUnsent([question, sealed], state)).toBe(false);
    expect(continuationUnsent([question], state)).toBe(false);
  });
});

describe('endsAtAnswers', () => {
  const seal = { type: SEAL_PART, id: 'c1', data: { toolCallId: 'c1', toolName: 'update_delivery_date', seal: 'es1.k1.seal' } };
  const withParts = (...parts: unknown[]): EdgetoolUIMessage[] => {
    const message = answer('output-available', { output: {} });
    message.parts.push(...(parts as EdgetoolUIMessage['parts']));
    return [question, message];
  };

  it("an answer whose calls are all answered, with none of the model's words after them (seals and step marks only)", () => {
    expect(endsAtAnswers(approved)).toBe(true);
    expect(endsAtAnswers(denied)).toBe(true);
    expect(endsAtAnswers(withParts())).toBe(true);
    // The result's seal, then the model's next step began and failed before a word.
    expect(endsAtAnswers(withParts(seal, { type: 'step-start' }))).toBe(true);
    expect(endsAtAnswers(withParts(seal, { type: 'step-start' }, { type: 'text', text: '  ', state: 'streaming' }))).toBe(true);
    expect(endsAtAnswers([question, answer('output-error', { errorText: 'failed' })])).toBe(true);
    expect(endsAtAnswers([question, answer('output-denied', { approval: { id: 'ap1', approved: false } })])).toBe(true);
  });

  it('not once words came after them, nor with a call unanswered, nor a question of the user', () => {
    expect(endsAtAnswers(withParts(seal, { type: 'step-start' }, { type: 'text', text: 'A-1003 moves', state: 'streaming' }))).toBe(false);
    expect(endsAtAnswers(withParts(seal, { type: 'step-start' }, { type: 'reasoning', text: 'Thinking', state: 'done' }))).toBe(false);
    expect(endsAtAnswers([question, answer('input-available')])).toBe(false);
    expect(endsAtAnswers([question, answer('approval-requested', { approval: { id: 'ap1' } })])).toBe(false);
    expect(endsAtAnswers([question, answer('output-available', { output: {}, preliminary: true })])).toBe(false);
    expect(endsAtAnswers([question])).toBe(false);
    expect(endsAtAnswers([])).toBe(false);
    // A step with a call answered and one the server was still running when the answer stopped.
    const two = answer('output-available', { output: {} });
    two.parts.push({ type: 'tool-query_order', toolCallId: 'c2', state: 'input-available', input: {} } as never);
    expect(endsAtAnswers([question, two])).toBe(false);
    // Words of the model, no call: an answer the error cut in its text.
    expect(endsAtAnswers([question, { id: 'a1', role: 'assistant', parts: [{ type: 'step-start' }, { type: 'text', text: 'A-1003' }] }])).toBe(false);
  });

  it('the calls of the last step with calls count, and words before them in that step do not stop it', () => {
    const message = answer('output-available', { output: {} });
    message.parts.splice(1, 0, { type: 'text', text: 'Let me move it.' } as never);
    expect(endsAtAnswers([question, message])).toBe(true);
  });
});

describe('goesOnAfterFailure', () => {
  const seal = { type: SEAL_PART, id: 'c1', data: { toolCallId: 'c1', toolName: 'update_delivery_date', seal: 'es1.k1.seal' } };
  /** The approved call's result came, sealed, then the next step began: the model's words are missing. */
  const atResults = (metadata?: Record<string, unknown>): EdgetoolUIMessage[] => {
    const message = answer('output-available', { output: { moved: true } });
    message.parts.push(seal as never, { type: 'step-start' });
    return [question, metadata === undefined ? message : { ...message, metadata }];
  };
  const failed = (error: Partial<FailedRequest['error']> = {}, messageId = 'a1'): FailedRequest => ({
    messageId,
    error: { kind: 'stream', status: undefined, code: 'stream-error', message: 'The model provider failed.', ...error },
  });
  const idle = { busy: false };

  it("an answer its request's failure ended at its results offers Retry: the model's error, a cut connection, a 5xx, a 429", () => {
    expect(goesOnAfterFailure(atResults(), failed(), idle)).toBe(true);
    expect(goesOnAfterFailure(atResults(), failed({ kind: 'unreachable', code: 'stream-cut' }), idle)).toBe(true);
    expect(goesOnAfterFailure(atResults(), failed({ kind: 'unreadable', code: 'stream-unreadable' }), idle)).toBe(true);
    expect(goesOnAfterFailure(atResults(), failed({ kind: 'server', status: 502, code: 'http-502' }), idle)).toBe(true);
    expect(goesOnAfterFailure(atResults(), failed({ kind: 'refused', status: 429, code: 'rate-limited' }), idle)).toBe(true);
  });

  it('only then: the same messages ended by the step limit, the token budget or a stop (no failure kept) offer nothing', () => {
    expect(goesOnAfterFailure(atResults({ limit: 'steps' }), undefined, idle)).toBe(false);
    expect(goesOnAfterFailure(atResults({ limit: 'tokens' }), undefined, idle)).toBe(false);
    expect(goesOnAfterFailure(atResults(), undefined, idle)).toBe(false);
  });

  it('not for a failure of another message, while a request is on its way, or after a refusal that would come again', () => {
    // The failure was an earlier answer's; this one ended at its results otherwise.
    expect(goesOnAfterFailure(atResults(), failed({}, 'a0'), idle)).toBe(false);
    expect(goesOnAfterFailure(atResults(), failed(), { busy: true })).toBe(false);
    expect(goesOnAfterFailure(atResults(), failed({ kind: 'refused', status: 403, code: 'ticket-invalid' }), idle)).toBe(false);
    expect(goesOnAfterFailure(atResults(), failed({ kind: 'refused', status: 413, code: 'payload-too-large' }), idle)).toBe(false);
  });

  it("not once the model's words came after the results, nor for answers the server has not taken (the card's Retry sends those)", () => {
    const [, message] = atResults();
    const worded = { ...message, parts: [...(message?.parts ?? []), { type: 'text', text: 'A-1003 moves.' }] } as EdgetoolUIMessage;
    expect(goesOnAfterFailure([question, worded], failed(), idle)).toBe(false);
    expect(goesOnAfterFailure(approved, failed(), idle)).toBe(false);
    expect(goesOnAfterFailure(denied, failed(), idle)).toBe(false);
    expect(goesOnAfterFailure([question], failed({}, 'u1'), idle)).toBe(false);
  });
});

describe('unsentDecision', () => {
  it('names the decision of a call approved or denied whose outcome has not come', () => {
    expect(unsentDecision({ status: 'approved', partState: 'approval-responded' })).toBe('approval');
    expect(unsentDecision({ status: 'denied', partState: 'approval-responded' })).toBe('denial');
    expect(unsentDecision({ status: 'denied', partState: 'output-denied' })).toBeUndefined();
    expect(unsentDecision({ status: 'done', partState: 'output-available' })).toBeUndefined();
    expect(unsentDecision({ status: 'interrupted', partState: 'approval-responded' })).toBeUndefined();
    expect(unsentDecision({ status: 'expired', partState: 'approval-responded' })).toBeUndefined();
  });
});

describe('unansweredAfterReload', () => {
  it("a restored conversation whose last message is the user's got no answer: the page went away before any came", () => {
    expect(unansweredAfterReload([question], { busy: false, sentHere: false })).toBe(true);
    expect(unansweredAfterReload([question, answer('output-available', { output: {} }), { ...question, id: 'u2' }], { busy: false, sentHere: false })).toBe(true);
  });

  it('not while a request is on its way, once this page sent one (its own banner speaks then), nor after an answer', () => {
    expect(unansweredAfterReload([question], { busy: true, sentHere: false })).toBe(false);
    expect(unansweredAfterReload([question], { busy: false, sentHere: true })).toBe(false);
    expect(unansweredAfterReload(approved, { busy: false, sentHere: false })).toBe(false);
    expect(unansweredAfterReload([], { busy: false, sentHere: false })).toBe(false);
  });
});

describe('refusedContinuation', () => {
  const refusal = (error: Partial<FailedRequest['error']> = {}, messageId = 'a1'): FailedRequest => ({
    messageId,
    error: { kind: 'refused', status: 403, code: 'ticket-invalid', message: 'The ticket has already been used.', reason: 'replayed', toolCallId: 'c1', ...error },
  });
  const idle = { busy: false };

  it('a decision whose continuation the server refused in a way a new try meets again (a used or invalid ticket, a 400): no Retry', () => {
    for (const messages of [approved, denied]) expect(refusedContinuation(messages, refusal(), idle)).toEqual(refusal().error);
    expect(refusedContinuation(approved, refusal({ reason: 'bad-signature' }), idle)?.reason).toBe('bad-signature');
    const plain = (status: number, code: string): FailedRequest => ({ messageId: 'a1', error: { kind: 'refused', status, code, message: 'Refused.' } });
    expect(refusedContinuation(approved, plain(403, 'wrong-placement'), idle)?.code).toBe('wrong-placement');
    expect(refusedContinuation(approved, plain(400, 'bad-request'), idle)?.status).toBe(400);
  });

  it('not a failure Retry may get past (no answer, a gateway, a 5xx, a rate limit, the stream), nor while the chat is busy', () => {
    const passing: Partial<FailedRequest['error']>[] = [
      { kind: 'unreachable', status: undefined, code: 'unreachable' },
      { kind: 'unreachable', status: 502, code: 'unreachable' },
      { kind: 'server', status: 500, code: 'internal' },
      { kind: 'refused', status: 429, code: 'rate-limited' },
      { kind: 'stream', status: undefined, code: 'stream-error' },
    ];
    for (const error of passing) expect(refusedContinuation(approved, refusal(error), idle)).toBeUndefined();
    expect(refusedContinuation(approved, refusal(), { busy: true })).toBeUndefined();
  });

  it('only for the answer it refused, while its answers are still unsent', () => {
    expect(refusedContinuation(approved, undefined, idle)).toBeUndefined();
    expect(refusedContinuation(approved, refusal({}, 'u1'), idle)).toBeUndefined();
    expect(refusedContinuation([...approved, { ...question, id: 'u2' }], refusal(), idle)).toBeUndefined();
    expect(refusedContinuation([question, answer('output-denied', { approval: { id: 'ap1', approved: false } })], refusal(), idle)).toBeUndefined();
  });
});

describe('refusedDecisionText', () => {
  const error = (extra: Partial<FailedRequest['error']>): FailedRequest['error'] => ({
    kind: 'refused',
    status: 403,
    code: 'ticket-invalid',
    message: 'The ticket has already been used.',
    toolCallId: 'c1',
    ...extra,
  });

  it('says why in words (never only a 403), that Retry meets the same refusal, and what is left', () => {
    expect(refusedDecisionText('approval', error({ reason: 'replayed' }), 'c1')).toBe(
      'Your approval was refused: its ticket had already been used (another tab, or another copy of this conversation, sent an answer first). ' +
        'Sending it again would be refused the same way. Ask again has the model ask for the call anew; a new message goes on without it.',
    );
    expect(refusedDecisionText('approval', error({ reason: 'conflict' }), 'c1')).toContain('the call had already been answered otherwise');
    expect(refusedDecisionText('approval', error({ reason: 'bad-signature', message: 'The ticket signature is invalid.' }), 'c1')).toContain(
      'the server did not accept its ticket (it was changed, or signed with a key the server no longer has), so nothing ran.',
    );
    // A reason this page does not know, or a prototype key, reads as an invalid ticket.
    expect(refusedDecisionText('approval', error({ reason: 'toString' }), 'c1')).toContain('the server did not accept its ticket');
    // A denial is not asked for again.
    expect(refusedDecisionText('denial', error({ reason: 'replayed' }), 'c1')).toMatch(/^Your denial was refused: .* A new message goes on without it\.$/);
    expect(refusedDecisionText('denial', error({ reason: 'replayed' }), 'c1')).not.toContain('Ask again');
  });

  it("names another call the server refused, and the server's own words for a refusal that is not a ticket's", () => {
    expect(refusedDecisionText('approval', error({ reason: 'replayed', toolCallId: 'c2' }), 'c1')).toContain(
      'the request that carried it was refused for another call (c2): The ticket has already been used. Sending it again',
    );
    const placement: FailedRequest['error'] = { kind: 'refused', status: 403, code: 'wrong-placement', message: 'send_email runs on the server.' };
    expect(refusedDecisionText('approval', placement, 'c1')).toContain(
      'the server refused the request that carried it (HTTP 403, wrong-placement: send_email runs on the server)',
    );
    // Too large to send: a new message or Ask again would be refused too.
    const large: FailedRequest['error'] = { kind: 'refused', status: 413, code: 'payload-too-large', message: 'The request body is over 512 KB.' };
    expect(refusedDecisionText('approval', large, 'c1')).toMatch(/\(HTTP 413, payload-too-large: .*\)\. .* The conversation is too large to send: a new chat goes on\.$/);
    expect(refusedDecisionText('approval', large, 'c1')).not.toContain('Ask again');
  });
});
