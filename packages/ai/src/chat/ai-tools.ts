import {
  type AnyTool,
  type ApprovalDecision,
  approvalReasonOf,
  approvesWithEdits,
  argumentEdits,
  maskEdits,
  type AvailableToolsOptions,
  availableTools,
  CallContext,
  createExecutor,
  createSerializer,
  fitArguments,
  type ModelContent,
  outcomeModelText,
  type RunContext,
  type StrictJsonSchema,
  runCallCount,
  type ToolCall,
  type ToolCallResult,
  type ToolExecutor,
  type ToolProgressEvent,
  type ToolRegistry,
  toStrictJsonSchema,
  ToolError,
  toToolError,
  validateWithSchema,
  withEditNote,
  withinToolTime,
} from '@edgetool/core';
import { jsonSchema, type JSONSchema7, type Tool, type ToolApprovalStatus, type ToolSet } from 'ai';
import { isNotStartedRecord, type RecordedCallResult } from './call-results.ts';
import type { ExecutionMode } from './protocol.ts';
import { toToolOutput } from './tool-output.ts';

/** Options for {@link toAISDKTools}. */
export interface AISDKToolsOptions {
  /** The request-level context every call of this run shares. */
  readonly run: RunContext;
  /** `manual` hands every call back to the caller (default `internal`). */
  readonly mode?: ExecutionMode;
  /** Verified approval decisions for this request, by tool call id. */
  readonly decisions?: ReadonlyMap<string, ApprovalDecision>;
  /**
   * The arguments calls of earlier requests ran with, by tool call id, where a human edited them before approving
   * (the chat loop reads them from the results' seals): the model reads what changed beside those results.
   */
  readonly edited?: ReadonlyMap<string, unknown> | undefined;
  /** Called with every finished call (for traces and return-direct). */
  readonly onResult?: (result: ToolCallResult) => void;
  /** Every call that needs approval counts as approved (an outer approval covers the whole run). */
  readonly grantApprovals?: boolean;
  /** Receives the `ctx.progress()` reports of running calls. */
  readonly onProgress?: ((event: ToolProgressEvent) => void) | undefined;
  /**
   * For a call that must not run again (its approved continuation was sent a second time), the result it had:
   * return `undefined` for a call that runs as usual, or a promise of its recorded result (`undefined` when none was
   * recorded: the model then reads that the outcome is unknown).
   */
  readonly recall?: ((toolCallId: string) => Promise<RecordedCallResult | undefined> | undefined) | undefined;
  /**
   * Marks a call started, once, before it runs (the chat loop: an approved call, with its ticket's `claimMark`): resolves
   * `true` when this request took the mark (the call runs), `false` when another did (it runs or ran there: this request
   * does not run it, and the model reads that its outcome is unknown); a rejection (the store is down) runs nothing.
   * `undefined`: no mark for this call. A recalled call with no record runs only when its mark is this request's: it
   * never started (its request was cut before), so running it now runs it once. `mark`: `started`, or `rerun` for a
   * recalled call whose record says it was given up on before it started (`NOT_STARTED_RECORD`): a second mark, so that
   * of the requests that read that record, one runs it.
   */
  readonly start?: ((toolCallId: string, mark: 'started' | 'rerun') => Promise<boolean> | undefined) | undefined;
  /**
   * Records that a call whose `started` mark this request took was given up on before its chain started (the turn was
   * aborted: during the mark's round trip, the executor's checks), so it never ran and never will here: the chat loop
   * puts `NOT_STARTED_RECORD` under its key. A rejection goes to `onRememberError` (the same continuation sent again then
   * reads that its outcome is unknown, as before).
   */
  readonly notStarted?: ((result: ToolCallResult) => Promise<void> | void) | undefined;
  /**
   * The `ctx.idempotencyKey` of a call whose approval was verified before it ran (the chat loop: `idempotencyKeyOf` with
   * its ticket's nonce, the key its result is recorded under); `undefined` for the executor's own. Called when the call's
   * tool first reads its key, once per call (a call whose tool never reads it never calls it).
   */
  readonly idempotencyKey?: ((toolCallId: string) => string | undefined) | undefined;
  /**
   * Called as each call starts to run on this server (after `recall` and `start`), with its id; the function it
   * returns, when the call has ended. The chat loop hands its turn's token budget to the call's agent tool this way.
   */
  readonly running?: ((toolCallId: string) => () => void) | undefined;
  /** Records the result of a call that ran with an approval decision, before the AI SDK gets it. */
  readonly remember?: ((result: ToolCallResult) => Promise<void> | void) | undefined;
  /**
   * Receives a `remember` that threw or rejected (default: `console.error`). The call's result still goes to the model
   * as it is: the call ran, and only the same continuation sent again would read that its outcome is unknown.
   */
  readonly onRememberError?: ((error: unknown, result: ToolCallResult) => void) | undefined;
  /**
   * Images in tool results (`toModelOutput` parts) reach the model as images (default `true`). `false` sends their
   * text, with a line naming each image, for a provider that cannot take images in tool results (`takesToolImages`).
   */
  readonly images?: boolean | undefined;
  /**
   * PDF documents in tool results reach the model as documents (default `true`). `false` sends a line naming each
   * document instead, for a provider that cannot take documents in tool results (`takesToolDocuments`).
   */
  readonly documents?: boolean | undefined;
  /**
   * Tools this run may not see (`policy.available`) are left out (`'omit'`, the default). `'keep'` keeps them for the
   * AI SDK to run (the executor answers every call of them with `unknown-tool`): pass the names of the others as
   * `activeTools`, so the model is never given them, and a call approved while the run could still see the tool gets
   * that answer instead of no result at all. The chat loop does this.
   */
  readonly hidden?: 'omit' | 'keep' | undefined;
  /**
   * The tools to offer, from the executor's registry: a part of them, or the list a caller already has from
   * `registry.tools()` (so a lazy tool is not loaded twice per turn, as the chat loop does). Default: every tool of the
   * registry, loaded now (one that fails to load is left out: `createRegistry({ onLoadError })`).
   */
  readonly tools?: readonly AnyTool[] | undefined;
  /**
   * Receives each tool left out because its `policy.available` check did not answer within 10 s (see `availableTools`),
   * and, when `source` is no executor, each one an unknown tool's list leaves out. Default: `console.error`.
   */
  readonly onLateCheck?: AvailableToolsOptions['onLateCheck'];
}

