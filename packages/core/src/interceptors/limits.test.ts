import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { ToolOutcome } from '../chain/types.ts';
import { createRunContext, forkRunContext } from '../context/run-context.ts';
import { createExecutor } from '../executor/executor.ts';
import { createRegistry } from '../registry/registry.ts';
import { ToolError } from '../errors/tool-error.ts';
import { createTicketSigner } from '../tickets/index.ts';
import { defineTool } from '../tool/define-tool.ts';
import { callLimit, memoryRateLimiter, type RateLimiter, rateLimit, runCallCount } from './limits.ts';

const code = (outcome: ToolOutcome) => (outcome.type === 'error' ? outcome.error.code : outcome.type);
const keys = [{ id: 'k1', secret: 'a-test-secret-that-is-at-least-32-bytes-long' }];

function searchTool(policy: Parameters<typeof defineTool>[0]['policy'] = { maxCallsPerRun: 2 }) {
  let runs = 0;
  const tool = defineTool({
    name: 'search',
    description: 'Search the catalogue',
    input: v.object({ q: v.string() }),
    policy,
    execute: ({ q }) => ({ q, hits: ++runs }),
  });
  return { tool, runs: () => runs };
}

/** A limiter that records the keys it was asked about and allows `budget` calls in all. */
function countingLimiter(budget: number): RateLimiter & { keys: string[] } {
  const keys: string[] = [];
  return {
    keys,
    limit: async ({ key }) => {
      keys.push(key);
      return { success: keys.length <= budget };
    },
  };
}

