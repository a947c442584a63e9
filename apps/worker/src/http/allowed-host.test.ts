// The Host check in front of every route (DNS rebinding against `wrangler dev`), in workerd through the Worker's fetch.
import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../index.ts';
import { isAllowedHost } from './allowed-host.ts';

const turn = JSON.stringify({ id: 'host-check', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Where is order A-1002?' }] }] });

/** A chat turn as a page on `origin` sends it (same-origin: its Origin is the URL's own, as after a rebinding). */
const chatFrom = (origin: string) =>
  new Request(`${origin}/api/chat`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: turn });

const codeOf = async (response: Response) => [response.status, ((await response.json()) as { error: { code: string } }).error.code];

describe('the Host check', () => {
  it('a page whose domain re-resolves to 127.0.0.1 cannot drive a turn or call a tool, though its Origin matches (403)', async () => {
    for (const origin of ['http://rebind.example:8787', 'http://127.0.0.1.nip.io:8787', 'http://localhost.evil.example']) {
      expect(await codeOf(await exports.default.fetch(chatFrom(origin))), origin).toEqual([403, 'forbidden-host']);
    }
    const mcp = new Request('http://rebind.example:8787/api/mcp', {
      method: 'POST',
      headers: { origin: 'http://rebind.example:8787', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'query_order', arguments: { order_id: 'A-1002' } } }),
    });
    expect(await codeOf(await exports.default.fetch(mcp))).toEqual([403, 'forbidden-host']);
    expect(await codeOf(await exports.default.fetch(new Request('http://rebind.example/api/health')))).toEqual([403, 'forbidden-host']);
    // The URL is the Worker's own, the Host header another name: refused too.
    const spoofed = new Request('http://localhost/api/health', { headers: { host: 'rebind.example:8787' } });
    expect(await codeOf(await exports.default.fetch(spoofed))).toEqual([403, 'forbidden-host']);
  });

  it('localhost and IP addresses are served on any port (wrangler dev, the e2e proxy, a phone on the LAN)', async () => {
    for (const origin of ['http://localhost:8787', 'http://127.0.0.1:8787', 'http://[::1]:8787', 'http://localhost:5173', 'http://192.168.1.20:8787']) {
      const response = await exports.default.fetch(chatFrom(origin));
      expect(response.status, origin).toBe(200);
      await response.text();
    }
  });

  it('ALLOWED_HOSTS names the hosts of a deployment; unset, any *.workers.dev name is served', async () => {
    const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
    const health = (url: string, allowed?: string) => {
      const vars = allowed === undefined ? {} : { ALLOWED_HOSTS: allowed };
      return worker.fetch(new Request(`${url}/api/health`) as Parameters<typeof worker.fetch>[0], { ...env, ...vars }, ctx);
    };
    expect((await health('https://edgetool-demo.ada.workers.dev')).status).toBe(200);
    expect(await codeOf(await health('https://shop.example.com'))).toEqual([403, 'forbidden-host']);
    const allowed = ' Shop.example.com, *.eu.example.com ';
    for (const url of ['https://shop.example.com', 'https://de.eu.example.com', 'http://localhost:8787']) {
      expect((await health(url, allowed)).status, url).toBe(200);
    }
    for (const url of ['https://edgetool-demo.ada.workers.dev', 'https://eu.example.com', 'https://shop.example.com.evil.example']) {
      expect(await codeOf(await health(url, allowed)), url).toEqual([403, 'forbidden-host']);
    }
  });

  it('isAllowedHost reads URL host names: IPv4 and bracketed IPv6 literals, localhost and *.localhost, a trailing dot, a list with wildcards', () => {
    const served = ['localhost', '127.0.0.1', '[::1]', '10.0.0.7', 'x.workers.dev', 'localhost.', 'shop.localhost', 'x.workers.dev.'];
    expect(served.map((host) => isAllowedHost(host, undefined))).toEqual([true, true, true, true, true, true, true, true]);
    expect(isAllowedHost('shop.example.com.', 'shop.example.com')).toBe(true);
    expect(isAllowedHost('shop.example.com', 'shop.example.com.')).toBe(true);
    const refused = ['localhost.evil.example', 'evil-localhost', '.', 'workers.dev', 'x.workers.dev.evil.example', '127.0.0.1.nip.io', ''];
    expect(refused.filter((host) => isAllowedHost(host, undefined))).toEqual([]);
    expect(isAllowedHost('a.example.com', ',, ')).toBe(false);
    expect(isAllowedHost('a.workers.dev', 'shop.example.com')).toBe(false);
  });
});
