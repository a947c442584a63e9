import { APICallError, JSONParseError, TypeValidationError } from 'ai';
import { describe, expect, it } from 'vitest';
import { describeChatError, QUOTED_BODY_CHARS } from './chat-error.ts';

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

  it("a proxy's HTML page is described in words, never shown: the status, and who answered with what", () => {
    const page = (status: number, title: string) =>
      `<!DOCTYPE html>\n<html><head><title>${status} ${title}</title><style>body{font:14px sans-serif}</style></head>` +
      `<body><center><h1>${status} ${title}</h1></center><hr><center>nginx</center><script>track()</script></body></html>`;
    expect(describeChatError(apiError(502, page(502, 'Bad Gateway')))).toEqual({
      kind: 'unreachable',
      status: 502,
      code: 'unreachable',
      message: "HTTP 502 (Bad Gateway): the server or a proxy in front of it answered with an HTML page instead of the chat's answer.",
    });
    expect(describeChatError(apiError(504, page(504, 'Gateway Time-out')))).toMatchObject({
      kind: 'unreachable',
      status: 504,
      message: "HTTP 504 (Gateway Timeout): the server or a proxy in front of it answered with an HTML page instead of the chat's answer.",
    });
    // A 4xx page (a firewall's, a CDN's) stays a refusal with its status code; its markup goes too.
    expect(describeChatError(apiError(403, page(403, 'Forbidden')))).toEqual({
      kind: 'refused',
      status: 403,
      code: 'http-403',
      message: "HTTP 403 (Forbidden): the server or a proxy in front of it answered with an HTML page instead of the chat's answer.",
    });
    expect(describeChatError(apiError(418, '<p>short and stout</p>'))?.message).toBe(
      "HTTP 418: the server or a proxy in front of it answered with an HTML page instead of the chat's answer.",
    );
    // A fragment without a doctype or <html>, in capitals, and a stream that failed on a page.
    expect(describeChatError(apiError(500, '<H1>Proxy Error</H1>'))?.message).not.toMatch(/[<>]/);
    expect(describeChatError(new Error('Unexpected token: <html lang="en"><body>…'))).toEqual({
      kind: 'stream',
      status: undefined,
      code: 'stream-error',
      message: "The server or a proxy in front of it answered with an HTML page instead of the chat's answer.",
    });
  });

  it('a long body is described the same way: an HTML page by its status, plain text quoted on one line and cut', () => {
    const long = `<html><body>${'<div>Cloudflare Ray ID: 8c1f2e</div>\n'.repeat(2000)}</body></html>`;
    const html = describeChatError(apiError(504, long));
    expect(html?.message).toBe("HTTP 504 (Gateway Timeout): the server or a proxy in front of it answered with an HTML page instead of the chat's answer.");
    const text = `upstream connect error or disconnect/reset before headers.\n${'reset reason: overflow; '.repeat(100)}`;
    const quoted = describeChatError(apiError(429, text))?.message ?? '';
    expect(quoted).toHaveLength(QUOTED_BODY_CHARS);
    expect(quoted.startsWith('upstream connect error or disconnect/reset before headers. reset reason: overflow;')).toBe(true);
    expect(quoted.endsWith('…')).toBe(true);
    expect(quoted).not.toContain('\n');
  });

  it('a JSON body of ours keeps its code and message, whatever its length; an empty body says the status', () => {
    const message = `Refused: ${'x'.repeat(500)}`;
    expect(describeChatError(apiError(413, JSON.stringify({ error: { code: 'payload-too-large', message } })))).toEqual({
      kind: 'refused',
      status: 413,
      code: 'payload-too-large',
      message,
    });
    // A message that quotes markup is the server's own words, kept as they are (React renders them as text).
    const quoting = JSON.stringify({ error: { code: 'invalid-request', message: 'The body was <html>, not JSON.' } });
    expect(describeChatError(apiError(400, quoting))).toMatchObject({ code: 'invalid-request', message: 'The body was <html>, not JSON.' });
    expect(describeChatError(apiError(404, ''))).toEqual({ kind: 'refused', status: 404, code: 'http-404', message: 'The server refused the request: HTTP 404 (Not Found), with no message.' });
  });

  it('network failures are unreachable; other errors come from the stream', () => {
    expect(describeChatError(new TypeError('Failed to fetch'))).toMatchObject({ kind: 'unreachable', code: 'unreachable' });
    expect(describeChatError(new Error('The model call failed.'))).toEqual({ kind: 'stream', status: undefined, code: 'stream-error', message: 'The model call failed.' });
    expect(describeChatError(undefined)).toBeUndefined();
  });

  it('a stream line that is not a chat chunk is unreadable, in words: never the raw "JSON parsing failed: …" text or the line', () => {
    const unreadable = { kind: 'unreadable', status: undefined, code: 'stream-unreadable' };
    const json = describeChatError(new JSONParseError({ text: '{"type":"text-delta", oops', cause: new SyntaxError('Unexpected token o') }));
    expect(json).toMatchObject(unreadable);
    expect(json?.message).toMatch(/^The server's answer could not be read: its stream held a line that is not part of a chat answer/);
    expect(json?.message).not.toMatch(/JSON parsing failed|oops/);
    // JSON, but no chunk the AI SDK knows; and a proxy's page in the stream.
    expect(describeChatError(new TypeValidationError({ value: { type: 'bogus' }, cause: new Error('invalid union') }))).toMatchObject(unreadable);
    expect(describeChatError(new JSONParseError({ text: '<html><body>502</body></html>', cause: new SyntaxError('x') }))).toEqual({ ...unreadable, message: json?.message });
  });
});
