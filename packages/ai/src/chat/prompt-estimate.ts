import type { ModelMessage } from 'ai';

/**
 * What one model call of a turn will be sent, as the token budget's check before the call reads it: the instructions,
 * the messages of this step (the history, and the turn's earlier steps and tool results) and the tools offered.
 */
export interface PromptToEstimate {
  /** The turn's instructions (the system prompt), if any. */
  readonly instructions: string | undefined;
  /** The messages the model reads at this step. */
  readonly messages: readonly ModelMessage[];
  /** The tools the model is offered at this step: name, description and the JSON Schema of the arguments. */
  readonly tools: readonly { readonly name: string; readonly description: string | undefined; readonly inputSchema: unknown }[];
}

/** Tokens one image counts in {@link estimateInputTokens}, whatever its size (providers bill images by their pixels). */
export const IMAGE_TOKEN_ESTIMATE = 2_000;

/** Tokens each message, and each tool definition, counts beyond its text (roles, separators, the provider's framing). */
const OVERHEAD_TOKENS = 8;

/**
 * The default estimate of a model call's input tokens for the budget check made before each call: the UTF-8 bytes of
 * every text it sends (instructions, message parts, tool call arguments and results, tool names, descriptions and
 * schemas) divided by 4, rounded up, plus 8 tokens per message and per tool, and {@link IMAGE_TOKEN_ESTIMATE} per image.
 * Other files (a PDF) count their bytes / 4. Bytes rather than characters, so that scripts whose characters take 2-3
 * bytes (and more tokens each) count more: English prose and JSON run at 4-5 bytes a token, so the estimate is a little
 * over the provider's count for them (a 416 KB history the provider counted as 89,550 tokens estimates about 107,000),
 * and close to it for CJK text. It reads no tokenizer: it is linear in the prompt's size, and costs no download.
 */
export function estimateInputTokens(prompt: PromptToEstimate): number {
  let tokens = 0;
  let bytes = prompt.instructions === undefined ? 0 : utf8Bytes(prompt.instructions);
  for (const message of prompt.messages) {
    tokens += OVERHEAD_TOKENS;
    const counted = countValue(message);
    bytes += counted.bytes;
    tokens += counted.images * IMAGE_TOKEN_ESTIMATE;
  }
  for (const tool of prompt.tools) {
    tokens += OVERHEAD_TOKENS;
    bytes += utf8Bytes(tool.name) + (tool.description === undefined ? 0 : utf8Bytes(tool.description)) + countValue(tool.inputSchema).bytes;
  }
  return tokens + Math.ceil(bytes / 4);
}

/** Keys whose values reach no model as tokens (a provider's options and metadata). */
const UNCOUNTED = new Set(['providerOptions', 'providerMetadata']);

/** The bytes of a message's texts (keys included, as their JSON would carry them) and the images in it. */
function countValue(value: unknown): { bytes: number; images: number } {
  let bytes = 0;
  let images = 0;
  const walk = (v: unknown, depth: number): void => {
    if (typeof v === 'string') bytes += utf8Bytes(v);
    else if (typeof v === 'number' || typeof v === 'boolean') bytes += String(v).length;
    else if (typeof v !== 'object' || v === null) return;
    else if (v instanceof Uint8Array || v instanceof ArrayBuffer) bytes += v.byteLength;
    else if (v instanceof URL) bytes += utf8Bytes(v.href);
    else if (depth > 64) return;
    else if (Array.isArray(v)) for (const item of v) walk(item, depth + 1);
    else if (isImage(v)) images += 1;
    else {
      for (const [key, item] of Object.entries(v)) {
        if (UNCOUNTED.has(key)) continue;
        bytes += key.length;
        walk(item, depth + 1);
      }
    }
  };
  walk(value, 0);
  return { bytes, images };
}

/** A message part that is an image (an `image` part, or a `file` or tool-output part of an `image/…` type). */
function isImage(part: object): boolean {
  const { type, mediaType } = part as { type?: unknown; mediaType?: unknown };
  if (type === 'image' || type === 'image-data' || type === 'image-url' || type === 'image-file-id') return true;
  return (type === 'file' || type === 'file-data' || type === 'media') && typeof mediaType === 'string' && mediaType.startsWith('image/');
}

/** The UTF-8 length of `text`, without encoding it. */
export function utf8Bytes(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A code unit from U+0080 takes one more byte, from U+0800 two more; a surrogate pair (4 bytes) is two units of 2.
    if (c >= 0x80) n += c >= 0x800 && (c < 0xd800 || c > 0xdfff) ? 2 : 1;
  }
  return n;
}
