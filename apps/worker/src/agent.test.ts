import type { EdgetoolUIMessage } from '@edgetool/ai';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { chatRequest, readTurn, toolPart, user } from '../test/chat-client.ts';
import { NOW, testRun } from '../test/support.ts';
import worker from './index.ts';
import { createDemoAgent, DEFAULT_TURN_TOKEN_BUDGET, demoAgent, MissingSecretError, offlineDelay, turnTokenBudget } from './agent.ts';
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

describe('the offline model\'s pace (OFFLINE_DELAY_MS)', () => {
  it('is the README\'s: milliseconds between chunks, 0 by default or for what is no positive number, at most 2,000', () => {
    const delay = (OFFLINE_DELAY_MS?: string) => offlineDelay({ ...(env as Env), ...(OFFLINE_DELAY_MS === undefined ? {} : { OFFLINE_DELAY_MS }) });
    expect([delay(), delay('30'), delay('2000'), delay('2001'), delay('600000'), delay('-5'), delay('soon'), delay('Infinity')]).toEqual([0, 30, 2000, 2000, 2000, 0, 0, 0]);
  });
});

describe("the agent's clock (now)", () => {
  it('is the offline model\'s: "tomorrow" is the day after the pinned day, and the text before the approval says so', async () => {
    const { agent } = await createDemoAgent(env as Env, { now: () => NOW.getTime() });
    const result = await agent.generate({ messages: 'postpone A-1003 to tomorrow', run: testRun({ conversationId: 'agent-clock' }) });
    const parts = result.message.parts.flatMap((part) => ('input' in part && 'state' in part ? [[part.type, part.state, part.input]] : []));
    expect(parts).toEqual([['tool-update_delivery_date', 'approval-requested', { order_id: 'A-1003', new_date: '2026-11-21' }]]);
    const said = result.message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
    expect(said).toContain('Reading "tomorrow" as 2026-11-21 (today is 2026-11-20 UTC).');
  });

  it('reads "yesterday" as the day before, which the tool refuses before anyone is asked to approve it', async () => {
    const { agent } = await createDemoAgent(env as Env, { now: () => NOW.getTime() });
    const result = await agent.generate({ messages: 'postpone A-1003 to yesterday', run: testRun({ conversationId: 'agent-yesterday' }) });
    const states = result.message.parts.flatMap((part) => ('state' in part && part.type.startsWith('tool-') ? [part.state] : []));
    expect(states).not.toContain('approval-requested');
    expect(result.toolResults[0]?.content).toContain('2026-11-19 is in the past (today is 2026-11-20 UTC)');
  });
});

describe('the offline model on the demo data', () => {
  it('"the three most delayed orders" lists three, most delayed first, and says how many are late in all', async () => {
    const { agent } = await createDemoAgent(env as Env, { now: () => NOW.getTime() });
    const result = await agent.generate({ messages: 'the three most delayed orders', run: testRun({ conversationId: 'three-most' }) });
    expect(result.toolResults[0]?.content).toContain('"count":3,"total":6');
    expect(result.text).toContain('A-1012');
    expect(result.text).toMatch(/A-1012[\s\S]*A-1006[\s\S]*A-1002/);
  });

  it('goes on from the chart, the invoice and the audit the conversation holds, with the demo tools (session 33b)', async () => {
    const { agent } = await createDemoAgent(env as Env, { now: () => NOW.getTime() });
    // Two messages of one conversation: what the second one calls and says.
    const talk = async (id: string, first: string, then: string) => {
      const run = testRun({ conversationId: id });
      const before = await agent.generate({ messages: first, run });
      const next = [...before.messages, user(then)];
      const after = await agent.generate({ messages: next, run });
      const calls = after.message.parts.flatMap((part) => ('input' in part && part.type.startsWith('tool-') ? [[part.type, part.input]] : []));
      return { before: before.text, calls, text: after.text };
    };
    // The chart reaches the model as its caption: "how many?" got the help text.
    const chart = await talk('33b-chart', 'Show me a chart of the orders', 'how many?');
    expect(chart.calls).toEqual([]);
    expect(chart.text).toMatch(/^orders_chart counted \d+ orders in all: pending \d+, shipped \d+, delayed \d+, delivered \d+\./);
    // The invoice's total with VAT: it made the invoice again.
    const vat = await talk('33b-vat', 'Show me the invoice for A-1001', 'how much is that with 19% VAT?');
    const total = /total ([\d,]+\.\d{2}) EUR/.exec(vat.before)?.[1]?.replace(/,/g, '');
    expect(total).toBeDefined();
    expect(vat.calls).toEqual([['tool-calculate', { expression: `${total} * (1 + 19 / 100)` }]]);
    expect(vat.text).toContain(`= ${Math.round(Number(total) * 119) / 100}`);
    // The audit says why each order was flagged: it said "reasons: 2 items".
    const audit = await agent.generate({ messages: 'Audit the open orders', run: testRun({ conversationId: '33b-audit' }) });
    expect(audit.text).toContain('reasons: status is delayed, running');
    expect(audit.text).not.toMatch(/reasons: \d+ items?/);
  });
});

