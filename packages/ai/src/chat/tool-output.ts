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
    value: content.map((part) => {
      if (part.type === 'text' || !asFile(part)) return { type: 'text', text: part.type === 'text' ? part.text : partsText([part]) };
      const named = part.type === 'document' && part.filename !== undefined ? { filename: part.filename } : {};
      return { type: 'file', mediaType: part.mediaType, data: { type: 'data', data: part.data }, ...named };
    }),
  };
}
