import type { LanguageModelV4CallOptions, LanguageModelV4Content, SharedV4Warning } from '@ai-sdk/provider';
import {
  type AnyTool,
  type ApprovalDecision,
  createExecutor,
  type RunContext,
  type ToolCallResult,
  ToolError,
  type ToolExecutor,
  type ToolProgressEvent,
  type ToolUsage,
} from '@edgetool/core';
import { type AssistantModelMessage, generateText, type LanguageModel, type LanguageModelUsage, type ModelMessage, type ToolModelMessage } from 'ai';
import { editableArguments, runsOnCaller, toAISDKTools, toolApprovalFor } from './ai-tools.ts';
import { repairToolCallFor } from './invalid-calls.ts';
import { modelReplyError } from './model-reply-error.ts';
import { retryableErrorReply } from './error-reply-retry.ts';
import { ageToolFiles, takesToolDocuments, takesToolImages } from './tool-output.ts';
import { type ChatAgent, DEFAULT_MODEL_TIMEOUT, type ModelTimeout, type PendingToolCall, type TurnOutcome } from './chat-agent.ts';
import {
  abortOption,
  activeToolsOption,
  anySignal,
  budgetedSteps,
  checkMaxSteps,
  checkToolChoice,
  hiddenFailureLog,
  mayAsk,
  prepareTurn,
  returnDirectStop,
  tokensOf,
  turnBudget,
  turnLimits,
} from './loop-parts.ts';
import type { ModelSettings } from './model-settings.ts';
import { callIdRenamer } from './call-id-renamer.ts';
import { deadlineTimer } from './deadline-timer.ts';
import { saysIdsUnique } from './unique-call-ids.ts';
import { runsNoCalls, unrunResult } from './unrun-calls.ts';
import type { TurnOutputSchema } from './protocol.ts';
import { type TurnOutput, turnOutput, withOutputOptions } from './structured-output.ts';
import { meterCall, meterSlotOf, openTokenMeter } from './token-meter.ts';
import { addUsage, emptyUsage, reportModelUsage } from './usage.ts';

/**
 * A turn for server code (see {@link generateTextTurn}): model messages in and out, no UI stream, no proofs. `TOutput`:
 * what its `output` schema gives.
 */
