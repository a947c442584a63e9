import type { LanguageModelV4FunctionTool, LanguageModelV4Prompt, LanguageModelV4ToolResultPart } from '@ai-sdk/provider';

/** A tool call the offline model decided to make; `input` is sent as JSON (a string is sent as is, even if invalid). */
export interface OfflineToolCall {
  readonly toolName: string;
  readonly input: Readonly<Record<string, unknown>> | string;
}

/** What the offline model answers: text, or tool calls (optionally preceded by text). */
export type OfflineReply =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool-calls'; readonly calls: readonly OfflineToolCall[]; readonly text?: string };

/** What a custom rule sees: the raw prompt plus the parts the built-in rules use. */
export interface OfflineRuleInput {
  readonly prompt: LanguageModelV4Prompt;
  /** Text of the last user message (empty when there is none). */
  readonly userText: string;
  /** Function tools offered in this call, in the order the AI SDK sent them. */
  readonly tools: readonly LanguageModelV4FunctionTool[];
  /** Tool results that end the prompt (empty unless the prompt ends with a tool message). */
  readonly toolResults: readonly LanguageModelV4ToolResultPart[];
}

/** A custom rule, evaluated before the built-in ones; `undefined` passes to the next rule. A string is a text reply. */
export type OfflineRule = (input: OfflineRuleInput) => OfflineReply | string | undefined;
