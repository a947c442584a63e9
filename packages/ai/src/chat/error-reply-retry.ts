// Not in the barrel: how the text turn's model has the AI SDK retry an error reply of a transient code.
import { APICallError } from '@ai-sdk/provider';
import { modelReplyError } from './model-reply-error.ts';

/**
 * Whether an error reply's `code` says the server may answer the same request next time: an HTTP status of a busy or
 * failing upstream (408, 409, 429, 5xx, as a number or its digits, as OpenRouter sends them) or a word for one
 * (`rate_limit_exceeded`, `overloaded`, `server_error`, `timeout`, `unavailable`). A quota that ran out
 * (`insufficient_quota`) and a reply with no code are not: the same request would fail the same way, or nobody knows.
 */
export function transientReplyCode(code: string | number | undefined): boolean {
  if (code === undefined) return false;
  const status = typeof code === 'number' ? code : /^\d{3}$/.test(code) ? Number(code) : undefined;
  if (status !== undefined) return status === 408 || status === 409 || status === 429 || (status >= 500 && status <= 599);
  const word = String(code).toLowerCase();
  if (word.includes('quota')) return false;
  return ['rate_limit', 'overload', 'server_error', 'timeout', 'unavailable'].some((term) => word.includes(term));
}

/**
 * `error` made retryable for the AI SDK when it is the provider's report of an error reply (a 200 whose body is the
 * server's error object) with a {@link transientReplyCode}: an `APICallError` of the same fields with `isRetryable`,
 * which `maxRetries` retries as it does a 429 or a 5xx (after the delay its `retry-after` headers ask for, else its
 * backoff). Anything else comes back as it is.
 */
export function retryableErrorReply(error: unknown): unknown {
  if (!APICallError.isInstance(error) || error.isRetryable) return error;
  const reply = modelReplyError(error);
  if (reply?.fault !== 'error-reply' || !transientReplyCode(reply.code)) return error;
  const { message, url, requestBodyValues, statusCode, responseHeaders, responseBody, data, cause } = error;
  return new APICallError({
    message,
    url,
    requestBodyValues,
    ...(statusCode === undefined ? {} : { statusCode }),
    ...(responseHeaders === undefined ? {} : { responseHeaders }),
    ...(responseBody === undefined ? {} : { responseBody }),
    data,
    cause,
    isRetryable: true,
  });
}
