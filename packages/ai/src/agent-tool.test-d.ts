import {
  type AnyTool,
  createExecutor,
  createRegistry,
  createRunContext,
  createTicketSigner,
  defineTool,
  jsonSchema,
  type InferToolInput,
  type InferToolOutput,
  type ModelContent,
  type RunContext,
  type Tool,
  type ToolDeps,
  type ToolRegistry,
  withDeps,
} from '@edgetool/core';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { type AgentToolInput, agentTool } from './agent-tool.ts';
import { type ChatAgent, createChatAgent } from './chat/chat-agent.ts';
import type { AgentToolOutput } from './chat/usage.ts';
import { scriptedModel } from './testing/mock-model.ts';

interface Db {
  query(sql: string): string;
}
interface Mail {
  send(to: string): void;
}
const { defineTool: defineWithDb } = withDeps<{ db: Db }>();
const { defineTool: defineWithMail } = withDeps<{ mail: Mail }>();
const lookup = defineWithDb({ name: 'lookup', description: '', input: v.object({ id: v.string() }), execute: ({ id }, ctx) => ctx.run.deps.db.query(id) });
const notify = defineWithMail({ name: 'notify', description: '', input: v.object({ to: v.string() }), execute: ({ to }, ctx) => ctx.run.deps.mail.send(to) });
const plain = defineTool({ name: 'plain', description: '', input: v.object({}), execute: () => 1 });
const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'a-type-test-secret-of-32-bytes-!!' }] });
const db: Db = { query: (sql) => sql };
const mail: Mail = { send: () => {} };
const call = { id: 'c1', name: 'analyst', arguments: { task: 'Summarise the delays' } };

