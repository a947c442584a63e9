import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
  SharedV4Warning,
} from '@ai-sdk/provider';
import { UNIQUE_TOOL_CALL_IDS } from '../chat/unique-call-ids.ts';
import { planReply } from './plan-reply.ts';
import type { OfflineReply, OfflineRule } from './types.ts';

/** Provider id of the offline model, so apps can label it in the UI. */
export const OFFLINE_PROVIDER = 'edgetool.offline';

/** Model id of the offline model. */
export const OFFLINE_MODEL_ID = 'edgetool-offline';

/** Options for {@link createOfflineModel}. */
export interface OfflineModelOptions {
  /** Pause between stream chunks (and once before a non-streamed answer), for stop-button demos. Default 0. */
  readonly delayMs?: number;
  /** Custom rules, evaluated in order before the built-in ones. */
  readonly rules?: readonly OfflineRule[];
  /** Words per streamed text delta. Default 3. */
  readonly wordsPerChunk?: number;
  /**
   * Tool call ids made from the prompt alone (the same prompt, the same ids), for tests that compare them. Default
   * `false`: each id also gets a random part, so a regenerated answer never reuses the id (and with it the recorded
   * result, the `callResults` key) of the answer it replaces, which the history no longer holds.
   */
  readonly deterministicIds?: boolean;
  /**
   * The clock that relative days ("tomorrow", "next Monday", "in 3 days", "end of the month") are read against, by
   * its UTC day as the demo's tools count "today". Default `new Date()`; tests pin it.
   */
  readonly now?: () => Date;
}

/** A planned reply turned into model output: content for `doGenerate`, parts for `doStream`. */
interface Rendered {
  readonly content: LanguageModelV4Content[];
  readonly parts: LanguageModelV4StreamPart[];
  readonly finishReason: LanguageModelV4FinishReason;
  readonly usage: LanguageModelV4Usage;
  readonly warnings: SharedV4Warning[];
  readonly responseId: string;
}

/**
 * A rule-based `LanguageModelV4` that calls tools and summarises their results, so demos and tests run without an API
 * key; deterministic but for its tool call ids (see `deterministicIds`). Works with `generateText`, `streamText` and
 * every AI SDK helper.
 */
/* @__NO_SIDE_EFFECTS__ */
export function createOfflineModel(options: OfflineModelOptions = {}): LanguageModelV4 {
  const delayMs = Math.max(0, options.delayMs ?? 0);
  const rules = options.rules ?? [];
  const wordsPerChunk = Math.max(1, Math.floor(options.wordsPerChunk ?? 3));
  const randomIds = options.deterministicIds !== true;
  const plan = { rules, now: options.now };
  return {
    // Random ids are new in any conversation: the chat loop need not rename them (withUniqueToolCallIds).
    ...(randomIds ? { [UNIQUE_TOOL_CALL_IDS]: true } : {}),
    specificationVersion: 'v4',
    provider: OFFLINE_PROVIDER,
    modelId: OFFLINE_MODEL_ID,
    supportedUrls: {},
    async doGenerate(call: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
      throwIfAborted(call.abortSignal);
      const rendered = render(call, planReply(call, plan), wordsPerChunk, randomIds);
      if (delayMs > 0) await sleep(delayMs, call.abortSignal);
      return {
        content: rendered.content,
        finishReason: rendered.finishReason,
        usage: rendered.usage,
        warnings: rendered.warnings,
        response: { id: rendered.responseId, modelId: OFFLINE_MODEL_ID },
      };
    },
    async doStream(call: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
      throwIfAborted(call.abortSignal);
      const rendered = render(call, planReply(call, plan), wordsPerChunk, randomIds);
      return { stream: toStream(rendered.parts, delayMs, call.abortSignal) };
    },
  };
}

/** Whether a model is the offline model (for an "offline" badge in the UI). */
export function isOfflineModel(model: unknown): boolean {
  return typeof model === 'object' && model !== null && (model as { provider?: unknown }).provider === OFFLINE_PROVIDER;
}

function render(call: LanguageModelV4CallOptions, reply: OfflineReply, wordsPerChunk: number, randomIds: boolean): Rendered {
  const seed = `${hash(JSON.stringify(call.prompt.at(-1) ?? null))}_${call.prompt.length}`;
  const responseId = `offline_${seed}`;
  const content: LanguageModelV4Content[] = [];
  const parts: LanguageModelV4StreamPart[] = [];
  const warnings: SharedV4Warning[] =
    call.responseFormat?.type === 'json'
      ? [{ type: 'unsupported', feature: 'responseFormat', details: 'The offline model answers in plain text.' }]
      : [];
  parts.push({ type: 'stream-start', warnings }, { type: 'response-metadata', id: responseId, modelId: OFFLINE_MODEL_ID });

  let outputChars = 0;
  const text = reply.text ?? '';
  if (text.length > 0) {
    const id = `text_${seed}`;
    content.push({ type: 'text', text });
    parts.push({ type: 'text-start', id });
    for (const delta of chunkText(text, wordsPerChunk)) parts.push({ type: 'text-delta', id, delta });
    parts.push({ type: 'text-end', id });
    outputChars += text.length;
  }
  const calls = reply.type === 'tool-calls' ? reply.calls : [];
  calls.forEach((toolCall, index) => {
    const toolCallId = randomIds ? `call_${seed}_${index}_${crypto.randomUUID().slice(0, 8)}` : `call_${seed}_${index}`;
    const input = typeof toolCall.input === 'string' ? toolCall.input : JSON.stringify(toolCall.input);
    content.push({ type: 'tool-call', toolCallId, toolName: toolCall.toolName, input });
    parts.push({ type: 'tool-input-start', id: toolCallId, toolName: toolCall.toolName });
    for (const delta of chunkJson(input)) parts.push({ type: 'tool-input-delta', id: toolCallId, delta });
    parts.push(
      { type: 'tool-input-end', id: toolCallId },
      { type: 'tool-call', toolCallId, toolName: toolCall.toolName, input },
    );
    outputChars += toolCall.toolName.length + input.length;
  });

  const finishReason: LanguageModelV4FinishReason =
    calls.length > 0 ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' };
  const usage = estimateUsage(call, outputChars);
  parts.push({ type: 'finish', finishReason, usage });
  return { content, parts, finishReason, usage, warnings, responseId };
}

function estimateUsage(call: LanguageModelV4CallOptions, outputChars: number): LanguageModelV4Usage {
  const promptChars = JSON.stringify(call.prompt).length + JSON.stringify(call.tools ?? []).length;
  const input = Math.max(1, Math.ceil(promptChars / 4));
  const output = Math.max(1, Math.ceil(outputChars / 4));
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

function chunkText(text: string, wordsPerChunk: number): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? [text];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerChunk) chunks.push(words.slice(i, i + wordsPerChunk).join(''));
  return chunks;
}

function chunkJson(json: string): string[] {
  if (json.length <= 8) return [json];
  const size = Math.ceil(json.length / 3);
  const chunks: string[] = [];
  for (let i = 0; i < json.length; i += size) chunks.push(json.slice(i, i + size));
  return chunks;
}

function toStream(
  parts: readonly LanguageModelV4StreamPart[],
  delayMs: number,
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV4StreamPart> {
  let index = 0;
  return new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      try {
        if (index > 0 && delayMs > 0) await sleep(delayMs, signal);
        throwIfAborted(signal);
      } catch (error) {
        controller.error(error);
        return;
      }
      const part = parts[index++];
      if (part === undefined) controller.close();
      else controller.enqueue(part);
    },
  });
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** FNV-1a, base 36: short deterministic ids that differ between conversations and steps. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}
