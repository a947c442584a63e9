import type { FakeToolCall, FakeTurn, NormalisedMessage, RecordedRequest } from './types';

const CALL_LINE = /^\s*\/call\s+([A-Za-z0-9_.-]+)[ \t]*(.*)$/gm;

/** Parses `/call tool_name {"a":1}` lines (one call per line, so several lines make parallel calls). */
export function parseCallLines(text: string): FakeToolCall[] {
  return [...text.matchAll(CALL_LINE)].map((match) => {
    const args = (match[2] ?? '').trim();
    return { name: match[1] ?? '', args: args === '' ? '{}' : args };
  });
}

const TOKENS_LINE = /^\s*\/tokens\s+(\d+)\s*$/m;

/** The input tokens a `/tokens N` line asks the reply to its calls to report (`undefined` without one). */
function reportedTokens(text: string): number | undefined {
  const match = TOKENS_LINE.exec(text);
  return match === null ? undefined : Number(match[1]);
}

function toolNameFor(messages: readonly NormalisedMessage[], callId: string): string {
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    const call = message.toolCalls.find((candidate) => candidate.id === callId);
    if (call !== undefined) return call.name;
  }
  return 'unknown tool';
}

/**
 * A deterministic stand-in for a model: `/call name {json}` lines in the last user message call
 * tools (a `/tokens N` line makes that reply report N input tokens, for tests of token budgets); after tool results
 * it summarises them; otherwise it echoes `You said: …`.
 */
export function ruleResponder(request: RecordedRequest): FakeTurn {
  const { messages } = request;
  const results: string[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== 'tool') break;
    results.unshift(`${toolNameFor(messages, message.toolCallId)} returned ${message.content}`);
  }
  if (results.length > 0) return { text: `Tool results: ${results.join('; ')}.` };

  const said = [...messages].reverse().find((message) => message.role === 'user')?.content ?? '';
  const calls = parseCallLines(said);
  const tokens = reportedTokens(said);
  if (calls.length > 0) return tokens === undefined ? { toolCalls: calls } : { toolCalls: calls, usage: { inputTokens: tokens } };
  return { text: `You said: ${said}` };
}
