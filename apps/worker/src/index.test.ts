import { env, exports } from 'cloudflare:workers';
import { createRunContext, defineTool, memoryRateLimiter } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { describeTool, listTools, type ToolDescription } from './api/index.ts';
import { createDemoRegistry, type DemoDeps } from './tools/index.ts';
import { createApiRouter } from './http/index.ts';

const fetchWorker = (path: string, init?: RequestInit) => exports.default.fetch(new Request(`http://localhost${path}`, init));

describe('HTTP routes', () => {
  it('GET /api/health', async () => {
    const response = await fetchWorker('/api/health');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ ok: true, model: { provider: 'edgetool.offline', modelId: 'edgetool-offline', offline: true } });
  });

  it('GET /api/tools lists every tool with its JSON Schema and policy', async () => {
    const response = await fetchWorker('/api/tools');
    expect(response.status).toBe(200);
    const { tools } = (await response.json()) as { tools: ToolDescription[] };
    expect(tools.map((t) => t.name)).toEqual([
      'query_order',
      'list_delayed_orders',
      'audit_orders',
      'orders_chart',
      'order_invoice',
      'update_delivery_date',
      'send_email',
      'world_clock',
      'calculate',
      'delay_analyst',
      'browser_time_zone',
      'pick_date',
      'cart_add',
      'cart_list',
      'cart_clear',
    ]);
    expect(tools.find((t) => t.name === 'pick_date')?.policy.runsOn).toBe('client');
    expect(tools.find((t) => t.name === 'send_email')).toEqual({
      name: 'send_email',
      description: expect.stringContaining('outbox'),
      inputSchema: expect.objectContaining({ type: 'object', required: ['order_id', 'subject', 'body'] }),
      policy: { effects: 'destructive', runsOn: 'server', needsApproval: true, returnDirect: false, retries: 0, rateLimited: true, coerce: false, strict: false },
    });
    expect(tools.find((t) => t.name === 'query_order')?.policy).toEqual({
      effects: 'read',
      runsOn: 'server',
      needsApproval: false,
      returnDirect: false,
      timeoutMs: 5000,
      retries: 0,
      maxCallsPerRun: 10,
      rateLimited: false,
      coerce: false,
      strict: false,
    });
    // How the server reads a tool's arguments, for a client that checks them first (the browser chain in manual mode).
    expect(tools.find((t) => t.name === 'list_delayed_orders')?.policy).toMatchObject({ coerce: true, strict: false });
  });

  it("describeTool carries a tool's coerce and strict policy, so a client reads its arguments as the server will", () => {
    const strict = defineTool({ name: 'strict_one', description: 'x', input: v.object({ note: v.optional(v.string()) }), policy: { strict: true }, execute: () => 'ok' });
    const both = defineTool({ name: 'both', description: 'x', input: v.object({ days: v.number() }), policy: { strict: true, coerce: true }, execute: () => 'ok' });
    expect([strict, both].map((tool) => describeTool(tool).policy)).toMatchObject([
      { coerce: false, strict: true },
      { coerce: true, strict: true },
    ]);
  });

  it('lists only the tools the run may see: without the EMAIL_LIMITER binding, no send_email', async () => {
    const names = async (deps: Parameters<typeof createRunContext<DemoDeps>>[0]) =>
      ((await (await listTools(createDemoRegistry(), createRunContext(deps))).json()) as { tools: ToolDescription[] }).tools.map((t) => t.name);
    expect(await names({ deps: { db: env.DB, emailLimiter: memoryRateLimiter({ limit: 1, periodMs: 1000 }) } })).toContain('send_email');
    expect(await names({ deps: { db: env.DB } })).not.toContain('send_email');
    expect(await names({ deps: { db: env.DB } })).toContain('update_delivery_date');
  });

  it.each([['/api/nope'], ['/api'], ['/api/health/extra']])('GET %s → JSON 404', async (path) => {
    const response = await fetchWorker(path);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ error: { code: 'not-found', message: `No API route GET ${path}.` } });
  });

  it('a known path with the wrong method → JSON 405 with Allow', async () => {
    const response = await fetchWorker('/api/health', { method: 'POST', body: '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(await response.json()).toEqual({ error: { code: 'method-not-allowed', message: '/api/health accepts GET, HEAD, not POST.' } });
  });

  it('HEAD on a GET route answers like GET without the body (uptime checks send HEAD); a POST-only route still refuses it', async () => {
    const get = await fetchWorker('/api/health');
    const head = await fetchWorker('/api/health', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('cache-control')).toBe('no-store');
    expect(await head.text()).toBe('');
    await get.body?.cancel();
    expect((await fetchWorker('/api/tools', { method: 'HEAD' })).status).toBe(200);
    const chat = await fetchWorker('/api/chat', { method: 'HEAD' });
    expect(chat.status).toBe(405);
    expect(chat.headers.get('allow')).toBe('POST');
    await chat.body?.cancel();
  });

  it('anything outside /api/ comes from the static assets (the placeholder in tests)', async () => {
    const index = await fetchWorker('/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await index.text()).toContain('edgetool');
    // Not an API path, so no JSON error: the assets decide (single-page-app fallback in wrangler.jsonc).
    const deep = await fetchWorker('/orders/A-1001', { headers: { 'sec-fetch-mode': 'navigate', accept: 'text/html' } });
    expect(deep.headers.get('content-type') ?? '').not.toMatch(/json/);
    await deep.body?.cancel();
    expect(await (await fetchWorker('/apiary')).text()).not.toContain('not-found');
  });
});

describe('the router', () => {
  it('turns a throwing handler into a JSON 500 without leaking the error (it is logged)', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const router = createApiRouter<unknown>([
      {
        method: 'GET',
        path: '/api/boom',
        handler: () => {
          throw new Error('secret detail');
        },
      },
    ]);
    const response = await router(new Request('http://x/api/boom'), {}, {} as ExecutionContext);
    expect(response?.status).toBe(500);
    expect(await response?.json()).toEqual({ error: { code: 'internal-error', message: 'The server failed to handle this request.' } });
    expect(log).toHaveBeenCalledWith('GET /api/boom failed:', expect.objectContaining({ message: 'secret detail' }));
    log.mockRestore();
    expect(await router(new Request('http://x/index.html'), {}, {} as ExecutionContext)).toBeUndefined();
  });

  it('matches a :name segment to one non-empty segment, exact paths first, with 405 for another method', async () => {
    const named = (name: string) => () => new Response(name);
    const router = createApiRouter<unknown>([
      { method: 'GET', path: '/api/chat/:id/stream', handler: named('stream') },
      { method: 'GET', path: '/api/chat/x.y/stream', handler: named('exact') },
    ]);
    const get = async (path: string, method = 'GET') => {
      const response = await router(new Request(`http://x${path}`, { method }), {}, {} as ExecutionContext);
      return `${response?.status} ${await response?.text()}`;
    };
    expect(await get('/api/chat/abc/stream')).toBe('200 stream');
    expect(await get('/api/chat/x.y/stream')).toBe('200 exact');
    expect(await get('/api/chat/xzy/stream')).toBe('200 stream');
    expect(await get('/api/chat//stream')).toMatch(/^404/);
    expect(await get('/api/chat/a/b/stream')).toMatch(/^404/);
    expect(await get('/api/chat/abc/stream', 'DELETE')).toMatch(/^405/);
  });

  it('refuses duplicate routes and routes outside the prefix', async () => {
    const handler = () => new Response();
    expect(() => createApiRouter([{ method: 'GET', path: '/api/a', handler }, { method: 'GET', path: '/api/a', handler }])).toThrow(/Duplicate route/);
    expect(() => createApiRouter([{ method: 'GET', path: '/other', handler }])).toThrow(/outside/);
  });
});