/**
 * A failure the AI SDK reports as exactly its message (it reports `String(error)`): a recalled failure's recorded text,
 * or the message `toolErrorMessage` gives a failure the registry made throw.
 */
class FailureText extends Error {
  override toString(): string {
    return this.message;
  }
}

/**
 * What the model reads for an approved call that was not run because the server could not mark it started (its store
 * failed): run without the mark, the same continuation sent again could not tell that it had run.
 */
export const NOT_STARTED_TEXT =
  'This approved call was not run: the server could not record that it started. Nothing was changed; ask the user before calling it again.';

/** What the model reads for a call whose continuation came again but whose result was not recorded. */
export const UNKNOWN_OUTCOME_TEXT =
  'Error (execution-failed): This call was approved in an earlier request whose answer was lost, so it was not run again. Its outcome is unknown (it may have run): check the current state before calling it again.';

/** The error a failed call throws into the AI SDK: its message is exactly the text the model reads. */
export class ToolCallFailed extends Error {
  readonly result: ToolCallResult;
  constructor(result: ToolCallResult) {
    super(result.content);
    this.name = 'ToolCallFailed';
    this.result = result;
  }

  /** The AI SDK reports `String(error)` to the model and the UI: keep it exactly edgetool's text. */
  override toString(): string {
    return this.message;
  }
}

/**
 * An error the registry's `onError` made the executor throw, as the AI SDK will report it to the model and the UI (its
 * message): with the message the executor's `toolErrorMessage` lets them read, the error itself as its `cause`.
 */
function asReported(executor: ToolExecutor, error: unknown, call: ToolCall): unknown {
  const failure = toToolError(error);
  const message = executor.errorMessage(failure, call);
  return message === failure.message ? error : new FailureText(message, { cause: error });
}

/**
 * The text of a call's successful result kept for it, when it was made from this very output (another call with the same
 * id made its own).
 */
