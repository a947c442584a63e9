import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ToolOutcome } from '../chain/types.ts';
import { defineInterceptor } from '../chain/interceptor.ts';
import { createRunContext } from '../context/run-context.ts';
import { ToolError } from '../errors/tool-error.ts';
import { createExecutor } from '../executor/executor.ts';
import { createTicketSigner } from '../tickets/index.ts';
import { defineTool } from '../tool/define-tool.ts';
import type { ToolPolicyInput } from '../tool/types.ts';
import { timeout } from './timeout.ts';

const code = (outcome: ToolOutcome) => (outcome.type === 'error' ? outcome.error.code : outcome.type);
const keys = [{ id: 'k1', secret: 'a-test-secret-that-is-at-least-32-bytes-long' }];
const never = () => new Promise<never>(() => {});

/** A write whose policy functions are the test's; `ran` counts the calls that reached `execute`. */
function writeTool(policy: ToolPolicyInput<{ to: string }>) {
  const ran: string[] = [];
  const tool = defineTool({
    name: 'send',
    description: 'Sends a note',
    input: v.object({ to: v.string() }),
    policy: { effects: 'write', ...policy },
    execute: ({ to }) => {
      ran.push(to);
      return 'sent';
    },
  });
  return { tool, ran };
}

const call = { id: 'c1', name: 'send', arguments: { to: 'bob' } };

