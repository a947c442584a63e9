import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { defineInterceptor } from '../chain/interceptor.ts';
import type { InterceptorFn, ToolContext, ToolNext, ToolOutcome } from '../chain/types.ts';
import { ToolError } from '../errors/tool-error.ts';
import { redact } from '../interceptors/redact.ts';
import { type TraceRecord, trace } from '../interceptors/trace.ts';
import { createRegistry } from '../registry/registry.ts';
import { lazyResolver } from '../registry/resolvers.ts';
import { listDelayedOrders, queryOrder, updateDeliveryDate } from '../test-support/order-tools.ts';
import { jsonSchema } from '../schema/json-schema.ts';
import { defineTool } from '../tool/define-tool.ts';
import { NO_OUTPUT_TEXT } from './convert-result.ts';
import { progressText } from '../context/tool-context.ts';
import { createRunContext } from '../context/run-context.ts';
import { createExecutor } from './executor.ts';

const code = (outcome: ToolOutcome) => (outcome.type === 'error' ? outcome.error.code : outcome.type);
const executor = createExecutor({ registry: [queryOrder, listDelayedOrders, updateDeliveryDate] });

describe('executor: bad model output becomes a typed error', () => {
  it('malformed JSON → invalid-json, with a snippet for the model', async () => {
    const result = await executor.execute({ id: 'c1', name: 'query_order', arguments: '{"order_id": "A-1' });
    expect(code(result.outcome)).toBe('invalid-json');
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Error \(invalid-json\): The arguments for "query_order" are not valid JSON/);
    expect(result.content).toContain('{"order_id": "A-1');
  });

  it('a schema that throws while validating (a BigInt in a raw JSON Schema check) → invalid-input, never a rejection', async () => {
    const raw = defineTool({
      name: 'raw',
      description: 'Raw JSON Schema input',
      input: jsonSchema<{ n: number }>({ type: 'object', properties: { n: { type: 'number' } } }),
      execute: ({ n }) => n,
    });
    const throwing = defineTool({
      name: 'throwing',
      description: 'A schema library with a bug',
      input: { '~standard': { version: 1, vendor: 'buggy', validate: () => { throw new Error('schema bug'); } } },
      jsonSchema: { type: 'object' },
      execute: () => 'never',
    });
    const e = createExecutor({ registry: [raw, throwing] });
    const results = await e.executeAll([
      { id: 'c1', name: 'raw', arguments: { n: 10n } },
      { id: 'c2', name: 'throwing', arguments: {} },
    ]);
    expect(results.map((r) => code(r.outcome))).toEqual(['invalid-input', 'invalid-input']);
    expect(results[0]?.content).toMatch(/^Error \(invalid-input\): The arguments for "raw" could not be validated: /);
    expect(results[1]?.content).toContain('schema bug');
  });

  it('a schema whose validate returns a thenable that is no Promise (a polyfill, another realm) is awaited, never a pass with no input', async () => {
    const thenable = (result: unknown) => Object.defineProperty({}, 'then', { value: (resolve: (value: unknown) => void) => resolve(result) });
    const schema = (validate: (value: unknown) => unknown) => ({ '~standard': { version: 1 as const, vendor: 'foreign', validate } }) as never;
    const seen: unknown[] = [];
    const tool = (name: string, validate: (value: unknown) => unknown, output?: (value: unknown) => unknown) =>
      defineTool({
        name,
        description: '',
        input: schema(validate),
        ...(output === undefined ? {} : { output: schema(output) }),
        jsonSchema: { type: 'object' },
        execute: (input: unknown) => {
          seen.push(input);
          return { ok: true };
        },
      });
    const e = createExecutor({
      registry: [
        tool('refuses', () => thenable({ issues: [{ message: 'not allowed', path: ['amount'] }] })),
        tool('passes', (value) => thenable({ value })),
        tool('neither', () => thenable({ nothing: true })),
        tool('bare', () => ({})),
        tool('bad_output', (value) => ({ value }), () => thenable({ issues: [{ message: 'bad' }] })),
      ],
    });
    const results = await e.executeAll(['refuses', 'passes', 'neither', 'bare', 'bad_output'].map((name) => ({ id: name, name, arguments: { amount: 5 } })));
    expect(results.map((r) => code(r.outcome))).toEqual(['invalid-input', 'success', 'invalid-input', 'invalid-input', 'invalid-output']);
    expect(results[0]?.content).toContain('- amount: not allowed');
    expect(results[2]?.content).toMatch(/^Error \(invalid-input\): The arguments for "neither" could not be validated: /);
    expect(seen).toEqual([{ amount: 5 }, { amount: 5 }]);
  });

  it('empty argument text means no arguments', async () => {
    const result = await executor.execute({ id: 'c1', name: 'list_delayed_orders', arguments: '' });
    expect(result.outcome).toEqual({ type: 'success', output: { days_threshold: 1, status: 'any', orders: [] } });
  });

  it('unknown tool → unknown-tool listing the available tools', async () => {
    const result = await executor.execute({ id: 'c1', name: 'drop_database', arguments: '{}' });
    expect(code(result.outcome)).toBe('unknown-tool');
    expect(result.content).toBe('Error (unknown-tool): Unknown tool "drop_database". Available tools: query_order, list_delayed_orders, update_delivery_date.');
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])('the name %s is simply unknown', async (name) => {
    const result = await executor.execute({ id: 'c1', name, arguments: '{}' });
    expect(code(result.outcome)).toBe('unknown-tool');
  });

  it('a call without a string name or id is refused as invalid input', async () => {
    const result = await executor.execute({ id: 1, name: null } as never);
    expect(code(result.outcome)).toBe('invalid-input');
  });

  it('invalid input → invalid-input with issue paths the model can act on', async () => {
    const result = await executor.execute({ id: 'c1', name: 'update_delivery_date', arguments: { order_id: 7, new_date: '12/01/2026' } });
    expect(code(result.outcome)).toBe('invalid-input');
    const error = result.outcome.type === 'error' ? result.outcome.error : undefined;
    expect(error?.issues?.map((i) => i.path)).toEqual(['order_id', 'new_date']);
    expect(result.content).toContain('- new_date: Expected a date as YYYY-MM-DD');
    expect(result.content).toContain('Fix these arguments and call the tool again.');
  });

  it('nested issue paths use dots and brackets', async () => {
    const cart = defineTool({
      name: 'cart',
      description: '',
      input: v.object({ items: v.array(v.object({ sku: v.string(), qty: v.number() })) }),
      execute: () => 'ok',
    });
    const result = await createExecutor({ registry: [cart] }).execute({ id: 'c', name: 'cart', arguments: { items: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 'two' }] } });
    expect(result.outcome.type === 'error' && result.outcome.error.issues?.[0]?.path).toBe('items[1].qty');
  });

  it('a thrown error → execution-failed with the message; a thrown ToolError keeps its code', async () => {
    const boom = defineTool({
      name: 'boom',
      description: '',
      input: v.object({ kind: v.string() }),
      execute: ({ kind }) => {
        if (kind === 'tool-error') throw new ToolError('rate-limited', 'Too many lookups');
        if (kind === 'string') throw 'plain string';
        throw new TypeError('cannot read x of undefined');
      },
    });
    const ex = createExecutor({ registry: [boom] });
    const plain = await ex.execute({ id: '1', name: 'boom', arguments: { kind: 'error' } });
    expect(code(plain.outcome)).toBe('execution-failed');
    expect(plain.content).toBe('Error (execution-failed): cannot read x of undefined');
    expect(code((await ex.execute({ id: '2', name: 'boom', arguments: { kind: 'tool-error' } })).outcome)).toBe('rate-limited');
    expect((await ex.execute({ id: '3', name: 'boom', arguments: { kind: 'string' } })).content).toBe('Error (execution-failed): plain string');
  });

  it('a hung tool → timeout on time, and its signal is aborted', async () => {
    let toolSignal: AbortSignal | undefined;
    const hang = defineTool({
      name: 'hang',
      description: '',
      input: v.object({}),
      policy: { timeoutMs: 30 },
      execute: (_input, ctx) => {
        toolSignal = ctx.signal;
        return new Promise<never>(() => {});
      },
    });
    const result = await createExecutor({ registry: [hang] }).execute({ id: 'h', name: 'hang', arguments: {} });
    expect(code(result.outcome)).toBe('timeout');
    expect(result.content).toMatch(/did not finish within 30 ms/);
    expect(toolSignal?.aborted).toBe(true);
    expect(ToolError.isInstance(toolSignal?.reason)).toBe(true);
  });

  it('a timed-out tool that reads ctx.signal after an await sees it aborted (it saw a live one, and went on to write)', async () => {
    let wake: () => void = () => {};
    const later: { aborted: boolean; attempt: number }[] = [];
    const write = defineTool({
      name: 'write',
      description: '',
      input: v.object({}),
      policy: { effects: 'write', needsApproval: false, timeoutMs: 20 },
      execute: async (_input, ctx) => {
        await new Promise<void>((resolve) => (wake = resolve));
        later.push({ aborted: ctx.signal.aborted, attempt: ctx.attempt });
        return 'written';
      },
    });
    const result = await createExecutor({ registry: [write] }).execute({ id: 'w', name: 'write', arguments: {} });
    expect(code(result.outcome)).toBe('timeout');
    wake();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(later).toEqual([{ aborted: true, attempt: 1 }]);

    // With retries, the abandoned first attempt keeps its own signal and attempt number while the second one runs.
    const wakes: (() => void)[] = [];
    const seen: { aborted: boolean; attempt: number }[] = [];
    const read = defineTool({
      name: 'read',
      description: '',
      input: v.object({}),
      policy: { retries: 1, timeoutMs: 20 },
      execute: async (_input, ctx) => {
        if (ctx.attempt === 2) {
          // Settles at once: under load a wait of its own here could outlive the attempt's 20 ms as well.
          wakes[0]?.();
          return 'second';
        }
        await new Promise<void>((resolve) => wakes.push(resolve));
        seen.push({ aborted: ctx.signal.aborted, attempt: ctx.attempt });
        return 'first';
      },
    });
    const retried = await createExecutor({ registry: [read] }).execute({ id: 'r', name: 'read', arguments: {} });
    expect(retried.content).toBe('second');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual([{ aborted: true, attempt: 1 }]);
  });

  it('a caller abort → aborted, mid-call and before the call', async () => {
    const slow = defineTool({
      name: 'slow',
      description: '',
      input: v.object({}),
      execute: (_input, ctx) => new Promise<string>((resolve) => setTimeout(() => resolve(ctx.signal.aborted ? 'saw abort' : 'done'), 200)),
    });
    const ex = createExecutor({ registry: [slow] });
    const controller = new AbortController();
    const pending = ex.execute({ id: 'a', name: 'slow', arguments: {} }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    const result = await pending;
    expect(code(result.outcome)).toBe('aborted');
    expect(result.content).toMatch(/aborted by the caller/);
    const already = await ex.execute({ id: 'b', name: 'slow', arguments: {} }, { signal: AbortSignal.abort() });
    expect(code(already.outcome)).toBe('aborted');
  });

  it("a caller's AbortSignal.timeout() ends the call as a timeout (the caller's limit), not as aborted; a plain abort stays aborted", async () => {
    const hung = defineTool({ name: 'hung', description: '', input: v.object({}), policy: { timeoutMs: 60_000 }, execute: () => new Promise<never>(() => {}) });
    const ex = createExecutor({ registry: [hung] });
    const running = await ex.execute({ id: 'r', name: 'hung', arguments: {} }, { signal: AbortSignal.timeout(5) });
    const expired = await ex.execute({ id: 'e', name: 'hung', arguments: {} }, { signal: AbortSignal.abort(new DOMException('late', 'TimeoutError')) });
    const run = createRunContext({ signal: AbortSignal.timeout(5) });
    const viaRun = await ex.execute({ id: 'v', name: 'hung', arguments: {} }, { run });
    for (const result of [running, expired, viaRun]) {
      expect(code(result.outcome)).toBe('timeout');
      expect(result.content).toBe(`Error (timeout): The call of "hung" did not finish within the caller's time limit.`);
      expect(result.outcome.type === 'error' && result.outcome.error.retryable).toBe(true);
    }
    const plain = await ex.execute({ id: 'p', name: 'hung', arguments: {} }, { signal: AbortSignal.abort(new DOMException('stop', 'AbortError')) });
    expect(code(plain.outcome)).toBe('aborted');
  });

  it('a caller abort ends a call still loading its lazy tool, asking a slow policy.available or a slow schema (it waited forever)', async () => {
    const never = new Promise<never>(() => {});
    const gated = defineTool({ name: 'gated', description: '', input: v.object({}), policy: { available: () => never }, execute: () => 'ran' });
    const remote = defineTool({
      name: 'remote',
      description: '',
      input: { '~standard': { version: 1, vendor: 'slow', validate: () => never } },
      jsonSchema: { type: 'object' },
      execute: () => 'ran',
    });
    const registry = createRegistry({ tools: [gated, remote], resolvers: [lazyResolver({ hung: () => never })] });
    const ex = createExecutor({ registry });
    for (const name of ['hung', 'gated', 'remote', 'nope']) {
      const controller = new AbortController();
      const pending = ex.execute({ id: name, name, arguments: {} }, { signal: controller.signal });
      setTimeout(() => controller.abort(), 5);
      const result = await pending;
      expect(result.content).toBe(`Error (aborted): The call of "${name}" was aborted by the caller.`);
    }
    const controller = new AbortController();
    const batch = ex.executeAll([{ id: '1', name: 'hung', arguments: {} }, { id: '2', name: 'remote', arguments: {} }], { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    expect((await batch).map((r) => code(r.outcome))).toEqual(['aborted', 'aborted']);
  });

  it('an abort that lands between an async check (schema, policy.available) and the chain ends the call: the tool never starts aborted', async () => {
    // The abort comes after n microtasks, for every n from "before the check settles" to "while the tool runs": some n
    // landed after the check had settled and before the chain started, and the tool ran and the call was a success.
    const ticks = async (n: number) => {
      for (let i = 0; i < n; i++) await undefined;
    };
    const asyncSchema = { '~standard': { version: 1 as const, vendor: 'async', validate: (value: unknown) => Promise.resolve({ value }) } };
    for (const policy of [{}, { available: async () => true }]) {
      for (let n = 0; n < 24; n++) {
        const controller = new AbortController();
        const started: boolean[] = [];
        const tool = defineTool({
          name: 'write',
          description: '',
          input: 'available' in policy ? v.object({}) : asyncSchema,
          jsonSchema: { type: 'object' },
          policy,
          execute: async (_input, ctx) => {
            started.push(ctx.signal.aborted);
            await ticks(60);
            return 'written';
          },
        });
        const pending = createExecutor({ registry: [tool] }).execute({ id: 'w', name: 'write', arguments: {} }, { signal: controller.signal });
        void ticks(n).then(() => controller.abort());
        const result = await pending;
        expect(code(result.outcome), `abort after ${n} microtasks`).toBe('aborted');
        expect(started, `abort after ${n} microtasks`).not.toContain(true);
      }
    }
  });

  it('onLaunch: called once as the chain starts, never for a call that ended before it (aborted, invalid, unknown); a throwing one changes nothing', async () => {
    const ticks = async (n: number) => {
      for (let i = 0; i < n; i++) await undefined;
    };
    const asyncSchema = { '~standard': { version: 1 as const, vendor: 'async', validate: (value: unknown) => Promise.resolve({ value }) } };
    const seen: string[] = [];
    const outer = defineInterceptor('outer', (_ctx, next) => {
      seen.push('interceptor');
      return next();
    });
    const tool = defineTool({ name: 'write', description: '', input: asyncSchema, jsonSchema: { type: 'object' }, execute: () => seen.push('execute') && 'written' });
    const strict = defineTool({ name: 'strict', description: '', input: v.object({ n: v.number() }), execute: () => seen.push('execute') && 'written' });
    const ex = createExecutor({ registry: [tool, strict], interceptors: [outer] });
    // Whenever the abort lands, onLaunch was called exactly when something of the chain ran: never for a call that
    // ended with nothing of it started, so the chat loop may record that call as not started.
    for (let n = 0; n < 12; n++) {
      seen.length = 0;
      const controller = new AbortController();
      let launches = 0;
      const pending = ex.execute({ id: 'w', name: 'write', arguments: {} }, { signal: controller.signal, onLaunch: () => launches++ });
      void ticks(n).then(() => controller.abort());
      const result = await pending;
      expect(launches, `abort after ${n} microtasks`).toBe(seen.length === 0 ? 0 : 1);
      if (launches === 0) expect(code(result.outcome), `abort after ${n} microtasks`).toBe('aborted');
    }
    let launches = 0;
    const onLaunch = () => launches++;
    expect(code((await ex.execute({ id: 'a', name: 'write', arguments: {} }, { signal: AbortSignal.abort(), onLaunch })).outcome)).toBe('aborted');
    expect(code((await ex.execute({ id: 'i', name: 'strict', arguments: { n: 'x' } }, { onLaunch })).outcome)).toBe('invalid-input');
    expect(code((await ex.execute({ id: 'u', name: 'nope', arguments: {} }, { onLaunch })).outcome)).toBe('unknown-tool');
    expect(launches).toBe(0);
    expect((await ex.execute({ id: 's', name: 'strict', arguments: { n: 1 } }, { onLaunch })).content).toBe('written');
    expect(launches).toBe(1);
    const thrown = await ex.execute({ id: 't', name: 'strict', arguments: { n: 1 } }, { onLaunch: () => { throw new Error('a broken listener'); } });
    expect(thrown.content).toBe('written');
  });

  it('a call whose signal aborts inside the chain (an interceptor or the tool stops the run) is aborted, not a success', async () => {
    const controller = new AbortController();
    const stop = defineInterceptor('stop', (_ctx, next) => {
      controller.abort();
      return next();
    });
    const tool = defineTool({ name: 'slow', description: '', input: v.object({}), execute: () => new Promise<string>((resolve) => setTimeout(() => resolve('done'), 5)) });
    const result = await createExecutor({ registry: [tool], interceptors: [stop] }).execute({ id: 's', name: 'slow', arguments: {} }, { signal: controller.signal });
    expect(code(result.outcome)).toBe('aborted');
  });

  it('merges a call’s signal with its run’s once per pair of signals, not once per call; either still aborts the calls', async () => {
    const any = vi.spyOn(AbortSignal, 'any');
    try {
      const seen: AbortSignal[] = [];
      const tool = defineTool({ name: 'probe', description: '', input: v.object({}), execute: (_input, ctx) => seen.push(ctx.signal) });
      const ex = createExecutor({ registry: [tool] });
      const [turn, stop] = [new AbortController(), new AbortController()];
      const run = createRunContext({ signal: stop.signal });
      for (const id of ['1', '2', '3']) expect((await ex.execute({ id, name: 'probe', arguments: {} }, { run, signal: turn.signal })).isError).toBe(false);
      expect(any).toHaveBeenCalledTimes(1);
      expect(new Set(seen).size).toBe(1);
      // Another run with the same call signal gets a signal of its own.
      await ex.execute({ id: '4', name: 'probe', arguments: {} }, { run: createRunContext({ signal: new AbortController().signal }), signal: turn.signal });
      expect(any).toHaveBeenCalledTimes(2);
      stop.abort();
      const after = await ex.execute({ id: '5', name: 'probe', arguments: {} }, { run, signal: turn.signal });
      expect(code(after.outcome)).toBe('aborted');
      expect(seen[0]?.aborted).toBe(true);
    } finally {
      any.mockRestore();
    }
  });

  it('never rejects: all of the above at once leave no unhandled rejection', async () => {
    const onUnhandled = vi.fn();
    globalThis.addEventListener?.('unhandledrejection', onUnhandled);
    const calls = [
      { id: '1', name: 'query_order', arguments: '{' },
      { id: '2', name: 'nope', arguments: '{}' },
      { id: '3', name: 'query_order', arguments: { order_id: '' } },
      { id: '4', name: 'query_order', arguments: '"just a string"' },
      { id: '5', name: 'query_order', arguments: 'null' },
    ];
    const results = await executor.executeAll(calls);
    expect(results.map((r) => code(r.outcome))).toEqual(['invalid-json', 'unknown-tool', 'invalid-input', 'invalid-input', 'invalid-input']);
    await new Promise((r) => setTimeout(r, 10));
    globalThis.removeEventListener?.('unhandledrejection', onUnhandled);
    expect(onUnhandled).not.toHaveBeenCalled();
  });
});

describe('executor: arguments that are an array', () => {
  // valibot's `v.object` takes an array (and gives `{}`); the model was shown `type: 'object'`, so an array is refused.
  const ran = vi.fn((input: { note?: string | undefined }) => input);
  const ping = defineTool({ name: 'ping', description: 'p', input: v.object({ note: v.optional(v.string()) }), execute: ran });
  const ex = createExecutor({ registry: [ping] });

  it.each([['text', '[1]'], ['text of strings', '["hi"]'], ['an empty array', '[]'], ['a parsed array', ['hi']]])('%s is invalid-input and nothing runs', async (_, args) => {
    const result = await ex.execute({ id: 'a', name: 'ping', arguments: args });
    expect(result.outcome.type).toBe('error');
    const error = (result.outcome as { error: ToolError }).error;
    expect(error.code).toBe('invalid-input');
    expect(error.issues).toEqual([{ path: '(root)', message: expect.stringContaining('Expected Object but received Array') }]);
    expect(result.content).toContain('named fields in one JSON object');
    expect(ran).not.toHaveBeenCalled();
  });

  it('an object still runs, and a tool whose JSON Schema takes an array is left to its schema', async () => {
    expect((await ex.execute({ id: 'b', name: 'ping', arguments: '{"note":"hi"}' })).outcome).toEqual({ type: 'success', output: { note: 'hi' } });
    const list = defineTool({ name: 'list', description: 'l', input: v.array(v.string()), jsonSchema: { type: 'array', items: { type: 'string' } }, execute: (items) => items.length });
    expect((await createExecutor({ registry: [list] }).execute({ id: 'c', name: 'list', arguments: '["a","b"]' })).outcome).toEqual({ type: 'success', output: 2 });
  });

  it("a human's edit that is an array is refused as the model's would be", async () => {
    const write = defineTool({
      name: 'write',
      description: 'w',
      input: v.object({ note: v.optional(v.string()) }),
      policy: { effects: 'destructive', editable: true },
      execute: ran,
    });
    const result = await createExecutor({ registry: [write] }).execute({ id: 'd', name: 'write', arguments: '{"note":"x"}' }, { approval: { approved: true, input: ['y'] } as never });
    expect(result.outcome.type).toBe('error');
    expect((result.outcome as { error: ToolError }).error.code).toBe('invalid-input');
    expect(result.content).toContain('edited arguments that are invalid');
    expect(ran).not.toHaveBeenCalled();
  });
});

describe('executor: the synchronous path and its asynchronous steps agree', () => {
  const Input = v.object({ order_id: v.pipe(v.string(), v.minLength(2)) });
  /** The same schema, validating in a promise (as a raw JSON Schema does while its validator loads). */
  const asyncInput = {
    '~standard': { version: 1, vendor: 'async-test', validate: (value: unknown) => Promise.resolve(Input['~standard'].validate(value)) },
  } as unknown as typeof Input;
  const run = ({ order_id }: { order_id: string }) => {
    if (order_id === 'boom') throw new Error('database unavailable');
    return { order_id, status: 'shipped' };
  };
  /** One tool, made synchronous or asynchronous in each step that may be either. */
  const variant = (lazy: boolean, asyncSchema: boolean, asyncTool: boolean, interceptors: number) => {
    const tool = defineTool({
      name: 'query',
      description: 'q',
      input: asyncSchema ? asyncInput : Input,
      jsonSchema: { type: 'object' },
      execute: asyncTool ? async (input: { order_id: string }) => run(input) : run,
    });
    const registry = lazy ? createRegistry({ resolvers: [lazyResolver({ query: async () => tool })] }) : createRegistry({ tools: [tool] });
    const list = Array.from({ length: interceptors }, (_, i) => defineInterceptor(`pass-${i}`, (_ctx, next) => next()));
    return createExecutor({ registry, interceptors: list });
  };
  const calls = [
    { id: 'ok', name: 'query', arguments: '{"order_id":"A-1"}' },
    { id: 'invalid', name: 'query', arguments: '{"order_id":"A"}' },
    { id: 'throws', name: 'query', arguments: { order_id: 'boom' } },
    { id: 'json', name: 'query', arguments: '{"order_id":' },
    { id: 'unknown', name: 'nope', arguments: '{}' },
  ];
  const seen = (r: Awaited<ReturnType<ReturnType<typeof variant>['execute']>>) => ({ content: r.content, isError: r.isError, outcome: r.outcome, input: r.input });

  it('every mix of a lazy tool, an async schema, an async tool and interceptors gives the results of the all-synchronous call', async () => {
    const expected = await Promise.all(calls.map(async (call) => seen(await variant(false, false, false, 0).execute(call))));
    expect(expected.map((r) => r.isError)).toEqual([false, true, true, true, true]);
    for (const lazy of [false, true]) {
      for (const asyncSchema of [false, true]) {
        for (const asyncTool of [false, true]) {
          for (const interceptors of [0, 2]) {
            const ex = variant(lazy, asyncSchema, asyncTool, interceptors);
            const got = await Promise.all(calls.map(async (call) => seen(await ex.execute(call))));
            expect(got, JSON.stringify({ lazy, asyncSchema, asyncTool, interceptors })).toEqual(expected);
          }
        }
      }
    }
  });

  it('an async validation that rejects is the caller\'s bad input, as one that throws', async () => {
    const rejecting = defineTool({
      name: 'rejecting',
      description: '',
      input: { '~standard': { version: 1, vendor: 'buggy', validate: () => Promise.reject(new Error('schema bug')) } },
      jsonSchema: { type: 'object' },
      execute: () => 'never',
    });
    const result = await createExecutor({ registry: [rejecting] }).execute({ id: 'r', name: 'rejecting', arguments: {} });
    expect(result.content).toMatch(/^Error \(invalid-input\): The arguments for "rejecting" could not be validated: schema bug/);
  });

  it('never throws: with onError "throw", a failure at any step (or a resolver that throws) rejects the promise it returns', async () => {
    const boom = defineTool({ name: 'boom', description: '', input: v.object({}), execute: (): string => { throw new Error('down'); } });
    const unconvertible = defineTool({ name: 'big', description: '', input: v.object({}), execute: () => 10n });
    const throwing = { kind: 'edgetool.resolver' as const, names: () => ['thrower'], resolve: (): never => { throw new Error('resolver bug'); } };
    const ex = createExecutor({ registry: createRegistry({ tools: [queryOrder, boom, unconvertible], resolvers: [throwing], onError: 'throw' }) });
    const failing = [
      null as unknown as { id: string; name: string; arguments: unknown },
      { id: '1', name: 'query_order', arguments: '{' },
      { id: '2', name: 'query_order', arguments: {} },
      { id: '3', name: 'boom', arguments: {} },
      { id: '4', name: 'big', arguments: {} },
      { id: '5', name: 'thrower', arguments: {} },
    ];
    for (const call of failing) {
      let pending: Promise<unknown> | undefined;
      expect(() => {
        pending = ex.execute(call);
      }).not.toThrow();
      await expect(pending).rejects.toSatisfy(ToolError.isInstance);
    }
    // Reported instead, the resolver's throw is that call's typed failure.
    const reporting = createExecutor({ registry: createRegistry({ resolvers: [throwing] }) });
    expect((await reporting.execute({ id: '6', name: 'thrower', arguments: {} })).content).toMatch(/resolver bug/);
  });
});

describe('executor: result conversion', () => {
  const make = (output: unknown, toModelOutput?: (o: unknown) => string) =>
    createExecutor({
      registry: [
        defineTool({ name: 'r', description: '', input: v.object({}), execute: () => output, ...(toModelOutput ? { toModelOutput } : {}) }),
      ],
    }).execute({ id: 'x', name: 'r', arguments: {} });

  it('strings as is, objects as JSON, undefined/null as an explicit no-output text', async () => {
    expect((await make('plain text')).content).toBe('plain text');
    expect((await make({ a: 1, b: [true] })).content).toBe('{"a":1,"b":[true]}');
    expect((await make(undefined)).content).toBe(NO_OUTPUT_TEXT);
    expect((await make(null)).content).toBe(NO_OUTPUT_TEXT);
    expect((await make(42)).content).toBe('42');
  });

  it('awaits a thenable that is no Promise (a Prisma or Drizzle query runs only when awaited): its value is the output', async () => {
    let queries = 0;
    const rows = [{ id: 'A-1001', status: 'shipped' }];
    // Defined, not written as a `then` property: the lint rule against thenables guards the code, not this test.
    const thenable = (then: (resolve: (value: unknown) => void, reject: (reason: unknown) => void) => void) => Object.defineProperty({}, 'then', { value: then });
    const query = thenable((resolve) => {
      queries++;
      resolve(rows);
    });
    const result = await make(query);
    expect(result.outcome).toEqual({ type: 'success', output: rows });
    expect(result.content).toBe('[{"id":"A-1001","status":"shipped"}]');
    expect(queries).toBe(1);
    const failing = await make(thenable((_, reject) => reject(new Error('D1_ERROR: no such table'))));
    expect(code(failing.outcome)).toBe('execution-failed');
    expect(failing.content).toBe('Error (execution-failed): D1_ERROR: no such table');
  });

  it('uses the per-tool converter', async () => {
    const result = await make({ celsius: 21 }, (o) => `It is ${(o as { celsius: number }).celsius}°C.`);
    expect(result.content).toBe('It is 21°C.');
    expect(result.outcome).toEqual({ type: 'success', output: { celsius: 21 } });
  });

  it('a converter that returns no string (untyped code) → invalid-output, never a non-string content', async () => {
    const result = await make({ celsius: 21 }, (o) => o as string);
    expect(code(result.outcome)).toBe('invalid-output');
    expect(result.content).toMatch(/^Error \(invalid-output\): .*toModelOutput returned object, not a string/);
  });

  it('an output that cannot become JSON → invalid-output, not a crash', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(code((await make(cyclic)).outcome)).toBe('invalid-output');
    expect(code((await make(10n)).outcome)).toBe('invalid-output');
  });

  it('checks a declared output schema', async () => {
    const t = defineTool({
      name: 'typed',
      description: '',
      input: v.object({ ok: v.boolean() }),
      output: v.object({ n: v.number() }),
      execute: ({ ok }) => (ok ? { n: 1 } : ({ n: 'one' } as unknown as { n: number })),
    });
    const ex = createExecutor({ registry: [t] });
    expect((await ex.execute({ id: '1', name: 'typed', arguments: { ok: true } })).content).toBe('{"n":1}');
    const bad = await ex.execute({ id: '2', name: 'typed', arguments: { ok: false } });
    expect(code(bad.outcome)).toBe('invalid-output');
    expect(bad.content).toContain('- n:');
    // The issues are in the tool's result, not the model's arguments: the model is not told to fix its arguments.
    expect(bad.content).not.toContain('Fix these arguments');
    expect(bad.content).toMatch(/\nThese issues are in the tool's result, not in your arguments\.$/);
  });

  it('an output schema that throws while validating (a raw JSON Schema with a $ref to nowhere) → invalid-output, never a rejection', async () => {
    // An MCP server lists its tools' output schemas: nothing checks them before the first result is validated.
    const t = defineTool({
      name: 'remote',
      description: '',
      input: v.object({}),
      output: jsonSchema({ type: 'object', properties: { n: { $ref: '#/$defs/missing' } } }),
      execute: () => ({ n: 1 }),
    });
    const result = await createExecutor({ registry: [t] }).execute({ id: '1', name: 'remote', arguments: {} });
    expect(code(result.outcome)).toBe('invalid-output');
    expect(result.content).toMatch(/^Error \(invalid-output\): The result of "remote" could not be validated: .*#\/\$defs\/missing/);
  });

  it('marks return-direct results', async () => {
    const direct = defineTool({ name: 'answer', description: '', input: v.object({}), policy: { returnDirect: true }, execute: () => 'final' });
    const result = await createExecutor({ registry: [direct] }).execute({ id: '1', name: 'answer', arguments: {} });
    expect(result.returnDirect).toBe(true);
    expect((await executor.execute({ id: '2', name: 'query_order', arguments: { order_id: 'A' } })).returnDirect).toBe(false);
  });
});

describe('executor: a call without a run', () => {
  it('has one fresh run, the same for the interceptors, the tool, its trace record and policy.available', async () => {
    const seen: unknown[] = [];
    const records: TraceRecord[] = [];
    const execute = (_input: unknown, ctx: ToolContext) => {
      seen.push(ctx.run, ctx.run);
      return ctx.run.conversationId;
    };
    const who = defineTool({ name: 'who', description: '', input: v.object({}), execute });
    const gated = defineTool({
      name: 'gated',
      description: '',
      input: v.object({}),
      policy: {
        available: (run) => {
          seen.push(run);
          return true;
        },
      },
      execute,
    });
    const spy = defineInterceptor('spy', (ctx, next) => {
      seen.push(ctx.run);
      return next();
    });
    const runner = createExecutor({ registry: [who, gated], interceptors: [spy], onTrace: (record) => records.push(record) });
    const first = await runner.execute({ id: 'c1', name: 'who', arguments: '{}' });
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(1);
    expect(first.content).toMatch(/^[0-9a-f-]{36}$/);
    seen.length = 0;
    const second = await runner.execute({ id: 'c2', name: 'gated', arguments: '{}' });
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(1);
    expect(second.content).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.content).not.toBe(first.content);
    expect(records.map((record) => record.conversationId)).toEqual([first.content, second.content]);
  });

  it('reports an early failure under a fresh conversation id too; a call too broken to name has none', async () => {
    const records: TraceRecord[] = [];
    const runner = createExecutor({ registry: [queryOrder], onTrace: (record) => records.push(record) });
    await runner.execute({ id: 'c1', name: 'query_order', arguments: '{' });
    await runner.execute({ id: 'c2', name: 'nope', arguments: '{}' });
    await runner.execute({ id: 3, name: 'query_order' } as never);
    expect(records.map((record) => record.errorCode)).toEqual(['invalid-json', 'unknown-tool', 'invalid-input']);
    expect(records[0]?.conversationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(records[1]?.conversationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(records[1]?.conversationId).not.toBe(records[0]?.conversationId);
    expect(records[2]?.conversationId).toBe('');
  });
});

describe('executor: policy', () => {
  it('coerces quoted primitives only when the policy opts in', async () => {
    const counter = (coerce: boolean) =>
      defineTool({
        name: 'count',
        description: '',
        input: v.object({ n: v.pipe(v.number(), v.integer()), flag: v.boolean(), label: v.string() }),
        policy: { coerce },
        execute: (input) => input,
      });
    const args = '{"n":"3","flag":"true","label":"7"}';
    const strict = await createExecutor({ registry: [counter(false)] }).execute({ id: '1', name: 'count', arguments: args });
    expect(code(strict.outcome)).toBe('invalid-input');
    const lenient = await createExecutor({ registry: [counter(true)] }).execute({ id: '1', name: 'count', arguments: args });
    expect(lenient.outcome).toEqual({ type: 'success', output: { n: 3, flag: true, label: '7' } });
    const notNumeric = await createExecutor({ registry: [counter(true)] }).execute({ id: '1', name: 'count', arguments: '{"n":"3x","flag":"yes","label":"a"}' });
    expect(code(notNumeric.outcome)).toBe('invalid-input');
  });

  it('strict mode: a null for an optional argument reaches the tool as absent, nested too; only when the policy asks for it', async () => {
    const seen: unknown[] = [];
    const plan = (strict: boolean) =>
      defineTool({
        name: 'plan',
        description: '',
        input: v.object({ city: v.string(), days: v.optional(v.number()), note: v.nullish(v.string()), stops: v.optional(v.array(v.object({ at: v.optional(v.string()) }))) }),
        policy: { strict },
        execute: (input) => {
          seen.push(input);
          return 'ok';
        },
      });
    const args = '{"city":"Paris","days":null,"note":null,"stops":[{"at":null}]}';
    const strict = await createExecutor({ registry: [plan(true)] }).execute({ id: '1', name: 'plan', arguments: args });
    expect(strict.outcome).toEqual({ type: 'success', output: 'ok' });
    expect(seen).toEqual([{ city: 'Paris', note: null, stops: [{}] }]);
    expect(Object.hasOwn(seen[0] as object, 'days')).toBe(false);
    const plain = await createExecutor({ registry: [plan(false)] }).execute({ id: '2', name: 'plan', arguments: args });
    expect(code(plain.outcome)).toBe('invalid-input');
    // A required argument's null is still refused.
    const missing = await createExecutor({ registry: [plan(true)] }).execute({ id: '3', name: 'plan', arguments: '{"city":null}' });
    expect(code(missing.outcome)).toBe('invalid-input');
  });

  it('strict mode on a raw JSON Schema tool (an MCP tool, say): the null of an optional argument is absent before the schema validates', async () => {
    const remote = defineTool({
      name: 'remote',
      description: '',
      input: jsonSchema<{ q: string; limit?: number }>({ type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer' } }, required: ['q'] }),
      policy: { strict: true },
      execute: (input) => input,
    });
    const result = await createExecutor({ registry: [remote] }).execute({ id: '1', name: 'remote', arguments: '{"q":"x","limit":null}' });
    expect(result.outcome).toEqual({ type: 'success', output: { q: 'x' } });
  });

  it('coerces quoted primitives in nullable fields', async () => {
    const t = defineTool({
      name: 'nullable',
      description: '',
      input: v.object({ n: v.nullable(v.number()), flag: v.nullish(v.boolean()) }),
      policy: { coerce: true },
      execute: (input) => input,
    });
    const ex = createExecutor({ registry: [t] });
    expect((await ex.execute({ id: '1', name: 'nullable', arguments: '{"n":"5","flag":"true"}' })).outcome).toEqual({ type: 'success', output: { n: 5, flag: true } });
    expect((await ex.execute({ id: '2', name: 'nullable', arguments: '{"n":"null"}' })).outcome).toEqual({ type: 'success', output: { n: null } });
  });

  it('a key that could change an object’s prototype → invalid-json naming it, as text or parsed, before the lookup; nothing runs or is polluted', async () => {
    const ran: unknown[] = [];
    const bag = defineTool({
      name: 'bag',
      description: '',
      input: v.record(v.string(), v.unknown()),
      policy: { coerce: true },
      execute: (input) => ran.push(input),
    });
    const ex = createExecutor({ registry: [bag] });
    const text = '{"a":"1","items":[{"__proto__":{"polluted":true}}]}';
    for (const args of [text, JSON.parse(text) as unknown, '{"\\u005f_proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}']) {
      const result = await ex.execute({ id: 'c1', name: 'bag', arguments: args });
      expect(code(result.outcome)).toBe('invalid-json');
      expect(result.content).toMatch(/^Error \(invalid-json\): The arguments for "bag" have a key that could change an object’s prototype: [\w.[\]]+\.\n- /);
      expect(result.tool).toBeUndefined();
    }
    expect((await ex.execute({ id: 'c2', name: 'bag', arguments: text })).content).toBe(
      [
        'Error (invalid-json): The arguments for "bag" have a key that could change an object’s prototype: items[0].__proto__.',
        '- items[0].__proto__: A key that could change an object’s prototype is not accepted: leave it out.',
        'Fix these arguments and call the tool again.',
      ].join('\n'),
    );
    // Refused at the parse, like JSON that is not JSON: a hidden or unknown name gets the same answer, revealing nothing.
    expect(code((await ex.execute({ id: 'c3', name: 'nope', arguments: text })).outcome)).toBe('invalid-json');
    expect(ran).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('retries a read tool on failure, counting attempts on the context', async () => {
    let attempts = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: '',
      input: v.object({}),
      policy: { retries: 2 },
      execute: (_i, ctx) => {
        attempts++;
        if (ctx.attempt < 3) throw new Error(`attempt ${ctx.attempt} failed`);
        return `ok on attempt ${ctx.attempt}`;
      },
    });
    const result = await createExecutor({ registry: [flaky], spans: true }).execute({ id: '1', name: 'flaky', arguments: {} });
    expect(result.content).toBe('ok on attempt 3');
    expect(attempts).toBe(3);
    expect(result.spans.filter((s) => s.kind === 'execute')).toHaveLength(3);
  });

  it('retries a timed-out attempt with a fresh signal; the abandoned attempt keeps its aborted one', async () => {
    const signals: AbortSignal[] = [];
    const hangsOnce = defineTool({
      name: 'hangs_once',
      description: '',
      input: v.object({}),
      policy: { retries: 2, timeoutMs: 30 },
      execute: (_i, ctx) => {
        signals.push(ctx.signal);
        return ctx.attempt === 1 ? new Promise<never>(() => {}) : `ok on attempt ${ctx.attempt}`;
      },
    });
    let outerSignal: AbortSignal | undefined;
    const outer = async (ctx: ToolContext, next: ToolNext) => {
      const outcome = await next();
      outerSignal = ctx.signal;
      return outcome;
    };
    const result = await createExecutor({ registry: [hangsOnce], interceptors: [outer] }).execute({ id: '1', name: 'hangs_once', arguments: {} });
    expect(result.content).toBe('ok on attempt 2');
    expect(signals).toHaveLength(2);
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[1]?.aborted).toBe(false);
    // The layers outside the timeout see their own signal again, not the timed-out attempt's.
    expect(outerSignal?.aborted).toBe(false);
  });

  it('an interceptor that abandons its next({ input }) (as timeout does): the layers outside see their own input again', async () => {
    const inputs: unknown[] = [];
    const hang = defineTool({ name: 'hang_echo', description: '', input: v.object({ n: v.number() }), execute: () => new Promise<never>(() => {}) });
    const gives_up = defineInterceptor(
      'gives-up',
      async (ctx, next) => {
        void next({ input: { n: (ctx.input as { n: number }).n + 1 } });
        return { type: 'success', output: 'gave up' };
      },
      { abandons: true },
    );
    const seen = async (ctx: ToolContext, next: ToolNext) => {
      const outcome = await next();
      inputs.push(ctx.input);
      return outcome;
    };
    const result = await createExecutor({ registry: [hang], interceptors: [seen, gives_up] }).execute({ id: '1', name: 'hang_echo', arguments: { n: 1 } });
    expect(result.content).toBe('gave up');
    expect(inputs).toEqual([{ n: 1 }]);
  });

  it('does not retry invalid input, and gives up after the last retry', async () => {
    let attempts = 0;
    const broken = defineTool({
      name: 'broken',
      description: '',
      input: v.object({}),
      policy: { retries: 1 },
      execute: () => {
        attempts++;
        throw new Error('still broken');
      },
    });
    const result = await createExecutor({ registry: [broken] }).execute({ id: '1', name: 'broken', arguments: {} });
    expect(code(result.outcome)).toBe('execution-failed');
    expect(attempts).toBe(2);
  });

  /** A tool in concurrency group `db` that records how many of its calls ran at once. */
  function serialProbe(name: string) {
    const state = { active: 0, maxActive: 0 };
    const tool = defineTool({
      name,
      description: '',
      input: v.object({ i: v.number() }),
      policy: { concurrency: 'db' },
      execute: async ({ i }) => {
        state.active++;
        state.maxActive = Math.max(state.maxActive, state.active);
        await new Promise((r) => setTimeout(r, 5));
        state.active--;
        return i;
      },
    });
    return { tool, state };
  }

  it('runs calls of one concurrency group one at a time, others in parallel', async () => {
    const { tool, state } = serialProbe('serial');
    const results = await createExecutor({ registry: [tool] }).executeAll([0, 1, 2, 3].map((i) => ({ id: String(i), name: 'serial', arguments: { i } })));
    expect(results.map((r) => r.content)).toEqual(['0', '1', '2', '3']);
    expect(state.maxActive).toBe(1);
  });

  it('keeps concurrency groups for lazily loaded tools too, before and after they load', async () => {
    const { tool: lazySerial, state } = serialProbe('lazy_serial');
    const registry = createRegistry({ resolvers: [lazyResolver({ lazy_serial: async () => lazySerial })] });
    const executor = createExecutor({ registry });
    for (let batch = 0; batch < 2; batch++) {
      const results = await executor.executeAll([0, 1, 2, 3].map((i) => ({ id: String(i), name: 'lazy_serial', arguments: { i } })));
      expect(results.map((r) => r.content)).toEqual(['0', '1', '2', '3']);
    }
    expect(state.maxActive).toBe(1);
    // A resolver that fails still gives each call its own typed failure.
    const broken = createExecutor({ registry: createRegistry({ resolvers: [lazyResolver({ gone: () => Promise.reject(new Error('no module')) })] }) });
    const failed = await broken.executeAll([{ id: 'g', name: 'gone', arguments: {} }]);
    expect(failed[0]?.isError).toBe(true);
  });

  it('an exception processor can make errors throw instead of going to the model', async () => {
    const registry = createRegistry({ tools: [queryOrder], onError: (error) => (error.code === 'unknown-tool' ? 'throw' : 'report') });
    const ex = createExecutor({ registry });
    await expect(ex.execute({ id: '1', name: 'missing', arguments: {} })).rejects.toMatchObject({ code: 'unknown-tool' });
    expect(code((await ex.execute({ id: '2', name: 'query_order', arguments: {} })).outcome)).toBe('invalid-input');
    const throwing = createExecutor({ registry: createRegistry({ tools: [queryOrder], onError: 'throw' }) });
    await expect(throwing.execute({ id: '3', name: 'query_order', arguments: '{' })).rejects.toSatisfy(ToolError.isInstance);
  });

  it('exports one trace record per call, including early failures', async () => {
    const records: { toolName: string; outcome: string; errorCode: string | undefined; spans: number }[] = [];
    const named: InterceptorFn = (_ctx, next) => next();
    const ex = createExecutor({
      registry: [queryOrder],
      interceptors: [named],
      onTrace: (r) => records.push({ toolName: r.toolName, outcome: r.outcome, errorCode: r.errorCode, spans: r.spans.length }),
    });
    await ex.execute({ id: '1', name: 'query_order', arguments: { order_id: 'A-1' } });
    await ex.execute({ id: '2', name: 'query_order', arguments: '{' });
    expect(records).toEqual([
      { toolName: 'query_order', outcome: 'success', errorCode: undefined, spans: 2 },
      { toolName: 'query_order', outcome: 'error', errorCode: 'invalid-json', spans: 0 },
    ]);
  });

  it('records spans only when someone reads them: `spans: true`, `onTrace`, or a tracing interceptor in the chain', async () => {
    const call = { id: '1', name: 'query_order', arguments: { order_id: 'A-1' } };
    const named: InterceptorFn = (_ctx, next) => next();
    const reads: string[] = [];
    const clock = () => {
      reads.push('read');
      return reads.length;
    };
    const off = await createExecutor({ registry: [queryOrder], interceptors: [named], clock }).execute(call);
    expect(off.spans).toEqual([]);
    expect(reads).toHaveLength(2); // the call's start and end, for durationMs
    expect(off.durationMs).toBe(1);

    const on = await createExecutor({ registry: [queryOrder], interceptors: [named], spans: true }).execute(call);
    expect(on.spans.map((s) => [s.name, s.kind, s.outcome])).toEqual([
      ['named', 'interceptor', 'success'],
      ['query_order', 'execute', 'success'],
    ]);

    const exported: number[] = [];
    const tracer = trace({ export: (r) => exported.push(r.spans.length) });
    const inChain = await createExecutor({ registry: [queryOrder], interceptors: [tracer, named] }).execute(call);
    expect(inChain.spans.map((s) => s.name)).toEqual(['trace', 'named', 'query_order']);
    const perCall = await createExecutor({ registry: [queryOrder] }).execute(call, { interceptors: [tracer] });
    expect(perCall.spans.map((s) => s.name)).toEqual(['trace', 'query_order']);
    expect(exported).toEqual([3, 2]);
    // The executor without a tracer in this call's chain stays quiet.
    expect((await createExecutor({ registry: [queryOrder] }).execute(call)).spans).toEqual([]);
  });
});

describe('executor: progress reports', () => {
  const scan = defineTool({
    name: 'scan_orders',
    description: 'Scans orders in batches.',
    input: v.object({ batches: v.number() }),
    execute: async ({ batches }, ctx) => {
      for (let done = 0; done < batches; done++) {
        ctx.progress({ message: `Scanned batch ${done + 1}`, completed: done + 1, total: batches });
        await Promise.resolve();
      }
      return { batches };
    },
  });

  it('reach the call’s listener in order, with the call id and tool name', async () => {
    const events: unknown[] = [];
    const result = await createExecutor({ registry: [scan] }).execute(
      { id: 'c1', name: 'scan_orders', arguments: '{"batches":3}' },
      { onProgress: (event) => events.push(event) },
    );
    expect(result.outcome).toEqual({ type: 'success', output: { batches: 3 } });
    expect(events).toEqual([1, 2, 3].map((n) => ({ callId: 'c1', toolName: 'scan_orders', progress: { message: `Scanned batch ${n}`, completed: n, total: 3 } })));
  });

  it('cost nothing and change nothing without a listener; each call of executeAll reports under its own id', async () => {
    const e = createExecutor({ registry: [scan] });
    expect((await e.execute({ id: 'c0', name: 'scan_orders', arguments: { batches: 2 } })).outcome.type).toBe('success');
    const seen: string[] = [];
    await e.executeAll(
      [
        { id: 'a', name: 'scan_orders', arguments: { batches: 1 } },
        { id: 'b', name: 'scan_orders', arguments: { batches: 2 } },
      ],
      { onProgress: ({ callId, progress }) => seen.push(`${callId}:${progress.completed}`) },
    );
    expect(seen.sort()).toEqual(['a:1', 'b:1', 'b:2']);
  });

  it('are copied: only the three fields, long messages cut, later changes to the object not seen', async () => {
    const events: unknown[] = [];
    const sneaky = defineTool({
      name: 'sneaky',
      description: 'Reports odd progress.',
      input: v.object({}),
      execute: (_input, ctx) => {
        const report = { message: 'x'.repeat(2000), completed: 1, extra: { secret: true } };
        ctx.progress(report);
        report.completed = 99;
        return 'ok';
      },
    });
    await createExecutor({ registry: [sneaky] }).execute({ id: 'c1', name: 'sneaky', arguments: {} }, { onProgress: ({ progress }) => events.push(progress) });
    expect(events).toEqual([{ message: `${'x'.repeat(499)}…`, completed: 1 }]);
  });

  it.each([
    ['a string', 'half done'],
    ['an empty object', {}],
    ['a number message', { message: 3 }],
    ['a negative count', { completed: -1 }],
    ['NaN', { completed: Number.NaN }],
    ['an infinite total', { total: Number.POSITIVE_INFINITY }],
  ])('a malformed report (%s) fails the call as the tool’s own error, listener or not', async (_label, report) => {
    const bad = defineTool({
      name: 'bad_progress',
      description: 'Reports malformed progress.',
      input: v.object({}),
      execute: (_input, ctx) => {
        ctx.progress(report as never);
        return 'unreachable';
      },
    });
    const e = createExecutor({ registry: [bad] });
    for (const options of [{}, { onProgress: () => {} }]) {
      const result = await e.execute({ id: 'c1', name: 'bad_progress', arguments: {} }, options);
      expect(code(result.outcome)).toBe('execution-failed');
      expect(result.content).toMatch(/progress/);
    }
  });

  it('progressText: the message, else the counts (a total only when positive), else "working"', () => {
    expect(progressText({ message: 'Scanning', completed: 2, total: 5 })).toBe('Scanning');
    expect(progressText({ completed: 2, total: 5 })).toBe('2 of 5');
    expect(progressText({ completed: 2 })).toBe('2 done');
    expect(progressText({ completed: 2, total: 0 })).toBe('2 done');
    expect(progressText({ total: 5 })).toBe('working');
  });

  it('a listener that throws does not fail the call', async () => {
    const result = await createExecutor({ registry: [scan] }).execute(
      { id: 'c1', name: 'scan_orders', arguments: { batches: 2 } },
      {
        onProgress: () => {
          throw new Error('broken UI');
        },
      },
    );
    expect(result.outcome).toEqual({ type: 'success', output: { batches: 2 } });
  });

  it('none arrive after the call ended: a timed-out or aborted tool that goes on reports to nobody', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reportedAfter = false;
    const slow = defineTool({
      name: 'slow',
      description: 'Reports after a while.',
      input: v.object({}),
      policy: { timeoutMs: 20 },
      execute: async (_input, ctx) => {
        ctx.progress({ message: 'started' });
        await gate;
        ctx.progress({ message: 'too late' });
        reportedAfter = true;
        return 'late';
      },
    });
    const messages: (string | undefined)[] = [];
    const e = createExecutor({ registry: [slow] });
    const timedOut = await e.execute({ id: 'c1', name: 'slow', arguments: {} }, { onProgress: ({ progress }) => messages.push(progress.message) });
    expect(code(timedOut.outcome)).toBe('timeout');
    const controller = new AbortController();
    const aborted = e.execute({ id: 'c2', name: 'slow', arguments: {} }, { signal: controller.signal, onProgress: ({ progress }) => messages.push(progress.message) });
    await Promise.resolve();
    controller.abort();
    expect(code((await aborted).outcome)).toBe('aborted');
    release();
    await vi.waitFor(() => expect(reportedAfter).toBe(true));
    expect(messages).toEqual(['started', 'started']);
  });

  it('interceptors can report too, through the same context', async () => {
    const events: string[] = [];
    const e = createExecutor({
      registry: [scan],
      interceptors: [
        async (ctx, next) => {
          ctx.progress({ message: 'queued' });
          return next();
        },
      ],
    });
    await e.execute({ id: 'c1', name: 'scan_orders', arguments: { batches: 1 } }, { onProgress: ({ progress }) => events.push(progress.message ?? '') });
    expect(events).toEqual(['queued', 'Scanned batch 1']);
  });
});

describe('executor.refuse: a call its caller refused before it could run', () => {
  it('gets the result, masked trace record and error policy of the executor’s own refusals; nothing runs', async () => {
    const ran: unknown[] = [];
    const login = defineTool({
      name: 'login',
      description: '',
      input: v.object({ user: v.string(), password: v.string() }),
      interceptors: [redact({ fields: ['password'] })],
      execute: (input) => ran.push(input),
    });
    const traces: TraceRecord[] = [];
    const executor = createExecutor({ registry: [login], onTrace: (t) => traces.push(t) });
    const call = { id: 'c1', name: 'login', arguments: '{"user":"ada","password":"hunter2"}' };
    const error = new ToolError('invalid-input', 'Refused by the caller.', { toolName: 'login', callId: 'c1' });
    const result = await executor.refuse(call, error, { run: createRunContext({ conversationId: 'conv-r' }) });
    expect(ran).toEqual([]);
    expect(result).toMatchObject({ call, isError: true, parts: undefined, returnDirect: false, spans: [], content: 'Error (invalid-input): Refused by the caller.' });
    expect(result.tool).toBe(login);
    expect(result.outcome).toEqual({ type: 'error', error });
    expect(traces).toEqual([expect.objectContaining({ callId: 'c1', conversationId: 'conv-r', input: { user: 'ada', password: '[redacted]' }, errorCode: 'invalid-input', attempts: 0 })]);
    // The same masking as a call the executor refuses itself (here: invalid input, then a prototype key).
    await executor.execute({ id: 'c2', name: 'login', arguments: '{"user":1,"password":"hunter2"}' });
    expect(traces[1]?.input).toEqual({ user: 1, password: '[redacted]' });
    const keyed = await executor.execute({ id: 'c3', name: 'login', arguments: '{"user":"ada","password":"hunter2","__proto__":{}}' });
    expect(keyed.outcome).toMatchObject({ type: 'error', error: { code: 'invalid-json' } });
    expect(traces[2]).toMatchObject({ callId: 'c3', errorCode: 'invalid-json', input: JSON.parse('{"user":"ada","password":"[redacted]","__proto__":{}}') });
    await executor.refuse({ id: 'c4', name: 'login', arguments: '{"password":"hunter2","__proto__":{}}' }, error);
    expect(traces[3]?.input).toEqual(JSON.parse('{"password":"[redacted]","__proto__":{}}'));
    expect(JSON.stringify(traces)).not.toContain('hunter2');

    const throwing = createExecutor({ registry: createRegistry({ tools: [login], onError: 'throw' }) });
    await expect(throwing.refuse(call, error)).rejects.toBe(error);
  });
});
