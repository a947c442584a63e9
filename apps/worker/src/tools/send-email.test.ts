import { env } from 'cloudflare:workers';
import { createTicketSigner, idempotencyKeyOf, isToolAvailable, peekTicket } from '@edgetool/core';
import { describe, expect, it } from 'vitest';
import { call, callApproved, describeOutcome, outputOf, rows, testExecutor, testRun } from '../../test/support.ts';
import { demoDeps } from './registry.ts';
import { type SendEmailResult, sendEmail } from './send-email.ts';

interface OutboxRow {
  id: string;
  to_address: string;
  subject: string;
  body: string;
  order_id: string;
  created_at: string;
  idempotency_key: string;
}

const outbox = () => rows<OutboxRow>('SELECT * FROM outbox ORDER BY created_at, id');
const emailEvents = () => rows<{ order_id: string; details: string; call_id: string }>("SELECT order_id, details, call_id FROM order_events WHERE kind = 'email_queued'");
const args = { order_id: 'A-1006', subject: 'Your standing desk is delayed', body: 'Sorry, it now arrives on 12 December.' };

describe('send_email', () => {
  it('refuses a subject with a line break (a header a real mailer would send): the model reads why, nothing is queued', async () => {
    for (const subject of ['Delayed\r\nBcc: everyone@example.com', 'Delayed\nagain', 'Delayed\u2028again']) {
      const refused = await call('send_email', { ...args, subject }, { run: testRun({ conversationId: 'conv-inject' }), approval: { approved: true } });
      expect(refused.outcome.type === 'error' && refused.outcome.error.code).toBe('invalid-input');
      expect(refused.content).toContain('The subject is one line: no line breaks');
    }
    expect(await outbox()).toEqual([]);
  });

  it('is destructive: pauses for approval and queues nothing before it; the card names the recipient the order gives', async () => {
    const pending = await call('send_email', args);
    expect(pending.outcome).toMatchObject({
      type: 'approval-required',
      reason: 'Sends this e-mail to Margaret Hamilton <margaret.hamilton@example.com> about order A-1006.',
    });
    expect(await outbox()).toEqual([]);
  });

  it("once approved, queues one message to the order's customer in the outbox, with an audit event", async () => {
    const result = outputOf<SendEmailResult>(await callApproved('send_email', args, { id: 'call-mail', run: testRun({ conversationId: 'conv-7' }) }));
    expect(result).toMatchObject({ queued: true, duplicate: false, order_id: 'A-1006', to: 'margaret.hamilton@example.com', subject: args.subject });
    const [row, ...more] = await outbox();
    expect(more).toEqual([]);
    expect(row).toEqual({
      id: result.outbox_id,
      to_address: 'margaret.hamilton@example.com',
      subject: args.subject,
      body: args.body,
      order_id: 'A-1006',
      created_at: '2026-11-20T12:00:00.000Z',
      idempotency_key: 'send_email:["conv-7","call-mail"]',
    });
    const events = await emailEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ order_id: 'A-1006', call_id: 'call-mail' });
    expect(JSON.parse(events[0]?.details ?? '')).toEqual({ outbox_id: result.outbox_id, subject: args.subject });
  });

  it('enqueues exactly once when the same approved call is replayed (same call id), even concurrently', async () => {
    const run = testRun({ conversationId: 'conv-retry' });
    const first = outputOf<SendEmailResult>(await callApproved('send_email', args, { id: 'call-dup', run }));
    const again = outputOf<SendEmailResult>(await call('send_email', args, { id: 'call-dup', run, approval: { approved: true } }));
    const racing = await Promise.all([1, 2, 3].map(() => call('send_email', args, { id: 'call-dup', run, approval: { approved: true } })));
    expect(again).toMatchObject({ duplicate: true, outbox_id: first.outbox_id, to: first.to, created_at: first.created_at });
    for (const result of racing) expect(outputOf<SendEmailResult>(result)).toMatchObject({ duplicate: true, outbox_id: first.outbox_id });
    expect(await outbox()).toHaveLength(1);
    expect(await emailEvents()).toHaveLength(1);
  });

  it('a different call (new id, or another conversation) is a new message', async () => {
    await callApproved('send_email', args, { id: 'call-a', run: testRun({ conversationId: 'conv-1' }) });
    await callApproved('send_email', args, { id: 'call-b', run: testRun({ conversationId: 'conv-1' }) });
    await callApproved('send_email', args, { id: 'call-a', run: testRun({ conversationId: 'conv-2' }) });
    expect((await outbox()).map((r) => r.idempotency_key).sort()).toEqual([
      'send_email:["conv-1","call-a"]',
      'send_email:["conv-1","call-b"]',
      'send_email:["conv-2","call-a"]',
    ]);
  });

  it('keys its row on ctx.idempotencyKey: a call approved again with another ticket (same id, same arguments) is a new message', async () => {
    const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'send-email-test-secret-send-email-test' }] });
    const executor = testExecutor({ tickets });
    const run = () => testRun({ conversationId: 'conv-again' });
    const approved = async () => {
      const pending = await call('send_email', args, { id: 'call_0', run: run(), executor });
      const ticket = pending.outcome.type === 'approval-required' ? pending.outcome.ticket : undefined;
      const sent = outputOf<SendEmailResult>(await call('send_email', args, { id: 'call_0', run: run(), executor, approval: { approved: true, ticket } }));
      return { sent, key: `send_email:${idempotencyKeyOf({ conversationId: 'conv-again', callId: 'call_0', nonce: peekTicket(ticket)?.nonce })}` };
    };
    const first = await approved();
    const second = await approved();
    expect([first.sent.duplicate, second.sent.duplicate]).toEqual([false, false]);
    expect(second.sent.outbox_id).not.toBe(first.sent.outbox_id);
    expect((await outbox()).map((r) => [r.id, r.idempotency_key])).toEqual(
      expect.arrayContaining([
        [first.sent.outbox_id, first.key],
        [second.sent.outbox_id, second.key],
      ]),
    );
    expect(await outbox()).toHaveLength(2);
  });

  it('the same key again (the same approved continuation, run once more) writes nothing: it reads the row that key wrote', async () => {
    const run = testRun({ conversationId: 'conv-key' });
    const send = (nonce: string) =>
      testExecutor().execute(
        { id: 'call_0', name: 'send_email', arguments: args },
        { run, approval: { approved: true }, idempotencyKey: idempotencyKeyOf({ conversationId: 'conv-key', callId: 'call_0', nonce }) },
      );
    const first = outputOf<SendEmailResult>(await send('n-1'));
    const again = outputOf<SendEmailResult>(await send('n-1'));
    const other = outputOf<SendEmailResult>(await send('n-2'));
    expect(again).toMatchObject({ duplicate: true, outbox_id: first.outbox_id });
    expect(other).toMatchObject({ duplicate: false });
    expect((await outbox()).map((r) => r.idempotency_key).sort()).toEqual(['send_email:["conv-key","call_0","n-1"]', 'send_email:["conv-key","call_0","n-2"]']);
    expect(await emailEvents()).toHaveLength(2);
  });

  it('reads its order once per call for the check and the approval card (the executor runs both on one context)', async () => {
    let reads = 0;
    const db = new Proxy(env.DB, {
      get(target, key) {
        if (key !== 'prepare') return Reflect.get(target, key, target);
        return (sql: string) => {
          if (/FROM orders/i.test(sql)) reads++;
          return target.prepare(sql);
        };
      },
    });
    const pending = await call('send_email', args, { run: testRun({ deps: { db } }) });
    expect(pending.outcome.type).toBe('approval-required');
    expect(reads).toBe(1);
    // A new call reads again: nothing is kept across calls.
    await call('send_email', args, { run: testRun({ deps: { db } }) });
    expect(reads).toBe(2);
  });

  it('refuses an unknown order before asking for approval', async () => {
    const result = await call('send_email', { ...args, order_id: 'A-0000' });
    expect(describeOutcome(result.outcome)).toBe('invalid-input');
    expect(result.content).toMatch(/No order "A-0000" exists/);
    expect(await outbox()).toEqual([]);
  });

  it('refuses an empty subject or body, and has no recipient argument the model could set', async () => {
    expect(describeOutcome((await call('send_email', { ...args, subject: '   ' })).outcome)).toBe('invalid-input');
    expect(describeOutcome((await call('send_email', { ...args, body: '' })).outcome)).toBe('invalid-input');
    const withRecipient = await callApproved('send_email', { ...args, to: 'attacker@example.net' });
    expect(outputOf<SendEmailResult>(withRecipient).to).toBe('margaret.hamilton@example.com');
    expect(await env.DB.prepare("SELECT count(*) AS n FROM outbox WHERE to_address LIKE '%attacker%'").first('n')).toBe(0);
  });

  it('spends the EMAIL_LIMITER binding per client: over its budget the call is refused and queues nothing, whatever the conversation', async () => {
    // The binding allows 10 per client per minute. Its window may turn over once during the test (a test of a few
    // seconds spans at most two windows), so 21 approved calls queue between 10 and 20 messages, never all 21.
    const client = `198.51.100.${Math.floor(Math.random() * 256)}-${crypto.randomUUID()}`;
    const run = (from: string) => testRun({ conversationId: `conv-limit-${crypto.randomUUID()}`, deps: demoDeps(env, from) });
    const outcomes: string[] = [];
    // A conversation of its own for every call: it does not reset the budget.
    for (let i = 0; i < 21; i++) outcomes.push(describeOutcome((await callApproved('send_email', args, { id: `mail-${i}`, run: run(client) })).outcome));
    const queued = outcomes.filter((o) => o === 'success').length;
    const refused = outcomes.filter((o) => o === 'rate-limited').length;
    expect(queued + refused).toBe(21);
    expect(queued).toBeGreaterThanOrEqual(10);
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(await outbox()).toHaveLength(queued);
    // Another client has its own budget.
    expect(describeOutcome((await callApproved('send_email', args, { id: 'mail-other', run: run(`${client}-other`) })).outcome)).toBe('success');
  });

  it('is not available without its rate limiter: never offered, and a call of it is an unknown tool that queues nothing', async () => {
    // Not even an approval is asked for: a call of it ends at the lookup.
    const result = await call('send_email', args, { run: testRun({ deps: { emailLimiter: undefined } }) });
    expect(describeOutcome(result.outcome)).toBe('unknown-tool');
    expect(result.content).toMatch(/^Error \(unknown-tool\): Unknown tool "send_email"\. Available tools: (?!.*send_email)/);
    expect(await outbox()).toEqual([]);
    expect(await isToolAvailable(sendEmail, testRun({ deps: { emailLimiter: undefined } }))).toBe(false);
    expect(await isToolAvailable(sendEmail, testRun())).toBe(true);
  });
});