function ownText(kept: ToolCallResult | undefined, output: unknown): ModelContent | undefined {
  return kept !== undefined && kept.outcome.type === 'success' && kept.outcome.output === output ? (kept.parts ?? kept.content) : undefined;
}

/** The default {@link AISDKToolsOptions.onRememberError}. */
function logRememberError(error: unknown, result: ToolCallResult): void {
  console.error(`edgetool: the result of the call ${result.call.id} of "${result.call.name}" was not recorded; sent again, its continuation will read that the outcome is unknown:`, error);
}

/** Whether the caller (not this server) runs the tool in this mode. */
export function runsOnCaller(tool: AnyTool, mode: ExecutionMode): boolean {
  return tool.policy.runsOn === 'client' || (mode === 'manual' && tool.policy.runsOn === 'anywhere');
}

/** The arguments a human may edit when approving a call of `tool` (`policy.editable`), `undefined` when none. */
export function editableArguments(tool: AnyTool | undefined): true | readonly string[] | undefined {
  const editable = tool?.policy.editable;
  return editable === undefined || editable === false ? undefined : editable;
}

/** A light context for decisions made outside a call's chain (approval rules, history conversion). */
function lightContext(tool: AnyTool, id: string, input: unknown, run: RunContext, signal?: AbortSignal): CallContext {
  return new CallContext({ tool, call: { id, name: tool.name, arguments: input }, args: input, input, run, side: 'server', signal });
}

/** How the model reads a tool's output, for calls of this request and for history alike. */
function modelText(tool: AnyTool, id: string, input: unknown, output: unknown, run: RunContext): ModelContent {
  // The executor's own conversion; a context is made only for a tool that reads one.
  return outcomeModelText(tool, { type: 'success', output }, tool.toModelOutput ? lightContext(tool, id, input, run) : undefined);
}

/**
 * What the model reads for a result in the history: with what a human changed first, when they edited its arguments
 * (the fields `redact()` hides masked, as the executor masks them in the note of the turn the call ran in).
 */
function historyText(executor: ToolExecutor, tool: AnyTool, id: string, input: unknown, output: unknown, run: RunContext, edited: ReadonlyMap<string, unknown> | undefined): ModelContent {
  if (edited === undefined || !edited.has(id)) return modelText(tool, id, input, output, run);
  const ran = edited.get(id);
  return withEditNote(modelText(tool, id, ran, output, run), maskEdits(argumentEdits(input, ran), (value) => executor.redactInput(tool, value)));
}

/**
 * The calls whose `check`, `needsApproval` function or `approvalReason` failed in {@link approvalStatus} (threw, rejected
 * or ran out of time), by run (so forked runs keep their own) and call id: the call's `execute` ends with that failure
 * (`ExecuteOptions.failedCheck`) instead of the executor running the function a second time.
 */
const failedChecks = new WeakMap<RunContext, Map<string, FailedCheck>>();

/** A failure kept for a call's `execute` (see `failedChecks`); `beforeChain`: the call is refused before any layer runs. */
interface FailedCheck {
  readonly tool: AnyTool;
  readonly error: ToolError;
  readonly beforeChain?: true;
}

/**
 * The status of a call whose `check`, rule or reason failed in the approval step: no one is asked, and the failure is
 * kept, as the executor would report it, for the call's `execute` (see `failedChecks`). `beforeChain`: the call is
 * refused with it before any layer runs (`executor.refuse`), so it spends no unit of a limit.
 */
function failedStatus(run: RunContext, tool: AnyTool, id: string, error: unknown, beforeChain?: true): ToolApprovalStatus {
  let calls = failedChecks.get(run);
  if (calls === undefined) {
    calls = new Map();
    failedChecks.set(run, calls);
  }
  calls.set(id, { tool, error: toToolError(error, { toolName: tool.name, callId: id }), ...(beforeChain ? { beforeChain } : {}) });
  return 'not-applicable';
}

/**
 * The calls of each tool that {@link approvalStatus} sent to a human in a run, by run and tool name (their call ids).
 * None of them runs in that run's request (it ends on them), so the executor's `maxCallsPerRun` count never sees them:
 * this count keeps one step's calls from asking more humans than the limit lets run. A call resumed with its decision
 * leaves it (see {@link toolApprovalFor}'s `decided`): a run used again for the next turn then counts it as run only.
 */
