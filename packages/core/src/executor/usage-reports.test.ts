import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import type { ToolOutcome, ToolUsage } from '../chain/types.ts';
import { toToolUsage } from '../context/tool-context.ts';
import type { TraceRecord } from '../interceptors/trace.ts';
import { defineTool } from '../tool/define-tool.ts';
import { createExecutor } from './executor.ts';

const code = (outcome: ToolOutcome) => (outcome.type === 'error' ? outcome.error.code : outcome.type);

/** A tool that reports each of `reports`, then does `then` (return its output, or throw). */
const reporting = (name: string, reports: readonly ToolUsage[], then: () => unknown = () => 'done', policy = {}) =>
  defineTool({
    name,
    description: 'Spends tokens.',
    input: v.object({}),
    policy,
    execute: async (_input, ctx) => {
      for (const report of reports) {
        ctx.reportUsage(report);
        await Promise.resolve();
      }
      return then();
    },
  });

describe('executor: usage reports (ctx.reportUsage)', () => {
  it('add up on the call’s result; a call that reports nothing has none', async () => {
    const summarise = reporting('summarise', [{ inputTokens: 120, outputTokens: 30, totalTokens: 150 }, { inputTokens: 80, cachedInputTokens: 64 }, { reasoningTokens: 0 }]);
    const plain = defineTool({ name: 'plain', description: '', input: v.object({}), execute: () => 'ok' });
    const e = createExecutor({ registry: [summarise, plain] });
    const result = await e.execute({ id: 'c1', name: 'summarise', arguments: {} });
    expect(result.outcome).toEqual({ type: 'success', output: 'done' });
    // A count nobody reported stays absent; a reported 0 is a real zero.
    expect(result.usage).toEqual({ inputTokens: 200, outputTokens: 30, totalTokens: 150, reasoningTokens: 0, cachedInputTokens: 64 });
    const quiet = await e.execute({ id: 'c2', name: 'plain', arguments: {} });
    expect(quiet).toHaveProperty('usage', undefined);
  });

  it('count whatever the outcome: a tool that fails after spending, an abort, a refused approval', async () => {
    const failing = reporting('failing', [{ inputTokens: 40, outputTokens: 2 }], () => {
      throw new Error('the model answered nonsense');
    });
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const hanging = defineTool({
      name: 'hanging',
      description: '',
      input: v.object({}),
      execute: (_input, ctx) => {
        ctx.reportUsage({ totalTokens: 9 });
        started();
        return new Promise(() => {});
      },
    });
    const guarded = defineTool({ name: 'guarded', description: '', input: v.object({}), policy: { effects: 'write' }, execute: () => 'written' });
    // An interceptor that asks a model whether the call is safe spends tokens before the approval layer decides.
    const e = createExecutor({
      registry: [failing, hanging, guarded],
      interceptors: [
        (ctx, next) => {
          if (ctx.tool.name === 'guarded') ctx.reportUsage({ inputTokens: 5, outputTokens: 1 });
          return next();
        },
      ],
    });

    const failed = await e.execute({ id: 'c1', name: 'failing', arguments: {} });
    expect(code(failed.outcome)).toBe('execution-failed');
    expect(failed.usage).toEqual({ inputTokens: 40, outputTokens: 2 });

    const controller = new AbortController();
    const aborted = e.execute({ id: 'c2', name: 'hanging', arguments: {} }, { signal: controller.signal });
    await running;
    controller.abort();
    expect(code((await aborted).outcome)).toBe('aborted');
    expect((await aborted).usage).toEqual({ totalTokens: 9 });

    const asking = await e.execute({ id: 'c3', name: 'guarded', arguments: {} });
    expect(asking.outcome.type).toBe('approval-required');
    expect(asking.usage).toEqual({ inputTokens: 5, outputTokens: 1 });
    const denied = await e.execute({ id: 'c4', name: 'guarded', arguments: {} }, { approval: { approved: false } });
    expect(code(denied.outcome)).toBe('approval-denied');
    expect(denied.usage).toEqual({ inputTokens: 5, outputTokens: 1 });
  });

  it('a retried call sums the reports of all its attempts', async () => {
    let attempt = 0;
    const flaky = reporting('flaky', [{ inputTokens: 10, outputTokens: 1 }], () => {
      attempt += 1;
      if (attempt < 3) throw new Error('try again');
      return 'third time';
    }, { effects: 'read', retries: 2 });
    const records: TraceRecord[] = [];
    const result = await createExecutor({ registry: [flaky], onTrace: (r) => records.push(r) }).execute({ id: 'c1', name: 'flaky', arguments: {} });
    expect(result.outcome).toEqual({ type: 'success', output: 'third time' });
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 3 });
    expect(records[0]).toMatchObject({ attempts: 3, usage: { inputTokens: 30, outputTokens: 3 } });
  });

  it('a timed-out call keeps what the tool reported before the timer fired; what it reports after is not counted', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reportedLate = false;
    const slow = defineTool({
      name: 'slow',
      description: 'One model step, then a hang.',
      input: v.object({}),
      policy: { timeoutMs: 20 },
      execute: async (_input, ctx) => {
        ctx.reportUsage({ inputTokens: 700, outputTokens: 50 });
        await gate;
        ctx.reportUsage({ inputTokens: 1000 });
        reportedLate = true;
        return 'late';
      },
    });
    const records: TraceRecord[] = [];
    const result = await createExecutor({ registry: [slow], onTrace: (r) => records.push(r) }).execute({ id: 'c1', name: 'slow', arguments: {} });
    expect(code(result.outcome)).toBe('timeout');
    expect(result.usage).toEqual({ inputTokens: 700, outputTokens: 50 });
    expect(records[0]?.usage).toEqual({ inputTokens: 700, outputTokens: 50 });
    release();
    await vi.waitFor(() => expect(reportedLate).toBe(true));
    expect(result.usage).toEqual({ inputTokens: 700, outputTokens: 50 });
    expect(records[0]?.usage).toEqual({ inputTokens: 700, outputTokens: 50 });
  });

  it('are copied: only the five counts, later changes to the object not seen; interceptors read the sum so far', async () => {
    const seen: (ToolUsage | undefined)[] = [];
    const sneaky = defineTool({
      name: 'sneaky',
      description: '',
      input: v.object({}),
      execute: (_input, ctx) => {
        const report = { inputTokens: 3, costUsd: 0.02, raw: { prompt_tokens: 3 } };
        ctx.reportUsage(report);
        report.inputTokens = 3000;
        return 'ok';
      },
    });
    const e = createExecutor({
      registry: [sneaky],
      interceptors: [
        async (ctx, next) => {
          seen.push(ctx.usage);
          const outcome = await next();
          seen.push(ctx.usage);
          return outcome;
        },
      ],
    });
    const result = await e.execute({ id: 'c1', name: 'sneaky', arguments: {} });
    expect(result.usage).toEqual({ inputTokens: 3 });
    expect(seen).toEqual([undefined, { inputTokens: 3 }]);
  });

  it.each([
    ['a string', '40 tokens'],
    ['null', null],
    ['an empty object', {}],
    ['only unknown fields', { tokens: 40 }],
    ['a negative count', { inputTokens: -1 }],
    ['NaN', { outputTokens: Number.NaN }],
    ['an infinite count', { totalTokens: Number.POSITIVE_INFINITY }],
    ['a count as text', { inputTokens: '40' }],
  ])('an invalid report (%s) is a TypeError: the call fails as the tool’s own error and keeps the valid reports before it', async (_label, report) => {
    expect(() => toToolUsage(report)).toThrow(TypeError);
    expect(() => toToolUsage(report)).toThrow(/^Not a usage report: report token counts ≥ 0 as \{ inputTokens\?, outputTokens\?/);
    let thrown: unknown;
    const bad = defineTool({
      name: 'bad_usage',
      description: '',
      input: v.object({}),
      execute: (_input, ctx) => {
        ctx.reportUsage({ outputTokens: 4 });
        try {
          ctx.reportUsage(report as never);
        } catch (error) {
          thrown = error;
          throw error;
        }
        return 'unreachable';
      },
    });
    const result = await createExecutor({ registry: [bad] }).execute({ id: 'c1', name: 'bad_usage', arguments: {} });
    expect(thrown).toBeInstanceOf(TypeError);
    expect(code(result.outcome)).toBe('execution-failed');
    expect(result.content).toMatch(/usage report/);
    expect(result.usage).toEqual({ outputTokens: 4 });
  });

  it('toToolUsage adds a report to a running sum without changing it', () => {
    const sum = { inputTokens: 1, totalTokens: 2 };
    expect(toToolUsage({ inputTokens: 10, outputTokens: 3 }, sum)).toEqual({ inputTokens: 11, outputTokens: 3, totalTokens: 2 });
    expect(sum).toEqual({ inputTokens: 1, totalTokens: 2 });
    expect(toToolUsage({ totalTokens: 0, inputTokens: undefined })).toEqual({ totalTokens: 0 });
  });

  it('calls that never ran carry none: refused before the chain, or a client’s result (whatever its output claims)', async () => {
    const tool = reporting('summarise', [{ inputTokens: 1 }]);
    const browser = defineTool({ name: 'browser_model', description: '', input: v.object({}), policy: { runsOn: 'client' } });
    const e = createExecutor({ registry: [tool, browser] });
    expect((await e.execute({ id: 'c1', name: 'summarise', arguments: '{' })).usage).toBeUndefined();
    expect((await e.execute({ id: 'c2', name: 'nope', arguments: {} })).usage).toBeUndefined();
    const claimed = await e.acceptClientResult({ call: { id: 'c3', name: 'browser_model', arguments: {} }, output: { answer: 'hi', usage: { inputTokens: 1e9 } }, ticket: undefined });
    expect(claimed.outcome.type).toBe('success');
    expect(claimed).toHaveProperty('usage', undefined);
  });
});
