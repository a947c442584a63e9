// policy.maxContentChars in the chat loop: the model reads at most that much of one result, in the turn it ran in and
// in every later request's history alike, while the UI message keeps the tool's whole output under its seal.
import { createRunContext, createTicketSigner, DEFAULT_MAX_CONTENT_CHARS, defineTool } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { addToolOutput, userSays } from '../testing/client.ts';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { readInPrompt } from '../test-support/chat-streams.ts';
import { createChatAgent } from './chat-agent.ts';
import { generateTextTurn } from './text-turn.ts';

const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'content-bound-secret-content-bound!!' }] });
const run = () => createRunContext({ conversationId: 'conv-cb' });

/** A log of `n` characters whose lines say where they are. */
function log(n: number): string {
  let text = '';
  while (text.length < n) text += `${String(text.length).padStart(9, '0')} GET /orders 200\n`;
  return text.slice(0, n);
}
const lines = log(400_000);

const searchLogs = defineTool({ name: 'search_logs', description: 'Search the access log', input: v.object({}), execute: () => ({ lines }) });

/** The text the model read for call `id` in its call number `index`. */
function textRead(model: ReturnType<typeof scriptedModel>, index: number, id = 'c1'): string {
  // A UI turn streams its steps; a text turn generates them.
  const call = model.doStreamCalls[index] ?? model.doGenerateCalls[index];
  const output = readInPrompt(call?.prompt, id) as { type?: string; value?: unknown } | undefined;
  expect(output?.type).toBe('text');
  return output?.value as string;
}

/** The output of the tool part of call `id` in a UI message. */
function uiOutput(message: { parts: readonly unknown[] }, id = 'c1'): unknown {
  const part = message.parts.find((p) => (p as { toolCallId?: string }).toolCallId === id) as { output?: unknown } | undefined;
  return part?.output;
}

describe('policy.maxContentChars in the chat loop', () => {
  it('a UI turn: the model reads the bounded text now and in a later request, the message keeps the whole output', async () => {
    const model = scriptedModel(callsStep([['c1', 'search_logs', {}]]), textStep('Mostly 200s.'), textStep('Yes.'));
    const agent = createChatAgent({ model, tools: [searchLogs], tickets });
    const first = await agent.generate({ messages: 'Any errors in the log?', run: run() });
    const read = textRead(model, 1);
    expect(read.length).toBeLessThanOrEqual(DEFAULT_MAX_CONTENT_CHARS);
    expect(read).toContain(`of ${JSON.stringify({ lines }).length.toLocaleString('en-US')} characters left out here`);
    expect(read.startsWith('{"lines":"000000000 GET /orders 200')).toBe(true);
    expect(first.toolResults[0]?.content).toBe(read);
    // The UI shows, and the seal covers, what the tool returned.
    expect(uiOutput(first.message)).toEqual({ lines });
    // The next request sends the sealed history back: the model reads the same text of it, not the whole log.
    await agent.generate({ messages: userSays(first.messages, 'Sure?'), run: run() });
    expect(textRead(model, 2)).toBe(read);
  });

  it('a text turn reads the same bounded text', async () => {
    const model = scriptedModel(callsStep([['c1', 'search_logs', {}]]), textStep('Mostly 200s.'));
    const agent = createChatAgent({ model, tools: [searchLogs], tickets });
    const result = await generateTextTurn(agent, { messages: 'Any errors in the log?', run: run() });
    expect(textRead(model, 1).length).toBeLessThanOrEqual(DEFAULT_MAX_CONTENT_CHARS);
    expect(result.toolResults[0]?.content).toBe(textRead(model, 1));
  });

  it('a return-direct tool’s answer is what the model reads of it: bounded the same way', async () => {
    const exportLog = defineTool({
      name: 'export_log',
      description: 'The access log, as the answer',
      input: v.object({}),
      policy: { returnDirect: true, maxContentChars: 5_000 },
      execute: () => lines,
    });
    const model = scriptedModel(callsStep([['c1', 'export_log', {}]]), textStep('never'));
    const result = await createChatAgent({ model, tools: [exportLog], tickets }).generate({ messages: 'The log, please', run: run() });
    expect(model.doStreamCalls).toHaveLength(1);
    expect(result.returnDirect).toBe(true);
    expect(result.text.length).toBeLessThanOrEqual(5_000);
    expect(result.text).toBe(result.toolResults[0]?.content);
    expect(uiOutput(result.message)).toBe(lines);
  });

  it('a browser tool’s result is bounded by its own policy when the model reads it', async () => {
    const readPage = defineTool({
      name: 'read_page',
      description: 'The text of the page the user has open',
      input: v.object({}),
      policy: { runsOn: 'client', maxContentChars: 3_000 },
    });
    const model = scriptedModel(callsStep([['c1', 'read_page', {}]]), textStep('It is a log.'));
    const agent = createChatAgent({ model, tools: [readPage], tickets });
    const first = await agent.generate({ messages: 'What is on this page?', run: run() });
    expect(first.pending).toEqual([expect.objectContaining({ toolCallId: 'c1', kind: 'client' })]);
    const answered = addToolOutput(first.messages, 'c1', lines);
    const done = await agent.generate({ messages: answered, run: run() });
    const read = textRead(model, 1);
    expect(read.length).toBeLessThanOrEqual(3_000);
    expect(read).toContain('of 400,000 characters left out here: this result is longer than the 3,000 characters');
    expect(uiOutput(done.message)).toBe(lines);
  });
});
