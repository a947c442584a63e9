import { cancelChat, chat, health, listTools, mcp, resumeChat } from './api/index.ts';
import { createRegistry, createRunContext, createTicketSigner } from '@edgetool/core';
import { chooseModel, createDemoTools } from './agent.ts';
import type { Env } from './env.ts';
import { demoDeps } from './tools/index.ts';
import { createApiRouter, refuseHost } from './http/index.ts';

export type { Env } from './env.ts';

/**
 * Describing tools signs nothing: a throwaway key keeps /api/tools working without TICKET_SECRET.
 * Made per request: Workers forbid random values in global scope.
 */
const listingOnly = () => createTicketSigner({ keys: [{ id: 'listing', secret: crypto.getRandomValues(new Uint8Array(32)) }] });

/** Every API route. */
const api = createApiRouter<Env>([
  { method: 'POST', path: '/api/chat', handler: chat },
  { method: 'GET', path: '/api/chat/:id/stream', handler: resumeChat },
  { method: 'DELETE', path: '/api/chat/:id/stream', handler: cancelChat },
  { method: 'GET', path: '/api/health', handler: health },
  { method: 'POST', path: '/api/mcp', handler: mcp },
  {
    method: 'GET',
    path: '/api/tools',
    handler: async (_request, env) => listTools(createRegistry({ tools: await createDemoTools(chooseModel(env), listingOnly()) }), createRunContext({ deps: demoDeps(env) })),
  },
]);

/**
 * The Worker: a Host it does not serve is refused (DNS rebinding against `wrangler dev`), then `/api/*` from the router,
 * everything else from the web app's static assets.
 */
export default {
  async fetch(request, env, ctx): Promise<Response> {
    return refuseHost(request, env.ALLOWED_HOSTS) ?? (await api(request, env, ctx)) ?? env.ASSETS.fetch(request);
  },
} satisfies ExportedHandler<Env>;
