import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart, LanguageModelV4StreamResult } from '@ai-sdk/provider';
import { createRunContext, createTicketSigner, defineTool, type TicketSigner } from '@edgetool/core';
import { readUIMessageStream } from 'ai';
import { convertArrayToReadableStream } from 'ai/test';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { refused } from '../test-support/chat-streams.ts';
import { respondToApproval, userSays } from '../testing/client.ts';
import { scriptedModel, textStep } from '../testing/mock-model.ts';
import { createChatAgent } from './chat-agent.ts';
import { type EdgetoolUIMessage, PART_SEAL_PART, type PartSealPartData } from './protocol.ts';

const KEY = { id: 'k1', secret: 'part-metadata-secret-of-32-bytes!!!' };
const tickets = createTicketSigner({ keys: [KEY] });
const run = () => createRunContext({ conversationId: 'conv-text-meta' });
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
/** What OpenAI's Responses API puts on a reasoning item: its id, and for a stateless turn its encrypted content. */
const reasoningMeta = { openai: { itemId: 'rs_1', reasoningEncryptedContent: 'enc-of-rs_1' } };
/** What it puts on a message item: its id (an `item_reference` with `store`). */
const textMeta = { openai: { itemId: 'msg_1' } };
/** Anthropic's thinking signature, which must come back unchanged. */
const signatureMeta = { anthropic: { signature: 'sig-from-the-model' } };

/**
 * A step that reasons (metadata on its start and end, as OpenAI's provider sends it), says a line without metadata, then
 * answers with a text whose metadata comes on its start; optionally a call after.
 */
function reasonedStep(answer: string, call?: { toolCallId: string; toolName: string; input: unknown }): LanguageModelV4StreamResult {
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'reasoning-start', id: 'r1', providerMetadata: { openai: { itemId: 'rs_1', reasoningEncryptedContent: null } } },
    { type: 'reasoning-delta', id: 'r1', delta: 'Thinking.' },
    { type: 'reasoning-end', id: 'r1', providerMetadata: reasoningMeta },
    { type: 'reasoning-start', id: 'r2', providerMetadata: signatureMeta },
    { type: 'reasoning-delta', id: 'r2', delta: 'More.' },
    { type: 'reasoning-end', id: 'r2' },
    { type: 'text-start', id: 'plain' },
    { type: 'text-delta', id: 'plain', delta: 'One moment.' },
    { type: 'text-end', id: 'plain' },
    { type: 'text-start', id: 't1', providerMetadata: textMeta },
    { type: 'text-delta', id: 't1', delta: answer },
    { type: 'text-end', id: 't1' },
  ];
  if (call !== undefined) parts.push({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: JSON.stringify(call.input) });
  parts.push({ type: 'finish', finishReason: call === undefined ? { unified: 'stop', raw: 'stop' } : { unified: 'tool-calls', raw: 'tool_calls' }, usage });
  return { stream: convertArrayToReadableStream(parts) };
}

/** A signer that counts its seals. */
function counting(signer: TicketSigner): TicketSigner & { seals: number } {
  const counted = Object.assign(Object.create(signer) as TicketSigner, { seals: 0 });
  counted.seal = (subject, options) => {
    counted.seals++;
    return signer.seal(subject, options);
  };
  return counted;
}

function fixture(steps: LanguageModelV4StreamResult[], signer: TicketSigner = tickets) {
  const refunds: unknown[] = [];
  const tools = [
    defineTool({ name: 'refund_order', description: 'Refund', input: v.object({ order_id: v.string() }), policy: { effects: 'write' }, execute: (i) => refunds.push(i) }),
  ];
  const model = scriptedModel(...steps);
  return { model, refunds, agent: createChatAgent({ model, tools, tickets: signer }) };
}

/** The text and reasoning parts of a prompt's assistant messages with the provider options each carries. */
function promptParts(call: LanguageModelV4CallOptions | undefined): { type: string; text: string; providerOptions?: unknown }[] {
  const seen: { type: string; text: string; providerOptions?: unknown }[] = [];
  for (const message of call?.prompt ?? []) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type === 'text' || part.type === 'reasoning') seen.push({ type: part.type, text: part.text, ...(part.providerOptions === undefined ? {} : { providerOptions: part.providerOptions }) });
    }
  }
  return seen;
}

