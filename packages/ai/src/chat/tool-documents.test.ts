import { createExecutor, createRunContext, createTicketSigner, documentPart, imagePart } from '@edgetool/core';
import { describe, expect, it } from 'vitest';
import { executeToolCalls } from '../execute-tool-calls.ts';
import { createOfflineModel } from '../offline-model/index.ts';
import { callsStep, lastToolResults, scriptedModel, textStep } from '../testing/mock-model.ts';
import { createChatAgent } from './chat-agent.ts';
import { generateTextTurn } from './text-turn.ts';
import { takesToolDocuments, toToolOutput } from './tool-output.ts';
import { invoiceTool as invoice, PDF, PNG } from '../test-support/files.ts';

const tickets = createTicketSigner({ keys: [{ id: 'k', secret: 'tool-documents-test-secret-32-bytes!!' }] });


const text = { type: 'text', text: 'Invoice INV-7:' };
const pdfFile = { type: 'file', mediaType: 'application/pdf', data: { type: 'data', data: PDF }, filename: 'INV-7.pdf' };
const pdfLine = { type: 'text', text: '[document: INV-7.pdf, application/pdf, 189 B]' };
const pngFile = { type: 'file', mediaType: 'image/png', data: { type: 'data', data: PNG } };
// A document file follows its line, so the model knows its name whether or not the provider sends it.
const asFiles = { type: 'content', value: [text, pdfLine, pdfFile, pngFile] };
const imagesOnly = { type: 'content', value: [text, pdfLine, pngFile] };
const documentsOnly = { type: 'content', value: [text, pdfLine, pdfFile, { type: 'text', text: '[image: image/png, 68 B]' }] };
const asText = { type: 'text', value: 'Invoice INV-7:\n[document: INV-7.pdf, application/pdf, 189 B]\n[image: image/png, 68 B]' };

/** A scripted model that says it is `provider`'s, so the loop's defaults follow that provider. */
const scriptedAs = (provider: string, ...steps: Parameters<typeof scriptedModel>) => Object.assign(scriptedModel(...steps), { provider });

