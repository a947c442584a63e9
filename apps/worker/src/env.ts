/**
 * The Worker's bindings and variables (see wrangler.jsonc). Secrets come from `.dev.vars` locally and
 * `wrangler secret put` in production.
 */
export interface Env {
  /** D1: orders, order_events, outbox, ticket_nonces (migrations/). */
  readonly DB: D1Database;
  /** Workers Rate Limiting: e-mails per client address per minute (wrangler.jsonc `ratelimits`). */
  readonly EMAIL_LIMITER?: RateLimit;
  /**
   * Workers Rate Limiting for `POST /api/chat` (wrangler.jsonc `ratelimits`): chat requests per client address (else one
   * shared key). Unbound: no limit. A public deployment with `OPENAI_API_KEY` binds it (each request costs a model call).
   */
  readonly CHAT_LIMITER?: RateLimit;
  /**
   * The request header that holds the client's address, for the rate limits (default `CF-Connecting-IP`, which
   * Cloudflare's edge sets). Off Cloudflare, the one the proxy in front of the Worker sets and overwrites (`X-Real-IP`,
   * `X-Forwarded-For`: its last entry). A request without it counts as one shared client.
   */
  readonly CLIENT_ADDRESS_HEADER?: string;
  /** The built web app (apps/web/dist, or apps/worker/public while it is not built). */
  readonly ASSETS: Fetcher;
  /**
   * Host names the Worker serves besides `localhost`, `*.localhost` and IP addresses, separated by commas (`shop.example.com,
   * *.shop.example.com`). Unset: any `*.workers.dev` name. Other hosts get a 403 `forbidden-host` (DNS rebinding).
   */
  readonly ALLOWED_HOSTS?: string;
  /** Model id for the real provider; the offline model is used while OPENAI_API_KEY is unset. */
  readonly OPENAI_MODEL?: string;
  /** Secret: enables the real provider. */
  readonly OPENAI_API_KEY?: string;
  /** Any OpenAI-compatible server (default: OpenAI). */
  readonly OPENAI_BASE_URL?: string;
  /** `responses` (default) or `chat` (Chat Completions). */
  readonly OPENAI_API?: string;
  /** Secret (32+ bytes): signs tool-call tickets and result seals. */
  readonly TICKET_SECRET?: string;
  /** The previous TICKET_SECRET during a rotation: still verifies, never signs. */
  readonly TICKET_SECRET_PREVIOUS?: string;
  /**
   * The most tokens one chat turn may use, the delay analyst's included (default 50,000): a turn that reaches it starts
   * no other model step, nor one whose estimated prompt is over what is left (the first included), and the chat UI says
   * why the answer stopped.
   */
  readonly TURN_TOKEN_BUDGET?: string;
  /** Milliseconds between the offline model's stream chunks (demos of the stop button; e2e tests). */
  readonly OFFLINE_DELAY_MS?: string;
  /**
   * Test-only: `'1'` lets a request move this Worker's ticket clock forward by `X-Test-Clock-Offset-Ms` (the e2e tests
   * make an approval expire without waiting 15 minutes). Forward only and at most a day. Never set it in production:
   * tickets and seals issued by such a request carry the moved clock too, so they live up to a day longer. It also
   * lets `X-Test-Offline-Delay-Ms` slow one request's offline model (`testModelDelay`).
   */
  readonly TEST_CLOCK?: string;
  /**
   * An OTLP/HTTP collector (Grafana, Honeycomb, Jaeger, an OTel Collector): when set, each chat turn's tool calls are
   * exported to `<endpoint>/v1/traces` as OpenTelemetry spans, under the request's `traceparent`. Off when unset.
   */
  readonly OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  /** The full traces URL instead (used as is). */
  readonly OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
  /** Secret: headers for the collector, `key=value` pairs separated by commas (an API key). */
  readonly OTEL_EXPORTER_OTLP_HEADERS?: string;
  /** Secret: headers for the traces URL only, over those of `OTEL_EXPORTER_OTLP_HEADERS`. */
  readonly OTEL_EXPORTER_OTLP_TRACES_HEADERS?: string;
  /** The `service.name` of the exported spans (default `edgetool-demo`). */
  readonly OTEL_SERVICE_NAME?: string;
  /** More resource attributes of the exported spans, `key=value` pairs separated by commas (`deployment.environment=prod`). */
  readonly OTEL_RESOURCE_ATTRIBUTES?: string;
  /** How long one export may take, in ms (default 10,000); `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT` for traces only. */
  readonly OTEL_EXPORTER_OTLP_TIMEOUT?: string;
  readonly OTEL_EXPORTER_OTLP_TRACES_TIMEOUT?: string;
  /** `http/json` or `http/protobuf` (both post JSON here); `grpc` turns export off with one log line. `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` for traces only. */
  readonly OTEL_EXPORTER_OTLP_PROTOCOL?: string;
  readonly OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?: string;
  /** `true` turns OTLP export off; so does `OTEL_TRACES_EXPORTER=none` (or a list without `otlp`). */
  readonly OTEL_SDK_DISABLED?: string;
  readonly OTEL_TRACES_EXPORTER?: string;
}