/** What the provider must read back of a {@link reasonedStep}: each part's metadata, as it was issued. */
const issued = (answer: string) => [
  { type: 'reasoning', text: 'Thinking.', providerOptions: reasoningMeta },
  { type: 'reasoning', text: 'More.', providerOptions: signatureMeta },
  { type: 'text', text: 'One moment.' },
  { type: 'text', text: answer, providerOptions: textMeta },
];

/** The history with the text or reasoning parts of assistant messages changed by `change` (by their place in the message). */
function withTextParts(messages: EdgetoolUIMessage[], change: (part: Record<string, unknown>, index: number) => Record<string, unknown>): EdgetoolUIMessage[] {
  return messages.map((message) => {
    if (message.role !== 'assistant') return message;
    let index = 0;
    const parts = message.parts.map((part) => (part.type === 'text' || part.type === 'reasoning' ? change({ ...part }, index++) : part));
    return { ...message, parts } as EdgetoolUIMessage;
  });
}

const partSeals = (message: EdgetoolUIMessage) => message.parts.filter((p) => p.type === PART_SEAL_PART).map((p) => (p as { data: PartSealPartData }).data);

describe('provider metadata on text and reasoning parts a client sends back', () => {
  it('the stored conversation keeps it with a seal per step, and the provider reads it back as it was issued', async () => {
    const { agent, model } = fixture([reasonedStep('Hello.'), textStep('Bye.')]);
    const first = await agent.generate({ messages: 'Hi', run: run() });
    expect(partSeals(first.message)).toEqual([{ id: expect.any(String), seal: expect.any(String) }]);
    const next = await agent.generate({ messages: userSays(first.messages, 'Thanks'), run: run() });
    expect(next.text).toBe('Bye.');
    expect(promptParts(model.doStreamCalls[1])).toEqual(issued('Hello.'));
  });

  it('a UI turn’s chunks, folded by the AI SDK’s client, make a message whose metadata goes back to the provider', async () => {
    const { agent, model } = fixture([reasonedStep('Hello.'), textStep('Bye.')]);
    const history = userSays([], 'Hi');
    const turn = await agent.stream({ messages: history, run: run() });
    let message: EdgetoolUIMessage | undefined;
    for await (const m of readUIMessageStream<EdgetoolUIMessage>({ stream: turn.stream })) message = m;
    expect(message && partSeals(message)).toHaveLength(1);
    const next = await agent.generate({ messages: userSays([...history, message as EdgetoolUIMessage], 'Thanks'), run: run() });
    expect(next.text).toBe('Bye.');
    expect(promptParts(model.doStreamCalls[1])).toEqual(issued('Hello.'));
  });

  it('changed, moved to another part, removed, added under a seal, or a seal copied: refused before the model is called', async () => {
    const { agent, model } = fixture([reasonedStep('Hello.')]);
    const first = await agent.generate({ messages: 'Hi', run: run() });
    const someoneElses = { openai: { itemId: 'msg_of_another_user' } };
    const forged: Record<string, EdgetoolUIMessage[]> = {
      changed: withTextParts(first.messages, (p, i) => (i === 3 ? { ...p, providerMetadata: someoneElses } : p)),
      encrypted: withTextParts(first.messages, (p, i) => (i === 0 ? { ...p, providerMetadata: { openai: { ...reasoningMeta.openai, reasoningEncryptedContent: 'x' } } } : p)),
      moved: withTextParts(first.messages, (p, i) => (i === 3 ? (({ providerMetadata: _m, ...rest }) => rest)(p) : i === 2 ? { ...p, providerMetadata: textMeta } : p)),
      removed: withTextParts(first.messages, (p, i) => (i === 1 ? (({ providerMetadata: _m, ...rest }) => rest)(p) : p)),
      added: withTextParts(first.messages, (p, i) => (i === 2 ? { ...p, providerMetadata: someoneElses } : p)),
      copied: [...first.messages, ...first.messages.slice(1).map((m) => ({ ...m, id: `${m.id}-copy` }))],
      twice: first.messages.map((m) => (m.role === 'assistant' ? { ...m, parts: [...m.parts, ...m.parts.filter((p) => p.type === PART_SEAL_PART)] } : m)),
      malformed: first.messages.map((m) => ({ ...m, parts: m.parts.map((p) => (p.type === PART_SEAL_PART ? { ...p, data: { seal: 42 } } : p)) })) as EdgetoolUIMessage[],
    };
    for (const [what, messages] of Object.entries(forged)) {
      const error = await refused(agent.generate({ messages: userSays(messages, 'Thanks'), run: run() }));
      expect(error.problem, what).toBe('forged-result');
      expect(error.code, what).toBe('ticket-invalid');
    }
    expect(model.doStreamCalls).toHaveLength(1);
  });

  it('metadata no seal covers is dropped: an old conversation, a step without any, a user’s message', async () => {
    const { agent, model } = fixture([reasonedStep('Hello.'), textStep('Sure.'), textStep('Bye.'), textStep('Again.')]);
    const first = await agent.generate({ messages: 'Hi', run: run() });
    // From before part seals: the conversation goes on, and the provider reads none of the metadata.
    const old = first.messages.map((m) => ({ ...m, parts: m.parts.filter((p) => p.type !== PART_SEAL_PART) }));
    expect((await agent.generate({ messages: userSays(old, 'Go on'), run: run() })).text).toBe('Sure.');
    expect(promptParts(model.doStreamCalls[1])).toEqual(issued('Hello.').map(({ providerOptions: _dropped, ...part }) => part));
    // A step the server sent no metadata for (and so no seal), and a user's text: a client's own metadata is dropped.
    const second = await agent.generate({ messages: userSays(first.messages, 'Go on'), run: run() });
    expect(partSeals(second.message)).toEqual([]);
    const own = { openai: { itemId: 'msg_of_another_user' }, anthropic: { cacheControl: { type: 'ephemeral' } } };
    const added = userSays(
      second.messages.map((m) => (m.id === second.message.id ? { ...m, parts: m.parts.map((p) => (p.type === 'text' ? { ...p, providerMetadata: own } : p)) } : m)),
      'And?',
    );
    const last = added.at(-1) as EdgetoolUIMessage;
    added[added.length - 1] = { ...last, parts: last.parts.map((p) => ({ ...p, providerMetadata: own })) };
    expect((await agent.generate({ messages: added, run: run() })).text).toBe('Again.');
    const prompt = model.doStreamCalls[3]?.prompt ?? [];
    expect(promptParts(model.doStreamCalls[3])).toEqual([...issued('Hello.'), { type: 'text', text: 'Bye.' }]);
    expect(JSON.stringify(prompt.filter((m) => m.role === 'user'))).not.toContain('msg_of_another_user');
    expect(JSON.stringify(prompt)).not.toContain('ephemeral');
  });

  it('an expired part seal is this server’s but too old: its metadata is dropped, the conversation goes on', async () => {
    let now = 1_800_000_000_000;
    const signer = createTicketSigner({ keys: [KEY], now: () => now });
    const { agent, model } = fixture([reasonedStep('Hello.'), textStep('Bye.')], signer);
    const first = await agent.generate({ messages: 'Hi', run: run() });
    now += 31 * 24 * 60 * 60 * 1000;
    expect((await agent.generate({ messages: userSays(first.messages, 'Still there?'), run: run() })).text).toBe('Bye.');
    expect(promptParts(model.doStreamCalls[1])).toEqual(issued('Hello.').map(({ providerOptions: _dropped, ...part }) => part));
  });

  it('an approval continues the message: a refused forgery spends no approval, the sealed metadata goes back with the call', async () => {
    const call = { toolCallId: 'c1', toolName: 'refund_order', input: { order_id: 'A-1' } };
    const { agent, model, refunds } = fixture([reasonedStep('Refunding.', call), textStep('Refunded.'), textStep('Bye.')]);
    const first = await agent.generate({ messages: 'Refund A-1', run: run() });
    expect(first.pending).toEqual([expect.objectContaining({ toolCallId: 'c1', kind: 'approval' })]);
    const approved = respondToApproval(first.messages, 'c1', true);
    const changed = withTextParts(approved, (p, i) => (i === 0 ? { ...p, providerMetadata: { openai: { itemId: 'rs_of_another_user' } } } : p));
    expect(await refused(agent.generate({ messages: changed, run: run() }))).toMatchObject({ problem: 'forged-result' });
    expect(refunds).toEqual([]);
    const second = await agent.generate({ messages: approved, run: run() });
    expect(refunds).toEqual([{ order_id: 'A-1' }]);
    expect(second.text).toContain('Refunded.');
    expect(promptParts(model.doStreamCalls[1])).toEqual(issued('Refunding.'));
    // The continued message keeps the first step's seal; the new step had no metadata, and got none.
    expect(partSeals(second.message)).toHaveLength(1);
    expect((await agent.generate({ messages: userSays(second.messages, 'ok'), run: run() })).text).toBe('Bye.');
    expect(promptParts(model.doStreamCalls[2])).toEqual([...issued('Refunding.'), { type: 'text', text: 'Refunded.' }]);
  });

  it('costs nothing when no part carries metadata: no seal computed, no chunk sent', async () => {
    const signer = counting(tickets);
    const { agent } = fixture([textStep('Hello.'), textStep('Bye.')], signer);
    const turn = await agent.stream({ messages: userSays([], 'Hi'), run: run() });
    const chunks: string[] = [];
    for await (const chunk of turn.stream) chunks.push(chunk.type);
    expect(chunks).not.toContain(PART_SEAL_PART);
    expect(signer.seals).toBe(0);
  });
});

