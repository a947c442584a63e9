import type { ChatErrorInfo } from '@edgetool/react';
import { describe, expect, it } from 'vitest';
import { cutByError, errorHint, errorMessage, errorTitle, isTooLarge, refusedForRepeat, retryAction, UNANSWERED } from './error-hint.ts';

const refused = (status: number, code: string): ChatErrorInfo => ({ kind: 'refused', status, code, message: 'm' });
const unreachable: ChatErrorInfo = { kind: 'unreachable', status: undefined, code: 'unreachable', message: 'm' };
const gateway: ChatErrorInfo = { kind: 'unreachable', status: 502, code: 'unreachable', message: 'm' };

describe('errorHint', () => {
  it('advice that fits the error', () => {
    expect(errorHint(unreachable)).toBe('unreachable');
    expect(errorHint(refused(403, 'ticket-invalid'))).toBe('ticket');
    expect(errorHint(refused(403, 'wrong-placement'))).toBe('ticket');
    expect(errorHint(refused(413, 'payload-too-large'))).toBe('too-large');
    expect(errorHint(refused(400, 'bad-request'))).toBeUndefined();
    expect(isTooLarge(refused(413, 'x'))).toBe(true);
  });

  it("the Worker's refusal of a call id the conversation holds twice says a new chat goes on, not a new message", () => {
    const duplicate = { ...refused(403, 'ticket-invalid'), toolCallId: 'c1' };
    const context = { server: 'online', answered: false, repeated: new Set(['c1']) } as const;
    expect(errorHint(duplicate, context)).toBe('repeated');
    expect(refusedForRepeat(duplicate, context)).toBe('c1');
    // Nothing to retry: each try is refused the same way.
    expect(retryAction(duplicate, context)).toBeUndefined();
    // A long id comes back cut, as the server names it.
    const long = `c${'x'.repeat(99)}`;
    const cut = { ...duplicate, toolCallId: `${long.slice(0, 48)}… (100 characters)` };
    expect(refusedForRepeat(cut, { ...context, repeated: new Set([long]) })).toBe(long);
    // Another call's refusal, a conversation with no repeat, another refusal of the same id: the ticket advice.
    expect(errorHint({ ...duplicate, toolCallId: 'c2' }, context)).toBe('ticket');
    expect(errorHint(duplicate, { ...context, repeated: new Set() })).toBe('ticket');
    expect(errorHint(duplicate, { server: 'online', answered: false })).toBe('ticket');
    expect(errorHint({ ...refused(403, 'wrong-placement'), toolCallId: 'c1' }, context)).toBe('ticket');
    expect(errorHint({ ...refused(400, 'ticket-invalid'), toolCallId: 'c1' }, context)).toBe('ticket');
  });

  it("an answer the hook ended at its bounds (response-too-large): what came stays, marked cut short, a new message goes on", () => {
    const message = 'The answer was stopped: the server sent more than the 1,000,000 characters this page takes in one response (maxResponseChars).';
    const bounded: ChatErrorInfo = { kind: 'stream', status: undefined, code: 'response-too-large', message };
    const context = { server: 'online', answered: true } as const;
    expect(errorHint(bounded, context)).toBe('cut');
    expect(retryAction(bounded, context)).toBeUndefined();
    expect(cutByError(bounded, context)).toBe(true);
    expect(errorTitle(bounded, context)).toBe('The answer stopped with an error');
    expect(errorMessage(bounded, context)).toBe(message);
  });

  it('a page of another origin (403 forbidden-origin) is not told about tickets and to send a new message', () => {
    expect(errorHint(refused(403, 'forbidden-origin'))).toBe('origin');
  });

  it('a 403 that is not the server\'s own (a firewall\'s or a proxy\'s page, read as http-403) gets no ticket advice', () => {
    expect(errorHint(refused(403, 'http-403'))).toBeUndefined();
    expect(errorHint(refused(403, 'forged-result'))).toBe('ticket');
  });

  it('a request that got no answer while the server answers its health check again: no advice to start the worker', () => {
    for (const error of [unreachable, gateway]) {
      expect(errorHint(error, { server: 'unreachable', answered: false })).toBe('unreachable');
      expect(errorHint(error, { server: 'checking', answered: false })).toBe('unreachable');
      expect(errorHint(error, { server: 'online', answered: false })).toBe('back');
      expect(errorHint(error, { server: 'online', answered: true })).toBe('cut');
    }
    expect(errorTitle(unreachable, { server: 'unreachable', answered: false })).toBe('Server unreachable');
    expect(errorTitle(unreachable, { server: 'online', answered: true })).toBe('The request got no answer');
    expect(errorTitle(refused(403, 'ticket-invalid'), { server: 'online', answered: true })).toBe('The server refused the request');
  });
});