export interface TextTurnRequest<TDeps = unknown, TOutput = undefined> {
  /**
   * The conversation as model messages (an earlier turn's `messages`), or one user prompt. Trusted input: it comes
   * from your server code, never from a client (a client's conversation goes through `stream()`, which checks
   * every proof).
   */
  readonly messages: readonly ModelMessage[] | string;
  readonly run: RunContext<TDeps>;
  readonly signal?: AbortSignal | undefined;
  /** A human approval already covers this whole turn: calls that would need approval run without asking. */
  readonly grantApprovals?: boolean;
  /**
   * The tools that run on the caller (`runsOn: 'client'`, a browser's): `'pending'` (default) gives them to the model,
   * and the turn ends on their calls for your code to answer; `'omit'` leaves them out of what the model is given, for
   * a turn nobody can answer them in (`agentTool` runs its agent so).
   */
  readonly clientTools?: 'pending' | 'omit' | undefined;
  /**
   * Answers to the approval requests the previous turn ended on (its `pending` calls of kind `approval`), by tool
   * call id: `true`, `false`, or `{ approved, reason, input }` (a denial's reason is what the model reads; `input`: the
   * arguments as the human edited them, for a tool whose `policy.editable` allows the changes).
   */
  readonly approvals?: Readonly<Record<string, boolean | Pick<ApprovalDecision, 'approved' | 'reason' | 'input'>>>;
  /** Receives the `ctx.progress()` reports of the turn's running calls. */
  readonly onProgress?: ((event: ToolProgressEvent) => void) | undefined;
  /** Called with every call as it finishes (before the turn does); a listener that throws does not fail the call. */
  readonly onToolResult?: ((result: ToolCallResult) => void) | undefined;
  /**
   * Time every layer of the turn's calls into their results' `spans` (`onToolResult`), as a chat turn does for its trace
   * parts (`agentTool` does, for its call's trace part). Default: only for the agent's `onTrace` or a tracing
   * interceptor; an agent made with `trace: false` never times them for this.
   */
  readonly spans?: boolean | undefined;
  /**
   * Receives the turn's tokens as they are spent: each model step's as soon as its model call ends (before its tools
   * run), and each call's own `result.usage` as the call finishes. Together they are the turn's `usage`, and a turn that
   * fails, times out or is aborted has reported the steps and calls that finished (`agentTool` passes them on with
   * `ctx.reportUsage()`). A listener that throws does not fail the turn.
   */
  readonly onUsage?: ((usage: ToolUsage) => void) | undefined;
  /**
   * The `ctx.idempotencyKey` of each of the turn's calls, by tool call id (`undefined`: the executor's own, conversation
   * and call id). `agentTool` gives its inner calls keys under its own call's, so a new approval of it writes anew.
   * Called when a call's tool first reads its key, once per call.
   */
  readonly idempotencyKey?: ((toolCallId: string) => string | undefined) | undefined;
  /** This turn's model settings, over the agent's (see `ChatRequest.settings`). */
  readonly settings?: ModelSettings;
  /** This turn's token budget: the lower of it and the agent's `tokenBudget` applies (see `ChatRequest.tokenBudget`). */
  readonly tokenBudget?: number;
  /**
   * Structured output: the shape the final answer must have (a valibot schema, any Standard Schema with a JSON Schema,
   * or `jsonSchema(...)`). The model is asked for it (the AI SDK's `output`: OpenAI's `response_format`, strict when the
   * schema has a strict form), and the answer is parsed and validated into the result's `output`. An answer that is not
   * JSON or does not match gets one repair round (the issues go back to the model as a user message, and its new answer
   * counts against the same token budget); if that answer fails too, or the model said it cannot answer in JSON and did
   * not (the offline model), the turn rejects with an `invalid-output` `ToolError` that lists the issues.
   */
  readonly output?: TurnOutputSchema<TOutput> | undefined;
}

/** The outcome of {@link TextTurnRequest}: approvals in `pending` are answered with `approvals` on the next turn. */
export interface TextTurnResult<TOutput = undefined> extends TurnOutcome {
  /** The whole conversation after this turn: pass it to the next turn. */
  readonly messages: ModelMessage[];
  /** How many model steps ran. */
  readonly steps: number;
  /**
   * The answer as the request's `output` schema gives it, validated. `undefined` without an `output`, and when the turn
   * ended without an answer: on `pending` calls, or at a `limit`.
   */
  readonly output: TOutput | undefined;
}

type AssistantPart = Exclude<AssistantModelMessage['content'], string>[number];
type ToolPart = ToolModelMessage['content'][number];

/** A call of a conversation's messages that no tool result answers yet, with its approval request when it has one. */
interface OpenCall {
  readonly toolName: string;
  readonly input: unknown;
  readonly providerExecuted: boolean;
  approvalId?: string;
  reason?: string | undefined;
  /** A tool message answers its approval request (its result may not have come yet). */
  answered?: true;
}

/**
 * The calls of `messages` without a tool result, by tool call id: one walk serves the approval requests a caller may
 * answer ({@link answerApprovals}) and the calls a turn ends on ({@link pendingModelCalls}).
 */
function openCalls(messages: readonly ModelMessage[]): Map<string, OpenCall> {
  const calls = new Map<string, OpenCall>();
  const byApproval = new Map<string, OpenCall>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    if (message.role === 'assistant') {
      for (const part of message.content as AssistantPart[]) {
        if (part.type === 'tool-call') calls.set(part.toolCallId, { toolName: part.toolName, input: part.input, providerExecuted: part.providerExecuted === true });
        else if (part.type === 'tool-approval-request') {
          const call = calls.get(part.toolCallId);
          if (call) {
            call.approvalId = part.approvalId;
            call.reason = part.reason;
            byApproval.set(part.approvalId, call);
          }
        }
      }
    } else if (message.role === 'tool') {
      for (const part of message.content as ToolPart[]) {
        if (part.type === 'tool-result') calls.delete(part.toolCallId);
        else if (part.type === 'tool-approval-response') {
          const call = byApproval.get(part.approvalId);
          if (call) call.answered = true;
        }
      }
    }
  }
  return calls;
}

