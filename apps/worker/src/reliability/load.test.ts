// Reliability, load with correctness (issue "Reliability"): one chat per open seeded order, all in
// parallel through the Worker's own fetch handler (`exports.default.fetch`). Each chat asks to move its
// order's delivery date, approves it, then asks to e-mail the customer and approves that: 4 requests per
// chat. Afterwards D1 must hold exactly the N changes, 2N audit events, N outbox entries and 2N spent
// ticket nonces. Every approved continuation sent once more gets the call's recorded result back (200) and writes
// nothing: the tables stay as they were.
import type { EdgetoolUIMessage } from '@edgetool/ai';
import { describe, expect, it } from 'vitest';
import { counts, emailKey, post, readTurn, respond, rows, snapshotDb, toolPart, user } from '../../test/chat-client.ts';
import { isoDay } from '../tools/index.ts';

interface OpenOrder {
  readonly id: string;
  readonly email: string;
  readonly delivery_date: string;
}

interface ChatRun {
  readonly conversation: string;
  readonly order: OpenOrder;
  readonly newDate: string;
  readonly dateCallId: string;
  readonly emailCallId: string;
  /** Its outbox key: the e-mail call's `ctx.idempotencyKey`, with its approval ticket's nonce. */
  readonly emailKey: string;
  /** The two approved continuations this chat posted (date change, e-mail). */
  readonly continuations: readonly EdgetoolUIMessage[][];
}

/** A day `days` after today (UTC), so the dates stay valid whatever the clock says. */
function daysFromToday(days: number): string {
  return isoDay(new Date(Date.now() + days * 86_400_000));
}

/** One chat: ask, approve, ask, approve; returns what it did. */
async function runChat(order: OpenOrder, index: number): Promise<ChatRun> {
  const conversation = `load-${index}-${order.id}`;
  const newDate = daysFromToday(60 + index);
  // Each chat is a client of its own (send_email's rate limit counts per client address).
  const send = (body: unknown) => post(body, { headers: { 'cf-connecting-ip': `192.0.2.${index + 1}` } });

  const askDate = user(`/update_delivery_date {"order_id":"${order.id}","new_date":"${newDate}","reason":"load test chat ${index}"}`);
  const t1 = await readTurn(await send({ id: conversation, messages: [askDate] }));
  const datePart = toolPart(t1.message, 'update_delivery_date');
  expect(datePart?.state).toBe('approval-requested');
  const dateCallId = datePart?.toolCallId as string;
  const approvedDate = respond([askDate, t1.message], dateCallId, true);
  const t2 = await readTurn(await send({ id: conversation, messages: approvedDate }), approvedDate.at(-1));
  expect(toolPart(t2.message, 'update_delivery_date')).toMatchObject({ state: 'output-available', output: { order_id: order.id, delivery_date: newDate } });
  expect(t2.chunks.at(-1)?.type).toBe('finish');

  const history = [...approvedDate.slice(0, -1), t2.message];
  const askMail = user(`/send_email {"order_id":"${order.id}","subject":"New delivery date for ${order.id}","body":"Your order now arrives on ${newDate}."}`);
  const t3 = await readTurn(await send({ id: conversation, messages: [...history, askMail] }));
  const mailPart = toolPart(t3.message, 'send_email');
  expect(mailPart?.state).toBe('approval-requested');
  const emailCallId = mailPart?.toolCallId as string;
  const approvedMail = respond([...history, askMail, t3.message], emailCallId, true);
  const t4 = await readTurn(await send({ id: conversation, messages: approvedMail }), approvedMail.at(-1));
  expect(toolPart(t4.message, 'send_email')).toMatchObject({ state: 'output-available', output: { queued: true, duplicate: false, to: order.email } });

  const key = emailKey(conversation, emailCallId, t3.message);
  return { conversation, order, newDate, dateCallId, emailCallId, emailKey: key, continuations: [approvedDate, approvedMail] };
}

/**
 * Every spent nonce must be one of this test's tickets, and every "started" mark one of its approved calls that ran (a
 * row `<nonce> started` beside its ticket's): each test starts from an empty D1 (test/reset-storage.ts), so a count that
 * is off names each nonce's decision and when its ticket was issued relative to the test's start.
 */
async function expectNonces(expected: number, marks: number, started: number): Promise<void> {
  const rowsOf = (sql: string) => rows<{ expires_at: number; decision: string | null }>(`SELECT expires_at, decision FROM ticket_nonces WHERE ${sql} ORDER BY expires_at`);
  const [spent, marked] = [await rowsOf("nonce NOT LIKE '% started'"), await rowsOf("nonce LIKE '% started'")];
  const label = (row: { expires_at: number; decision: string | null }) =>
    `${row.decision ?? 'no decision'} (issued ${Math.round((row.expires_at - 15 * 60_000 - started) / 1000)} s after the start)`;
  expect(spent, spent.map(label).join('; ')).toHaveLength(expected);
  expect(marked, marked.map(label).join('; ')).toHaveLength(marks);
}

