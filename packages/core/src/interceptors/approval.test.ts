import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { ToolOutcome } from '../chain/types.ts';
import { createRunContext } from '../context/run-context.ts';
import { createExecutor } from '../executor/executor.ts';
import { createRegistry } from '../registry/registry.ts';
import { queryOrder, updateDeliveryDate } from '../test-support/order-tools.ts';
import { createTicketSigner } from '../tickets/index.ts';
import { defineTool } from '../tool/define-tool.ts';
import { approval } from './approval.ts';
import { redact } from './redact.ts';
import type { TraceRecord } from './trace.ts';

const code = (outcome: ToolOutcome) => (outcome.type === 'error' ? outcome.error.code : outcome.type);
const keys = [{ id: 'k1', secret: 'a-test-secret-that-is-at-least-32-bytes-long' }];
const call = { id: 'call-1', name: 'update_delivery_date', arguments: { order_id: 'A-1001', new_date: '2026-12-24' } };

function setup() {
  let writes = 0;
  const { name, description, input, policy } = updateDeliveryDate;
  const tool = defineTool({ name, description, input, policy, execute: (args) => ({ ...args, written: ++writes }) });
  const tickets = createTicketSigner({ keys });
  const executor = createExecutor({ registry: [tool, queryOrder], tickets });
  const run = createRunContext({ conversationId: 'conv-1' });
  return { executor, tickets, run, writes: () => writes };
}

async function requestTicket(s: ReturnType<typeof setup>) {
  const pending = await s.executor.execute(call, { run: s.run });
  if (pending.outcome.type !== 'approval-required' || !pending.outcome.ticket) throw new Error('expected an approval request with a ticket');
  return pending.outcome.ticket;
}

