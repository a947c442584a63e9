// The renamer names a call whose tool name no tool can have `invalid_tool_name`, but never a provider-executed call,
// whose name is the provider's own tool: in a generated answer and in a streamed one alike.
// It also reads a finish reason that means the model ended its turn (eos_token) as OpenAI would say it.
import type { LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { convertArrayToReadableStream, convertReadableStreamToArray } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { callIdRenamer } from './call-id-renamer.ts';

const call = { prompt: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Go' }] }] };

describe('callIdRenamer and tool names', () => {
  it('a generated answer: a blank name of our call is renamed, a provider-executed call keeps its own', () => {
    const content: LanguageModelV4Content[] = [
      { type: 'tool-call', toolCallId: 'a', toolName: ' ', input: '{}' },
      { type: 'tool-call', toolCallId: 'b', toolName: '', input: '{}', providerExecuted: true },
    ];
    const out = callIdRenamer().generated(call, { content });
    expect(out.content.map((part) => (part.type === 'tool-call' ? part.toolName : part.type))).toEqual(['invalid_tool_name', '']);
  });

  it('a streamed answer: the same, from the input start to the call', async () => {
    const parts: LanguageModelV4StreamPart[] = [
      { type: 'tool-input-start', id: 'a', toolName: '' },
      { type: 'tool-input-end', id: 'a' },
      { type: 'tool-call', toolCallId: 'a', toolName: '', input: '{}' },
      { type: 'tool-input-start', id: 'b', toolName: '', providerExecuted: true },
      { type: 'tool-input-end', id: 'b' },
      { type: 'tool-call', toolCallId: 'b', toolName: '', input: '{}', providerExecuted: true },
    ];
    const out = await convertReadableStreamToArray(callIdRenamer().streamed(call, convertArrayToReadableStream(parts)));
    const names = out.flatMap((part) => (part.type === 'tool-input-start' || part.type === 'tool-call' ? [`${part.type}:${part.toolName}`] : []));
    expect(names).toEqual(['tool-input-start:invalid_tool_name', 'tool-call:invalid_tool_name', 'tool-input-start:', 'tool-call:']);
  });
});

describe('callIdRenamer and calls cut by the output token limit', () => {
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
  const finish = (unified: 'length' | 'tool-calls'): LanguageModelV4StreamPart => ({ type: 'finish', finishReason: { unified, raw: undefined }, usage });
  const calls: LanguageModelV4StreamPart[] = [
    { type: 'tool-call', toolCallId: 'bad', toolName: 'q', input: '{"id": "A' },
    { type: 'tool-call', toolCallId: 'good', toolName: 'q', input: '{"id":"B"}' },
  ];

  it.each([
    ['length', ['bad']],
    ['tool-calls', []],
  ] as const)('a streamed step that ends with %s: calls whose arguments are not JSON are held to the finish, in order', async (reason, expected) => {
    const cut: string[] = [];
    const parts = [{ type: 'text-delta', id: 't', delta: 'x' } as const, ...calls, { type: 'text-delta', id: 't', delta: 'y' } as const, finish(reason)];
    const out = await convertReadableStreamToArray(callIdRenamer(undefined, (id) => cut.push(id)).streamed(call, convertArrayToReadableStream(parts)));
    expect(out.map((part) => (part.type === 'tool-call' ? part.toolCallId : part.type))).toEqual(['text-delta', 'text-delta', 'bad', 'good', 'finish']);
    expect(cut).toEqual(expected);
  });

  it('a stream without a finish still hands its held calls on, none cut', async () => {
    const cut: string[] = [];
    const out = await convertReadableStreamToArray(callIdRenamer(undefined, (id) => cut.push(id)).streamed(call, convertArrayToReadableStream([...calls])));
    expect(out.map((part) => (part.type === 'tool-call' ? part.toolCallId : part.type))).toEqual(['bad', 'good']);
    expect(cut).toEqual([]);
  });

  it('a generated answer at the limit: its calls whose arguments are not JSON', () => {
    const cut: string[] = [];
    const content = calls as LanguageModelV4Content[];
    callIdRenamer(undefined, (id) => cut.push(id)).generated(call, { content, finishReason: { unified: 'tool-calls' } });
    expect(cut).toEqual([]);
    callIdRenamer(undefined, (id) => cut.push(id)).generated(call, { content, finishReason: { unified: 'length' } });
    expect(cut).toEqual(['bad']);
  });
});

describe('callIdRenamer and finish reasons that mean the model ended its turn', () => {
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
  const ended = (raw: string | undefined, unified: 'other' | 'length' = 'other'): LanguageModelV4StreamPart => ({ type: 'finish', finishReason: { unified, raw }, usage });
  const ourCall: LanguageModelV4StreamPart = { type: 'tool-call', toolCallId: 'a', toolName: 'q', input: '{}' };
  const theirCall: LanguageModelV4StreamPart = { type: 'tool-call', toolCallId: 'b', toolName: 'web_search', input: '{}', providerExecuted: true };
  const finishOf = async (parts: LanguageModelV4StreamPart[]) =>
    (await convertReadableStreamToArray(callIdRenamer().streamed(call, convertArrayToReadableStream(parts)))).find((part) => part.type === 'finish');

  it('eos_token, eos and end_turn read as other: tool-calls after a call of ours, stop after none (a provider-executed call is not ours)', async () => {
    for (const raw of ['eos_token', 'eos', 'end_turn']) {
      expect(await finishOf([ourCall, ended(raw)])).toMatchObject({ finishReason: { unified: 'tool-calls', raw } });
      expect(await finishOf([theirCall, ended(raw)])).toMatchObject({ finishReason: { unified: 'stop', raw } });
      const content = [ourCall] as LanguageModelV4Content[];
      expect(callIdRenamer().generated(call, { content, finishReason: { unified: 'other', raw } }).finishReason).toEqual({ unified: 'tool-calls', raw });
      expect(callIdRenamer().generated(call, { content: [], finishReason: { unified: 'other', raw } }).finishReason).toEqual({ unified: 'stop', raw });
    }
  });

  it('any other raw reason, none, or a reason the provider read as something else: left as it is', async () => {
    for (const part of [ended('pause_turn'), ended(undefined), ended('eos_token', 'length')]) expect(await finishOf([ourCall, part])).toBe(part);
    const result = { content: [ourCall] as LanguageModelV4Content[], finishReason: { unified: 'other', raw: 'compaction' } };
    expect(callIdRenamer().generated(call, result)).toBe(result);
  });
});
