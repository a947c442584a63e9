// Proves that each vitest project really runs on the runtime it is named after, and that the
// web-standard APIs the core relies on exist there. See docs/testing.md.
import { describe, expect, expectTypeOf, it } from 'vitest';

type Runtime = 'node' | 'workerd' | 'chromium';

/** Detects the runtime by probing `globalThis`, never by importing a `node:` module. */
function detectRuntime(): Runtime | 'unknown' {
  const g = globalThis as { navigator?: { userAgent?: string }; window?: unknown; document?: unknown };
  if (g.navigator?.userAgent === 'Cloudflare-Workers') return 'workerd';
  if (typeof g.window === 'object' && typeof g.document === 'object') return 'chromium';
  const proc = (globalThis as { process?: { versions?: { node?: string } } }).process;
  if (typeof proc?.versions?.node === 'string') return 'node';
  return 'unknown';
}

describe('runtime', () => {
  it('is the runtime the project is named after', ({ task }) => {
    const project = task.file.projectName;
    const runtime = detectRuntime();
    expect(runtime).toBe(project);
    if (runtime === 'workerd') {
      expect(navigator.userAgent).toBe('Cloudflare-Workers');
      expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
    }
    if (runtime === 'chromium') {
      expect(navigator.userAgent).toMatch(/Chrome\//);
      expect(document.createElement('div').tagName).toBe('DIV');
    }
    if (runtime === 'node') {
      const { versions } = (globalThis as unknown as { process: { versions: Record<string, string> } }).process;
      expect(Number(versions.node?.split('.')[0])).toBeGreaterThanOrEqual(22);
      expect(typeof (globalThis as { document?: unknown }).document).toBe('undefined');
    }
  });

  it('has WebCrypto HMAC-SHA256 and SHA-256 digests', async () => {
    const data = new TextEncoder().encode('edgetool');
    const key = await crypto.subtle.importKey('raw', new TextEncoder().encode('secret'), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    const mac = await crypto.subtle.sign('HMAC', key, data);
    expect(mac.byteLength).toBe(32);
    expect(await crypto.subtle.verify('HMAC', key, mac, data)).toBe(true);
    expect((await crypto.subtle.digest('SHA-256', data)).byteLength).toBe(32);
    expect(crypto.randomUUID()).toMatch(/^[0-9a-f-]{36}$/);
    expect(crypto.getRandomValues(new Uint8Array(16)).length).toBe(16);
  });

  it('has TextEncoder and TextDecoder', () => {
    const bytes = new TextEncoder().encode('héllo ✓');
    expect(new TextDecoder().decode(bytes)).toBe('héllo ✓');
  });

  it('has AbortSignal.any and AbortSignal.timeout', async () => {
    expect(typeof AbortSignal.any).toBe('function');
    expect(typeof AbortSignal.timeout).toBe('function');
    const user = new AbortController();
    const merged = AbortSignal.any([user.signal, AbortSignal.timeout(60_000)]);
    expect(merged.aborted).toBe(false);
    user.abort(new Error('stop'));
    expect(merged.aborted).toBe(true);
    expect((merged.reason as Error).message).toBe('stop');

    const timedOut = AbortSignal.timeout(5);
    await new Promise<void>((resolve) => timedOut.addEventListener('abort', () => resolve(), { once: true }));
    expect((timedOut.reason as DOMException).name).toBe('TimeoutError');
  });

  it('has structuredClone', () => {
    const value = { a: [1, { b: new Date(0) }], m: new Map([['k', 1]]) };
    const copy = structuredClone(value);
    expect(copy).toEqual(value);
    expect(copy).not.toBe(value);
    expect(copy.m).toBeInstanceOf(Map);
  });

  it('has live type assertions (tsc fails if expectTypeOf ever degrades to any)', () => {
    expectTypeOf({ ok: true }).toEqualTypeOf<{ ok: boolean }>();
    // @ts-expect-error: a wrong type must be an error; if this line ever compiles, type tests check nothing.
    expectTypeOf<string>().toEqualTypeOf<number>();
  });
});
