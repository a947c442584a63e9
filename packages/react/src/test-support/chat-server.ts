import type { LanguageModelV4StreamResult } from '@ai-sdk/provider';
import { ContinuationError, createChatAgent, type EdgetoolUIMessage, type ExecutionMode } from '@edgetool/ai';
import { type AnyTool, createRunContext, createTicketSigner, TicketError, ToolError } from '@edgetool/core';
import { MockLanguageModelV4 } from 'ai/test';

export { callsStep, textStep } from '@edgetool/ai/testing';

/** One request the fake server received. */
export interface ReceivedRequest {
  readonly id: string;
  readonly mode: ExecutionMode;
  readonly messages: EdgetoolUIMessage[];
}

/**
 * What the worker's `POST /api/chat` does, as a `fetch` function: the real chat loop with a scripted
 * model, tickets bound to the chat id, and refused continuations as JSON 403s.
 */
export function createTestServer(options: {
  readonly tools: readonly AnyTool[];
  readonly steps: LanguageModelV4StreamResult[];
  /** The server's ticket lifetime (default 15 minutes). */
  readonly ttlMs?: number;
}) {
  const model = new MockLanguageModelV4({ doStream: options.steps });
  // The server's clock runs `clock.offsetMs` ahead of this browser's (a test moves it to make tickets expire).
  const clock = { offsetMs: 0 };
  const tickets = createTicketSigner({
    keys: [{ id: 'k1', secret: 'test-secret-test-secret-test-secret-!!' }],
    now: () => Date.now() + clock.offsetMs,
    ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }),
  });
  const agent = createChatAgent({ model, tools: options.tools, tickets });
  const requests: ReceivedRequest[] = [];
  const fetch = async (_url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const body = JSON.parse(String(init?.body)) as ReceivedRequest;
    requests.push(structuredClone(body));
    try {
      const turn = await agent.stream({ messages: body.messages, mode: body.mode, run: createRunContext({ conversationId: body.id }), signal: init?.signal ?? undefined });
      return turn.toResponse();
    } catch (error) {
      const status = error instanceof ContinuationError ? 403 : ToolError.isInstance(error) ? 400 : 500;
      const code = ToolError.isInstance(error) ? error.code : 'internal-error';
      // As the demo Worker does: a refused ticket says why, and which call.
      const details = error instanceof ContinuationError ? { reason: TicketError.isInstance(error.cause) ? error.cause.reason : undefined, toolCallId: error.callId } : {};
      return Response.json({ error: { code, message: (error as Error).message, ...details } }, { status });
    }
  };
  return { fetch: fetch as typeof globalThis.fetch, requests, model, agent, clock };
}

/** A hand-written SSE response in the AI SDK UI message stream protocol. */
export function sseResponse(chunks: readonly object[]): Response {
  const body = `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`;
  return new Response(body, { headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } });
}
