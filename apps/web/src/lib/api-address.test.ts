import { describe, expect, it } from 'vitest';
import { API_BASE, apiAddress, DEV_API_TARGET, proxiedTo } from './api-address.ts';

describe('apiAddress', () => {
  it("names the page's own origin, and starts the Worker on the page's port (the banner said 8787 whatever it was)", () => {
    expect(apiAddress('http://127.0.0.1:8790/?chat=1#x')).toEqual({
      url: 'http://127.0.0.1:8790/api',
      host: '127.0.0.1:8790',
      proxied: false,
      start: 'PORT=8790 pnpm --filter @edgetool/worker dev',
    });
    expect(apiAddress('http://localhost:9000/').start).toBe('PORT=9000 pnpm --filter @edgetool/worker dev');
    expect(apiAddress('http://[::1]:8791/').host).toBe('[::1]:8791');
  });

  it('names no PORT for the default one', () => {
    expect(apiAddress('http://127.0.0.1:8787/')).toMatchObject({ url: 'http://127.0.0.1:8787/api', start: 'pnpm --filter @edgetool/worker dev' });
  });

  it("names the dev server's proxy target, not the dev server", () => {
    expect(apiAddress('http://localhost:5173/', DEV_API_TARGET)).toEqual({
      url: `${DEV_API_TARGET}${API_BASE}`,
      host: '127.0.0.1:8787',
      proxied: true,
      start: 'pnpm --filter @edgetool/worker dev',
    });
  });

  it('offers no command for a Worker that is not on this machine', () => {
    expect(apiAddress('https://edgetool-demo.example.workers.dev/')).toEqual({
      url: 'https://edgetool-demo.example.workers.dev/api',
      host: 'edgetool-demo.example.workers.dev',
      proxied: false,
      start: undefined,
    });
    expect(apiAddress('http://192.168.1.20:8787/').start).toBeUndefined();
  });
});

describe('proxiedTo', () => {
  it("reads the origin vite's proxy names, and nothing else", () => {
    expect(proxiedTo('http://127.0.0.1:8787')).toBe('http://127.0.0.1:8787');
    expect(proxiedTo('http://localhost:9000/api/')).toBe('http://localhost:9000');
    for (const header of [null, undefined, '', '8787', 'javascript:alert(1)', 'file:///etc/passwd']) expect(proxiedTo(header)).toBeUndefined();
  });
});
