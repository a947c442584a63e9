// Shared by the tests: an executor over the demo registry and a run context on the test D1, with a pinned clock.
import {
  type ApprovalDecision,
  createExecutor,
  createRunContext,
  type ExecutorOptions,
  memoryRateLimiter,
  type RunContext,
  type ToolCallResult,
  type ToolOutcome,
} from '@edgetool/core';
import { env } from 'cloudflare:workers';
import { createDemoRegistry, type DemoDeps } from '../src/tools/index.ts';

/** "Now" in the tool tests: the seed data is written relative to this day. */
export const NOW: Date = new Date('2026-11-20T12:00:00.000Z');

/**
 * A run context whose deps point at the test D1 and the pinned clock, with a rate limiter of its own for send_email
 * (the EMAIL_LIMITER binding keeps counting across tests; src/tools/send-email.test.ts tests the binding itself).
 */
export function testRun(options: { conversationId?: string; deps?: Partial<DemoDeps> } = {}): RunContext<DemoDeps> {
  return createRunContext<DemoDeps>({
    conversationId: options.conversationId ?? 'conv-test',
    deps: { db: env.DB, now: () => NOW, emailLimiter: memoryRateLimiter({ limit: 10, periodMs: 60_000 }), ...options.deps },
  });
}

/** An executor over the demo registry (no ticket signer unless given: approvals are then trusted). */
export function testExecutor(options: Omit<ExecutorOptions, 'registry'> = {}) {
  return createExecutor({ ...options, registry: createDemoRegistry() });
}

let nextId = 0;

/** Runs one call of `name` through the executor. */
export function call(
  name: string,
  args: unknown,
  options: { id?: string; run?: RunContext<DemoDeps>; approval?: ApprovalDecision; executor?: ReturnType<typeof testExecutor> } = {},
): Promise<ToolCallResult> {
  const executor = options.executor ?? testExecutor();
  const id = options.id ?? `call-${++nextId}`;
  return executor.execute({ id, name, arguments: args }, { run: options.run ?? testRun(), ...(options.approval ? { approval: options.approval } : {}) });
}

/** Runs a call that needs approval: first the request (must pause), then the approved call. */
export async function callApproved(name: string, args: unknown, options: { id?: string; run?: RunContext<DemoDeps> } = {}): Promise<ToolCallResult> {
  const id = options.id ?? `call-${++nextId}`;
  const run = options.run ?? testRun();
  const pending = await call(name, args, { id, run });
  if (pending.outcome.type !== 'approval-required') throw new Error(`expected approval-required, got ${describeOutcome(pending.outcome)}`);
  return call(name, args, { id, run, approval: { approved: true } });
}

/** The outcome's type, or its error code. */
export function describeOutcome(outcome: ToolOutcome): string {
  return outcome.type === 'error' ? outcome.error.code : outcome.type;
}

/** The output of a successful call (throws with the model text otherwise). */
export function outputOf<T>(result: ToolCallResult): T {
  if (result.outcome.type !== 'success') throw new Error(`expected success, got ${describeOutcome(result.outcome)}: ${result.content}`);
  return result.outcome.output as T;
}

/** Rows of a table, for assertions. */
export async function rows<T>(sql: string, ...params: unknown[]): Promise<T[]> {
  return (await env.DB.prepare(sql).bind(...params).all<T>()).results;
}

/** The test D1 with some methods replaced (to spy on batches or interleave a concurrent write). */
export function wrapDb(overrides: Partial<Pick<D1Database, 'batch' | 'exec' | 'prepare'>>): D1Database {
  return new Proxy(env.DB, {
    get(target, key) {
      if (Object.hasOwn(overrides, key)) return overrides[key as keyof typeof overrides];
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
