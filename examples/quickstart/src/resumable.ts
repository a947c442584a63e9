import {
  type ChatAgent,
  cancelResumable,
  createMemoryResumableStore,
  type ExecutionMode,
  RESUMABLE_TURN_HEADER,
  resumeResponse,
} from '@edgetool/ai';
import { createRunContext } from '@edgetool/core';

// Where turns whose client went away are recorded: this process's memory here; in production a database that every
// instance shares (a reload may reach another one). Nothing is written for a turn whose client reads it to the end.
const store = createMemoryResumableStore();

/** `POST /api/chat`, and `GET` / `DELETE /api/chat/:id/stream` for `useEdgeChat({ resume: true })`. */
export async function resumableChat(
  agent: ChatAgent,
  request: Request,
  owner: string,
  waitUntil: (work: Promise<unknown>) => void,
): Promise<Response> {
  // owner: who asks, from your session (a user id), never from the request's body. Only the same owner resumes a turn.
  const stream = /^\/api\/chat\/([\w-]{1,100})\/stream$/.exec(new URL(request.url).pathname); // useChat's ids
  if (stream?.[1] !== undefined) {
    const chatId = stream[1];
    if (request.method === 'DELETE') {
      await cancelResumable({ store, chatId, owner }); // stop(): the turn stops even if it went on without its client
      return new Response(null, { status: 204 });
    }
    if (request.method !== 'GET') return new Response(null, { status: 405, headers: { allow: 'GET, DELETE' } });
    // 204 when there is nothing to resume; otherwise the turn from its start, byte for byte, then the rest as it comes.
    const turnId = request.headers.get(RESUMABLE_TURN_HEADER); // the turn the page sent: never an older one
    return resumeResponse({ store, chatId, owner, turnId, signal: request.signal });
  }
  const body = (await request.json()) as { id: string; messages: unknown[]; mode: ExecutionMode };
  // No `signal: request.signal`: a client that goes away must not stop the turn a reload will read.
  const run = createRunContext({ conversationId: `${owner}:${body.id}` });
  const turn = await agent.stream({ messages: body.messages, mode: body.mode, run });
  const turnId = request.headers.get(RESUMABLE_TURN_HEADER);
  // `signal` here only says when the client went (the turn is recorded from then): see the price, below.
  return turn.toResponse({ resumable: { store, chatId: body.id, owner, turnId, waitUntil, signal: request.signal } });
}