const askedCalls = new WeakMap<RunContext, Map<string, Set<string>>>();

/**
 * Whether a call of `tool` that would ask a human is over its `maxCallsPerRun`, counting the calls that ran in `run` and
 * those of it already waiting for a human; when it is not, it is counted as waiting (it asks).
 */
function overLimitAsking(run: RunContext, tool: AnyTool, id: string): boolean {
  const max = tool.policy.maxCallsPerRun;
  if (max === undefined) return false;
  let asked = askedCalls.get(run);
  if (asked === undefined) {
    asked = new Map();
    askedCalls.set(run, asked);
  }
  let waiting = asked.get(tool.name);
  if (waiting === undefined) {
    waiting = new Set();
    asked.set(tool.name, waiting);
  }
  if (runCallCount(run, tool) + waiting.size >= max) return true;
  waiting.add(id);
  return false;
}

/** The refusal of a call over `maxCallsPerRun` because others of the step already wait for a human (see {@link overLimitAsking}). */
function askedTooOften(tool: AnyTool, id: string): ToolError {
  const max = tool.policy.maxCallsPerRun ?? 0;
  const times = max === 1 ? 'once' : `${max} times`;
  const message = `Tool "${tool.name}" may run at most ${times} per request, and that many calls of it already wait for approval; this call was not run. Do not call it again now: answer with what you have.`;
  return new ToolError('rate-limited', message, { toolName: tool.name, callId: id });
}

/** The failure {@link approvalStatus} kept for this call of `tool`, taken (once), or `undefined`. */
function takeFailedCheck(run: RunContext, tool: AnyTool, id: string): FailedCheck | undefined {
  const calls = failedChecks.get(run);
  const kept = calls?.get(id);
  if (kept === undefined) return undefined;
  calls?.delete(id);
  return kept.tool === tool ? kept : undefined;
}

/**
 * Decides the AI SDK approval status of a call from the tool's policy. Invalid input never asks a
 * human: it runs into the executor, which reports the issues to the model. The tool's functions it runs (`check`,
 * `needsApproval`, `approvalReason`) are bounded by its `timeoutMs` and `signal` (the turn's abort), as in the executor;
 * one that throws or times out is not run again by the call's `execute` from {@link toAISDKTools} with the same run.
 */
export async function approvalStatus(
  tool: AnyTool,
  id: string,
  input: unknown,
  run: RunContext,
  mode: ExecutionMode,
  signal?: AbortSignal | undefined,
): Promise<ToolApprovalStatus> {
  if (runsOnCaller(tool, mode)) return 'not-applicable';
  const { needsApproval: rule, maxCallsPerRun: max, check, approvalReason } = tool.policy;
  const fixed: ToolApprovalStatus = typeof approvalReason === 'string' ? { type: 'user-approval', reason: approvalReason } : 'user-approval';
  if (mode === 'manual' && check === undefined && typeof approvalReason !== 'function') return fixed;
  if (mode === 'internal') {
    if (rule === false) return 'not-applicable';
    // A call its per-run limit will refuse never asks a human: it runs into the executor, which reports the limit.
    if (max !== undefined && runCallCount(run, tool) >= max) return 'not-applicable';
  }
  // The executor reads a strict model's nulls as absent (`policy.strict`) and coerces (`policy.coerce`) before it
  // validates: decide on the same input, or a quoted number or a left-out optional argument skips the human.
  let checked: Awaited<ReturnType<typeof validateWithSchema>>;
  try {
    checked = await validateWithSchema(tool.input, fitArguments(input, tool.jsonSchema, tool.policy));
  } catch {
    // A schema that throws (a remote tool's `$ref` to nowhere): the executor refuses the call as invalid-input.
    return 'not-applicable';
  }
  if (!checked.ok) return 'not-applicable';
  const ctx = lightContext(tool, id, checked.value, run, signal);
  const asks = await ruleAsks(rule, checked.value, ctx);
  if (mode === 'internal' && asks !== true) return asks === false ? 'not-applicable' : failedStatus(run, tool, id, asks.failed);
  const refused = await refusedByCheck(check, checked.value, ctx);
  if (refused !== undefined) return failedStatus(run, tool, id, refused.failed);
  // The tool's words only for a call its rule asks a human about, as the executor makes them: in manual mode a call the
  // rule lets through still goes to the browser chain, and a reason that threw must not let it skip that chain.
  if (typeof approvalReason !== 'function' || asks !== true) return fixed;
  try {
    const reason = await approvalReasonOf(ctx);
    return reason === undefined ? 'user-approval' : { type: 'user-approval', reason };
  } catch (error) {
    // A reason that throws refuses the call, as a check does: the call's `execute` reports that failure.
    return failedStatus(run, tool, id, error);
  }
}

