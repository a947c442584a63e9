import { ContinuationError, type ExecutionMode } from '@edgetool/ai';
import { createRunContext, parseJson, ToolError } from '@edgetool/core';
import { demoAgent, MissingSecretError } from '../agent.ts';
import type { Env } from '../env.ts';
import { jsonError, readLimited } from '../http/index.ts';
import { demoDeps } from '../tools/index.ts';

/** Largest accepted request body: a long conversation, not a denial of service. */
export const MAX_CHAT_BODY_BYTES = 512 * 1024;

/** What `useChat` posts (plus `mode`). */
interface ChatBody {
  readonly id: string;
  readonly messages: unknown[];
  readonly mode: ExecutionMode;
}

function parseBody(text: string): ChatBody | Response {
  let body: unknown;
  try {
    // parseJson: the same guarded parse as tool arguments (the history's tool inputs are in here), so this code
    // stays right when it runs on Node 24 or 26 (see docs/reliability.md); in workerd it is JSON.parse plus a scan.
    body = parseJson(text);
  } catch {
    return jsonError(400, 'invalid-json', 'The request body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return jsonError(400, 'invalid-request', 'The body must be an object { id, messages, mode }.');
  const { id, messages, mode = 'internal' } = body as { id?: unknown; messages?: unknown; mode?: unknown };
  if (typeof id !== 'string' || id.length === 0 || id.length > 200) return jsonError(400, 'invalid-request', '`id` (the conversation id) must be a non-empty string.');
  if (!Array.isArray(messages) || messages.length === 0) return jsonError(400, 'invalid-request', '`messages` must be a non-empty array of UI messages.');
  if (mode !== 'internal' && mode !== 'manual') return jsonError(400, 'unknown-mode', `Unknown mode ${JSON.stringify(mode)}: use "internal" or "manual".`);
  return { id, messages, mode };
}

/**
 * `POST /api/chat`: one chat turn as an AI SDK UI message stream. Bad requests and refused continuations
 * (forged approvals or results) are JSON errors with stable codes; nothing runs for them.
 */
export async function chat(request: Request, env: Env): Promise<Response> {
  // A page on another site may not drive a turn (useChat on this origin sends no or the same Origin), and only JSON
  // is read: a cross-site form or text/plain POST would skip the browser's CORS preflight.
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== new URL(request.url).origin) return jsonError(403, 'forbidden-origin', `Requests from ${origin} are not allowed.`);
  if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) {
    return jsonError(415, 'unsupported-media-type', 'Send the body as application/json.');
  }
  const text = await readLimited(request, MAX_CHAT_BODY_BYTES);
  if (text === undefined) return jsonError(413, 'payload-too-large', `The request body is larger than ${MAX_CHAT_BODY_BYTES} bytes.`);
  const body = parseBody(text);
  if (body instanceof Response) return body;
  try {
    const { agent } = await demoAgent(env);
    const run = createRunContext({ conversationId: body.id, deps: demoDeps(env), signal: request.signal });
    const turn = await agent.stream({ messages: body.messages, mode: body.mode, run, signal: request.signal });
    return turn.toResponse();
  } catch (error) {
    if (error instanceof MissingSecretError) return jsonError(500, 'not-configured', error.message);
    if (error instanceof ContinuationError) return jsonError(403, error.code, error.message);
    if (ToolError.isInstance(error)) return jsonError(400, error.code, error.message);
    throw error;
  }
}