/** OpenAI's compaction item, as its provider streams it: a custom part whose metadata names the item and carries it. */
const compactionMeta = { openai: { type: 'compaction', itemId: 'cmp_1', encryptedContent: 'enc-of-cmp_1' } };
/** A signature on a generated image (what Gemini puts on an image part), and one on an image the model reasoned with. */
const fileMeta = { google: { thoughtSignature: 'sig-of-the-image' } };
const reasoningFileMeta = { google: { thoughtSignature: 'sig-of-the-sketch' } };
const PNG = 'iVBORw0KGgo=';
const GIF = 'R0lGODlhAQABAAAAACw=';

/**
 * A step with a reasoning file, a compaction, a text, an image and a second image, a custom part without metadata, then
 * a text: only the reasoning file, the compaction and the first image carry metadata.
 */
function filesStep(): LanguageModelV4StreamResult {
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'reasoning-file', mediaType: 'image/png', data: { type: 'data', data: PNG }, providerMetadata: reasoningFileMeta },
    { type: 'custom', kind: 'openai.compaction', providerMetadata: compactionMeta },
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: 'Here is the chart.' },
    { type: 'text-end', id: 't1' },
    { type: 'file', mediaType: 'image/png', data: { type: 'data', data: PNG }, providerMetadata: fileMeta },
    { type: 'file', mediaType: 'image/gif', data: { type: 'data', data: GIF } },
    { type: 'custom', kind: 'acme.marker' },
    { type: 'text-start', id: 't2' },
    { type: 'text-delta', id: 't2', delta: 'Done.' },
    { type: 'text-end', id: 't2' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
  ];
  return { stream: convertArrayToReadableStream(parts) };
}

