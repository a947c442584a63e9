import type { ToolCallResult, ToolContext, ToolUsage } from '@edgetool/core';
import type { LanguageModelUsage } from 'ai';
import { isCount } from './token-count.ts';

/**
 * The tokens a turn used: the AI SDK's `LanguageModelUsage`, summed over the turn's model steps and over the tokens its
 * tool calls reported (`result.usage`: the turns of agents run as tools, any tool that calls a model), failed calls
 * included. A count nobody reported stays `undefined`, so `0` always means zero. The provider's raw usage is left out:
 * per-step raw shapes do not add up.
 */
export type TurnUsage = Omit<LanguageModelUsage, 'raw'>;

/**
 * Token counts as the client reads them in a message's metadata (`metadata.usage`): the turn's {@link TurnUsage}, flat.
 * The core's `ToolUsage`, the shape a tool reports with `ctx.reportUsage()`.
 */
export type MessageUsage = ToolUsage;

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

/**
 * `a + b` for counts that may be unknown: unknown only when both are. Counts that are not finite numbers from 0 are
 * unknown: a broken provider's negative count would otherwise take tokens off the meter and the budget.
 */
function add(a: number | undefined, b: unknown): number | undefined {
  const n = isCount(b) ? b : undefined;
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

/**
 * Reports a model call's tokens (the AI SDK's `LanguageModelUsage`, from `generateText` or `embed` in a tool) on the
 * tool call's context, so the chat loop counts them (`ctx.reportUsage()` with the flat counts). Counts the provider did
 * not report, or reported as something other than a number ≥ 0, are left out; a usage without any reports nothing.
 */
export function reportModelUsage(ctx: Pick<ToolContext, 'reportUsage'>, usage: Partial<LanguageModelUsage> | MessageUsage | undefined): void {
  const counts = knownCounts(usage);
  if (Object.keys(counts).length > 0) ctx.reportUsage(counts);
}

/**
 * The flat counts of a usage (the AI SDK's, or flat as in message metadata) that are finite numbers ≥ 0, nothing else:
 * for usage that comes from outside (a provider, a client's message), where a bad count is left out, not an error.
 */
export function knownCounts(usage: Partial<LanguageModelUsage> | MessageUsage | undefined): MessageUsage {
  return Object.fromEntries(Object.entries(messageUsage(addUsage(emptyUsage(), usage))).filter(([, n]) => n >= 0));
}

/**
 * What an agent run as a tool (`agentTool`) returns: its answer (its text, or with `output` the value its schema
 * gives), and the tokens its turn used.
 */
export interface AgentToolOutput<TAnswer = string> {
  readonly answer: TAnswer;
  readonly usage: MessageUsage;
}

/**
 * The tokens an agent run as a tool used, from its call's output (`undefined` for any other tool, or a call that
 * failed).
 * @deprecated Read `result.usage`: every call's reported tokens, a failed, timed-out or aborted agent's included (the
 * chat loops count that).
 */
export function agentUsageOf(result: ToolCallResult): MessageUsage | undefined {
  if (result.tool?.metadata.kind !== 'agent' || result.outcome.type !== 'success') return undefined;
  const output = result.outcome.output as Partial<AgentToolOutput> | null;
  return typeof output === 'object' && output !== null && typeof output.usage === 'object' && output.usage !== null ? output.usage : undefined;
}
