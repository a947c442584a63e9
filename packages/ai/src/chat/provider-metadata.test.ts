import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart, LanguageModelV4StreamResult } from '@ai-sdk/provider';
import { createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import { convertArrayToReadableStream } from 'ai/test';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { refused } from '../test-support/chat-streams.ts';
import { addToolOutput, mapToolPart, respondToApproval, type ToolPartLike, userSays } from '../testing/client.ts';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { createChatAgent } from './chat-agent.ts';
import { type EdgetoolUIMessage, SEAL_PART, type SealPartData, TICKET_PART, type TicketPartData } from './protocol.ts';

const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'provider-metadata-secret-32-bytes!!!' }] });
const run = () => createRunContext({ conversationId: 'conv-meta' });
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
/** What Gemini 3 needs back with each function call of a turn. */
const signature = { google: { thoughtSignature: 'sig-from-the-model' } };

/** A step with one tool call that carries the provider's metadata. */
function callWithMetadata(toolCallId: string, toolName: string, input: unknown, providerMetadata = signature): LanguageModelV4StreamResult {
  const json = JSON.stringify(input);
  return {
    stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
      { type: 'stream-start', warnings: [] },
      { type: 'tool-call', toolCallId, toolName, input: json, providerMetadata },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
    ]),
  };
}

function fixture(...steps: LanguageModelV4StreamResult[]) {
  const refunds: unknown[] = [];
  const tools = [
    defineTool({ name: 'query_order', description: 'Look up', input: v.object({ order_id: v.string() }), execute: ({ order_id }) => ({ order_id, status: 'shipped' }) }),
    defineTool({ name: 'pick_date', description: 'The user picks a date', input: v.object({ question: v.string() }), policy: { runsOn: 'client' } }),
    defineTool({ name: 'refund_order', description: 'Refund', input: v.object({ order_id: v.string() }), policy: { effects: 'write' }, execute: (i) => refunds.push(i) }),
  ];
  const model = scriptedModel(...steps);
  return { model, refunds, agent: createChatAgent({ model, tools, tickets }) };
}

/** The provider options each tool call and result of a prompt carries, by call id. */
function promptMetadata(call: LanguageModelV4CallOptions | undefined): Record<string, unknown> {
  const seen: Record<string, unknown> = {};
  for (const message of call?.prompt ?? []) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call' || part.type === 'tool-result') seen[`${part.type} ${part.toolCallId}`] = part.providerOptions;
    }
  }
  return seen;
}

const withPart = (messages: EdgetoolUIMessage[], id: string, change: (part: ToolPartLike & Record<string, unknown>) => ToolPartLike) =>
  mapToolPart(messages, id, (part) => change(part as ToolPartLike & Record<string, unknown>));
const partOf = (message: EdgetoolUIMessage, id: string) => message.parts.find((p) => (p as { toolCallId?: string }).toolCallId === id && (p.type.startsWith('tool-') || p.type === 'dynamic-tool')) as Record<string, unknown>;