/**
 * The conversation with the caller's approval answers appended as one tool message (the AI SDK runs the approved
 * calls first), and the decisions for the executor. An answer for a call that is not waiting is an error: it would
 * otherwise be dropped without a word.
 */
export function answerApprovals(
  messages: readonly ModelMessage[],
  approvals: TextTurnRequest['approvals'],
): { messages: ModelMessage[]; decisions: Map<string, ApprovalDecision> } {
  const decisions = new Map<string, ApprovalDecision>();
  const entries = Object.entries(approvals ?? {});
  if (entries.length === 0) return { messages: [...messages], decisions };
  const open = openCalls(messages);
  const content: ToolPart[] = [];
  for (const [toolCallId, answer] of entries) {
    const request = open.get(toolCallId);
    if (request?.approvalId === undefined || request.answered) throw new TypeError(`No approval request is open for tool call "${toolCallId}".`);
    const decision: ApprovalDecision =
      typeof answer === 'boolean'
        ? { approved: answer }
        : { approved: answer.approved === true, reason: answer.reason, ...(answer.input === undefined ? {} : { input: answer.input }) };
    decisions.set(toolCallId, decision);
    content.push({
      type: 'tool-approval-response',
      approvalId: request.approvalId,
      approved: decision.approved,
      ...(decision.reason === undefined ? {} : { reason: decision.reason }),
    });
  }
  return { messages: [...messages, { role: 'tool', content }], decisions };
}

/**
 * The calls a turn's new messages end on: approval requests, and calls without a result (client tools). Only the
 * last step can leave calls waiting (either stops the loop), so a turn's response messages are enough.
 */
export function pendingModelCalls(messages: readonly ModelMessage[]): Omit<PendingToolCall, 'runsOn'>[] {
  const calls = [...openCalls(messages)].filter(([, call]) => !call.providerExecuted);
  return calls.map(([toolCallId, call]) => ({
    toolCallId,
    toolName: call.toolName,
    input: call.input,
    kind: call.approvalId === undefined ? 'client' : 'approval',
    ticket: undefined,
    ...(call.reason === undefined ? {} : { reason: call.reason }),
  }));
}

/**
 * The tool calls of the conversation's last assistant message (the step its approval answers continue), when one
 * answered now is a return-direct tool's: once they have run, the loop may end on their outputs without calling the
 * model (see `returnDirectStop`). None otherwise.
 */
function continuedDirect(history: readonly ModelMessage[], decisions: ReadonlyMap<string, ApprovalDecision>, tools: readonly AnyTool[]): string[] {
  if (decisions.size === 0) return [];
  let at = history.length - 1;
  while (at >= 0 && history[at]?.role !== 'assistant') at--;
  const last = history[at];
  if (last === undefined || typeof last.content === 'string') return [];
  const calls = (last.content as AssistantPart[]).filter((part) => part.type === 'tool-call' && part.providerExecuted !== true) as { toolCallId: string; toolName: string }[];
  const direct = (name: string) => tools.some((tool) => tool.name === name && tool.policy.returnDirect);
  return calls.some((call) => decisions.has(call.toolCallId) && direct(call.toolName)) ? calls.map((call) => call.toolCallId) : [];
}

/**
 * Per agent, the executors of its text turns: the agent's chain, with spans only for `onTrace` or a tracing interceptor,
 * and one that times every call (a turn asked for `spans`, an agent tool's inner turn).
 */
const textExecutors = new WeakMap<ChatAgent, ToolExecutor>();
const timedExecutors = new WeakMap<ChatAgent, ToolExecutor>();

function textExecutor(agent: ChatAgent, timed: boolean): ToolExecutor {
  const cache = timed && agent.options.trace !== false ? timedExecutors : textExecutors;
  let executor = cache.get(agent);
  if (executor === undefined) {
    const { interceptors, onTrace, toolErrorMessage, onLateCheck } = agent.options;
    executor = createExecutor({
      registry: agent.registry,
      interceptors: interceptors ?? [],
      onTrace,
      toolErrorMessage,
      onLateCheck,
      ...(cache === timedExecutors ? { spans: true } : {}),
    });
    cache.set(agent, executor);
  }
  return executor;
}

