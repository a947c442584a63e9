import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { demoAgent, MissingSecretError } from './agent.ts';
import type { Env } from './env.ts';

describe('demoAgent', () => {
  it('builds the agent once per env and shares it between requests', async () => {
    const e = env as Env;
    const first = demoAgent(e);
    expect(demoAgent(e)).toBe(first);
    const { agent } = await first;
    expect((await agent.registry.tools()).map((t) => t.name)).toContain('delay_analyst');
    const other = { ...e } as Env;
    expect(demoAgent(other)).not.toBe(first);
  });

  it('does not cache a failed build: a secret added later is picked up', async () => {
    const broken = { ...(env as Env), TICKET_SECRET: '' } as Env;
    await expect(demoAgent(broken)).rejects.toBeInstanceOf(MissingSecretError);
    (broken as { TICKET_SECRET: string }).TICKET_SECRET = 'a-secret-added-later-that-is-32-bytes-long';
    await expect(demoAgent(broken)).resolves.toHaveProperty('agent');
  });
});
