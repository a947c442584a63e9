/**
 * The Worker's bindings and variables (see wrangler.jsonc). Secrets come from `.dev.vars` locally and
 * `wrangler secret put` in production.
 */
export interface Env {
  /** D1: orders, order_events, outbox, ticket_nonces (migrations/). */
  readonly DB: D1Database;
  /** The built web app (apps/web/dist, or apps/worker/public while it is not built). */
  readonly ASSETS: Fetcher;
  /** Model id for the real provider; the offline model is used while OPENAI_API_KEY is unset. */
  readonly OPENAI_MODEL?: string;
  /** Secret: enables the real provider. */
  readonly OPENAI_API_KEY?: string;
  /** Any OpenAI-compatible server (default: OpenAI). */
  readonly OPENAI_BASE_URL?: string;
}