/**
 * Runs one of `agent`'s turns for server code that no client reads (jobs, evaluations, `agentTool`): the loop on
 * the AI SDK's `generateText` with the agent's model, instructions, tools, chain and policies, model messages in
 * and out, and no UI stream, seals or tickets. An approval ends the turn as `pending`; answer it with `approvals`
 * on the next turn. With `output`, the answer is also typed data (`result.output`). A function rather than an agent
 * method so that a Worker that never calls it does not bundle `generateText`.
 */
export async function generateTextTurn<TDeps, TOutput = undefined>(
  agent: ChatAgent<TDeps>,
  request: TextTurnRequest<NoInfer<TDeps>, TOutput>,
): Promise<TextTurnResult<TOutput>> {
  const schema = request.output;
  if (schema === undefined) return (await textTurn(agent, request, undefined)).turn as TextTurnResult<TOutput>;
  // A schema with no JSON Schema throws its TypeError here, before the model is called.
  const output = turnOutput(schema);
  const started = Date.now();
  const { turn, unsupported } = await textTurn(agent, request, output);
  if (!answered(turn)) return turn as TextTurnResult<TOutput>;
  const checked = await output.parse(output.text() ?? turn.text, turn.finishReason);
  if (checked.ok) return { ...turn, output: checked.value as TOutput };
  // One repair round, unless the model cannot answer in JSON (it said so, and its answer was not JSON: the offline
  // model) or the budget is spent. A model that answered JSON without the schema (an OpenAI-compatible provider in JSON
  // mode warns that it sends no schema) gets the round, which shows it the schema.
  if (unsupported !== undefined && !checked.json) {
    throw new ToolError('invalid-output', `${checked.error.message} This model cannot give structured output: ${unsupported}`, { issues: checked.error.issues });
  }
  const budget = turnBudget(agent.options.tokenBudget, request.tokenBudget);
  const left = budget === undefined ? undefined : budget - tokensOf(turn.usage);
  // Nor when a calling turn (this is an agent call's inner turn) has no tokens left.
  if ((left !== undefined && left <= 0) || (meterSlotOf(request.run)?.left() ?? 1) <= 0) throw checked.error;
  // `modelTimeout.totalMs` bounds the whole turn: the repair round gets what the first left of it (none: no repair).
  const { totalMs } = timeLimitsOf(agent.options.modelTimeout);
  const remaining = totalMs === undefined ? undefined : totalMs - (Date.now() - started);
  if (remaining !== undefined && remaining <= 0) throw checked.error;
  const again = turnOutput(schema);
  const repair: ModelMessage = { role: 'user', content: output.repairPrompt(checked.error) };
  const { approvals: _answered, tokenBudget: _budget, ...rest } = request;
  const next: TextTurnRequest<TDeps, unknown> = { ...rest, messages: [...turn.messages, repair], ...(left === undefined ? {} : { tokenBudget: left }) };
  const { turn: second } = await textTurn(agent, next, again, remaining);
  const both: TextTurnResult<unknown> = {
    ...second,
    toolResults: [...turn.toolResults, ...second.toolResults],
    steps: turn.steps + second.steps,
    usage: addUsage(turn.usage, second.usage),
  };
  if (!answered(second)) return both as TextTurnResult<TOutput>;
  const repaired = await again.parse(again.text() ?? second.text, second.finishReason);
  if (!repaired.ok) throw repaired.error;
  return { ...both, output: repaired.value as TOutput };
}

/** Whether a turn ended on an answer: not on calls that wait, nor at a limit before the model read its last results. */
/** The agent's model time limits in effect (`modelTimeout: false`: none). */
function timeLimitsOf(modelTimeout: ModelTimeout | false | undefined): ModelTimeout {
  return modelTimeout === false ? {} : (modelTimeout ?? DEFAULT_MODEL_TIMEOUT);
}

