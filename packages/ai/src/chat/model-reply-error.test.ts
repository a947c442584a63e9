import { APICallError, InvalidResponseDataError, JSONParseError, TypeValidationError } from '@ai-sdk/provider';
import { RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { defaultErrorMessage } from './chat-agent.ts';
import { ModelReplyError, modelReplyError } from './model-reply-error.ts';

const url = 'http://127.0.0.1:1/v1/chat/completions';
/** What @ai-sdk/openai throws for a 200 body its schema refuses ("Invalid JSON response"). */
const refusedBody = (value: unknown, issues: unknown[] = []) =>
  new APICallError({ message: 'Invalid JSON response', url, requestBodyValues: {}, statusCode: 200, responseBody: JSON.stringify(value), cause: new TypeValidationError({ value, cause: { issues } }) });
/** What it throws for an SSE error event before any output: a status of its own making, the event's error object as data. */
const streamedError = (data: unknown, statusCode = 500) =>
  new APICallError({ message: 'x', url, requestBodyValues: {}, statusCode, responseHeaders: { 'content-type': 'text/event-stream; charset=utf-8' }, data });

describe('modelReplyError', () => {
  it('an error object in a 200 body, or in a stream\'s first event: what the server said, its code, the provider\'s error as cause', () => {
    const body = refusedBody({ error: { message: 'Internal Server Error', code: 500 }, user_id: 'u' });
    expect(modelReplyError(body)).toMatchObject({ fault: 'error-reply', serverMessage: 'Internal Server Error', code: 500, cause: body });
    expect(modelReplyError(refusedBody({ error: 'model not found' }))).toMatchObject({ fault: 'error-reply', serverMessage: 'model not found', code: undefined });
    const event = streamedError({ message: 'Overloaded', code: 'overloaded' }, 503);
    expect(modelReplyError(event)).toMatchObject({ fault: 'error-reply', serverMessage: 'Overloaded', code: 'overloaded', cause: event });
  });

  it('an HTTP error status, a network failure, an abort, our own errors: left as they are', () => {
    const http = new APICallError({ message: 'Bad gateway', url, requestBodyValues: {}, statusCode: 502, responseHeaders: { 'content-type': 'application/json' }, data: { error: { message: 'Bad gateway' } } });
    for (const error of [http, new TypeError('fetch failed'), new DOMException('aborted', 'AbortError'), 'text', undefined]) expect(modelReplyError(error)).toBeUndefined();
    const ours = new ModelReplyError({ fault: 'unreadable', serverMessage: 'x' });
    expect(modelReplyError(ours)).toBe(ours);
  });

  it('a reply the provider cannot read: the issues of the union branch the reply was meant to be, with their paths', () => {
    const issues = [
      {
        code: 'invalid_union',
        path: [],
        message: 'Invalid input',
        errors: [
          [{ code: 'invalid_type', path: ['choices', 0, 'delta', 'tool_calls', 0, 'index'], message: 'Invalid input: expected number, received undefined' }],
          [{ code: 'invalid_type', path: ['error'], message: 'Invalid input: expected object, received undefined' }],
        ],
      },
    ];
    const chunk = new TypeValidationError({ value: { choices: [] }, cause: { issues } });
    expect(modelReplyError(chunk)).toMatchObject({
      fault: 'unreadable',
      serverMessage: 'choices[0].delta.tool_calls[0].index: Invalid input: expected number, received undefined.',
      message:
        "The model's server sent a reply its provider cannot read (the server's fault, not the model's): choices[0].delta.tool_calls[0].index: Invalid input: expected number, received undefined.",
      cause: chunk,
    });
    const root = refusedBody('<html>', [{ code: 'invalid_type', path: [], message: 'Invalid input: expected object, received string' }]);
    expect(modelReplyError(root)?.serverMessage).toBe('(root): Invalid input: expected object, received string.');
    expect(modelReplyError(new JSONParseError({ text: '<html>bad gateway</html>', cause: new SyntaxError('x') }))?.serverMessage).toBe('it is not JSON ("<html>bad gateway</html>").');
    expect(modelReplyError(new InvalidResponseDataError({ data: {}, message: "Expected 'function.name' to be a string." }))?.serverMessage).toBe("Expected 'function.name' to be a string.");
  });

  it('the AI SDK\'s RetryError whose last try was an error reply: that reply, the RetryError its cause', () => {
    const retried = new RetryError({ message: 'Failed after 2 attempts', reason: 'maxRetriesExceeded', errors: [streamedError({ message: 'a' }), streamedError({ message: 'b', code: 502 })] });
    expect(modelReplyError(retried)).toMatchObject({ fault: 'error-reply', serverMessage: 'b', code: 502, cause: retried });
    const http = new APICallError({ message: 'boom', url, requestBodyValues: {}, statusCode: 500 });
    expect(modelReplyError(new RetryError({ message: 'Failed', reason: 'maxRetriesExceeded', errors: [http] }))).toBeUndefined();
  });
});

it('the client reads the fault, not the server\'s words (defaultErrorMessage)', () => {
  expect(defaultErrorMessage(new ModelReplyError({ fault: 'error-reply', serverMessage: 'secret upstream detail' }))).toBe("The model's server answered with an error.");
  expect(defaultErrorMessage(new ModelReplyError({ fault: 'unreadable', serverMessage: 'choices: x' }))).toBe("The model's server sent a reply that could not be read.");
  expect(ModelReplyError.isInstance({ [Symbol.for('edgetool.ModelReplyError')]: true })).toBe(true);
});
