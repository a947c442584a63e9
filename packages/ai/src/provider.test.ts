import { describe, expect, it } from 'vitest';
import { isOfflineModel } from './offline-model/index.ts';
import { createModelFromEnv, DEFAULT_OPENAI_MODEL } from './provider.ts';

describe('createModelFromEnv', () => {
  it('uses the offline model, named as such, when no API key is configured', () => {
    for (const env of [{}, { OPENAI_API_KEY: '' }, { OPENAI_API_KEY: '   ', OPENAI_MODEL: 'gpt-4o' }]) {
      const choice = createModelFromEnv(env);
      expect(choice.offline).toBe(true);
      expect(isOfflineModel(choice.model)).toBe(true);
      expect(choice.modelId).toBe('edgetool-offline');
    }
  });

  it('uses OpenAI Responses by default, Chat Completions with OPENAI_API=chat, and OPENAI_MODEL', () => {
    const responses = createModelFromEnv({ OPENAI_API_KEY: 'sk-test' });
    expect(responses).toMatchObject({ offline: false, modelId: DEFAULT_OPENAI_MODEL, provider: 'openai.responses' });
    const chat = createModelFromEnv({ OPENAI_API_KEY: 'sk-test', OPENAI_API: 'chat', OPENAI_MODEL: 'gpt-4o' });
    expect(chat).toMatchObject({ offline: false, modelId: 'gpt-4o', provider: 'openai.chat' });
    expect(() => createModelFromEnv({ OPENAI_API_KEY: 'k', OPENAI_API: 'completions' })).toThrow(/OPENAI_API must be/);
  });

  it('refuses OPENAI_BASE_URL without OPENAI_API_KEY instead of answering offline, and says what to set', () => {
    // A local server that takes no key (llama.cpp, Ollama) is named by its URL alone: the offline model would hide it.
    for (const key of [undefined, '', '  ']) {
      expect(() => createModelFromEnv({ OPENAI_API_KEY: key, OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' })).toThrow(
        /^OPENAI_BASE_URL is set \(http:\/\/127\.0\.0\.1:11434\/v1\) but OPENAI_API_KEY is not: set OPENAI_API_KEY too \(any non-empty value/,
      );
    }
    expect(createModelFromEnv({ OPENAI_BASE_URL: '  ' }).offline).toBe(true);
    expect(createModelFromEnv({ OPENAI_API_KEY: 'none', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' })).toMatchObject({ offline: false, provider: 'openai.responses' });
  });
});
