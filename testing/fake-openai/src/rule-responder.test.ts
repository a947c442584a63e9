import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, isStepCount, jsonSchema, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCallLines, ruleResponder } from './rule-responder';
import { startFakeOpenAI } from './server';
import type { FakeOpenAI, RecordedRequest } from './types';

function request(messages: RecordedRequest['messages']): RecordedRequest {
  return {
    index: 0,
    endpoint: 'chat',
    path: '/v1/chat/completions',
    stream: false,
    model: 'm',
    body: {},
    headers: {},
    messages,
    toolNames: [],
  };
}

describe('ruleResponder', () => {
  it('echoes the last user message', () => {
    const turn = ruleResponder(
      request([
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ok', toolCalls: [] },
        { role: 'user', content: 'second' },
      ]),
    );
    expect(turn).toEqual({ text: 'You said: second' });
  });

  it('calls the tools named on /call lines, several lines in parallel, raw arguments kept', () => {
    expect(parseCallLines('please\n/call getWeather {"city":"Paris"}\n  /call ping\n/call bad {"a":')).toEqual([
      { name: 'getWeather', args: '{"city":"Paris"}' },
      { name: 'ping', args: '{}' },
      { name: 'bad', args: '{"a":' },
    ]);
    expect(ruleResponder(request([{ role: 'user', content: '/call ping' }]))).toEqual({
      toolCalls: [{ name: 'ping', args: '{}' }],
    });
    expect(parseCallLines('not a /call line')).toEqual([]);
  });

  it('a /tokens line sets the input tokens the reply to its calls reports', () => {
    expect(ruleResponder(request([{ role: 'user', content: '/call ping\n/tokens 60000' }]))).toEqual({
      toolCalls: [{ name: 'ping', args: '{}' }],
      usage: { inputTokens: 60000 },
    });
    // Only as a line of its own, and only with calls.
    expect(ruleResponder(request([{ role: 'user', content: '/call ping /tokens 5' }]))).not.toHaveProperty('usage');
    expect(ruleResponder(request([{ role: 'user', content: 'hello\n/tokens 5' }]))).toEqual({ text: 'You said: hello\n/tokens 5' });
  });

  it('summarises the trailing tool results with their tool names', () => {
    const turn = ruleResponder(
      request([
        { role: 'user', content: '/call a {}\n/call b {}' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'c1', name: 'a', arguments: '{}' },
            { id: 'c2', name: 'b', arguments: '{}' },
          ],
        },
        { role: 'tool', toolCallId: 'c1', content: '{"x":1}' },
        { role: 'tool', toolCallId: 'c2', content: '"done"' },
      ]),
    );
    expect(turn).toEqual({ text: 'Tool results: a returned {"x":1}; b returned "done".' });
  });
});

describe('ruleResponder through the real provider', () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ responder: ruleResponder });
  });
  afterAll(() => fake.close());

  it.each(['responses', 'chat'] as const)('drives a full tool loop over %s', async (api) => {
    const openai = createOpenAI({ baseURL: fake.baseURL, apiKey: 'test' });
    const result = await generateText({
      model: api === 'chat' ? openai.chat('gpt-4o') : openai('gpt-4o'),
      prompt: 'Add these.\n/call add {"a":1,"b":2}',
      tools: {
        add: tool({
          inputSchema: jsonSchema<{ a: number; b: number }>({
            type: 'object',
            properties: { a: { type: 'number' }, b: { type: 'number' } },
          }),
          execute: async ({ a, b }) => ({ sum: a + b }),
        }),
      },
      stopWhen: isStepCount(4),
    });
    expect(result.steps).toHaveLength(2);
    expect(result.text).toBe('Tool results: add returned {"sum":3}.');
  });
});

describe('CLI', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('starts the rule-based server and stops on SIGTERM', async () => {
    const cwd = fileURLToPath(new URL('..', import.meta.url));
    child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', '--', '--port', '0', '--api-key', 'k'], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.setEncoding('utf8');
    const baseURL = await new Promise<string>((resolve, reject) => {
      child?.stdout?.on('data', (chunk: string) => {
        output += chunk;
        const match = /listening on (\S+)/.exec(output);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      child?.once('exit', (code) => reject(new Error(`cli exited with ${code}: ${output}`)));
    });
    expect(baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);

    const response = await fetch(`${baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(await response.json()).toMatchObject({ choices: [{ message: { content: 'You said: hello' } }] });

    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
    child = undefined;
  }, 20_000);
});
