import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { createRunContext } from '../context/run-context.ts';
import { createRegistry } from '../registry/registry.ts';
import { defineTool, withDeps } from '../tool/define-tool.ts';
import { createExecutor, type ToolExecutor, type ToolsDeps } from './executor.ts';

interface Db {
  query(sql: string): string;
}
const { defineTool: defineWithDb } = withDeps<{ db: Db }>();
const { defineTool: defineWithClock } = withDeps<{ now: () => Date }>();
const lookup = defineWithDb({ name: 'lookup', description: '', input: v.object({ id: v.string() }), execute: ({ id }, ctx) => ctx.run.deps.db.query(id) });
const today = defineWithClock({ name: 'today', description: '', input: v.object({}), execute: (_input, ctx) => ctx.run.deps.now().toISOString() });
const plain = defineTool({ name: 'plain', description: '', input: v.object({}), execute: () => 1 });
const db: Db = { query: (sql) => sql };
const call = { id: 'c1', name: 'lookup', arguments: { id: 'x' } };

describe('executor types: the run must carry what the tools need', () => {
  it('a list of tools types the executor by their deps, all of them together', () => {
    expectTypeOf<ToolsDeps<[typeof lookup, typeof plain]>>().toEqualTypeOf<{ db: Db }>();
    expectTypeOf<ToolsDeps<[typeof lookup, typeof today]>>().toEqualTypeOf<{ db: Db } & { now: () => Date }>();
    expectTypeOf<ToolsDeps<[typeof plain]>>().toEqualTypeOf<unknown>();
    expectTypeOf(createExecutor({ registry: [lookup, plain] })).toEqualTypeOf<ToolExecutor<{ db: Db }>>();
  });

  it('a call must bring a run with those deps', () => {
    const executor = createExecutor({ registry: [lookup] });
    void executor.execute(call, { run: createRunContext({ deps: { db } }) });
    void executor.executeAll([call], { run: createRunContext({ deps: { db } }) });
    // @ts-expect-error the tools need deps: a run is required
    void executor.execute(call);
    // @ts-expect-error a run without the deps
    void executor.execute(call, { run: createRunContext() });
    // @ts-expect-error deps of the wrong shape
    void executor.execute(call, { run: createRunContext({ deps: { db: 'not a db' } }) });
    // @ts-expect-error executeAll too
    void executor.executeAll([call], {});
    const both = createExecutor({ registry: [lookup, today] });
    void both.execute(call, { run: createRunContext({ deps: { db, now: () => new Date() } }) });
    // @ts-expect-error every tool's deps are needed
    void both.execute(call, { run: createRunContext({ deps: { db } }) });
  });

  it('tools that need nothing, and registries (names only known at run time), take any call as before', () => {
    void createExecutor({ registry: [plain] }).execute(call);
    void createExecutor({ registry: createRegistry({ tools: [lookup] }) }).execute(call);
    expectTypeOf(createExecutor({ registry: createRegistry({ tools: [lookup] }) })).toEqualTypeOf<ToolExecutor>();
  });
});
