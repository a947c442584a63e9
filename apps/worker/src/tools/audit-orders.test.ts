import type { ToolProgressEvent } from '@edgetool/core';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, describeOutcome, outputOf, rows, testExecutor, testRun, wrapDb } from '../../test/support.ts';
import { type AuditOrdersResult, auditOrders } from './audit-orders.ts';

/** Runs `audit_orders` once and keeps every progress report it made. */
async function audit(options: { run?: ReturnType<typeof testRun>; signal?: AbortSignal; onProgress?: (event: ToolProgressEvent) => void } = {}) {
  const events: ToolProgressEvent[] = [];
  const result = await testExecutor().execute(
    { id: 'audit-1', name: 'audit_orders', arguments: {} },
    {
      run: options.run ?? testRun(),
      signal: options.signal,
      onProgress: (event) => {
        events.push(event);
        options.onProgress?.(event);
      },
    },
  );
  return { result, events };
}

const openOrderCount = async (): Promise<number> => (await rows<{ n: number }>("SELECT COUNT(*) AS n FROM orders WHERE status <> 'delivered'"))[0]?.n ?? -1;

describe('audit_orders', () => {
  it('checks every open order of the seed and flags the late and delayed ones, by id', async () => {
    const { result } = await audit();
    const output = outputOf<AuditOrdersResult>(result);
    // Twelve orders, two delivered (A-1005, A-1009): ten open.
    expect(await openOrderCount()).toBe(10);
    expect(output.checked).toBe(10);
    expect(output.flagged).toEqual([
      { id: 'A-1002', customer: 'Grace Hopper', reasons: ['status is delayed', 'running 4 days late'] },
      { id: 'A-1004', customer: 'Katherine Johnson', reasons: ['status is delayed', 'running 2 days late'] },
      { id: 'A-1006', customer: 'Margaret Hamilton', reasons: ['status is delayed', 'running 9 days late'] },
      { id: 'A-1007', customer: 'Tim Berners-Lee', reasons: ['running 1 day late'] },
      { id: 'A-1010', customer: 'Radia Perlman', reasons: ['status is delayed', 'running 1 day late'] },
      { id: 'A-1012', customer: 'Frances Allen', reasons: ['status is delayed', 'running 14 days late'] },
    ]);
  });

  it('reports its progress after each page of three, in order, up to every open order', async () => {
    const { result, events } = await audit();
    expect(describeOutcome(result.outcome)).toBe('success');
    expect(events.map((e) => [e.callId, e.toolName])).toEqual(events.map(() => ['audit-1', 'audit_orders']));
    expect(events.map((e) => e.progress)).toEqual([3, 6, 9, 10].map((n) => ({ message: `Checked ${n} of 10 open orders`, completed: n, total: 10 })));
    const completed = events.map((e) => e.progress.completed as number);
    expect(completed.every((n, i) => i === 0 || n > (completed[i - 1] as number))).toBe(true);
    const last = events.at(-1)?.progress;
    expect(last?.completed).toBe(last?.total);
    expect(last?.total).toBe(await openOrderCount());
  });

  it('flags an open order whose delivery date has passed (the run clock says what today is)', async () => {
    const run = testRun({ deps: { now: () => new Date('2026-11-29T08:00:00.000Z') } });
    const { flagged } = outputOf<AuditOrdersResult>((await audit({ run })).result);
    expect(flagged.find((o) => o.id === 'A-1001')).toEqual({ id: 'A-1001', customer: 'Ada Lovelace', reasons: ['delivery date 2026-11-28 has passed'] });
    expect(flagged.find((o) => o.id === 'A-1007')?.reasons).toEqual(['running 1 day late', 'delivery date 2026-11-26 has passed']);
    // A-1011 (shipped, on time, due 2026-11-30) is not due yet.
    expect(flagged.some((o) => o.id === 'A-1011')).toBe(false);
  });

  it('reads the current data: a delivered order drops out of the count and the walk', async () => {
    await env.DB.prepare("UPDATE orders SET status = 'delivered' WHERE id IN ('A-1012', 'A-1002')").run();
    const { result, events } = await audit();
    const output = outputOf<AuditOrdersResult>(result);
    expect(output.checked).toBe(8);
    expect(output.flagged.map((o) => o.id)).toEqual(['A-1004', 'A-1006', 'A-1007', 'A-1010']);
    expect(events.map((e) => e.progress.completed)).toEqual([3, 6, 8]);
    expect(events.every((e) => e.progress.total === 8)).toBe(true);
  });

  it('with no open order at all: checks nothing, flags nothing, reports nothing', async () => {
    await env.DB.prepare("UPDATE orders SET status = 'delivered'").run();
    const { result, events } = await audit();
    expect(outputOf<AuditOrdersResult>(result)).toEqual({ checked: 0, flagged: [] });
    expect(events).toEqual([]);
  });

  it('stops reading D1 once its call is aborted', async () => {
    const pageQueries: string[] = [];
    const db = wrapDb({
      prepare: (sql: string) => {
        if (sql.includes('LIMIT')) pageQueries.push(sql);
        return env.DB.prepare(sql);
      },
    });
    const controller = new AbortController();
    const { result, events } = await audit({ run: testRun({ deps: { db } }), signal: controller.signal, onProgress: () => controller.abort() });
    expect(describeOutcome(result.outcome)).toBe('aborted');
    // Give the detached walk a chance to go on: it must not.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pageQueries).toHaveLength(1);
    expect(events.map((e) => e.progress.completed)).toEqual([3]);
  });

  it('is a read-only server tool with a timeout, and writes nothing', async () => {
    const before = await rows('SELECT * FROM orders ORDER BY id');
    expect(describeOutcome((await call('audit_orders', {})).outcome)).toBe('success');
    expect(await rows('SELECT * FROM orders ORDER BY id')).toEqual(before);
    expect(auditOrders.policy).toMatchObject({ effects: 'read', needsApproval: false, runsOn: 'server', timeoutMs: 10_000 });
  });
});
