import { type ModelContent, partsText } from '@edgetool/core';
import type { LanguageModel, Tool } from 'ai';
import { OFFLINE_PROVIDER } from '../offline-model/offline-model.ts';

/** The AI SDK's tool output (what a tool's `toModelOutput` returns). */
export type AISDKToolOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

/**
 * Providers whose tool results can carry images (OpenAI's and Azure's Responses API, Anthropic's Messages API), and
 * edgetool's offline model. Others (Chat Completions among them) would write the image's base64 into the prompt as
 * text, so they get the parts' text instead.
 */
const TAKES_TOOL_IMAGES = /^(?:openai\.responses|azure\.responses|anthropic\.|edgetool\.offline$)/;

/** Whether `model` sees images in tool results as images (see {@link TAKES_TOOL_IMAGES}); a model given by id: no. */
export function takesToolImages(model: LanguageModel): boolean {
  return typeof model !== 'string' && (TAKES_TOOL_IMAGES.test(model.provider) || model.provider === OFFLINE_PROVIDER);
}

/**
 * What the model reads for a result, as the AI SDK's tool output: text, or text and image files when `images` is on
 * (else the parts' text, with a line naming each image).
 */
export function toToolOutput(content: ModelContent, images: boolean): AISDKToolOutput {
  if (typeof content === 'string') return { type: 'text', value: content };
  if (!images) return { type: 'text', value: partsText(content) };
  return {
    type: 'content',
    value: content.map((part) =>
      part.type === 'text' ? { type: 'text', text: part.text } : { type: 'file', mediaType: part.mediaType, data: { type: 'data', data: part.data } },
    ),
  };
}