describe('policy.maxCallsPerRun', () => {
  it('runs the first calls of a run and refuses the rest with a rate-limited error the model can read', async () => {
    const { tool, runs } = searchTool({ maxCallsPerRun: 2 });
    const executor = createExecutor({ registry: [tool] });
    const run = createRunContext();
    const results = [];
    for (let i = 1; i <= 4; i++) results.push(await executor.execute({ id: `c${i}`, name: 'search', arguments: { q: `q${i}` } }, { run }));
    expect(results.map((r) => code(r.outcome))).toEqual(['success', 'success', 'rate-limited', 'rate-limited']);
    expect(runs()).toBe(2);
    expect(results[2]?.isError).toBe(true);
    expect(results[2]?.content).toBe(
      'Error (rate-limited): Tool "search" may run at most 2 times per request, and it already has; this call was not run. Do not call it again now: answer with what you have.',
    );
    expect(runCallCount(run, tool)).toBe(2);
  });

  it('counts per run: a new run (the next request) starts again, and a forked run (a sub-agent) counts on its own', async () => {
    const { tool, runs } = searchTool({ maxCallsPerRun: 1 });
    const executor = createExecutor({ registry: [tool] });
    const first = createRunContext();
    const call = { id: 'c1', name: 'search', arguments: { q: 'a' } };
    expect(code((await executor.execute(call, { run: first })).outcome)).toBe('success');
    expect(code((await executor.execute(call, { run: first })).outcome)).toBe('rate-limited');
    const child = forkRunContext(first, { conversationId: 'sub' });
    expect(code((await executor.execute(call, { run: child })).outcome)).toBe('success');
    expect(code((await executor.execute(call, { run: createRunContext() })).outcome)).toBe('success');
    expect(runs()).toBe(3);
    expect(runCallCount(first, tool)).toBe(1);
  });

  it('is exact for parallel calls of one step: executeAll runs exactly the limit', async () => {
    const { tool, runs } = searchTool({ maxCallsPerRun: 3 });
    const executor = createExecutor({ registry: [tool] });
    const calls = Array.from({ length: 10 }, (_, i) => ({ id: `c${i}`, name: 'search', arguments: { q: String(i) } }));
    const results = await executor.executeAll(calls, { run: createRunContext() });
    expect(results.filter((r) => r.outcome.type === 'success')).toHaveLength(3);
    expect(results.filter((r) => code(r.outcome) === 'rate-limited')).toHaveLength(7);
    expect(runs()).toBe(3);
  });

  it('counts each tool on its own, and invalid arguments spend nothing', async () => {
    const a = searchTool({ maxCallsPerRun: 1 });
    const other = defineTool({ name: 'other', description: 'x', input: v.object({}), policy: { maxCallsPerRun: 1 }, execute: () => 'ok' });
    const executor = createExecutor({ registry: [a.tool, other] });
    const run = createRunContext();
    expect(code((await executor.execute({ id: '1', name: 'search', arguments: { q: 1 } }, { run })).outcome)).toBe('invalid-input');
    expect(code((await executor.execute({ id: '2', name: 'search', arguments: { q: 'x' } }, { run })).outcome)).toBe('success');
    expect(code((await executor.execute({ id: '3', name: 'other', arguments: {} }, { run })).outcome)).toBe('success');
    expect(code((await executor.execute({ id: '4', name: 'other', arguments: {} }, { run })).outcome)).toBe('rate-limited');
  });

  it('a call its check refuses spends a unit (a model looping on refusals is stopped); one refused before its chain spends none', async () => {
    let runs = 0;
    const tool = defineTool({
      name: 'search',
      description: 'Search the catalogue',
      input: v.object({ q: v.string() }),
      policy: {
        maxCallsPerRun: 2,
        check: ({ q }) => {
          if (q === 'bad') throw new ToolError('invalid-input', 'No such catalogue.');
        },
      },
      execute: () => ++runs,
    });
    const executor = createExecutor({ registry: [tool] });
    const run = createRunContext();
    const call = (id: string, args: unknown, signal?: AbortSignal) => executor.execute({ id, name: 'search', arguments: args }, { run, signal });
    expect(code((await call('1', { q: 'bad' })).outcome)).toBe('invalid-input');
    expect(runCallCount(run, tool)).toBe(1);
    // Refused before the chain: arguments that are not JSON or not valid, an abort before it starts. Nothing is counted.
    expect(code((await call('2', '{"q":')).outcome)).toBe('invalid-json');
    expect(code((await call('3', { q: 1 })).outcome)).toBe('invalid-input');
    expect(code((await call('4', { q: 'ok' }, AbortSignal.abort())).outcome)).toBe('aborted');
    expect(runCallCount(run, tool)).toBe(1);
    // A check failure the caller already met (the chat loop's timed-out check) counts as the check's own would.
    const failedCheck = new ToolError('timeout', 'Its check did not finish in time.');
    expect(code((await executor.execute({ id: '5', name: 'search', arguments: { q: 'ok' } }, { run, failedCheck })).outcome)).toBe('timeout');
    expect(runCallCount(run, tool)).toBe(2);
    // The limit comes before the check: over it, a call is refused as rate-limited, and the check is not asked again.
    expect(code((await call('6', { q: 'ok' })).outcome)).toBe('rate-limited');
    expect(runs).toBe(0);
  });

  it('a call waiting for approval spends nothing; an approved call does, and a refused one is never run', async () => {
    let writes = 0;
    const tool = defineTool({
      name: 'send_email',
      description: 'Send an email',
      input: v.object({ to: v.string() }),
      policy: { effects: 'write', maxCallsPerRun: 1 },
      execute: () => ++writes,
    });
    const tickets = createTicketSigner({ keys });
    const executor = createExecutor({ registry: [tool], tickets });
    const run = createRunContext({ conversationId: 'conv-1' });
    const ask = async (id: string) => {
      const pending = await executor.execute({ id, name: 'send_email', arguments: { to: 'a@b.c' } }, { run });
      expect(pending.outcome.type).toBe('approval-required');
      return pending.outcome.type === 'approval-required' ? pending.outcome.ticket : undefined;
    };
    const t1 = await ask('c1');
    const t2 = await ask('c2');
    expect(runCallCount(run, tool)).toBe(0);
    const approved = (id: string, ticket: string | undefined) =>
      executor.execute({ id, name: 'send_email', arguments: { to: 'a@b.c' } }, { run, approval: { approved: true, ticket } });
    expect(code((await approved('c1', t1)).outcome)).toBe('success');
    expect(code((await approved('c2', t2)).outcome)).toBe('rate-limited');
    expect(writes).toBe(1);
    // Over the limit, a new call is refused before the approval layer: no human is asked, no ticket is issued.
    const third = await executor.execute({ id: 'c3', name: 'send_email', arguments: { to: 'a@b.c' } }, { run });
    expect(code(third.outcome)).toBe('rate-limited');
  });

  it('a client tool’s pending call on the server gives its unit back', async () => {
    const pick = defineTool({ name: 'pick_color', description: 'Ask the browser', input: v.object({}), policy: { runsOn: 'client', maxCallsPerRun: 1 } });
    const executor = createExecutor({ registry: [pick] });
    const run = createRunContext();
    for (const id of ['p1', 'p2']) expect(code((await executor.execute({ id, name: 'pick_color', arguments: {} }, { run })).outcome)).toBe('client-pending');
    expect(runCallCount(run, pick)).toBe(0);
  });

  it('retries of one call spend one unit', async () => {
    let attempts = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: 'Fails twice',
      input: v.object({}),
      policy: { retries: 2, maxCallsPerRun: 1 },
      execute: () => {
        if (++attempts < 3) throw new Error('transient');
        return 'ok';
      },
    });
    const executor = createExecutor({ registry: [flaky] });
    const run = createRunContext();
    expect(code((await executor.execute({ id: '1', name: 'flaky', arguments: {} }, { run })).outcome)).toBe('success');
    expect(attempts).toBe(3);
    expect(code((await executor.execute({ id: '2', name: 'flaky', arguments: {} }, { run })).outcome)).toBe('rate-limited');
  });

  it('a callLimit() of your own counts apart from maxCallsPerRun and from other callLimit()s (each call was counted by all of them)', async () => {
    const { tool, runs } = searchTool({ maxCallsPerRun: 2 });
    const executor = createExecutor({ registry: [tool], interceptors: [callLimit(5), callLimit(4)] });
    const run = createRunContext();
    const outcomes = [];
    for (let i = 1; i <= 3; i++) outcomes.push(code((await executor.execute({ id: `c${i}`, name: 'search', arguments: { q: 'x' } }, { run })).outcome));
    expect(outcomes).toEqual(['success', 'success', 'rate-limited']);
    expect(runs()).toBe(2);
    // What the chat loop reads before it asks a human: the policy's count alone.
    expect(runCallCount(run, tool)).toBe(2);
    // The global limit counts on its own: with maxCallsPerRun out of the way, it lets exactly its 4 calls through.
    const { tool: open, runs: openRuns } = searchTool({});
    const limited = createExecutor({ registry: [open], interceptors: [callLimit(4)] });
    const run2 = createRunContext();
    for (let i = 1; i <= 5; i++) await limited.execute({ id: `d${i}`, name: 'search', arguments: { q: 'x' } }, { run: run2 });
    expect(openRuns()).toBe(4);
    expect(runCallCount(run2, open)).toBe(0);
  });

  it('counts a tool its resolver builds anew for each lookup (tools from a database): by name, not by object', async () => {
    let runs = 0;
    const build = () =>
      defineTool({ name: 'lookup', description: 'x', input: v.object({}), policy: { maxCallsPerRun: 1 }, execute: () => ++runs });
    const fresh = { kind: 'edgetool.resolver' as const, names: () => ['lookup'], resolve: async (name: string) => (name === 'lookup' ? build() : undefined) };
    const executor = createExecutor({ registry: createRegistry({ resolvers: [fresh] }) });
    const run = createRunContext();
    const outcomes = [];
    for (const id of ['1', '2', '3']) outcomes.push(code((await executor.execute({ id, name: 'lookup', arguments: {} }, { run })).outcome));
    expect(outcomes).toEqual(['success', 'rate-limited', 'rate-limited']);
    expect(runs).toBe(1);
    expect(runCallCount(run, build())).toBe(1);
  });

  it('rejects a limit that is not a positive integer when the tool is defined', () => {
    for (const maxCallsPerRun of [0, -1, 1.5, Number.NaN]) {
      expect(() => searchTool({ maxCallsPerRun })).toThrow(/maxCallsPerRun must be a positive integer/);
    }
    expect(() => callLimit(0)).toThrow(TypeError);
  });
});

