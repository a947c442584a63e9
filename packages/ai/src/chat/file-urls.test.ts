import { createRunContext, createTicketSigner, defineTool, ToolError } from '@edgetool/core';
import * as v from 'valibot';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { respondToApproval } from '../testing/client.ts';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { type ChatAgentOptions, createChatAgent } from './chat-agent.ts';
import { FileUrlError, type FileUrlPolicy } from './file-urls.ts';
import type { EdgetoolUIMessage } from './protocol.ts';

const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'test-secret-test-secret-test-secret-!!' }] });
const run = () => createRunContext({ conversationId: 'conv-files', userId: 'ada' });
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);

/** A user message with one file part and a question. */
function withFile(url: string, mediaType = 'image/png'): EdgetoolUIMessage {
  return { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'file', mediaType, url }, { type: 'text', text: 'What is this?' }] };
}

/** A scripted model that says which URLs it fetches itself (the AI SDK's `supportedUrls`). */
function urlModel(supportedUrls: Record<string, RegExp[]>, ...steps: Parameters<typeof scriptedModel>) {
  const scripted = scriptedModel(...steps);
  const model = new MockLanguageModelV4({ supportedUrls, doStream: (options) => scripted.doStream(options) });
  return { model, calls: () => scripted.doStreamCalls };
}

function agent(model: ChatAgentOptions['model'], fileUrls?: FileUrlPolicy) {
  return createChatAgent({ model, tools: [], tickets, ...(fileUrls === undefined ? {} : { fileUrls }) });
}

/** The file part of the user message the model was sent. */
function sentFile(prompt: readonly { role: string; content: unknown }[]): unknown {
  const user = prompt.find((m) => m.role === 'user');
  return ((user?.content ?? []) as { type: string }[]).find((part) => part.type === 'file');
}