describe('the tool functions that run before it are bounded by timeoutMs', () => {
  it('a check that never settles ends the call as a timeout the model reads; nothing runs and no human is asked', async () => {
    const { tool, ran } = writeTool({ timeoutMs: 20, check: never });
    const result = await createExecutor({ registry: [tool] }).execute(call);
    expect(code(result.outcome)).toBe('timeout');
    expect(result.content).toBe('Error (timeout): Tool "send" was not run: its check did not finish within 20 ms.');
    expect(ran).toEqual([]);
  });

  it('so do a needsApproval function and an approvalReason that never settle', async () => {
    const rule = writeTool({ timeoutMs: 20, needsApproval: never });
    const ruled = await createExecutor({ registry: [rule.tool] }).execute(call);
    expect(ruled.content).toBe('Error (timeout): Tool "send" was not run: its approval rule did not finish within 20 ms.');
    const reason = writeTool({ timeoutMs: 20, approvalReason: never });
    const reasoned = await createExecutor({ registry: [reason.tool], tickets: createTicketSigner({ keys }) }).execute(call, { run: createRunContext({ conversationId: 'c' }) });
    expect(code(reasoned.outcome)).toBe('timeout');
    expect(reasoned.content).toBe('Error (timeout): Tool "send" was not run: its approval reason did not finish within 20 ms.');
    expect([...rule.ran, ...reason.ran]).toEqual([]);
  });

  it('an approved call runs its check again, bounded the same way', async () => {
    let checks = 0;
    let release: () => void = () => {};
    const { tool, ran } = writeTool({
      timeoutMs: 50,
      // Settles at once when asked, hangs when approved.
      check: () => {
        checks += 1;
        return checks === 1 ? undefined : new Promise<void>((resolve) => (release = resolve));
      },
    });
    const tickets = createTicketSigner({ keys });
    const executor = createExecutor({ registry: [tool], tickets });
    const run = createRunContext({ conversationId: 'c' });
    const asked = await executor.execute(call, { run });
    const ticket = asked.outcome.type === 'approval-required' ? asked.outcome.ticket : undefined;
    const approved = await executor.execute(call, { run, approval: { approved: true, ticket } });
    expect(code(approved.outcome)).toBe('timeout');
    expect(approved.content).toMatch(/its check did not finish/);
    release();
    expect(ran).toEqual([]);
  });

  it('without timeoutMs the caller’s abort ends a hung check, and a hung approvalReason, as aborted', async () => {
    for (const policy of [{ check: never }, { approvalReason: never }] as const) {
      const { tool, ran } = writeTool(policy);
      const controller = new AbortController();
      const running = createExecutor({ registry: [tool] }).execute(call, { signal: controller.signal });
      controller.abort();
      const result = await running;
      expect(code(result.outcome)).toBe('aborted');
      expect(ran).toEqual([]);
    }
  });

  it('a check that rejects after its call timed out is handled (no unhandled rejection), and reaches nobody', async () => {
    let fail: (error: Error) => void = () => {};
    const { tool } = writeTool({ timeoutMs: 20, check: () => new Promise<void>((_, reject) => (fail = reject)) });
    const result = await createExecutor({ registry: [tool] }).execute(call);
    expect(code(result.outcome)).toBe('timeout');
    // The test runner fails the run on an unhandled rejection: give it the turn of the event loop it needs to see one.
    fail(new Error('late'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(result.content).not.toMatch(/late/);
  });

  it('a check that settles in time is not touched: its own error, or the call goes on', async () => {
    const failing = writeTool({
      timeoutMs: 1_000,
      check: async () => {
        throw new Error('no such recipient');
      },
    });
    const refused = await createExecutor({ registry: [failing.tool] }).execute(call);
    expect(refused.content).toMatch(/no such recipient/);
    const passing = writeTool({ timeoutMs: 1_000, needsApproval: false, check: async () => {} });
    expect((await createExecutor({ registry: [passing.tool] }).execute(call)).content).toBe('sent');
  });
});

describe('ExecuteOptions.failedCheck: a failure the caller already met running the tool’s functions', () => {
  const timedOut = (what: string) => new ToolError('timeout', `Tool "send" was not run: its ${what} did not finish within 20 ms.`, { toolName: 'send', callId: 'c1' });

  it('ends the call with it where they would run, without running them again', async () => {
    let runs = 0;
    const hung = () => {
      runs += 1;
      return never();
    };
    for (const [policy, what] of [
      [{ check: hung }, 'check'],
      [{ needsApproval: hung }, 'approval rule'],
      [{ approvalReason: hung }, 'approval reason'],
    ] as const) {
      const { tool, ran } = writeTool({ timeoutMs: 20, ...policy });
      const error = timedOut(what);
      const result = await createExecutor({ registry: [tool], spans: true }).execute(call, { failedCheck: error });
      expect(result.outcome).toEqual({ type: 'error', error });
      expect(result.content).toBe(`Error (timeout): Tool "send" was not run: its ${what} did not finish within 20 ms.`);
      // The layer that ends it keeps its name in the trace: the check's, or the approval's.
      expect(result.spans.find((span) => span.outcome === 'error')).toMatchObject({ name: what === 'check' ? 'check' : 'approval', errorCode: 'timeout' });
      expect(ran).toEqual([]);
    }
    expect(runs).toBe(0);
  });

  it('the layers before it run as usual: the call limit counts the call', async () => {
    const { tool } = writeTool({ timeoutMs: 20, maxCallsPerRun: 1, check: never });
    const executor = createExecutor({ registry: [tool] });
    const run = createRunContext();
    expect(code((await executor.execute(call, { run, failedCheck: timedOut('check') })).outcome)).toBe('timeout');
    expect(code((await executor.execute({ ...call, id: 'c2' }, { run })).outcome)).toBe('rate-limited');
  });
});

describe('timeoutMs after the caller aborts', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('leaves no timer behind: a tool that ignores its signal no longer holds the time limit’s timer (and a Node process) alive', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let seen: AbortSignal | undefined;
    const hang = defineTool({
      name: 'hang',
      description: '',
      input: v.object({}),
      policy: { timeoutMs: 600_000 },
      execute: (_input, ctx) => {
        seen = ctx.signal;
        return never();
      },
    });
    const controller = new AbortController();
    const running = createExecutor({ registry: [hang] }).execute({ id: 'h', name: 'hang', arguments: {} }, { signal: controller.signal });
    await vi.advanceTimersByTimeAsync(5);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();
    expect(code((await running).outcome)).toBe('aborted');
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(seen?.aborted).toBe(true);
  });
});

