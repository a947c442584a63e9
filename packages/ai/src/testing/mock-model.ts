import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A model step that calls tools: `[toolCallId, toolName, input]` (a string input is sent verbatim). */
export function callsStep(calls: ReadonlyArray<readonly [string, string, unknown]>): LanguageModelV4StreamResult {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  for (const [toolCallId, toolName, input] of calls) {
    const json = typeof input === 'string' ? input : JSON.stringify(input);
    parts.push(
      { type: 'tool-input-start', id: toolCallId, toolName },
      { type: 'tool-input-delta', id: toolCallId, delta: json },
      { type: 'tool-input-end', id: toolCallId },
      { type: 'tool-call', toolCallId, toolName, input: json },
    );
  }
  parts.push({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage });
  return { stream: convertArrayToReadableStream(parts) };
}

/** A model step that answers with text. */
export function textStep(text: string): LanguageModelV4StreamResult {
  return {
    stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: text },
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ]),
  };
}

/**
 * A scripted model: each call takes the next step, streamed for `doStream` (`streamText`) or collected into one
 * response for `doGenerate` (`generateText`); the calls are recorded in `doStreamCalls` / `doGenerateCalls`.
 */
export function scriptedModel(...steps: LanguageModelV4StreamResult[]): MockLanguageModelV4 {
  let next = 0;
  const take = (): LanguageModelV4StreamResult => {
    const step = steps[next++];
    if (step === undefined) throw new Error(`scriptedModel: no step ${next} (the script has ${steps.length})`);
    return step;
  };
  return new MockLanguageModelV4({ doStream: async () => take(), doGenerate: async () => collectStep(take()) });
}

/** A streamed step as one `doGenerate` response: its text, tool calls, finish reason and usage. */
async function collectStep(step: LanguageModelV4StreamResult): Promise<LanguageModelV4GenerateResult> {
  const content: LanguageModelV4Content[] = [];
  let finish: Extract<LanguageModelV4StreamPart, { type: 'finish' }> | undefined;
  const reader = step.stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const part = read.value;
    if (part.type === 'text-delta') {
      const last = content.at(-1);
      if (last?.type === 'text') last.text += part.delta;
      else content.push({ type: 'text', text: part.delta });
    } else if (part.type === 'tool-call') content.push(part);
    else if (part.type === 'finish') finish = part;
  }
  if (finish === undefined) throw new Error('scriptedModel: a step without a finish part');
  return { content, finishReason: finish.finishReason, usage: finish.usage, warnings: [] };
}

/** The tool results the model saw in the last message of a call's prompt. */
export function lastToolResults(call: LanguageModelV4CallOptions | undefined): { toolCallId: string; output: unknown }[] {
  const last = call?.prompt.at(-1);
  if (last?.role !== 'tool') return [];
  return last.content.flatMap((part) => (part.type === 'tool-result' ? [{ toolCallId: part.toolCallId, output: part.output }] : []));
}
