import { JSONParseError, TypeValidationError } from 'ai';

/** What went wrong with a chat request, for an error banner. */
export interface ChatErrorInfo {
  /**
   * `unreachable`: no answer from the server, or only part of it (network down, proxy error, gateway, a response cut
   * off); `refused`: a 4xx, for example a continuation the server would not trust (403); `server`: a 5xx with an error
   * body; `stream`: the response stream reported an error, or the hook ended a response over its bounds (code
   * `response-too-large`, see `maxResponseChars`); `unreadable`: the stream held a line that is not a chat
   * chunk (not JSON, or not one the AI SDK knows), so nothing after it could be read.
   */
  readonly kind: 'unreachable' | 'refused' | 'server' | 'stream' | 'unreadable';
  readonly status: number | undefined;
  /** The server's error code (`ticket-invalid`, …) or one of ours (`unreachable`, `stream-cut`, `stream-unreadable`, `stream-error`, `response-too-large`). */
  readonly code: string;
  readonly message: string;
  /** Why, when the server says (a refused ticket: `expired`, `replayed`, `bad-signature`, …). */
  readonly reason?: string;
  /** The tool call the error is about, when the server names it (a refused continuation). */
  readonly toolCallId?: string;
}

/** What {@link describeChatError} says of a stream with a line that is not a chat chunk, in place of the line itself. */
const UNREADABLE =
  "The server's answer could not be read: its stream held a line that is not part of a chat answer (a proxy changed it, or the server " +
  'speaks another version of the stream).';

/** The `name` of the error a response that ended without its `finish` fails with (see `endsWithFinish`). */
export const STREAM_CUT = 'EdgetoolStreamCut';

/**
 * The `name` of the error a response fails with at the first chunk that would take it past `useEdgeChat`'s
 * `maxResponseChars` or `maxResponseParts` (`chatError` code `response-too-large`).
 */
export const RESPONSE_TOO_LARGE = 'EdgetoolResponseTooLarge';

type ErrorBody = Pick<ChatErrorInfo, 'code' | 'message' | 'reason' | 'toolCallId'>;

function parseErrorBody(body: unknown): ErrorBody | undefined {
  if (typeof body !== 'string' || body.trim() === '') return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown; reason?: unknown; toolCallId?: unknown } };
    const { code, message, reason, toolCallId } = parsed.error ?? {};
    if (typeof code === 'string' && typeof message === 'string') {
      return { code, message, ...(typeof reason === 'string' ? { reason } : {}), ...(typeof toolCallId === 'string' ? { toolCallId } : {}) };
    }
  } catch {
    // Not our JSON error body (a proxy's HTML page, plain text).
  }
  return undefined;
}

/** The longest text of a body that is not ours (a proxy's plain-text error) a description quotes; the rest is cut. */
export const QUOTED_BODY_CHARS = 200;

/** Names of the statuses a proxy or gateway answers with, for a description that has no body of ours to quote. */
const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** `HTTP 502 (Bad Gateway)`, or `HTTP 599` for a status without a name here. */
function httpStatus(status: number): string {
  const name = Object.hasOwn(STATUS_NAMES, status) ? STATUS_NAMES[status] : undefined;
  return name === undefined ? `HTTP ${status}` : `HTTP ${status} (${name})`;
}

/**
 * Whether a text is (or holds) an HTML page: a doctype, or a tag (`<html>`, `<h1>`, `</body>`). A proxy's or a gateway's
 * error page, or the app's own `index.html` served for a route the server does not have.
 */
function isHtml(text: string): boolean {
  return /<!doctype\s+html|<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>/i.test(text);
}

/** What the server or a proxy answered with an HTML page says in words: never the page itself. */
function htmlPage(status: number | undefined): string {
  const what = "the server or a proxy in front of it answered with an HTML page instead of the chat's answer.";
  return status === undefined ? `T${what.slice(1)}` : `${httpStatus(status)}: ${what}`;
}

/** A plain-text body on one line, at most {@link QUOTED_BODY_CHARS} characters (cut with `…`). */
function quoted(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= QUOTED_BODY_CHARS ? line : `${line.slice(0, QUOTED_BODY_CHARS - 1).trimEnd()}…`;
}

/**
 * Turns a `useChat` error into something to show: the HTTP status and the server's
 * `{ error: { code, message, reason?, toolCallId? } }` when there is one, else a plain description in words. A body
 * that is not ours is never shown as it is: an HTML page (a proxy's 502 or 504, a gateway's error page) is described by
 * its status; plain text is quoted on one line, cut at {@link QUOTED_BODY_CHARS} characters. A stream line that is not a
 * chat chunk is `unreadable`, described in words too.
 */
export function describeChatError(error: unknown): ChatErrorInfo | undefined {
  if (error === undefined || error === null) return undefined;
  const e = error as { statusCode?: unknown; responseBody?: unknown; message?: unknown; name?: unknown };
  const message = typeof e.message === 'string' ? e.message : String(error);
  if (typeof e.statusCode === 'number') {
    const status = e.statusCode;
    // The AI SDK's message for a failed response is its body (or its own fallback when the body is empty).
    const text = typeof e.responseBody === 'string' ? e.responseBody : message;
    const body = parseErrorBody(text);
    if (body) return { kind: status >= 500 ? 'server' : 'refused', status, ...body };
    const html = isHtml(text);
    if (status >= 500) {
      const words = html ? htmlPage(status) : `No answer from the server: a proxy or gateway replied HTTP ${status} instead.`;
      return { kind: 'unreachable', status, code: 'unreachable', message: words };
    }
    const words = html ? htmlPage(status) : text.trim() === '' ? `The server refused the request: ${httpStatus(status)}, with no message.` : quoted(text);
    return { kind: 'refused', status, code: `http-${status}`, message: words };
  }
  // The connection closed before the answer's end (stream-end.ts): no more of it came, as when the network fails.
  if (e.name === STREAM_CUT) return { kind: 'unreachable', status: undefined, code: 'stream-cut', message };
  // The hook ended a response that passed its bounds (maxResponseChars, maxResponseParts): what came stays, as a stop's.
  if (e.name === RESPONSE_TOO_LARGE) return { kind: 'stream', status: undefined, code: 'response-too-large', message };
  // A line of the stream that is not a chat chunk: the AI SDK's own words quote the line ("JSON parsing failed: Text: …").
  if (JSONParseError.isInstance(error) || TypeValidationError.isInstance(error)) return { kind: 'unreadable', status: undefined, code: 'stream-unreadable', message: UNREADABLE };
  if (e.name === 'TypeError' && /fetch|network|load failed/i.test(message)) {
    return { kind: 'unreachable', status: undefined, code: 'unreachable', message: 'The server is unreachable. Check that it is running.' };
  }
  // A stream that failed on an HTML page (a route answered with the app's index.html, a proxy's page mid-response).
  if (isHtml(message)) return { kind: 'stream', status: undefined, code: 'stream-error', message: htmlPage(undefined) };
  return { kind: 'stream', status: undefined, code: 'stream-error', message: message || 'The response failed.' };
}