describe('what a time limit costs a call that ends in time', () => {
  /** The error's stack, taken whole: made while the call started, it names the function that started the call. */
  async function timeoutStack(policy: ToolPolicyInput<{ to: string }>, execute: () => Promise<string>): Promise<string> {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = Number.POSITIVE_INFINITY;
    try {
      const tool = defineTool({ name: 'send', description: '', input: v.object({ to: v.string() }), policy: { needsApproval: false, ...policy }, execute });
      const executor = createExecutor({ registry: [tool] });
      const startsTheCall = () => executor.execute(call);
      const result = await startsTheCall();
      expect(code(result.outcome)).toBe('timeout');
      return (result.outcome.type === 'error' && result.outcome.error.stack) || '';
    } finally {
      Error.stackTraceLimit = limit;
    }
  }

  it("timeoutMs's error is made when the time runs out, not for every call (an Error captures a stack: ~6 µs per call in Node)", async () => {
    const stack = await timeoutStack({ timeoutMs: 5 }, never);
    expect(stack).toMatch(/did not finish within 5 ms/);
    expect(stack).not.toMatch(/startsTheCall/);
  });

  it('so is the error of a check that does not finish within it', async () => {
    const stack = await timeoutStack({ timeoutMs: 5, check: never }, async () => 'sent');
    expect(stack).toMatch(/its check did not finish within 5 ms/);
    expect(stack).not.toMatch(/startsTheCall/);
  });

  it("no AbortSignal.any per call: the caller's signal has a listener while the call runs, none after it; the tool's signal still follows it", async () => {
    const any = vi.spyOn(AbortSignal, 'any');
    try {
      const seen: AbortSignal[] = [];
      const releases: ((value: string) => void)[] = [];
      const tool = defineTool({
        name: 'read',
        description: '',
        input: v.object({}),
        policy: { timeoutMs: 60_000 },
        execute: (_input, ctx) => {
          seen.push(ctx.signal);
          return new Promise<string>((resolve) => releases.push(resolve));
        },
      });
      const executor = createExecutor({ registry: [tool] });
      const caller = new AbortController();
      const added = vi.spyOn(caller.signal, 'addEventListener');
      const removed = vi.spyOn(caller.signal, 'removeEventListener');
      const first = executor.execute({ id: '1', name: 'read', arguments: {} }, { signal: caller.signal });
      expect(added).toHaveBeenCalled();
      releases[0]?.('done');
      expect((await first).content).toBe('done');
      expect(removed.mock.calls.map((args) => args[1])).toEqual(added.mock.calls.map((args) => args[1]));
      expect(seen[0]?.aborted).toBe(false);

      const second = executor.execute({ id: '2', name: 'read', arguments: {} }, { signal: caller.signal });
      caller.abort(new Error('the user left'));
      expect(code((await second).outcome)).toBe('aborted');
      expect(seen[1]?.aborted).toBe(true);
      expect(seen[1]?.reason).toEqual(new Error('the user left'));

      const third = executor.execute({ id: '3', name: 'read', arguments: {} });
      releases[2]?.('no signal');
      expect((await third).content).toBe('no signal');
      expect(any).not.toHaveBeenCalled();
    } finally {
      any.mockRestore();
    }
  });

  it('the timeout layer is no async function and races nothing: a call that ends in time, one that times out and one the caller aborts make no Promise.race', async () => {
    expect(Object.getPrototypeOf(timeout(10).intercept)).toBe(Function.prototype);
    const race = vi.spyOn(Promise, 'race');
    try {
      const tool = (execute: () => Promise<string>) => defineTool({ name: 'read', description: '', input: v.object({}), policy: { timeoutMs: 20 }, execute });
      const call = { id: '1', name: 'read', arguments: {} };
      expect((await createExecutor({ registry: [tool(async () => 'done')] }).execute(call)).content).toBe('done');
      expect(code((await createExecutor({ registry: [tool(never)] }).execute(call)).outcome)).toBe('timeout');
      const caller = new AbortController();
      const running = createExecutor({ registry: [tool(never)] }).execute(call, { signal: caller.signal });
      caller.abort();
      expect(code((await running).outcome)).toBe('aborted');
      expect(race).not.toHaveBeenCalled();
    } finally {
      race.mockRestore();
    }
  });
});