describe('load with correctness', () => {
  it('N concurrent chats each move one order and e-mail its customer: exactly N changes, no ticket used twice', async () => {
    const open = await rows<OpenOrder>("SELECT id, email, delivery_date FROM orders WHERE status <> 'delivered' ORDER BY id");
    const seeded = await rows<{ id: string; delivery_date: string; delay_days: number }>('SELECT id, delivery_date, delay_days FROM orders ORDER BY id');
    const N = open.length;
    expect(N).toBeGreaterThanOrEqual(10);

    const started = Date.now();
    const runs = await Promise.all(open.map((order, i) => runChat(order, i)));

    // Orders: exactly N rows changed, each to its chat's date; the delivered ones untouched.
    const after = await rows<{ id: string; delivery_date: string; delay_days: number }>('SELECT id, delivery_date, delay_days FROM orders ORDER BY id');
    const changed = after.filter((row, i) => row.delivery_date !== seeded[i]?.delivery_date);
    expect(changed).toHaveLength(N);
    for (const run of runs) expect(after.find((r) => r.id === run.order.id)?.delivery_date).toBe(run.newDate);

    // Audit trail: one date change and one e-mail event per chat, each from its own tool call.
    const events = await rows<{ order_id: string; kind: string; call_id: string }>('SELECT order_id, kind, call_id FROM order_events ORDER BY id');
    const dateEvents = events.filter((e) => e.kind === 'delivery_date_changed');
    const mailEvents = events.filter((e) => e.kind === 'email_queued');
    expect(dateEvents).toHaveLength(N);
    expect(mailEvents).toHaveLength(N);
    expect(events).toHaveLength(2 * N);
    expect(new Set(dateEvents.map((e) => `${e.order_id}/${e.call_id}`))).toEqual(new Set(runs.map((r) => `${r.order.id}/${r.dateCallId}`)));
    expect(new Set(mailEvents.map((e) => `${e.order_id}/${e.call_id}`))).toEqual(new Set(runs.map((r) => `${r.order.id}/${r.emailCallId}`)));

    // Outbox: every message exactly once, one idempotency key per chat, to the order's customer.
    const outbox = await rows<{ order_id: string; to_address: string; idempotency_key: string }>('SELECT order_id, to_address, idempotency_key FROM outbox');
    expect(outbox).toHaveLength(N);
    expect(new Set(outbox.map((m) => m.idempotency_key)).size).toBe(N);
    expect(new Set(outbox.map((m) => m.idempotency_key))).toEqual(new Set(runs.map((r) => r.emailKey)));
    for (const run of runs) expect(outbox.find((m) => m.order_id === run.order.id)?.to_address).toBe(run.order.email);

    // Tickets: exactly two spent nonces per chat, and two calls marked started.
    await expectNonces(2 * N, 2 * N, started);

    // Send every approved continuation once more, all at once (as clients whose answers were lost would): each gets the
    // result its call recorded, and nothing runs again: D1 unchanged, no ticket spent.
    const snapshot = await snapshotDb();
    const replays = await Promise.all(
      runs.flatMap((run) => run.continuations.map(async (messages) => ({ run, messages, response: await post({ id: run.conversation, messages }) }))),
    );
    expect(replays).toHaveLength(2 * N);
    for (const { run, messages, response } of replays) {
      expect(response.status).toBe(200);
      const { message } = await readTurn(response, messages.at(-1));
      const part = toolPart(message, messages === run.continuations[0] ? 'update_delivery_date' : 'send_email');
      expect(part?.state).toBe('output-available');
    }
    expect(await snapshotDb()).toEqual(snapshot);
    await expectNonces(2 * N, 2 * N, started);
    // ~10 s on an idle 2-core sandbox, 31 s once seen on a loaded one: the bound is for a hang, not a speed check.
  }, 60_000);

  it('the same approved continuation posted 8 times at once runs exactly once', async () => {
    const ask = user('/update_delivery_date {"order_id":"A-1012","new_date":"2027-01-15"}');
    const first = await readTurn(await post({ id: 'race', messages: [ask] }));
    const callId = toolPart(first.message, 'update_delivery_date')?.toolCallId as string;
    const approved = respond([ask, first.message], callId, true);
    const before = await counts();

    const responses = await Promise.all(Array.from({ length: 8 }, () => post({ id: 'race', messages: approved })));
    // One claims the ticket and runs the call. The others are the same continuation again: they run nothing, and each
    // gets the recorded result, or (while the first has not recorded it yet) is told the outcome is unknown.
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    const states = await Promise.all(responses.map(async (response) => toolPart((await readTurn(response, approved.at(-1))).message, 'update_delivery_date')?.state));
    expect(states.filter((state) => state === 'output-available').length).toBeGreaterThanOrEqual(1);
    expect(states.every((state) => state === 'output-available' || state === 'output-error')).toBe(true);
    // The ticket's row and the call's "started" mark (whichever request took it ran the call).
    expect(await counts()).toEqual({ events: before.events + 1, outbox: before.outbox, nonces: before.nonces + 2 });
    expect(await rows('SELECT delivery_date FROM orders WHERE id = ?1', 'A-1012')).toEqual([{ delivery_date: '2027-01-15' }]);
  }, 20_000);
});