/** One of the tool's functions that threw, or outlived the tool's `timeoutMs` or the turn's abort, in the approval step. */
interface Failed {
  readonly failed: unknown;
}

/**
 * Whether the tool's `policy.check` refuses the (validated) call: `undefined` when it passes. Such a call never asks a
 * human: it runs into the executor, which ends it with that failure at its check layer, before the approval, and the
 * model reads why. A check that outlives the tool's `timeoutMs` refuses it too, with that timeout.
 */
async function refusedByCheck(check: AnyTool['policy']['check'], input: unknown, ctx: CallContext): Promise<Failed | undefined> {
  if (check === undefined) return undefined;
  try {
    await withinToolTime(ctx, 'check', () => check(input, ctx));
    return undefined;
  } catch (failed) {
    return { failed };
  }
}

/**
 * Whether the tool's `policy.needsApproval` asks for a human. A rule that fails (throws, rejects, times out) asks no
 * one: the call runs into the executor, which ends it with that failure before anything runs, and the model reads it.
 */
async function ruleAsks(rule: AnyTool['policy']['needsApproval'], input: unknown, ctx: CallContext): Promise<boolean | Failed> {
  if (typeof rule !== 'function') return rule;
  try {
    // Read as the executor's approval layer reads it.
    return Boolean(await withinToolTime(ctx, 'approval rule', () => rule(input, ctx)));
  } catch (failed) {
    return { failed };
  }
}

/** Each strict tool's rewritten schema, made once per tool. */
const strictSchemas = new WeakMap<AnyTool, StrictJsonSchema>();

/**
 * The input schema a tool goes out with, and whether it goes out strict (`policy.strict`): the strict rewrite, or the
 * schema as it is when it has none or is over OpenAI's size limits, with a warning the first time (a schema OpenAI
 * refuses in strict mode would fail every request, not just this tool's calls). `toStrictJsonSchema(tool.jsonSchema)`
 * says why.
 */
function wireSchema(tool: AnyTool): { readonly schema: unknown; readonly strict?: true } {
  if (!tool.policy.strict) return { schema: tool.jsonSchema };
  let made = strictSchemas.get(tool);
  if (made === undefined) {
    made = toStrictJsonSchema(tool.jsonSchema);
    strictSchemas.set(tool, made);
    if (!made.strict) console.warn(`edgetool: tool "${tool.name}" asks for strict mode, but its input schema has no strict form (${made.reason}): it goes out non-strict.`);
  }
  return made.strict ? { schema: made.schema, strict: true } : { schema: tool.jsonSchema };
}

/**
 * Turns edgetool tools into an AI SDK `ToolSet` whose `execute` runs the edgetool executor and chain,
 * for users who call `generateText`/`streamText` themselves. Failures throw {@link ToolCallFailed}
 * (the AI SDK reports them to the model as tool errors); the model reads edgetool's text for results.
 * Pair it with {@link toolApprovalFor} so approval policies are honoured.
 */
