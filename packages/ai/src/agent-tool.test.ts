import { contextKey, createExecutor, createRunContext, createTicketSigner, defineTool, type TraceRecord, withDeps } from '@edgetool/core';
import { setTraceparent } from '@edgetool/core/otel';
import { APICallError } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { agentTool } from './agent-tool.ts';
import { createChatAgent } from './chat/chat-agent.ts';
import { type EdgetoolUIMessage, MAX_TRACE_SUB_CALLS, type TracePartData } from './chat/protocol.ts';
import { generateTextTurn } from './chat/text-turn.ts';
import { respondToApproval } from './testing/client.ts';
import { callsStep, lastToolResults, scriptedModel, textStep } from './testing/mock-model.ts';

const tickets = createTicketSigner({ keys: [{ id: 'k', secret: 'agent-tool-test-secret-32-bytes-long!!' }] });
const note = contextKey<string>('note');

function innerTools(writes: string[]) {
  return [
    defineTool({
      name: 'query_order',
      description: 'Look up an order',
      input: v.object({ order_id: v.string() }),
      execute: ({ order_id }, ctx) => {
        ctx.run.set(note, `inner saw ${order_id}`);
        return { order_id, status: 'delayed', outer_note: ctx.run.get(contextKey<string>('unused')) ?? null };
      },
    }),
    defineTool({
      name: 'send_email',
      description: 'Email the customer',
      input: v.object({ order_id: v.string() }),
      policy: { effects: 'destructive' },
      execute: ({ order_id }) => {
        writes.push(order_id);
        return 'queued';
      },
    }),
  ];
}

/** The trace parts of a message, by tool call id (the last one wins). */
function tracePartsOf(message: EdgetoolUIMessage): Map<string, TracePartData> {
  const traces = new Map<string, TracePartData>();
  for (const part of message.parts) if (part.type === 'data-edgetool-trace') traces.set(part.data.toolCallId, part.data);
  return traces;
}