describe('policy.rateLimit and rateLimit()', () => {
  it('spends one unit per call under the user’s key and refuses the call when the limiter says no', async () => {
    const limiter = countingLimiter(2);
    const { tool, runs } = searchTool({ rateLimit: { limiter } });
    const executor = createExecutor({ registry: [tool] });
    const outcomes = [];
    for (const userId of ['ann', 'bob', 'ann']) {
      outcomes.push(code((await executor.execute({ id: userId, name: 'search', arguments: { q: 'x' } }, { run: createRunContext({ userId }) })).outcome));
    }
    expect(outcomes).toEqual(['success', 'success', 'rate-limited']);
    expect(limiter.keys).toEqual(['search:ann', 'search:bob', 'search:ann']);
    expect(runs()).toBe(2);
    const refused = await executor.execute({ id: 'x', name: 'search', arguments: { q: 'x' } });
    expect(refused.content).toMatch(/^Error \(rate-limited\): Tool "search" is rate limited: too many calls right now/);
    expect(limiter.keys.at(-1)).toBe('search:(anonymous)');
  });

  it('finds a per-request limiter through the run’s deps and uses the key function', async () => {
    const limiter = countingLimiter(1);
    const tool = defineTool({
      name: 'charge',
      description: 'Charge a card',
      input: v.object({ account: v.string() }),
      policy: {
        effects: 'write',
        needsApproval: false,
        rateLimit: { limiter: (ctx) => (ctx.run.deps as { limiter?: RateLimiter }).limiter, key: (ctx) => `acct:${(ctx.input as { account: string }).account}` },
      },
      execute: ({ account }) => `charged ${account}`,
    });
    const executor = createExecutor({ registry: [tool] });
    const run = createRunContext({ deps: { limiter } });
    expect(code((await executor.execute({ id: '1', name: 'charge', arguments: { account: 'A' } }, { run })).outcome)).toBe('success');
    expect(limiter.keys).toEqual(['acct:A']);
    // No limiter in this request's deps: refused, never run unlimited.
    const missing = await executor.execute({ id: '2', name: 'charge', arguments: { account: 'A' } }, { run: createRunContext({ deps: {} }) });
    expect(code(missing.outcome)).toBe('rate-limited');
    expect(missing.content).toMatch(/no rate limiter is configured here/);
  });

  it('fails closed when the limiter throws or rejects, and keeps the cause', async () => {
    for (const broken of [
      {
        limit: () => {
          throw new Error('binding down');
        },
      },
      { limit: () => Promise.reject(new Error('binding down')) },
    ]) {
      const { tool, runs } = searchTool({ rateLimit: { limiter: broken } });
      const result = await createExecutor({ registry: [tool] }).execute({ id: '1', name: 'search', arguments: { q: 'x' } });
      expect(code(result.outcome)).toBe('rate-limited');
      expect(result.outcome.type === 'error' && (result.outcome.error.cause as Error).message).toBe('binding down');
      expect(runs()).toBe(0);
    }
  });

  it('as an interceptor of your own it runs where you put it: a global limit over every tool', async () => {
    const limiter = memoryRateLimiter({ limit: 1, periodMs: 60_000 });
    const a = searchTool({});
    const b = defineTool({ name: 'b', description: 'b', input: v.object({}), execute: () => 'b' });
    const executor = createExecutor({ registry: [a.tool, b], interceptors: [rateLimit({ limiter, key: (ctx) => ctx.run.userId ?? '?' })] });
    const run = createRunContext({ userId: 'ann' });
    expect(code((await executor.execute({ id: '1', name: 'search', arguments: { q: 'x' } }, { run })).outcome)).toBe('success');
    expect(code((await executor.execute({ id: '2', name: 'b', arguments: {} }, { run })).outcome)).toBe('rate-limited');
  });

  it('a limiter of the wrong shape is a TypeError when the tool or interceptor is made', () => {
    expect(() => searchTool({ rateLimit: { limiter: {} as RateLimiter } })).toThrow(/rateLimit.limiter must have a limit/);
    expect(() => rateLimit({ limiter: null as unknown as RateLimiter })).toThrow(TypeError);
  });
});

