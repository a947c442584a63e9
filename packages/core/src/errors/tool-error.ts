const MARKER: unique symbol = Symbol.for('edgetool.error') as never;

/** Stable machine-readable codes. Clients and models may switch on these; never rename one. */
export type ToolErrorCode =
  /** The model's arguments were not valid JSON, or had a key that could change an object's prototype (see `issues`). */
  | 'invalid-json'
  /** No tool of that name is registered (the message lists the available ones). */
  | 'unknown-tool'
  /** The arguments did not match the tool's input schema (see `issues`). */
  | 'invalid-input'
  /** The tool's result did not match its declared output schema, or could not be converted for the model. */
  | 'invalid-output'
  /** The tool threw. */
  | 'execution-failed'
  /** The tool did not finish within its `timeoutMs`, or the caller's signal timed out (`AbortSignal.timeout()`). */
  | 'timeout'
  /** The caller aborted the call (for another reason than a timeout). */
  | 'aborted'
  /** The call needs a human approval before it runs. Reserved: the executor reports this as an `approval-required` outcome, never as an error. */
  | 'approval-required'
  /** A human denied the call. */
  | 'approval-denied'
  /** A ticket was missing, forged, tampered with, expired, replayed or for another call. */
  | 'ticket-invalid'
  /** The call may not run here (for example a client-only tool on the server). */
  | 'wrong-placement'
  /** An interceptor broke the chain contract (for example called `next()` twice). */
  | 'chain-misuse'
  /** Two tools share a name in one registry. */
  | 'duplicate-tool'
  /** Resolvers delegate in a circle (a registry or resolver asked again for a name it is looking up, or to list names). */
  | 'resolver-cycle'
  /** A rate limit (`policy.rateLimit`) or a call limit (`policy.maxCallsPerRun`) refused the call. */
  | 'rate-limited';

/** One validation problem, with the path into the input so a model can fix its arguments. */
export interface ToolIssue {
  readonly path: string;
  readonly message: string;
}

/** Options for {@link ToolError}. */
export interface ToolErrorOptions {
  readonly toolName?: string | undefined;
  readonly callId?: string | undefined;
  readonly issues?: readonly ToolIssue[] | undefined;
  readonly cause?: unknown;
  /** Whether trying the same call again may succeed (timeouts, transient failures). */
  readonly retryable?: boolean | undefined;
  /** The message was not written for the model (see {@link ToolError.unexpected}). */
  readonly unexpected?: boolean | undefined;
}

/**
 * Every failure of a tool call is a `ToolError` with a stable `code`. Detect it with
 * `ToolError.isInstance` (safe when the package is bundled twice), not `instanceof`.
 */
export class ToolError extends Error {
  readonly code: ToolErrorCode;
  readonly toolName: string | undefined;
  readonly callId: string | undefined;
  readonly issues: readonly ToolIssue[] | undefined;
  readonly retryable: boolean;
  /**
   * The message was not written for the model: edgetool wrapped something thrown that was no `ToolError` (a plain
   * `Error`, a `TypeError`, a rejected `fetch`, a lazy tool that failed to load), or quoted one in its own message. What
   * the executor's `toolErrorMessage: 'hide-unexpected'` keeps from the model. Throw a `ToolError` for words meant for it.
   */
  readonly unexpected: boolean;

  constructor(code: ToolErrorCode, message: string, options: ToolErrorOptions = {}) {
    // Node runs a user's .ts without checking it: `new ToolError({ code, message })` would read "Error ([object Object]): ".
    if (typeof code !== 'string') {
      const got = code === null ? 'null' : Array.isArray(code) ? 'an array' : typeof code === 'object' ? 'an object' : typeof code;
      throw new TypeError(`ToolError takes (code, message, options?), as in new ToolError('execution-failed', 'No such order.'): its code was ${got}.`);
    }
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolError';
    Object.defineProperty(this, MARKER, { value: true });
    this.code = code;
    this.toolName = options.toolName;
    this.callId = options.callId;
    this.issues = options.issues;
    this.retryable = options.retryable ?? false;
    this.unexpected = options.unexpected ?? false;
  }

  /** True for any edgetool `ToolError`, even one from another copy of the package. */
  static isInstance(value: unknown): value is ToolError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  /** A plain, serialisable view (what goes over the wire and to the model). */
  toJSON(): ToolErrorJSON {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      ...(this.toolName === undefined ? {} : { toolName: this.toolName }),
      ...(this.callId === undefined ? {} : { callId: this.callId }),
      ...(this.issues === undefined ? {} : { issues: this.issues }),
      retryable: this.retryable,
    };
  }
}

/** The serialised form of a {@link ToolError}. */
export interface ToolErrorJSON {
  readonly name: string;
  readonly code: ToolErrorCode;
  readonly message: string;
  readonly toolName?: string;
  readonly callId?: string;
  readonly issues?: readonly ToolIssue[];
  readonly retryable: boolean;
}

/**
 * Wraps anything thrown into a `ToolError` marked `unexpected` (its message was not written for the model), keeping an
 * existing one as is. The message is an `Error`'s, a string, or a thrown object's string `message` (cut at 1,000 characters).
 */
export function toToolError(
  error: unknown,
  fallback: { code?: ToolErrorCode; toolName?: string | undefined; callId?: string | undefined } = {},
): ToolError {
  if (ToolError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : objectMessage(error);
  return new ToolError(fallback.code ?? 'execution-failed', message, {
    toolName: fallback.toolName,
    callId: fallback.callId,
    cause: error,
    unexpected: true,
  });
}

/** The longest `message` of a thrown non-`Error` object that a `ToolError` quotes (a wrapper may put a whole response body there). */
const MAX_OBJECT_MESSAGE = 1000;

/**
 * The string `message` of a thrown object that is no `Error` (`throw { message: 'card declined', code: 402 }`, as fetch
 * wrappers and SDKs do, or an `Error` of another realm), cut to {@link MAX_OBJECT_MESSAGE}; else `Unknown error`.
 */
function objectMessage(error: unknown): string {
  let message: unknown;
  try {
    message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  } catch {
    // A getter or proxy that throws: the wrapping must not.
  }
  if (typeof message !== 'string' || message === '') return 'Unknown error';
  if (message.length <= MAX_OBJECT_MESSAGE) return message;
  // Never half of a surrogate pair at the cut.
  const end = /[\uD800-\uDBFF]/.test(message.charAt(MAX_OBJECT_MESSAGE - 1)) ? MAX_OBJECT_MESSAGE - 1 : MAX_OBJECT_MESSAGE;
  return `${message.slice(0, end)}…`;
}