/** `fetch`, answering every request with a small PNG and recording it (nothing leaves the process). */
function stubFetch() {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(PNG, { headers: { 'content-type': 'image/png' } }));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('fileUrls: a client file part that names a URL', () => {
  it('is refused by default (https, http, blob, any other scheme) before the model is called, and nothing is fetched', async () => {
    const fetches = stubFetch();
    // Even a model that takes https URLs itself: by default no client URL goes anywhere.
    const { model, calls } = urlModel({ '*': [/^https?:\/\//] }, textStep('never'));
    const chat = agent(model);
    const urls = [
      'https://example.com/huge.png',
      'HTTP://169.254.169.254/latest/meta-data',
      'blob:http://localhost/1',
      ' data-not:x',
      'ftp://example.com/a.png',
      'file:///etc/passwd',
    ];
    for (const url of urls) {
      const error = await chat.generate({ messages: [withFile('data:image/png;base64,iVBORw0KGgo='), withFile(url)], run: run() }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(FileUrlError.isInstance(error), url).toBe(true);
      expect(ToolError.isInstance(error)).toBe(true);
      const message = expect.stringContaining('data: URL');
      expect(error).toMatchObject({ name: 'FileUrlError', code: 'invalid-input', path: 'messages[1].parts[0].url', message });
    }
    expect(calls()).toHaveLength(0);
    expect(fetches).not.toHaveBeenCalled();
  });

  it('a data: URL (any case) is read, and reaches the model as bytes', async () => {
    const fetches = stubFetch();
    const { model, calls } = urlModel({}, textStep('A picture.'));
    const result = await agent(model).generate({ messages: [withFile('DATA:image/png;base64,iVBORw0KGgo=')], run: run() });
    expect(result.text).toBe('A picture.');
    expect(sentFile(calls()[0]?.prompt ?? [])).toMatchObject({ type: 'file', mediaType: 'image/png', data: { type: 'data' } });
    expect(fetches).not.toHaveBeenCalled();
  });

  it('is refused with no ticket spent: the same approval sent again without it runs', async () => {
    const fetches = stubFetch();
    const writes: unknown[] = [];
    const write = defineTool({ name: 'write', description: 'Writes', input: v.object({}), policy: { effects: 'write' }, execute: () => writes.push(1) });
    const model = scriptedModel(callsStep([['c1', 'write', {}]]), textStep('Written.'));
    const chat = createChatAgent({ model, tools: [write], tickets });
    const first = await chat.generate({ messages: 'Write it', run: run() });
    const approved = respondToApproval(first.messages, 'c1', true);
    const remote = withFile('https://example.com/a.png').parts[0];
    const withUrl = approved.map((m, i) => (i === 0 ? { ...m, parts: [...m.parts, remote] } : m)) as EdgetoolUIMessage[];
    await expect(chat.generate({ messages: withUrl, run: run() })).rejects.toMatchObject({ name: 'FileUrlError', path: 'messages[0].parts[1].url' });
    expect(writes).toEqual([]);
    expect((await chat.generate({ messages: approved, run: run() })).text).toBe('Written.');
    expect(writes).toEqual([1]);
    expect(fetches).not.toHaveBeenCalled();
  });

  it("'allow' leaves every URL to the AI SDK: passed to a model that takes it, downloaded here otherwise", async () => {
    const fetches = stubFetch();
    const takes = urlModel({ 'image/*': [/^https:\/\//] }, textStep('Seen.'));
    await agent(takes.model, 'allow').generate({ messages: [withFile('https://example.com/a.png')], run: run() });
    expect(sentFile(takes.calls()[0]?.prompt ?? [])).toMatchObject({ data: { type: 'url', url: new URL('https://example.com/a.png') } });
    expect(fetches).not.toHaveBeenCalled();
    const takesNone = urlModel({}, textStep('Seen.'));
    await agent(takesNone.model, 'allow').generate({ messages: [withFile('https://example.com/b.png')], run: run() });
    expect(fetches.mock.calls.map(([url]) => String(url))).toEqual(['https://example.com/b.png']);
    expect(sentFile(takesNone.calls()[0]?.prompt ?? [])).toMatchObject({ data: { type: 'data', data: PNG } });
  });

  it("'model' allows only the URLs the model fetches itself (its supportedUrls): this server downloads none", async () => {
    const fetches = stubFetch();
    const { model, calls } = urlModel({ 'image/*': [/^https:\/\//] }, textStep('Seen.'));
    const chat = agent(model, 'model');
    await chat.generate({ messages: [withFile('https://example.com/a.png')], run: run() });
    expect(sentFile(calls()[0]?.prompt ?? [])).toMatchObject({ data: { type: 'url', url: new URL('https://example.com/a.png') } });
    for (const [url, mediaType] of [['http://example.com/a.png', 'image/png'], ['https://example.com/a.pdf', 'application/pdf']] as const) {
      await expect(chat.generate({ messages: [withFile(url, mediaType)], run: run() }), url).rejects.toMatchObject({ name: 'FileUrlError' });
    }
    // A model id string (the gateway's) names no URLs it takes: all are refused.
    await expect(agent('openai/gpt-5', 'model').generate({ messages: [withFile('https://example.com/a.png')], run: run() })).rejects.toMatchObject({
      name: 'FileUrlError',
    });
    expect(calls()).toHaveLength(1);
    expect(fetches).not.toHaveBeenCalled();
  });

  it('a function allows the URLs it returns true for, and gets each URL parsed with its media type', async () => {
    const fetches = stubFetch();
    const seen: unknown[] = [];
    const { model, calls } = urlModel({ 'image/*': [/^https:\/\//] }, textStep('Seen.'));
    const chat = agent(model, (file) => {
      seen.push([file.url.href, file.mediaType]);
      return file.url.hostname === 'cdn.example.com';
    });
    await chat.generate({ messages: [withFile('https://CDN.example.com/a.png')], run: run() });
    expect(calls()).toHaveLength(1);
    await expect(chat.generate({ messages: [withFile('https://evil.example.com/a.png')], run: run() })).rejects.toMatchObject({ name: 'FileUrlError' });
    expect(seen).toEqual([
      ['https://cdn.example.com/a.png', 'image/png'],
      ['https://evil.example.com/a.png', 'image/png'],
    ]);
    expect(calls()).toHaveLength(1);
    expect(fetches).not.toHaveBeenCalled();
  });

  it('is refused inside an assistant message\'s steering-message part too (the AI SDK makes it a user message it downloads)', async () => {
    const fetches = stubFetch();
    const { model, calls } = urlModel({}, textStep('never'));
    const steered = (part: { type: string; mediaType: string; url: string }): EdgetoolUIMessage[] => [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] },
      { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'Hello' }, { type: 'steering-message', id: 's1', parts: [{ type: 'text', text: 'Look' }, part] }] as never },
      { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'And?' }] },
    ];
    await expect(agent(model).generate({ messages: steered({ type: 'file', mediaType: 'image/png', url: 'https://example.com/a.png' }), run: run() })).rejects.toMatchObject({
      name: 'FileUrlError',
      path: 'messages[1].parts[1].parts[1].url',
    });
    // A reasoning file names a URL the provider is handed as well.
    const reasoning: EdgetoolUIMessage[] = [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] },
      { id: 'a1', role: 'assistant', parts: [{ type: 'reasoning-file', mediaType: 'image/png', url: 'https://example.com/r.png' }, { type: 'text', text: 'Hello' }] as never },
      { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'And?' }] },
    ];
    await expect(agent(model).generate({ messages: reasoning, run: run() })).rejects.toMatchObject({ name: 'FileUrlError', path: 'messages[1].parts[0].url' });
    expect(calls()).toHaveLength(0);
    expect(fetches).not.toHaveBeenCalled();
    // Its bytes as a data: URL are read as before.
    const ok = urlModel({}, textStep('Seen.'));
    const result = await agent(ok.model).generate({ messages: steered({ type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo=' }), run: run() });
    expect(result.text).toBe('Seen.');
    expect(fetches).not.toHaveBeenCalled();
  });

  it('a value that is none of the four fails when the agent is made', () => {
    expect(() => agent(scriptedModel(), 'deny' as FileUrlPolicy)).toThrow(RangeError);
  });
});
