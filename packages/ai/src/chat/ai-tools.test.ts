import { contextKey, createRegistry, createRunContext, defineInterceptor, defineTool } from '@edgetool/core';
import { isStepCount, streamText } from 'ai';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { callsStep, lastToolResults, scriptedModel, textStep } from '../testing/mock-model.ts';
import { ToolCallFailed, toAISDKTools, toolApprovalFor } from './ai-tools.ts';

const seen = contextKey<string>('seen');

describe('escape hatch: edgetool tools in your own streamText', () => {
  it('runs the same chain, context and errors, and honours approval policies', async () => {
    const calls: string[] = [];
    const audit = defineInterceptor('audit', async (ctx, next) => {
      calls.push(`${ctx.tool.name}:${ctx.run.userId}`);
      ctx.set(seen, 'audited');
      return next();
    });
    const lookup = defineTool({
      name: 'lookup',
      description: 'Look up',
      input: v.object({ id: v.string() }),
      execute: ({ id }, ctx) => `${id} (${ctx.get(seen)})`,
    });
    const wipe = defineTool({ name: 'wipe', description: 'Wipe', input: v.object({}), policy: { effects: 'destructive' }, execute: () => 'wiped' });
    const registry = createRegistry({ tools: [lookup, wipe], interceptors: [audit] });
    const run = createRunContext({ userId: 'ada' });
    const tools = await toAISDKTools(registry, { run });
    const model = scriptedModel(
      callsStep([
        ['c1', 'lookup', { id: 'x1' }],
        ['c2', 'lookup', { id: 42 }],
        ['c3', 'wipe', {}],
      ]),
      textStep('done'),
    );
    const result = streamText({ model, tools, toolApproval: toolApprovalFor(registry, { run }), stopWhen: isStepCount(3), prompt: 'go' });
    const content = await result.content;
    expect(calls).toEqual(['lookup:ada']); // invalid input never reaches the chain
    expect(content.filter((p) => p.type === 'tool-approval-request').map((p) => (p as { toolCall: { toolCallId: string } }).toolCall.toolCallId)).toEqual(['c3']);
    const byId = (id: string) => content.find((p) => (p.type === 'tool-result' || p.type === 'tool-error') && p.toolCallId === id);
    expect(byId('c1')).toMatchObject({ type: 'tool-result', output: 'x1 (audited)' });
    expect(byId('c2')?.type).toBe('tool-error');
    const error = (byId('c2') as { error: unknown }).error;
    expect(error).toBeInstanceOf(ToolCallFailed);
    expect(String(error)).toMatch(/^Error \(invalid-input\): Invalid arguments for "lookup"/);
    expect(model.doStreamCalls).toHaveLength(1); // the approval ends the step: the model waits for the human
    expect(lastToolResults(model.doStreamCalls[0])).toEqual([]);
  });

  it('a tool named __proto__ (a name tools may have, and an MCP server may list) is in the set and runs', async () => {
    const proto = defineTool({ name: '__proto__', description: 'Odd but valid', input: v.object({}), execute: () => 'ran' });
    const other = defineTool({ name: 'other', description: 'Other', input: v.object({}), execute: () => 'other' });
    const tools = await toAISDKTools([proto, other], { run: createRunContext() });
    expect(Object.keys(tools)).toEqual(['__proto__', 'other']);
    expect(Object.getPrototypeOf(tools)).toBe(Object.prototype);
    const model = scriptedModel(callsStep([['c1', '__proto__', {}]]), textStep('done'));
    const result = streamText({ model, tools, stopWhen: isStepCount(2), prompt: 'go' });
    await result.consumeStream();
    expect(model.doStreamCalls[0]?.tools?.map((t) => t.name)).toEqual(['__proto__', 'other']);
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([{ toolCallId: 'c1', output: { type: 'text', value: 'ran' } }]);
  });
});

describe('toAISDKTools: the idempotencyKey option', () => {
  it('is asked for a call’s key when its tool first reads it, once, and a tool that never reads it never asks', async () => {
    const keys: string[] = [];
    const asked: string[] = [];
    const write = defineTool({
      name: 'write',
      description: 'Writes',
      input: v.object({}),
      policy: { effects: 'read', retries: 1 },
      execute: (_input, ctx) => {
        keys.push(ctx.idempotencyKey, ctx.idempotencyKey);
        if (keys.length === 2) throw new Error('transient');
        return 'written';
      },
    });
    const read = defineTool({ name: 'read', description: 'Reads', input: v.object({}), execute: () => 'read' });
    const tools = await toAISDKTools([write, read], {
      run: createRunContext({ conversationId: 'conv-1' }),
      idempotencyKey: (id) => {
        asked.push(id);
        return `key-of-${id}-${asked.length}`;
      },
    });
    const model = scriptedModel(
      callsStep([
        ['c1', 'read', {}],
        ['c2', 'write', {}],
      ]),
      textStep('done'),
    );
    await streamText({ model, tools, stopWhen: isStepCount(2), prompt: 'go' }).consumeStream();
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([
      { toolCallId: 'c1', output: { type: 'text', value: 'read' } },
      { toolCallId: 'c2', output: { type: 'text', value: 'written' } },
    ]);
    // Both attempts of c2 read the one key it was given; c1 never read one.
    expect(asked).toEqual(['c2']);
    expect(keys).toEqual(Array(4).fill('key-of-c2-1'));
  });
});