const answered = (turn: TurnOutcome): boolean => turn.pending.length === 0 && turn.limit === undefined;

/**
 * The text turn's loop. With `output`, the model is asked for its schema, and `unsupported` is what the model said when
 * it cannot answer in that format (a `responseFormat` warning). `totalMs`: what is left of `modelTimeout.totalMs` (the
 * repair round of a structured output).
 */
async function textTurn<TDeps>(
  agent: ChatAgent<TDeps>,
  request: TextTurnRequest<TDeps, unknown>,
  output: TurnOutput | undefined,
  totalMs?: number,
): Promise<{ turn: TextTurnResult<unknown>; unsupported: string | undefined }> {
  const { registry, model, options } = agent;
  const agentLimits = timeLimitsOf(options.modelTimeout);
  const timeLimits = totalMs === undefined ? agentLimits : { ...agentLimits, totalMs };
  const run = request.run as RunContext;
  const history: ModelMessage[] = typeof request.messages === 'string' ? [{ role: 'user', content: request.messages }] : [...request.messages];
  const { messages, decisions } = answerApprovals(history, request.approvals);
  const results = new Map<string, ToolCallResult>();
  const grant = request.grantApprovals === true;
  const { onProgress, onToolResult, onUsage } = request;
  const spent = {
    reportUsage: (usage: ToolUsage) => {
      try {
        onUsage?.(usage);
      } catch {
        // A broken listener must not fail the turn.
      }
    },
  };
  const logHidden = hiddenFailureLog(options.onError);
  const onResult = (r: ToolCallResult) => {
    results.set(r.call.id, r);
    logHidden(r);
    if (r.usage !== undefined) spent.reportUsage(r.usage);
    try {
      onToolResult?.(r);
    } catch {
      // A broken listener must not fail the call.
    }
  };
  const executor = textExecutor(agent, request.spans === true);
  const images = options.toolImages ?? takesToolImages(model);
  const documents = options.toolDocuments ?? takesToolDocuments(model);
  const prepared = await prepareTurn(registry, options, request.settings, request.run);
  const { all: every, settings, instructions } = prepared;
  const visible = request.clientTools === 'omit' ? prepared.visible.filter((tool) => tool.policy.runsOn !== 'client') : prepared.visible;
  if (visible.length < prepared.visible.length) {
    // prepareTurn checked the choice against the tools the run may see; one of those left out here would be forced on a
    // model not given it. The run may see it, so naming it tells nobody anything new.
    const choice = settings.toolChoice;
    if (typeof choice === 'object' && choice !== null && !visible.some((tool) => tool.name === choice.toolName)) {
      throw new ToolError('invalid-input', `The model settings force the tool "${choice.toolName}" (toolChoice), which runs in a browser and this turn leaves out (clientTools: 'omit').`);
    }
    // The rest of prepareTurn's check, against what is left ('required' with no tool).
    checkToolChoice(settings, visible);
  }
  // The agent's budget was checked when it was made (createChatAgent).
  const budget = turnBudget(options.tokenBudget, request.tokenBudget);
  // Counted as the turn runs for the agent calls it makes (each call reads it: another turn at once on the same run has
  // its own), and, in an agent call's inner turn, for the calling turn, whose tokens left stop this one too.
  const meter = openTokenMeter(run, budget, results);
  const tools = await toAISDKTools(executor, {
    tools: every,
    run,
    ...(meter === undefined ? {} : { running: (id: string) => meterCall(run, id, meter) }),
    images,
    documents,
    decisions,
    grantApprovals: grant,
    onProgress,
    onResult,
    hidden: 'keep',
    idempotencyKey: request.idempotencyKey,
  });
  const direct = returnDirectStop(results, continuedDirect(history, decisions, every));
  const limits = turnLimits(checkMaxSteps(options.maxSteps), budget, results, direct, meterSlotOf(run));
  // The budget's check before a model call refused one (the turn's last step, which was then no model's).
  let refused = false;
  const refuse = (): void => {
    refused = true;
    limits.refuse();
  };
  const { responseMs } = timeLimits;
  // A model object's calls are timed one by one. A gateway id (a string) has no object to wrap: the clock runs beside the
  // turn and aborts it, which costs every tool call a signal to carry.
  const clock = typeof model === 'string' ? responseClock(responseMs) : undefined;
  // A call id the model repeats (of the history or of this turn) is renamed before the loop sees it, as in UI turns.
  // Calls whose arguments the output token limit cut off: the model wrapper finds them, the repair says so.
  const cut = new Set<string>();
  const limited = turnModel(model, responseMs, (id) => cut.add(id));
  const turnSignal = anySignal(request.signal, run.signal, clock?.signal);
  const providerOptions = withOutputOptions(settings.providerOptions, output?.providerOptions);
  const generating = generateText({
    ...settings,
    ...(providerOptions === undefined ? {} : { providerOptions }),
    ...(output === undefined ? {} : { output: output.output }),
    model: limited.model,
    ...(instructions === undefined ? {} : { instructions }),
    messages: ageToolFiles(messages, options.toolFileTurns ?? Number.POSITIVE_INFINITY),
    tools,
    ...activeToolsOption(every, visible),
    repairToolCall: repairToolCallFor(executor, { run, onResult, cut }),
    ...(!grant && mayAsk(visible, 'internal') ? { toolApproval: toolApprovalFor(registry, { run, signal: turnSignal, decided: (id) => decisions.has(id) }) } : {}),
    stopWhen: limits.stop,
    ...budgetedSteps({ estimate: options.inputTokenEstimate, meter, instructions, tools: visible, refuse, resumed: direct.resumed }),
    ...abortOption(turnSignal),
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    ...textTurnTimeout(timeLimits),
    ...(clock === undefined ? {} : { onLanguageModelCallStart: clock.start }),
    ...(onUsage === undefined && clock === undefined && meter === undefined
      ? {}
      : {
          onLanguageModelCallEnd: ({ usage }: { usage: LanguageModelUsage }) => {
            clock?.stop();
            // A step's usage as soon as its model call ends: its tools may still fail or hang, and its tokens are spent.
            meter?.step(usage);
            if (onUsage !== undefined) reportModelUsage(spent, usage);
          },
        }),
  });
  // A last step that ended other than by `stop` or `tool-calls` (Anthropic's `max_tokens` after a whole `tool_use`
  // block, `refusal`, `compaction`): the AI SDK ran none of its calls. Each server call nothing answered gets its `aborted` result, in a tool message of
  // its own: left without one, it came back as `pending` for a caller with nothing to run, and the conversation failed
  // its next request (`AI_MissingToolResultsError`). Approval requests stay pending, as in UI turns.
  const unrunCalls = async (responses: readonly ModelMessage[], reason: string | undefined): Promise<ModelMessage[]> => {
    if (!runsNoCalls(reason)) return [];
    const content: ToolPart[] = [];
    for (const call of pendingModelCalls(responses)) {
      if (call.kind !== 'client') continue;
      const tool = await registry.resolve(call.toolName);
      if (tool !== undefined && runsOnCaller(tool, 'internal')) continue;
      const refused = await unrunResult(executor, { id: call.toolCallId, name: call.toolName, input: call.input }, run);
      onResult(refused);
      content.push({ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output: { type: 'error-text', value: refused.content } });
    }
    return content.length === 0 ? [] : [{ role: 'tool', content }];
  };
  const result = await generating
    // A model call our limit aborted fails the turn with our timeout, however it got here: the AI SDK wraps the timeout of
    // a retried call in its RetryError, and a provider may report the abort as an error of its own (@ai-sdk/openai's
    // "Failed to process successful response" once the response headers had come). The caller's own abort stays theirs.
    // A server that answered with an error object in a 200 (OpenRouter's upstream errors), or with a reply the provider
    // cannot read, fails it with a ModelReplyError that says so: the provider's "Invalid JSON response" kept that in its cause.
    .catch((error: unknown) => {
      const timeout = limited.timedOut() ?? clock?.timedOut();
      throw timeout !== undefined && request.signal?.aborted !== true && run.signal?.aborted !== true ? timeout : (modelReplyError(error) ?? error);
    })
    .finally(() => {
      clock?.stop();
      limited.stop();
    });
  const text = direct.text();
  const last = result.steps.at(-1);
  const all = [...messages, ...result.responseMessages, ...(text === undefined ? await unrunCalls(result.responseMessages, last?.finishReason) : [])];
  const waiting = text === undefined && last !== undefined && last.toolCalls.length > 0 ? pendingModelCalls(all.slice(messages.length)) : [];
  const toolResults = inCallOrder(result.steps, results);
  const pending = await Promise.all(
    waiting.map(async (call): Promise<PendingToolCall> => {
      const tool = await registry.resolve(call.toolName);
      const editable = call.kind === 'approval' ? editableArguments(tool) : undefined;
      return { ...call, runsOn: tool?.policy.runsOn, ...(editable === undefined ? {} : { editable }) };
    }),
  );
  const turn: TextTurnResult<unknown> = {
    text: text ?? result.text,
    finishReason: text === undefined ? result.finishReason : 'stop',
    messages: all,
    toolResults,
    pending,
    returnDirect: text !== undefined,
    limit: limits.hit(),
    steps: result.steps.length - (direct.beforeModel() || refused ? 1 : 0),
    // The model's steps, plus what the turn's calls reported spending (sub-agents, tools that call a model).
    usage: toolResults.reduce((sum, r) => addUsage(sum, r.usage), addUsage(emptyUsage(), result.totalUsage)),
    run,
    output: undefined,
  };
  return { turn, unsupported: output === undefined ? undefined : unsupportedFormat(result.steps) };
}

