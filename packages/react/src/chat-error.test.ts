import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { describeChatError } from './chat-error.ts';

function apiError(status: number, body: string): APICallError {
  return new APICallError({ message: body || 'Failed', url: '/api/chat', requestBodyValues: undefined, statusCode: status, responseBody: body });
}

describe('describeChatError', () => {
  it('reads the server error body of a refused continuation (403)', () => {
    const body = JSON.stringify({ error: { code: 'ticket-invalid', message: 'Refused the approval for "update_delivery_date" (c1): already been used.' } });
    expect(describeChatError(apiError(403, body))).toEqual({
      kind: 'refused',
      status: 403,
      code: 'ticket-invalid',
      message: 'Refused the approval for "update_delivery_date" (c1): already been used.',
    });
  });

  it('keeps the reason and the call of a refused continuation when the server names them (an expired approval)', () => {
    const body = JSON.stringify({
      error: { code: 'ticket-invalid', message: 'Refused the approval (c1): The ticket has expired.', problem: 'forged-approval', reason: 'expired', toolCallId: 'c1' },
    });
    expect(describeChatError(apiError(403, body))).toEqual({
      kind: 'refused',
      status: 403,
      code: 'ticket-invalid',
      message: 'Refused the approval (c1): The ticket has expired.',
      reason: 'expired',
      toolCallId: 'c1',
    });
    const odd = JSON.stringify({ error: { code: 'ticket-invalid', message: 'x', reason: 42, toolCallId: null } });
    expect(describeChatError(apiError(403, odd))).toEqual({ kind: 'refused', status: 403, code: 'ticket-invalid', message: 'x' });
  });

  it('a 5xx with an error body is a server error; without one (proxy, gateway) the server is unreachable', () => {
    expect(describeChatError(apiError(500, JSON.stringify({ error: { code: 'internal-error', message: 'boom' } })))).toMatchObject({ kind: 'server', code: 'internal-error' });
    expect(describeChatError(apiError(502, ''))).toMatchObject({ kind: 'unreachable', status: 502 });
    expect(describeChatError(apiError(500, '<html>proxy error</html>'))).toMatchObject({ kind: 'unreachable', status: 500 });
  });

  it('a 4xx without our body keeps its text', () => {
    expect(describeChatError(apiError(404, 'Not Found'))).toEqual({ kind: 'refused', status: 404, code: 'http-404', message: 'Not Found' });
  });

  it('network failures are unreachable; other errors come from the stream', () => {
    expect(describeChatError(new TypeError('Failed to fetch'))).toMatchObject({ kind: 'unreachable', code: 'unreachable' });
    expect(describeChatError(new Error('The model call failed.'))).toEqual({ kind: 'stream', status: undefined, code: 'stream-error', message: 'The model call failed.' });
    expect(describeChatError(undefined)).toBeUndefined();
  });
});
