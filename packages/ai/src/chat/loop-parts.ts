import { type AnyTool, type AvailableToolsOptions, availableTools, errorModelText, type RunContext, type ToolCallResult, ToolError, type ToolRegistry } from '@edgetool/core';
import type { LanguageModelV4, LanguageModelV4FinishReason, LanguageModelV4StreamPart, LanguageModelV4Usage, SharedV4ProviderOptions } from '@ai-sdk/provider';
import type { PrepareStepFunction, StopCondition, ToolSet } from 'ai';
import { runsOnCaller } from './ai-tools.ts';
import type { AgentInstructions, ModelSettings } from './model-settings.ts';
import type { ExecutionMode, TurnLimit } from './protocol.ts';
import type { PromptToEstimate } from './prompt-estimate.ts';
import { estimatePrompt, promptFiles, readPromptFiles } from './prompt-files.ts';
import { isCount } from './token-count.ts';
import type { TokenMeter } from './token-meter.ts';

/** The signals that are set, as one (`undefined` when none is). */
export function anySignal(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  return present.length > 1 ? AbortSignal.any(present) : present[0];
}

/** The AI SDK's `abortSignal` option, left out when there is no signal. */
export function abortOption(signal: AbortSignal | undefined): { abortSignal?: AbortSignal } {
  return signal ? { abortSignal: signal } : {};
}

/**
 * Hands a failed call whose message the model and client did not read (the agent's `toolErrorMessage` replaced it) to
 * `onError` (default: the server's log), so that its details are where the reference they read (its call id) leads.
 * A call whose text ends with its error's own text was read as it is.
 */
export function hiddenFailureLog(onError: ((event: { error: unknown }) => void) | undefined): (result: ToolCallResult) => void {
  return ({ outcome, content }) => {
    if (outcome.type !== 'error' || content.endsWith(errorModelText(outcome.error))) return;
    try {
      (onError ?? logHiddenFailure)({ error: outcome.error });
    } catch {
      // A broken listener must not fail the call.
    }
  };
}

function logHiddenFailure({ error }: { error: unknown }): void {
  const { callId, toolName } = error as ToolError;
  console.error(`edgetool: the call ${callId} of "${toolName}" failed; the model and client read only the text toolErrorMessage gave it:`, error);
}

/** Model steps per turn when `maxSteps` is not set. */
export const DEFAULT_MAX_STEPS = 8;

/**
 * Checks an agent's `maxSteps` (`undefined`: the default): a whole number of steps from 1, or `Infinity`. Anything else
 * used to run a number of steps nobody asked for (0, a negative number or NaN one, 2.5 three).
 */
export function checkMaxSteps(maxSteps: unknown): number {
  if (maxSteps === undefined) return DEFAULT_MAX_STEPS;
  if (maxSteps === Number.POSITIVE_INFINITY || (Number.isInteger(maxSteps) && (maxSteps as number) >= 1)) return maxSteps as number;
  throw new RangeError(`\`maxSteps\` must be a whole number of steps from 1, or Infinity for none; got ${String(maxSteps)}.`);
}

/**
 * The tokens a step or a call counts against a budget: its total, else its input and output (0 when unknown). A count
 * that is not a finite number from 0 is unknown: it takes nothing off the others.
 */
export function tokensOf(usage: { readonly inputTokens?: number | undefined; readonly outputTokens?: number | undefined; readonly totalTokens?: number | undefined } | undefined): number {
  if (usage === undefined) return 0;
  const count = (n: number | undefined) => (isCount(n) ? n : 0);
  return isCount(usage.totalTokens) ? usage.totalTokens : count(usage.inputTokens) + count(usage.outputTokens);
}

/** Checks a token budget: `undefined` (none) or a positive number of tokens. */
export function checkTokenBudget(budget: unknown, where: string): number | undefined {
  if (budget === undefined) return undefined;
  if (typeof budget !== 'number' || !(budget > 0)) {
    throw new ToolError('invalid-input', `${where} must be a positive number of tokens (or left out for none), not ${typeof budget === 'number' ? budget : typeof budget}.`);
  }
  return budget;
}

