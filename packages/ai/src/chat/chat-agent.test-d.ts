import {
  createRegistry,
  createRunContext,
  createTicketSigner,
  defineTool,
  type ExecutorOptions,
  type ToolError,
  type ToolErrorMessage,
  type ToolUsage,
  withDeps,
} from '@edgetool/core';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { scriptedModel } from '../testing/mock-model.ts';
import type { AISDKToolsOptions } from './ai-tools.ts';
import { type ChatAgent, type ChatAgentOptions, createChatAgent } from './chat-agent.ts';
import type { EdgetoolMessageMetadata } from './protocol.ts';
import { generateTextTurn, type TextTurnRequest } from './text-turn.ts';
import type { MessageUsage } from './usage.ts';
import type { RecordedCallResult } from './call-results.ts';
import type { VerifyContinuationOptions } from './verify-continuation.ts';

interface Db {
  query(sql: string): string;
}
const { defineTool: defineWithDb } = withDeps<{ db: Db }>();
const lookup = defineWithDb({ name: 'lookup', description: '', input: v.object({ id: v.string() }), execute: ({ id }, ctx) => ctx.run.deps.db.query(id) });
const plain = defineTool({ name: 'plain', description: '', input: v.object({}), execute: () => 1 });
const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'a-type-test-secret-of-32-bytes-!!' }] });
const db: Db = { query: (sql) => sql };

describe('chat agent types: every turn brings what the tools need', () => {
  it('is typed by the deps of its tools', () => {
    const agent = createChatAgent({ model: scriptedModel(), tools: [lookup, plain], tickets });
    expectTypeOf(agent).toEqualTypeOf<ChatAgent<{ db: Db }>>();
    void agent.generate({ messages: 'hi', run: createRunContext({ deps: { db } }) });
    void agent.stream({ messages: 'hi', run: createRunContext({ deps: { db } }) });
    void generateTextTurn(agent, { messages: 'hi', run: createRunContext({ deps: { db } }) });
    // @ts-expect-error a run without the deps
    void agent.generate({ messages: 'hi', run: createRunContext() });
    // @ts-expect-error the text turn too
    void generateTextTurn(agent, { messages: 'hi', run: createRunContext() });
  });

  it('instructions made per run get the run typed by those deps; the agent still fits where any agent goes', async () => {
    const agent = createChatAgent({
      model: scriptedModel(),
      tools: [lookup, plain],
      tickets,
      instructions: (run) => {
        expectTypeOf(run.deps).toEqualTypeOf<{ db: Db }>();
        return run.deps.db.query('instructions');
      },
      settings: { temperature: 0.3, providerOptions: { openai: { store: false } }, toolChoice: { type: 'tool', toolName: 'lookup' } },
    });
    expectTypeOf(agent).toEqualTypeOf<ChatAgent<{ db: Db }>>();
    const any: ChatAgent = agent;
    void any;
    // @ts-expect-error instructions are text
    createChatAgent({ model: scriptedModel(), tools: [plain], tickets, instructions: () => 42 });
    // @ts-expect-error settings are the AI SDK's call options
    createChatAgent({ model: scriptedModel(), tools: [plain], tickets, settings: { temperature: 'hot' } });
    const result = await agent.generate({ messages: 'hi', run: createRunContext({ deps: { db } }), settings: { maxOutputTokens: 100 } });
    expectTypeOf(result.usage.totalTokens).toEqualTypeOf<number | undefined>();
    expectTypeOf(result.message.metadata?.usage?.totalTokens).toEqualTypeOf<number | undefined>();
    const turn = await agent.stream({ messages: 'hi', run: createRunContext({ deps: { db } }) });
    expectTypeOf(turn.usage).resolves.toHaveProperty('inputTokens');
  });

  it('a token budget is a number, and the limit a turn stopped at is one of two words', async () => {
    const agent = createChatAgent({ model: scriptedModel(), tools: [plain], tickets, tokenBudget: 50_000 });
    const result = await agent.generate({ messages: 'hi', run: createRunContext(), tokenBudget: 2_000 });
    expectTypeOf(result.limit).toEqualTypeOf<'steps' | 'tokens' | undefined>();
    expectTypeOf(result.message.metadata?.limit).toEqualTypeOf<'steps' | 'tokens' | undefined>();
    expectTypeOf((await generateTextTurn(agent, { messages: 'hi', run: createRunContext(), tokenBudget: 10 })).limit).toEqualTypeOf<'steps' | 'tokens' | undefined>();
    // @ts-expect-error a budget is a number of tokens
    createChatAgent({ model: scriptedModel(), tools: [plain], tickets, tokenBudget: '50k' });
  });

  it('a message’s usage is the core’s ToolUsage: what tools report, what each call’s result and the text turn’s onUsage carry', async () => {
    expectTypeOf<MessageUsage>().toEqualTypeOf<ToolUsage>();
    expectTypeOf<EdgetoolMessageMetadata['usage']>().toEqualTypeOf<ToolUsage | undefined>();
    expectTypeOf<NonNullable<TextTurnRequest['onUsage']>>().parameter(0).toEqualTypeOf<ToolUsage>();
    const agent = createChatAgent({ model: scriptedModel(), tools: [plain], tickets });
    const result = await generateTextTurn(agent, { messages: 'hi', run: createRunContext(), onUsage: (usage) => void usage.totalTokens });
    expectTypeOf(result.toolResults[0]?.usage).toEqualTypeOf<ToolUsage | undefined>();
    // @ts-expect-error onUsage gets flat counts, not the AI SDK's usage
    void generateTextTurn(agent, { messages: 'hi', run: createRunContext(), onUsage: (usage: { inputTokenDetails: unknown }) => usage });
  });

  it('a text turn’s clientTools is pending or omit', () => {
    expectTypeOf<TextTurnRequest['clientTools']>().toEqualTypeOf<'pending' | 'omit' | undefined>();
    const agent = createChatAgent({ model: scriptedModel(), tools: [plain], tickets });
    void generateTextTurn(agent, { messages: 'hi', run: createRunContext(), clientTools: 'omit' });
    // @ts-expect-error a choice, not a flag
    void generateTextTurn(agent, { messages: 'hi', run: createRunContext(), clientTools: false });
  });

  it('a registry made from those tools types the agent the same way', () => {
    const agent = createChatAgent({ model: scriptedModel(), tools: createRegistry({ tools: [lookup, plain], onError: 'report' }), tickets });
    expectTypeOf(agent).toEqualTypeOf<ChatAgent<{ db: Db }>>();
    void agent.generate({ messages: 'hi', run: createRunContext({ deps: { db } }) });
    // @ts-expect-error a run without the deps
    void agent.generate({ messages: 'hi', run: createRunContext() });
  });

  it('tools that need nothing take any run', () => {
    const agent = createChatAgent({ model: scriptedModel(), tools: [plain], tickets });
    void agent.generate({ messages: 'hi', run: createRunContext() });
    void generateTextTurn(agent, { messages: 'hi', run: createRunContext({ deps: { anything: 1 } }) });
  });
});

