import { APICallError, TypeValidationError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { retryableErrorReply, transientReplyCode } from './error-reply-retry.ts';

/** What `@ai-sdk/openai` throws for a 200 whose body is `value`: its schema refused it. */
const refused200 = (value: unknown, headers: Record<string, string> = {}) =>
  new APICallError({
    message: 'Invalid JSON response',
    url: 'http://127.0.0.1/v1/chat/completions',
    requestBodyValues: {},
    statusCode: 200,
    responseHeaders: headers,
    responseBody: JSON.stringify(value),
    cause: new TypeValidationError({ value, cause: new Error('refused') }),
  });

describe('transientReplyCode', () => {
  it('reads a busy or failing upstream in a status (number or digits) or a word; not a quota, a client error or no code', () => {
    for (const code of [408, 409, 429, 500, 502, 503, 529, '429', '502', 'rate_limit_exceeded', 'overloaded', 'Overloaded_Error', 'server_error', 'timeout', 'service_unavailable']) {
      expect(transientReplyCode(code), String(code)).toBe(true);
    }
    for (const code of [undefined, 200, 400, 401, 403, 404, 413, 600, '400', '5000', 'insufficient_quota', 'rate_limit_quota', 'invalid_request_error', 'context_length_exceeded', '']) {
      expect(transientReplyCode(code), String(code)).toBe(false);
    }
  });
});

describe('retryableErrorReply', () => {
  it('makes an error reply of a transient code retryable, keeping its fields (the headers a retry waits by, the body, the cause)', () => {
    const error = refused200({ error: { message: 'Provider returned error', code: 502 } }, { 'retry-after': '1' });
    const retryable = retryableErrorReply(error);
    expect(APICallError.isInstance(retryable)).toBe(true);
    expect(retryable).not.toBe(error);
    expect(retryable).toMatchObject({ isRetryable: true, statusCode: 200, responseHeaders: { 'retry-after': '1' }, responseBody: error.responseBody, message: 'Invalid JSON response' });
    expect((retryable as APICallError).cause).toBe(error.cause);
  });

  it('leaves every other error as it is: another code, no code, a body that is no error object, another error', () => {
    for (const error of [
      refused200({ error: { message: 'No', code: 400 } }),
      refused200({ error: { message: 'No' } }),
      refused200({ error: 'model "llama3" not found' }),
      refused200({ choices: 'none' }),
      new APICallError({ message: 'Bad request', url: 'u', requestBodyValues: {}, statusCode: 400 }),
      new Error('boom'),
    ]) {
      expect(retryableErrorReply(error)).toBe(error);
    }
  });
});
