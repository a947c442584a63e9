import { createRunContext } from '@edgetool/core';
import { createMcpHandler } from '@edgetool/core/mcp';
import type { Env } from '../env.ts';
import { demoDeps, demoTools } from '../tools/index.ts';

const handlers = new WeakMap<Env, (request: Request) => Promise<Response>>();

/**
 * `POST /api/mcp`: the demo's server tools for MCP clients (Streamable HTTP, stateless). The same tools, schemas, chain
 * and typed errors as the chat loop, over the same D1. Tools that always need a human approval (the two writes) are not
 * offered: an MCP client has no ticket to bring back. One handler per isolate and `env`; a run context per request.
 */
export function mcp(request: Request, env: Env): Promise<Response> {
  let handle = handlers.get(env);
  if (handle === undefined) {
    handle = createMcpHandler({
      tools: demoTools,
      name: 'edgetool-demo',
      version: '0.1.0',
      instructions: "Tools of a demo shop: look up orders, list or audit the late ones, chart them, make an order's invoice as a PDF, a world clock, arithmetic.",
      run: (incoming) => createRunContext({ conversationId: `mcp-${crypto.randomUUID()}`, deps: demoDeps(env), signal: incoming.signal }),
    });
    handlers.set(env, handle);
  }
  return handle(request);
}