/** A turn's budget: the lower of the agent's (checked already) and the turn's own (checked here). */
export function turnBudget(agent: number | undefined, turn: unknown): number | undefined {
  const own = checkTokenBudget(turn, "The turn's `tokenBudget`");
  return agent === undefined ? own : own === undefined ? agent : Math.min(agent, own);
}

/**
 * The loop's stop conditions: `maxSteps` model steps, a token budget counted as the turn's `usage` is (every model
 * step's tokens, plus the tokens every call this server ran reported, `result.usage`, whatever its outcome), and the
 * return-direct stop. The limits are checked between
 * steps, so the step that crosses the budget finishes. `hit()` is the limit the loop stopped at, if any: none when it
 * ended on return-direct tools, whose output is the answer. `outer`: the calling turn's tokens left, for an agent
 * call's inner turn (`MeterSlot`): none left is the budget's limit too.
 */
export function turnLimits(
  maxSteps: number,
  tokenBudget: number | undefined,
  results: ReadonlyMap<string, ToolCallResult>,
  direct: ReturnType<typeof returnDirectStop>,
  outer?: { left(): number } | undefined,
): { stop: StopCondition<ToolSet>[]; hit: () => TurnLimit | undefined; refuse: () => void } {
  let hit: TurnLimit | undefined;
  const steps: StopCondition<ToolSet> = ({ steps }) => {
    if (steps.length < maxSteps) return false;
    hit ??= 'steps';
    return true;
  };
  const stopped = () => (direct.text() === undefined ? hit : undefined);
  const tokens: StopCondition<ToolSet> = ({ steps }) => {
    if (outer !== undefined && outer.left() <= 0) {
      hit ??= 'tokens';
      return true;
    }
    if (tokenBudget === undefined) return false;
    let used = 0;
    for (const step of steps) used += tokensOf(step.usage);
    for (const result of results.values()) used += tokensOf(result.usage);
    if (used < tokenBudget) return false;
    hit ??= 'tokens';
    return true;
  };
  // One condition for the AI SDK, which awaits each of a list in its own promise after every step. Each is asked, as
  // in a list: the return-direct stop must see the step a limit also ends on.
  const stop: StopCondition<ToolSet> = (options) => {
    const overSteps = steps(options) as boolean;
    const overTokens = tokens(options) as boolean;
    return (direct.stop(options) as boolean) || overSteps || overTokens;
  };
  return {
    stop: [stop],
    hit: stopped,
    refuse: () => {
      hit ??= 'tokens';
    },
  };
}

/** `estimateInputTokens` of an agent: a function, `false` for no check before a model call, or the default. */
export type InputTokenEstimate = ((prompt: PromptToEstimate) => number) | false;

/**
 * The AI SDK's `prepareStep` of a turn: `resumed`'s (the return-direct stop's) first, then the token budget's check
 * before every model call, the first included. When the meter has a budget (the turn's, or a calling turn's) and the
 * estimate of what the call will send (`estimate`, `estimateInputTokens` by default) is over what the budget has
 * left, the step goes to a model that answers nothing and costs nothing, and the turn ends as at the budget between
 * steps (`refuse`: `limit: 'tokens'`). Checked between steps only, the first call of a turn with a long history ran
 * whatever its size. The default estimate reads each image and PDF once a turn (`PromptFiles`), and a PDF's compressed
 * object streams inflated before the call it first appears in.
 */
export function budgetedSteps(options: {
  readonly estimate: InputTokenEstimate | undefined;
  readonly meter: TokenMeter | undefined;
  readonly instructions: string | undefined;
  readonly tools: readonly AnyTool[];
  readonly refuse: () => void;
  readonly resumed: { readonly prepareStep?: PrepareStepFunction<ToolSet> };
}): { prepareStep?: PrepareStepFunction<ToolSet> } {
  const { meter, estimate, resumed, refuse, instructions } = options;
  if (meter === undefined || estimate === false) return resumed;
  const tools = options.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.jsonSchema }));
  // The default estimate counts each file once a turn, a PDF's compressed object streams inflated.
  const files = estimate === undefined ? promptFiles() : undefined;
  const estimated = estimate ?? ((prompt: PromptToEstimate) => estimatePrompt(prompt, files));
  return {
    prepareStep: async (step) => {
      const before = await resumed.prepareStep?.(step);
      if (before !== undefined) return before;
      const left = meter.left();
      if (!(left < Number.POSITIVE_INFINITY)) return undefined;
      if (files !== undefined) await readPromptFiles(step.messages, files);
      if (!(estimated({ instructions, messages: step.messages, tools }) > left)) return undefined;
      refuse();
      return { model: noAnswer('token-budget'), activeTools: [], toolChoice: 'none' };
    },
  };
}

