import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PreviewServer, preview } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiProxy } from './api-proxy.ts';
import { DEV_API_TARGET, PROXY_HEADER, proxiedTo } from './src/lib/api-address.ts';
import config from './vite.config.ts';

const listen = (server: Server): Promise<string> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
const close = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

/** `vite preview` of an empty build, passing `/api` on to `target` as the app's config does. */
async function previewOf(target: string): Promise<{ readonly url: string; readonly server: PreviewServer }> {
  const server = await preview({
    configFile: false,
    root: dist,
    logLevel: 'silent',
    build: { outDir: dist },
    preview: { host: '127.0.0.1', port: 0, proxy: apiProxy(target) },
  });
  const url = server.resolvedUrls?.local[0];
  if (url === undefined) throw new Error('vite preview names no local address');
  return { url, server };
}

let dist: string;
let worker: Server;
let workerUrl: string;
beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'edgetool-web-preview-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title>');
  worker = createServer((request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, url: request.url })));
  workerUrl = await listen(worker);
});
afterAll(async () => {
  await close(worker);
  rmSync(dist, { recursive: true, force: true });
});

describe('apiProxy', () => {
  it('is what vite dev and vite preview pass /api on with, to the Worker on its default port', () => {
    for (const proxy of [config.server?.proxy, config.preview?.proxy]) {
      expect(proxy).toEqual({ '/api': { target: DEV_API_TARGET, changeOrigin: false, configure: expect.any(Function) } });
    }
  });

  it("names the Worker on what vite preview passes on: the page is a build like the Worker's own", async () => {
    const { url, server } = await previewOf(workerUrl);
    try {
      const response = await fetch(new URL('/api/health', url));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ok: true, url: '/api/health' });
      expect(proxiedTo(response.headers.get(PROXY_HEADER))).toBe(workerUrl);
      // The page itself is the preview's, and names nothing.
      expect((await fetch(url)).headers.get(PROXY_HEADER)).toBeNull();
    } finally {
      await server.close();
    }
  });

  it("names the Worker that does not answer in vite preview's 502 (the banner named the preview's port)", async () => {
    const gone = createServer();
    const target = await listen(gone);
    await close(gone);
    const { url, server } = await previewOf(target);
    try {
      const response = await fetch(new URL('/api/health', url));
      expect(response.status).toBe(502);
      expect(proxiedTo(response.headers.get(PROXY_HEADER))).toBe(target);
      expect(await response.text()).toBe(`The edgetool Worker does not answer at ${target}.`);
    } finally {
      await server.close();
    }
  });
});
