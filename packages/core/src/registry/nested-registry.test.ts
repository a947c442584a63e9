import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineInterceptor } from '../chain/interceptor.ts';
import type { ToolCall, ToolInterceptor } from '../chain/types.ts';
import { createExecutor } from '../executor/executor.ts';
import { redact } from '../interceptors/redact.ts';
import type { TraceRecord } from '../interceptors/trace.ts';
import { defineTool } from '../tool/define-tool.ts';
import type { AnyTool } from '../tool/types.ts';
import { createRegistry, type ToolRegistry } from './registry.ts';
import { delegatingResolver, lazyResolver, type ToolResolver } from './resolvers.ts';

/** An interceptor that records its name each time it runs. */
function recorder(log: string[], name: string): ToolInterceptor {
  return defineInterceptor(name, (_ctx, next) => {
    log.push(name);
    return next();
  });
}

function tools(log: string[]) {
  const make = (name: string, execute: () => unknown = () => `${name} ran`) =>
    defineTool({ name, description: name, input: v.object({}), interceptors: [recorder(log, `tool:${name}`)], execute });
  return { make, team: make('team_tool'), app: make('app_tool') };
}

const call = (name: string, id = '1'): ToolCall => ({ id, name, arguments: {} });

describe('a registry nested in another keeps its interceptors and onError (they were dropped)', () => {
  it('the onion is global → outer registry → nested registry → tool → call, each layer once, direct or nested', async () => {
    const log: string[] = [];
    const { team, app } = tools(log);
    const teamRegistry = createRegistry({ tools: [team], interceptors: [recorder(log, 'team-audit')] });
    const appRegistry = createRegistry({ tools: [app], resolvers: [teamRegistry], interceptors: [recorder(log, 'app')] });
    const options = { interceptors: [recorder(log, 'global')] };
    const perCall = { interceptors: [recorder(log, 'call')] };

    const nested = createExecutor({ ...options, registry: appRegistry });
    for (const id of ['1', '2']) {
      log.length = 0;
      expect((await nested.execute(call('team_tool', id), perCall)).content).toBe('team_tool ran');
      expect(log).toEqual(['global', 'app', 'team-audit', 'tool:team_tool', 'call']);
    }
    log.length = 0;
    await nested.execute(call('app_tool'), perCall);
    expect(log).toEqual(['global', 'app', 'tool:app_tool', 'call']);

    // Used on its own, the team's registry runs its layer once too (the executor puts it outside its tools').
    log.length = 0;
    await createExecutor({ ...options, registry: teamRegistry }).execute(call('team_tool'), perCall);
    expect(log).toEqual(['global', 'team-audit', 'tool:team_tool', 'call']);

    // One copy per tool: every lookup gives the same object (the executor builds a tool's chain once per object).
    expect(appRegistry.resolve('team_tool')).toBe(appRegistry.resolve('team_tool'));
    const layers = (tool: AnyTool) => [tool.name, tool.interceptors.map((layer) => layer.name)];
    expect((await appRegistry.tools()).map(layers)).toEqual([
      ['app_tool', ['app', 'tool:app_tool']],
      ['team_tool', ['app', 'team-audit', 'tool:team_tool']],
    ]);
    // The tool itself is not changed; a registry of its own list alone still finds its tools at once (its Map).
    expect(team.interceptors).toHaveLength(1);
    expect(teamRegistry.resolve('team_tool')).not.toBeInstanceOf(Promise);
  });

  it('a registry not made by createRegistry still has its interceptors put around its tools by the executor', async () => {
    const log: string[] = [];
    const { team } = tools(log);
    const plain = createRegistry({ tools: [team] });
    const handMade: ToolRegistry = { ...plain, interceptors: [recorder(log, 'hand-made')], onError: 'report', tools: () => plain.tools() };
    delete (handMade as { '~onError'?: unknown })['~onError'];
    await createExecutor({ registry: handMade }).execute(call('team_tool'));
    expect(log).toEqual(['hand-made', 'tool:team_tool']);
  });

  it('through a delegating resolver, three registries deep, and beside `available`', async () => {
    const log: string[] = [];
    const { make } = tools(log);
    const inner = createRegistry({ tools: [make('deep')], interceptors: [recorder(log, 'inner')], available: () => true });
    const middle = createRegistry({ resolvers: [inner], interceptors: [recorder(log, 'middle')] });
    const outer = createRegistry({ resolvers: [delegatingResolver([middle, createRegistry({ tools: [make('side')] })])], interceptors: [recorder(log, 'outer')] });
    const executor = createExecutor({ registry: outer });
    await executor.execute(call('deep'));
    expect(log).toEqual(['outer', 'middle', 'inner', 'tool:deep']);
    log.length = 0;
    await executor.execute(call('side'));
    expect(log).toEqual(['outer', 'tool:side']);
  });

  it('a lazy nested registry, and a tool its resolver gets later, run its interceptors too', async () => {
    const log: string[] = [];
    const { make } = tools(log);
    const late = new Map<string, AnyTool>();
    const growing: ToolResolver = { kind: 'edgetool.resolver', names: () => [...late.keys()], resolve: (name) => late.get(name) };
    const lazyTeam = createRegistry({ resolvers: [lazyResolver({ lazy_tool: async () => make('lazy_tool') })], interceptors: [recorder(log, 'lazy-team')] });
    const growingTeam = createRegistry({ resolvers: [growing], interceptors: [recorder(log, 'growing-team')] });
    const executor = createExecutor({ registry: createRegistry({ resolvers: [lazyTeam] }) });
    const later = createExecutor({ registry: createRegistry({ resolvers: [growingTeam] }) });
    for (const id of ['1', '2']) {
      log.length = 0;
      expect((await executor.execute(call('lazy_tool', id))).content).toBe('lazy_tool ran');
      expect(log).toEqual(['lazy-team', 'tool:lazy_tool']);
    }
    expect((await later.execute(call('added'))).outcome).toMatchObject({ type: 'error', error: { code: 'unknown-tool' } });
    late.set('added', make('added'));
    log.length = 0;
    expect((await later.execute(call('added'))).content).toBe('added ran');
    expect(log).toEqual(['growing-team', 'tool:added']);
  });

  it("a nested registry's redact() masks its tools' results and trace input wherever it is mounted", async () => {
    const secret = defineTool({ name: 'secret', description: 'd', input: v.object({ token: v.string() }), execute: ({ token }) => ({ token, ok: true }) });
    const records: TraceRecord[] = [];
    const team = createRegistry({ tools: [secret], interceptors: [redact({ fields: ['token'] })] });
    const executor = createExecutor({ registry: createRegistry({ resolvers: [team] }), onTrace: (record) => records.push(record) });
    expect((await executor.execute({ id: '1', name: 'secret', arguments: { token: 't0p' } })).content).toBe('{"token":"[redacted]","ok":true}');
    await executor.execute({ id: '2', name: 'secret', arguments: { token: 42 } });
    expect(records.map((record) => record.input)).toEqual([{ token: '[redacted]' }, { token: '[redacted]' }]);
  });

  it("the nearest registry that set `onError` decides for its tools; one that set none leaves them to the outer one's", async () => {
    const { make } = tools([]);
    const fails = () => {
      throw new Error('boom');
    };
    const typed = defineTool({ name: 'typed', description: 'd', input: v.object({ n: v.number() }), execute: ({ n }) => n });
    const strictTeam = createRegistry({ tools: [make('strict_tool', fails), typed], onError: 'throw' });
    const quietTeam = createRegistry({ tools: [make('quiet_tool', fails)] });
    const seen: string[] = [];
    const judging = createRegistry({
      tools: [make('judged_tool', fails)],
      onError: (_error, failed) => {
        seen.push(failed.name);
        return 'report';
      },
    });
    const app = createRegistry({ tools: [make('app_tool', fails)], resolvers: [strictTeam, quietTeam, createRegistry({ resolvers: [judging], onError: 'throw' })] });
    const executor = createExecutor({ registry: app });
    await expect(executor.execute(call('strict_tool'))).rejects.toThrow('boom');
    expect((await executor.execute(call('quiet_tool'))).content).toBe('Error (execution-failed): boom');
    expect((await executor.execute(call('judged_tool'))).content).toBe('Error (execution-failed): boom');
    expect(seen).toEqual(['judged_tool']);
    // A failure before the chain (invalid arguments) follows the same registry.
    await expect(executor.execute({ id: '2', name: 'typed', arguments: { n: 'one' } })).rejects.toMatchObject({ code: 'invalid-input' });

    const strictApp = createExecutor({ registry: createRegistry({ tools: [make('app_tool', fails)], resolvers: [quietTeam], onError: 'throw' }) });
    await expect(strictApp.execute(call('quiet_tool'))).rejects.toThrow('boom');
    await expect(strictApp.execute(call('app_tool'))).rejects.toThrow('boom');
  });
});
