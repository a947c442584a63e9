import type { ModelMessage } from 'ai';
import type { IMAGE_TOKEN_ESTIMATE, imageTokens, PDF_PAGE_TOKEN_ESTIMATE } from './file-tokens.ts';
import { estimatePrompt } from './prompt-files.ts';

export { IMAGE_TOKEN_ESTIMATE, imageTokens, PDF_PAGE_TOKEN_ESTIMATE } from './file-tokens.ts';
export { utf8Bytes } from './prompt-files.ts';

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
 * least one page when none shows), any other file by its bytes / 4. This function inflates nothing: a PDF whose pages
 * are all in compressed object streams counts its bytes / 4 here, and by its pages in the chat loop's own use of it,
 * which inflates them before the turn's first model call (and counts each file once a turn).
 */
export function estimateInputTokens(prompt: PromptToEstimate): number {
  return estimatePrompt(prompt, undefined);
}
