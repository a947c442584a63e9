import { type ModelContent, type ModelContentPart, partsText } from '@edgetool/core';
import type { LanguageModel, Tool } from 'ai';
import { OFFLINE_PROVIDER } from '../offline-model/offline-model.ts';

/** The AI SDK's tool output (what a tool's `toModelOutput` returns). */
export type AISDKToolOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

/**
 * Providers whose tool results can carry images (OpenAI's and Azure's Responses API, Anthropic's Messages API), and
 * edgetool's offline model. Others (Chat Completions among them) would write the image's base64 into the prompt as
 * text, so they get the parts' text instead. Checked against fake servers with the installed providers: the Responses
 * model sends `input_image` with a data URL, `@ai-sdk/anthropic`'s `anthropic.messages` an `image` block (base64 and
 * media type) in the `tool_result`.
 */
const TAKES_TOOL_IMAGES = /^(?:openai\.responses|azure\.responses|anthropic\.messages|edgetool\.offline$)/;

/**
 * Providers whose tool results can carry PDF documents, as checked in the installed providers: the OpenAI Responses
 * model sends a tool result's PDF as `input_file` (`file_data` and `filename`), and `@ai-sdk/azure` builds its
 * `azure.responses` models from that same class; `@ai-sdk/anthropic`'s `anthropic.messages` sends a `document` block
 * (base64, `application/pdf`, with the `pdfs-2024-09-25` beta header) in the `tool_result`, but without the file name.
 */
const TAKES_TOOL_DOCUMENTS = /^(?:openai\.responses|azure\.responses|anthropic\.messages)/;

/** Whether `model` sees images in tool results as images (see {@link TAKES_TOOL_IMAGES}); a model given by id: no. */
export function takesToolImages(model: LanguageModel): boolean {
  return typeof model !== 'string' && (TAKES_TOOL_IMAGES.test(model.provider) || model.provider === OFFLINE_PROVIDER);
}

/** Whether `model` reads PDF documents in tool results as documents (see {@link TAKES_TOOL_DOCUMENTS}); a model given by id: no. */
export function takesToolDocuments(model: LanguageModel): boolean {
  return typeof model !== 'string' && (TAKES_TOOL_DOCUMENTS.test(model.provider) || model.provider === OFFLINE_PROVIDER);
}

type ContentOutput = Extract<AISDKToolOutput, { type: 'content' }>;
type ContentEntry = ContentOutput['value'][number];

/** Which parts of a tool result reach the model as files; the others become their line of text (`partsText`). */
export interface ToolFiles {
  /** Image parts as image files. */
  readonly images: boolean;
  /** Document parts as PDF files, with their file names. */
  readonly documents: boolean;
}

/**
 * What the model reads for a result, as the AI SDK's tool output: text, or content with text and the image and
 * document files `files` allows, the other parts as the line that names them. Parts that end up all text are one text.
 */
export function toToolOutput(content: ModelContent, files: ToolFiles): AISDKToolOutput {
  if (typeof content === 'string') return { type: 'text', value: content };
  const asFile = (part: ModelContentPart) => (part.type === 'image' ? files.images : part.type === 'document' && files.documents);
  if (!content.some(asFile)) return { type: 'text', value: partsText(content) };
  return {
    type: 'content',
    value: content.flatMap((part): ContentEntry[] => {
      if (part.type === 'text' || !asFile(part)) return [{ type: 'text', text: part.type === 'text' ? part.text : partsText([part]) }];
      const file: ContentEntry = { type: 'file', mediaType: part.mediaType, data: { type: 'data', data: part.data } };
      if (part.type !== 'document' || part.filename === undefined) return [file];
      // The document's line goes before it: not every provider sends a tool result's file name (Anthropic's does not),
      // and the model should know which file it reads whichever provider carries it.
      return [{ type: 'text', text: partsText([part]) }, { ...file, filename: part.filename }];
    }),
  };
}

/** The line that stands for a file entry of a tool result, as `partsText` writes it for a part (`[image: image/png, 68 B]`). */
function fileLine(entry: ContentEntry): string {
  const { mediaType, filename, data } = entry as { mediaType?: unknown; filename?: unknown; data?: unknown };
  const media = typeof mediaType === 'string' ? mediaType : 'application/octet-stream';
  const base64 = typeof data === 'string' ? data : typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'data' ? (data as { data?: unknown }).data : undefined;
  if (typeof base64 !== 'string') return `[file: ${media}]`;
  const part: ModelContentPart = media.startsWith('image/')
    ? { type: 'image', data: base64, mediaType: media }
    : { type: 'document', data: base64, mediaType: media, ...(typeof filename === 'string' ? { filename } : {}) };
  return partsText([part]);
}

/** A tool result's output with its files as their lines: one text when nothing but text is left. */
function withoutFiles(output: ContentOutput): AISDKToolOutput {
  const lines: string[] = [];
  for (const entry of output.value) {
    const line = entry.type === 'text' ? entry.text : fileLine(entry);
    // A document's file follows its own line (see toToolOutput): the line stands for both.
    if (entry.type === 'text' || lines.at(-1) !== line) lines.push(line);
  }
  return { type: 'text', value: lines.join('\n') };
}

/**
 * The conversation as the model reads it, with the files of older tool results (images, documents) replaced by the
 * lines that name them: a result keeps its files for `turns` turns (a turn ends with the next user message; `1`: only
 * in the turn that made them). A PDF or a chart is then not sent to the model again on every later request; the model
 * still reads the result's text and knows the file was there. `Infinity` changes nothing. Only what the model reads
 * changes: the messages a client holds, and their seals, stay as they are.
 */
export function ageToolFiles<T extends { readonly role: string; readonly content: unknown }>(messages: readonly T[], turns: number): T[] {
  if (!(turns === Number.POSITIVE_INFINITY || (Number.isInteger(turns) && turns >= 1))) {
    throw new RangeError(`toolFileTurns must be a whole number of turns, at least 1 (or Infinity), not ${turns}.`);
  }
  if (turns === Number.POSITIVE_INFINITY) return [...messages];
  let usersAfter = 0;
  const aged = [...messages];
  for (let i = aged.length - 1; i >= 0; i--) {
    const message = aged[i] as T;
    if (message.role === 'user') usersAfter += 1;
    else if (message.role === 'tool' && usersAfter >= turns && Array.isArray(message.content)) {
      let changed = false;
      const content = message.content.map((part: { type?: unknown; output?: AISDKToolOutput }) => {
        if (part.type !== 'tool-result' || part.output?.type !== 'content' || part.output.value.every((entry) => entry.type === 'text')) return part;
        changed = true;
        return { ...part, output: withoutFiles(part.output) };
      });
      if (changed) aged[i] = { ...message, content };
    }
  }
  return aged;
}