describe('provider metadata on tool parts a client sends back', () => {
  it('a server call’s metadata is sealed with its result and goes back to the provider; changed or removed, the history is refused', async () => {
    const { agent, model } = fixture(callWithMetadata('c1', 'query_order', { order_id: 'A-1' }), textStep('Shipped.'), textStep('Bye.'));
    const first = await agent.generate({ messages: 'Where is A-1?', run: run() });
    expect(partOf(first.message, 'c1')).toMatchObject({ state: 'output-available', callProviderMetadata: signature });
    expect(first.message.parts.filter((p) => p.type === SEAL_PART).map((p) => (p as { data: SealPartData }).data)).toEqual([expect.objectContaining({ toolCallId: 'c1', metadata: true })]);
    // The same turn's next step, and the next turn, send the signature back with the call.
    expect(promptMetadata(model.doStreamCalls[1])['tool-call c1']).toEqual(signature);
    const next = await agent.generate({ messages: userSays(first.messages, 'Thanks'), run: run() });
    expect(next.text).toBe('Bye.');
    expect(promptMetadata(model.doStreamCalls[2])['tool-call c1']).toEqual(signature);

    const changed = withPart(first.messages, 'c1', (p) => ({ ...p, callProviderMetadata: { openai: { itemId: 'fc_someone_elses' } } }));
    const removed = withPart(first.messages, 'c1', ({ callProviderMetadata: _dropped, ...p }) => p);
    for (const messages of [changed, removed]) {
      expect(await refused(agent.generate({ messages: userSays(messages, 'Thanks'), run: run() }))).toMatchObject({ problem: 'forged-result', callId: 'c1' });
    }
    expect(model.doStreamCalls).toHaveLength(3);
  });

  it('an approval carries the call’s metadata back as its ticket sealed it; changed or removed, nothing runs', async () => {
    const { agent, model, refunds } = fixture(callWithMetadata('c1', 'refund_order', { order_id: 'A-1' }), textStep('Refunded.'), textStep('Bye.'));
    const first = await agent.generate({ messages: 'Refund A-1', run: run() });
    const ticket = first.message.parts.find((p) => p.type === TICKET_PART) as { data: TicketPartData };
    expect(ticket.data.metadataSeal).toEqual(expect.any(String));
    const approved = respondToApproval(first.messages, 'c1', true);
    const changed = withPart(approved, 'c1', (p) => ({ ...p, callProviderMetadata: { google: { thoughtSignature: 'forged' } } }));
    // Removed is refused too, as from a sealed result: the ticket's metadata seal names what the answer carries back.
    const removed = withPart(approved, 'c1', ({ callProviderMetadata: _dropped, ...p }) => p);
    for (const messages of [changed, removed]) {
      expect(await refused(agent.generate({ messages, run: run() }))).toMatchObject({ problem: 'forged-approval', callId: 'c1' });
    }
    expect(refunds).toEqual([]);
    const second = await agent.generate({ messages: approved, run: run() });
    expect(refunds).toEqual([{ order_id: 'A-1' }]);
    expect(second.text).toBe('Refunded.');
    expect(promptMetadata(model.doStreamCalls[1])['tool-call c1']).toEqual(signature);
    // The result's seal covers it from now on.
    expect(partOf(second.message, 'c1')).toMatchObject({ state: 'output-available', callProviderMetadata: signature });
    expect((await agent.generate({ messages: userSays(second.messages, 'ok'), run: run() })).text).toBe('Bye.');
    expect(promptMetadata(model.doStreamCalls[2])['tool-call c1']).toEqual(signature);
  });

  it('a call handed to the browser takes its result back with the metadata its ticket sealed, and no other (nor none)', async () => {
    const { agent, model } = fixture(callWithMetadata('c1', 'pick_date', { question: 'When?' }), textStep('Booked.'));
    const first = await agent.generate({ messages: 'Book a day', run: run() });
    expect(first.pending).toEqual([expect.objectContaining({ toolCallId: 'c1', kind: 'client' })]);
    const answered = addToolOutput(first.messages, 'c1', '2026-12-24');
    const changed = withPart(answered, 'c1', (p) => ({ ...p, callProviderMetadata: { openai: { itemId: 'fc_other' } } }));
    const removed = withPart(answered, 'c1', ({ callProviderMetadata: _dropped, ...p }) => p);
    for (const messages of [changed, removed]) {
      expect(await refused(agent.generate({ messages, run: run() }))).toMatchObject({ problem: 'forged-result', callId: 'c1' });
    }
    const second = await agent.generate({ messages: answered, run: run() });
    expect(second.text).toBe('Booked.');
    expect(promptMetadata(model.doStreamCalls[1])['tool-call c1']).toEqual(signature);
  });

  it('a call the AI SDK could not parse keeps its metadata sealed as the client holds it', async () => {
    const { agent } = fixture(callWithMetadata('c1', 'no_such_tool', {}), textStep('Sorry.'), textStep('Bye.'));
    const first = await agent.generate({ messages: 'go', run: run() });
    expect(partOf(first.message, 'c1')).toMatchObject({ type: 'dynamic-tool', state: 'output-error' });
    const next = await agent.generate({ messages: userSays(first.messages, 'Thanks'), run: run() });
    expect(next.text).toBe('Bye.');
  });

  it('metadata on a part the server issued none for is dropped: the provider never reads a client’s item id', async () => {
    const { agent, model } = fixture(callsStep([['c1', 'query_order', { order_id: 'A-1' }]]), textStep('Shipped.'), textStep('Bye.'));
    const first = await agent.generate({ messages: 'Where is A-1?', run: run() });
    expect(partOf(first.message, 'c1')).not.toHaveProperty('callProviderMetadata');
    const added = withPart(first.messages, 'c1', (p) => ({ ...p, callProviderMetadata: { openai: { itemId: 'fc_stored_elsewhere' } }, resultProviderMetadata: { openai: { itemId: 'x' } } }));
    const next = await agent.generate({ messages: userSays(added, 'Thanks'), run: run() });
    expect(next.text).toBe('Bye.');
    expect(promptMetadata(model.doStreamCalls[2])).toEqual({ 'tool-call c1': undefined, 'tool-result c1': undefined });
  });

  it('a file part’s providerReference (a file in the provider’s storage) is dropped; its data goes as sent', async () => {
    const { agent, model } = fixture(textStep('A cat.'));
    const message: EdgetoolUIMessage = {
      id: 'u1',
      role: 'user',
      parts: [
        { type: 'text', text: 'What is this?' },
        { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo=', providerReference: { openai: 'file-of-another-user' } } as never,
      ],
    };
    await agent.generate({ messages: [message], run: run() });
    const parts = (model.doStreamCalls[0]?.prompt ?? []).flatMap((m): readonly { type: string }[] => (typeof m.content === 'string' ? [] : m.content));
    const file = parts.find((p) => p.type === 'file');
    expect(JSON.stringify(file)).not.toContain('file-of-another-user');
    expect(file).toMatchObject({ type: 'file', mediaType: 'image/png' });
  });
});