/** The file, reasoning-file and custom parts of a prompt's assistant messages with the provider options each carries. */
function promptOtherParts(call: LanguageModelV4CallOptions | undefined): { type: string; of: string; providerOptions?: unknown }[] {
  const seen: { type: string; of: string; providerOptions?: unknown }[] = [];
  for (const message of call?.prompt ?? []) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type !== 'file' && part.type !== 'reasoning-file' && part.type !== 'custom') continue;
      const of = part.type === 'custom' ? part.kind : part.mediaType;
      seen.push({ type: part.type, of, ...(part.providerOptions === undefined ? {} : { providerOptions: part.providerOptions }) });
    }
  }
  return seen;
}

/** What the provider must read back of a {@link filesStep}: the metadata of each part, as it was issued. */
const issuedFiles = [
  { type: 'reasoning-file', of: 'image/png', providerOptions: reasoningFileMeta },
  { type: 'custom', of: 'openai.compaction', providerOptions: compactionMeta },
  { type: 'file', of: 'image/png', providerOptions: fileMeta },
  { type: 'file', of: 'image/gif' },
  { type: 'custom', of: 'acme.marker' },
];
const withoutOptions = <T extends { providerOptions?: unknown }>({ providerOptions: _dropped, ...part }: T) => part;

/** The history with the parts of assistant messages a part seal covers changed by `change` (by their place in the message). */
function withSealedParts(
  messages: EdgetoolUIMessage[],
  change: (part: Record<string, unknown>, index: number) => Record<string, unknown> | undefined,
): EdgetoolUIMessage[] {
  const covered = new Set(['text', 'reasoning', 'file', 'reasoning-file', 'custom']);
  return messages.map((message) => {
    if (message.role !== 'assistant') return message;
    let index = 0;
    const parts = message.parts.flatMap((part) => {
      if (!covered.has(part.type)) return [part];
      const changed = change({ ...part }, index++);
      return changed === undefined ? [] : [changed];
    });
    return { ...message, parts } as EdgetoolUIMessage;
  });
}
const without = ({ providerMetadata: _m, ...rest }: Record<string, unknown>) => rest;

