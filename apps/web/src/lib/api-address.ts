/** The API's path on the page's origin: the demo Worker serves the app and its API on one origin. */
export const API_BASE = '/api';

/** Where `vite` (dev and preview) passes {@link API_BASE} on: `wrangler dev` on its default port (apps/worker/scripts/dev.mjs). */
export const DEV_API_TARGET = 'http://127.0.0.1:8787';

/**
 * The header `vite` (dev and preview, `api-proxy.ts`) sets on every {@link API_BASE} response it passes on, or fails to:
 * the address it passes them to. A built page cannot tell `vite preview` from the Worker that serves it otherwise.
 */
export const PROXY_HEADER = 'x-edgetool-proxied-to';

/** The origin a {@link PROXY_HEADER} names (`http://127.0.0.1:8787`), or `undefined` for none or one that is not an http(s) URL. */
export function proxiedTo(header: string | null | undefined): string | undefined {
  if (header === null || header === undefined || !URL.canParse(header)) return undefined;
  const url = new URL(header);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
}

/** The Worker's default port (`PORT` unset), the dev target's: the start command names `PORT` only for another. */
const DEFAULT_PORT = new URL(DEV_API_TARGET).port;

/** Names `wrangler dev` answers on here: it listens on 127.0.0.1 (dev.mjs), and a browser may call it localhost. */
const LOOPBACK: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Where the page's API requests go, and how to start the Worker that answers them, for the "unreachable" banner. */
export interface ApiAddress {
  /** The API as the Worker serves it: the page's own origin and {@link API_BASE}, or the dev server's proxy target's. */
  readonly url: string;
  /** The Worker's host and port (`127.0.0.1:8790`). */
  readonly host: string;
  /** `vite` (dev or preview) passes the requests on to {@link url}: the page's own origin is not the Worker's. */
  readonly proxied: boolean;
  /** The command that starts the Worker there, with `PORT` when it is not the default; `undefined` when not on this machine. */
  readonly start: string | undefined;
}

/**
 * Where the API is for a page at `page`: on the page's own origin (the Worker served the page), or at `proxyTarget`, the
 * address `vite` (dev or preview) passes `/api` on to. The banner named 127.0.0.1:8787 whatever the page's port was.
 */
export function apiAddress(page: string, proxyTarget?: string | undefined): ApiAddress {
  const worker = new URL(proxyTarget ?? page);
  const url = new URL(API_BASE, worker).href;
  const port = worker.port || (worker.protocol === 'https:' ? '443' : '80');
  const start = LOOPBACK.has(worker.hostname) ? `${port === DEFAULT_PORT ? '' : `PORT=${port} `}pnpm --filter @edgetool/worker dev` : undefined;
  return { url, host: worker.host, proxied: proxyTarget !== undefined, start };
}