/**
 * Whether any of the turn's tools can need an approval in this mode. When none can, the loop passes no
 * `toolApproval` to the AI SDK, which then skips the per-call check (the tool set is fixed for the turn).
 */
export function mayAsk(tools: Iterable<AnyTool>, mode: ExecutionMode): boolean {
  for (const tool of tools) {
    if (runsOnCaller(tool, mode)) continue;
    if (mode === 'manual' || tool.policy.needsApproval !== false) return true;
  }
  return false;
}

/** No tokens: the usage of a step no model answered. */
const NO_USAGE: LanguageModelV4Usage = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};
const STOP: LanguageModelV4FinishReason = { unified: 'stop', raw: undefined };

/**
 * The model of a step the loop does not need (see {@link returnDirectStop}) or refuses (see {@link budgetedSteps}): it
 * answers nothing, at once, and costs no tokens.
 */
const noAnswer = (modelId: string): LanguageModelV4 => ({
  specificationVersion: 'v4',
  provider: 'edgetool',
  modelId,
  supportedUrls: {},
  doGenerate: async () => ({ content: [], finishReason: STOP, usage: NO_USAGE, warnings: [] }),
  doStream: async () => ({
    stream: new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        controller.enqueue({ type: 'stream-start', warnings: [] });
        controller.enqueue({ type: 'finish', finishReason: STOP, usage: NO_USAGE });
        controller.close();
      },
    }),
  }),
});

/** What {@link returnDirectStop} returns. */
export interface ReturnDirectStop {
  /** The stop condition: every call of the last step is a return-direct tool that succeeded. */
  readonly stop: StopCondition<ToolSet>;
  /**
   * The AI SDK's `prepareStep` when the turn continues a step with return-direct calls that run now (approved in the
   * previous request): `streamText` and `generateText` run them and then call the model before any stop condition is
   * asked, so when every call of that step ran now and succeeded, the first step goes to a model that answers nothing
   * and the loop ends on their outputs. `{}` otherwise.
   */
  readonly resumed: { readonly prepareStep?: PrepareStepFunction<ToolSet> };
  /** The loop ended that way before the model's first step: that step was not the model's. */
  readonly beforeModel: () => boolean;
  /** The outputs, as the model would have read them, once the loop has stopped that way (`undefined` until then). */
  readonly text: () => string | undefined;
}

/**
 * Stops the loop when every call of the last step is a return-direct tool that succeeded; `text()` is then their
 * outputs as the model would have read them. `continued`: the calls of the step a continuation goes on from, when it
 * has return-direct calls that run now (see {@link ReturnDirectStop.resumed}); none otherwise.
 */
export function returnDirectStop(results: ReadonlyMap<string, ToolCallResult>, continued: readonly string[] = []): ReturnDirectStop {
  let ids: readonly string[] | undefined;
  let before = false;
  const allDirect = (calls: readonly string[]) => calls.length > 0 && calls.every((id) => results.get(id)?.returnDirect);
  return {
    stop: ({ steps }) => {
      const calls = (steps.at(-1)?.toolCalls ?? []).map((c) => c.toolCallId);
      if (!allDirect(calls)) return false;
      ids = calls;
      return true;
    },
    resumed:
      continued.length === 0
        ? {}
        : {
            prepareStep: ({ stepNumber }) => {
              if (stepNumber !== 0 || !allDirect(continued)) return undefined;
              ids = continued;
              before = true;
              // No tools and none required: a `toolChoice` of the settings must not make this step fail for calling none.
              return { model: noAnswer('return-direct'), activeTools: [], toolChoice: 'none' };
            },
          },
    beforeModel: () => before,
    text: () => ids?.map((id) => results.get(id)?.content ?? '').join('\n\n'),
  };
}