describe('errorMessage', () => {
  it("says what happened to a request once the server answers again: no answer, or an answer cut off midway", () => {
    const cut: ChatErrorInfo = { kind: 'unreachable', status: undefined, code: 'stream-cut', message: 'm' };
    expect(errorMessage(unreachable, { server: 'unreachable', answered: false })).toBe('m');
    expect(errorMessage(unreachable, { server: 'online', answered: false })).toMatch(/^The request failed before the server answered it/);
    // Part of the answer came: not "before the server answered it", beside a hint that says the answer so far stays.
    expect(errorMessage(unreachable, { server: 'online', answered: true })).toBe('The connection closed before the answer ended.');
    expect(errorMessage(cut, { server: 'online', answered: true })).toBe('The connection closed before the answer ended.');
    expect(errorMessage(cut, { server: 'online', answered: false })).toBe('The connection closed before any of the answer came.');
    // A continuation whose answer never came (the user's decisions are kept, Retry sends them).
    expect(errorMessage(cut, { server: 'online', answered: true, unsent: true })).toBe('The connection closed before any of the answer came.');
    expect(errorMessage(gateway, { server: 'online', answered: true })).toBe('m');
    expect(errorMessage(refused(403, 'ticket-invalid'), { server: 'online', answered: true })).toBe('m');
  });
});

describe('retryAction', () => {
  it('the server banner (no request failed): check the server again', () => {
    expect(retryAction(undefined, { server: 'unreachable', answered: false })).toBe('recheck');
  });

  it('a request that got no answer at all is sent again, as it was', () => {
    expect(retryAction(unreachable, { server: 'online', answered: false })).toBe('resend');
    expect(retryAction(gateway, { server: 'unreachable', answered: false })).toBe('resend');
  });

  it('once part of an answer came, Retry checks the server while it is down, and is not offered once it answers', () => {
    expect(retryAction(unreachable, { server: 'unreachable', answered: true })).toBe('recheck');
    expect(retryAction(unreachable, { server: 'checking', answered: true })).toBe('recheck');
    expect(retryAction(unreachable, { server: 'online', answered: true })).toBeUndefined();
  });

  it('a continuation that got no answer (a network error, a gateway 502 or 504) is sent again: the decisions it carried stay', () => {
    const timeout: ChatErrorInfo = { ...gateway, status: 504 };
    for (const error of [unreachable, gateway, timeout]) {
      for (const server of ['online', 'checking', 'unreachable'] as const) {
        expect(retryAction(error, { server, answered: true, unsent: true })).toBe('resend');
      }
      // Not "the answer so far stays, send a new message": nothing came, and a new message would withdraw the decision.
      expect(errorHint(error, { server: 'online', answered: true, unsent: true })).toBe('unsent');
      expect(errorHint(error, { server: 'unreachable', answered: true, unsent: true })).toBe('unreachable');
    }
    // A refusal that would come again stays without Retry, answers unsent or not.
    expect(retryAction(refused(403, 'ticket-invalid'), { server: 'online', answered: true, unsent: true })).toBeUndefined();
  });

  it('a rate limit (429, 408) or a server failure (5xx with its JSON error) is sent again: nothing of an answer came', () => {
    const failed: ChatErrorInfo = { kind: 'server', status: 500, code: 'internal-error', message: 'm' };
    for (const error of [refused(429, 'rate-limited'), refused(408, 'http-408'), failed, { ...failed, status: 503 }]) {
      // The HTTP error came in place of the stream, so the messages are the request that failed, a continuation too.
      expect(retryAction(error, { server: 'online', answered: false })).toBe('resend');
      expect(retryAction(error, { server: 'online', answered: true })).toBe('resend');
    }
    expect(errorHint(refused(429, 'rate-limited'))).toBe('later');
  });

  it('a refusal that comes again the same way has no Retry', () => {
    for (const error of [refused(400, 'bad-request'), refused(403, 'ticket-invalid'), refused(413, 'payload-too-large'), refused(415, 'unsupported')]) {
      expect(retryAction(error, { server: 'online', answered: false })).toBeUndefined();
    }
    expect(retryAction({ kind: 'stream', status: undefined, code: 'stream-error', message: 'm' }, { server: 'online', answered: true })).toBeUndefined();
  });
});

describe('an unreadable answer (a stream line that is not a chat chunk)', () => {
  const unreadable: ChatErrorInfo = { kind: 'unreadable', status: undefined, code: 'stream-unreadable', message: 'm' };

  it('is told in words, never the raw parse error, whether part of the answer came or none', () => {
    expect(errorTitle(unreadable, { server: 'online', answered: false })).toBe('The answer could not be read');
    expect(errorMessage(unreadable, { server: 'online', answered: false })).toBe('None of the answer could be read: the server sent a line that is not part of a chat answer.');
    expect(errorMessage(unreadable, { server: 'online', answered: true, unsent: true })).toMatch(/^None of the answer could be read/);
    expect(errorMessage(unreadable, { server: 'online', answered: true })).toBe(
      'Part of the answer came, then a line that is not part of a chat answer: the rest could not be read.',
    );
  });

  it('Retry sends it again when nothing of the answer came, as a cut one: not once part of it did', () => {
    for (const server of ['online', 'checking', 'unreachable'] as const) {
      expect(retryAction(unreadable, { server, answered: false })).toBe('resend');
      expect(retryAction(unreadable, { server, answered: true, unsent: true })).toBe('resend');
      expect(retryAction(unreadable, { server, answered: true })).toBeUndefined();
      expect(errorHint(unreadable, { server, answered: false })).toBe('resend');
      expect(errorHint(unreadable, { server, answered: true, unsent: true })).toBe('unsent');
      expect(errorHint(unreadable, { server, answered: true })).toBe('cut');
    }
  });
});

