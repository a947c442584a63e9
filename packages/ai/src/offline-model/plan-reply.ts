import type {
  LanguageModelV4CallOptions,
  LanguageModelV4FunctionTool,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultPart,
} from '@ai-sdk/provider';
import { describeArgument, extractArgumentSets } from './extract-arguments.ts';
import { pickTool } from './match-tool.ts';
import { summarizeToolResults } from './summarize-results.ts';
import type { OfflineReply, OfflineRule, OfflineRuleInput, OfflineToolCall } from './types.ts';

/** Marker the model uses when it asks for a missing argument, so the next user message is read together with it. */
export const ASK_MARKER = 'I still need';

const SLASH_LINE = /^\s*\/([A-Za-z_][\w.-]*)(?:\s+(.*?))?\s*$/;

/** Decides the reply for one model call: custom rules, then tool results, slash commands, tool matching, help. */
export function planReply(options: LanguageModelV4CallOptions, rules: readonly OfflineRule[] = []): OfflineReply {
  const ruleInput = readPrompt(options);
  for (const rule of rules) {
    const reply = rule(ruleInput);
    if (typeof reply === 'string') return { type: 'text', text: reply };
    if (reply !== undefined) return reply;
  }
  if (ruleInput.toolResults.length > 0) return { type: 'text', text: summarizeToolResults(ruleInput.toolResults) };

  const choice = options.toolChoice ?? { type: 'auto' };
  const tools = choice.type === 'tool' ? ruleInput.tools.filter((t) => t.name === choice.toolName) : ruleInput.tools;
  if (choice.type === 'none') return { type: 'text', text: helpText(ruleInput.userText, []) };

  // A forced tool (`toolChoice: { type: 'tool' }`) is the only one a slash command may call: the AI SDK rejects any other.
  const known = ruleInput.tools.map((t) => t.name);
  const slashCalls = parseSlashCommands(ruleInput.userText, known).filter((call) => choice.type !== 'tool' || call.toolName === choice.toolName);
  if (slashCalls.length > 0) return { type: 'tool-calls', calls: slashCalls };

  const text = withPendingQuestion(options.prompt, ruleInput.userText);
  const forced = choice.type === 'required' || choice.type === 'tool';
  const tool = pickTool(text, tools) ?? (forced ? tools[0] : undefined);
  if (tool === undefined) return { type: 'text', text: helpText(ruleInput.userText, ruleInput.tools) };

  const sets = extractArgumentSets(text, tool.inputSchema);
  const { missing } = sets[0];
  if (missing.length > 0 && !forced) {
    const needs = missing.map((name) => describeArgument(tool.inputSchema, name));
    return {
      type: 'text',
      text: `I can do that with ${tool.name}, but ${ASK_MARKER} ${joinList(needs)}. Could you tell me?`,
    };
  }
  // Several ids of one shape ("orders A-1002 and A-1003"): one call each, in parallel, as a model makes them.
  return { type: 'tool-calls', calls: sets.map((set) => ({ toolName: tool.name, input: set.input })) };
}

/**
 * Lines of the form `/tool_name {json}`; each becomes one call, so several lines make parallel calls.
 *
 * A line is a command when it names one of `toolNames`, or when its arguments start with `{` (so `/nope {}` still
 * tests an unknown tool): `/tmp is full` is text. JSON may go on over the next lines (`/tool {` … `}`); arguments that
 * never parse pass through as text, so the SDK reports invalid input.
 */
export function parseSlashCommands(text: string, toolNames?: readonly string[]): OfflineToolCall[] {
  const calls: OfflineToolCall[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = SLASH_LINE.exec(lines[i] ?? '');
    if (match === null) continue;
    const toolName = match[1] ?? '';
    const raw = (match[2] ?? '').trim();
    if (toolNames !== undefined && !toolNames.includes(toolName) && !raw.startsWith('{')) continue;
    if (raw.length === 0) {
      calls.push({ toolName, input: {} });
      continue;
    }
    const json = raw.startsWith('{') ? readJsonObject(raw, lines, i + 1) : undefined;
    if (json === undefined) {
      calls.push({ toolName, input: raw });
      continue;
    }
    calls.push({ toolName, input: json.value });
    i = json.lastLine;
  }
  return calls;
}

/** The JSON object that starts `raw` and may go on over the lines from `next`; `undefined` if it never parses. */
function readJsonObject(raw: string, lines: readonly string[], next: number): { value: Record<string, unknown>; lastLine: number } | undefined {
  let text = raw;
  for (let line = next - 1; ; line++) {
    const value = parseObject(text);
    if (value !== undefined) return { value, lastLine: line };
    // Stop at the next command, or after 200 lines: a brace left open must not swallow the rest of the message.
    const following = lines[line + 1];
    if (following === undefined || line + 1 - next >= 200 || SLASH_LINE.test(following)) return undefined;
    text += `\n${following}`;
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function readPrompt(options: LanguageModelV4CallOptions): OfflineRuleInput {
  const prompt = options.prompt;
  const tools = (options.tools ?? []).filter((tool): tool is LanguageModelV4FunctionTool => tool.type === 'function');
  const toolResults: LanguageModelV4ToolResultPart[] = [];
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message?.role !== 'tool') break;
    const parts = message.content.filter((part): part is LanguageModelV4ToolResultPart => part.type === 'tool-result');
    toolResults.unshift(...parts);
  }
  return { prompt, userText: userTextAt(prompt, lastIndexOfRole(prompt, 'user')), tools, toolResults };
}

function lastIndexOfRole(prompt: LanguageModelV4Prompt, role: string, before = prompt.length): number {
  for (let i = before - 1; i >= 0; i--) if (prompt[i]?.role === role) return i;
  return -1;
}

function userTextAt(prompt: LanguageModelV4Prompt, index: number): string {
  const message = prompt[index];
  if (message?.role !== 'user') return '';
  return message.content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n')
    .trim();
}

/** When the model's last answer asked for a missing argument, reads the earlier request together with the reply. */
function withPendingQuestion(prompt: LanguageModelV4Prompt, userText: string): string {
  const userIndex = lastIndexOfRole(prompt, 'user');
  const previous = prompt[userIndex - 1];
  if (previous?.role !== 'assistant') return userText;
  const asked = previous.content.some((part) => part.type === 'text' && part.text.includes(ASK_MARKER));
  if (!asked) return userText;
  const earlier = userTextAt(prompt, lastIndexOfRole(prompt, 'user', userIndex - 1));
  return earlier.length > 0 ? `${earlier}\n${userText}` : userText;
}

function helpText(userText: string, tools: readonly LanguageModelV4FunctionTool[]): string {
  const intro = "I'm the offline model: a small rule-based stand-in that runs without an API key.";
  if (tools.length === 0) {
    return `${intro} No tools are available in this conversation, so I can only chat in a limited way.${
      userText.length > 0 ? ` You said: "${userText.slice(0, 120)}".` : ''
    }`;
  }
  const list = tools
    .map((tool) => (tool.description !== undefined ? `${tool.name} (${firstSentence(tool.description)})` : tool.name))
    .map((line) => `- ${line}`)
    .join('\n');
  return `${intro} I did not find a tool for that. I can use these tools:\n${list}\nAsk in plain words, or type /tool_name {"arg": "value"} to call one directly.`;
}

function firstSentence(text: string): string {
  const sentence = text.split(/(?<=[.!?])\s/)[0] ?? text;
  return sentence.replace(/[.!?]$/, '');
}

function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
