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
});