describe('provider metadata on file, reasoning-file and custom parts a client sends back', () => {
  it('is sealed with the step’s other parts and goes back to the provider as it was issued, from generate and from the folded stream', async () => {
    const { agent, model } = fixture([filesStep(), textStep('Bye.'), filesStep(), textStep('Bye.')]);
    const first = await agent.generate({ messages: 'Draw it', run: run() });
    expect(partSeals(first.message)).toHaveLength(1);
    expect(first.message.parts).toContainEqual({ type: 'file', mediaType: 'image/png', url: `data:image/png;base64,${PNG}`, providerMetadata: fileMeta });
    expect((await agent.generate({ messages: userSays(first.messages, 'Thanks'), run: run() })).text).toBe('Bye.');
    expect(promptOtherParts(model.doStreamCalls[1])).toEqual(issuedFiles);

    const history = userSays([], 'Draw it');
    const turn = await agent.stream({ messages: history, run: run() });
    let message: EdgetoolUIMessage | undefined;
    for await (const m of readUIMessageStream<EdgetoolUIMessage>({ stream: turn.stream })) message = m;
    expect(message && partSeals(message)).toHaveLength(1);
    expect((await agent.generate({ messages: userSays([...history, message as EdgetoolUIMessage], 'Thanks'), run: run() })).text).toBe('Bye.');
    expect(promptOtherParts(model.doStreamCalls[3])).toEqual(issuedFiles);
  });

  it('changed, moved, removed, added, or the file or kind it came with changed: refused before the model is called', async () => {
    const { agent, model } = fixture([filesStep()]);
    const first = await agent.generate({ messages: 'Draw it', run: run() });
    const someoneElses = { openai: { type: 'compaction', itemId: 'cmp_of_another_user', encryptedContent: 'x' } };
    // Places: 0 reasoning-file, 1 compaction, 2 text, 3 image (sealed), 4 gif, 5 marker, 6 text.
    const forged: Record<string, EdgetoolUIMessage[]> = {
      'compaction changed': withSealedParts(first.messages, (p, i) => (i === 1 ? { ...p, providerMetadata: someoneElses } : p)),
      'compaction removed': withSealedParts(first.messages, (p, i) => (i === 1 ? without(p) : p)),
      'metadata added to a custom part': withSealedParts(first.messages, (p, i) => (i === 5 ? { ...p, providerMetadata: someoneElses } : p)),
      'signature moved to the other image': withSealedParts(first.messages, (p, i) => (i === 3 ? without(p) : i === 4 ? { ...p, providerMetadata: fileMeta } : p)),
      'the sealed image swapped': withSealedParts(first.messages, (p, i) => (i === 3 ? { ...p, url: `data:image/gif;base64,${GIF}` } : p)),
      'the sealed image’s media type changed': withSealedParts(first.messages, (p, i) => (i === 3 ? { ...p, mediaType: 'image/jpeg' } : p)),
      'the reasoning file’s signature changed': withSealedParts(first.messages, (p, i) => (i === 0 ? { ...p, providerMetadata: fileMeta } : p)),
      'the compaction’s kind changed': withSealedParts(first.messages, (p, i) => (i === 1 ? { ...p, kind: 'anthropic.fallback' } : p)),
      'a part before a sealed one removed': withSealedParts(first.messages, (p, i) => (i === 2 ? undefined : p)),
      'a file part as another kind': withSealedParts(first.messages, (p, i) => (i === 3 ? { ...p, type: 'reasoning-file' } : p)),
    };
    for (const [what, messages] of Object.entries(forged)) {
      const error = await refused(agent.generate({ messages: userSays(messages, 'Thanks'), run: run() }));
      expect(error.problem, what).toBe('forged-result');
    }
    expect(model.doStreamCalls).toHaveLength(1);
  });

  it('metadata no seal covers is dropped: a step from before, a user’s file, a steering message’s parts', async () => {
    const { agent, model } = fixture([filesStep(), textStep('Sure.'), textStep('Again.')]);
    const first = await agent.generate({ messages: 'Draw it', run: run() });
    const old = first.messages.map((m) => ({ ...m, parts: m.parts.filter((p) => p.type !== PART_SEAL_PART) }));
    expect((await agent.generate({ messages: userSays(old, 'Go on'), run: run() })).text).toBe('Sure.');
    expect(promptOtherParts(model.doStreamCalls[1])).toEqual(issuedFiles.map(withoutOptions));
    expect(JSON.stringify(model.doStreamCalls[1]?.prompt)).not.toContain('cmp_1');

    // A user's own file metadata and file reference, in a user message and in a steering message the answer holds.
    const own = { openai: { itemId: 'msg_of_another_user' }, anthropic: { cacheControl: { type: 'ephemeral' } } };
    const userFile = {
      type: 'file',
      mediaType: 'image/png',
      url: `data:image/png;base64,${PNG}`,
      providerMetadata: own,
      providerReference: { openai: 'file-of-another-user' },
    };
    const steering = { type: 'steering-message', id: 's1', parts: [{ type: 'text', text: 'Also this', providerMetadata: own }, userFile] };
    const messages = first.messages.map((m) => (m.role === 'assistant' ? { ...m, parts: [m.parts[0], steering, ...m.parts.slice(1)] } : m)) as EdgetoolUIMessage[];
    const asked = userSays(messages, 'And this one?');
    const last = asked.at(-1) as EdgetoolUIMessage;
    asked[asked.length - 1] = { ...last, parts: [...last.parts, userFile] } as EdgetoolUIMessage;
    expect((await agent.generate({ messages: asked, run: run() })).text).toBe('Again.');
    const prompt = JSON.stringify(model.doStreamCalls[2]?.prompt);
    expect(prompt).toContain('Also this');
    for (const leak of ['msg_of_another_user', 'ephemeral', 'file-of-another-user']) expect(prompt).not.toContain(leak);
    // The sealed metadata of the answer still goes back.
    expect(promptOtherParts(model.doStreamCalls[2])).toEqual(issuedFiles);
  });

  it('costs nothing when no such part carries metadata: no seal computed, no chunk sent', async () => {
    const signer = counting(tickets);
    const plain: LanguageModelV4StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'file', mediaType: 'image/png', data: { type: 'data', data: PNG } },
      { type: 'reasoning-file', mediaType: 'image/png', data: { type: 'data', data: PNG } },
      { type: 'custom', kind: 'acme.marker' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ];
    const { agent } = fixture([{ stream: convertArrayToReadableStream(plain) }], signer);
    const turn = await agent.stream({ messages: userSays([], 'Draw it'), run: run() });
    const chunks: string[] = [];
    for await (const chunk of turn.stream) chunks.push(chunk.type);
    expect(chunks).toEqual(expect.arrayContaining(['file', 'reasoning-file', 'custom']));
    expect(chunks).not.toContain(PART_SEAL_PART);
    expect(signer.seals).toBe(0);
  });
});
