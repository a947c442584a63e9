import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { createRunContext, createTicketSigner } from '@edgetool/core';
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { chartTool as chart, invoiceTool, PDF, PNG } from '../test-support/files.ts';
import { createChatAgent } from './chat-agent.ts';
import { generateTextTurn } from './text-turn.ts';
import { ageToolFiles } from './tool-output.ts';

const tickets = createTicketSigner({ keys: [{ id: 'k', secret: 'tool-file-turns-secret-32-bytes-min!!' }] });


const asImage = {
  type: 'content',
  value: [
    { type: 'text', text: 'Sales in May:' },
    { type: 'file', mediaType: 'image/png', data: { type: 'data', data: PNG } },
  ],
};
const asLine = { type: 'text', value: 'Sales in May:\n[image: image/png, 68 B]' };

/** The outputs of the tool results the model was sent, in order. */
const sentOutputs = (call: LanguageModelV4CallOptions | undefined) =>
  (call?.prompt ?? []).flatMap((message) => (message.role === 'tool' ? message.content.map((part) => (part.type === 'tool-result' ? part.output : part)) : []));

const user = (text: string): ModelMessage => ({ role: 'user', content: text });
const toolResult = (toolCallId: string, output: unknown): ModelMessage =>
  ({ role: 'tool', content: [{ type: 'tool-result', toolCallId, toolName: 'sales_chart', output }] }) as ModelMessage;

describe('toolFileTurns: files of older tool results reach the model as their lines', () => {
  it('ageToolFiles: a result keeps its files for `turns` turns; a turn ends with the next user message', () => {
    const history: ModelMessage[] = [user('one'), toolResult('c1', asImage), user('two'), toolResult('c2', asImage), user('three'), toolResult('c3', asImage)];
    const outputs = (messages: ModelMessage[]) => messages.filter((m) => m.role === 'tool').map((m) => (m.content[0] as { output: unknown }).output);
    expect(outputs(ageToolFiles(history, 1))).toEqual([asLine, asLine, asImage]);
    expect(outputs(ageToolFiles(history, 2))).toEqual([asLine, asImage, asImage]);
    expect(outputs(ageToolFiles(history, 3))).toEqual([asImage, asImage, asImage]);
    expect(outputs(ageToolFiles(history, Number.POSITIVE_INFINITY))).toEqual([asImage, asImage, asImage]);
    // The messages given are not changed, and unchanged messages are the same objects.
    const aged = ageToolFiles(history, 1);
    expect((history[1] as { content: { output: unknown }[] }).content[0]?.output).toEqual(asImage);
    expect(aged[0]).toBe(history[0]);
    expect(aged[5]).toBe(history[5]);
  });

  it('ageToolFiles: documents keep their file name in the line; text-only results and other parts stay as they are', () => {
    const invoice = {
      type: 'content',
      value: [
        { type: 'text', text: 'Invoice A-1:' },
        { type: 'file', mediaType: 'application/pdf', filename: 'A-1.pdf', data: { type: 'data', data: PDF } },
        { type: 'file', mediaType: 'image/png', data: { type: 'url', url: new URL('https://example.com/x.png') } },
      ],
    };
    const textOnly = { type: 'content', value: [{ type: 'text', text: 'Just text' }] };
    const denied = { type: 'execution-denied', reason: 'No' };
    const history: ModelMessage[] = [
      user('one'),
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'a', toolName: 'invoice', output: invoice },
          { type: 'tool-result', toolCallId: 'b', toolName: 'x', output: textOnly },
          { type: 'tool-result', toolCallId: 'c', toolName: 'x', output: denied },
        ],
      } as ModelMessage,
      user('two'),
    ];
    const [first, second, third] = ((ageToolFiles(history, 1)[1]?.content ?? []) as { output: unknown }[]).map((part) => part.output);
    expect(first).toEqual({ type: 'text', value: 'Invoice A-1:\n[document: A-1.pdf, application/pdf, 189 B]\n[file: image/png]' });
    expect(second).toBe(textOnly);
    expect(third).toBe(denied);
  });

  it('ageToolFiles: a count that is not a whole number of at least 1 is refused, and so is createChatAgent with one', () => {
    for (const bad of [0, -1, Number.NaN, 0.5, 1.5]) {
      expect(() => ageToolFiles([], bad), String(bad)).toThrow(RangeError);
      expect(() => createChatAgent({ model: scriptedModel(), tools: [chart], tickets, toolFileTurns: bad }), String(bad)).toThrow(RangeError);
    }
  });

  it('the chat loop: the turn that made the chart sends it as an image, the next turn as its line', async () => {
    const model = scriptedModel(callsStep([['c1', 'sales_chart', { month: 'May' }]]), textStep('Sales rose.'), textStep('Yes.'), textStep('Still yes.'));
    const withLimit = createChatAgent({ model, tools: [chart], tickets, toolImages: true, toolFileTurns: 1 });
    const run = createRunContext({ conversationId: 'conv-file-turns' });
    const first = await withLimit.generate({ messages: 'Chart May', run });
    expect(sentOutputs(model.doStreamCalls[1])).toEqual([asImage]);
    const next = [...first.messages, { id: 'u2', role: 'user' as const, parts: [{ type: 'text' as const, text: 'Did they?' }] }];
    const second = await withLimit.generate({ messages: next, run });
    expect(sentOutputs(model.doStreamCalls[2])).toEqual([asLine]);
    // What the client holds did not change: the output, and the seal that covers it, are the same as before.
    expect(second.messages[1]).toEqual(first.messages[1]);
    // Without a limit the same history sends the image again.
    const always = createChatAgent({ model, tools: [chart], tickets, toolImages: true });
    await always.generate({ messages: next, run });
    expect(sentOutputs(model.doStreamCalls[3])).toEqual([asImage]);
  });

  it('the text turn ages its history the same way, and returns the history as it was given', async () => {
    const model = scriptedModel(callsStep([['c1', 'invoice', { id: 'A-1' }]]), textStep('Here it is.'), textStep('It is paid.'));
    const agent = createChatAgent({ model, tools: [invoiceTool], tickets, toolImages: true, toolDocuments: true, toolFileTurns: 1 });
    const first = await generateTextTurn(agent, { messages: 'Invoice A-1', run: createRunContext() });
    const filesIn = (call: LanguageModelV4CallOptions | undefined) =>
      sentOutputs(call).flatMap((output) => ((output as { type: string }).type === 'content' ? (output as { value: { type: string }[] }).value.filter((e) => e.type === 'file') : []));
    expect(filesIn(model.doGenerateCalls[1])).toHaveLength(2);
    const second = await generateTextTurn(agent, { messages: [...first.messages, user('Is it paid?')], run: createRunContext() });
    expect(filesIn(model.doGenerateCalls[2])).toEqual([]);
    expect(sentOutputs(model.doGenerateCalls[2])).toEqual([{ type: 'text', value: 'Invoice A-1:\n[document: A-1.pdf, application/pdf, 189 B]\n[image: image/png, 68 B]' }]);
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
  });
});
