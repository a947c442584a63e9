import { APICallError, InvalidResponseDataError, JSONParseError, TypeValidationError } from '@ai-sdk/provider';
import { RetryError, StreamProviderError } from 'ai';

const MARKER: unique symbol = Symbol.for('edgetool.ModelReplyError');

/**
 * What the model's server did wrong: `error-reply`, it accepted the request (a 200) and sent an error object where the
 * answer goes (OpenRouter's upstream errors, an SSE `error` event); `unreadable`, it sent a reply its provider cannot read
 * (a tool call delta without `index`, `function.arguments` as an object, a body that is no completion).
 */
export type ModelReplyFault = 'error-reply' | 'unreadable';

/**
 * The model's server answered a turn with an error in place of an answer, or with a reply its provider cannot read: the
 * server's fault, not the model's nor the app's. The message says what the server said (or what could not be read); the
 * provider's own error (`AI_APICallError` "Invalid JSON response", `AI_TypeValidationError`, ...) is its `cause`.
 * A UI turn's client reads only a line that names the fault (see `defaultErrorMessage`), not the server's words.
 */
export class ModelReplyError extends Error {
  readonly fault: ModelReplyFault;
  /** The server's own message (an error reply), or what could not be read. */
  readonly serverMessage: string;
  /** The error object's `code` as the server sent it (an error reply that had one). */
  readonly code: string | number | undefined;

  constructor(options: { fault: ModelReplyFault; serverMessage: string; code?: string | number | undefined; cause?: unknown }) {
    const { fault, serverMessage, code } = options;
    super(
      fault === 'error-reply'
        ? `The model's server answered with an error in place of a reply: ${JSON.stringify(serverMessage)}${code === undefined ? '' : ` (code ${code})`}.`
        : `The model's server sent a reply its provider cannot read (the server's fault, not the model's): ${serverMessage}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'ModelReplyError';
    Object.defineProperty(this, MARKER, { value: true });
    this.fault = fault;
    this.serverMessage = serverMessage;
    this.code = code;
  }

  /** True for a `ModelReplyError`, even one from another copy of the package. */
  static isInstance(value: unknown): value is ModelReplyError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}

/**
 * `error` as a {@link ModelReplyError} when it is the provider's report of an error reply or of a reply it cannot read
 * (also as the last try of the AI SDK's `RetryError`, which becomes the cause), else `undefined`: an HTTP error status,
 * a network failure or an abort stay what they are.
 */
export function modelReplyError(error: unknown): ModelReplyError | undefined {
  if (ModelReplyError.isInstance(error)) return error;
  if (RetryError.isInstance(error)) {
    const last = fromProvider(error.lastError, error);
    return last === undefined ? undefined : new ModelReplyError({ fault: last.fault, serverMessage: last.serverMessage, code: last.code, cause: error });
  }
  return fromProvider(error, error);
}

function fromProvider(error: unknown, cause: unknown): ModelReplyError | undefined {
  if (StreamProviderError.isInstance(error)) return new ModelReplyError({ fault: 'error-reply', serverMessage: error.message, code: error.code, cause });
  if (APICallError.isInstance(error)) {
    // An error event before any output of a stream: the provider throws it as an APICallError with a status of its own
    // making, but the response was the 200 event stream.
    const streamed = /^text\/event-stream/i.test(error.responseHeaders?.['content-type'] ?? '');
    const accepted = error.statusCode !== undefined && error.statusCode >= 200 && error.statusCode < 300;
    if (!streamed && !accepted) return undefined;
    // Its `data` is the event's error object (`{ message, code }`); a 200 body the schema refused is the cause's value.
    const said = streamed ? errorFields(error.data) : TypeValidationError.isInstance(error.cause) ? errorObject(error.cause.value) : undefined;
    if (said !== undefined) return new ModelReplyError({ fault: 'error-reply', ...said, cause });
    return accepted ? unreadable(error.cause, cause) : undefined;
  }
  return unreadable(error, cause);
}

/** A reply the provider could not read: a body or chunk its schema refused, text that is no JSON, data it cannot use. */
function unreadable(error: unknown, cause: unknown): ModelReplyError | undefined {
  const serverMessage = TypeValidationError.isInstance(error)
    ? issuesOf(error.cause)
    : JSONParseError.isInstance(error)
      ? `it is not JSON (${error.text.length > 60 ? `${JSON.stringify(error.text.slice(0, 60))}…` : JSON.stringify(error.text)}).`
      : InvalidResponseDataError.isInstance(error)
        ? error.message
        : undefined;
  return serverMessage === undefined ? undefined : new ModelReplyError({ fault: 'unreadable', serverMessage, cause });
}

/** The message and code of an error object a server sent in place of a reply: `{ error: { message, code } }` or `{ error: "…" }`. */
function errorObject(value: unknown): { serverMessage: string; code?: string | number } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const inner = (value as { error?: unknown }).error;
  return typeof inner === 'string' ? { serverMessage: inner } : errorFields(inner);
}

/** The `message` and `code` of an error object. */
function errorFields(inner: unknown): { serverMessage: string; code?: string | number } | undefined {
  if (typeof inner !== 'object' || inner === null) return undefined;
  const { message, code } = inner as { message?: unknown; code?: unknown };
  if (typeof message !== 'string') return undefined;
  return typeof code === 'string' || typeof code === 'number' ? { serverMessage: message, code } : { serverMessage: message };
}

type Issue = { readonly path?: readonly PropertyKey[]; readonly message?: string; readonly code?: string; readonly errors?: readonly (readonly Issue[])[] };

/**
 * The schema issues of a refused reply, as `path: message` (the first three). Of a union's branches (a chunk or an error
 * object), the one whose first issue lies deepest: the branch the reply was meant to be.
 */
function issuesOf(schemaError: unknown): string {
  const top = (schemaError as { issues?: readonly Issue[] } | undefined)?.issues;
  if (!Array.isArray(top) || top.length === 0) return 'its shape is not the one the provider reads.';
  const flat = (issues: readonly Issue[]): Issue[] =>
    issues.flatMap((issue) => {
      const branches: readonly (readonly Issue[])[] = Array.isArray(issue.errors) ? issue.errors : [];
      if (issue.code !== 'invalid_union' || branches.length === 0) return [issue];
      const depth = (branch: readonly Issue[]): number => branch[0]?.path?.length ?? 0;
      const branch = branches.reduce((best, next) => (depth(next) > depth(best) ? next : best));
      return flat(branch.map((inner: Issue) => ({ ...inner, path: [...(issue.path ?? []), ...(inner.path ?? [])] })));
    });
  const shown = flat(top).slice(0, 3).map((issue) => `${pathText(issue.path ?? [])}: ${issue.message ?? 'invalid'}`);
  return `${shown.join('; ')}.`;
}

/** `choices[0].delta.tool_calls[0].index`, or `(root)`. */
function pathText(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`)).join('');
}
