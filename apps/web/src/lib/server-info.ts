import { type ActiveModel, describeModelLabel, parseServerTools, type ServerToolInfo } from '@edgetool/react';
import { useCallback, useEffect, useState } from 'react';
import { PROXY_HEADER, proxiedTo } from './api-address.ts';

/** What the app knows about the server before (and besides) the chat. */
export interface ServerInfo {
  readonly status: 'checking' | 'online' | 'unreachable';
  readonly model: ActiveModel | undefined;
  readonly tools: readonly ServerToolInfo[];
  /** Why the server counts as unreachable. */
  readonly problem: string | undefined;
  /** Why the server's tools did not load while the server itself answered (`/api/tools` failed). */
  readonly toolsProblem: string | undefined;
  /** Where `vite` (dev or preview) passes the API on to, as its last answer to the health check said; `undefined` from the Worker. */
  readonly proxiedTo: string | undefined;
}

/** Reads `GET /api/health`: `{ ok, model: { provider, modelId, offline } }` (a bare model id string is accepted too). */
export function parseHealth(body: unknown): { readonly ok: boolean; readonly model: ActiveModel | undefined } {
  const b = (typeof body === 'object' && body !== null ? body : {}) as { ok?: unknown; model?: unknown };
  const m = b.model as { provider?: unknown; modelId?: unknown; offline?: unknown } | string | undefined;
  let model: ActiveModel | undefined;
  if (typeof m === 'string') {
    model = describeModelLabel({ provider: 'edgetool', modelId: m, offline: /offline/i.test(m) });
  } else if (m && typeof m.modelId === 'string') {
    model = describeModelLabel({ provider: typeof m.provider === 'string' ? m.provider : 'unknown', modelId: m.modelId, offline: m.offline === true });
  }
  return { ok: b.ok === true, model };
}

async function getJson(url: string, signal: AbortSignal, onResponse?: (response: Response) => void): Promise<unknown> {
  const response = await fetch(url, { signal, headers: { accept: 'application/json' } });
  onResponse?.(response);
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  return response.json();
}

/** How often to look again while the server is unreachable (it may just be starting). */
const RETRY_MS = 5_000;

/** Checks `/api/health` and loads `/api/tools`; re-checks every few seconds while the server is down. */
export function useServerInfo(base = '/api'): ServerInfo & { readonly recheck: () => void } {
  const [info, setInfo] = useState<ServerInfo>({ status: 'checking', model: undefined, tools: [], problem: undefined, toolsProblem: undefined, proxiedTo: undefined });
  const [attempt, setAttempt] = useState(0);
  const recheck = useCallback(() => setAttempt((n) => n + 1), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the trigger for a new check.
  useEffect(() => {
    const controller = new AbortController();
    let retry: ReturnType<typeof setTimeout> | undefined;
    // A health check that got no response at all keeps what the last one said.
    let proxy: { readonly to: string | undefined } | undefined;
    const onHealth = (response: Response) => {
      proxy = { to: proxiedTo(response.headers.get(PROXY_HEADER)) };
    };
    (async () => {
      try {
        const health = parseHealth(await getJson(`${base}/health`, controller.signal, onHealth));
        if (!health.ok) throw new Error('the health check did not say ok');
        let toolsProblem: string | undefined;
        const tools = await getJson(`${base}/tools`, controller.signal).then(parseServerTools, (error: unknown) => {
          toolsProblem = error instanceof Error ? error.message : String(error);
          return [];
        });
        if (controller.signal.aborted) return;
        setInfo({ status: 'online', model: health.model, tools, problem: undefined, toolsProblem, proxiedTo: proxy?.to });
      } catch (error) {
        if (controller.signal.aborted) return;
        const problem = error instanceof Error ? error.message : String(error);
        setInfo((previous) => ({ ...previous, status: 'unreachable', problem, proxiedTo: proxy === undefined ? previous.proxiedTo : proxy.to }));
        retry = setTimeout(() => setAttempt((n) => n + 1), RETRY_MS);
      }
    })();
    return () => {
      controller.abort();
      clearTimeout(retry);
    };
  }, [base, attempt]);

  return { ...info, recheck };
}

/**
 * What the side panel says in place of the server's tools when it has none to show: they are still loading, the server
 * is not reachable, its list did not load, or it answered and listed none.
 */
export function serverToolsNote(server: Pick<ServerInfo, 'status' | 'toolsProblem'>): string {
  if (server.status === 'checking') return 'Loading them from the server…';
  if (server.status === 'unreachable') return 'Not loaded: the server is not reachable yet.';
  if (server.toolsProblem !== undefined) return `Not loaded: the server did not list them (${server.toolsProblem}).`;
  return 'The server lists none.';
}
