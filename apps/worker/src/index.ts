import { health, listTools } from './api/index.ts';
import type { Env } from './env.ts';
import { createApiRouter } from './http/index.ts';

export type { Env } from './env.ts';

/** Every API route. `POST /api/chat` joins here with `@edgetool/ai`. */
const api = createApiRouter<Env>([
  { method: 'GET', path: '/api/health', handler: health },
  { method: 'GET', path: '/api/tools', handler: () => listTools() },
]);

/** The Worker: `/api/*` from the router, everything else from the web app's static assets. */
export default {
  async fetch(request, env, ctx): Promise<Response> {
    return (await api(request, env, ctx)) ?? env.ASSETS.fetch(request);
  },
} satisfies ExportedHandler<Env>;
