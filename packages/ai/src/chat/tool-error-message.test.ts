import { createExecutor, createRegistry, createRunContext, createTicketSigner, defineInterceptor, defineTool, ToolError, type ToolErrorMessage } from '@edgetool/core';
import { generateText, isStepCount } from 'ai';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { agentTool } from '../agent-tool.ts';
import { readAll } from '../test-support/chat-streams.ts';
import { userSays } from '../testing/client.ts';
import { callsStep, lastToolResults, scriptedModel, textStep } from '../testing/mock-model.ts';
import { toAISDKTools } from './ai-tools.ts';
import { createChatAgent } from './chat-agent.ts';
import { generateTextTurn } from './text-turn.ts';

const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'mask-secret-mask-secret-mask-secret-!!' }] });
const SECRET = 'connect ECONNREFUSED 10.0.3.7:5432 user=billing';
const hidden = (id: string) => `Error (execution-failed): The tool failed unexpectedly (reference ${id}).`;

const tools = [
  defineTool({
    name: 'billing',
    description: 'Reads the billing database',
    input: v.object({}),
    execute: (): string => {
      throw new Error(SECRET);
    },
  }),
  defineTool({
    name: 'orders',
    description: 'Fails with words for the model',
    input: v.object({}),
    execute: (): string => {
      throw new ToolError('execution-failed', 'The order service is down; try again in a minute.');
    },
  }),
  defineTool({ name: 'query_order', description: 'Looks up an order', input: v.object({ order_id: v.string() }), execute: ({ order_id }) => ({ order_id }) }),
];

const run = () => createRunContext({ conversationId: 'conv-mask' });
const failingStep = () =>
  callsStep([
    ['c1', 'billing', {}],
    ['c2', 'orders', {}],
    ['c3', 'query_order', { order_id: 7 }],
  ]);

