import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineInterceptor } from '../chain/interceptor.ts';
import type { ToolCall, ToolOutcome } from '../chain/types.ts';
import { createRunContext } from '../context/run-context.ts';
import { ToolError, toToolError } from '../errors/tool-error.ts';
import { type TraceRecord, trace } from '../interceptors/trace.ts';
import { createRegistry } from '../registry/registry.ts';
import { lazyResolver } from '../registry/resolvers.ts';
import { jsonSchema } from '../schema/json-schema.ts';
import { defineTool } from '../tool/define-tool.ts';
import { createExecutor, type ToolErrorMessage } from './executor.ts';

const HIDDEN = (id: string) => `Error (execution-failed): The tool failed unexpectedly (reference ${id}).`;
const errorOf = (outcome: ToolOutcome): ToolError => {
  if (outcome.type !== 'error') throw new Error(`expected an error, got ${outcome.type}`);
  return outcome.error;
};

/** A tool that fails the way its input says: each kind of throw a tool can make. */
const fails = defineTool({
  name: 'fails',
  description: 'Fails on purpose',
  input: v.object({ how: v.string() }),
  execute: async ({ how }): Promise<string> => {
    if (how === 'error') throw new Error('connect ECONNREFUSED 10.0.3.7:5432 user=billing');
    if (how === 'type-error') return (undefined as unknown as { x: string }).x;
    if (how === 'fetch') return Promise.reject(new TypeError('fetch failed: getaddrinfo ENOTFOUND billing.internal'));
    if (how === 'string') throw 'secret-token-123 rejected';
    if (how === 'object') throw { message: 'card declined', code: 402 };
    if (how === 'tool-error') throw new ToolError('execution-failed', 'The order service is down; try again in a minute.', { cause: new Error('pg: too many clients') });
    if (how === 'tool-error-code') throw new ToolError('rate-limited', 'Only 3 lookups a minute.');
    return 'ok';
  },
});

const hang = defineTool({ name: 'hang', description: 'Hangs', input: v.object({}), policy: { timeoutMs: 20 }, execute: () => new Promise<string>(() => {}) });
const once = defineTool({ name: 'once', description: 'Once per run', input: v.object({}), policy: { maxCallsPerRun: 1 }, execute: () => 'ok' });
const write = defineTool({ name: 'write', description: 'Needs an approval', input: v.object({}), policy: { effects: 'write' }, execute: () => 'written' });
const browser = defineTool({ name: 'browser', description: 'Runs in the browser', input: v.object({}), policy: { runsOn: 'client' } });
const checked = defineTool({
  name: 'checked',
  description: 'Has a precondition',
  input: v.object({ why: v.string() }),
  policy: {
    check: ({ why }) => {
      if (why === 'tool-error') throw new ToolError('invalid-input', 'Order A-1 does not exist.');
      throw new Error('SELECT * FROM orders failed: relation "orders" does not exist');
    },
  },
  execute: () => 'never',
});
const badOutput = defineTool({
  name: 'bad_output',
  description: 'Its converter throws',
  input: v.object({}),
  execute: () => ({ secret: 1 }),
  toModelOutput: () => {
    throw new Error('converter read /etc/app/secrets.json');
  },
});
const badSchema = defineTool({
  name: 'bad_schema',
  description: 'Its output schema throws',
  input: v.object({}),
  output: jsonSchema({ $ref: 'https://schemas.internal.example/x.json' }),
  execute: () => ({ a: 1 }),
});
const buggySchema = defineTool({
  name: 'buggy_schema',
  description: 'A schema library with a bug',
  input: { '~standard': { version: 1, vendor: 'buggy', validate: () => { throw new Error('schema bug at /srv/app/node_modules/x.js:12'); } } },
  jsonSchema: { type: 'object' },
  execute: () => 'never',
});
const lazy = lazyResolver({ lazy_tool: () => Promise.reject(new Error('Failed to fetch dynamically imported module: https://cdn.internal/chunk-1.js')) });
const registry = () =>
  createRegistry({ tools: [fails, hang, once, write, browser, checked, badOutput, badSchema, buggySchema, defineTool({ ...fails, name: 'open' })], resolvers: [lazy] });

