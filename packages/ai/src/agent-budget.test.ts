import { createExecutor, createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { agentTool } from './agent-tool.ts';
import { createChatAgent } from './chat/chat-agent.ts';
import { generateTextTurn } from './chat/text-turn.ts';
import { callsStep, scriptedModel, textStep } from './testing/mock-model.ts';

// Every scripted step (callsStep, textStep) uses 10 input and 5 output tokens: 15 a step.
const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'agent-budget-test-secret-32-bytes!!' }] });
const run = () => createRunContext({ conversationId: 'conv-agent-budget' });
// These tests count the budget as the mock reports usage (15 a step), between steps and while agent calls run. The check
// before each model call estimates from the prompt's size, which a mock's reported usage does not follow: it is off here,
// and prompt-budget.test.ts tests it.
const unestimated = { inputTokenEstimate: false } as const;
const lookUp = defineTool({ name: 'query_order', description: 'Look up an order', input: v.object({ order_id: v.string() }), execute: ({ order_id }) => ({ order_id, status: 'late' }) });

/** Five steps of calls, then the answer: 6 model calls and 90 tokens when nothing stops it. */
const longScript = () =>
  scriptedModel(
    ...[1, 2, 3, 4, 5].map((n) => callsStep([[`i${n}`, 'query_order', { order_id: `A-${n}` }]])),
    textStep('All five are late.'),
  );

/** An agent tool over an agent with no budget of its own, whose turn would take 90 tokens. */
async function analyst(model = longScript(), name = 'analyst') {
  return agentTool({ name, description: 'Checks orders', agent: createChatAgent({ ...unestimated, model, tools: [lookUp], tickets }) });
}

const PARENT_NOTE = "(The agent stopped when the calling turn's token budget ran out before it finished its answer.)";