describe('approval and tickets', () => {
  it('a decision or a client result without a run is refused with a message that names the cause', async () => {
    const s = setup();
    const ticket = await requestTicket(s);
    const result = await s.executor.execute(call, { approval: { approved: true, ticket } });
    expect(code(result.outcome)).toBe('ticket-invalid');
    expect(result.content).toMatch(/came without a run: pass the run of its conversation/);
    expect(s.writes()).toBe(0);
    // The ticket was not spent: the same decision with the run goes through.
    expect(code((await s.executor.execute(call, { run: s.run, approval: { approved: true, ticket } })).outcome)).toBe('success');
    const client = await s.executor.acceptClientResult({ call: { id: 'x', name: 'query_order', arguments: {} }, output: 1, ticket: 'et1.k1.a.b' });
    expect(client.content).toMatch(/came without a run/);
  });

  it('a write tool pauses with a signed ticket and runs nothing', async () => {
    const s = setup();
    const pending = await s.executor.execute(call, { run: s.run });
    expect(pending.outcome.type).toBe('approval-required');
    expect(pending.content).toMatch(/Waiting for the user to approve/);
    expect(s.writes()).toBe(0);
    const claims = s.tickets.peek(pending.outcome.type === 'approval-required' ? pending.outcome.ticket : undefined);
    expect(claims).toMatchObject({ purpose: 'approval', tool: 'update_delivery_date', callId: 'call-1', conv: 'conv-1' });
  });

  it('an approval with its ticket runs the call exactly once; the ticket cannot be replayed', async () => {
    const s = setup();
    const ticket = await requestTicket(s);
    const approved = await s.executor.execute(call, { run: s.run, approval: { approved: true, ticket } });
    expect(approved.outcome).toMatchObject({ type: 'success', output: { written: 1 } });
    const replay = await s.executor.execute(call, { run: s.run, approval: { approved: true, ticket } });
    expect(code(replay.outcome)).toBe('ticket-invalid');
    expect(s.writes()).toBe(1);
  });

  it('refuses forged or mismatched approvals and executes nothing', async () => {
    const s = setup();
    const ticket = await requestTicket(s);
    const attempts = [
      { approval: { approved: true } }, // no ticket
      { approval: { approved: true, ticket: 'et1.k1.forged.forged' } },
      { approval: { approved: true, ticket }, call: { ...call, arguments: { ...call.arguments, new_date: '2027-01-01' } } },
      { approval: { approved: true, ticket }, call: { ...call, id: 'call-2' } },
      { approval: { approved: true, ticket }, run: createRunContext({ conversationId: 'conv-other' }) },
    ];
    for (const attempt of attempts) {
      const result = await s.executor.execute(attempt.call ?? call, { run: attempt.run ?? s.run, approval: attempt.approval });
      expect(code(result.outcome)).toBe('ticket-invalid');
    }
    const wrongKey = createExecutor({ registry: [updateDeliveryDate], tickets: createTicketSigner({ keys: [{ id: 'k1', secret: 'another-secret-that-is-at-least-32-bytes!!' }] }) });
    expect(code((await wrongKey.execute(call, { run: s.run, approval: { approved: true, ticket } })).outcome)).toBe('ticket-invalid');
    expect(s.writes()).toBe(0);
    // The real ticket still works: failed attempts did not burn it.
    expect((await s.executor.execute(call, { run: s.run, approval: { approved: true, ticket } })).outcome.type).toBe('success');
  });

  it('a denial reaches the model as approval-denied and runs nothing', async () => {
    const s = setup();
    const ticket = await requestTicket(s);
    const denied = await s.executor.execute(call, { run: s.run, approval: { approved: false, ticket, reason: 'wrong order' } });
    expect(code(denied.outcome)).toBe('approval-denied');
    expect(denied.content).toMatch(/denied.*not performed.*Reason: wrong order/);
    expect(s.writes()).toBe(0);
  });

  it('a denial stands when the rule would no longer ask (it reads state that changed since): nothing runs', async () => {
    let asks = true;
    let sent = 0;
    const send = defineTool({
      name: 'send',
      description: '',
      input: v.object({}),
      policy: { effects: 'write', needsApproval: () => asks },
      execute: () => ++sent,
    });
    const tickets = createTicketSigner({ keys });
    const run = createRunContext({ conversationId: 'conv-1' });
    for (const ex of [createExecutor({ registry: [send], tickets }), createExecutor({ registry: [send] })]) {
      asks = true;
      const pending = await ex.execute({ id: 's1', name: 'send', arguments: {} }, { run });
      const ticket = pending.outcome.type === 'approval-required' ? pending.outcome.ticket : undefined;
      // The human said no; by the time the answer comes back, the rule says a call needs no one (a setting, the time).
      asks = false;
      const denied = await ex.execute({ id: 's1', name: 'send', arguments: {} }, { run, approval: { approved: false, ticket, reason: 'not now' } });
      expect(code(denied.outcome)).toBe('approval-denied');
      expect(denied.content).toMatch(/Reason: not now/);
      expect(sent).toBe(0);
    }
  });

  it('read tools need no approval; an approval rule can depend on the input', async () => {
    const s = setup();
    expect((await s.executor.execute({ id: 'r', name: 'query_order', arguments: { order_id: 'A' } }, { run: s.run })).outcome.type).toBe('success');
    const transfer = defineTool({
      name: 'transfer',
      description: '',
      input: v.object({ amount: v.number() }),
      policy: { effects: 'write', needsApproval: ({ amount }) => amount > 100 },
      execute: ({ amount }) => amount,
    });
    const ex = createExecutor({ registry: [transfer] });
    expect((await ex.execute({ id: '1', name: 'transfer', arguments: { amount: 50 } })).outcome.type).toBe('success');
    expect((await ex.execute({ id: '2', name: 'transfer', arguments: { amount: 500 } })).outcome.type).toBe('approval-required');
  });

  it('the approval() interceptor can require approval for a read tool by a custom rule', async () => {
    const ex = createExecutor({ registry: [queryOrder], interceptors: [approval({ when: (input) => (input as { order_id: string }).order_id.startsWith('VIP') })] });
    expect((await ex.execute({ id: '1', name: 'query_order', arguments: { order_id: 'VIP-1' } })).outcome.type).toBe('approval-required');
    expect((await ex.execute({ id: '2', name: 'query_order', arguments: { order_id: 'A-1' } })).outcome.type).toBe('success');
  });
});