describe('chat agent: toolErrorMessage', () => {
  it("UI turn, 'hide-unexpected': the model and the UI stream read the hidden text; the result and onError keep the original", async () => {
    const model = scriptedModel(failingStep(), textStep('Sorry.'));
    const errors: unknown[] = [];
    const agent = createChatAgent({ model, tools, tickets, toolErrorMessage: 'hide-unexpected', onError: ({ error }) => errors.push(error) });
    const turn = await agent.stream({ messages: 'go', run: run() });
    const chunks = await readAll(turn.stream);
    const result = await turn.result;
    // The UI stream: what the browser shows.
    const shown = chunks.filter((c) => c.type === 'tool-output-error').map((c) => [c.toolCallId, c.errorText]);
    expect(shown).toEqual([
      ['c1', hidden('c1')],
      ['c2', 'Error (execution-failed): The order service is down; try again in a minute.'],
      ['c3', expect.stringMatching(/^Error \(invalid-input\): Invalid arguments for "query_order"\.\n- order_id: /)],
    ]);
    expect(JSON.stringify(chunks)).not.toContain('ECONNREFUSED');
    // The model's next step.
    const seen = lastToolResults(model.doStreamCalls[1]);
    expect(seen[0]).toEqual({ toolCallId: 'c1', output: { type: 'error-text', value: hidden('c1') } });
    expect(seen[1]).toEqual({ toolCallId: 'c2', output: { type: 'error-text', value: 'Error (execution-failed): The order service is down; try again in a minute.' } });
    // The server keeps everything.
    const original = result.toolResults.find((r) => r.call.id === 'c1');
    expect(original?.outcome.type === 'error' && original.outcome.error.message).toBe(SECRET);
    expect(original?.content).toBe(hidden('c1'));
    // onError gets each failure whose message was hidden, once, with its call id: not the ToolError the tool threw on
    // purpose, nor the invalid arguments, which the model read as they are.
    expect(errors).toHaveLength(1);
    expect(ToolError.isInstance(errors[0]) && [errors[0].callId, errors[0].message, errors[0].unexpected]).toEqual(['c1', SECRET, true]);
  });

  it('the next request: the hidden text is what the history carries, under its seal, and what the model reads again', async () => {
    const model = scriptedModel(callsStep([['c1', 'billing', {}]]), textStep('Sorry.'), textStep('Still sorry.'));
    const agent = createChatAgent({ model, tools, tickets, toolErrorMessage: 'hide-unexpected', onError: () => {} });
    const first = await agent.generate({ messages: 'go', run: run() });
    const part = first.message.parts.find((p) => (p as { toolCallId?: string }).toolCallId === 'c1') as { state?: string; errorText?: string };
    expect(part).toMatchObject({ state: 'output-error', errorText: hidden('c1') });
    const second = await agent.generate({ messages: userSays(first.messages, 'and now?'), run: run() });
    expect(second.text).toBe('Still sorry.');
    expect(JSON.stringify(model.doStreamCalls[2]?.prompt)).toContain('The tool failed unexpectedly (reference c1).');
    expect(JSON.stringify(model.doStreamCalls[2]?.prompt)).not.toContain('ECONNREFUSED');
  });

  it('without an onError, a hidden failure goes to the log with its details; verbatim (the default) logs nothing and hides nothing', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const hiding = createChatAgent({ model: scriptedModel(callsStep([['c1', 'billing', {}]]), textStep('Sorry.')), tools, tickets, toolErrorMessage: 'hide-unexpected' });
      await hiding.generate({ messages: 'go', run: run() });
      expect(log).toHaveBeenCalledTimes(1);
      expect(String(log.mock.calls[0]?.[0])).toContain('c1');
      expect(log.mock.calls[0]?.[1]).toMatchObject({ message: SECRET, callId: 'c1' });
      log.mockClear();
      const model = scriptedModel(callsStep([['c1', 'billing', {}]]), textStep('Sorry.'));
      const verbatim = createChatAgent({ model, tools, tickets });
      const result = await verbatim.generate({ messages: 'go', run: run() });
      expect(result.toolResults[0]?.content).toBe(`Error (execution-failed): ${SECRET}`);
      expect(lastToolResults(model.doStreamCalls[1])[0]?.output).toEqual({ type: 'error-text', value: `Error (execution-failed): ${SECRET}` });
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
  });

  it('a function: its words for the model and the UI alike; a failure it keeps is not logged', async () => {
    const toolErrorMessage: ToolErrorMessage = (error, call) => (error.unexpected ? `Billing is down (ref ${call.id}).` : undefined);
    const model = scriptedModel(failingStep(), textStep('Sorry.'));
    const errors: unknown[] = [];
    const agent = createChatAgent({ model, tools, tickets, toolErrorMessage, onError: ({ error }) => errors.push(error) });
    const turn = await agent.stream({ messages: 'go', run: run() });
    const chunks = await readAll(turn.stream);
    expect(chunks.find((c) => c.type === 'tool-output-error' && c.toolCallId === 'c1')).toMatchObject({ errorText: 'Error (execution-failed): Billing is down (ref c1).' });
    expect(lastToolResults(model.doStreamCalls[1])[0]?.output).toEqual({ type: 'error-text', value: 'Error (execution-failed): Billing is down (ref c1).' });
    expect(errors.map((e) => (e as ToolError).callId)).toEqual(['c1']);
  });

  it("text turn, 'hide-unexpected': the model reads the hidden text; toolResults and onError keep the original", async () => {
    const model = scriptedModel(failingStep(), textStep('Sorry.'));
    const errors: unknown[] = [];
    const agent = createChatAgent({ model, tools, tickets, toolErrorMessage: 'hide-unexpected', onError: ({ error }) => errors.push(error) });
    const result = await generateTextTurn(agent, { messages: 'go', run: run() });
    const seen = lastToolResults(model.doGenerateCalls[1]);
    expect(seen.map((r) => (r.output as { value: string }).value.split('\n')[0])).toEqual([
      hidden('c1'),
      'Error (execution-failed): The order service is down; try again in a minute.',
      'Error (invalid-input): Invalid arguments for "query_order".',
    ]);
    expect(JSON.stringify(result.messages)).not.toContain('ECONNREFUSED');
    const original = result.toolResults[0];
    expect(original?.outcome.type === 'error' && original.outcome.error.message).toBe(SECRET);
    expect(errors.map((e) => (e as ToolError).message)).toEqual([SECRET]);
  });

  it('an interceptor that throws is hidden as a tool’s throw is', async () => {
    const model = scriptedModel(callsStep([['c1', 'query_order', { order_id: 'A-1' }]]), textStep('Sorry.'));
    const broken = defineInterceptor('auth', () => {
      throw new Error('jwt secret missing in /run/secrets');
    });
    const agent = createChatAgent({ model, tools, tickets, interceptors: [broken], toolErrorMessage: 'hide-unexpected', onError: () => {} });
    await agent.generate({ messages: 'go', run: run() });
    expect(lastToolResults(model.doStreamCalls[1])[0]?.output).toEqual({ type: 'error-text', value: hidden('c1') });
  });
});