describe('chat agent types: toolErrorMessage', () => {
  it("takes the executor's presets and functions, for UI and text turns alike", () => {
    expectTypeOf<ChatAgentOptions['toolErrorMessage']>().toEqualTypeOf<ToolErrorMessage | undefined>();
    void createChatAgent({ model: scriptedModel(), tools: [plain], tickets, toolErrorMessage: 'hide-unexpected' });
    void createChatAgent({ model: scriptedModel(), tools: [plain], tickets, toolErrorMessage: (error, call) => (error.unexpected ? `Failed (${call.id}).` : undefined) });
    // @ts-expect-error not a preset
    void createChatAgent({ model: scriptedModel(), tools: [plain], tickets, toolErrorMessage: 'hide-all' });
  });
});

describe('verifyContinuation types', () => {
  it('takes the result store lookup the chat loop passes (optional)', () => {
    expectTypeOf<VerifyContinuationOptions['recorded']>().toEqualTypeOf<
      ((toolCallId: string, ticket: string) => Promise<RecordedCallResult | undefined> | RecordedCallResult | undefined) | undefined
    >();
  });
});

describe('onLateCheck types: the chat agent and toAISDKTools take the executor listener', () => {
  it('hears of a late availability check with its ToolError and the tool name', () => {
    type Listener = ((error: ToolError, name: string) => void) | undefined;
    expectTypeOf<ChatAgentOptions['onLateCheck']>().toEqualTypeOf<Listener>();
    expectTypeOf<AISDKToolsOptions['onLateCheck']>().toEqualTypeOf<Listener>();
    expectTypeOf<ChatAgentOptions['onLateCheck']>().toEqualTypeOf<ExecutorOptions['onLateCheck']>();
  });
});
