import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { createRunContext } from '../context/run-context.ts';
import { createRegistry, type ToolRegistry } from '../registry/registry.ts';
import { defineTool, withDeps } from '../tool/define-tool.ts';
import { lazyResolver } from '../registry/resolvers.ts';
import type { ApprovalDecision } from '../interceptors/approval.ts';
import type { AnyTool, ToolPolicy, ToolPolicyInput, ToolsDeps } from '../tool/types.ts';
import type { ArgumentEdit } from './edits.ts';
import type { ToolCall, ToolContext } from '../chain/types.ts';
import type { ToolError, ToolErrorOptions } from '../errors/tool-error.ts';
import { type IdempotencyKeyOptions, idempotencyKeyOf } from '../context/idempotency-key.ts';
import { createExecutor, type ExecuteOptions, type ExecutorOptions, type ToolErrorMessage, type ToolExecutor } from './executor.ts';

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

  it('a registry made from a list of tools is typed by their deps, and so is its executor', () => {
    const registry = createRegistry({ tools: [lookup, today], onError: 'report' });
    expectTypeOf(registry).toEqualTypeOf<ToolRegistry<{ db: Db } & { now: () => Date }>>();
    const executor = createExecutor({ registry });
    expectTypeOf(executor).toEqualTypeOf<ToolExecutor<{ db: Db } & { now: () => Date }>>();
    void executor.execute(call, { run: createRunContext({ deps: { db, now: () => new Date() } }) });
    // @ts-expect-error the registry's tools need deps
    void executor.execute(call);
    // A typed registry goes wherever a registry goes.
    const any: ToolRegistry = registry;
    void any;
  });

  it('tools that need nothing, and tools from resolvers (only known at run time), take any call as before', () => {
    void createExecutor({ registry: [plain] }).execute(call);
    void createExecutor({ registry: createRegistry({ tools: [plain] }) }).execute(call);
    const lazy = createRegistry({ resolvers: [lazyResolver({ lookup: async () => lookup })] });
    expectTypeOf(lazy).toEqualTypeOf<ToolRegistry>();
    expectTypeOf(createExecutor({ registry: lazy })).toEqualTypeOf<ToolExecutor>();
    void createExecutor({ registry: lazy }).execute(call);
  });
});

describe('approving with edits', () => {
  it('types the edits of a result and the edited arguments of a decision', () => {
    const executor = createExecutor({ registry: [plain] });
    void executor.execute({ id: 'c1', name: 'plain', arguments: {} }, { approval: { approved: true, input: { anything: 1 } } }).then((result) => {
      expectTypeOf(result.edits).toEqualTypeOf<readonly ArgumentEdit[] | undefined>();
    });
    expectTypeOf<ApprovalDecision['input']>().toEqualTypeOf<unknown>();
  });

  it('suggests the input keys in policy.editable, and takes a plain list copied from another policy', () => {
    const input = v.object({ order_id: v.string(), new_date: v.string() });
    type Keys = NonNullable<ToolPolicyInput<v.InferOutput<typeof input>>['editable']>;
    expectTypeOf<readonly ['new_date']>().toExtend<Keys>();
    expectTypeOf<readonly string[]>().toExtend<Keys>();
    expectTypeOf<ToolPolicy['editable']>().toEqualTypeOf<boolean | readonly string[]>();
    const tool = defineTool({ name: 'move', description: '', input, policy: { effects: 'write', editable: ['new_date'] }, execute: () => 1 });
    void defineTool({ ...tool, policy: tool.policy, execute: () => 2 });
  });
});

describe('toolErrorMessage', () => {
  it('takes a preset or a function of the error and the call that returns the message, or undefined to keep it', () => {
    expectTypeOf<ToolErrorMessage>().toEqualTypeOf<'verbatim' | 'hide-unexpected' | ((error: ToolError, call: ToolCall) => string | undefined)>();
    expectTypeOf<ExecutorOptions['toolErrorMessage']>().toEqualTypeOf<ToolErrorMessage | undefined>();
    void createExecutor({ registry: [plain], toolErrorMessage: 'hide-unexpected' });
    void createExecutor({ registry: [plain], toolErrorMessage: 'verbatim' });
    void createExecutor({ registry: [plain], toolErrorMessage: (error, call) => (error.unexpected ? `Failed (${call.id}).` : undefined) });
    // @ts-expect-error not a preset
    void createExecutor({ registry: [plain], toolErrorMessage: 'hide' });
    // @ts-expect-error the function returns the message, not the error
    void createExecutor({ registry: [plain], toolErrorMessage: (error: ToolError) => error });
  });

  it('errorMessage on an executor, and unexpected on every ToolError', () => {
    expectTypeOf<ToolExecutor['errorMessage']>().toEqualTypeOf<(error: ToolError, call: ToolCall) => string>();
    expectTypeOf<ToolExecutor['redactOutput']>().toEqualTypeOf<(tool: AnyTool, output: unknown) => unknown>();
    expectTypeOf<ToolExecutor['redactInput']>().toEqualTypeOf<(tool: AnyTool, input: unknown) => unknown>();
    expectTypeOf<ToolError['unexpected']>().toEqualTypeOf<boolean>();
    expectTypeOf<ToolErrorOptions['unexpected']>().toEqualTypeOf<boolean | undefined>();
  });
});

describe('the idempotency key', () => {
  it('is a string on every call context, which a caller may give (or a function of the call id that makes it) and idempotencyKeyOf makes', () => {
    expectTypeOf<ToolContext['idempotencyKey']>().toEqualTypeOf<string>();
    expectTypeOf<ExecuteOptions['idempotencyKey']>().toEqualTypeOf<string | ((callId: string) => string | undefined) | undefined>();
    expectTypeOf(idempotencyKeyOf).toEqualTypeOf<(options: IdempotencyKeyOptions) => string>();
    // @ts-expect-error: the call id is required
    idempotencyKeyOf({ conversationId: 'c' });
  });
});

describe('executor types: onLateCheck', () => {
  it('hears of a late availability check with its ToolError and the tool name, as availableTools does', () => {
    expectTypeOf<ExecutorOptions['onLateCheck']>().toEqualTypeOf<((error: ToolError, name: string) => void) | undefined>();
    expectTypeOf(createExecutor).toBeCallableWith({ registry: [plain], onLateCheck: (error: ToolError, name: string) => void [error.code, name] });
  });
});
