import { createExecutor, createRunContext, defineTool } from '@edgetool/core';
import { jsonSchema, type ModelMessage, streamText, tool } from 'ai';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { executeToolCalls } from './execute-tool-calls.ts';
import { callsStep, lastToolResults, scriptedModel, textStep } from './testing/mock-model.ts';

const weather = defineTool({
  name: 'weather',
  description: 'Weather in a city',
  input: v.object({ city: v.string() }),
  execute: ({ city }) => ({ city, celsius: city === 'Paris' ? 21 : 5 }),
});
const refund = defineTool({ name: 'refund', description: 'Refund', input: v.object({ id: v.string() }), policy: { effects: 'write' }, execute: () => 'refunded' });

describe('executeToolCalls: the caller drives the loop', () => {
  it('executes a response’s tool calls through the chain and returns the tool message to append', async () => {
    const model = scriptedModel(
      callsStep([
        ['c1', 'weather', { city: 'Paris' }],
        ['c2', 'weather', { town: 'Oslo' }],
        ['c3', 'refund', { id: 'r1' }],
      ]),
      textStep('Paris is 21°C.'),
    );
    const described = { inputSchema: jsonSchema({ type: 'object' }), outputSchema: jsonSchema({}) };
    const tools = { weather: tool({ description: 'Weather', ...described }), refund: tool({ description: 'Refund', ...described }) };
    const messages: ModelMessage[] = [{ role: 'user', content: 'Weather in Paris and Oslo, and refund r1' }];
    const first = streamText({ model, tools, messages });
    const toolCalls = await first.toolCalls;
    expect(toolCalls).toHaveLength(3);

    const executor = createExecutor({ registry: [weather, refund] });
    const executed = await executeToolCalls({ executor, toolCalls, run: createRunContext({ conversationId: 'x' }) });
    expect(executed.results.map((r) => r.outcome.type)).toEqual(['success', 'error', 'approval-required']);
    expect(executed.pending.map((r) => r.call.id)).toEqual(['c3']);
    expect(executed.messages).toHaveLength(1);

    // The caller asks its human, then runs the approved call the same way.
    const pendingCalls = toolCalls.filter((c) => executed.pending.some((p) => p.call.id === c.toolCallId));
    const approved = await executeToolCalls({ executor, toolCalls: pendingCalls, approvals: new Map([['c3', { approved: true }]]) });
    expect(approved.results.map((r) => r.content)).toEqual(['refunded']);
    const toolMessage = { role: 'tool' as const, content: [...(executed.messages[0]?.content ?? []), ...(approved.messages[0]?.content ?? [])] };
    const second = streamText({ model, tools, messages: [...messages, ...(await first.responseMessages), toolMessage] });
    expect(await second.text).toBe('Paris is 21°C.');
    const seen = lastToolResults(model.doStreamCalls[1]);
    expect(seen.map((r) => r.toolCallId)).toEqual(['c1', 'c2', 'c3']);
    expect(seen[1]?.output).toMatchObject({ type: 'error-text', value: expect.stringContaining('Error (invalid-input)') });
  });
});