describe('memoryRateLimiter', () => {
  it('allows `limit` calls per key in each window, the window starting at the key’s first call', () => {
    let now = 1_000;
    const limiter = memoryRateLimiter({ limit: 2, periodMs: 100, now: () => now });
    const hit = (key: string) => (limiter.limit({ key }) as { success: boolean }).success;
    expect([hit('a'), hit('a'), hit('a'), hit('b')]).toEqual([true, true, false, true]);
    now += 99;
    expect(hit('a')).toBe(false);
    now += 1;
    expect([hit('a'), hit('a'), hit('a')]).toEqual([true, true, false]);
  });

  it('keeps at most maxKeys keys: expired ones go first, then the oldest', () => {
    let now = 0;
    const limiter = memoryRateLimiter({ limit: 1, periodMs: 100, maxKeys: 2, now: () => now });
    const hit = (key: string) => (limiter.limit({ key }) as { success: boolean }).success;
    expect(hit('a')).toBe(true);
    now = 10;
    expect(hit('b')).toBe(true);
    now = 20;
    // Full: 'a' (the oldest) is dropped to make room for 'c'; 'b' is kept, and its budget stays spent.
    expect(hit('c')).toBe(true);
    expect(hit('b')).toBe(false);
    now = 200;
    expect([hit('d'), hit('e'), hit('d')]).toEqual([true, true, false]);
  });

  it('rejects bad options', () => {
    expect(() => memoryRateLimiter({ limit: 0, periodMs: 1 })).toThrow(TypeError);
    expect(() => memoryRateLimiter({ limit: 1, periodMs: 0 })).toThrow(TypeError);
    expect(() => memoryRateLimiter({ limit: 1, periodMs: 1, maxKeys: 0 })).toThrow(TypeError);
  });
});