describe('documents in tool results reach the model', () => {
  it('toToolOutput: a document as its line and a PDF file with its file name, or as its line while images stay images', () => {
    const parts = [{ type: 'text', text: 'Invoice INV-7:' }, documentPart(PDF, 'application/pdf', 'INV-7.pdf'), imagePart(PNG, 'image/png')] as const;
    expect(toToolOutput(parts, { images: true, documents: true })).toEqual(asFiles);
    expect(toToolOutput(parts, { images: true, documents: false })).toEqual(imagesOnly);
    expect(toToolOutput(parts, { images: false, documents: true })).toEqual(documentsOnly);
    expect(toToolOutput(parts, { images: false, documents: false })).toEqual(asText);
    // Nothing left as a file: one text, not content made of text pieces.
    const onlyText = { type: 'text', value: 'Invoice INV-7:\n[document: INV-7.pdf, application/pdf, 189 B]' };
    expect(toToolOutput([parts[0], parts[1]], { images: true, documents: false })).toEqual(onlyText);
    // A document without a file name has no `filename` (the provider picks one), and no line: there is no name to tell.
    const unnamed = toToolOutput([documentPart(PDF, 'application/pdf')], { images: false, documents: true });
    expect(unnamed).toEqual({ type: 'content', value: [{ type: 'file', mediaType: 'application/pdf', data: { type: 'data', data: PDF } }] });
    expect(unnamed.type === 'content' && Object.keys(unnamed.value[0] ?? {})).toEqual(['type', 'mediaType', 'data']);
  });

  it('takesToolDocuments: OpenAI’s and Azure’s Responses API, Anthropic’s Messages API and the offline model; not Chat Completions, mocks or ids', () => {
    const model = (provider: string) => ({ ...scriptedModel(), provider }) as unknown as Parameters<typeof takesToolDocuments>[0];
    expect(takesToolDocuments(model('openai.responses'))).toBe(true);
    expect(takesToolDocuments(model('azure.responses'))).toBe(true);
    expect(takesToolDocuments(model('anthropic.messages'))).toBe(true);
    expect(takesToolDocuments(createOfflineModel())).toBe(true);
    expect(takesToolDocuments(model('openai.chat'))).toBe(false);
    expect(takesToolDocuments(model('azure.chat'))).toBe(false);
    expect(takesToolDocuments(scriptedModel())).toBe(false);
    expect(takesToolDocuments('openai/gpt-4o')).toBe(false);
  });

  it('the chat loop sends the document as a PDF file by default to the Responses API, in this turn and from the history of the next', async () => {
    const model = scriptedAs('openai.responses', callsStep([['c1', 'invoice', { id: 'INV-7' }]]), textStep('It is due in May.'), textStep('Yes.'));
    const agent = createChatAgent({ model, tools: [invoice], tickets });
    const run = createRunContext({ conversationId: 'conv-documents' });
    const first = await agent.generate({ messages: 'Show INV-7', run });
    expect(first.toolResults[0]?.parts?.[1]).toEqual({ type: 'document', data: PDF, mediaType: 'application/pdf', filename: 'INV-7.pdf' });
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([{ toolCallId: 'c1', output: asFiles }]);

    // The next turn rebuilds the history from the UI messages: the tool's toModelOutput makes the document again.
    const next = [...first.messages, { id: 'u2', role: 'user' as const, parts: [{ type: 'text' as const, text: 'Is it paid?' }] }];
    await agent.generate({ messages: next, run });
    const history = model.doStreamCalls[2]?.prompt.find((message) => message.role === 'tool');
    expect(history?.content).toEqual([expect.objectContaining({ toolCallId: 'c1', output: asFiles })]);
  });

  it('a model that takes images but not documents gets the image as an image and the document as its line', async () => {
    const model = scriptedModel(callsStep([['c1', 'invoice', { id: 'INV-7' }]]), textStep('It is due in May.'));
    await createChatAgent({ model, tools: [invoice], tickets, toolImages: true }).generate({ messages: 'Show INV-7', run: createRunContext() });
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([{ toolCallId: 'c1', output: imagesOnly }]);
  });

  it('toolDocuments and toolImages override the provider’s defaults, each for its own parts', async () => {
    const forced = scriptedAs('openai.chat', callsStep([['c1', 'invoice', { id: 'INV-7' }]]), textStep('Done.'));
    await createChatAgent({ model: forced, tools: [invoice], tickets, toolDocuments: true }).generate({ messages: 'Show INV-7', run: createRunContext() });
    expect(lastToolResults(forced.doStreamCalls[1])).toEqual([{ toolCallId: 'c1', output: documentsOnly }]);

    const refused = scriptedAs('openai.responses', callsStep([['c1', 'invoice', { id: 'INV-7' }]]), textStep('Done.'));
    await createChatAgent({ model: refused, tools: [invoice], tickets, toolDocuments: false }).generate({ messages: 'Show INV-7', run: createRunContext() });
    expect(lastToolResults(refused.doStreamCalls[1])).toEqual([{ toolCallId: 'c1', output: imagesOnly }]);
  });

  it('a model that takes neither (unknown providers, Chat Completions) reads the text that names both', async () => {
    const model = scriptedModel(callsStep([['c1', 'invoice', { id: 'INV-7' }]]), textStep('It is due in May.'));
    await createChatAgent({ model, tools: [invoice], tickets }).generate({ messages: 'Show INV-7', run: createRunContext() });
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([{ toolCallId: 'c1', output: asText }]);
  });

  it('generateTextTurn and executeToolCalls send documents too', async () => {
    const model = scriptedAs('openai.responses', callsStep([['c1', 'invoice', { id: 'INV-7' }]]), textStep('It is due in May.'));
    const turn = await generateTextTurn(createChatAgent({ model, tools: [invoice], tickets }), { messages: 'Show INV-7', run: createRunContext() });
    expect(turn.text).toBe('It is due in May.');
    expect(lastToolResults(model.doGenerateCalls[1])).toEqual([{ toolCallId: 'c1', output: asFiles }]);

    const executor = createExecutor({ registry: [invoice] });
    const toolCalls = [{ toolCallId: 'c2', toolName: 'invoice', input: { id: 'INV-7' } }];
    const both = await executeToolCalls({ executor, toolCalls });
    expect(both.messages[0]?.content[0]).toMatchObject({ toolCallId: 'c2', output: asFiles });
    const noDocuments = await executeToolCalls({ executor, toolCalls, documents: false });
    expect(noDocuments.messages[0]?.content[0]).toMatchObject({ toolCallId: 'c2', output: imagesOnly });
  });
});
