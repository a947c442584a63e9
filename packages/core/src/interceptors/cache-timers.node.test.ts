import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRunContext } from '../context/run-context.ts';
import { createExecutor } from '../executor/executor.ts';
import { defineTool } from '../tool/define-tool.ts';
import { type CacheStore, cache } from './cache.ts';
import { backgroundTimer } from './timer-delay.ts';

// The cache's bookkeeping timers must not hold a Node process open: a script whose given-up write never ends, or
// whose store's save never settles, would otherwise wait up to a minute (or `ttlMs`) before it exits.

/** The timers `setTimeout` made while `run` ran, with their delays. */
async function timersOf(run: () => Promise<void>): Promise<{ readonly ms: number | undefined; readonly timer: NodeJS.Timeout }[]> {
  const made: { ms: number | undefined; timer: NodeJS.Timeout }[] = [];
  const real = globalThis.setTimeout;
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
    const timer = real(fn, ms);
    made.push({ ms, timer });
    return timer;
  }) as typeof setTimeout);
  await run();
  return made;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('cache() timers on Node', () => {
  it('backgroundTimer unrefs its timer, and still runs it', async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      timer = backgroundTimer(resolve, 1);
      expect(timer.hasRef()).toBe(false);
    });
    expect(timer).toBeDefined();
  });

  it("a given-up write's hold does not keep the process alive", async () => {
    const hang = defineTool({
      name: 'hang',
      description: 'A write that never ends',
      input: v.object({}),
      policy: { effects: 'write', needsApproval: false, timeoutMs: 5 },
      execute: () => new Promise<never>(() => {}),
    });
    const executor = createExecutor({ registry: [hang], interceptors: [cache({ ttlMs: 1000, abandonedWriteMs: 123_456 })] });
    const made = await timersOf(async () => {
      const result = await executor.execute({ id: 'w1', name: 'hang', arguments: {} }, { run: createRunContext({ userId: 'u' }) });
      expect(result.outcome.type).toBe('error');
    });
    const hold = made.filter((t) => t.ms === 123_456);
    expect(hold).toHaveLength(1);
    expect(hold[0]?.timer.hasRef()).toBe(false);
  });

  it("a save that never settles is bounded by a timer that does not keep the process alive", async () => {
    const store: CacheStore = { get: () => undefined, set: () => new Promise<void>(() => {}), clear: () => {} };
    const read = defineTool({
      name: 'read',
      description: 'A read',
      input: v.object({}),
      policy: { effects: 'read' },
      execute: () => ({ ok: true }),
    });
    const executor = createExecutor({ registry: [read], interceptors: [cache({ ttlMs: 98_765, store })] });
    const made = await timersOf(async () => {
      const result = await executor.execute({ id: 'r1', name: 'read', arguments: {} }, { run: createRunContext({ userId: 'u' }) });
      expect(result.outcome.type).toBe('success');
    });
    const bound = made.filter((t) => t.ms === 98_765);
    expect(bound).toHaveLength(1);
    expect(bound[0]?.timer.hasRef()).toBe(false);
  });
});
