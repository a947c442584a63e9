import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { createRunContext, type RunContext } from '../context/run-context.ts';
import { createExecutor } from '../executor/executor.ts';
import { createRegistry } from '../registry/registry.ts';
import { lazyResolver, type ToolResolver } from '../registry/resolvers.ts';
import { createTicketSigner } from '../tickets/index.ts';
import type { ToolError } from '../errors/tool-error.ts';
import { availableTools, isToolAvailable } from './available.ts';
import { defineTool, withDeps } from './define-tool.ts';
import type { AnyTool } from './types.ts';

interface Deps {
  readonly role: 'staff' | 'guest';
}
const { defineTool: defineStaffTool } = withDeps<Deps>();

const lookup = defineTool({ name: 'lookup', description: 'Anyone may look up.', input: v.object({}), execute: () => 'found' });
const refunds: unknown[] = [];
const refund = defineStaffTool({
  name: 'refund',
  description: 'Staff only.',
  input: v.object({ order_id: v.string() }),
  policy: { available: (run) => run.deps.role === 'staff' },
  execute: (input) => {
    refunds.push(input);
    return 'refunded';
  },
});

const staff = () => createRunContext({ conversationId: 'c', deps: { role: 'staff' } satisfies Deps });
const guest = () => createRunContext({ conversationId: 'c', deps: { role: 'guest' } satisfies Deps });
const code = (result: { outcome: { type: string; error?: { code: string } } }) => result.outcome.error?.code ?? result.outcome.type;

