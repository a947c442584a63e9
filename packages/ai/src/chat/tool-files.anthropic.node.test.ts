// Node-only: images and PDF documents in tool results on the real @ai-sdk/anthropic provider (a devDependency of this
// package only), against the local fake Messages API (testing/fake-anthropic, 127.0.0.1).
import { createAnthropic } from '@ai-sdk/anthropic';
import { createRunContext, createTicketSigner } from '@edgetool/core';
import { type FakeAnthropic, startFakeAnthropic } from '@edgetool/fake-anthropic';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chartTool as chart, invoiceTool as invoice, PDF, PNG } from '../test-support/files.ts';
import { createChatAgent } from './chat-agent.ts';
import { takesToolDocuments, takesToolImages } from './tool-output.ts';

let fake: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic({ apiKey: 'test' });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const tickets = createTicketSigner({ keys: [{ id: 'k', secret: 'anthropic-files-test-secret-32-bytes!' }] });
const claude = () => createAnthropic({ baseURL: fake.baseURL, apiKey: 'test' })('claude-sonnet-4-5');


type Block = Record<string, unknown>;

/** The tool_result blocks of a recorded request's last message (the user turn that answers the tool calls). */
function toolResults(index: number): Block[] {
  const messages = fake.requests[index]?.body.messages as { role: string; content: Block[] | string }[];
  const last = messages.at(-1);
  expect(last?.role).toBe('user');
  return Array.isArray(last?.content) ? last.content.filter((block) => block.type === 'tool_result') : [];
}

/** The betas a recorded request asked for (its `anthropic-beta` header). */
const betas = (index: number) => fake.requests[index]?.headers['anthropic-beta']?.split(',') ?? [];

const pngBlock = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } };
const pdfBlock = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF } };

describe('images and documents in tool results on the real Anthropic provider', () => {
  it('an anthropic model takes images and documents in tool results', () => {
    const model = claude();
    expect(model.provider).toBe('anthropic.messages');
    expect(takesToolImages(model)).toBe(true);
    expect(takesToolDocuments(model)).toBe(true);
  });

  it('the tool_result carries the image as an image block with its base64 and media type, and the loop ends with the answer', async () => {
    fake.enqueue({ toolCalls: [{ id: 'toolu_c', name: 'sales_chart', args: { month: 'May' } }] }, { text: 'Sales rose in May.' });
    const result = await createChatAgent({ model: claude(), tools: [chart], tickets, maxRetries: 0 }).generate({ messages: 'Chart May', run: createRunContext() });

    expect(result.text).toBe('Sales rose in May.');
    expect(fake.requests).toHaveLength(2);
    expect(toolResults(1)).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_c', content: [{ type: 'text', text: 'Sales in May:' }, pngBlock] }]);
  });

  it('the tool_result carries the PDF as a document block (base64, application/pdf; the provider sends no title, so its line names it) and the PDF beta, in this turn and from the history of the next', async () => {
    fake.enqueue({ toolCalls: [{ id: 'toolu_i', name: 'invoice', args: { id: 'INV-7' } }] }, { text: 'It is due in May.' }, { text: 'Yes.' });
    const agent = createChatAgent({ model: claude(), tools: [invoice], tickets, maxRetries: 0 });
    const run = createRunContext({ conversationId: 'conv-anthropic-documents' });
    const first = await agent.generate({ messages: 'Show INV-7', run });

    expect(first.text).toBe('It is due in May.');
    // The provider sends no title for a tool result's document: the line before it is how the model learns its name.
    const pdfLine = { type: 'text', text: '[document: INV-7.pdf, application/pdf, 189 B]' };
    const sent = [{ type: 'tool_result', tool_use_id: 'toolu_i', content: [{ type: 'text', text: 'Invoice INV-7:' }, pdfLine, pdfBlock, pngBlock] }];
    expect(toolResults(1)).toEqual(sent);
    expect(betas(1)).toContain('pdfs-2024-09-25');
    expect(betas(0)).not.toContain('pdfs-2024-09-25');

    // The next turn rebuilds the history from the UI messages: the tool's toModelOutput makes the PDF again.
    const next = [...first.messages, { id: 'u2', role: 'user' as const, parts: [{ type: 'text' as const, text: 'Is it paid?' }] }];
    const second = await agent.generate({ messages: next, run });
    expect(second.text).toBe('Yes.');
    const history = fake.requests[2]?.body.messages as { role: string; content: Block[] }[];
    expect(history.flatMap((message) => (Array.isArray(message.content) ? message.content : [])).filter((block) => block.type === 'tool_result')).toEqual(sent);
    expect(betas(2)).toContain('pdfs-2024-09-25');
  });
});