describe('agent as tool', () => {
  it('runs the sub-agent on a copy of the state: the caller sees only the call and its answer', async () => {
    const writes: string[] = [];
    const innerModel = scriptedModel(callsStep([['i1', 'query_order', { order_id: 'A-7' }]]), textStep('A-7 is delayed by 3 days.'));
    const inner = createChatAgent({ model: innerModel, tools: innerTools(writes).slice(0, 1), tickets });
    const support = await agentTool({ name: 'support_agent', description: 'Answers order questions', agent: inner });
    expect(support.policy.needsApproval).toBe(false);
    const outerModel = scriptedModel(callsStep([['o1', 'support_agent', { task: 'Check A-7' }]]), textStep('Your order is 3 days late.'));
    const outer = createChatAgent({ model: outerModel, tools: [support], tickets });
    const run = createRunContext({ conversationId: 'outer' });
    const result = await outer.generate({ messages: 'Is A-7 late?', run });
    expect(result.text).toBe('Your order is 3 days late.');
    // The output carries the inner turn's tokens (two mock steps of 10 in, 5 out); the model reads the answer only.
    const innerUsage = { inputTokens: 20, outputTokens: 10, totalTokens: 30 };
    expect(result.toolResults.map((r) => [r.call.name, r.outcome])).toEqual([['support_agent', { type: 'success', output: { answer: 'A-7 is delayed by 3 days.', usage: innerUsage } }]]);
    expect(lastToolResults(outerModel.doStreamCalls[1])).toEqual([{ toolCallId: 'o1', output: { type: 'text', value: 'A-7 is delayed by 3 days.' } }]);
    // The outer turn's usage is its own two steps plus the agent's.
    expect(result.usage).toMatchObject({ inputTokens: 40, outputTokens: 20, totalTokens: 60 });
    expect(result.message.metadata?.usage).toEqual({ inputTokens: 40, outputTokens: 20, totalTokens: 60 });
    // The inner conversation held only the task; its state did not leak into the outer run.
    expect(innerModel.doGenerateCalls[0]?.prompt).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Check A-7' }] }]);
    expect(run.get(note)).toBeUndefined();
    const parts = result.message.parts.map((p) => p.type);
    expect(parts.filter((t) => t.startsWith('tool-'))).toEqual(['tool-support_agent']);
  });

  it('an inner call\'s ctx.idempotencyKey is scoped by the outer call\'s: a regenerated agent call given the same id writes anew', async () => {
    const keys: string[] = [];
    const email = defineTool({
      name: 'send_email',
      description: 'Email the customer',
      input: v.object({ order_id: v.string() }),
      execute: (_input, ctx) => {
        keys.push(ctx.idempotencyKey);
        return 'queued';
      },
    });
    // The inner model numbers its calls the same way in both runs, as the outer one does (`o1` both times).
    const innerModel = scriptedModel(
      ...[1, 2, 3].flatMap(() => [callsStep([['i1', 'send_email', { order_id: 'A-7' }]]), textStep('Sent.')]),
    );
    const support = await agentTool({ name: 'support_agent', description: 'Emails', agent: createChatAgent({ model: innerModel, tools: [email], tickets }) });
    const executor = createExecutor({ registry: [support] });
    const call = { id: 'o1', name: 'support_agent', arguments: { task: 'Email A-7' } };
    // Two approvals of a call with one id (the chat loop passes each its ticket's key), then the first one again.
    for (const idempotencyKey of ['["outer","o1","nonce-1"]', '["outer","o1","nonce-2"]', '["outer","o1","nonce-1"]']) {
      const result = await executor.execute(call, { run: createRunContext({ conversationId: 'outer' }), idempotencyKey });
      expect(result.outcome.type).toBe('success');
    }
    expect(keys).toHaveLength(3);
    expect(keys[0]).not.toBe(keys[1]);
    // The same approval (a retry, the continuation sent again) keys its inner calls as before.
    expect(keys[2]).toBe(keys[0]);
  });

  it('the sub-agent’s tools get the outer run’s deps, which its type makes the outer run bring', async () => {
    const { defineTool: defineWithDb } = withDeps<{ db: { status(id: string): string } }>();
    const status = defineWithDb({ name: 'status', description: 'Order status', input: v.object({ id: v.string() }), execute: ({ id }, ctx) => ctx.run.deps.db.status(id) });
    const innerModel = scriptedModel(callsStep([['i1', 'status', { id: 'A-7' }]]), textStep('A-7 is late.'));
    const analyst = await agentTool({ name: 'analyst', description: 'Checks orders', agent: createChatAgent({ model: innerModel, tools: [status], tickets }) });
    const run = createRunContext({ conversationId: 'outer', deps: { db: { status: (id: string) => `${id}: delayed` } } });
    const result = await createExecutor({ registry: [analyst] }).execute({ id: 'a1', name: 'analyst', arguments: { task: 'Check A-7' } }, { run });
    expect(result.content).toBe('A-7 is late.');
    expect(lastToolResults(innerModel.doGenerateCalls[1])).toEqual([{ toolCallId: 'i1', output: { type: 'text', value: 'A-7: delayed' } }]);
  });

  it('timeoutMs bounds the whole call: a sub-agent whose model never answers fails with timeout and is aborted', async () => {
    let aborted = false;
    const hung = new MockLanguageModelV4({
      doGenerate: ({ abortSignal }) =>
        new Promise((_resolve, reject) =>
          abortSignal?.addEventListener('abort', () => {
            aborted = true;
            reject(abortSignal.reason);
          }),
        ),
    });
    const inner = createChatAgent({ model: hung, tools: innerTools([]).slice(0, 1), tickets, maxRetries: 0 });
    const slow = await agentTool({ name: 'slow_agent', description: 'Never answers', agent: inner, timeoutMs: 30 });
    expect(slow.policy.timeoutMs).toBe(30);
    const result = await createExecutor({ registry: [slow] }).execute({ id: 's1', name: 'slow_agent', arguments: { task: 'Think' } });
    expect(result.outcome.type === 'error' && result.outcome.error.code).toBe('timeout');
    expect(aborted).toBe(true);
  });

  it("a sub-agent whose model fails: the calling model and the browser read its errorMessage text, never the provider's message", async () => {
    const leaky = new APICallError({ message: 'Incorrect API key provided: sk-proj-abc***xyz (org org-internal-42)', url: 'https://api.openai.com/v1/responses', requestBodyValues: {}, statusCode: 401 });
    const failing = new MockLanguageModelV4({ doGenerate: () => Promise.reject(leaky) });
    const errors: unknown[] = [];
    const inner = createChatAgent({ model: failing, tools: innerTools([]).slice(0, 1), tickets, maxRetries: 0, onError: ({ error }) => errors.push(error) });
    const researcher = await agentTool({ name: 'researcher', description: 'Looks things up', agent: inner });
    const outerModel = scriptedModel(callsStep([['c1', 'researcher', { task: 'Find A-7' }]]), textStep('The researcher is unavailable.'));
    const result = await createChatAgent({ model: outerModel, tools: [researcher], tickets }).generate({ messages: 'Find A-7', run: createRunContext({ conversationId: 'c-fail' }) });
    const text = 'Error (execution-failed): The model call failed (AI_APICallError).';
    expect(lastToolResults(outerModel.doStreamCalls[1])).toEqual([{ toolCallId: 'c1', output: { type: 'error-text', value: text } }]);
    expect(result.message.parts.find((p) => p.type === 'tool-researcher')).toMatchObject({ state: 'output-error', errorText: text });
    expect(JSON.stringify(result.messages)).not.toContain('sk-proj');
    // The details go where the agent's own model errors go.
    expect(errors).toEqual([leaky]);
    // Its own words still reach the calling model: a ToolError (here the agent's responseMs) is written for it.
    const hung = new MockLanguageModelV4({ doGenerate: ({ abortSignal }) => new Promise((_resolve, reject) => abortSignal?.addEventListener('abort', () => reject(abortSignal.reason))) });
    const slow = await agentTool({ name: 'slow', description: 'Slow', agent: createChatAgent({ model: hung, tools: [], tickets, maxRetries: 0, modelTimeout: { responseMs: 20 } }) });
    const timedOut = await createExecutor({ registry: [slow] }).execute({ id: 's1', name: 'slow', arguments: { task: 'Think' } });
    expect(timedOut.content).toBe('Error (timeout): The model did not answer in time (no answer within 20 ms).');
  });

  it('a sub-agent stopped at its limit before answering says so: the calling model never takes its silence for an answer', async () => {
    const ask = async (options: { maxSteps?: number; tokenBudget?: number }) => {
      const innerModel = scriptedModel(callsStep([['i1', 'query_order', { order_id: 'A-7' }]]), callsStep([['i2', 'query_order', { order_id: 'A-8' }]]), textStep('Both delayed.'));
      // The budget counted between steps as the mock reports usage: no estimate before each call (prompt-budget.test.ts).
      const inner = createChatAgent({ model: innerModel, tools: innerTools([]).slice(0, 1), tickets, inputTokenEstimate: false, ...options });
      const analyst = await agentTool({ name: 'analyst', description: 'Checks orders', agent: inner });
      const result = await createExecutor({ registry: [analyst] }).execute({ id: 'a1', name: 'analyst', arguments: { task: 'Check A-7 and A-8' } });
      return { result, calls: innerModel.doGenerateCalls.length };
    };
    const steps = await ask({ maxSteps: 1 });
    expect(steps.calls).toBe(1);
    expect(steps.result.content).toBe('(The agent stopped at its step limit before it finished its answer.)');
    // 15 tokens a step: the second step reaches 30, so there is no third.
    const tokens = await ask({ tokenBudget: 30 });
    expect(tokens.calls).toBe(2);
    expect(tokens.result.content).toBe('(The agent stopped at its token budget before it finished its answer.)');
    expect(tokens.result.outcome.type === 'success' && tokens.result.outcome.output).toMatchObject({ usage: { totalTokens: 30 } });
    const answered = await ask({});
    expect(answered.result.content).toBe('Both delayed.');
  });

  it('an answer the output token limit cut, a content filter stopped, or no text at all says so to the calling model', async () => {
    const ask = async (text: string, finish: 'stop' | 'length' | 'content-filter') => {
      const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } };
      const content = text === '' ? [] : [{ type: 'text' as const, text }];
      const model = new MockLanguageModelV4({ doGenerate: async () => ({ content, finishReason: { unified: finish, raw: finish }, usage, warnings: [] }) });
      const analyst = await agentTool({ name: 'analyst', description: 'Checks orders', agent: createChatAgent({ model, tools: [], tickets }) });
      const result = await createExecutor({ registry: [analyst] }).execute({ id: 'a1', name: 'analyst', arguments: { task: 'Check A-7' } });
      expect(result.outcome).toMatchObject({ type: 'success', output: { answer: result.content } });
      return result.content;
    };
    // The model read "A-7 is dela" as the whole answer, and an empty text as one.
    expect(await ask('A-7 is dela', 'length')).toBe('A-7 is dela\n\n(The agent\'s answer was cut off at its output token limit.)');
    expect(await ask('', 'length')).toBe('(The agent\'s answer was cut off at its output token limit.)');
    expect(await ask('', 'content-filter')).toBe('(The provider\'s content filter stopped the agent\'s answer.)');
    expect(await ask('', 'stop')).toBe('(The agent ended without an answer.)');
    expect(await ask('  ', 'stop')).toBe('(The agent ended without an answer.)');
    expect(await ask('A-7 is delayed.', 'stop')).toBe('A-7 is delayed.');
  });

  it('the inner calls are traced by its agent’s onTrace, not the outer agent’s, in the outer run’s trace', async () => {
    const outerRecords: TraceRecord[] = [];
    const innerRecords: TraceRecord[] = [];
    const innerModel = () => scriptedModel(callsStep([['i1', 'query_order', { order_id: 'A-7' }]]), textStep('A-7 is delayed.'));
    const traced = (onTrace?: (record: TraceRecord) => void) =>
      agentTool({ name: 'support_agent', description: 'Answers', agent: createChatAgent({ model: innerModel(), tools: innerTools([]).slice(0, 1), tickets, ...(onTrace ? { onTrace } : {}) }) });
    const outerOver = async (tool: Awaited<ReturnType<typeof traced>>) =>
      createChatAgent({ model: scriptedModel(callsStep([['o1', 'support_agent', { task: 'Check A-7' }]]), textStep('Late.')), tools: [tool], tickets, onTrace: (r) => outerRecords.push(r) });
    const run = () => {
      const run = createRunContext({ conversationId: 'outer' });
      setTraceparent(run, '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
      return run;
    };
    // An agent without an onTrace of its own: its calls are recorded nowhere, the outer agent's records the call only.
    await (await outerOver(await traced())).generate({ messages: 'Is A-7 late?', run: run() });
    expect(outerRecords.map((r) => r.toolName)).toEqual(['support_agent']);
    // Given one (the same exporter), its calls join the request's trace, under the agent call's conversation.
    await (await outerOver(await traced((r) => innerRecords.push(r)))).generate({ messages: 'Is A-7 late?', run: run() });
    expect(innerRecords.map((r) => [r.toolName, r.conversationId, r.traceId])).toEqual([
      ['query_order', 'outer/support_agent/o1', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ]);
    expect(outerRecords.map((r) => r.toolName)).toEqual(['support_agent', 'support_agent']);
  });

  it('the inner calls’ records name the agent call and share its trace id; its own record is as before', async () => {
    const outerRecords: TraceRecord[] = [];
    const innerRecords: TraceRecord[] = [];
    const innerModel = scriptedModel(callsStep([['i1', 'query_order', { order_id: 'A-7' }], ['i2', 'no_such_tool', {}]]), textStep('A-7 is delayed.'));
    const support = await agentTool({
      name: 'support_agent',
      description: 'Answers',
      agent: createChatAgent({ model: innerModel, tools: innerTools([]).slice(0, 1), tickets, onTrace: (r) => innerRecords.push(r) }),
    });
    const outer = createChatAgent({
      model: scriptedModel(callsStep([['o1', 'support_agent', { task: 'Check A-7' }]]), textStep('Late.')),
      tools: [support],
      tickets,
      onTrace: (r) => outerRecords.push(r),
    });
    await outer.generate({ messages: 'Is A-7 late?', run: createRunContext({ conversationId: 'outer' }) });
    // No request trace: the agent call's trace is its call id's, and so is every inner call's (each had its own).
    expect(outerRecords.map((r) => [r.callId, r.traceId, r.parent])).toEqual([['o1', 'o1', undefined]]);
    const execute = outerRecords[0]?.spans.findIndex((span) => span.kind === 'execute');
    const parent = { callId: 'o1', toolName: 'support_agent', conversationId: 'outer', traceConversationId: 'outer', span: { start: outerRecords[0]?.spans[0]?.start, index: execute } };
    // In the order they ended: the unknown tool is refused at once.
    expect(innerRecords.map((r) => [r.callId, r.toolName, r.traceId, r.parent]).sort()).toEqual([
      ['i1', 'query_order', 'o1', parent],
      ['i2', 'no_such_tool', 'o1', parent],
    ]);
  });

  it('the agent call’s trace part carries its sub-agent’s calls: names, outcomes, error codes, durations, spans', async () => {
    const innerModel = scriptedModel(callsStep([['i1', 'query_order', { order_id: 'A-7' }], ['i2', 'no_such_tool', {}]]), textStep('A-7 is delayed.'));
    const support = await agentTool({ name: 'support_agent', description: 'Answers', agent: createChatAgent({ model: innerModel, tools: innerTools([]).slice(0, 1), tickets }) });
    const plain = defineTool({ name: 'clock', description: 'The time', input: v.object({}), execute: () => '12:00' });
    const outer = createChatAgent({
      model: scriptedModel(callsStep([['o1', 'support_agent', { task: 'Check A-7' }], ['o2', 'clock', {}]]), textStep('Late.')),
      tools: [support, plain],
      tickets,
    });
    const result = await outer.generate({ messages: 'Is A-7 late?', run: createRunContext({ conversationId: 'outer' }) });
    const traces = tracePartsOf(result.message);
    const agentTrace = traces.get('o1');
    expect(agentTrace?.calls?.map(({ toolCallId, toolName, outcome, errorCode }) => [toolCallId, toolName, outcome, errorCode]).sort()).toEqual([
      ['i1', 'query_order', 'success', undefined],
      ['i2', 'no_such_tool', 'error', 'unknown-tool'],
    ]);
    expect(agentTrace?.omittedCalls).toBeUndefined();
    const found = agentTrace?.calls?.find((call) => call.toolCallId === 'i1');
    expect(found?.durationMs).toBeGreaterThanOrEqual(0);
    expect(found?.spans.map((span) => [span.name, span.kind, span.outcome])).toEqual([['query_order', 'execute', 'success']]);
    // Another call's part is as it was.
    expect(traces.get('o2')).toBeDefined();
    expect(Object.keys(traces.get('o2') ?? {})).not.toContain('calls');
  });

  it('a trace part carries at most MAX_TRACE_SUB_CALLS sub-agent calls, nested ones included, and says how many it left out', async () => {
    const many = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => [`${prefix}${i}`, 'query_order', { order_id: `A-${i}` }] as const);
    const innerModel = scriptedModel(callsStep(many('i', MAX_TRACE_SUB_CALLS + 5)), textStep('Many are delayed.'));
    const support = await agentTool({ name: 'support_agent', description: 'Answers', agent: createChatAgent({ model: innerModel, tools: innerTools([]).slice(0, 1), tickets }) });
    const outer = createChatAgent({ model: scriptedModel(callsStep([['o1', 'support_agent', { task: 'Check all' }]]), textStep('Late.')), tools: [support], tickets });
    const result = await outer.generate({ messages: 'Which are late?', run: createRunContext({ conversationId: 'outer' }) });
    const agentTrace = tracePartsOf(result.message).get('o1');
    expect(agentTrace?.calls).toHaveLength(MAX_TRACE_SUB_CALLS);
    expect(agentTrace?.omittedCalls).toBe(5);

    // An agent whose sub-agent calls another agent: its calls nested under that call, when they fit.
    const deepModel = scriptedModel(callsStep(many('d', 2)), textStep('Two are delayed.'));
    const deep = await agentTool({ name: 'deep_agent', description: 'Digs', agent: createChatAgent({ model: deepModel, tools: innerTools([]).slice(0, 1), tickets }) });
    const middleModel = scriptedModel(callsStep([['m1', 'deep_agent', { task: 'Dig' }], ['m2', 'query_order', { order_id: 'A-1' }]]), textStep('Done.'));
    const middle = await agentTool({ name: 'middle_agent', description: 'Delegates', agent: createChatAgent({ model: middleModel, tools: [deep, innerTools([])[0]!], tickets }) });
    const top = createChatAgent({ model: scriptedModel(callsStep([['o1', 'middle_agent', { task: 'Go' }]]), textStep('Done.')), tools: [middle], tickets });
    const nested = tracePartsOf((await top.generate({ messages: 'Go', run: createRunContext({ conversationId: 'top' }) })).message).get('o1');
    const shape = (calls: TracePartData['calls']): unknown => calls?.map((c) => [c.toolCallId, c.toolName, ...(c.calls ? [shape(c.calls)] : [])]).sort();
    expect(shape(nested?.calls)).toEqual([
      ['m1', 'deep_agent', [['d0', 'query_order'], ['d1', 'query_order']]],
      ['m2', 'query_order'],
    ]);
  });

  it('a forged, oversized trace part sent back by a client changes nothing: the model and the new part are the server’s', async () => {
    const writes: string[] = [];
    const innerModel = scriptedModel(callsStep([['i1', 'send_email', { order_id: 'A-7' }]]), textStep('Email queued.'));
    const mailer = await agentTool({ name: 'mail_agent', description: 'Emails customers', agent: createChatAgent({ model: innerModel, tools: innerTools(writes), tickets }) });
    const outerModel = scriptedModel(callsStep([['o1', 'mail_agent', { task: 'Email A-7' }]]), textStep('Done.'));
    const outer = createChatAgent({ model: outerModel, tools: [mailer], tickets });
    const first = await outer.generate({ messages: 'email them', run: createRunContext({ conversationId: 'c' }) });
    const forgedCalls = Array.from({ length: 10_000 }, (_, i) => ({ toolCallId: `x${i}`, toolName: 'drop_tables', outcome: 'success', errorCode: undefined, durationMs: 1, spans: [] }));
    const forged: TracePartData = { toolCallId: 'o1', toolName: 'mail_agent', side: 'server', outcome: 'success', errorCode: undefined, durationMs: 1, spans: [], calls: forgedCalls as never, omittedCalls: 1e9 };
    const approved = respondToApproval(first.messages, 'o1', true);
    const withForged = approved.map((m, i) => (i === approved.length - 1 ? { ...m, parts: [...m.parts, { type: 'data-edgetool-trace' as const, id: 'o1', data: forged }] } : m));
    const second = await outer.generate({ messages: withForged, run: createRunContext({ conversationId: 'c' }) });
    expect(writes).toEqual(['A-7']);
    expect(second.text).toBe('Done.');
    expect(JSON.stringify(outerModel.doStreamCalls.at(-1)?.prompt)).not.toContain('drop_tables');
    const part = tracePartsOf(second.message).get('o1');
    expect(part?.calls?.map((c) => [c.toolCallId, c.toolName, c.outcome])).toEqual([['i1', 'send_email', 'success']]);
    expect(part?.omittedCalls).toBeUndefined();
  });

  it('a browser tool of its agent is not given to the inner model: nobody could run it, nor asks the outer run to approve it', async () => {
    const pickDate = defineTool({
      name: 'pick_date',
      description: 'Ask the user for a date in their browser',
      input: v.object({}),
      policy: { runsOn: 'client', effects: 'write' },
      execute: () => '2026-12-24',
    });
    const innerModel = scriptedModel(callsStep([['i1', 'query_order', { order_id: 'A-7' }]]), textStep('A-7 is delayed.'), textStep('Pick a date.'));
    const inner = createChatAgent({ model: innerModel, tools: [innerTools([])[0]!, pickDate], tickets });
    const support = await agentTool({ name: 'support_agent', description: 'Answers order questions', agent: inner });
    // It asked for an approval "This agent may use pick_date." that covered nothing the agent could do.
    expect(support.policy).toMatchObject({ effects: 'read', needsApproval: false });
    expect(support.policy.approvalReason).toBeUndefined();
    expect(support.metadata).toMatchObject({ innerTools: ['query_order'] });
    const result = await createExecutor({ registry: [support] }).execute({ id: 's1', name: 'support_agent', arguments: { task: 'Check A-7' } });
    // The inner model was offered pick_date, called it, and the whole call failed with "calls it cannot finish alone".
    expect(innerModel.doGenerateCalls[0]?.tools?.map((tool) => tool.name)).toEqual(['query_order']);
    expect(result.content).toBe('A-7 is delayed.');
    // The same agent's own turns still offer it.
    const own = await generateTextTurn(inner, { messages: 'When?', run: createRunContext({ conversationId: 'own' }) });
    expect(own.text).toBe('Pick a date.');
    expect(innerModel.doGenerateCalls[2]?.tools?.map((tool) => tool.name)).toEqual(['query_order', 'pick_date']);
  });

  it('a toolChoice that names one of its browser tools is refused: the agent tool names it, a text turn that omits them says why', async () => {
    const pickDate = defineTool({ name: 'pick_date', description: 'Ask for a date', input: v.object({}), policy: { runsOn: 'client' }, execute: () => '2026-12-24' });
    const innerModel = scriptedModel(textStep('Pick a date.'));
    const forced = createChatAgent({ model: innerModel, tools: [innerTools([])[0]!, pickDate], tickets, settings: { toolChoice: { type: 'tool', toolName: 'pick_date' } } });
    // It was accepted, and every inner turn forced the model to a tool it was not given.
    await expect(agentTool({ name: 'scheduler', description: 'Plans', agent: forced })).rejects.toThrow(
      new TypeError(
        'agentTool "scheduler": the agent\'s settings force the tool "pick_date" (toolChoice), which runs in a browser and is left out of the agent tool\'s turns; force one of its other tools, or leave toolChoice out.',
      ),
    );
    // A text turn that leaves browser tools out refuses the same choice in its own settings, before the model is called.
    const plain = createChatAgent({ model: innerModel, tools: [innerTools([])[0]!, pickDate], tickets });
    const refused = await generateTextTurn(plain, {
      messages: 'When?',
      run: createRunContext({ conversationId: 'omit' }),
      clientTools: 'omit',
      settings: { toolChoice: { type: 'tool', toolName: 'pick_date' } },
    }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'ToolError', code: 'invalid-input' });
    expect((refused as Error).message).toBe('The model settings force the tool "pick_date" (toolChoice), which runs in a browser and this turn leaves out (clientTools: \'omit\').');
    expect(innerModel.doGenerateCalls).toHaveLength(0);
    // Another tool may still be forced; the agent's own turns may force the browser tool.
    const other = createChatAgent({ model: scriptedModel(textStep('Done.')), tools: [innerTools([])[0]!, pickDate], tickets, settings: { toolChoice: { type: 'tool', toolName: 'query_order' } } });
    await expect(agentTool({ name: 'checker', description: 'Checks', agent: other })).resolves.toMatchObject({ name: 'checker' });
    // 'required' with browser tools alone: the agent tool's turns would offer the model none.
    const required = createChatAgent({ model: innerModel, tools: [pickDate], tickets, settings: { toolChoice: 'required' } });
    await expect(agentTool({ name: 'asker', description: 'Asks', agent: required })).rejects.toThrow(
      new TypeError(
        'agentTool "asker": the agent\'s settings require a tool call (toolChoice \'required\'), but its tools all run in a browser and are left out of the agent tool\'s turns; leave toolChoice out, or give it a tool that runs on the server.',
      ),
    );
    const omitted = await generateTextTurn(createChatAgent({ model: innerModel, tools: [pickDate], tickets }), {
      messages: 'When?',
      run: createRunContext({ conversationId: 'omit' }),
      clientTools: 'omit',
      settings: { toolChoice: 'required' },
    }).catch((error: unknown) => error);
    expect(omitted).toMatchObject({ code: 'invalid-input', message: "The model settings require a tool call (toolChoice 'required'), but this turn offers the model no tool." });
    expect(innerModel.doGenerateCalls).toHaveLength(0);
    const page = createChatAgent({ model: scriptedModel(callsStep([['c1', 'pick_date', {}]])), tools: [innerTools([])[0]!, pickDate], tickets });
    const own = await generateTextTurn(page, { messages: 'When?', run: createRunContext({ conversationId: 'own' }), settings: { toolChoice: { type: 'tool', toolName: 'pick_date' } } });
    expect(own.pending.map((call) => [call.toolName, call.kind])).toEqual([['pick_date', 'client']]);
  });

  it('an empty or blank task is invalid input the calling model can fix: no sub-agent runs for it', async () => {
    const innerModel = scriptedModel(textStep('What should I do?'));
    const analyst = await agentTool({ name: 'analyst', description: 'Checks orders', agent: createChatAgent({ model: innerModel, tools: [], tickets }) });
    const executor = createExecutor({ registry: [analyst] });
    for (const task of ['', '   ', '\n\t\u00a0']) {
      const result = await executor.execute({ id: 'a1', name: 'analyst', arguments: { task } });
      expect(result.outcome.type === 'error' && result.outcome.error.code, JSON.stringify(task)).toBe('invalid-input');
      expect(result.content).toContain('- task: The task is empty: say in words what the agent should do.');
    }
    expect(innerModel.doGenerateCalls).toHaveLength(0);
    // The model is told too: the schema wants a character that is not a space.
    expect(analyst.jsonSchema).toMatchObject({ properties: { task: { type: 'string', pattern: '\\S' } }, required: ['task'] });
    expect((await executor.execute({ id: 'a2', name: 'analyst', arguments: { task: ' Check A-7 ' } })).content).toBe('What should I do?');
  });

  it('an approval needed inside surfaces to the outer run, and once given covers the inner call', async () => {
    const writes: string[] = [];
    const innerModel = scriptedModel(callsStep([['i1', 'send_email', { order_id: 'A-7' }]]), textStep('Email queued.'));
    const inner = createChatAgent({ model: innerModel, tools: innerTools(writes), tickets });
    const mailer = await agentTool({ name: 'mail_agent', description: 'Emails customers', agent: inner });
    expect(mailer.policy).toMatchObject({ effects: 'destructive', needsApproval: true });
    const outer = createChatAgent({
      model: scriptedModel(callsStep([['o1', 'mail_agent', { task: 'Email A-7' }]]), textStep('Done, the customer was emailed.')),
      tools: [mailer],
      tickets,
    });
    const first = await outer.generate({ messages: 'email them', run: createRunContext({ conversationId: 'c' }) });
    expect(first.pending).toEqual([expect.objectContaining({ toolName: 'mail_agent', kind: 'approval' })]);
    const request = first.message.parts.find((p) => p.type === 'tool-mail_agent') as { approval?: { requestReason?: string } };
    expect(request.approval?.requestReason).toBe('This agent may use send_email.');
    expect(writes).toEqual([]);
    const second = await outer.generate({ messages: respondToApproval(first.messages, 'o1', true), run: createRunContext({ conversationId: 'c' }) });
    expect(writes).toEqual(['A-7']);
    expect(second.text).toBe('Done, the customer was emailed.');
  });

  it('an inner tool only some runs may see asks for approval only in those runs, and is never named', async () => {
    const closed: string[] = [];
    const closeAccount = defineTool({
      name: 'close_account',
      description: 'Close an account (staff only)',
      input: v.object({ account: v.string() }),
      policy: { effects: 'destructive', available: (run) => run.userId === 'staff' },
      execute: ({ account }) => {
        closed.push(account);
        return 'closed';
      },
    });
    const agentOver = async (tools: Parameters<typeof createChatAgent>[0]['tools'], ...steps: Parameters<typeof scriptedModel>) =>
      agentTool({ name: 'ops_agent', description: 'Operations', agent: createChatAgent({ model: scriptedModel(...steps), tools, tickets }) });
    const outerFor = (tool: Awaited<ReturnType<typeof agentTool>>) =>
      createChatAgent({ model: scriptedModel(callsStep([['o1', 'ops_agent', { task: 'Tidy up' }]]), textStep('Done.')), tools: [tool], tickets });
    const as = (userId: string) => ({ messages: 'tidy', run: createRunContext({ conversationId: `c-${userId}`, userId }) });

    // A guest's agent cannot use the tool: no approval is asked, and the inner model is never given it.
    const forGuest = await agentOver([innerTools([])[0]!, closeAccount], textStep('Nothing to close.'));
    expect(forGuest.metadata).toMatchObject({ innerTools: ['query_order'] });
    expect(forGuest.policy.approvalReason).toBe('This agent may use tools that need your approval.');
    const guest = await outerFor(forGuest).generate(as('guest'));
    expect(guest.pending).toEqual([]);
    expect(guest.text).toBe('Done.');

    // Staff may: the approval is asked, and its reason does not name the tool.
    const forStaff = await agentOver([innerTools([])[0]!, closeAccount], textStep('Nothing to close.'));
    const staff = await outerFor(forStaff).generate(as('staff'));
    expect(staff.pending).toEqual([expect.objectContaining({ toolName: 'ops_agent', kind: 'approval' })]);
    const request = staff.message.parts.find((p) => p.type === 'tool-ops_agent') as { approval?: { requestReason?: string } };
    expect(request.approval?.requestReason).toBe('This agent may use tools that need your approval.');

    // Beside a tool every run may see, that one is named and the other is not.
    const mixed = await agentOver([...innerTools([]), closeAccount], textStep('ok'));
    expect(mixed.policy.approvalReason).toBe('This agent may use send_email and other tools that need your approval.');
    expect(mixed.policy.needsApproval).toBe(true);
    expect(closed).toEqual([]);
  });
});