describe('an approval rule that throws', () => {
  it('fails closed: the call ends as execution-failed before anything runs, even with an approved decision', async () => {
    const ran: number[] = [];
    const transfer = defineTool({
      name: 'transfer',
      description: '',
      input: v.object({ amount: v.number() }),
      policy: {
        effects: 'write',
        needsApproval: () => {
          throw new Error('limits service unavailable');
        },
      },
      execute: ({ amount }) => {
        ran.push(amount);
        return amount;
      },
    });
    const ex = createExecutor({ registry: [transfer] });
    const asked = await ex.execute({ id: '1', name: 'transfer', arguments: { amount: 5 } });
    expect(code(asked.outcome)).toBe('execution-failed');
    expect(asked.content).toMatch(/limits service unavailable/);
    const approved = await ex.execute({ id: '2', name: 'transfer', arguments: { amount: 5 } }, { approval: { approved: true } });
    expect(code(approved.outcome)).toBe('execution-failed');
    expect(ran).toEqual([]);
  });
});

describe('policy.approvalReason', () => {
  const transfer = (approvalReason: unknown, ran: number[] = []) =>
    defineTool({
      name: 'transfer',
      description: '',
      input: v.object({ amount: v.number(), to: v.string() }),
      policy: { effects: 'write', approvalReason: approvalReason as never },
      execute: ({ amount }) => {
        ran.push(amount);
        return amount;
      },
    });

  it('gives the approval request its words: a fixed text, or one made from the validated input and the context', async () => {
    const fixed = createExecutor({ registry: [transfer('Money leaves the account.')] });
    const asked = await fixed.execute({ id: '1', name: 'transfer', arguments: { amount: 5, to: 'bob' } });
    expect(asked.outcome).toMatchObject({ type: 'approval-required', reason: 'Money leaves the account.' });

    const seen: unknown[] = [];
    const made = defineTool({
      name: 'transfer',
      description: '',
      input: v.object({ amount: v.number(), to: v.string() }),
      policy: {
        effects: 'write',
        coerce: true,
        approvalReason: async ({ amount, to }, ctx) => {
          seen.push(ctx.run.userId, ctx.call.id);
          return `Sends ${amount.toFixed(2)} EUR to ${to}.`;
        },
      },
      execute: ({ amount }) => amount,
    });
    const ex = createExecutor({ registry: [made], tickets: createTicketSigner({ keys }) });
    const run = createRunContext({ conversationId: 'c', userId: 'ada' });
    // The input is the validated one (coerced "5" → 5), as `check` reads it.
    const result = await ex.execute({ id: 'call-7', name: 'transfer', arguments: { amount: '5', to: 'bob' } }, { run });
    expect(result.outcome).toMatchObject({ type: 'approval-required', reason: 'Sends 5.00 EUR to bob.' });
    expect(result.outcome.type === 'approval-required' && typeof result.outcome.ticket).toBe('string');
    expect(seen).toEqual(['ada', 'call-7']);
    // Asked only when a human is asked: an approved call does not make it again.
    if (result.outcome.type !== 'approval-required') return;
    const approved = await ex.execute({ id: 'call-7', name: 'transfer', arguments: { amount: '5', to: 'bob' } }, { run, approval: { approved: true, ticket: result.outcome.ticket } });
    expect(approved.outcome.type).toBe('success');
    expect(seen).toHaveLength(2);
  });

  it('an empty text is no reason, and a reason that throws refuses the call before a human is asked', async () => {
    const empty = createExecutor({ registry: [transfer(() => '  ')] });
    expect((await empty.execute({ id: '1', name: 'transfer', arguments: { amount: 1, to: 'x' } })).outcome).toMatchObject({ type: 'approval-required', reason: undefined });

    const ran: number[] = [];
    const throwing = createExecutor({
      registry: [
        transfer(() => {
          throw new Error('ledger unavailable');
        }, ran),
      ],
    });
    const asked = await throwing.execute({ id: '2', name: 'transfer', arguments: { amount: 1, to: 'x' } });
    expect(code(asked.outcome)).toBe('execution-failed');
    expect(asked.content).toMatch(/ledger unavailable/);
    expect(ran).toEqual([]);
  });

  it('defineTool refuses a reason of another type, and one on a tool that never asks', () => {
    expect(() => transfer(42)).toThrow('Tool "transfer": approvalReason must be a string or a function (input, ctx) => string.');
    expect(() =>
      defineTool({ name: 'note', description: '', input: v.object({}), policy: { effects: 'write', needsApproval: false, approvalReason: 'x' }, execute: () => 1 }),
    ).toThrow('Tool "note": approvalReason is read when a human approves, so it needs approvals (needsApproval is false).');
  });
});