describe('toAISDKTools: a failure the registry makes throw', () => {
  it('reaches the model with the message toolErrorMessage lets it read (the original as its cause); verbatim: the error as before', async () => {
    const registry = createRegistry({ tools, onError: 'throw' });
    const read = async (executor: ReturnType<typeof createExecutor>) => {
      const model = scriptedModel(callsStep([['c1', 'billing', {}]]), textStep('Sorry.'));
      const turnRun = run();
      const result = await generateText({ model, prompt: 'go', tools: await toAISDKTools(executor, { run: turnRun }), stopWhen: isStepCount(3) });
      const failed = result.steps[0]?.content.find((part) => part.type === 'tool-error');
      return { seen: lastToolResults(model.doGenerateCalls[1])[0]?.output, error: failed?.type === 'tool-error' ? failed.error : undefined };
    };
    const masked = await read(createExecutor({ registry, toolErrorMessage: 'hide-unexpected' }));
    expect(masked.seen).toEqual({ type: 'error-text', value: 'The tool failed unexpectedly (reference c1).' });
    expect(((masked.error as Error).cause as ToolError).message).toBe(SECRET);
    const verbatim = await read(createExecutor({ registry }));
    expect(verbatim.seen).toEqual({ type: 'error-text', value: `ToolError: ${SECRET}` });
    expect(ToolError.isInstance(verbatim.error)).toBe(true);
  });
});

describe('agentTool: an agent whose model calls a browser tool anyway', () => {
  it("the inner model reads that the tool is unavailable (a ToolError, which 'hide-unexpected' keeps), and the agent answers", async () => {
    const write = defineTool({ name: 'pick_date', description: 'The user picks a date', input: v.object({}), policy: { runsOn: 'client' } });
    const innerModel = scriptedModel(callsStep([['i1', 'pick_date', {}]]), textStep('I cannot ask for a date here.'));
    const inner = createChatAgent({ model: innerModel, tools: [write], tickets, toolErrorMessage: 'hide-unexpected', onError: () => {} });
    const outerModel = scriptedModel(callsStep([['c1', 'helper', { task: 'pick a date' }]]), textStep('Could not.'));
    const outer = createChatAgent({
      model: outerModel,
      tools: [await agentTool({ name: 'helper', description: 'Helps', agent: inner })],
      tickets,
      toolErrorMessage: 'hide-unexpected',
      onError: () => {},
    });
    await outer.generate({ messages: 'go', run: run() });
    // It used to end the inner turn on a pending call, and the agent call failed: "stopped with calls it cannot finish".
    expect(lastToolResults(innerModel.doGenerateCalls[1])[0]?.output).toMatchObject({ type: 'error-text', value: expect.stringContaining("unavailable tool 'pick_date'") });
    expect(lastToolResults(outerModel.doStreamCalls[1])[0]?.output).toEqual({ type: 'text', value: 'I cannot ask for a date here.' });
  });
});
