import { json } from '../http/index.ts';

/** The model label the UI shows; the offline model until the chat endpoint picks a real provider. */
export const OFFLINE_MODEL_LABEL = 'edgetool-offline';

/** `GET /api/health`: liveness for dev scripts, e2e and uptime checks. */
export function health(): Response {
  return json({ ok: true, model: OFFLINE_MODEL_LABEL });
}
