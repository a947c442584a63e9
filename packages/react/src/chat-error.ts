/** What went wrong with a chat request, for an error banner. */
export interface ChatErrorInfo {
  /**
   * `unreachable`: no answer from the server (network down, proxy error, gateway); `refused`: a 4xx,
   * for example a continuation the server would not trust (403); `server`: a 5xx with an error body;
   * `stream`: the response stream reported an error.
   */
  readonly kind: 'unreachable' | 'refused' | 'server' | 'stream';
  readonly status: number | undefined;
  /** The server's error code (`ticket-invalid`, …) or one of ours (`unreachable`, `stream-error`). */
  readonly code: string;
  readonly message: string;
  /** Why, when the server says (a refused ticket: `expired`, `replayed`, `bad-signature`, …). */
  readonly reason?: string;
  /** The tool call the error is about, when the server names it (a refused continuation). */
  readonly toolCallId?: string;
}

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

/**
 * Turns a `useChat` error into something to show: the HTTP status and the server's
 * `{ error: { code, message, reason?, toolCallId? } }` when there is one, else a plain description.
 */
export function describeChatError(error: unknown): ChatErrorInfo | undefined {
  if (error === undefined || error === null) return undefined;
  const e = error as { statusCode?: unknown; responseBody?: unknown; message?: unknown; name?: unknown };
  const message = typeof e.message === 'string' ? e.message : String(error);
  if (typeof e.statusCode === 'number') {
    const status = e.statusCode;
    const body = parseErrorBody(e.responseBody ?? e.message);
    if (body) return { kind: status >= 500 ? 'server' : 'refused', status, ...body };
    if (status >= 500) return { kind: 'unreachable', status, code: 'unreachable', message: `No answer from the server: a proxy or gateway replied HTTP ${status} instead.` };
    return { kind: 'refused', status, code: `http-${status}`, message: message || `The server refused the request (HTTP ${status}).` };
  }
  if (e.name === 'TypeError' && /fetch|network|load failed/i.test(message)) {
    return { kind: 'unreachable', status: undefined, code: 'unreachable', message: 'The server is unreachable. Check that it is running.' };
  }
  return { kind: 'stream', status: undefined, code: 'stream-error', message: message || 'The response failed.' };
}