describe('a message a reload left unanswered', () => {
  it('says it got no answer and is not sent by itself; Retry sends it', () => {
    const context = { server: 'online', answered: false } as const;
    expect(errorTitle(UNANSWERED, context)).toBe('Your message got no answer');
    expect(errorMessage(UNANSWERED, context)).toBe('The page was reloaded before any of the answer to your message came.');
    expect(errorHint(UNANSWERED, context)).toBe('reloaded');
    expect(retryAction(UNANSWERED, context)).toBe('resend');
  });
});

describe('an error in the middle of an answer', () => {
  const stream: ChatErrorInfo = { kind: 'stream', status: undefined, code: 'stream-error', message: 'The model provider failed.' };
  const unreadable: ChatErrorInfo = { kind: 'unreadable', status: undefined, code: 'stream-unreadable', message: 'm' };
  const cutOff: ChatErrorInfo = { kind: 'unreachable', status: undefined, code: 'stream-cut', message: 'm' };
  const server: ChatErrorInfo = { kind: 'server', status: 500, code: 'internal', message: 'm' };

  it("says that what came stays and a new message goes on, once part of the answer came (the server's error had no advice)", () => {
    expect(errorHint(stream, { server: 'online', answered: true })).toBe('cut');
    expect(errorTitle(stream, { server: 'online', answered: true })).toBe('The answer stopped with an error');
    expect(retryAction(stream, { server: 'online', answered: true })).toBeUndefined();
  });

  it('before any of the answer came (the page drops the empty answer): says so, Retry sends the message again, nothing is cut', () => {
    // It said the answer so far stays "since part of it had come", marked an empty answer cut short, and had no Retry.
    for (const server of ['online', 'checking', 'unreachable'] as const) {
      const context = { server, answered: false } as const;
      expect(errorTitle(stream, context)).toBe('The answer failed before any of it came');
      expect(errorHint(stream, context)).toBe('failed');
      expect(retryAction(stream, context)).toBe('resend');
      expect(cutByError(stream, context)).toBe(false);
    }
  });

  it('a continuation whose answer failed before any of it came, or right after the calls\' results: Retry sends it again', () => {
    // The server's error before the continuation's first word had no Retry: sending the same tickets again was thought
    // unsafe, but the server takes the same answers again and runs no call twice (packages/ai failed-continuation.test.ts).
    for (const server of ['online', 'checking', 'unreachable'] as const) {
      expect(retryAction(stream, { server, answered: true, unsent: true })).toBe('resend');
      expect(errorHint(stream, { server, answered: true, unsent: true })).toBe('unsent');
      expect(cutByError(stream, { server, answered: true, unsent: true })).toBe(false);
      // The answers were taken (their results and seals came), the model's words did not: Retry goes on from them.
      const atAnswers = { server, answered: true, atAnswers: true } as const;
      expect(retryAction(stream, atAnswers)).toBe('resend');
      expect(errorHint(stream, atAnswers)).toBe('goes-on');
      expect(retryAction(unreadable, atAnswers)).toBe('resend');
      expect(errorHint(unreadable, atAnswers)).toBe('goes-on');
      expect(retryAction(cutOff, atAnswers)).toBe('resend');
      // Marked cut short until a Retry goes on with it (a dismissed banner or a reload would leave it looking finished).
      expect(cutByError(stream, atAnswers)).toBe(true);
    }
    expect(errorHint(cutOff, { server: 'online', answered: true, atAnswers: true })).toBe('goes-on');
    expect(errorHint(cutOff, { server: 'unreachable', answered: true, atAnswers: true })).toBe('unreachable');
    // Unsent answers come first: the user's decisions are what goes again.
    expect(errorHint(stream, { server: 'online', answered: true, unsent: true, atAnswers: true })).toBe('unsent');
    // Words of the model came after the results: nothing to go on from, as before.
    expect(retryAction(stream, { server: 'online', answered: true, atAnswers: false })).toBeUndefined();
    // A refusal that would come again stays without Retry.
    expect(retryAction(refused(403, 'ticket-invalid'), { server: 'online', answered: true, atAnswers: true })).toBeUndefined();
  });

  it('cuts the answer short when it ended one that had begun: not an error in place of the answer, nor an unsent decision', () => {
    for (const error of [stream, unreadable, cutOff, unreachable]) {
      expect(cutByError(error, { server: 'online', answered: true })).toBe(true);
      expect(cutByError(error, { server: 'unreachable', answered: true })).toBe(true);
      expect(cutByError(error, { server: 'online', answered: false })).toBe(false);
      expect(cutByError(error, { server: 'online', answered: true, unsent: true })).toBe(false);
    }
    for (const error of [server, gateway, refused(429, 'rate-limited'), refused(403, 'ticket-invalid'), UNANSWERED]) {
      expect(cutByError(error, { server: 'online', answered: true })).toBe(false);
    }
  });
});
