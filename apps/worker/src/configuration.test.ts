// A Worker configured so that it cannot serve: every /api route says what to set (500 not-configured), not a bare 500.
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import worker from './index.ts';
import { chooseModel } from './agent.ts';
import type { Env } from './env.ts';
import { ConfigurationError } from './http/index.ts';

const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
const turn = JSON.stringify({ id: 'config', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Where is order A-1002?' }] }] });

/** The Worker's answer to `request` under `env` with `vars` over it: status, code and message. */
async function answer(request: Request, vars: Partial<Env>) {
  const response = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...(env as Env), ...vars }, ctx);
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, code: body.error.code, message: body.error.message };
}

const chat = () => new Request('http://localhost/api/chat', { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://localhost' }, body: turn });

describe('a configuration the Worker cannot serve', () => {
  it('OPENAI_BASE_URL without OPENAI_API_KEY: health, tools and chat answer 500 not-configured naming the key', async () => {
    const vars = { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: '' };
    expect(() => chooseModel({ ...(env as Env), ...vars })).toThrow(ConfigurationError);
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      for (const request of [new Request('http://localhost/api/health'), new Request('http://localhost/api/tools'), chat()]) {
        const { status, code, message } = await answer(request, vars);
        expect([status, code], request.url).toEqual([500, 'not-configured']);
        expect(message).toContain('OPENAI_API_KEY');
      }
      // Expected answers, not failures of the server: nothing logged as one.
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
  });

  it('a TURN_TOKEN_BUDGET that is no positive whole number, and a missing TICKET_SECRET: the chat answers 500 not-configured', async () => {
    const budget = await answer(chat(), { TURN_TOKEN_BUDGET: 'lots' });
    expect([budget.status, budget.code]).toEqual([500, 'not-configured']);
    expect(budget.message).toContain('TURN_TOKEN_BUDGET');
    const secret = await answer(chat(), { TICKET_SECRET: '' });
    expect([secret.status, secret.code]).toEqual([500, 'not-configured']);
    expect(secret.message).toContain('TICKET_SECRET');
  });
});
