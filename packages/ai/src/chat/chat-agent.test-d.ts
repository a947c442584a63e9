import { createRegistry, createRunContext, createTicketSigner, defineTool, withDeps } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { scriptedModel } from '../testing/mock-model.ts';
import { type ChatAgent, createChatAgent } from './chat-agent.ts';
import { generateTextTurn } from './text-turn.ts';

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