export async function toAISDKTools(source: ToolExecutor | ToolRegistry | readonly AnyTool[], options: AISDKToolsOptions): Promise<ToolSet> {
  const late = { onLateCheck: options.onLateCheck };
  const executor = 'execute' in source && 'registry' in source ? source : createExecutor({ registry: source as ToolRegistry | readonly AnyTool[], ...late });
  const { run, decisions, edited, onResult, grantApprovals, onProgress, recall, start, running, remember, notStarted, idempotencyKey } = options;
  // A record's write (`remember`, `notStarted`): a store that is down must not turn a call into a failure the model reads
  // (it might run it again), nor must a listener that throws on it.
  const record = async (write: ((result: ToolCallResult) => Promise<void> | void) | undefined, result: ToolCallResult): Promise<void> => {
    try {
      await write?.(result);
    } catch (error) {
      try {
        (options.onRememberError ?? logRememberError)(error, result);
      } catch {
        // A broken listener must not fail the call.
      }
    }
  };
  const mode = options.mode ?? 'internal';
  const files = { images: options.images ?? true, documents: options.documents ?? true };
  // The successful result of each call of this request, with what the model reads and the output it was made from (the
  // result itself: no object made for them): a model can give two calls one id (some OpenAI-compatible servers do), and
  // each must read its own result.
  const texts = new Map<string, ToolCallResult>();
  // The AI SDK runs a step's calls at once: calls sharing a `policy.concurrency` group wait for each other here.
  const serial = createSerializer();
  const set: Record<string, Tool> = {};
  // Defined, not assigned: a tool named `__proto__` (a valid name, which an MCP server can list) set the object's
  // prototype instead, and was silently left out.
  const put = (name: string, value: Tool) => Object.defineProperty(set, name, { value, enumerable: true, writable: true, configurable: true });
  // Only the tools this run may see (`policy.available`), unless told to keep the others: the executor refuses them.
  const all = options.tools ?? (await executor.registry.tools());
  for (const tool of options.hidden === 'keep' ? all : await availableTools(all, run, late)) {
    const wire = wireSchema(tool);
    const base = {
      description: tool.description,
      inputSchema: jsonSchema(wire.schema as JSONSchema7),
      ...(wire.strict ? { strict: true } : {}),
      toModelOutput: ({ toolCallId, input, output }: { toolCallId: string; input: unknown; output: unknown }) =>
        toToolOutput(ownText(texts.get(toolCallId), output) ?? historyText(executor, tool, toolCallId, input, output, run, edited), files),
    };
    if (runsOnCaller(tool, mode)) {
      put(tool.name, base as unknown as Tool);
      continue;
    }
    put(tool.name, {
      ...base,
      execute: async (input: unknown, execution: { toolCallId: string; abortSignal?: AbortSignal }) => {
        const recalling = recall?.(execution.toolCallId);
        // A record that says the call was given up on before it started: it runs on the second mark, as one with no
        // record runs on the first.
        let rerun = false;
        if (recalling !== undefined) {
          const recorded = await recalling;
          if (isNotStartedRecord(recorded)) rerun = true;
          else if (recorded !== undefined && 'output' in recorded) return recorded.output;
          else if (recorded !== undefined) throw new FailureText(recorded.errorText);
        }
        // The AI SDK has parsed the model's JSON: a string here is a value (a model that encoded its arguments twice),
        // not text for the executor to parse again, which ran it as an object the approval step had refused as invalid.
        const call = { id: execution.toolCallId, name: tool.name, arguments: typeof input === 'string' ? JSON.stringify(input) : input };
        // Marked before it runs, unless the turn has already ended: a call given up on before its mark never started, and
        // the same continuation sent again runs it.
        const marking = execution.abortSignal?.aborted === true ? undefined : start?.(execution.toolCallId, rerun ? 'rerun' : 'started');
        const marked = marking === undefined ? undefined : await marking.then((won) => won, () => 'failed' as const);
        // A recalled call with no record runs only on its own mark (nothing else says it never started); a mark another
        // request took means the call ran, or runs, there.
        if (recalling !== undefined ? marked !== true : marked === false) throw new FailureText(UNKNOWN_OUTCOME_TEXT);
        // Run without its mark, the same continuation sent again could not tell that it had: it does not run.
        const unmarked = marked === 'failed' ? new ToolError('execution-failed', NOT_STARTED_TEXT, { toolName: tool.name, callId: call.id }) : undefined;
        const approval = grantApprovals ? { approved: true } : decisions?.get(execution.toolCallId);
        // A check that failed in the approval step ends the call with that failure, not a second run of it (a second
        // wait, or a throw that might pass this time, when no human was asked). Not for arguments a human edited: the
        // executor checks those, which the approval step never saw.
        const failed = takeFailedCheck(run, tool, execution.toolCallId);
        const failedCheck = approvesWithEdits(approval) || failed?.beforeChain ? undefined : failed?.error;
        // The key is made when the tool first reads it (`ExecuteOptions.idempotencyKey`): most tools never do.
        // Whether the chain started, for a call this request marked started: one given up on before it never ran.
        let launched = false;
        const onLaunch =
          marked === true && !rerun && notStarted !== undefined
            ? () => {
                launched = true;
              }
            : undefined;
        const opts = { run, signal: execution.abortSignal, approval, onProgress, failedCheck, idempotencyKey, onLaunch };
        const group = tool.policy.concurrency;
        let result: ToolCallResult;
        const ran = running?.(call.id);
        try {
          if (unmarked !== undefined) result = await executor.refuse(call, unmarked, { run });
          else if (failed?.beforeChain) result = await executor.refuse(call, failed.error, { run });
          // A tool without a concurrency group waits for nothing: no task closure, and no `.catch` hop on its promise.
          else result = await (group === undefined ? executor.execute(call, opts) : serial(group, () => executor.execute(call, opts)));
        } catch (error) {
          throw asReported(executor, error, call);
        } finally {
          ran?.();
        }
        onResult?.(result);
        // An aborted or timed-out call may still finish after it was given up on (a write that commits): its outcome
        // is not known, so nothing is recorded and a replay says so.
        const { outcome } = result;
        const known = outcome.type === 'success' || (outcome.type === 'error' && outcome.error.code !== 'aborted' && outcome.error.code !== 'timeout');
        // Unless nothing of it started: marked, then given up on before its chain (the turn was aborted). Recorded as
        // such, the same continuation sent again runs it (on a second mark); this request never runs it.
        if (!known && onLaunch !== undefined && !launched) await record(notStarted, result);
        if (known && remember !== undefined && decisions?.has(execution.toolCallId) === true) await record(remember, result);
        if (result.outcome.type === 'success') {
          texts.set(execution.toolCallId, result);
          return result.outcome.output;
        }
        throw new ToolCallFailed(result);
      },
    } as unknown as Tool);
  }
  return set;
}

