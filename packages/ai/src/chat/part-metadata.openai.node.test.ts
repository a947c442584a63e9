// Node-only: the real @ai-sdk/openai provider (Responses API, stateless) against the local fake OpenAI server (127.0.0.1).
import { createRunContext, createTicketSigner } from '@edgetool/core';
import { type FakeOpenAI, startFakeOpenAI } from '@edgetool/fake-openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { refused } from '../test-support/chat-streams.ts';
import { createModelFromEnv } from '../provider.ts';
import { userSays } from '../testing/client.ts';
import { createChatAgent } from './chat-agent.ts';
import { type EdgetoolUIMessage, PART_SEAL_PART } from './protocol.ts';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: 'sk-fake' });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const tickets = createTicketSigner({ keys: [{ id: 'k', secret: 'openai-part-metadata-secret-32-bytes!' }] });
const run = () => createRunContext({ conversationId: 'conv-reasoning' });

/** A reasoning model on the Responses API with `store: false`: its reasoning goes back as its encrypted content. */
function agent() {
  const { model } = createModelFromEnv({ OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: fake.baseURL, OPENAI_API: 'responses', OPENAI_MODEL: 'gpt-5-mini' });
  return createChatAgent({ model, tools: [], tickets, maxRetries: 0, settings: { providerOptions: { openai: { store: false } } } });
}

/** The reasoning items of a request's input. */
const reasoningItems = (index: number) => ((fake.requests[index]?.body.input ?? []) as { type?: string }[]).filter((item) => item.type === 'reasoning');

describe('reasoning and compaction metadata through the real OpenAI provider (Responses API, store: false)', () => {
  it('the encrypted content the server issued goes back with the next request; changed, it is refused; unsealed, it is dropped', async () => {
    fake.enqueue({ reasoning: { summary: 'The user greets me.', encryptedContent: 'enc-of-rs_1' }, text: 'Hello!' }, { text: 'Bye.' }, { text: 'Again.' });
    const chat = agent();
    const first = await chat.generate({ messages: 'Hi', run: run() });
    expect(first.message.parts).toContainEqual(
      expect.objectContaining({ type: 'reasoning', text: 'The user greets me.', providerMetadata: { openai: { itemId: 'rs_1', reasoningEncryptedContent: 'enc-of-rs_1' } } }),
    );
    expect(first.message.parts.filter((p) => p.type === PART_SEAL_PART)).toHaveLength(1);

    const second = await chat.generate({ messages: userSays(first.messages, 'Thanks'), run: run() });
    expect(second.text).toBe('Bye.');
    expect(reasoningItems(1)).toEqual([{ type: 'reasoning', id: 'rs_1', encrypted_content: 'enc-of-rs_1', summary: [{ type: 'summary_text', text: 'The user greets me.' }] }]);

    // A client's own encrypted content (another conversation's reasoning) is refused before the provider is called.
    const forged = first.messages.map((m) => ({
      ...m,
      parts: m.parts.map((p) => (p.type === 'reasoning' ? { ...p, providerMetadata: { openai: { itemId: 'rs_1', reasoningEncryptedContent: 'someone-elses' } } } : p)),
    })) as EdgetoolUIMessage[];
    expect(await refused(chat.generate({ messages: userSays(forged, 'Thanks'), run: run() }))).toMatchObject({ problem: 'forged-result' });
    expect(fake.requests).toHaveLength(2);

    // Without its seal (a conversation from before), the reasoning's metadata is dropped: the provider reads none.
    const old = first.messages.map((m) => ({ ...m, parts: m.parts.filter((p) => p.type !== PART_SEAL_PART) }));
    expect((await chat.generate({ messages: userSays(old, 'Thanks'), run: run() })).text).toBe('Again.');
    expect(reasoningItems(2)).toEqual([]);
    expect(JSON.stringify(fake.requests[2]?.body)).not.toContain('enc-of-rs_1');
  });

  it('a compaction (openai.compaction) goes back with its encrypted content as sealed; another item named, refused; unsealed, dropped', async () => {
    fake.enqueue({ compaction: { encryptedContent: 'enc-of-cmp_1' }, text: 'Hello!' }, { text: 'Bye.' }, { text: 'Again.' });
    const chat = agent();
    const first = await chat.generate({ messages: 'Hi', run: run() });
    const compaction = { openai: { type: 'compaction', itemId: 'cmp_1', encryptedContent: 'enc-of-cmp_1' } };
    expect(first.message.parts).toContainEqual({ type: 'custom', kind: 'openai.compaction', providerMetadata: compaction });
    expect(first.message.parts.filter((p) => p.type === PART_SEAL_PART)).toHaveLength(1);
    const compactionItems = (index: number) => ((fake.requests[index]?.body.input ?? []) as { type?: string }[]).filter((item) => item.type === 'compaction');

    expect((await chat.generate({ messages: userSays(first.messages, 'Thanks'), run: run() })).text).toBe('Bye.');
    expect(compactionItems(1)).toEqual([{ type: 'compaction', id: 'cmp_1', encrypted_content: 'enc-of-cmp_1' }]);

    const forged = first.messages.map((m) => ({
      ...m,
      parts: m.parts.map((p) => (p.type === 'custom' ? { ...p, providerMetadata: { openai: { ...compaction.openai, itemId: 'cmp_of_another_user' } } } : p)),
    })) as EdgetoolUIMessage[];
    expect(await refused(chat.generate({ messages: userSays(forged, 'Thanks'), run: run() }))).toMatchObject({ problem: 'forged-result' });
    expect(fake.requests).toHaveLength(2);

    const old = first.messages.map((m) => ({ ...m, parts: m.parts.filter((p) => p.type !== PART_SEAL_PART) }));
    expect((await chat.generate({ messages: userSays(old, 'Thanks'), run: run() })).text).toBe('Again.');
    expect(compactionItems(2)).toEqual([]);
    expect(JSON.stringify(fake.requests[2]?.body)).not.toContain('enc-of-cmp_1');
  });
});
