import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4StreamPart, LanguageModelV4Usage } from '@ai-sdk/provider';
import { convertArrayToReadableStream, convertReadableStreamToArray, MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { createOfflineModel } from '../offline-model/offline-model.ts';
import { UNIQUE_TOOL_CALL_IDS, withUniqueToolCallIds } from './unique-call-ids.ts';

const RENAMED = /^call_0_[0-9a-f]{12}$/;
const USAGE: LanguageModelV4Usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/** A prompt whose history already holds a call `call_0` and its result. */
const prompt = (ids: readonly string[] = ['call_0']): LanguageModelV4CallOptions['prompt'] => [
  { role: 'user', content: [{ type: 'text', text: 'hi' }] },
  { role: 'assistant', content: ids.map((id) => ({ type: 'tool-call' as const, toolCallId: id, toolName: 't', input: {} })) },
  { role: 'tool', content: ids.map((id) => ({ type: 'tool-result' as const, toolCallId: id, toolName: 't', output: { type: 'text' as const, value: 'ok' } })) },
];

const wrap = (model: ReturnType<typeof scriptedModel>, taken?: () => Iterable<string>) =>
  withUniqueToolCallIds(model, taken === undefined ? {} : { taken }) as LanguageModelV4;

async function streamed(model: LanguageModelV4, history: LanguageModelV4CallOptions['prompt']): Promise<LanguageModelV4StreamPart[]> {
  const { stream } = await model.doStream({ prompt: history });
  return convertReadableStreamToArray(stream);
}

/** Each stream part's call id, in order (`-` for parts that have none). */
const ids = (parts: readonly LanguageModelV4StreamPart[]) =>
  parts.map((p) => ('toolCallId' in p ? p.toolCallId : p.type.startsWith('tool-input') && 'id' in p ? p.id : '-'));

describe('uniqueToolCallIds', () => {
  it('passes a call whose id is new on as it is (the very same parts)', async () => {
    const inner = await convertReadableStreamToArray(callsStep([['call_9', 't', {}]]).stream);
    const parts = await streamed(wrap(scriptedModel({ stream: convertArrayToReadableStream(inner) })), prompt());
    expect(parts).toHaveLength(inner.length);
    for (const [i, part] of parts.entries()) expect(part).toBe(inner[i]);
  });

  it('renames a call id the history holds, the same way in its start, deltas, end and call', async () => {
    const parts = await streamed(wrap(scriptedModel(callsStep([['call_0', 't', { a: 1 }]]))), prompt());
    const seen = ids(parts).filter((id) => id !== '-');
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(1);
    expect(seen[0]).toMatch(RENAMED);
  });

  it('renames the second of two parallel calls with one id, and each later step’s repeat (the turn’s own ids)', async () => {
    const model = wrap(scriptedModel(callsStep([['call_0', 't', {}], ['call_0', 't', {}]]), callsStep([['call_0', 't', {}]]), textStep('done')));
    const first = ids(await streamed(model, prompt([]))).filter((id) => id !== '-');
    expect(first.slice(0, 4)).toEqual(['call_0', 'call_0', 'call_0', 'call_0']);
    expect(new Set(first.slice(4)).size).toBe(1);
    expect(first[4]).toMatch(RENAMED);
    // The next step's prompt is the AI SDK's (it would hold the first step's calls); the turn remembers them anyway.
    const second = ids(await streamed(model, prompt([]))).filter((id) => id !== '-');
    expect(second[0]).toMatch(RENAMED);
    expect([first[0], first[4]]).not.toContain(second[0]);
  });

  it('gives a call with an empty id (an OpenAI-compatible server that sends `id: ""`) a fresh one, streamed and generated', async () => {
    const parts = await streamed(wrap(scriptedModel(callsStep([['', 't', {}], ['', 't', {}]]))), prompt([]));
    const seen = ids(parts).filter((id) => id !== '-');
    expect(seen).toHaveLength(8);
    for (const id of seen) expect(id).toMatch(/^_[0-9a-f]{12}$/);
    expect(new Set(seen).size).toBe(2);
    const generated = await wrap(scriptedModel(callsStep([['', 't', {}]]))).doGenerate({ prompt: prompt([]) });
    expect(generated.content).toEqual([expect.objectContaining({ type: 'tool-call', toolCallId: expect.stringMatching(/^_[0-9a-f]{12}$/) })]);
  });

  it('takes the ids the caller names as taken (calls the model prompt leaves out)', async () => {
    const parts = await streamed(wrap(scriptedModel(callsStep([['call_0', 't', {}]])), () => ['call_0']), prompt([]));
    expect(ids(parts).filter((id) => id !== '-')[0]).toMatch(RENAMED);
  });

  it('renames a provider-executed call’s result with its call; a tool-call without a start gets a fresh id too', async () => {
    const stream = convertArrayToReadableStream<LanguageModelV4StreamPart>([
      { type: 'tool-call', toolCallId: 'call_0', toolName: 'web_search', input: '{}', providerExecuted: true },
      { type: 'tool-result', toolCallId: 'call_0', toolName: 'web_search', result: { hits: 1 } },
      {
        type: 'finish',
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
      },
    ]);
    const parts = await streamed(wrap(scriptedModel({ stream })), prompt());
    const [callId, resultId] = ids(parts);
    expect(callId).toMatch(RENAMED);
    expect(resultId).toBe(callId);
  });

  it('renames the calls of a generated (not streamed) answer', async () => {
    const model = wrap(scriptedModel(callsStep([['call_0', 't', {}], ['call_0', 't', {}]])));
    const { content } = await model.doGenerate({ prompt: prompt() });
    const called = content.flatMap((part) => (part.type === 'tool-call' ? [part.toolCallId] : []));
    expect(called).toHaveLength(2);
    expect(called[0]).toMatch(RENAMED);
    expect(called[1]).toMatch(RENAMED);
    expect(called[0]).not.toBe(called[1]);
  });

  it('passes a generated answer whose ids are all new on as it is (the very same object and parts)', async () => {
    const inner = { content: [{ type: 'tool-call' as const, toolCallId: 'call_9', toolName: 't', input: '{}' }], finishReason: { unified: 'tool-calls' as const, raw: undefined }, usage: USAGE, warnings: [] };
    const model = wrap(new MockLanguageModelV4({ doGenerate: async () => inner }) as ReturnType<typeof scriptedModel>);
    expect(await model.doGenerate({ prompt: prompt() })).toBe(inner);
  });

  it('renames only the repeat of two generated calls with one id, and a provider-executed result with its call', async () => {
    const content: LanguageModelV4Content[] = [
      { type: 'tool-call', toolCallId: 'call_7', toolName: 't', input: '{}' },
      { type: 'tool-call', toolCallId: 'call_7', toolName: 'web_search', input: '{}', providerExecuted: true },
      { type: 'tool-result', toolCallId: 'call_7', toolName: 'web_search', result: { hits: 1 } },
    ];
    const model = wrap(new MockLanguageModelV4({ doGenerate: async () => ({ content, finishReason: { unified: 'tool-calls', raw: undefined }, usage: USAGE, warnings: [] }) }) as ReturnType<typeof scriptedModel>);
    const result = await model.doGenerate({ prompt: prompt() });
    const [first, second, third] = result.content as { toolCallId: string }[];
    expect(first).toBe(content[0]);
    expect(second?.toolCallId).toMatch(/^call_7_[0-9a-f]{12}$/);
    expect(third?.toolCallId).toBe(second?.toolCallId);
    // The model's own parts are not changed.
    expect(content.map((part) => (part as { toolCallId: string }).toolCallId)).toEqual(['call_7', 'call_7', 'call_7']);
  });

  it('leaves a gateway model id (a string) as it is', () => {
    expect(withUniqueToolCallIds('openai/gpt-4o')).toBe('openai/gpt-4o');
  });

  it('leaves a model that says its ids are unique unwrapped: the offline model with random ids, not with deterministic ones', () => {
    const random = createOfflineModel();
    expect((random as { [UNIQUE_TOOL_CALL_IDS]?: unknown })[UNIQUE_TOOL_CALL_IDS]).toBe(true);
    expect(withUniqueToolCallIds(random)).toBe(random);
    const deterministic = createOfflineModel({ deterministicIds: true });
    expect(withUniqueToolCallIds(deterministic)).not.toBe(deterministic);
    const said = Object.assign(createOfflineModel({ deterministicIds: true }), { [UNIQUE_TOOL_CALL_IDS]: true });
    expect(withUniqueToolCallIds(said)).toBe(said);
  });
});