/** The agent's settings with a turn's on top: fields replaced one by one, provider options merged per provider. */
export function mergeSettings(agent: ModelSettings | undefined, turn: ModelSettings | undefined): ModelSettings {
  if (turn === undefined) return agent ?? {};
  if (agent === undefined) return turn;
  const merged: ModelSettings = { ...agent, ...turn };
  if (agent.providerOptions === undefined || turn.providerOptions === undefined) return merged;
  const providerOptions: SharedV4ProviderOptions = { ...agent.providerOptions };
  for (const [provider, options] of Object.entries(turn.providerOptions)) providerOptions[provider] = { ...agent.providerOptions[provider], ...options };
  return { ...merged, providerOptions };
}

/**
 * What both loops (the UI turn and the text turn) work out before the model is called: every tool (for the AI SDK to
 * run: a call of a tool this run may not see is answered with unknown-tool), those the run may see (for the model,
 * `activeTools`), the turn's settings over the agent's (checked), and the instructions made for this run.
 */
export async function prepareTurn<TDeps>(
  registry: ToolRegistry,
  agent: {
    readonly settings?: ModelSettings | undefined;
    readonly instructions?: AgentInstructions<TDeps> | undefined;
    readonly onLateCheck?: AvailableToolsOptions['onLateCheck'];
  },
  turnSettings: ModelSettings | undefined,
  run: RunContext<TDeps>,
): Promise<{ all: readonly AnyTool[]; visible: AnyTool[]; settings: ModelSettings; instructions: string | undefined }> {
  // Bounded by the turn's signal: a lazy tool whose load hangs is left out (and reported) when the client goes away.
  const all = await registry.tools({ signal: run.signal });
  const visible = await availableTools(all, run, { onLateCheck: agent.onLateCheck });
  const settings = mergeSettings(agent.settings, turnSettings);
  checkToolChoice(settings, visible);
  return { all, visible, settings, instructions: await instructionsFor(agent.instructions, run) };
}

/**
 * The AI SDK's `activeTools` for a turn whose `tools` are `all`: the names of those the run may see, or none when it may see
 * every one (the AI SDK then copies no filtered tool set at every step).
 */
export function activeToolsOption(all: readonly AnyTool[], visible: readonly AnyTool[]): { readonly activeTools?: string[] } {
  return visible.length === all.length ? {} : { activeTools: visible.map((tool) => tool.name) };
}

/** A `toolChoice` of `'required'` in a turn that offers the model no tool, as its `invalid-input` error says. */
const REQUIRED_WITHOUT_TOOLS = "The model settings require a tool call (toolChoice 'required'), but this turn offers the model no tool.";

/**
 * Refuses settings whose `toolChoice` names a tool the run may not see (the AI SDK would send the provider a choice of a
 * tool it was not given), or requires a call when the run may see no tool (the AI SDK fails the turn once the model has
 * answered, its tokens spent). The message does not name the tool.
 */
export function checkToolChoice(settings: ModelSettings, visible: readonly AnyTool[]): void {
  const choice = settings.toolChoice;
  if (choice === 'required' && visible.length === 0) throw new ToolError('invalid-input', REQUIRED_WITHOUT_TOOLS);
  if (typeof choice === 'object' && choice !== null && !visible.some((tool) => tool.name === choice.toolName)) {
    throw new ToolError('invalid-input', 'The model settings name a tool in `toolChoice` that this run may not use.');
  }
}

/** The instructions for this run (`undefined`: none). */
async function instructionsFor<TDeps>(instructions: AgentInstructions<TDeps> | undefined, run: RunContext<TDeps>): Promise<string | undefined> {
  if (typeof instructions !== 'function') return instructions;
  const text = await instructions(run);
  if (typeof text !== 'string') throw new TypeError(`The agent's instructions function returned ${typeof text} instead of a string.`);
  return text;
}
