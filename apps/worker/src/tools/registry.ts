import { type AnyTool, createRegistry, type RegistryOptions, type ToolRegistry } from '@edgetool/core';
import { auditOrders } from './audit-orders.ts';
import { calculate } from './calculate.ts';
import type { DemoDeps } from './deps.ts';
import { listDelayedOrders } from './list-delayed-orders.ts';
import { orderInvoice } from './order-invoice.ts';
import { ordersChart } from './orders-chart.ts';
import { queryOrder } from './query-order.ts';
import { sendEmail } from './send-email.ts';
import { updateDeliveryDate } from './update-delivery-date.ts';
import { worldClock } from './world-clock.ts';

/** The demo's server tools, in the order the model sees them. Their `ctx.run.deps` must be {@link DemoDeps}. */
export const demoTools = [
  queryOrder,
  listDelayedOrders,
  auditOrders,
  ordersChart,
  orderInvoice,
  updateDeliveryDate,
  sendEmail,
  worldClock,
  calculate,
] as const satisfies readonly AnyTool[];

/**
 * A registry of {@link demoTools}; pass interceptors, `onError` or extra resolvers as for `createRegistry`.
 * Dependencies are per request, not per registry: `createRunContext({ deps: demoDeps(env) })`.
 */
export function createDemoRegistry(options: Omit<RegistryOptions<DemoDeps>, 'tools'> = {}): ToolRegistry<DemoDeps> {
  return createRegistry({ ...options, tools: demoTools });
}

/** The deps the demo tools read, from the Worker's bindings and, with `client`, whose rate limits a request spends. */
export function demoDeps(env: { readonly DB: D1Database; readonly EMAIL_LIMITER?: RateLimit | undefined }, client?: string): DemoDeps {
  return {
    db: env.DB,
    ...(env.EMAIL_LIMITER === undefined ? {} : { emailLimiter: env.EMAIL_LIMITER }),
    ...(client === undefined ? {} : { client }),
  };
}
