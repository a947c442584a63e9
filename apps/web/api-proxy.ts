import type { ServerResponse } from 'node:http';
import type { ProxyOptions } from 'vite';
import { API_BASE, DEV_API_TARGET, PROXY_HEADER } from './src/lib/api-address.ts';

/**
 * `vite`'s proxy of {@link API_BASE} (dev and preview) to the Worker at `target`. Every response it passes on, and the
 * 502 it answers when the Worker does not, names `target` in {@link PROXY_HEADER}: under `vite preview` the page is a
 * build like the Worker's own, and its "unreachable" banner named the preview's port as the Worker's.
 */
export function apiProxy(target: string = DEV_API_TARGET): Record<string, ProxyOptions> {
  return {
    [API_BASE]: {
      target,
      changeOrigin: false,
      configure: (proxy) => {
        proxy.on('proxyRes', (response) => {
          response.headers[PROXY_HEADER] = target;
        });
        // Before vite's own handler, which then only logs: it answers an empty 502 when nothing has been sent yet.
        proxy.on('error', (_error, _request, response) => {
          if (!('req' in response)) return;
          const res = response as ServerResponse;
          if (res.headersSent || res.writableEnded) return;
          res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8', [PROXY_HEADER]: target }).end(`The edgetool Worker does not answer at ${target}.`);
        });
      },
    },
  };
}
