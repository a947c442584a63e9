import { cache, createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { createChatAgent } from './chat-agent.ts';
import { generateTextTurn } from './text-turn.ts';

describe('cache() in the chat loop', () => {
  it('answers repeated lookups of a turn and of the next one from the cache, and a write in between empties it', async () => {
    const ran: string[] = [];
    const tools = [
      defineTool({
        name: 'query_order',
        description: 'Look up an order',
        input: v.object({ order_id: v.string() }),
        execute: ({ order_id }) => {
          ran.push(order_id);
          return { order_id, status: 'shipped', lookup: ran.length };
        },
      }),
      defineTool({
        name: 'update_note',
        description: 'Change an order note',
        input: v.object({ order_id: v.string(), note: v.string() }),
        policy: { effects: 'write', needsApproval: false },
        execute: ({ order_id }) => `Noted on ${order_id}`,
      }),
    ];
    const lookUp = (id: string) => [id, 'query_order', { order_id: 'A-1001' }] as const;
    const model = scriptedModel(
      // The same lookup twice in one step, then again in the next step: the tool runs once.
      callsStep([lookUp('c1'), lookUp('c2')]),
      callsStep([lookUp('c3')]),
      callsStep([['w1', 'update_note', { order_id: 'A-1001', note: 'gift' }]]),
      callsStep([lookUp('c4')]),
      textStep('It shipped.'),
      // The next request of the same user.
      callsStep([lookUp('c5')]),
      textStep('Still shipped.'),
    );
    const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'tool-cache-secret-tool-cache-secret!' }] });
    const agent = createChatAgent({ model, tools, tickets, interceptors: [cache({ ttlMs: 60_000 })] });
    const first = await generateTextTurn(agent, { messages: 'Where is A-1001?', run: createRunContext({ userId: 'ada', conversationId: 'c-1' }) });
    const lookups = first.toolResults.filter((result) => result.tool?.name === 'query_order').map((result) => [result.call.id, result.content]);
    expect(lookups).toEqual([
      ['c1', '{"order_id":"A-1001","status":"shipped","lookup":1}'],
      ['c2', '{"order_id":"A-1001","status":"shipped","lookup":1}'],
      ['c3', '{"order_id":"A-1001","status":"shipped","lookup":1}'],
      ['c4', '{"order_id":"A-1001","status":"shipped","lookup":2}'],
    ]);
    const second = await generateTextTurn(agent, { messages: 'And now?', run: createRunContext({ userId: 'ada', conversationId: 'c-2' }) });
    expect(second.toolResults.map((result) => result.content)).toEqual(['{"order_id":"A-1001","status":"shipped","lookup":2}']);
    expect(ran).toEqual(['A-1001', 'A-1001']);
  });
});
