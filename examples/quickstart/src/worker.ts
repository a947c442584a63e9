import { type ChatAgent, ContinuationError, createChatAgent, createModelFromEnv, type ExecutionMode } from '@edgetool/ai';
import { createRunContext, createTicketSigner, defineTool, TicketError, ToolError } from '@edgetool/core';
import * as v from 'valibot';

// The Worker's bindings: TICKET_SECRET from `wrangler secret put`; OPENAI_API_KEY optional (else the offline model).
interface Env {
  readonly TICKET_SECRET: string;
  readonly OPENAI_API_KEY?: string;
}
// fetch's third argument (ExecutionContext): work that must finish after the client left.
interface Ctx {
  waitUntil(work: Promise<unknown>): void;
}

const cancelOrder = defineTool({
  name: 'cancel_order',
  description: 'Cancel an order',
  input: v.object({ order_id: v.string() }),
  policy: { effects: 'destructive' }, // waits for a human: useEdgeChat lists it in pendingApprovals
  execute: ({ order_id }) => `Cancelled ${order_id}`, // your database goes in the run's deps: ctx.run.deps
});

// One agent per isolate (and env), shared by its requests: it holds no per-request state.
const agents = new WeakMap<Env, ChatAgent>();
const agentFor = (env: Env) => {
  const agent = agents.get(env) ?? createChatAgent({
    model: createModelFromEnv(env).model,
    tools: [cancelOrder],
    tickets: createTicketSigner({ keys: [{ id: 'k1', secret: env.TICKET_SECRET }] }),
  });
  agents.set(env, agent);
  return agent;
};

export default {
  async fetch(request: Request, env: Env, ctx?: Ctx): Promise<Response> {
    // body = { id, messages, mode }, as useEdgeChat sends it; check it first (the demo answers a bad one with a 400)
    const body = (await request.json()) as { id: string; messages: unknown[]; mode: ExecutionMode };
    try {
      const turn = await agentFor(env).stream({
        messages: body.messages,
        mode: body.mode,
        run: createRunContext({ conversationId: body.id }),
        signal: request.signal,
        // an approved call's record is written even after the browser left (a Retry then reads it)
        waitUntil: ctx && ((work) => ctx.waitUntil(work)),
      });
      return turn.toResponse(); // SSE in the AI SDK UI message protocol
    } catch (error) {
      // A forged or stale continuation (ContinuationError from @edgetool/ai, TicketError from the core): nothing ran.
      // useEdgeChat reads this body: a call whose ticket expired is marked expired instead of shown as an error.
      if (error instanceof ContinuationError) {
        const reason = TicketError.isInstance(error.cause) ? error.cause.reason : undefined;
        return Response.json({ error: { code: error.code, message: error.message, reason, toolCallId: error.callId } }, { status: 403 });
      }
      // Not a conversation (malformed messages, an unknown mode, a file part naming a URL): invalid-input, nothing ran.
      if (ToolError.isInstance(error) && error.code === 'invalid-input') {
        return Response.json({ error: { code: error.code, message: error.message } }, { status: 400 });
      }
      throw error;
    }
  },
};
