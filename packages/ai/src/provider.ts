import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import { createOfflineModel, type OfflineModelOptions } from './offline-model/index.ts';

/** The configuration edgetool reads (Worker vars/secrets, `.dev.vars`, or `process.env`). */
export interface ModelEnv {
  /** Set it to use OpenAI (or any OpenAI-compatible server); without it the offline model answers. */
  readonly OPENAI_API_KEY?: string | undefined;
  /** Any OpenAI-compatible server, e.g. `http://127.0.0.1:8788/v1` (default: OpenAI); needs `OPENAI_API_KEY` too. */
  readonly OPENAI_BASE_URL?: string | undefined;
  /** Default `gpt-4o-mini`. */
  readonly OPENAI_MODEL?: string | undefined;
  /** `responses` (default, `openai(model)`) or `chat` (`openai.chat(model)`, Chat Completions). */
  readonly OPENAI_API?: string | undefined;
}

/** The model to use and how to name it. */
export interface ModelChoice {
  readonly model: LanguageModel;
  readonly provider: string;
  readonly modelId: string;
  readonly offline: boolean;
}

/** Default model id when `OPENAI_MODEL` is not set. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';

/**
 * Picks the model from configuration: OpenAI (Responses or Chat Completions, any base URL) when
 * `OPENAI_API_KEY` is set, else the offline rule-based model, so a demo runs with no key at all.
 * `OPENAI_BASE_URL` without a key throws: a server was named, and silently answering offline would hide it.
 */
export function createModelFromEnv(env: ModelEnv, options: { readonly offline?: OfflineModelOptions; readonly fetch?: typeof fetch } = {}): ModelChoice {
  const apiKey = env.OPENAI_API_KEY?.trim();
  if (!apiKey && env.OPENAI_BASE_URL?.trim()) {
    throw new TypeError(
      `OPENAI_BASE_URL is set (${env.OPENAI_BASE_URL.trim()}) but OPENAI_API_KEY is not: set OPENAI_API_KEY too (any non-empty value for a server that checks no key), or unset OPENAI_BASE_URL for the offline model.`,
    );
  }
  if (!apiKey) {
    const model = createOfflineModel(options.offline ?? {});
    return { model, provider: model.provider, modelId: model.modelId, offline: true };
  }
  const api = env.OPENAI_API?.trim().toLowerCase() || 'responses';
  if (api !== 'responses' && api !== 'chat') throw new TypeError(`OPENAI_API must be "responses" or "chat", not ${JSON.stringify(env.OPENAI_API)}.`);
  const openai = createOpenAI({
    apiKey,
    ...(env.OPENAI_BASE_URL?.trim() ? { baseURL: env.OPENAI_BASE_URL.trim() } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const modelId = env.OPENAI_MODEL?.trim() || DEFAULT_OPENAI_MODEL;
  const model = api === 'chat' ? openai.chat(modelId) : openai(modelId);
  return { model, provider: model.provider, modelId, offline: false };
}