describe('what the model and the browser read of a failure', () => {
  it('a D1 error is hidden from both (hide-unexpected); edgetool’s own message still reaches the model as written', async () => {
    const failing = { prepare: () => { throw new Error('D1_ERROR: no such table: orders (internal host 10.0.3.7)'); } } as unknown as D1Database;
    const { agent } = await createDemoAgent(env as Env);
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const hidden = await agent.generate({ messages: 'Where is order A-1002?', run: testRun({ conversationId: 'hidden-error', deps: { db: failing } }) });
      const [call] = hidden.toolResults;
      expect(call?.content).toBe(`Error (execution-failed): The tool failed unexpectedly (reference ${call?.call.id}).`);
      expect(JSON.stringify(hidden.messages)).not.toContain('10.0.3.7');
      expect(JSON.stringify(log.mock.calls)).toContain('10.0.3.7'); // the Worker's log keeps it
    } finally {
      log.mockRestore();
    }
    const shown = await agent.generate({ messages: '/query_order {"order_id":"order nine"}', run: testRun({ conversationId: 'shown-error' }) });
    expect(shown.toolResults[0]?.content).toMatch(/^Error \(invalid-input\): /);
    expect(shown.toolResults[0]?.content).toContain('Order ids look like A-1001');
  });
});

describe('the token budget of a chat turn (TURN_TOKEN_BUDGET)', () => {
  const withBudget = (value: string | undefined) => ({ ...(env as Env), TURN_TOKEN_BUDGET: value }) as Env;

  it('reads the variable, with a default on a real model and none on the offline one, and refuses what is not a positive whole number', () => {
    const real = { offline: false };
    const offline = { offline: true };
    expect(turnTokenBudget(withBudget(undefined), real)).toBe(DEFAULT_TURN_TOKEN_BUDGET);
    expect(turnTokenBudget(withBudget(' '), real)).toBe(DEFAULT_TURN_TOKEN_BUDGET);
    expect(turnTokenBudget(withBudget(undefined), offline)).toBeUndefined();
    expect(turnTokenBudget(withBudget(' '), offline)).toBeUndefined();
    // Set, it holds on either: the demo can show the limit without a key.
    expect(turnTokenBudget(withBudget('1200'), real)).toBe(1200);
    expect(turnTokenBudget(withBudget('1200'), offline)).toBe(1200);
    for (const bad of ['0', '-3', '1.5', 'lots', '1e400']) {
      for (const model of [real, offline]) expect(() => turnTokenBudget(withBudget(bad), model)).toThrow(/TURN_TOKEN_BUDGET/);
    }
  });

  it('through the Worker: a long conversation is refused on a real model by default, and answered by the offline model', async () => {
    const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
    // About 300 KB of history (under the 512 KB body limit): some 75,000 tokens by the estimate, over the default 50,000.
    // A long answer, not a long question: the offline model's reading of user text is quadratic in its length.
    const long: EdgetoolUIMessage = { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: `The shop's story: ${'lorem ipsum '.repeat(25_000)}` }] };
    const messages = [user('Tell me about the shop.'), long, user('Where is order A-1002?')];
    const turn = async (id: string, vars: Partial<Env>) => {
      const response = await worker.fetch(chatRequest({ id, messages }) as Parameters<typeof worker.fetch>[0], { ...(env as Env), ...vars }, ctx);
      expect(response.status, id).toBe(200);
      return readTurn(response);
    };
    const fetches = vi.spyOn(globalThis, 'fetch');
    try {
      // A real model (an OpenAI-compatible server no test runs): the estimate refuses the call before any request is made.
      const real = await turn('budget-real', { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', TURN_TOKEN_BUDGET: '' });
      expect(real.chunks.at(-1)).toMatchObject({ type: 'finish', messageMetadata: { limit: 'tokens' } });
      expect(fetches.mock.calls.filter(([input]) => String(input instanceof Request ? input.url : input).includes('127.0.0.1:9'))).toEqual([]);
    } finally {
      fetches.mockRestore();
    }
    // The offline model costs nothing: no budget unless TURN_TOKEN_BUDGET sets one, so it looks the order up and answers.
    const offline = await turn('budget-offline', { TURN_TOKEN_BUDGET: '' });
    expect(toolPart(offline.message, 'query_order')?.output).toMatchObject({ found: true, order: { id: 'A-1002' } });
    expect(offline.chunks.at(-1)).toMatchObject({ type: 'finish' });
    expect(offline.message.metadata?.limit).toBeUndefined();
    expect(offline.message.parts.some((part) => part.type === 'text' && part.text.includes('A-1002'))).toBe(true);
    // Set, it holds on the offline model too.
    const set = await turn('budget-offline-set', { TURN_TOKEN_BUDGET: '50000' });
    expect(set.chunks.at(-1)).toMatchObject({ type: 'finish', messageMetadata: { limit: 'tokens' } });
    expect(toolPart(set.message, 'query_order')).toBeUndefined();
  });

  it('a turn whose first prompt is over it is not sent to the model, and says so in its metadata', async () => {
    const question = 'Where is order A-1002?';
    const { agent } = await createDemoAgent(withBudget('10'));
    const stopped = await agent.generate({ messages: question, run: testRun({ conversationId: 'budget-low' }) });
    // The instructions and the tools alone are estimated at far more than 10 tokens: the model was not asked at all
    // (before the check before each call, it looked the order up and only the second step was refused).
    expect(stopped.toolResults).toEqual([]);
    expect(stopped.usage.totalTokens ?? 0).toBe(0);
    expect(stopped.limit).toBe('tokens');
    expect(stopped.message.metadata?.limit).toBe('tokens');

    const { agent: roomy } = await createDemoAgent(withBudget(undefined));
    const answered = await roomy.generate({ messages: question, run: testRun({ conversationId: 'budget-default' }) });
    expect(answered.limit).toBeUndefined();
    expect(answered.text).not.toBe('');
  });
});