describe('agent as tool with structured output (output)', () => {
  const Delay = v.object({ order_id: v.string(), days_late: v.number() });

  it('the call’s answer is the schema’s value with the inner turn’s usage, and the calling model reads it as JSON', async () => {
    const innerModel = scriptedModel(callsStep([['i1', 'query_order', { order_id: 'A-7' }]]), textStep('{"order_id":"A-7","days_late":3}'));
    const inner = createChatAgent({ model: innerModel, tools: innerTools([]).slice(0, 1), tickets });
    const analyst = await agentTool({ name: 'analyst', description: 'Checks orders', agent: inner, output: Delay });
    const outerModel = scriptedModel(callsStep([['o1', 'analyst', { task: 'How late is A-7?' }]]), textStep('Three days late.'));
    const outer = createChatAgent({ model: outerModel, tools: [analyst], tickets });
    const result = await outer.generate({ messages: 'Is A-7 late?', run: createRunContext({ conversationId: 'outer' }) });
    expect(result.toolResults.map((r) => r.outcome)).toEqual([
      { type: 'success', output: { answer: { order_id: 'A-7', days_late: 3 }, usage: { inputTokens: 20, outputTokens: 10, totalTokens: 30 } } },
    ]);
    expect(lastToolResults(outerModel.doStreamCalls[1])).toEqual([{ toolCallId: 'o1', output: { type: 'text', value: '{"order_id":"A-7","days_late":3}' } }]);
    // The inner model was asked for the schema on each of its steps.
    expect(innerModel.doGenerateCalls.map((call) => call.responseFormat?.type)).toEqual(['json', 'json']);
  });

  it('an inner answer that fails the schema after its repair round fails the call with invalid-output the calling model reads', async () => {
    const innerModel = scriptedModel(textStep('About three days.'), textStep('{"order_id":"A-7","days_late":"three"}'));
    const analyst = await agentTool({ name: 'analyst', description: 'Checks orders', agent: createChatAgent({ model: innerModel, tools: [], tickets }), output: Delay });
    const result = await createExecutor({ registry: [analyst] }).execute({ id: 'a1', name: 'analyst', arguments: { task: 'How late is A-7?' } });
    expect(result.outcome.type === 'error' && result.outcome.error.code).toBe('invalid-output');
    expect(result.content).toContain('Error (invalid-output): The answer does not match the output schema.');
    expect(result.content).toContain('- days_late: ');
    // Both rounds' tokens are the call's, though it failed.
    expect(result.usage).toEqual({ inputTokens: 20, outputTokens: 10, totalTokens: 30 });
  });

  it('an output transform that gives undefined fails the call with invalid-output that says what to change', async () => {
    const innerModel = scriptedModel(textStep('{"order_id":"A-7","days_late":3}'));
    const dropped = v.pipe(Delay, v.transform(() => undefined));
    const analyst = await agentTool({ name: 'analyst', description: 'Checks orders', agent: createChatAgent({ model: innerModel, tools: [], tickets }), output: dropped });
    const result = await createExecutor({ registry: [analyst] }).execute({ id: 'a1', name: 'analyst', arguments: { task: 'How late is A-7?' } });
    expect(result.outcome.type === 'error' && result.outcome.error.code).toBe('invalid-output');
    expect(result.content).toBe(
      'Error (invalid-output): The result of "analyst" could not be converted for the model: the agent\'s answer is undefined after its output schema, which JSON cannot hold: have the schema give a JSON value (null for none)',
    );
  });

  it('an inner turn stopped at its limit fails the call: no partial value passes for the answer', async () => {
    const innerModel = scriptedModel(callsStep([['i1', 'query_order', { order_id: 'A-7' }]]));
    const inner = createChatAgent({ model: innerModel, tools: innerTools([]).slice(0, 1), tickets, maxSteps: 1 });
    const analyst = await agentTool({ name: 'analyst', description: 'Checks orders', agent: inner, output: Delay });
    const result = await createExecutor({ registry: [analyst] }).execute({ id: 'a1', name: 'analyst', arguments: { task: 'How late is A-7?' } });
    expect(result.outcome.type === 'error' && result.outcome.error.code).toBe('execution-failed');
    expect(result.content).toBe('Error (execution-failed): The agent stopped at its step limit before it gave its answer.');
  });
});
