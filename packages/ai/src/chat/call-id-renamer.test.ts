// The renamer names a call whose tool name no tool can have `invalid_tool_name`, but never a provider-executed call,
// whose name is the provider's own tool: in a generated answer and in a streamed one alike.
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