describe('agentTool types: the tool keeps its input, its output and its agent’s deps', () => {
  it('its input and output are what defineTool infers for them', async () => {
    const analyst = await agentTool({ name: 'analyst', description: '', agent: createChatAgent({ model: scriptedModel(), tools: [plain], tickets }) });
    expectTypeOf(analyst).toEqualTypeOf<Tool<AgentToolInput, AgentToolOutput, unknown>>();
    expectTypeOf<InferToolInput<typeof analyst>>().toEqualTypeOf<{ task: string }>();
    expectTypeOf<InferToolOutput<typeof analyst>>().toEqualTypeOf<{ readonly answer: string; readonly usage: AgentToolOutput['usage'] }>();
    // The same types defineTool gives a tool with the same input schema and output.
    const same = defineTool({ name: 'same', description: '', input: v.object({ task: v.pipe(v.string(), v.minLength(1)) }), execute: (): AgentToolOutput => ({ answer: '', usage: {} }) });
    expectTypeOf<InferToolInput<typeof analyst>>().toEqualTypeOf<InferToolInput<typeof same>>();
    expectTypeOf<InferToolOutput<typeof analyst>>().toEqualTypeOf<InferToolOutput<typeof same>>();
    expectTypeOf<NonNullable<typeof analyst.execute>>().parameter(0).toEqualTypeOf<{ task: string }>();
    expectTypeOf<NonNullable<typeof analyst.execute>>().returns.toEqualTypeOf<AgentToolOutput | Promise<AgentToolOutput>>();
    expectTypeOf<NonNullable<typeof analyst.toModelOutput>>().parameter(0).toEqualTypeOf<AgentToolOutput>();
    expectTypeOf<NonNullable<typeof analyst.toModelOutput>>().returns.toEqualTypeOf<ModelContent>();
    // It still goes wherever any tool goes.
    const tools: AnyTool[] = [analyst, plain];
    void tools;
  });

  it('it is typed by its agent’s deps, from a list of tools or a registry', async () => {
    const fromList = await agentTool({ name: 'analyst', description: '', agent: createChatAgent({ model: scriptedModel(), tools: [lookup, plain], tickets }) });
    expectTypeOf(fromList).toEqualTypeOf<Tool<AgentToolInput, AgentToolOutput, { db: Db }>>();
    expectTypeOf<ToolDeps<typeof fromList>>().toEqualTypeOf<{ db: Db }>();
    const registry = createRegistry({ tools: [lookup, notify] });
    const fromRegistry = await agentTool({ name: 'clerk', description: '', agent: createChatAgent({ model: scriptedModel(), tools: registry, tickets }) });
    expectTypeOf<ToolDeps<typeof fromRegistry>>().toEqualTypeOf<{ db: Db } & { mail: Mail }>();
    // An agent typed only as `ChatAgent` (its deps unknown) makes a tool that needs none.
    const untyped: ChatAgent = createChatAgent({ model: scriptedModel(), tools: [lookup], tickets });
    expectTypeOf(await agentTool({ name: 'any', description: '', agent: untyped })).toEqualTypeOf<Tool<AgentToolInput, AgentToolOutput, unknown>>();
    // @ts-expect-error: the agent's tools need a db, not a mailer
    void agentTool<{ mail: Mail }>({ name: 'analyst', description: '', agent: createChatAgent({ model: scriptedModel(), tools: [lookup], tickets }) });
  });

  it('a registry or chat agent made with it needs its agent’s deps in the outer run, with the other tools’', async () => {
    const analyst = await agentTool({ name: 'analyst', description: '', agent: createChatAgent({ model: scriptedModel(), tools: [lookup], tickets }) });
    const registry = createRegistry({ tools: [analyst, notify], available: (run) => run.deps.db.query('staff?') === 'yes' && run.deps.mail !== undefined });
    expectTypeOf(registry).toEqualTypeOf<ToolRegistry<{ db: Db } & { mail: Mail }>>();
    const outer = createChatAgent({ model: scriptedModel(), tools: [analyst, notify], tickets });
    expectTypeOf(outer).toEqualTypeOf<ChatAgent<{ db: Db } & { mail: Mail }>>();
    void outer.generate({ messages: 'hi', run: createRunContext({ deps: { db, mail } }) });
    // @ts-expect-error: the outer run lacks the db the inner agent's tools read
    void outer.generate({ messages: 'hi', run: createRunContext({ deps: { mail } }) });
    // @ts-expect-error: a db that is not the one the inner agent's tools read
    void outer.stream({ messages: 'hi', run: createRunContext({ deps: { db: { query: 42 }, mail } }) });
    const fromRegistry = createChatAgent({ model: scriptedModel(), tools: registry, tickets, instructions: (run) => run.deps.db.query('instructions') });
    expectTypeOf(fromRegistry).toEqualTypeOf<ChatAgent<{ db: Db } & { mail: Mail }>>();
    // @ts-expect-error: the registry's agent tool needs a db too
    void fromRegistry.generate({ messages: 'hi', run: createRunContext({ deps: { mail } }) });
    // Alone, the agent tool needs only its agent's deps.
    const alone = createChatAgent({ model: scriptedModel(), tools: [analyst, plain], tickets });
    void alone.generate({ messages: 'hi', run: createRunContext({ deps: { db } }) });
    // @ts-expect-error: the outer deps lack what the inner agent needs
    void alone.generate({ messages: 'hi', run: createRunContext({ deps: { mail } }) });
  });

  it('an executor made with it asks for those deps, and an agent tool inside an agent tool carries them up', async () => {
    const analyst = await agentTool({ name: 'analyst', description: '', agent: createChatAgent({ model: scriptedModel(), tools: [lookup], tickets }) });
    const executor = createExecutor({ registry: [analyst] });
    void executor.execute(call, { run: createRunContext({ deps: { db } }) });
    // @ts-expect-error: a call without the inner agent's deps
    void executor.execute(call);
    const lead = await agentTool({ name: 'lead', description: '', agent: createChatAgent({ model: scriptedModel(), tools: [analyst, notify], tickets }) });
    expectTypeOf<ToolDeps<typeof lead>>().toEqualTypeOf<{ db: Db } & { mail: Mail }>();
    const top = createChatAgent({ model: scriptedModel(), tools: [lead], tickets });
    void top.generate({ messages: 'hi', run: createRunContext({ deps: { db, mail } }) });
    // @ts-expect-error: two levels down, the analyst still needs its db
    void top.generate({ messages: 'hi', run: createRunContext({ deps: { mail } }) });
    // Inside, the call's run is the outer run, typed by the deps the inner turn is given.
    const execute = analyst.execute;
    if (execute !== undefined) expectTypeOf<Parameters<typeof execute>[1]['run']>().toEqualTypeOf<RunContext<{ db: Db }>>();
  });

  it('an agent whose tools need nothing makes a tool any run may call', async () => {
    const helper = await agentTool({ name: 'helper', description: '', agent: createChatAgent({ model: scriptedModel(), tools: [plain], tickets }) });
    void createChatAgent({ model: scriptedModel(), tools: [helper], tickets }).generate({ messages: 'hi', run: createRunContext() });
    void createExecutor({ registry: [helper, plain] }).execute(call);
  });

  it('with output, the answer is the schema’s output type, beside the usage, and the deps stay the agent’s', async () => {
    const Delay = v.object({ order_id: v.string(), days_late: v.pipe(v.string(), v.transform(Number)) });
    const analyst = await agentTool({ name: 'analyst', description: '', agent: createChatAgent({ model: scriptedModel(), tools: [lookup], tickets }), output: Delay });
    expectTypeOf(analyst).toEqualTypeOf<Tool<AgentToolInput, AgentToolOutput<{ order_id: string; days_late: number }>, { db: Db }>>();
    expectTypeOf<InferToolOutput<typeof analyst>>().toEqualTypeOf<{ readonly answer: { order_id: string; days_late: number }; readonly usage: AgentToolOutput['usage'] }>();
    expectTypeOf<NonNullable<typeof analyst.toModelOutput>>().returns.toEqualTypeOf<ModelContent>();
    // The text answer is the default.
    expectTypeOf<AgentToolOutput>().toEqualTypeOf<AgentToolOutput<string>>();
    // zod and jsonSchema<T>() give theirs, and the tool's output and toModelOutput follow.
    const fromZod = await agentTool({ name: 'z', description: '', agent: createChatAgent({ model: scriptedModel(), tools: [plain], tickets }), output: z.object({ city: z.string() }) });
    expectTypeOf<InferToolOutput<typeof fromZod>>().toEqualTypeOf<AgentToolOutput<{ city: string }>>();
    const fromJson = await agentTool({ name: 'j', description: '', agent: createChatAgent({ model: scriptedModel(), tools: [plain], tickets }), output: jsonSchema<{ n: number }>({ type: 'object' }) });
    expectTypeOf(fromJson).toEqualTypeOf<Tool<AgentToolInput, AgentToolOutput<{ n: number }>, unknown>>();
    expectTypeOf<NonNullable<typeof fromJson.toModelOutput>>().parameter(0).toEqualTypeOf<AgentToolOutput<{ n: number }>>();
    // @ts-expect-error: an output is a schema
    void agentTool({ name: 'x', description: '', agent: createChatAgent({ model: scriptedModel(), tools: [plain], tickets }), output: { days_late: 'number' } });
  });
});
