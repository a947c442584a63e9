import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, describeOutcome, outputOf } from '../../test/support.ts';

interface Listed {
  days_threshold: number;
  count: number;
  orders: { id: string; delay_days: number; status: string }[];
}

describe('list_delayed_orders', () => {
  it('defaults to one day: every open order at least a day late, most delayed first', async () => {
    const result = outputOf<Listed>(await call('list_delayed_orders', {}));
    expect(result.days_threshold).toBe(1);
    expect(result.orders.map((o) => [o.id, o.delay_days])).toEqual([
      ['A-1012', 14],
      ['A-1006', 9],
      ['A-1002', 4],
      ['A-1004', 2],
      ['A-1007', 1],
      ['A-1010', 1],
    ]);
    expect(result.count).toBe(6);
  });

  it('leaves out delivered orders even if they were late (A-1009)', async () => {
    const result = outputOf<Listed>(await call('list_delayed_orders', { days_threshold: 3 }));
    expect(result.orders.map((o) => o.id)).toEqual(['A-1012', 'A-1006', 'A-1002']);
    expect(result.orders.every((o) => o.status !== 'delivered')).toBe(true);
  });

  it('applies the threshold inclusively and can return nothing', async () => {
    expect(outputOf<Listed>(await call('list_delayed_orders', { days_threshold: 14 })).orders.map((o) => o.id)).toEqual(['A-1012']);
    expect(outputOf<Listed>(await call('list_delayed_orders', { days_threshold: 15 }))).toEqual({ days_threshold: 15, count: 0, orders: [] });
  });

  it('lists only the `limit` most delayed, and says how many are that late in all', async () => {
    const result = outputOf<Listed & { total?: number }>(await call('list_delayed_orders', { limit: 3 }));
    expect(result.orders.map((o) => o.id)).toEqual(['A-1012', 'A-1006', 'A-1002']);
    expect([result.count, result.total]).toEqual([3, 6]);
    expect(outputOf(await call('list_delayed_orders', { days_threshold: 9, limit: 5 }))).not.toHaveProperty('total');
    expect(describeOutcome((await call('list_delayed_orders', { limit: 0 })).outcome)).toBe('invalid-input');
  });

  it('takes a quoted number (lenient coercion) but refuses fractions and zero', async () => {
    expect(outputOf<Listed>(await call('list_delayed_orders', { days_threshold: '9' })).count).toBe(2);
    expect(describeOutcome((await call('list_delayed_orders', { days_threshold: 1.5 })).outcome)).toBe('invalid-input');
    expect(describeOutcome((await call('list_delayed_orders', { days_threshold: 0 })).outcome)).toBe('invalid-input');
  });

  it('reads the current data, not a snapshot', async () => {
    await env.DB.prepare("UPDATE orders SET status = 'delivered' WHERE id = 'A-1012'").run();
    expect(outputOf<Listed>(await call('list_delayed_orders', { days_threshold: 9 })).orders.map((o) => o.id)).toEqual(['A-1006']);
  });
});