describe('the timeout layer against every way a call can end (review33)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("one caller's signal across many calls keeps no listener and no timer, whether the tool ends in time, throws, rejects, times out or races the limit", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const caller = new AbortController();
    let listening = 0;
    const add = caller.signal.addEventListener.bind(caller.signal);
    const remove = caller.signal.removeEventListener.bind(caller.signal);
    caller.signal.addEventListener = (...args: Parameters<typeof add>) => {
      listening += 1;
      add(...args);
    };
    caller.signal.removeEventListener = (...args: Parameters<typeof remove>) => {
      listening -= 1;
      remove(...args);
    };
    const resolveAfter = (ms: number, value: string) => new Promise<string>((resolve) => setTimeout(() => resolve(value), ms));
    const ways: Record<string, () => Promise<string> | string> = {
      inTime: async () => 'done',
      throws: () => {
        throw new Error('thrown at once');
      },
      rejects: async () => Promise.reject(new Error('rejected')),
      hangs: never,
      // The tool's timer is set after the layer's: at the same delay the limit comes first, a moment earlier the result.
      atTheLimit: () => resolveAfter(20, 'late'),
      justBefore: () => resolveAfter(19, 'just in time'),
    };
    const tools = Object.entries(ways).map(([name, execute]) => defineTool({ name, description: '', input: v.object({}), policy: { timeoutMs: 20 }, execute }));
    // A layer inside the limit that throws before any tool runs, as a hand-written interceptor may.
    const broken = defineTool({
      name: 'broken',
      description: '',
      input: v.object({}),
      policy: { timeoutMs: 20 },
      interceptors: [
        timeout(20),
        defineInterceptor('throws', () => {
          throw new Error('no chain');
        }),
      ],
      execute: async () => 'never',
    });
    const executor = createExecutor({ registry: [...tools, broken] });
    const expected = { inTime: 'success', throws: 'execution-failed', rejects: 'execution-failed', hangs: 'timeout', atTheLimit: 'timeout', justBefore: 'success' };
    for (let round = 0; round < 50; round++) {
      const results = [...Object.keys(ways), 'broken'].map((name, i) => executor.execute({ id: `${round}-${i}`, name, arguments: {} }, { signal: caller.signal }));
      await vi.advanceTimersByTimeAsync(25);
      const outcomes = (await Promise.all(results)).map((result) => code(result.outcome));
      expect(outcomes.slice(0, -1)).toEqual(Object.values(expected));
      expect(outcomes.at(-1)).toBe('execution-failed');
      expect(listening).toBe(0);
      expect(vi.getTimerCount()).toBe(0);
    }
    // Aborted before the call, and after a call settled: nothing is left either, and the settled result stands.
    const settled = await executor.execute({ id: 'a', name: 'inTime', arguments: {} }, { signal: caller.signal });
    caller.abort();
    expect(settled.content).toBe('done');
    expect(code((await executor.execute({ id: 'b', name: 'hangs', arguments: {} }, { signal: caller.signal })).outcome)).toBe('aborted');
    expect(listening).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('called with a next() of its own: one that throws at once or rejects ends the call so, and leaves no listener or timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const caller = new AbortController();
    const listeners = new Set<unknown>();
    const add = caller.signal.addEventListener.bind(caller.signal);
    const remove = caller.signal.removeEventListener.bind(caller.signal);
    caller.signal.addEventListener = (...args: Parameters<typeof add>) => {
      listeners.add(args[1]);
      add(...args);
    };
    caller.signal.removeEventListener = (...args: Parameters<typeof remove>) => {
      listeners.delete(args[1]);
      remove(...args);
    };
    const vars = new Map<unknown, unknown>();
    const ctx = { signal: caller.signal, tool: { name: 'read' }, call: { id: 'c' }, get: (k: unknown) => vars.get(k), set: (k: unknown, value: unknown) => vars.set(k, value) };
    const layer = timeout(20).intercept as (ctx: never, next: () => Promise<ToolOutcome>) => Promise<ToolOutcome>;
    const thrown = layer(ctx as never, () => {
      throw new Error('at once');
    });
    await expect(thrown).rejects.toThrow('at once');
    await expect(layer(ctx as never, () => Promise.reject(new Error('later')))).rejects.toThrow('later');
    // The caller aborts while next() runs: the call ends as aborted at once.
    const aborting = new AbortController();
    const abortedCtx = { ...ctx, signal: aborting.signal };
    const aborted = layer(abortedCtx as never, () => {
      aborting.abort();
      return never();
    });
    expect(code(await aborted)).toBe('aborted');
    expect(listeners.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