/**
 * The AI SDK `toolApproval` function that applies edgetool policies (use with {@link toAISDKTools}). `signal`: the turn's
 * abort (the AI SDK gives the function none), which ends a tool's `check` or `approvalReason` still running.
 */
export function toolApprovalFor(
  registry: ToolRegistry,
  options: {
    readonly run: RunContext;
    readonly mode?: ExecutionMode;
    readonly signal?: AbortSignal | undefined;
    /**
     * Whether a call was already answered (the AI SDK asks again about the approved calls it resumes): such a call asks
     * no one, so it is not counted against its tool's `maxCallsPerRun` as a call that asks is.
     */
    readonly decided?: ((toolCallId: string) => boolean) | undefined;
  },
): (o: { toolCall: { toolCallId: string; toolName: string; input: unknown } }) => Promise<ToolApprovalStatus> {
  const { run } = options;
  return async ({ toolCall }) => {
    const tool = await registry.resolve(toolCall.toolName);
    if (!tool) return 'not-applicable';
    const status = await approvalStatus(tool, toolCall.toolCallId, toolCall.input, run, options.mode ?? 'internal', options.signal ?? run.signal);
    const asks = status === 'user-approval' || (typeof status === 'object' && status.type === 'user-approval');
    if (!asks) return status;
    if (options.decided?.(toolCall.toolCallId) === true) {
      // Answered: it runs now, and the executor counts it; no longer one waiting (when this run saw it ask).
      askedCalls.get(run)?.get(tool.name)?.delete(toolCall.toolCallId);
      return status;
    }
    // Calls of one step ask at once, before any runs: past the limit, a call is refused now, not approved in vain.
    return overLimitAsking(run, tool, toolCall.toolCallId) ? failedStatus(run, tool, toolCall.toolCallId, askedTooOften(tool, toolCall.toolCallId), true) : status;
  };
}