describe('agent as tool: the calling turn’s token budget caps the sub-agent while it runs', () => {
  it('UI turn: the sub-agent gets what the turn has left, its tokens still count, and the turn ends on its budget', async () => {
    const innerModel = longScript();
    const tool = await analyst(innerModel);
    const outerModel = scriptedModel(callsStep([['o1', 'analyst', { task: 'Check A-1 to A-5' }]]), textStep('They are late.'));
    const result = await createChatAgent({ ...unestimated, model: outerModel, tools: [tool], tickets, tokenBudget: 40 }).generate({ messages: 'Are my orders late?', run: run() });
    // The outer step (15) and two inner steps (30) reach 45: the sub-agent stops there, not after its six steps (90).
    expect(innerModel.doGenerateCalls).toHaveLength(2);
    expect(outerModel.doStreamCalls).toHaveLength(1);
    expect(result.limit).toBe('tokens');
    expect(result.usage).toMatchObject({ totalTokens: 45 });
    const [call] = result.toolResults;
    expect(call?.content).toBe(PARENT_NOTE);
    expect(call?.usage).toMatchObject({ totalTokens: 30 });
  });

  it('text turn: the same, and a turn budget lower than the agent’s caps it too', async () => {
    const innerModel = longScript();
    const tool = await analyst(innerModel);
    const outerModel = scriptedModel(callsStep([['o1', 'analyst', { task: 'Check A-1 to A-5' }]]), textStep('They are late.'));
    const outer = createChatAgent({ ...unestimated, model: outerModel, tools: [tool], tickets, tokenBudget: 1000 });
    const result = await generateTextTurn(outer, { messages: 'Are my orders late?', run: run(), tokenBudget: 40 });
    expect(innerModel.doGenerateCalls).toHaveLength(2);
    expect(outerModel.doGenerateCalls).toHaveLength(1);
    expect(result.limit).toBe('tokens');
    expect(result.usage).toMatchObject({ totalTokens: 45 });
    expect(result.toolResults[0]?.content).toBe(PARENT_NOTE);
  });

  it('two calls of one agent tool in one step share what is left: neither runs on past the budget', async () => {
    const outerModel = scriptedModel(
      callsStep([
        ['o1', 'analyst', { task: 'Check A-1 to A-5' }],
        ['o2', 'analyst', { task: 'Check A-6 to A-9' }],
      ]),
      textStep('Late.'),
    );
    // One agent, one model script shared by both calls: 12 model calls in all if nothing stops them.
    const shared = longScript();
    const both = await agentTool({ name: 'analyst', description: 'Checks orders', agent: createChatAgent({ ...unestimated, model: shared, tools: [lookUp], tickets }) });
    const result = await generateTextTurn(createChatAgent({ ...unestimated, model: outerModel, tools: [both], tickets, tokenBudget: 40 }), { messages: 'Check', run: run() });
    // 15 for the outer step; each sub-agent's first step adds 15 (45 in all): both stop after it.
    expect(shared.doGenerateCalls).toHaveLength(2);
    expect(result.limit).toBe('tokens');
    expect(result.usage).toMatchObject({ totalTokens: 45 });
  });

  it('a nested agent is capped by the outermost turn’s budget too', async () => {
    const innermost = longScript();
    const deep = await analyst(innermost, 'deep_analyst');
    // The middle agent calls the deep one, then would answer; it has no budget of its own.
    const middleModel = scriptedModel(callsStep([['m1', 'deep_analyst', { task: 'Check everything' }]]), textStep('Done.'));
    const middle = await agentTool({ name: 'middle', description: 'Delegates', agent: createChatAgent({ ...unestimated, model: middleModel, tools: [deep], tickets }) });
    const outerModel = scriptedModel(callsStep([['o1', 'middle', { task: 'Check' }]]), textStep('Late.'));
    const result = await generateTextTurn(createChatAgent({ ...unestimated, model: outerModel, tools: [middle], tickets, tokenBudget: 50 }), { messages: 'Check', run: run() });
    // Outer 15, middle 15, deep 15 + 15 = 60: the deep agent stops after its second step, the middle one after its first.
    expect(innermost.doGenerateCalls).toHaveLength(2);
    expect(middleModel.doGenerateCalls).toHaveLength(1);
    expect(result.limit).toBe('tokens');
    expect(result.usage).toMatchObject({ totalTokens: 60 });
  });

  it('an agent call made once the budget is spent does not start: the calling model reads why', async () => {
    const innerModel = longScript();
    const tool = await analyst(innerModel);
    // The outer step alone (15) uses the budget of 10; generateText runs its calls after the model call has ended.
    const outerModel = scriptedModel(callsStep([['o1', 'analyst', { task: 'Check' }]]), textStep('Late.'));
    const result = await generateTextTurn(createChatAgent({ ...unestimated, model: outerModel, tools: [tool], tickets, tokenBudget: 10 }), { messages: 'Check', run: run() });
    expect(innerModel.doGenerateCalls).toHaveLength(0);
    expect(result.limit).toBe('tokens');
    expect(result.toolResults[0]?.content).toBe("Error (execution-failed): The calling turn's token budget is used up: the agent did not start.");
  });

  it('a structured answer: the call fails with the reason, and a repair round does not start once nothing is left', async () => {
    const Delay = v.object({ order_id: v.string(), days_late: v.number() });
    const cut = longScript();
    const tool = await agentTool({ name: 'analyst', description: 'Checks', agent: createChatAgent({ ...unestimated, model: cut, tools: [lookUp], tickets }), output: Delay });
    const outerModel = () => scriptedModel(callsStep([['o1', 'analyst', { task: 'How late is A-1?' }]]), textStep('Late.'));
    const stopped = await generateTextTurn(createChatAgent({ ...unestimated, model: outerModel(), tools: [tool], tickets, tokenBudget: 40 }), { messages: 'Check', run: run() });
    expect(cut.doGenerateCalls).toHaveLength(2);
    expect(stopped.toolResults[0]?.content).toBe("Error (execution-failed): The agent stopped when the calling turn's token budget ran out before it gave its answer.");
    // An answer that fails the schema after the budget ran out: no repair round (it would spend past it).
    const prose = scriptedModel(textStep('About three days.'), textStep('{"order_id":"A-1","days_late":3}'));
    const wordy = await agentTool({ name: 'analyst', description: 'Checks', agent: createChatAgent({ ...unestimated, model: prose, tools: [], tickets }), output: Delay });
    const refused = await generateTextTurn(createChatAgent({ ...unestimated, model: outerModel(), tools: [wordy], tickets, tokenBudget: 30 }), { messages: 'Check', run: run() });
    expect(prose.doGenerateCalls).toHaveLength(1);
    expect(refused.toolResults[0]?.outcome).toMatchObject({ type: 'error', error: { code: 'invalid-output' } });
  });

  it('without a budget in the calling turn nothing changes, and an agent tool called outside a turn runs as before', async () => {
    const innerModel = longScript();
    const tool = await analyst(innerModel);
    const outerModel = scriptedModel(callsStep([['o1', 'analyst', { task: 'Check' }]]), textStep('Late.'));
    const result = await generateTextTurn(createChatAgent({ ...unestimated, model: outerModel, tools: [tool], tickets }), { messages: 'Check', run: run() });
    expect(innerModel.doGenerateCalls).toHaveLength(6);
    expect(result.text).toBe('Late.');
    const alone = await createExecutor({ registry: [await analyst()] }).execute({ id: 'a1', name: 'analyst', arguments: { task: 'Check' } });
    expect(alone.content).toBe('All five are late.');
  });

  it('a turn a tool of one’s own runs on the calling turn’s run does not take the budget away from its later calls', async () => {
    const helper = createChatAgent({ ...unestimated, model: scriptedModel(textStep('Noted.')), tools: [], tickets });
    const askHelper = defineTool({
      name: 'ask_helper',
      description: 'Asks the helper',
      input: v.object({}),
      execute: async (_input, ctx) => (await generateTextTurn(helper, { messages: 'Note this', run: ctx.run })).text,
    });
    const innerModel = longScript();
    const tool = await analyst(innerModel);
    const outerModel = scriptedModel(callsStep([['o1', 'ask_helper', {}]]), callsStep([['o2', 'analyst', { task: 'Check' }]]), textStep('Late.'));
    const result = await generateTextTurn(createChatAgent({ ...unestimated, model: outerModel, tools: [askHelper, tool], tickets, tokenBudget: 60 }), { messages: 'Check', run: run() });
    // Two outer steps (30) leave 30: two inner steps. The helper's turn had left its own meter, with no budget, on the run.
    expect(innerModel.doGenerateCalls).toHaveLength(2);
    expect(result.limit).toBe('tokens');
  });

  it('a UI turn a tool of one’s own runs on the calling turn’s run puts its meter back too', async () => {
    // As above, with the helper's turn streamed (createChatAgent's generate): it left its meter, with no budget, on the run.
    const helper = createChatAgent({ ...unestimated, model: scriptedModel(textStep('Noted.')), tools: [], tickets });
    const askHelper = defineTool({
      name: 'ask_helper',
      description: 'Asks the helper',
      input: v.object({}),
      execute: async (_input, ctx) => (await helper.generate({ messages: 'Note this', run: ctx.run })).text,
    });
    const innerModel = longScript();
    const tool = await analyst(innerModel);
    const outerModel = scriptedModel(callsStep([['o1', 'ask_helper', {}]]), callsStep([['o2', 'analyst', { task: 'Check' }]]), textStep('Late.'));
    const result = await generateTextTurn(createChatAgent({ ...unestimated, model: outerModel, tools: [askHelper, tool], tickets, tokenBudget: 60 }), { messages: 'Check', run: run() });
    expect(result.toolResults[0]?.content).toBe('Noted.');
    expect(innerModel.doGenerateCalls).toHaveLength(2);
    expect(result.limit).toBe('tokens');
  });

  it('a later turn without a budget on the same run is not capped by an earlier turn’s', async () => {
    const shared = run();
    const first = await analyst();
    await generateTextTurn(createChatAgent({ ...unestimated, model: scriptedModel(callsStep([['o1', 'analyst', { task: 'Check' }]]), textStep('Late.')), tools: [first], tickets, tokenBudget: 40 }), {
      messages: 'Check',
      run: shared,
    });
    const innerModel = longScript();
    const second = await analyst(innerModel);
    const result = await generateTextTurn(createChatAgent({ ...unestimated, model: scriptedModel(callsStep([['o1', 'analyst', { task: 'Check' }]]), textStep('Late.')), tools: [second], tickets }), {
      messages: 'Check',
      run: shared,
    });
    expect(innerModel.doGenerateCalls).toHaveLength(6);
    expect(result.limit).toBeUndefined();
  });

  it('two turns at once on one run object are each held to their own budget (budget34)', async () => {
    // Turn A (a UI turn, 40 tokens) starts turn B (a text turn, 50 tokens) on its own run and goes on while B waits in a
    // tool; then each makes an agent call. B's meter replaced A's on the run: A's sub-agent ran on what B had left (3
    // steps), its tokens counted in B's budget, and B's own agent call then did not start.
    const shared = run();
    let entered = (): void => {};
    const waiting = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = defineTool({
      name: 'slow_read',
      description: 'Reads slowly',
      input: v.object({}),
      execute: async () => {
        entered();
        await gate;
        return 'read';
      },
    });
    const innerA = longScript();
    const innerB = longScript();
    const analystB = await analyst(innerB, 'analyst_b');
    const agentB = createChatAgent({
      ...unestimated,
      model: scriptedModel(callsStep([['b1', 'slow_read', {}]]), callsStep([['b2', 'analyst_b', { task: 'Check' }]]), textStep('B is done.')),
      tools: [slow, analystB],
      tickets,
      tokenBudget: 50,
    });
    let turnB: ReturnType<typeof generateTextTurn> | undefined;
    const startB = defineTool({
      name: 'start_b',
      description: 'Starts turn B',
      input: v.object({}),
      execute: async (_input, ctx) => {
        turnB = generateTextTurn(agentB, { messages: 'Check', run: ctx.run });
        await waiting;
        return 'started';
      },
    });
    const agentA = createChatAgent({
      ...unestimated,
      model: scriptedModel(callsStep([['a1', 'start_b', {}]]), callsStep([['a2', 'analyst', { task: 'Check' }]]), textStep('A is done.')),
      tools: [startB, await analyst(innerA)],
      tickets,
      tokenBudget: 40,
    });
    const a = await agentA.generate({ messages: 'Check', run: shared });
    release();
    const b = await turnB;
    // A: 30 spent when its agent call starts, 10 left: one inner step. B: 30 spent, 20 left: two.
    expect(innerA.doGenerateCalls).toHaveLength(1);
    expect(a.limit).toBe('tokens');
    expect(a.toolResults.find((result) => result.call.id === 'a2')?.content).toBe(PARENT_NOTE);
    expect(innerB.doGenerateCalls).toHaveLength(2);
    expect(b?.limit).toBe('tokens');
    expect(b?.toolResults.find((result) => result.call.id === 'b2')?.content).toBe(PARENT_NOTE);
  });
});
