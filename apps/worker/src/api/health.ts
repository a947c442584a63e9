import { chooseModel } from '../agent.ts';
import type { Env } from '../env.ts';
import { json } from '../http/index.ts';

/** `GET /api/health`: liveness plus the model in use (the UI names it; "offline" without an API key). */
export function health(_request: Request, env: Env): Response {
  const { provider, modelId, offline } = chooseModel(env);
  return json({ ok: true, model: { provider, modelId, offline } });
}
