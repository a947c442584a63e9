/** Handles one API request. `env` is the Worker's bindings. */
export type RouteHandler<TEnv> = (request: Request, env: TEnv, ctx: ExecutionContext) => Response | Promise<Response>;

/** One API route: a path and a method. A `:name` segment of the path matches any one non-empty segment. */
export interface Route<TEnv> {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly handler: RouteHandler<TEnv>;
}

/** The error body every API failure uses; some errors add details (a refused continuation: `reason`, `toolCallId`). */
export interface ApiErrorBody {
  readonly error: { readonly code: string; readonly message: string } & ApiErrorDetails;
}

/** Machine-readable details of an error, beside its code and message. */
export type ApiErrorDetails = Readonly<Record<string, string | undefined>>;

/** A JSON response (UTF-8, not cached). */
export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
  return new Response(JSON.stringify(body), { ...init, headers });
}

/**
 * The Worker's configuration cannot serve a request (a secret missing, a variable that makes no sense): any `/api/*`
 * route that throws it answers 500 `not-configured` with its message, which says what to set.
 */
export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

/** A JSON error `{ error: { code, message, ...details } }`. */
export function jsonError(status: number, code: string, message: string, headers?: HeadersInit, details: ApiErrorDetails = {}): Response {
  const body: ApiErrorBody = { error: { ...details, code, message } };
  return json(body, headers === undefined ? { status } : { status, headers });
}

/** The pattern of a path with `:name` segments (each one non-empty segment), or `undefined` for an exact path. */
function pathPattern(path: string): RegExp | undefined {
  if (!path.split('/').some((segment) => segment.startsWith(':'))) return undefined;
  const source = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/**
 * A tiny router for everything under `prefix`: exact paths (and `:name` segments), 404 and 405 as JSON, a thrown error as a
 * JSON 500. A GET route answers HEAD too (its status and headers, no body), as HTTP asks of every server.
 * Resolves `undefined` for paths outside the prefix, so the caller can serve assets.
 */
export function createApiRouter<TEnv>(
  routes: readonly Route<TEnv>[],
  prefix = '/api/',
): (request: Request, env: TEnv, ctx: ExecutionContext) => Promise<Response | undefined> {
  const byPath = new Map<string, Route<TEnv>[]>();
  for (const route of routes) {
    if (!route.path.startsWith(prefix)) throw new TypeError(`Route ${route.method} ${route.path} is outside ${prefix}`);
    const list = byPath.get(route.path) ?? [];
    if (list.some((r) => r.method === route.method)) throw new TypeError(`Duplicate route ${route.method} ${route.path}`);
    byPath.set(route.path, [...list, route]);
  }
  const root = prefix.replace(/\/$/, '');
  const patterns = [...byPath.keys()].flatMap((path) => {
    const pattern = pathPattern(path);
    return pattern === undefined ? [] : [{ pattern, path }];
  });

  return async (request, env, ctx) => {
    const { pathname } = new URL(request.url);
    if (pathname !== root && !pathname.startsWith(prefix)) return undefined;
    const candidates = byPath.get(pathname) ?? byPath.get(patterns.find(({ pattern }) => pattern.test(pathname))?.path ?? '');
    if (candidates === undefined) return jsonError(404, 'not-found', `No API route ${request.method} ${pathname}.`);
    // HEAD is GET without the body (uptime checks send it): the GET route's answer, its body dropped.
    const head = request.method === 'HEAD';
    const route = candidates.find((r) => r.method === (head ? 'GET' : request.method));
    if (route === undefined) {
      const allow = candidates.flatMap((r) => (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method])).join(', ');
      return jsonError(405, 'method-not-allowed', `${pathname} accepts ${allow}, not ${request.method}.`, { allow });
    }
    try {
      const response = await route.handler(request, env, ctx);
      if (!head) return response;
      await response.body?.cancel();
      return new Response(null, response);
    } catch (error) {
      if (error instanceof ConfigurationError) return jsonError(500, 'not-configured', error.message);
      console.error(`${request.method} ${pathname} failed:`, error);
      return jsonError(500, 'internal-error', 'The server failed to handle this request.');
    }
  };
}
