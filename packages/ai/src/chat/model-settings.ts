import type { SharedV4ProviderOptions } from '@ai-sdk/provider';
import type { RunContext } from '@edgetool/core';
import type { LanguageModelCallOptions } from 'ai';

/**
 * The model's settings for every step of a turn: the AI SDK's call options (`temperature`, `maxOutputTokens`,
 * `reasoning`, `seed`, …), request headers, provider options (`{ openai: { … } }`), and which tool the model must
 * call. Set them on the agent; a turn's own settings override the agent's, field by field (provider options per
 * provider). They come from server code: never copy them from a client's request unchecked.
 */
export interface ModelSettings extends LanguageModelCallOptions {
  /** Extra HTTP headers for the provider's requests. */
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** Options of a provider, under its name: `{ openai: { parallelToolCalls: false } }`. */
  readonly providerOptions?: SharedV4ProviderOptions;
  /**
   * Whether the model must call a tool: `'auto'` (the default), `'none'`, `'required'`, or one tool by name. A named
   * tool must be one the turn's run may see (`policy.available`); otherwise the turn is refused before the model is
   * called, with `invalid-input`.
   */
  readonly toolChoice?: 'auto' | 'none' | 'required' | { readonly type: 'tool'; readonly toolName: string };
}

/**
 * What the model is told before the conversation: fixed text, or text made per run (the user's name and plan, today's
 * date, a deployment's rules). The function gets the turn's run, typed by the agent's deps.
 */
// A method's parameter is checked bivariantly: an agent typed by its deps stays assignable to `ChatAgent` (agentTool).
export type AgentInstructions<TDeps = unknown> = string | { bivariant(run: RunContext<TDeps>): string | Promise<string> }['bivariant'];
