// ctx.idempotencyKey: the key a tool keys its writes on. New for each call a human approves (two calls given one id by a
// model that repeats `call_0` have two tickets), the same for every attempt of a call and for the approval sent again.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { ToolContext } from '../chain/types.ts';
import { createExecutor } from '../executor/executor.ts';
import { createTicketSigner, peekTicket } from '../tickets/index.ts';
import { defineTool } from '../tool/define-tool.ts';
import { idempotencyKeyOf } from './idempotency-key.ts';
import { createRunContext } from './run-context.ts';

const keys = [{ id: 'k1', secret: 'a-test-secret-that-is-at-least-32-bytes-long' }];

/** A tool that notes the key of every attempt, failing the first `failures` of them. */
function keyed(policy: { effects: 'read' | 'write'; retries?: number }, failures = 0) {
  const seen: string[] = [];
  let attempts = 0;
  const tool = defineTool({
    name: 'send',
    description: 'Sends',
    input: v.object({ to: v.string() }),
    policy,
    execute: (_input, ctx: ToolContext) => {
      seen.push(ctx.idempotencyKey);
      if (++attempts <= failures) throw new Error('transient');
      return 'sent';
    },
  });
  return { tool, seen };
}

const call = { id: 'call_0', name: 'send', arguments: { to: 'bob' } };

describe('ctx.idempotencyKey', () => {
  it('without an approval: the conversation and the call id, the same for every attempt of the call', async () => {
    const { tool, seen } = keyed({ effects: 'read', retries: 2 }, 2);
    const result = await createExecutor({ registry: [tool] }).execute(call, { run: createRunContext({ conversationId: 'conv:1' }) });
    expect(result.outcome.type).toBe('success');
    const key = idempotencyKeyOf({ conversationId: 'conv:1', callId: 'call_0' });
    expect(key).toBe('["conv:1","call_0"]');
    expect(seen).toEqual([key, key, key]);
  });

  it('approved with a ticket the executor verified: with its nonce, so a second call given the same id and arguments gets its own key', async () => {
    const { tool, seen } = keyed({ effects: 'write' });
    const tickets = createTicketSigner({ keys });
    const executor = createExecutor({ registry: [tool], tickets });
    const run = () => createRunContext({ conversationId: 'conv-1' });
    const approved = async () => {
      const pending = await executor.execute(call, { run: run() });
      const ticket = pending.outcome.type === 'approval-required' ? pending.outcome.ticket : undefined;
      expect((await executor.execute(call, { run: run(), approval: { approved: true, ticket } })).outcome.type).toBe('success');
      return idempotencyKeyOf({ conversationId: 'conv-1', callId: 'call_0', nonce: peekTicket(ticket)?.nonce });
    };
    const first = await approved();
    const second = await approved();
    expect(seen).toEqual([first, second]);
    expect(first).not.toBe(second);
    expect(JSON.parse(first)).toEqual(['conv-1', 'call_0', expect.any(String)]);
  });

  it('a caller that verified the approval itself (the chat loop) gives the key: every attempt reads it', async () => {
    const { tool, seen } = keyed({ effects: 'read', retries: 1 }, 1);
    const idempotencyKey = idempotencyKeyOf({ conversationId: 'conv-1', callId: 'call_0', nonce: 'n-1' });
    await createExecutor({ registry: [tool] }).execute(call, { run: createRunContext({ conversationId: 'conv-1' }), idempotencyKey });
    expect(seen).toEqual([idempotencyKey, idempotencyKey]);
  });

  it('a caller’s function of the call id is called at the first read only: every attempt reads what it gave, and a call that never reads it never calls it', async () => {
    const asked: string[] = [];
    const idempotencyKey = (callId: string) => {
      asked.push(callId);
      return idempotencyKeyOf({ conversationId: 'conv-1', callId, nonce: `n-${asked.length}` });
    };
    const run = createRunContext({ conversationId: 'conv-1' });
    const { tool, seen } = keyed({ effects: 'read', retries: 2 }, 2);
    const quiet = defineTool({ name: 'quiet', description: 'Reads no key', input: v.object({}), execute: () => 'ok' });
    const executor = createExecutor({ registry: [tool, quiet] });
    await executor.execute({ id: 'call_q', name: 'quiet', arguments: {} }, { run, idempotencyKey });
    expect(asked).toEqual([]);
    expect((await executor.execute(call, { run, idempotencyKey })).outcome.type).toBe('success');
    const key = idempotencyKeyOf({ conversationId: 'conv-1', callId: 'call_0', nonce: 'n-1' });
    expect(seen).toEqual([key, key, key]);
    expect(asked).toEqual(['call_0']);
    // `undefined` from it: the executor's own key, as with no function.
    const { tool: again, seen: own } = keyed({ effects: 'read' });
    await createExecutor({ registry: [again] }).execute(call, { run, idempotencyKey: () => undefined });
    expect(own).toEqual([idempotencyKeyOf({ conversationId: 'conv-1', callId: 'call_0' })]);
  });

  it('is unambiguous whatever the ids hold', () => {
    expect(idempotencyKeyOf({ conversationId: 'a', callId: 'b:c' })).not.toBe(idempotencyKeyOf({ conversationId: 'a:b', callId: 'c' }));
    expect(idempotencyKeyOf({ conversationId: 'a', callId: 'b","c' })).not.toBe(idempotencyKeyOf({ conversationId: 'a', callId: 'b', nonce: 'c' }));
  });
});