/** What a turn's model said when it cannot answer in the asked format (its `responseFormat` warning), if it did. */
function unsupportedFormat(steps: readonly { readonly warnings?: readonly SharedV4Warning[] | undefined }[]): string | undefined {
  for (const step of steps) {
    for (const warning of step.warnings ?? []) {
      if (warning.type === 'unsupported' && warning.feature === 'responseFormat') return warning.details ?? 'it does not support a response format.';
    }
  }
  return undefined;
}

/**
 * The AI SDK `timeout` of a text turn, from the model time limits in effect: `generateText` takes the answer in one piece, so only the
 * step and total limits (which include the tools' time) apply; the chunk limits are for streams, and passing them only
 * made the AI SDK warn on every turn.
 */
export function textTurnTimeout({ stepMs, totalMs }: ModelTimeout): { timeout?: { stepMs?: number; totalMs?: number } } {
  if (stepMs === undefined && totalMs === undefined) return {};
  return { timeout: { ...(stepMs === undefined ? {} : { stepMs }), ...(totalMs === undefined ? {} : { totalMs }) } };
}

/** What `turnModel` reads of a model call's options. */
type CallOptions = { readonly abortSignal?: AbortSignal | undefined; readonly prompt: LanguageModelV4CallOptions['prompt']; readonly tools?: LanguageModelV4CallOptions['tools'] };
/** What `turnModel` reads of a model call's result. */
type GenerateResult = { readonly content: LanguageModelV4Content[] };