describe('policy.available: a tool only some runs may see', () => {
  it('runs for a run it is available to; for any other it is an unknown tool, and its name is not revealed', async () => {
    refunds.length = 0;
    const executor = createExecutor({ registry: [lookup, refund] });
    const call = { id: 'c1', name: 'refund', arguments: '{"order_id":"A-1"}' };
    expect((await executor.execute(call, { run: staff() })).content).toBe('refunded');
    const refused = await executor.execute(call, { run: guest() });
    expect(code(refused)).toBe('unknown-tool');
    expect(refused.content).toBe('Error (unknown-tool): Unknown tool "refund". Available tools: lookup.');
    expect(refused.tool).toBeUndefined();
    expect(refunds).toEqual([{ order_id: 'A-1' }]);
    // A name that does not exist lists only what this run may call.
    const missing = await executor.execute({ id: 'c2', name: 'nope', arguments: '{}' }, { run: guest() });
    expect(missing.content).toBe('Error (unknown-tool): Unknown tool "nope". Available tools: lookup.');
    expect((await executor.execute({ id: 'c3', name: 'nope', arguments: '{}' }, { run: staff() })).content).toContain('Available tools: lookup, refund.');
  });

  it('is asked per call with that call’s run; an async answer is awaited; a throw, a rejection or a non-boolean hides the tool', async () => {
    const answers: unknown[] = [];
    let answer: () => unknown = () => true;
    const gated = defineTool({
      name: 'gated',
      description: 'Gated.',
      input: v.object({}),
      policy: {
        available: (run) => {
          answers.push(run.conversationId);
          return answer() as boolean;
        },
      },
      execute: () => 'ran',
    });
    const executor = createExecutor({ registry: [gated] });
    const call = { id: 'c1', name: 'gated', arguments: '{}' };
    const run = (id: string) => ({ run: createRunContext({ conversationId: id }) });
    expect((await executor.execute(call, run('a'))).content).toBe('ran');
    answer = () => Promise.resolve(true);
    expect((await executor.execute(call, run('b'))).content).toBe('ran');
    const hidden: [string, () => unknown][] = [
      ['false', () => false],
      ['async false', () => Promise.resolve(false)],
      ['a throw', () => { throw new Error('directory down'); }],
      ['a rejection', () => Promise.reject(new Error('directory down'))],
      ['a truthy non-boolean', () => 'yes'],
    ];
    for (const [what, next] of hidden) {
      answer = next;
      const result = await executor.execute(call, run(what));
      expect(code(result), what).toBe('unknown-tool');
      expect(result.content, what).toBe('Error (unknown-tool): Unknown tool "gated". Available tools: (none).');
    }
    expect(answers).toEqual(['a', 'b', ...hidden.flatMap(([what]) => [what, what])]);
  });

  it('refuses a client result for a client tool the run may not see, even with a valid ticket', async () => {
    const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'a-test-secret-that-is-at-least-32-bytes-long' }] });
    let open = true;
    const pick = defineTool({ name: 'pick', description: 'The user picks.', input: v.object({}), policy: { runsOn: 'client', available: () => open } });
    const executor = createExecutor({ registry: [pick], tickets });
    const run = createRunContext({ conversationId: 'conv-1' });
    const call = { id: 'c1', name: 'pick', arguments: '{}' };
    const pending = await executor.execute(call, { run });
    const ticket = pending.outcome.type === 'client-pending' ? pending.outcome.ticket : undefined;
    expect(ticket).toBeTypeOf('string');
    open = false;
    const refused = await executor.acceptClientResult({ call, output: 'blue', ticket, run });
    expect(code(refused)).toBe('unknown-tool');
    open = true;
    expect((await executor.acceptClientResult({ call, output: 'blue', ticket, run })).content).toBe('blue');
  });

  it('acceptClientResult names the tools the run may call for an unknown or hidden tool, as execute does', async () => {
    const pick = defineStaffTool({ name: 'pick', description: 'Staff pick.', input: v.object({}), policy: { runsOn: 'client', available: (run) => run.deps.role === 'staff' } });
    const executor = createExecutor({ registry: [lookup, pick] });
    const call = { id: 'c1', name: 'pick', arguments: '{}' };
    const hidden = await executor.acceptClientResult({ call, output: 'blue', ticket: undefined, run: guest() });
    expect(hidden.content).toBe((await executor.execute(call, { run: guest() })).content);
    expect(hidden.content).toBe('Error (unknown-tool): Unknown tool "pick". Available tools: lookup.');
    const missing = await executor.acceptClientResult({ call: { id: 'c2', name: 'nope', arguments: '{}' }, output: 'blue', ticket: undefined, run: staff() });
    expect(missing.content).toBe('Error (unknown-tool): Unknown tool "nope". Available tools: lookup, pick.');
    // Without a run, a fresh one: the tools every run may call.
    const none = await executor.acceptClientResult({ call: { id: 'c3', name: 'nope', arguments: '{}' }, output: 'blue', ticket: undefined });
    expect(none.content).toBe('Error (unknown-tool): Unknown tool "nope". Available tools: lookup.');
    // A lazy tool that fails to load is a typed failure, as in execute, not a rejection.
    const registry = createRegistry({ tools: [lookup], resolvers: [lazyResolver({ broken: () => Promise.reject(new Error('chunk failed to load')) })] });
    const lazy = createExecutor({ registry });
    const broken = { id: 'c4', name: 'broken', arguments: '{}' };
    const failed = await lazy.acceptClientResult({ call: broken, output: 'blue', ticket: undefined, run: staff() });
    expect(failed.content).toBe((await lazy.execute(broken, { run: staff() })).content);
    expect(failed.content).toBe('Error (execution-failed): chunk failed to load');
  });

  it('the list of an unknown tool leaves out hidden lazy tools, and a lazy tool that fails to load', async () => {
    const loads = vi.fn();
    const registry = createRegistry({
      tools: [lookup],
      resolvers: [
        lazyResolver({
          refund: async () => {
            loads('refund');
            return refund;
          },
          broken: async () => {
            throw new Error('chunk failed to load');
          },
        }),
      ],
    });
    const executor = createExecutor({ registry });
    const result = await executor.execute({ id: 'c1', name: 'nope', arguments: '{}' }, { run: guest() });
    expect(result.content).toBe('Error (unknown-tool): Unknown tool "nope". Available tools: lookup.');
    expect(loads).toHaveBeenCalled();
  });

  it('availableTools keeps the order of the tools; isToolAvailable answers synchronously for a synchronous check', async () => {
    const late = defineTool({ name: 'late', description: 'Async check.', input: v.object({}), policy: { available: async () => true }, execute: () => 1 });
    expect((await availableTools([refund, lookup, late], staff())).map((t) => t.name)).toEqual(['refund', 'lookup', 'late']);
    expect((await availableTools([refund, lookup, late], guest())).map((t) => t.name)).toEqual(['lookup', 'late']);
    expect(isToolAvailable(lookup, guest())).toBe(true);
    expect(isToolAvailable(refund, guest())).toBe(false);
    expect(isToolAvailable(late, guest())).toBeInstanceOf(Promise);
  });

  it('availableTools leaves out a tool whose check never answers, after 10 s or at the run’s abort, and reports it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const hung = defineTool({ name: 'hung', description: 'Never answers.', input: v.object({}), policy: { available: () => new Promise<boolean>(() => {}) }, execute: () => 1 });
      const slow = defineTool({ name: 'slow', description: 'Answers.', input: v.object({}), policy: { available: async () => true }, execute: () => 1 });
      // Gated by a registry whose own check never answers: hidden the same way.
      const [gated] = await createRegistry({ tools: [lookup], available: () => new Promise<boolean>(() => {}) }).tools();
      const late: [ToolError, string][] = [];
      const onLateCheck = (error: ToolError, name: string) => late.push([error, name]);
      const listed = availableTools([hung, lookup, slow, gated as AnyTool], guest(), { onLateCheck });
      let names: string[] | undefined;
      listed.then((tools) => {
        names = tools.map((t) => t.name);
      });
      await vi.advanceTimersByTimeAsync(9_999);
      expect(names).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(names).toEqual(['lookup', 'slow']);
      expect(late.map(([error, name]) => [error.code, error.message, error.retryable, name])).toEqual([
        ['timeout', 'The availability check of "hung" did not answer within 10 s.', true, 'hung'],
        ['timeout', 'The availability check of "lookup" did not answer within 10 s.', true, 'lookup'],
      ]);
      expect(vi.getTimerCount()).toBe(0);
      // The run's abort ends the wait sooner (and no timer is left behind).
      late.length = 0;
      const controller = new AbortController();
      const run = createRunContext({ conversationId: 'c', signal: controller.signal });
      const aborted = availableTools([hung, slow], run, { onLateCheck });
      await vi.advanceTimersByTimeAsync(1); // `slow` answers first
      controller.abort();
      expect((await aborted).map((t) => t.name)).toEqual(['slow']);
      expect(late.map(([error]) => [error.code, error.message, error.retryable])).toEqual([
        ['aborted', `The availability check of "hung" did not answer before the run's signal aborted.`, false],
      ]);
      expect(vi.getTimerCount()).toBe(0);
      // Default report: the server's log, as for a tool that did not load.
      const log = vi.spyOn(console, 'error').mockImplementation(() => {});
      const logged = availableTools([hung], guest());
      await vi.advanceTimersByTimeAsync(10_000);
      expect(await logged).toEqual([]);
      expect(log).toHaveBeenCalledWith('edgetool: the tool "hung" is left out of the tools the model is shown:', expect.objectContaining({ code: 'timeout' }));
      log.mockRestore();
    } finally {
      vi.useRealTimers();
    }
  });

  it('acceptClientResult stops waiting for a check that never answers after 10 s, and reports it (it waited forever)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const hung = defineTool({ name: 'hung', description: 'Never answers.', input: v.object({}), policy: { available: () => new Promise<boolean>(() => {}) }, execute: () => 1 });
      const pick = defineTool({ name: 'pick', description: 'A client tool.', input: v.object({}), policy: { runsOn: 'client', available: () => new Promise<boolean>(() => {}) } });
      const late: [string, string, string][] = [];
      const onLateCheck = (error: ToolError, name: string) => late.push([error.code, error.message, name]);
      const executor = createExecutor({ registry: [lookup, hung, pick], onLateCheck });
      const settled = (promise: Promise<{ content: string }>) => {
        const state: { content?: string } = {};
        promise.then((result) => {
          state.content = result.content;
        });
        return state;
      };
      // An unknown tool: its list of the tools the run may call leaves the hung one out.
      const unknown = settled(executor.acceptClientResult({ call: { id: 'c1', name: 'nope', arguments: '{}' }, output: 'x', ticket: undefined, run: guest() }));
      // The result's own tool, whose check never answers: refused as unknown (fail closed), its list bounded the same.
      const own = settled(executor.acceptClientResult({ call: { id: 'c2', name: 'pick', arguments: '{}' }, output: 'x', ticket: undefined, run: guest() }));
      await vi.advanceTimersByTimeAsync(9_999);
      expect([unknown.content, own.content]).toEqual([undefined, undefined]);
      await vi.advanceTimersByTimeAsync(1);
      expect(unknown.content).toBe('Error (unknown-tool): Unknown tool "nope". Available tools: lookup.');
      expect(own.content).toBeUndefined(); // its own check's 10 s are over; now those of its list
      await vi.advanceTimersByTimeAsync(10_000);
      expect(own.content).toBe('Error (unknown-tool): Unknown tool "pick". Available tools: lookup.');
      const timedOut = (name: string) => ['timeout', `The availability check of "${name}" did not answer within 10 s.`, name];
      // Each list's two, and the own check of `pick`.
      expect(late.sort()).toEqual([timedOut('hung'), timedOut('hung'), timedOut('pick'), timedOut('pick'), timedOut('pick')]);
      expect(vi.getTimerCount()).toBe(0);
      // execute's list is bounded the same way, and reported to the same place.
      late.length = 0;
      const called = settled(executor.execute({ id: 'c3', name: 'nope', arguments: '{}' }, { run: guest() }));
      await vi.advanceTimersByTimeAsync(10_000);
      expect(called.content).toBe('Error (unknown-tool): Unknown tool "nope". Available tools: lookup.');
      expect(late.sort()).toEqual([timedOut('hung'), timedOut('pick')]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a resolver of one\'s own that never answers holds neither a client result nor an unknown tool\'s list past 10 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // Lists `stuck`, and never answers a lookup of it (a store that never replies).
      const stuck: ToolResolver = { kind: 'edgetool.resolver', names: () => ['stuck'], resolve: () => new Promise<undefined>(() => {}) };
      const late: [string, string, string][] = [];
      const onLateCheck = (error: ToolError, name: string) => late.push([error.code, error.message, name]);
      const executor = createExecutor({ registry: createRegistry({ tools: [lookup], resolvers: [stuck] }), onLateCheck });
      const settled = (promise: Promise<{ content: string }>) => {
        const state: { content?: string } = {};
        promise.then((result) => {
          state.content = result.content;
        });
        return state;
      };
      // An unknown tool's list leaves `stuck` out; the result for `stuck` itself fails as a time limit (it is not known
      // to be hidden, only not found in time).
      const unknown = settled(executor.acceptClientResult({ call: { id: 'c1', name: 'nope', arguments: '{}' }, output: 'x', ticket: undefined, run: guest() }));
      const own = settled(executor.acceptClientResult({ call: { id: 'c2', name: 'stuck', arguments: '{}' }, output: 'x', ticket: undefined, run: guest() }));
      const called = settled(executor.execute({ id: 'c3', name: 'nope', arguments: '{}' }, { run: guest() }));
      await vi.advanceTimersByTimeAsync(9_999);
      expect([unknown.content, own.content, called.content]).toEqual([undefined, undefined, undefined]);
      await vi.advanceTimersByTimeAsync(1);
      const listed = 'Error (unknown-tool): Unknown tool "nope". Available tools: lookup.';
      expect([unknown.content, own.content, called.content]).toEqual([listed, 'Error (timeout): Looking up the tool "stuck" did not answer within 10 s.', listed]);
      const lookingUp = ['timeout', 'Looking up the tool "stuck" did not answer within 10 s.', 'stuck'];
      expect(late).toEqual([lookingUp, lookingUp]);
      expect(vi.getTimerCount()).toBe(0);
      // The run's abort ends the wait sooner: the list's late lookup is reported as aborted.
      late.length = 0;
      const controller = new AbortController();
      const run = createRunContext({ conversationId: 'c', signal: controller.signal });
      const aborted = executor.acceptClientResult({ call: { id: 'c4', name: 'nope', arguments: '{}' }, output: 'x', ticket: undefined, run });
      controller.abort();
      expect((await aborted).content).toBe(listed);
      expect(late).toEqual([['aborted', `Looking up the tool "stuck" did not answer before the run's signal aborted.`, 'stuck']]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('defineTool refuses an `available` that is not a function', () => {
    expect(() => defineTool({ name: 'x', description: 'x', input: v.object({}), policy: { available: true as never } })).toThrow(
      'Tool "x": available must be a function (run) => boolean.',
    );
  });
});

describe('createRegistry({ available }): one check for every tool of a registry', () => {
  const calls: string[] = [];
  const adminTool = (name: string, available?: (run: RunContext<Deps>) => boolean | Promise<boolean>) =>
    defineStaffTool({
      name,
      description: `${name} (admin)`,
      input: v.object({}),
      ...(available ? { policy: { available } } : {}),
      execute: () => {
        calls.push(name);
        return `${name} done`;
      },
    });
  const staffOnly = (run: RunContext<Deps>) => run.deps.role === 'staff';

  it('hides every tool it resolves from a run it says no to: the list, the executor’s calls, the error’s list of names', async () => {
    calls.length = 0;
    const purge = adminTool('purge');
    const registry = createRegistry({ tools: [purge, adminTool('audit')], available: staffOnly });
    expect((await availableTools(await registry.tools(), staff())).map((t) => t.name)).toEqual(['purge', 'audit']);
    expect(await availableTools(await registry.tools(), guest())).toEqual([]);
    const executor = createExecutor({ registry });
    const call = { id: 'c1', name: 'purge', arguments: '{}' };
    expect((await executor.execute(call, { run: staff() })).content).toBe('purge done');
    const refused = await executor.execute(call, { run: guest() });
    expect(refused.content).toBe('Error (unknown-tool): Unknown tool "purge". Available tools: (none).');
    expect(refused.tool).toBeUndefined();
    expect(calls).toEqual(['purge']);
    // The same object on every lookup (the executor's per-tool chain is built once), and the tool itself is untouched.
    expect(await registry.resolve('purge')).toBe((await registry.tools())[0]);
    expect(await registry.resolve('purge')).not.toBe(purge);
    expect(purge.policy.available).toBeUndefined();
    expect(isToolAvailable(purge, guest())).toBe(true);
  });

  it('is AND-ed with each tool’s own policy.available: both must say true, the registry’s is asked first', async () => {
    const asked: string[] = [];
    let registrySays: unknown = true;
    let toolSays: unknown = true;
    const gated = adminTool('gated', () => {
      asked.push('tool');
      return toolSays as boolean;
    });
    const registry = createRegistry({
      tools: [gated, adminTool('open')],
      available: () => {
        asked.push('registry');
        return registrySays as boolean;
      },
    });
    const names = async () => (await availableTools(await registry.tools(), staff())).map((t) => t.name);
    expect(await names()).toEqual(['gated', 'open']);
    toolSays = false;
    expect(await names()).toEqual(['open']);
    registrySays = false;
    toolSays = true;
    asked.length = 0;
    expect(await names()).toEqual([]);
    expect(asked, 'the tool’s own check is not asked once the registry said no').toEqual(['registry', 'registry']);
  });

  it('fails closed: a throw, a rejection or a non-true answer of the registry’s check hides its tools; an async yes is awaited', async () => {
    let answer: () => unknown = () => Promise.resolve(true);
    const registry = createRegistry({ tools: [adminTool('purge'), adminTool('own', () => Promise.resolve(true))], available: () => answer() as boolean });
    const executor = createExecutor({ registry });
    const call = { id: 'c1', name: 'purge', arguments: '{}' };
    expect((await executor.execute(call, { run: staff() })).content).toBe('purge done');
    expect((await availableTools(await registry.tools(), staff())).map((t) => t.name)).toEqual(['purge', 'own']);
    const hidden: [string, () => unknown][] = [
      ['false', () => false],
      ['async false', () => Promise.resolve(false)],
      ['a throw', () => { throw new Error('plans service down'); }],
      ['a rejection', () => Promise.reject(new Error('plans service down'))],
      ['a truthy non-boolean', () => 1],
    ];
    for (const [what, next] of hidden) {
      answer = next;
      expect(await availableTools(await registry.tools(), staff()), what).toEqual([]);
      expect((await executor.execute(call, { run: staff() })).content, what).toBe('Error (unknown-tool): Unknown tool "purge". Available tools: (none).');
    }
  });

  it('composes when a registry is a resolver of another: the inner registry’s check, the outer one’s and the tool’s all hold', async () => {
    const asked: string[] = [];
    const check = (name: string, yes: (run: RunContext<Deps>) => boolean) => (run: RunContext<Deps>) => {
      asked.push(name);
      return yes(run);
    };
    let outerSays = true;
    const admin = createRegistry({ tools: [adminTool('purge'), adminTool('audit', check('tool', () => true))], available: check('inner', staffOnly) });
    const lazyAdmin = createRegistry({ resolvers: [lazyResolver({ rotate_keys: async () => adminTool('rotate_keys') })], available: check('lazy', staffOnly) });
    const app = createRegistry({ tools: [lookup], resolvers: [admin, lazyAdmin], available: check('outer', () => outerSays) });
    const executor = createExecutor({ registry: app });
    const visible = async (run: RunContext) => (await availableTools(await app.tools(), run)).map((t) => t.name);
    expect(await visible(staff())).toEqual(['lookup', 'purge', 'audit', 'rotate_keys']);
    expect(await visible(guest())).toEqual(['lookup']);
    asked.length = 0;
    const guessed = await executor.execute({ id: 'c1', name: 'rotate_keys', arguments: '{}' }, { run: guest() });
    expect(guessed.content).toBe('Error (unknown-tool): Unknown tool "rotate_keys". Available tools: lookup.');
    expect(asked.slice(0, 2), 'outer first, then the inner registry').toEqual(['outer', 'lazy']);
    asked.length = 0;
    expect((await executor.execute({ id: 'c2', name: 'audit', arguments: '{}' }, { run: staff() })).content).toBe('audit done');
    expect(asked).toEqual(['outer', 'inner', 'tool']);
    outerSays = false;
    expect(await visible(staff())).toEqual([]);
    // The inner registry used on its own keeps its own check only.
    expect((await availableTools(await admin.tools(), staff())).map((t) => t.name)).toEqual(['purge', 'audit']);
  });

  it('acceptClientResult refuses a result for a client tool its registry hides, even with a valid ticket', async () => {
    const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'a-test-secret-that-is-at-least-32-bytes-long' }] });
    let open = true;
    const pick = defineTool({ name: 'pick', description: 'The user picks.', input: v.object({}), policy: { runsOn: 'client' } });
    const executor = createExecutor({ registry: createRegistry({ tools: [pick], available: () => open }), tickets });
    const run = createRunContext({ conversationId: 'conv-1' });
    const call = { id: 'c1', name: 'pick', arguments: '{}' };
    const pending = await executor.execute(call, { run });
    const ticket = pending.outcome.type === 'client-pending' ? pending.outcome.ticket : undefined;
    expect(ticket).toBeTypeOf('string');
    open = false;
    expect(code(await executor.acceptClientResult({ call, output: 'blue', ticket, run }))).toBe('unknown-tool');
    open = true;
    expect((await executor.acceptClientResult({ call, output: 'blue', ticket, run })).content).toBe('blue');
  });

  it('a gated copy keeps the tool’s lazy JSON Schema lazy, and the tool’s own execute, interceptors and policy', async () => {
    let derived = 0;
    const search = defineTool({
      name: 'search',
      description: 'Search.',
      input: v.object({ q: v.string() }),
      policy: { effects: 'write', timeoutMs: 500 },
      interceptors: [(_ctx, next) => next()],
      execute: () => 'hits',
    });
    // Counts the derivations (defineTool's own getter derives on first read, once).
    Object.defineProperty(search, 'jsonSchema', {
      get: () => {
        derived++;
        return { type: 'object' };
      },
    });
    const [copy] = await createRegistry({ tools: [search], available: () => true }).tools();
    expect(derived).toBe(0);
    expect(copy?.jsonSchema).toEqual({ type: 'object' });
    expect(derived).toBe(1);
    expect(copy?.interceptors).toEqual(search.interceptors);
    expect(copy?.execute).toBe(search.execute);
    expect({ ...copy?.policy, available: undefined }).toEqual(search.policy);
  });

  it('createRegistry refuses an `available` that is not a function', () => {
    expect(() => createRegistry({ tools: [lookup], available: true as never })).toThrow('createRegistry: available must be a function (run) => boolean.');
  });
});