describe('toolErrorMessage: what the model reads of a failure', () => {
  it('verbatim (the default): every message as it is, as before', async () => {
    for (const executor of [createExecutor({ registry: registry() }), createExecutor({ registry: registry(), toolErrorMessage: 'verbatim' })]) {
      const result = await executor.execute({ id: 'c1', name: 'fails', arguments: { how: 'error' } });
      expect(result.content).toBe('Error (execution-failed): connect ECONNREFUSED 10.0.3.7:5432 user=billing');
    }
  });

  it("'hide-unexpected' hides what a tool throws that is no ToolError: an Error, a TypeError, a rejected fetch, a string, an object with a message", async () => {
    const executor = createExecutor({ registry: registry(), toolErrorMessage: 'hide-unexpected' });
    for (const how of ['error', 'type-error', 'fetch', 'string', 'object']) {
      const result = await executor.execute({ id: `call-${how}`, name: 'fails', arguments: { how } });
      expect(result.isError).toBe(true);
      expect(result.content, how).toBe(HIDDEN(`call-${how}`));
      // The server keeps everything: the error, its code and the thrown value as its cause.
      const error = errorOf(result.outcome);
      expect(error.code).toBe('execution-failed');
      expect(error.unexpected).toBe(true);
      expect(error.cause).toBeDefined();
    }
    const plain = errorOf((await executor.execute({ id: 'c1', name: 'fails', arguments: { how: 'error' } })).outcome);
    expect(plain.message).toBe('connect ECONNREFUSED 10.0.3.7:5432 user=billing');
    expect((plain.cause as Error).message).toBe('connect ECONNREFUSED 10.0.3.7:5432 user=billing');
  });

  it('a thrown object with a string message (a fetch wrapper, an SDK) reads that message, bounded, instead of "Unknown error"', async () => {
    const executor = createExecutor({ registry: registry() });
    const declined = await executor.execute({ id: 'c1', name: 'fails', arguments: { how: 'object' } });
    expect(declined.content).toBe('Error (execution-failed): card declined');
    expect(errorOf(declined.outcome).cause).toEqual({ message: 'card declined', code: 402 });
    const long = toToolError({ message: 'x'.repeat(5000) }).message;
    expect(long).toBe(`${'x'.repeat(1000)}…`);
    expect(toToolError({ message: `${'x'.repeat(999)}😀y` }).message).toBe(`${'x'.repeat(999)}…`);
    const getter = Object.defineProperty({}, 'message', {
      get() {
        throw new Error('getter');
      },
    });
    for (const thrown of [{ message: 42 }, { code: 402 }, getter, null, undefined, 7]) expect(toToolError(thrown).message).toBe('Unknown error');
  });

  it("'hide-unexpected' keeps a ToolError the tool threw on purpose: its message was written for the model", async () => {
    const executor = createExecutor({ registry: registry(), toolErrorMessage: 'hide-unexpected' });
    const down = await executor.execute({ id: 'c1', name: 'fails', arguments: { how: 'tool-error' } });
    expect(down.content).toBe('Error (execution-failed): The order service is down; try again in a minute.');
    expect(errorOf(down.outcome).unexpected).toBe(false);
    const limited = await executor.execute({ id: 'c2', name: 'fails', arguments: { how: 'tool-error-code' } });
    expect(limited.content).toBe('Error (rate-limited): Only 3 lookups a minute.');
  });

  it("'hide-unexpected' keeps edgetool's own words: invalid JSON, unknown tool, invalid input, timeout, abort, limits, approval, placement", async () => {
    const executor = createExecutor({ registry: registry(), toolErrorMessage: 'hide-unexpected' });
    const run = createRunContext();
    const aborted = new AbortController();
    aborted.abort();
    const results = [
      await executor.execute({ id: 'c1', name: 'fails', arguments: '{"how": ' }),
      await executor.execute({ id: 'c2', name: 'nope', arguments: {} }),
      await executor.execute({ id: 'c3', name: 'fails', arguments: { how: 7 } }),
      await executor.execute({ id: 'c4', name: 'hang', arguments: {} }),
      await executor.execute({ id: 'c5', name: 'fails', arguments: { how: 'error' } }, { signal: aborted.signal }),
      await executor.execute({ id: 'c6', name: 'once', arguments: {} }, { run }),
      await executor.execute({ id: 'c7', name: 'once', arguments: {} }, { run }),
      await executor.execute({ id: 'c8', name: 'write', arguments: {} }, { approval: { approved: false, reason: 'not today' } }),
      await executor.execute({ id: 'c9', name: 'checked', arguments: { why: 'tool-error' } }),
    ];
    const shown = results.map((r) => (r.isError ? r.content.split('\n')[0] : r.outcome.type));
    expect(shown).toEqual([
      expect.stringMatching(/^Error \(invalid-json\): The arguments for "fails" are not valid JSON/),
      expect.stringMatching(/^Error \(unknown-tool\): Unknown tool "nope"\. Available tools: fails, /),
      'Error (invalid-input): Invalid arguments for "fails".',
      expect.stringMatching(/^Error \(timeout\): /),
      'Error (aborted): The call of "fails" was aborted by the caller.',
      'success',
      expect.stringMatching(/^Error \(rate-limited\): /),
      'Error (approval-denied): The user denied this call of "write"; it was not performed. Reason: not today',
      'Error (invalid-input): Order A-1 does not exist.',
    ]);
    // Issues stay, with their paths, so the model can fix its arguments.
    expect(results[2]?.content).toContain('- how: ');
    expect(results.every((r) => !r.content.includes('unexpectedly'))).toBe(true);
    const client = createExecutor({ registry: registry(), side: 'client', toolErrorMessage: 'hide-unexpected' });
    const placed = await client.execute({ id: 'c10', name: 'fails', arguments: { how: 'x' } });
    expect(placed.content).toBe('Error (wrong-placement): Tool "fails" runs on the server only and cannot run in the client.');
    const refused = await executor.acceptClientResult({ call: { id: 'c11', name: 'fails', arguments: {} }, output: 'x', ticket: undefined });
    expect(refused.content).toMatch(/^Error \(wrong-placement\): /);
  });

  it("'hide-unexpected' hides a lazy tool that fails to load, a check or interceptor that throws, and the failures edgetool quotes", async () => {
    const broken = defineInterceptor('broken', () => {
      throw new Error('redis://admin:hunter2@10.0.0.5 is unreachable');
    });
    const executor = createExecutor({ registry: registry(), toolErrorMessage: 'hide-unexpected' });
    const withBroken = createExecutor({ registry: registry(), interceptors: [broken], toolErrorMessage: 'hide-unexpected' });
    const cases = [
      await executor.execute({ id: 'c1', name: 'lazy_tool', arguments: {} }),
      await executor.execute({ id: 'c2', name: 'checked', arguments: { why: 'bug' } }),
      await withBroken.execute({ id: 'c3', name: 'open', arguments: { how: 'ok' } }),
      await executor.execute({ id: 'c4', name: 'bad_output', arguments: {} }),
      await executor.execute({ id: 'c5', name: 'bad_schema', arguments: {} }),
      await executor.execute({ id: 'c6', name: 'buggy_schema', arguments: {} }),
      await executor.refuse({ id: 'c7', name: 'open', arguments: {} }, toToolError(new Error('chunk lost'), { toolName: 'open', callId: 'c7' })),
    ];
    expect(cases.map((r) => r.content)).toEqual([
      HIDDEN('c1'),
      HIDDEN('c2'),
      HIDDEN('c3'),
      'Error (invalid-output): The tool failed unexpectedly (reference c4).',
      'Error (invalid-output): The tool failed unexpectedly (reference c5).',
      'Error (invalid-input): The tool failed unexpectedly (reference c6).',
      HIDDEN('c7'),
    ]);
    const load = errorOf(cases[0]?.outcome as ToolOutcome);
    expect(load.message).toContain('Failed to fetch dynamically imported module');
    expect(cases.map((r) => errorOf(r.outcome).unexpected)).toEqual([true, true, true, true, true, true, true]);
    // Without the option, the same calls read as they always did.
    const verbatim = createExecutor({ registry: registry() });
    expect((await verbatim.execute({ id: 'c1', name: 'lazy_tool', arguments: {} })).content).toContain('chunk-1.js');
    expect((await verbatim.execute({ id: 'c4', name: 'bad_output', arguments: {} })).content).toContain('/etc/app/secrets.json');
  });

  it('a client result: a failure the client reports is its own words (kept); a client tool that fails to load is hidden', async () => {
    const executor = createExecutor({
      registry: createRegistry({ tools: [browser], resolvers: [lazyResolver({ lazy_tool: () => Promise.reject(new Error('chunk lost')) })] }),
      toolErrorMessage: 'hide-unexpected',
    });
    const reported = await executor.acceptClientResult({ call: { id: 'c1', name: 'browser', arguments: {} }, output: 'The user closed the dialog.', isError: true, ticket: undefined });
    expect(reported.content).toBe('Error (execution-failed): The user closed the dialog.');
    const lost = await executor.acceptClientResult({ call: { id: 'c2', name: 'lazy_tool', arguments: {} }, output: 'x', ticket: undefined });
    expect(lost.content).toBe(HIDDEN('c2'));
  });

  it('the trace keeps the original: the record’s error code and call id (the reference), and onError sees the original error', async () => {
    const records: TraceRecord[] = [];
    const exported: TraceRecord[] = [];
    const seen: ToolError[] = [];
    const executor = createExecutor({
      registry: createRegistry({
        tools: [fails],
        resolvers: [lazy],
        onError: (error) => {
          seen.push(error);
          return 'report';
        },
      }),
      interceptors: [trace({ export: (record) => exported.push(record) })],
      onTrace: (record) => records.push(record),
      toolErrorMessage: 'hide-unexpected',
    });
    const result = await executor.execute({ id: 'call_42', name: 'fails', arguments: { how: 'error' } });
    await executor.execute({ id: 'call_43', name: 'lazy_tool', arguments: {} });
    expect(result.content).toBe(HIDDEN('call_42'));
    expect(records.map((r) => [r.callId, r.outcome, r.errorCode])).toEqual([
      ['call_42', 'error', 'execution-failed'],
      ['call_43', 'error', 'execution-failed'],
    ]);
    expect(exported.map((r) => [r.callId, r.errorCode])).toEqual([['call_42', 'execution-failed']]);
    expect(seen.map((e) => e.message)).toEqual(['connect ECONNREFUSED 10.0.3.7:5432 user=billing', 'Failed to fetch dynamically imported module: https://cdn.internal/chunk-1.js']);
  });

  it("a registry whose onError throws: the caller gets the original error; executor.errorMessage says what the model would read", async () => {
    const executor = createExecutor({ registry: createRegistry({ tools: [fails], onError: 'throw' }), toolErrorMessage: 'hide-unexpected' });
    const call = { id: 'c1', name: 'fails', arguments: { how: 'error' } };
    const thrown = await executor.execute(call).then(
      () => undefined,
      (error: unknown) => error as ToolError,
    );
    expect(thrown?.message).toBe('connect ECONNREFUSED 10.0.3.7:5432 user=billing');
    expect(executor.errorMessage(thrown as ToolError, call)).toBe('The tool failed unexpectedly (reference c1).');
    expect(executor.errorMessage(new ToolError('timeout', 'Too slow.'), call)).toBe('Too slow.');
    expect(createExecutor({ registry: [fails] }).errorMessage(thrown as ToolError, call)).toBe('connect ECONNREFUSED 10.0.3.7:5432 user=billing');
  });

  it('a function decides for every failure: a string replaces the message (code and issues stay), undefined keeps it', async () => {
    const asked: [string, string, boolean][] = [];
    const toolErrorMessage: ToolErrorMessage = (error, call) => {
      asked.push([call.id, error.code, error.unexpected]);
      if (error.code === 'invalid-input') return 'Those arguments do not fit.';
      return error.unexpected ? `Billing is down, sorry (ref ${call.id}).` : undefined;
    };
    const executor = createExecutor({ registry: registry(), toolErrorMessage });
    const results = await executor.executeAll([
      { id: 'c1', name: 'fails', arguments: { how: 'error' } },
      { id: 'c2', name: 'fails', arguments: { how: 'tool-error' } },
      { id: 'c3', name: 'fails', arguments: { how: 7 } },
      { id: 'c4', name: 'fails', arguments: { how: 'ok' } },
    ]);
    expect(results.map((r) => r.content.split('\n')[0])).toEqual([
      'Error (execution-failed): Billing is down, sorry (ref c1).',
      'Error (execution-failed): The order service is down; try again in a minute.',
      'Error (invalid-input): Those arguments do not fit.',
      'ok',
    ]);
    expect(results[2]?.content).toContain('- how: ');
    // Once per failure the model reads, never for a success.
    expect(asked.sort()).toEqual([
      ['c1', 'execution-failed', true],
      ['c2', 'execution-failed', false],
      ['c3', 'invalid-input', false],
    ]);
  });

  it('a function that throws or returns no string: the call keeps its result, and the model reads the hidden text (fails closed)', async () => {
    const throwing = createExecutor({
      registry: registry(),
      toolErrorMessage: () => {
        throw new Error('the message catalogue is down');
      },
    });
    const result = await throwing.execute({ id: 'c1', name: 'fails', arguments: { how: 'error' } });
    expect(result.isError).toBe(true);
    expect(result.content).toBe(HIDDEN('c1'));
    expect(errorOf(result.outcome).message).toBe('connect ECONNREFUSED 10.0.3.7:5432 user=billing');
    expect((await throwing.execute({ id: 'c2', name: 'fails', arguments: { how: 'ok' } })).content).toBe('ok');
    const untyped = createExecutor({ registry: registry(), toolErrorMessage: (() => 42) as unknown as ToolErrorMessage });
    expect((await untyped.execute({ id: 'c3', name: 'nope', arguments: {} })).content).toBe('Error (unknown-tool): The tool failed unexpectedly (reference c3).');
    // null keeps the message, as undefined does (untyped code returns either for "nothing to say").
    const keeps = createExecutor({ registry: registry(), toolErrorMessage: (() => null) as unknown as ToolErrorMessage });
    expect((await keeps.execute({ id: 'c4', name: 'fails', arguments: { how: 'error' } })).content).toBe('Error (execution-failed): connect ECONNREFUSED 10.0.3.7:5432 user=billing');
  });

  it("not called for an error the registry's onError throws (the caller reports it), nor for a pending call", async () => {
    let calls = 0;
    const count: ToolErrorMessage = () => {
      calls += 1;
      return undefined;
    };
    const throwing = createExecutor({ registry: createRegistry({ tools: [fails, write], onError: 'throw' }), toolErrorMessage: count });
    await expect(throwing.execute({ id: 'c1', name: 'fails', arguments: { how: 'error' } })).rejects.toSatisfy(ToolError.isInstance);
    expect((await throwing.execute({ id: 'c2', name: 'write', arguments: {} })).outcome.type).toBe('approval-required');
    expect(calls).toBe(0);
  });

  it('a value outside the type hides as hide-unexpected does (a typo fails closed)', async () => {
    const typo = createExecutor({ registry: registry(), toolErrorMessage: 'hide_unexpected' as never });
    expect((await typo.execute({ id: 'c1', name: 'fails', arguments: { how: 'error' } })).content).toBe(HIDDEN('c1'));
    expect((await typo.execute({ id: 'c2', name: 'fails', arguments: { how: 'tool-error' } })).content).toContain('The order service is down');
  });

  it('an edited approval keeps its note before the hidden text', async () => {
    const editable = defineTool({
      name: 'editable',
      description: 'Writes, editable',
      input: v.object({ how: v.string() }),
      policy: { effects: 'write', editable: true },
      execute: fails.execute as never,
    });
    const executor = createExecutor({ registry: [editable], toolErrorMessage: 'hide-unexpected' });
    const call: ToolCall = { id: 'c1', name: 'editable', arguments: { how: 'ok' } };
    const result = await executor.execute(call, { approval: { approved: true, input: { how: 'error' } } });
    expect(result.content.split('\n').at(-1)).toBe(HIDDEN('c1'));
    expect(result.content.split('\n').length).toBeGreaterThan(1);
  });
});

describe('ToolError.unexpected', () => {
  it('toToolError marks what it wraps, and keeps a ToolError as it is', () => {
    expect(toToolError(new Error('x')).unexpected).toBe(true);
    expect(toToolError('x').unexpected).toBe(true);
    const own = new ToolError('execution-failed', 'for the model');
    expect(own.unexpected).toBe(false);
    expect(toToolError(own)).toBe(own);
    expect(new ToolError('execution-failed', 'wrapped by hand', { unexpected: true }).unexpected).toBe(true);
  });
});