describe('placement', () => {
  const pickDate = defineTool({
    name: 'pick_date',
    description: 'Ask the user for a date in the browser',
    input: v.object({ question: v.string() }),
    policy: { runsOn: 'client' },
    execute: () => '2026-12-24',
  });

  it('on the server a client tool is deferred with a client-result ticket; its result needs that ticket', async () => {
    const tickets = createTicketSigner({ keys });
    const server = createExecutor({ registry: [pickDate, queryOrder], tickets });
    const run = createRunContext({ conversationId: 'conv-9' });
    const c = { id: 'c-1', name: 'pick_date', arguments: { question: 'When?' } };
    const pending = await server.execute(c, { run });
    expect(pending.outcome.type).toBe('client-pending');
    const ticket = pending.outcome.type === 'client-pending' ? pending.outcome.ticket : undefined;
    expect(tickets.peek(ticket)?.purpose).toBe('client-result');

    const forged = await server.acceptClientResult({ call: c, output: '2030-01-01', ticket: undefined, run });
    expect(code(forged.outcome)).toBe('ticket-invalid');
    const tampered = await server.acceptClientResult({ call: { ...c, arguments: { question: 'other' } }, output: 'x', ticket, run });
    expect(code(tampered.outcome)).toBe('ticket-invalid');
    const accepted = await server.acceptClientResult({ call: c, output: '2026-12-24', ticket, run });
    expect(accepted.outcome).toEqual({ type: 'success', output: '2026-12-24' });
    expect(code((await server.acceptClientResult({ call: c, output: 'again', ticket, run })).outcome)).toBe('ticket-invalid');
    const serverOnly = await server.acceptClientResult({ call: { id: 'x', name: 'query_order', arguments: { order_id: 'A' } }, output: { forged: true }, ticket, run });
    expect(code(serverOnly.outcome)).toBe('wrong-placement');
  });

  it('onTrace records an accepted client result (and a failure the client reports) as it does a refused one', async () => {
    const records: TraceRecord[] = [];
    const secretDate = defineTool({ ...pickDate, name: 'secret_date', interceptors: [redact({ fields: ['question'] })] });
    const tickets = createTicketSigner({ keys });
    const server = createExecutor({ registry: [secretDate], tickets, onTrace: (record) => records.push(record) });
    const run = createRunContext({ conversationId: 'conv-7' });
    const ticketOf = async (id: string) => {
      const pending = await server.execute({ id, name: 'secret_date', arguments: { question: 'When?' } }, { run });
      return pending.outcome.type === 'client-pending' ? pending.outcome.ticket : undefined;
    };
    const c = (id: string) => ({ id, name: 'secret_date', arguments: { question: 'When?' } });
    const [okTicket, failTicket] = [await ticketOf('ok'), await ticketOf('fail')];
    records.length = 0;
    await server.acceptClientResult({ call: c('ok'), output: 'x', ticket: undefined, run });
    await server.acceptClientResult({ call: c('ok'), output: '2026-12-24', ticket: okTicket, run });
    await server.acceptClientResult({ call: c('fail'), output: 'The user closed the dialog.', isError: true, ticket: failTicket, run });
    const shape = { traceId: expect.any(String), toolName: 'secret_date', conversationId: 'conv-7', input: { question: '[redacted]' }, attempts: 0, spans: [] };
    expect(records).toEqual([
      { ...shape, callId: 'ok', outcome: 'error', errorCode: 'ticket-invalid' },
      { ...shape, callId: 'ok', outcome: 'success', errorCode: undefined },
      { ...shape, callId: 'fail', outcome: 'error', errorCode: 'execution-failed' },
    ]);
  });

  it("a client's result passes through the redact() of the global, registry and tool layers, as a server-run result does (it bypassed them)", async () => {
    const profile = { name: 'Ada', card: '4111', account: { token: 't0p', iban: 'DE00' } };
    const make = (runsOn: 'client' | 'anywhere') =>
      defineTool({ name: 'read_profile', description: 'd', input: v.object({}), policy: { runsOn }, interceptors: [redact({ fields: ['card'] })], execute: () => profile });
    const setup = (runsOn: 'client' | 'anywhere') => {
      const records: TraceRecord[] = [];
      const registry = createRegistry({ tools: [make(runsOn)], interceptors: [redact({ fields: ['token'] })] });
      const executor = createExecutor({ registry, interceptors: [redact({ fields: ['iban'] })], onTrace: (record) => records.push(record) });
      return { executor, records };
    };
    const c = { id: 'c-1', name: 'read_profile', arguments: {} };
    const masked = { name: 'Ada', card: '[redacted]', account: { token: '[redacted]', iban: '[redacted]' } };

    const server = setup('anywhere');
    const ran = await server.executor.execute(c);
    expect(ran.outcome).toEqual({ type: 'success', output: masked });
    const client = setup('client');
    expect((await client.executor.execute(c)).outcome.type).toBe('client-pending');
    const accepted = await client.executor.acceptClientResult({ call: c, output: profile, ticket: undefined });
    expect(accepted.content).toBe(ran.content);
    expect(accepted.outcome).toEqual(ran.outcome);
    expect(client.records.at(-1)).toMatchObject({ outcome: 'success', input: {} });
    // The same masking for a caller that takes client results itself (the chat loop), given the tool the registry hands out.
    const handed = await client.executor.registry.resolve('read_profile');
    expect(handed && client.executor.redactOutput(handed, profile)).toEqual(masked);
    expect(profile.card).toBe('4111');
    // A result that JSON cannot hold is the result's fault, as on the server.
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const refused = await client.executor.acceptClientResult({ call: c, output: cyclic, ticket: undefined });
    expect(refused.outcome).toMatchObject({ type: 'error', error: { code: 'invalid-output' } });
    // The message of a failure the client reports is its own.
    expect((await client.executor.acceptClientResult({ call: c, output: 'card 4111 declined', isError: true, ticket: undefined })).content).toBe(
      'Error (execution-failed): card 4111 declined',
    );
  });

  it('a nonce store that fails makes a client result a typed failure, as it does an approval (acceptClientResult rejected)', async () => {
    const down = { claim: () => Promise.reject(new Error('D1 is unavailable')) };
    const tickets = createTicketSigner({ keys, nonceStore: down });
    const server = createExecutor({ registry: [pickDate, updateDeliveryDate], tickets });
    const run = createRunContext({ conversationId: 'conv-9' });
    const c = { id: 'c-1', name: 'pick_date', arguments: { question: 'When?' } };
    const pending = await server.execute(c, { run });
    const ticket = pending.outcome.type === 'client-pending' ? pending.outcome.ticket : undefined;
    const result = await server.acceptClientResult({ call: c, output: '2026-12-24', ticket, run });
    expect(result.outcome).toMatchObject({ type: 'error', error: { code: 'execution-failed', unexpected: true } });
    expect(result.content).toBe('Error (execution-failed): D1 is unavailable');
    // The same failure of an approval's ticket, for comparison.
    const asked = await server.execute(call, { run });
    const approvalTicket = asked.outcome.type === 'approval-required' ? asked.outcome.ticket : undefined;
    const approved = await server.execute(call, { run, approval: { approved: true, ticket: approvalTicket } });
    expect(approved.content).toBe(result.content);
  });

  it('on the client the same tool runs, and a server-only tool is refused', async () => {
    const client = createExecutor({ registry: [pickDate, queryOrder], side: 'client' });
    expect((await client.execute({ id: '1', name: 'pick_date', arguments: { question: 'When?' } })).content).toBe('2026-12-24');
    expect(code((await client.execute({ id: '2', name: 'query_order', arguments: { order_id: 'A' } })).outcome)).toBe('wrong-placement');
  });
});
