/**
 * Tools defined with zod instead of valibot: zod ships inside every bundle that has `ai`, so a Worker that wants the
 * smallest bundle can use it (see docs/architecture.md, "Size and speed"). The JSON Schema comes from zod's Standard
 * JSON Schema interface, validation from its Standard Schema `validate`, and the types from its output type.
 */
import { createExecutor, createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createChatAgent } from './chat/chat-agent.ts';
import { generateTextTurn } from './chat/text-turn.ts';
import { callsStep, lastToolResults, scriptedModel, textStep } from './testing/mock-model.ts';

const reschedule = defineTool({
  name: 'reschedule',
  description: 'Move a delivery',
  input: z.object({
    order_id: z.string().min(2).describe('The order'),
    days: z.number().int().min(1).default(1),
    express: z.boolean().optional(),
  }),
  execute: ({ order_id, days, express }) => ({ order_id, moved_by: days, express: express ?? false }),
});

describe('tools with zod input', () => {
  it('infer their input type from the schema output (defaults applied)', () => {
    expectTypeOf<Parameters<NonNullable<typeof reschedule.execute>>[0]>().toEqualTypeOf<{ order_id: string; days: number; express?: boolean | undefined }>();
  });

  it("give the model zod's own JSON Schema (draft-07, no $schema key)", () => {
    expect(reschedule.jsonSchema).not.toHaveProperty('$schema');
    expect(reschedule.jsonSchema).toMatchObject({
      type: 'object',
      properties: { order_id: { type: 'string', minLength: 2, description: 'The order' }, days: { type: 'integer', minimum: 1, default: 1 }, express: { type: 'boolean' } },
      required: ['order_id'],
    });
  });

  it('validate through the executor: defaults applied, issues with paths for the model', async () => {
    const executor = createExecutor({ registry: [reschedule] });
    const [ok, bad] = await executor.executeAll([
      { id: 'a', name: 'reschedule', arguments: '{"order_id":"A-1001"}' },
      { id: 'b', name: 'reschedule', arguments: '{"order_id":"A","days":0.5}' },
    ]);
    expect(ok?.outcome).toEqual({ type: 'success', output: { order_id: 'A-1001', moved_by: 1, express: false } });
    expect(bad?.outcome).toMatchObject({ type: 'error', error: { code: 'invalid-input' } });
    expect(bad?.content).toMatch(/- order_id: /);
    expect(bad?.content).toMatch(/- days: /);
  });

  it('run in the chat loop like valibot tools', async () => {
    const model = scriptedModel(callsStep([['c1', 'reschedule', { order_id: 'A-1002', days: 3 }]]), textStep('Moved.'));
    const agent = createChatAgent({ model, tools: [reschedule], tickets: createTicketSigner({ keys: [{ id: 'k', secret: 'zod-tools-secret-zod-tools-secret!!' }] }) });
    const turn = await generateTextTurn(agent, { messages: [{ role: 'user', content: 'Move A-1002 by three days' }], run: createRunContext() });
    expect(turn.text).toBe('Moved.');
    expect(lastToolResults(model.doStreamCalls[1] ?? model.doGenerateCalls[1])).toEqual([
      { toolCallId: 'c1', output: { type: 'text', value: '{"order_id":"A-1002","moved_by":3,"express":false}' } },
    ]);
    const tools = (model.doStreamCalls[0] ?? model.doGenerateCalls[0])?.tools;
    expect(tools?.[0]).toMatchObject({ name: 'reschedule', inputSchema: { required: ['order_id'] } });
  });
});
