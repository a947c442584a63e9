import { createExecutor, createRunContext } from '@edgetool/core';
import { describe, expect, it } from 'vitest';
import { call, describeOutcome, outputOf } from '../../test/support.ts';
import { type QueryOrderResult, queryOrder } from './query-order.ts';

describe('query_order', () => {
  it('returns a seeded order with parsed items', async () => {
    const result = outputOf<QueryOrderResult>(await call('query_order', { order_id: 'A-1002' }));
    expect(result).toEqual({
      found: true,
      order: {
        id: 'A-1002',
        customer: 'Grace Hopper',
        email: 'grace.hopper@example.com',
        items: [{ sku: 'MN-27', name: '27-inch monitor', qty: 2, unit_price: 249 }],
        status: 'delayed',
        delivery_date: '2026-12-03',
        delay_days: 4,
        updated_at: '2026-11-20T09:00:00.000Z',
      },
    });
  });

  it('accepts the id in lower case and with spaces (JSON arguments as a model sends them)', async () => {
    const result = await call('query_order', '{"order_id": " a-1005 "}');
    expect(outputOf<QueryOrderResult>(result)).toMatchObject({ found: true, order: { id: 'A-1005', status: 'delivered' } });
  });

  it('reports an unknown order as found: false, not as a failure', async () => {
    const result = await call('query_order', { order_id: 'A-9999' });
    expect(result.isError).toBe(false);
    expect(outputOf<QueryOrderResult>(result)).toEqual({ found: false, order_id: 'A-9999', message: expect.stringContaining('No order "A-9999"') });
  });

  it('rejects a malformed id before touching the database, with the path for the model', async () => {
    const result = await call('query_order', { order_id: "A-1001' OR 1=1 --" });
    expect(describeOutcome(result.outcome)).toBe('invalid-input');
    expect(result.content).toContain('- order_id: Order ids look like A-1001');
  });

  it('fails clearly when the run has no database', async () => {
    const result = await createExecutor({ registry: [queryOrder] }).execute(
      { id: 'c', name: 'query_order', arguments: { order_id: 'A-1001' } },
      // @ts-expect-error the executor's type asks for the deps; this checks the run-time error for untyped callers
      { run: createRunContext() },
    );
    expect(result.content).toMatch(/needs run deps with a D1 database/);
  });
});
