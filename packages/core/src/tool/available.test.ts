import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { createRunContext } from '../context/run-context.ts';
import { createExecutor } from '../executor/executor.ts';
import { createRegistry } from '../registry/registry.ts';
import { lazyResolver } from '../registry/resolvers.ts';
import { createTicketSigner } from '../tickets/index.ts';
import { availableTools, isToolAvailable } from './available.ts';
import { defineTool, withDeps } from './define-tool.ts';

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

  it('defineTool refuses an `available` that is not a function', () => {
    expect(() => defineTool({ name: 'x', description: 'x', input: v.object({}), policy: { available: true as never } })).toThrow(
      'Tool "x": available must be a function (run) => boolean.',
    );
  });
});