/** The error of a model call that outlived `modelTimeout.responseMs`. */
const responseTimeout = (ms: number): ToolError => new ToolError('timeout', `The model did not answer in time (no answer within ${ms} ms).`);

/**
 * `model` for one turn: each `doGenerate` call limited to `ms` (`modelTimeout.responseMs`; createChatAgent has checked it),
 * and the tool call ids it repeats (of the history or of this turn) renamed as `uniqueToolCallIds` does, unless the model
 * says its ids are unique. At the limit the call's signal aborts with a `timeout` {@link ToolError}, which
 * `generateText` rejects with. Only model calls carry the limit, so tools are not counted and get no extra signal.
 * `stop()` ends the turn's timer. A 200 whose body is an error object of a transient code is rethrown retryable
 * ({@link retryableErrorReply}), for the AI SDK's `maxRetries`. One wrapper for all: a middleware layer of its own cost a
 * few async hops per step. `cut` hears of each call whose arguments the output token limit cut off.
 */
function turnModel(
  model: LanguageModel,
  ms: number | undefined,
  cut: (toolCallId: string) => void,
): { model: LanguageModel; stop: () => void; timedOut: () => ToolError | undefined } {
  const limit = ms !== undefined && ms !== Number.POSITIVE_INFINITY;
  if (typeof model === 'string') return { model, stop: () => {}, timedOut: () => undefined };
  const ids = saysIdsUnique(model) ? undefined : callIdRenamer(undefined, cut);
  // One controller and at most one timer per turn, not per call: a model call only notes its deadline (the calls of a
  // turn run one after another), and the timer, when it fires, aborts the call that is past it or waits for the rest.
  // A timer and a controller per call cost the text turn about 3 % in the loop bench.
  const expired = new AbortController();
  const deadline = deadlineTimer(() => expired.abort(responseTimeout(ms as number)));
  // Whichever specification version the model has, only the call's signal changes (and the ids of its calls).
  const generating = model as unknown as { doGenerate(options: CallOptions): PromiseLike<GenerateResult> };
  const doGenerate = async (options: CallOptions) => {
    let result: GenerateResult;
    try {
      if (limit) {
        const caller = options.abortSignal;
        deadline.set(ms as number);
        try {
          result = await generating.doGenerate({ ...options, abortSignal: caller === undefined ? expired.signal : AbortSignal.any([caller, expired.signal]) });
        } finally {
          deadline.clear();
        }
      } else result = await generating.doGenerate(options);
    } catch (error) {
      // A 200 whose body is an error object of a transient code (OpenRouter's failed upstream call): retried as a 429 is.
      throw retryableErrorReply(error);
    }
    return ids === undefined ? result : ids.generated(options, result);
  };
  // A model of the specification's fields, the original's methods called on it (a provider's model is a class
  // instance whose methods may read private fields). Not a Proxy: the AI SDK reads a model's fields often, and through
  // a Proxy's trap the text turn measured 3–6 % slower.
  const { specificationVersion, provider, modelId } = model;
  const wrapped = {
    specificationVersion,
    provider,
    modelId,
    get supportedUrls() {
      return model.supportedUrls;
    },
    doGenerate,
    // A text turn only generates (`generateText`); a stream would be the model's own.
    doStream: (options: never) => model.doStream(options),
  } as unknown as LanguageModel;
  return {
    model: wrapped,
    stop: deadline.close,
    timedOut: () => (expired.signal.aborted ? (expired.signal.reason as ToolError) : undefined),
  };
}

