import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { testRun } from '../test/support.ts';
import { createDemoAgent, DEFAULT_TURN_TOKEN_BUDGET, demoAgent, MissingSecretError, turnTokenBudget } from './agent.ts';
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

describe('the token budget of a chat turn (TURN_TOKEN_BUDGET)', () => {
  const withBudget = (value: string | undefined) => ({ ...(env as Env), TURN_TOKEN_BUDGET: value }) as Env;

  it('reads the variable, with a default, and refuses what is not a positive whole number', () => {
    expect(turnTokenBudget(withBudget(undefined))).toBe(DEFAULT_TURN_TOKEN_BUDGET);
    expect(turnTokenBudget(withBudget(' '))).toBe(DEFAULT_TURN_TOKEN_BUDGET);
    expect(turnTokenBudget(withBudget('1200'))).toBe(1200);
    for (const bad of ['0', '-3', '1.5', 'lots', '1e400']) expect(() => turnTokenBudget(withBudget(bad))).toThrow(/TURN_TOKEN_BUDGET/);
  });

  it('a turn that reaches it stops after the step that did, and says so in its metadata', async () => {
    const question = 'Where is order A-1002?';
    const { agent } = await createDemoAgent(withBudget('10'));
    const stopped = await agent.generate({ messages: question, run: testRun({ conversationId: 'budget-low' }) });
    // The offline model looked the order up (one step, far more than 10 tokens) and was not asked again.
    expect(stopped.toolResults.map((r) => r.call.name)).toEqual(['query_order']);
    expect(stopped.limit).toBe('tokens');
    expect(stopped.message.metadata?.limit).toBe('tokens');

    const { agent: roomy } = await createDemoAgent(withBudget(undefined));
    const answered = await roomy.generate({ messages: question, run: testRun({ conversationId: 'budget-default' }) });
    expect(answered.limit).toBeUndefined();
    expect(answered.text).not.toBe('');
  });
});
