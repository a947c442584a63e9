import type { ModelMessage } from 'ai';
import { fileBytes, IMAGE_TOKEN_ESTIMATE, imageSize, imageTokens, isPdf, PDF_PAGE_TOKEN_ESTIMATE, pdfPages } from './file-tokens.ts';

export { IMAGE_TOKEN_ESTIMATE, imageTokens, PDF_PAGE_TOKEN_ESTIMATE } from './file-tokens.ts';

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

/** Tokens each message, and each tool definition, counts beyond its text (roles, separators, the provider's framing). */
const OVERHEAD_TOKENS = 8;

/**
 * The default estimate of a model call's input tokens for the budget check made before each call: the UTF-8 bytes of
 * every text it sends (instructions, message parts, tool call arguments and results, tool names, descriptions and
 * schemas) divided by 4, rounded up, plus 8 tokens per message and per tool. Bytes rather than characters, so that
 * scripts whose characters take 2-3 bytes (and more tokens each) count more: English prose and JSON run at 4-5 bytes a
 * token, so the estimate is a little over the provider's count for them (a 416 KB history the provider counted as
 * 89,550 tokens estimates about 107,000), and close to it for CJK text. It reads no tokenizer: it is linear in the
 * prompt's size, and costs no download.
 *
 * Files count as providers bill them, on the safe side: an image by its pixels, read from its header
 * ({@link imageTokens}: the most the providers' rules give; {@link IMAGE_TOKEN_ESTIMATE} when no size can be read), a
 * PDF by its pages ({@link PDF_PAGE_TOKEN_ESTIMATE} each, the pages counted from its page objects; its bytes / 4 and at
 * least one page when none shows), any other file by its bytes / 4.
 */
export function estimateInputTokens(prompt: PromptToEstimate): number {
  let tokens = 0;
  let bytes = prompt.instructions === undefined ? 0 : utf8Bytes(prompt.instructions);
  for (const message of prompt.messages) {
    tokens += OVERHEAD_TOKENS;
    const counted = countValue(message);
    bytes += counted.bytes;
    tokens += counted.tokens;
  }
  for (const tool of prompt.tools) {
    tokens += OVERHEAD_TOKENS;
    bytes += utf8Bytes(tool.name) + (tool.description === undefined ? 0 : utf8Bytes(tool.description)) + countValue(tool.inputSchema).bytes;
  }
  return tokens + Math.ceil(bytes / 4);
}

/** Keys whose values reach no model as tokens (a provider's options and metadata). */
const UNCOUNTED = new Set(['providerOptions', 'providerMetadata']);

/** The bytes of a message's texts (keys included, as their JSON would carry them), and the tokens of its images and PDFs. */
function countValue(value: unknown): { bytes: number; tokens: number } {
  let bytes = 0;
  let tokens = 0;
  const walk = (v: unknown, depth: number): void => {
    if (typeof v === 'string') bytes += utf8Bytes(v);
    else if (typeof v === 'number' || typeof v === 'boolean') bytes += String(v).length;
    else if (typeof v !== 'object' || v === null) return;
    else if (v instanceof Uint8Array || v instanceof ArrayBuffer) bytes += v.byteLength;
    else if (v instanceof URL) bytes += utf8Bytes(v.href);
    else if (depth > 64) return;
    else if (Array.isArray(v)) for (const item of v) walk(item, depth + 1);
    else {
      const file = fileTokens(v);
      if (file !== undefined) {
        tokens += file;
        return;
      }
      for (const [key, item] of Object.entries(v)) {
        if (UNCOUNTED.has(key)) continue;
        bytes += key.length;
        walk(item, depth + 1);
      }
    }
  };
  walk(value, 0);
  return { bytes, tokens };
}

/**
 * The tokens of a message part that is an image (an `image` part, or a `file` or tool-output part of an image type)
 * or a PDF; `undefined` for any other part.
 */
function fileTokens(part: object): number | undefined {
  const { type, mediaType } = part as { type?: unknown; mediaType?: unknown };
  const media = typeof mediaType === 'string' ? mediaType.toLowerCase() : '';
  const image = type === 'image' || type === 'image-data' || type === 'image-url' || type === 'image-file-id';
  const file = type === 'file' || type === 'file-data' || type === 'media';
  if (image || (file && (media === 'image' || media.startsWith('image/')))) {
    const bytes = fileBytes(partData(part));
    const size = bytes === undefined ? undefined : imageSize(bytes);
    return size === undefined ? IMAGE_TOKEN_ESTIMATE : imageTokens(size.width, size.height);
  }
  if (!file) return undefined;
  const bytes = fileBytes(partData(part));
  if (media !== 'application/pdf' && (bytes === undefined || !isPdf(bytes))) return undefined;
  // A PDF the provider fetches itself, or one named by a file reference: its pages are unknown here, one is counted.
  if (bytes === undefined) return PDF_PAGE_TOKEN_ESTIMATE;
  const pages = pdfPages(bytes);
  return pages > 0 ? pages * PDF_PAGE_TOKEN_ESTIMATE : Math.max(PDF_PAGE_TOKEN_ESTIMATE, Math.ceil(bytes.length / 4));
}

/** Where a part keeps its file: `image` for an image part, `url` for an image URL part, `data` for the others. */
function partData(part: object): unknown {
  const { type, image, url, data } = part as { type?: unknown; image?: unknown; url?: unknown; data?: unknown };
  return type === 'image' ? image : type === 'image-url' ? url : data;
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