/**
 * For a gateway id, the clock of `modelTimeout.responseMs` beside the turn: it runs while a model call is out (from
 * `onLanguageModelCallStart` to `onLanguageModelCallEnd`, so tools are not counted) and aborts the turn with a `timeout`
 * {@link ToolError} when one takes longer; `generateText` rejects with that reason.
 */
function responseClock(ms: number | undefined): { signal: AbortSignal; start: () => void; stop: () => void; timedOut: () => ToolError | undefined } | undefined {
  if (ms === undefined || ms === Number.POSITIVE_INFINITY) return undefined;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return {
    signal: controller.signal,
    start: () => {
      stop();
      timer = setTimeout(() => controller.abort(responseTimeout(ms)), ms);
    },
    stop,
    timedOut: () => (controller.signal.aborted ? (controller.signal.reason as ToolError) : undefined),
  };
}

/** The turn's results in the order the model made the calls (an approved call of an earlier turn comes first). */
function inCallOrder(steps: readonly { readonly toolCalls: readonly { readonly toolCallId: string }[] }[], results: ReadonlyMap<string, ToolCallResult>): ToolCallResult[] {
  const order = new Map<string, number>();
  for (const step of steps) for (const call of step.toolCalls) order.set(call.toolCallId, order.size);
  // Placed by position, without a sort: the results of calls in no step first, then by place, each in the order it came.
  const first: ToolCallResult[] = [];
  const placed: ToolCallResult[][] = [];
  for (const result of results.values()) {
    const at = order.get(result.call.id);
    if (at === undefined) first.push(result);
    else if (placed[at] === undefined) placed[at] = [result];
    else placed[at].push(result);
  }
  return first.concat(...placed.filter((entry) => entry !== undefined));
}