describe('policy.check', () => {
  function moveTool() {
    const orders = new Map([['A-1', { delivered: false }], ['A-2', { delivered: true }]]);
    let writes = 0;
    const tool = defineTool({
      name: 'move',
      description: 'Move a delivery',
      input: v.object({ order_id: v.string() }),
      policy: {
        effects: 'write',
        check: ({ order_id }) => {
          const order = orders.get(order_id);
          if (order === undefined) throw new ToolError('invalid-input', `No order ${order_id}.`, { issues: [{ path: 'order_id', message: 'no such order' }] });
          if (order.delivered) throw new Error(`Order ${order_id} was delivered.`);
        },
      },
      execute: () => ++writes,
    });
    return { tool, writes: () => writes };
  }

  it('refuses a call that cannot succeed before any approval is asked, with the check’s error', async () => {
    const { tool, writes } = moveTool();
    const tickets = createTicketSigner({ keys });
    const executor = createExecutor({ registry: [tool], tickets });
    const run = createRunContext({ conversationId: 'c' });
    const missing = await executor.execute({ id: '1', name: 'move', arguments: { order_id: 'A-9' } }, { run });
    expect(missing.outcome).toMatchObject({ type: 'error', error: { code: 'invalid-input', issues: [{ path: 'order_id' }] } });
    expect(missing.content).toBe('Error (invalid-input): No order A-9.\n- order_id: no such order\nFix these arguments and call the tool again.');
    const delivered = await executor.execute({ id: '2', name: 'move', arguments: { order_id: 'A-2' } }, { run });
    expect(delivered.content).toBe('Error (execution-failed): Order A-2 was delivered.');
    // A call that passes its check asks for the approval; approved, it runs (the check runs again first).
    const asked = await executor.execute({ id: '3', name: 'move', arguments: { order_id: 'A-1' } }, { run });
    expect(asked.outcome.type).toBe('approval-required');
    const ticket = asked.outcome.type === 'approval-required' ? asked.outcome.ticket : undefined;
    expect(code((await executor.execute({ id: '3', name: 'move', arguments: { order_id: 'A-1' } }, { run, approval: { approved: true, ticket } })).outcome)).toBe('success');
    expect(writes()).toBe(1);
  });

  it('must be a function', () => {
    expect(() => defineTool({ name: 'x', description: '', input: v.object({}), policy: { check: 'yes' as never } })).toThrow(/check must be a function/);
  });
});
