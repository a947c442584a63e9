import type { ToolCallResult } from '@edgetool/core';
import type { LanguageModelUsage } from 'ai';

/**
 * The tokens a turn used: the AI SDK's `LanguageModelUsage`, summed over the turn's model steps and over the turns of the
 * agents it ran as tools (`agentTool`). A count the provider did not report stays `undefined` (no provider reported it
 * for any step), so `0` always means zero. The provider's raw usage is left out: per-step raw shapes do not add up.
 */
export type TurnUsage = Omit<LanguageModelUsage, 'raw'>;

/** Token counts as the client reads them in a message's metadata (`metadata.usage`): the turn's {@link TurnUsage}, flat. */
export interface MessageUsage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly totalTokens?: number;
  /** Output tokens spent on reasoning (part of `outputTokens`). */
  readonly reasoningTokens?: number;
  /** Input tokens read from the provider's prompt cache (part of `inputTokens`). */
  readonly cachedInputTokens?: number;
}

/** No tokens yet: every count unknown. */
export function emptyUsage(): TurnUsage {
  return {
    inputTokens: undefined,
    inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined },
    outputTokens: undefined,
    outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
    totalTokens: undefined,
  };
}

/** `a + b` for counts that may be unknown: unknown only when both are. Counts that are not finite numbers are unknown. */
function add(a: number | undefined, b: unknown): number | undefined {
  const n = typeof b === 'number' && Number.isFinite(b) ? b : undefined;
  return a === undefined ? n : n === undefined ? a : a + n;
}

/** The sum of two usages (`b` may come from a provider or a tool's output: anything that is not a count is unknown). */
export function addUsage(a: TurnUsage, b: Partial<LanguageModelUsage> | MessageUsage | undefined): TurnUsage {
  if (b === undefined) return a;
  const full = b as Partial<LanguageModelUsage>;
  const flat = b as MessageUsage;
  return {
    inputTokens: add(a.inputTokens, b.inputTokens),
    inputTokenDetails: {
      noCacheTokens: add(a.inputTokenDetails.noCacheTokens, full.inputTokenDetails?.noCacheTokens),
      cacheReadTokens: add(a.inputTokenDetails.cacheReadTokens, full.inputTokenDetails?.cacheReadTokens ?? flat.cachedInputTokens),
      cacheWriteTokens: add(a.inputTokenDetails.cacheWriteTokens, full.inputTokenDetails?.cacheWriteTokens),
    },
    outputTokens: add(a.outputTokens, b.outputTokens),
    outputTokenDetails: {
      textTokens: add(a.outputTokenDetails.textTokens, full.outputTokenDetails?.textTokens),
      reasoningTokens: add(a.outputTokenDetails.reasoningTokens, full.outputTokenDetails?.reasoningTokens ?? flat.reasoningTokens),
    },
    totalTokens: add(a.totalTokens, b.totalTokens),
  };
}

/** The flat form for message metadata: only the counts that are known. */
export function messageUsage(usage: TurnUsage): MessageUsage {
  const counts: [keyof MessageUsage, number | undefined][] = [
    ['inputTokens', usage.inputTokens],
    ['outputTokens', usage.outputTokens],
    ['totalTokens', usage.totalTokens],
    ['reasoningTokens', usage.outputTokenDetails.reasoningTokens],
    ['cachedInputTokens', usage.inputTokenDetails.cacheReadTokens],
  ];
  return Object.fromEntries(counts.filter(([, n]) => n !== undefined));
}

/** What an agent run as a tool (`agentTool`) returns: its answer, and the tokens its turn used. */
export interface AgentToolOutput {
  readonly answer: string;
  readonly usage: MessageUsage;
}

/**
 * The tokens an agent run as a tool used, from its call's result (`undefined` for any other tool, or a call that
 * failed: a failed inner turn's tokens are not known here).
 */
export function agentUsageOf(result: ToolCallResult): MessageUsage | undefined {
  if (result.tool?.metadata.kind !== 'agent' || result.outcome.type !== 'success') return undefined;
  const output = result.outcome.output as Partial<AgentToolOutput> | null;
  return typeof output === 'object' && output !== null && typeof output.usage === 'object' && output.usage !== null ? output.usage : undefined;
}
