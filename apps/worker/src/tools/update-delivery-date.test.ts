import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { call, callApproved, describeOutcome, outputOf, rows, testRun, wrapDb } from '../../test/support.ts';
import type { UpdateDeliveryDateResult } from './update-delivery-date.ts';

interface EventRow {
  order_id: string;
  kind: string;
  details: string;
  call_id: string;
  created_at: string;
}

const order = (id: string) => env.DB.prepare('SELECT delivery_date, delay_days, status, updated_at FROM orders WHERE id = ?1').bind(id).first();
const events = () => rows<EventRow>('SELECT order_id, kind, details, call_id, created_at FROM order_events ORDER BY id');

describe('update_delivery_date', () => {
  it('pauses for approval through the executor and writes nothing until approved', async () => {
    const pending = await call('update_delivery_date', { order_id: 'A-1002', new_date: '2026-12-08' }, { id: 'c-pause' });
    expect(pending.outcome).toEqual({ type: 'approval-required', ticket: undefined, reason: 'Order A-1002 of Grace Hopper moves from 2026-12-03 to 2026-12-08: 9 days late.' });
    expect(pending.content).toMatch(/Waiting for the user to approve/);
    expect(await order('A-1002')).toMatchObject({ delivery_date: '2026-12-03', delay_days: 4 });
    expect(await events()).toEqual([]);
  });

  it('once approved, moves the date, recomputes the delay and records an audit event', async () => {
    const result = await callApproved('update_delivery_date', { order_id: 'A-1002', new_date: '2026-12-08', reason: 'Carrier backlog' }, { id: 'c-ok' });
    expect(outputOf<UpdateDeliveryDateResult>(result)).toEqual({
      order_id: 'A-1002',
      previous_date: '2026-12-03',
      delivery_date: '2026-12-08',
      delay_days: 9,
      status: 'delayed',
      previous_status: 'delayed',
      event_id: 1,
    });
    expect(await order('A-1002')).toEqual({ delivery_date: '2026-12-08', delay_days: 9, status: 'delayed', updated_at: '2026-11-20T12:00:00.000Z' });
    const [event, ...more] = await events();
    expect(more).toEqual([]);
    expect(event).toMatchObject({ order_id: 'A-1002', kind: 'delivery_date_changed', call_id: 'c-ok', created_at: '2026-11-20T12:00:00.000Z' });
    expect(JSON.parse(event?.details ?? '')).toEqual({ from: '2026-12-03', to: '2026-12-08', delay_days_before: 4, delay_days_after: 9, reason: 'Carrier backlog' });
  });

  it('an earlier date reduces the delay, never below zero', async () => {
    const earlier = await callApproved('update_delivery_date', { order_id: 'A-1004', new_date: '2026-11-25' });
    expect(outputOf<UpdateDeliveryDateResult>(earlier).delay_days).toBe(0);
  });

  it('measures the delay against the date first promised, also after a move ahead of it (a delay of 0 does not say by how much)', async () => {
    // A-1004: 2026-12-01, 2 days late, so promised for 2026-11-29. Moved 4 days ahead of that, then back to it.
    const ahead = await callApproved('update_delivery_date', { order_id: 'A-1004', new_date: '2026-11-25' });
    expect(outputOf<UpdateDeliveryDateResult>(ahead).delay_days).toBe(0);
    const back = await callApproved('update_delivery_date', { order_id: 'A-1004', new_date: '2026-11-29' });
    expect(outputOf<UpdateDeliveryDateResult>(back).delay_days).toBe(0);
    const late = await callApproved('update_delivery_date', { order_id: 'A-1004', new_date: '2026-12-02' });
    expect(outputOf<UpdateDeliveryDateResult>(late).delay_days).toBe(3);
    expect(await order('A-1004')).toMatchObject({ delivery_date: '2026-12-02', delay_days: 3 });
    // An order never moved: promised on its date less its delay.
    const first = await callApproved('update_delivery_date', { order_id: 'A-1003', new_date: '2026-12-12' });
    expect(outputOf<UpdateDeliveryDateResult>(first).delay_days).toBe(2);
  });

  it('a later date than promised makes an open order delayed; moving it back to the promise restores the status it had', async () => {
    // A-1001: shipped, on time, promised for 2026-11-28.
    const late = await call('update_delivery_date', { order_id: 'A-1001', new_date: '2026-12-24' });
    expect(late.outcome).toMatchObject({
      reason: 'Order A-1001 of Ada Lovelace moves from 2026-11-28 to 2026-12-24: 26 days late, so its status changes from shipped to delayed.',
    });
    const moved = outputOf<UpdateDeliveryDateResult>(await callApproved('update_delivery_date', { order_id: 'A-1001', new_date: '2026-12-24' }));
    expect(moved).toMatchObject({ delay_days: 26, status: 'delayed', previous_status: 'shipped' });
    expect(await order('A-1001')).toMatchObject({ status: 'delayed', delay_days: 26 });
    // Later still: it stays delayed, and still knows it was shipped.
    const later = await callApproved('update_delivery_date', { order_id: 'A-1001', new_date: '2026-12-30' });
    expect(outputOf<UpdateDeliveryDateResult>(later)).toMatchObject({ status: 'delayed', previous_status: 'delayed' });
    // Back to the promised day: on time, and shipped again (not left delayed).
    const back = await call('update_delivery_date', { order_id: 'A-1001', new_date: '2026-11-28' });
    expect(back.outcome).toMatchObject({
      reason: 'Order A-1001 of Ada Lovelace moves from 2026-12-30 to 2026-11-28: on time, so its status goes back from delayed to shipped.',
    });
    const restored = await callApproved('update_delivery_date', { order_id: 'A-1001', new_date: '2026-11-28' });
    expect(outputOf<UpdateDeliveryDateResult>(restored)).toMatchObject({ delay_days: 0, status: 'shipped', previous_status: 'delayed' });
    expect(await order('A-1001')).toMatchObject({ status: 'shipped', delay_days: 0 });
    // Ahead of the promise: still on time, the status stays, and nothing is said of it.
    const ahead = await call('update_delivery_date', { order_id: 'A-1001', new_date: '2026-11-25' });
    expect(ahead.outcome).toMatchObject({ reason: 'Order A-1001 of Ada Lovelace moves from 2026-11-28 to 2026-11-25: on time.' });
    // The audit trail records each change of status with the move that made it.
    const details = (await events()).map((event) => JSON.parse(event.details) as Record<string, unknown>);
    expect(details.map((d) => [d.status_before, d.status_after])).toEqual([
      ['shipped', 'delayed'],
      [undefined, undefined],
      ['delayed', 'shipped'],
    ]);
  });

  it('a pending order made late is pending again once back on time; a delayed order of the seed counts as pending', async () => {
    // A-1003: pending, promised for 2026-12-10.
    await callApproved('update_delivery_date', { order_id: 'A-1003', new_date: '2026-12-12' });
    expect(await order('A-1003')).toMatchObject({ status: 'delayed', delay_days: 2 });
    await callApproved('update_delivery_date', { order_id: 'A-1003', new_date: '2026-12-09' });
    expect(await order('A-1003')).toMatchObject({ status: 'pending', delay_days: 0 });
    // A-1004: seeded delayed, 2 days late, promised for 2026-11-29; no earlier status on record.
    const back = await call('update_delivery_date', { order_id: 'A-1004', new_date: '2026-11-29' });
    expect(back.outcome).toMatchObject({
      reason: 'Order A-1004 of Katherine Johnson moves from 2026-12-01 to 2026-11-29: on time, so its status goes back from delayed to pending.',
    });
    await callApproved('update_delivery_date', { order_id: 'A-1004', new_date: '2026-11-29' });
    expect(await order('A-1004')).toMatchObject({ status: 'pending', delay_days: 0 });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM orders WHERE status <> 'delayed' AND status_before_delay IS NOT NULL").first('n')).toBe(0);
  });

  it('writes the order and the event in ONE batch (no separate statements)', async () => {
    const batch = vi.fn((statements: D1PreparedStatement[]) => env.DB.batch(statements));
    const exec = vi.fn();
    const db = wrapDb({ batch: batch as D1Database['batch'], exec });
    const run = testRun({ deps: { db } });
    const result = await callApproved('update_delivery_date', { order_id: 'A-1010', new_date: '2026-12-06' }, { run });
    expect(result.outcome.type).toBe('success');
    expect(batch).toHaveBeenCalledTimes(1);
    expect(batch.mock.calls[0]?.[0]).toHaveLength(2);
    expect(exec).not.toHaveBeenCalled();
  });

  it('is transactional: when the order update fails, the event written before it in the batch is rolled back', async () => {
    await env.DB.prepare("CREATE TRIGGER orders_frozen BEFORE UPDATE ON orders BEGIN SELECT RAISE(ABORT, 'orders are frozen'); END").run();
    const result = await callApproved('update_delivery_date', { order_id: 'A-1002', new_date: '2026-12-08' });
    expect(describeOutcome(result.outcome)).toBe('execution-failed');
    expect(result.content).toMatch(/orders are frozen/);
    expect(await events()).toEqual([]);
    expect(await order('A-1002')).toMatchObject({ delivery_date: '2026-12-03' });
  });

  it('writes nothing when the order changed between the check and the write (optimistic guard)', async () => {
    const run = testRun();
    const pending = await call('update_delivery_date', { order_id: 'A-1006', new_date: '2026-12-20' }, { id: 'c-race', run });
    expect(pending.outcome.type).toBe('approval-required');
    // Someone else moves the date after the tool has read the order but before its batch runs.
    const db = wrapDb({
      batch: (async (statements: D1PreparedStatement[]) => {
        await env.DB.prepare("UPDATE orders SET delivery_date = '2026-12-15', updated_at = 'other' WHERE id = 'A-1006'").run();
        return env.DB.batch(statements);
      }) as D1Database['batch'],
    });
    const result = await call('update_delivery_date', { order_id: 'A-1006', new_date: '2026-12-20' }, { id: 'c-race', run: testRun({ deps: { db } }), approval: { approved: true } });
    expect(describeOutcome(result.outcome)).toBe('execution-failed');
    expect(result.content).toMatch(/changed while this call ran; nothing was written/);
    expect(await events()).toEqual([]);
    expect(await order('A-1006')).toMatchObject({ delivery_date: '2026-12-15' });
  });

  describe('validation: nothing is written and no approval is asked', () => {
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ['an unknown order', { order_id: 'A-4040', new_date: '2026-12-10' }, 'order_id', /No order "A-4040" exists/],
      ['a date in the past', { order_id: 'A-1002', new_date: '2026-11-19' }, 'new_date', /2026-11-19 is in the past \(today is 2026-11-20 UTC\)/],
      ['the current date', { order_id: 'A-1002', new_date: '2026-12-03' }, 'new_date', /already scheduled for 2026-12-03/],
      ['a delivered order', { order_id: 'A-1005', new_date: '2026-12-10' }, 'order_id', /already delivered/],
    ];
    it.each(cases)('refuses %s', async (_, args, path, message) => {
      const result = await call('update_delivery_date', args);
      expect(describeOutcome(result.outcome)).toBe('invalid-input');
      expect(result.outcome.type === 'error' && result.outcome.error.issues?.[0]?.path).toBe(path);
      expect(result.content).toMatch(message);
      expect(await events()).toEqual([]);
    });

    it.each([['2026-02-30'], ['12/08/2026'], ['2026-12-8'], ['tomorrow']])('refuses the date %s in the schema', async (new_date) => {
      const result = await call('update_delivery_date', { order_id: 'A-1002', new_date });
      expect(describeOutcome(result.outcome)).toBe('invalid-input');
      expect(result.content).toMatch(/- new_date: /);
    });

    it('accepts today', async () => {
      const result = await callApproved('update_delivery_date', { order_id: 'A-1002', new_date: '2026-11-20' });
      expect(outputOf<UpdateDeliveryDateResult>(result)).toMatchObject({ delivery_date: '2026-11-20', delay_days: 0 });
    });

    it('checks again after approval: a rule broken meanwhile still blocks the write', async () => {
      const run = testRun();
      const pending = await call('update_delivery_date', { order_id: 'A-1002', new_date: '2026-12-08' }, { id: 'c-late', run });
      expect(pending.outcome.type).toBe('approval-required');
      await env.DB.prepare("UPDATE orders SET status = 'delivered' WHERE id = 'A-1002'").run();
      const approved = await call('update_delivery_date', { order_id: 'A-1002', new_date: '2026-12-08' }, { id: 'c-late', run, approval: { approved: true } });
      expect(describeOutcome(approved.outcome)).toBe('invalid-input');
      expect(await events()).toEqual([]);
    });
  });

  it('a date with a time or a zone gets the format issue alone (it also read "that day does not exist"); 30 February the calendar one', async () => {
    for (const new_date of ['2027-01-05T00:00:00Z', '2027-01-05 10:00', '5 Jan 2027']) {
      const result = await call('update_delivery_date', { order_id: 'A-1006', new_date, reason: 'test' });
      expect(result.outcome.type === 'error' && result.outcome.error.issues?.map((issue) => issue.message)).toEqual(['Expected a date as YYYY-MM-DD']);
    }
    const impossible = await call('update_delivery_date', { order_id: 'A-1006', new_date: '2027-02-30', reason: 'test' });
    expect(impossible.outcome.type === 'error' && impossible.outcome.error.issues?.map((issue) => issue.message)).toEqual(['That day does not exist in the calendar']);
  });

  it('a denial writes nothing and tells the model', async () => {
    const run = testRun();
    await call('update_delivery_date', { order_id: 'A-1002', new_date: '2026-12-08' }, { id: 'c-deny', run });
    const denied = await call('update_delivery_date', { order_id: 'A-1002', new_date: '2026-12-08' }, { id: 'c-deny', run, approval: { approved: false, reason: 'Ask the carrier first' } });
    expect(describeOutcome(denied.outcome)).toBe('approval-denied');
    expect(denied.content).toMatch(/Ask the carrier first/);
    expect(await events()).toEqual([]);
  });
});
