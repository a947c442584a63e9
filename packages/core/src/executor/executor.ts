import { defineInterceptor, failure, toInterceptor } from '../chain/interceptor.ts';
import { type Clock, defaultClock, runLayers } from '../chain/run-chain.ts';
import type { ExecutionSide, InterceptorLike, ToolCall, ToolContext, ToolInterceptor, ToolOutcome, ToolProgress, ToolProgressEvent, ToolSpan, ToolUsage } from '../chain/types.ts';
import { createRunContext, type RunContext } from '../context/run-context.ts';
import { AttemptContext } from '../context/attempt-context.ts';
import { CallContext } from '../context/tool-context.ts';
import { ToolError, type ToolIssue, toToolError } from '../errors/tool-error.ts';
import { type ApprovalDecision, approval, approvalDecisionKey, approvesWithEdits, placement, ticketSubject } from '../interceptors/approval.ts';
import { countCalls, policyCallCounts } from '../interceptors/call-count.ts';
import { rateLimit } from '../interceptors/limits.ts';
import { retry } from '../interceptors/retry.ts';
import { timeout, withinToolTime } from '../interceptors/timeout.ts';
import { parentCallKey, type TraceRecord, toTraceRecord, traceIdKey } from '../interceptors/trace.ts';
import { checked, listedNames } from '../registry/checked.ts';
import type { Folded } from '../registry/folded.ts';
import { createRegistry, isRegistry, type ToolRegistry } from '../registry/registry.ts';
import { fitArguments } from '../schema/coerce.ts';
import { type ValidationResult, validateWithSchema } from '../schema/input-schema.ts';
import { NOT_PASSED, passedValue, validationOf } from '../schema/validation-result.ts';
import type { TicketSigner, TicketVerifyResult } from '../tickets/index.ts';
import { boundModelContent, DEFAULT_MAX_CONTENT_CHARS } from '../tool/content-bound.ts';
import { type ModelContent, type ModelContentPart, partsText } from '../tool/model-content.ts';
import { type AvailableToolsOptions, availableTools, isToolAvailable } from '../tool/available.ts';
import { lateError, withinCheckLimit } from '../tool/check-limit.ts';
import { logLeftOut } from '../tool/left-out.ts';
import type { AnyTool, ToolsDeps } from '../tool/types.ts';
import { parseArguments } from './parse-arguments.ts';
import { plainArguments, UNREAD } from './plain-arguments.ts';
import { errorModelText, outcomeModelText } from './convert-result.ts';
import { type ArgumentEdit, argumentEdits, maskEdits, refusedEdits, withEditNote } from './edits.ts';
import { abortError, raceSignal } from './race-signal.ts';

/**
 * What the model reads in place of a failed call's message (`result.content`; in the chat loop the client's UI stream
 * too). `'verbatim'` (default): every message as it is. `'hide-unexpected'`: the message of an unexpected failure
 * (`error.unexpected`: a plain `Error`, a `TypeError`, a rejected `fetch`, a lazy tool that failed to load) becomes
 * `The tool failed unexpectedly (reference <call id>).`; edgetool's own errors and the `ToolError`s a tool throws stay.
 * A function decides for every failure: a string replaces the message (the code and issues stay), `undefined` (or
 * `null`) keeps it; one that throws or returns anything else gets the hidden text. `result.outcome.error` is always the
 * original.
 */
export type ToolErrorMessage = 'verbatim' | 'hide-unexpected' | ((error: ToolError, call: ToolCall) => string | undefined);

/** Options for {@link createExecutor}. */
export interface ExecutorOptions {
  /** The tools: a registry (one built by hand must have its shape: a `TypeError` here otherwise), or a list (which becomes one). */
  readonly registry: ToolRegistry | readonly AnyTool[];
  /** Global interceptors: outermost, around every call. */
  readonly interceptors?: readonly InterceptorLike[] | undefined;
  /** Where this executor runs (default `'server'`); decides what `policy.runsOn` means here. */
  readonly side?: ExecutionSide | undefined;
  /** Signs approval requests and client-pending calls, and verifies what comes back. */
  readonly tickets?: TicketSigner | undefined;
  /** Called once per finished call with its spans (export to your tracing backend). Turns on `spans`. */
  readonly onTrace?: ((record: TraceRecord) => void) | undefined;
  /**
   * Time every layer of every call into `result.spans` (default: only when `onTrace` is set, or for chains
   * with a tracing interceptor such as `trace()`). Off, a call reads the clock twice (for `durationMs`).
   */
  readonly spans?: boolean | undefined;
  /** Milliseconds for `durationMs` and spans (default `performance.now()`; tests pass a fake clock). */
  readonly clock?: Clock | undefined;
  /** What the model reads of a failure: every message (`'verbatim'`, default), or not those of unexpected ones (see {@link ToolErrorMessage}). */
  readonly toolErrorMessage?: ToolErrorMessage | undefined;
  /**
   * Receives each tool left out of an unknown tool's list of available ones, or a client result's tool refused as
   * unknown, because its `policy.available` check did not answer within 10 s (as `availableTools`'). Default: `console.error`.
   */
  readonly onLateCheck?: AvailableToolsOptions['onLateCheck'];
}

/** Options for one call. */
export interface ExecuteOptions<TDeps = unknown> {
  /** The request-level context shared by the calls of one run (a fresh one if absent). */
  readonly run?: RunContext<TDeps>;
  readonly signal?: AbortSignal | undefined;
  /** Call-level interceptors: innermost of the user layers. */
  readonly interceptors?: readonly InterceptorLike[];
  /** The human decision on an approval request, with its ticket. */
  readonly approval?: ApprovalDecision | undefined;
  /**
   * Receives the call's `ctx.progress()` reports while it runs (none after it ended). A listener that throws
   * does not fail the call.
   */
  readonly onProgress?: ((event: ToolProgressEvent) => void) | undefined;
  /**
   * A failure the caller already met running this call's `check`, `needsApproval` function or `approvalReason` (the chat
   * loop's approval step, where one threw or ran out of time): the call ends with it where the chain would run them again
   * (the layers before, such as the call limit, run as usual), so each runs once and a hung check costs one `timeoutMs`.
   */
  readonly failedCheck?: ToolError | undefined;
  /**
   * The call's `ctx.idempotencyKey`, for a caller that verified its approval itself (the chat loop gives the key of its
   * approval ticket, `idempotencyKeyOf`). Default: made from the run, the call and the ticket the approval layer verified.
   * A function of the call id is called at the first read only (most tools never read the key) and its answer kept, so
   * every read of the call gets one value; `undefined` from it means the default.
   */
  readonly idempotencyKey?: string | ((callId: string) => string | undefined) | undefined;
  /**
   * Called once, as the call's chain starts: its arguments parsed, its tool resolved, its input valid, its signal not
   * aborted. A call that ends without it never reached an interceptor or its tool's `execute` (the chat loop records an
   * approved call given up on before it as not started, so the same continuation sent again runs it). A listener that
   * throws does not fail the call. In `executeAll`, called for each call whose chain starts.
   */
  readonly onLaunch?: (() => void) | undefined;
}

/** Everything about one finished call. */
export interface ToolCallResult<TOutput = unknown> {
  readonly call: ToolCall;
  readonly tool: AnyTool | undefined;
  /** The validated input, or the parsed arguments when validation was not reached. */
  readonly input: unknown;
  readonly outcome: ToolOutcome<TOutput>;
  /** The text the model reads for this call (for parts: their text, with a line naming each image or document). */
  readonly content: string;
  /** What the model reads, part by part, when the tool's `toModelOutput` returned parts (images, documents); else `undefined`. */
  readonly parts: readonly ModelContentPart[] | undefined;
  readonly isError: boolean;
  /** The tool's policy says its output is the answer. */
  readonly returnDirect: boolean;
  /** One timed span per layer, outermost first (empty unless spans are on: see `ExecutorOptions.spans`). */
  readonly spans: readonly ToolSpan[];
  readonly durationMs: number;
  /**
   * The tokens the call reported spending (`ctx.reportUsage()`, summed over its attempts) until it ended, whatever its
   * outcome; `undefined` when it reported none, and for calls that never ran (refused, a client's result).
   */
  readonly usage: ToolUsage | undefined;
  /**
   * The arguments a human changed when approving the call (`ApprovalDecision.input`), when they changed any: `input`
   * is then the edited input, and the model's text starts with what changed. `undefined` for every other call.
   */
  readonly edits?: readonly ArgumentEdit[] | undefined;
}

/** A client's result for a `client-pending` call, with the ticket issued for it. */
export interface ClientResult<TDeps = unknown> {
  readonly call: ToolCall;
  readonly output: unknown;
  readonly ticket: string | undefined;
  /** The client reports a failure; `output` is then its message. */
  readonly isError?: boolean;
  readonly run?: RunContext<TDeps>;
}

/** The options of a batch of calls (`executeAll`): those of one call, with the decisions by call id. */
export type ExecuteAllOptions<TDeps = unknown> = Omit<ExecuteOptions<TDeps>, 'approval'> & { readonly approvals?: ReadonlyMap<string, ApprovalDecision> };

/**
 * The options argument of a call on an executor whose tools need `TDeps`: optional when they need nothing, and then
 * with a required `run` carrying those deps (a call without them would fail at run time).
 */
export type ExecuteArgs<TDeps, TOptions> = unknown extends TDeps ? [options?: TOptions] : [options: TOptions & { readonly run: RunContext<TDeps> }];

/**
 * Runs tool calls: parse, resolve, validate, interceptors, execute, convert. `TDeps` is what the tools need in
 * `ctx.run.deps` (from a list of tools made with `withDeps`); calls must then bring a run with them.
 */
export interface ToolExecutor<TDeps = unknown> {
  readonly registry: ToolRegistry;
  readonly side: ExecutionSide;
  readonly tickets: TicketSigner | undefined;
  /** Runs one call. Resolves with a typed outcome; rejects only when the registry's `onError` says `throw`. */
  execute(call: ToolCall, ...options: ExecuteArgs<TDeps, ExecuteOptions<TDeps>>): Promise<ToolCallResult>;
  /** Runs calls in parallel (calls sharing a `policy.concurrency` group one at a time), results in call order. */
  executeAll(calls: readonly ToolCall[], ...options: ExecuteArgs<TDeps, ExecuteAllOptions<TDeps>>): Promise<ToolCallResult[]>;
  /** Accepts a client's result only with a valid, unused ticket for exactly that call of a client tool. */
  acceptClientResult(result: ClientResult<TDeps>): Promise<ToolCallResult>;
  /**
   * Reports a call that its caller refused before it could run, with `error` (the chat loop refuses arguments the AI
   * SDK cannot read): the result, trace record (input masked by the interceptors that would have run) and error
   * policy the executor gives the calls it refuses itself. Nothing runs.
   */
  refuse(call: ToolCall, error: ToolError, options?: { readonly run?: RunContext<TDeps> }): Promise<ToolCallResult>;
  /**
   * The message the model reads for `error` (its own, or what `toolErrorMessage` puts in its place), for a caller that
   * reports a failure itself: the chat loop and the MCP handler, for an error the registry's `onError` made throw.
   */
  errorMessage(error: ToolError, call: ToolCall): string;
  /**
   * A result that did not come back through the chain (a client's) as the `redactOutput` of its global, registry and
   * tool layers masks it (`redact()`), for a caller that takes client results itself: the chat loop. Throws what they do.
   */
  redactOutput(tool: AnyTool, output: unknown): unknown;
  /**
   * Arguments as the `redactInput` of the tool's global, registry and tool layers masks them (`redact()`), for what a
   * caller shows the model of them itself: the chat loop's note of a human's edits in the history. Throws what they do.
   */
  redactInput(tool: AnyTool, input: unknown): unknown;
}

/**
 * Creates an executor over a registry. Given a list of tools, or a registry made from one, it is typed by the deps
 * they need (`withDeps`), so a call without a run that carries them does not compile.
 */
export function createExecutor<const TTools extends readonly AnyTool[]>(options: ExecutorOptions & { readonly registry: TTools }): ToolExecutor<ToolsDeps<TTools>>;
export function createExecutor<TDeps>(options: ExecutorOptions & { readonly registry: ToolRegistry<TDeps> }): ToolExecutor<TDeps>;
export function createExecutor(options: ExecutorOptions): ToolExecutor;
export function createExecutor(options: ExecutorOptions): ToolExecutor {
  const registry = Array.isArray(options.registry) ? createRegistry({ tools: options.registry }) : registryOf(options.registry);
  const side = options.side ?? 'server';
  const tickets = options.tickets;
  const clock = options.clock ?? defaultClock;
  const onTrace = options.onTrace;
  const hide = options.toolErrorMessage ?? 'verbatim';
  const spansOn = options.spans ?? onTrace !== undefined;
  const global = (options.interceptors ?? []).map(toInterceptor);
  // Global, then the registry's: what masks the input of a call that has no tool.
  const outer = [...global, ...registry.interceptors.map(toInterceptor)];
  // A registry made by `createRegistry` hands out its tools with its interceptors in them (so that they go wherever its
  // tools go: nested in another registry too); any other registry's are put around each tool's here.
  const around = '~onError' in registry ? global : outer;
  // What a registry built by hand hands out is checked as `createRegistry` checks its resolvers' answers: something that
  // is not a tool, or a tool of another name, fails the call (it made execute() reject, or ran the other tool).
  // A registry made by `createRegistry` is asked directly: no extra call on the hot path.
  const seen = new WeakSet<object>();
  const source: Pick<ToolRegistry, 'resolve'> =
    '~onError' in registry
      ? registry
      : {
          resolve(name, signal) {
            const found = registry.resolve(name, signal);
            return found instanceof Promise ? found.then((tool) => checked(name, tool, seen)) : checked(name, found, seen);
          },
        };
  const gates = { placement: placement({ tickets }), approval: approval({ tickets }) };
  const late = { onLateCheck: options.onLateCheck };
  const chains = new WeakMap<AnyTool, { head: ToolInterceptor[]; policy: ToolInterceptor[]; all: ToolInterceptor[]; spans: boolean; apart: boolean }>();
  /**
   * The signal of a call given its own signal and its run's: one `AbortSignal.any` per pair of signals, not per call (a
   * chat turn hands all its calls one signal, with one run). Node's `AbortSignal.any` costs microseconds per call, and
   * each composite leaves weak references on its sources that Node clears later.
   */
  const merged = new WeakMap<AbortSignal, WeakMap<AbortSignal, AbortSignal>>();
  const mergeSignals = (a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined => {
    if (a === undefined || b === undefined || a === b) return a ?? b;
    let byRun = merged.get(a);
    if (byRun === undefined) {
      byRun = new WeakMap();
      merged.set(a, byRun);
    }
    let signal = byRun.get(b);
    if (signal === undefined) {
      signal = AbortSignal.any([a, b]);
      byRun.set(b, signal);
    }
    return signal;
  };

  /**
   * global → registry → nested registries → tool, then (call interceptors), then the policy layers: placement, call
   * limit, check, approval, rate limit, retry, timeout. Built once per tool.
   */
  function chainFor(tool: AnyTool) {
    let chain = chains.get(tool);
    if (chain === undefined) {
      const head = [...around, ...tool.interceptors];
      const policy: ToolInterceptor[] = [];
      const { runsOn, needsApproval, maxCallsPerRun, check, rateLimit: limit, retries, timeoutMs } = tool.policy;
      if (runsOn !== 'anywhere' && runsOn !== side) policy.push(gates.placement);
      // Before the approval, so a call over the limit never asks a human (a waiting call gives its unit back).
      if (maxCallsPerRun !== undefined) policy.push(countCalls(maxCallsPerRun, policyCallCounts));
      // The tool's own check: a call that cannot succeed is refused before a human is asked.
      if (check !== undefined) policy.push(precheck);
      if (needsApproval !== false) policy.push(gates.approval);
      // After the approval (a limiter cannot give a unit back), outside the retries (one call, one unit).
      if (limit !== undefined) policy.push(rateLimit(limit));
      if (retries > 0) policy.push(retry({ retries }));
      if (timeoutMs !== undefined) policy.push(timeout(timeoutMs));
      const all = [...head, ...policy];
      chain = { head, policy, all, spans: spansOn || head.some(traces), apart: all.some(abandons) };
      chains.set(tool, chain);
    }
    return chain;
  }

  /** The message the model reads for `error`: its own, or what `toolErrorMessage` puts in its place. */
  function errorMessage(error: ToolError, call: ToolCall): string {
    let text: unknown = error.message;
    if (typeof hide === 'function') {
      try {
        text = hide(error, call) ?? text;
      } catch {
        // Fails closed: the call keeps its result, and the model reads none of what the function was to decide on.
        text = undefined;
      }
    } else if (hide !== 'verbatim' && error.unexpected) {
      // 'hide-unexpected', and any value outside the type: a typo fails closed.
      text = undefined;
    }
    // The call id finds the failure in the trace record, `result.call` and the chat agent's log.
    return typeof text === 'string' ? text : `The tool failed unexpectedly (reference ${call.id}).`;
  }

  /** The result of a finished call; a failure's text is made here, once the registry's `onError` has said to report it. */
  function finish(
    call: ToolCall,
    tool: AnyTool | undefined,
    input: unknown,
    started: number,
    spans: readonly ToolSpan[],
    outcome: ToolOutcome,
    /** What the model reads of a success; a failure's is made here. */
    content?: ModelContent,
    usage?: ToolUsage,
    edits?: readonly ArgumentEdit[],
  ): ToolCallResult {
    let text = content as ModelContent;
    if (outcome.type === 'error') {
      // A tool of a registry nested in this one follows that registry's `onError`, when it set one.
      const onError = (tool as Folded | undefined)?.['~onError'] ?? registry.onError;
      const policy = typeof onError === 'function' ? onError(outcome.error, call) : onError;
      if (policy === 'throw') throw outcome.error;
      // A failure's words are bounded as a result is: a tool that throws with a whole response body in its message.
      text = boundModelContent(errorModelText(outcome.error, errorMessage(outcome.error, call)), tool?.policy.maxContentChars ?? DEFAULT_MAX_CONTENT_CHARS);
    }
    // The note is for the model: the fields redact() hides are masked in it, as in the input a trace records.
    if (edits !== undefined) text = withEditNote(text, tool === undefined ? edits : maskEdits(edits, (value) => redactInput(tool, value)));
    return {
      call,
      tool,
      input,
      outcome,
      content: typeof text === 'string' ? text : partsText(text),
      parts: typeof text === 'string' ? undefined : text,
      isError: outcome.type === 'error',
      returnDirect: outcome.type === 'success' && tool?.policy.returnDirect === true,
      spans,
      durationMs: clock() - started,
      usage,
      edits,
    };
  }

  /**
   * A failure before any context exists (bad JSON, unknown tool, invalid input). The input is masked by the interceptors
   * that would have run for `masking` (default: `tool`).
   */
  function early(
    call: ToolCall,
    tool: AnyTool | undefined,
    input: unknown,
    started: number,
    error: ToolError,
    run: RunContext | null | undefined,
    masking = tool,
  ): ToolCallResult {
    const outcome = failure(error);
    // A call without a run (`undefined`) has a fresh one, made when first needed; `null`: the call had none.
    if (onTrace !== undefined) traceUnrun(call, input, outcome, run === undefined ? createRunContext() : run, masking);
    return finish(call, tool, input, started, NO_SPANS, outcome);
  }

  /** The trace record of a call whose chain did not run here (refused before it, or a client's result): no spans, 0 attempts. */
  function traceUnrun(call: ToolCall, input: unknown, outcome: ToolOutcome, run: RunContext | null, masking: AnyTool | undefined): void {
    try {
      onTrace?.({
        traceId: run?.get(traceIdKey) ?? call.id,
        callId: call.id,
        toolName: call.name,
        conversationId: run?.conversationId ?? '',
        // The chain did not run, so its redact() did not mask the input: the interceptors that would have run do it here.
        input: maskInput(masking === undefined ? outer : chainFor(masking).head, input),
        outcome: outcome.type,
        errorCode: outcome.type === 'error' ? outcome.error.code : undefined,
        attempts: 0,
        spans: [],
        ...(run?.has(parentCallKey) === true ? { parent: run.get(parentCallKey) } : {}),
      });
    } catch {
      // A broken exporter must not fail the call.
    }
  }

  /**
   * Runs one call. Not an `async` function: V8 makes a promise and a frame object for every call of one, await or not
   * (about 100 ns here). A call whose steps are all synchronous (a tool found at once, its validation, its chain) runs
   * through `start`, `prepare`, `launch` and `complete` without either; a step that turns out asynchronous goes on in a
   * small async function (`resolving`, `settling`) or a `.then` that hands back to the next step.
   */
  function execute<TDeps>(call: ToolCall, opts?: ExecuteOptions<TDeps>): Promise<ToolCallResult> {
    try {
      return Promise.resolve(start(call, opts as ExecuteOptions | undefined));
    } catch (error) {
      // As from an async function: a registry whose `onError` says `throw` rejects, it never throws.
      return Promise.reject(error);
    }
  }

  /** Checks the call, parses its arguments and finds its tool. */
  function start(call: ToolCall, opts: ExecuteOptions | undefined): Result {
    const started = clock();
    if (typeof call !== 'object' || call === null || typeof call.name !== 'string' || typeof call.id !== 'string') {
      const meta = describeCall(call);
      const safeCall = { id: meta.callId, name: meta.toolName, arguments: undefined };
      return early(safeCall, undefined, undefined, started, new ToolError('invalid-input', 'A tool call needs a string `id` and `name`.', meta), null);
    }
    if (tickets !== undefined && opts?.approval !== undefined && opts.run === undefined) {
      return early(call, undefined, call.arguments, started, withoutRun('An approval decision', metaOf(call)), null);
    }
    // Made when first needed: most calls without a run never read it.
    const run = opts?.run;
    const signal = mergeSignals(opts?.signal, run?.signal);
    if (signal?.aborted) return early(call, undefined, undefined, started, abortError(signal, metaOf(call)), run);

    // Most arguments are plain JSON text, parsed with no result object; the rest as parseArguments reads them.
    let args = plainArguments(call.arguments);
    if (args === UNREAD) {
      const parsed = parseArguments(call.arguments, metaOf(call));
      if (!parsed.ok) {
        // Arguments refused for a prototype key were read: the tool's interceptors mask them field by field in the trace.
        if (!('value' in parsed)) return early(call, undefined, call.arguments, started, parsed.error, run);
        return orAbort(lookUp(call.name), signal).then((masking) => early(call, undefined, parsed.value, started, parsed.error, run, masking === ABORTED ? undefined : masking));
      }
      args = parsed.value;
    }
    let found: AnyTool | Promise<AnyTool | undefined> | undefined;
    try {
      // With the call's signal: a lazy load given up on is not kept for the next call.
      found = source.resolve(call.name, signal);
    } catch (error) {
      return early(call, undefined, args, started, toToolError(error, metaOf(call)), run);
    }
    if (found instanceof Promise || found === undefined || found.policy.available !== undefined) return resolving(call, opts, started, run, signal, args, found);
    return prepare(call, opts, started, run, signal, args, found);
  }

  /** A lazy tool, or one whose `policy.available` decides (or none): `start`, continued. */
  async function resolving(
    call: ToolCall,
    opts: ExecuteOptions | undefined,
    started: number,
    run: RunContext | undefined,
    signal: AbortSignal | undefined,
    args: unknown,
    found: AnyTool | Promise<AnyTool | undefined> | undefined,
  ): Promise<ToolCallResult> {
    // A lazy tool that loads slowly, or a slow check, does not hold the call once the caller aborts.
    let tool: AnyTool | undefined;
    try {
      const loaded = found instanceof Promise ? await orAbort(found, signal) : found;
      if (loaded === ABORTED) return early(call, undefined, args, started, abortError(signal as AbortSignal, metaOf(call)), run);
      tool = loaded;
    } catch (error) {
      // A resolver that stopped waiting at the call's abort: the call's own abort error, whichever listener ran first.
      return early(call, undefined, args, started, signal?.aborted ? abortError(signal, metaOf(call)) : toToolError(error, metaOf(call)), run);
    }
    if (tool === undefined || tool.policy.available !== undefined) {
      // The checks of `policy.available` read the run: the call keeps the one they read.
      run ??= createRunContext();
      const checked = run;
      // A tool this run may not see fails exactly as one that does not exist: its name is never revealed.
      const answer = tool === undefined ? false : isToolAvailable(tool, checked);
      const visible = answer instanceof Promise ? await orAbort(answer, signal) : answer;
      if (visible === ABORTED) return early(call, undefined, args, started, abortError(signal as AbortSignal, metaOf(call)), checked);
      if (tool === undefined || !visible) return early(call, undefined, args, started, await unknownTool(checked, metaOf(call), signal), checked);
    }
    return prepare(call, opts, started, run, signal, args, tool);
  }

  /** Applies a human's edits and validates the input. */
  function prepare(
    call: ToolCall,
    opts: ExecuteOptions | undefined,
    started: number,
    run: RunContext | undefined,
    signal: AbortSignal | undefined,
    args: unknown,
    tool: AnyTool,
  ): Result {
    // Arguments a human edited when approving replace the model's (which the ticket still binds, as `ctx.args`).
    let proposed = args;
    let edits: ArgumentEdit[] | undefined;
    const decision = opts?.approval;
    if (approvesWithEdits(decision)) {
      const edited = editedArguments(tool, args, decision.input, metaOf(call));
      if (!edited.ok) return early(call, tool, args, started, edited.error, run);
      proposed = edited.value;
      if (edited.edits.length > 0) edits = edited.edits;
    }
    // The model was shown an object's schema: an array is refused as the schema says, though valibot's `v.object` takes one
    // (and gives `{}`, so a model's `[…]` ran the tool with no arguments).
    if (Array.isArray(proposed) && tool.jsonSchema.type === 'object') return invalid(call, tool, started, run, args, proposed, arrayIssues());
    let input: unknown;
    let checked: ValidationResult<unknown> | Promise<ValidationResult<unknown>> | undefined;
    try {
      // Quoted primitives coerced (`policy.coerce`); a strict model's `null` for an optional argument read as absent (`policy.strict`).
      const result = tool.input['~standard'].validate(fitArguments(proposed, tool.jsonSchema, tool.policy));
      // A synchronous pass (the common case) is read as it is, with no result object made for it; the rest as validateWithSchema reads it.
      input = passedValue(result);
      if (input === NOT_PASSED) checked = validationOf(result);
    } catch (cause) {
      return early(call, tool, proposed, started, unvalidated(tool, cause, metaOf(call)), run);
    }
    if (checked === undefined) return launch(call, opts, started, run, signal, args, tool, edits, input);
    if (checked instanceof Promise) {
      // An asynchronous validation (a raw JSON Schema's validator still loading, an async refinement).
      return orAbort(checked, signal).then(
        (validated) =>
          validated === ABORTED
            ? early(call, tool, proposed, started, abortError(signal as AbortSignal, metaOf(call)), run)
            : validated.ok
              ? launch(call, opts, started, run, signal, args, tool, edits, validated.value)
              : invalid(call, tool, started, run, args, proposed, validated.issues),
        (cause: unknown) => early(call, tool, proposed, started, unvalidated(tool, cause, metaOf(call)), run),
      );
    }
    return checked.ok ? launch(call, opts, started, run, signal, args, tool, edits, checked.value) : invalid(call, tool, started, run, args, proposed, checked.issues);
  }

  /** The failure of arguments (the model's, or a human's edit of them) that the tool's schema refused. */
  function invalid(call: ToolCall, tool: AnyTool, started: number, run: RunContext | undefined, args: unknown, proposed: unknown, issues: readonly ToolIssue[]): ToolCallResult {
    const whose = proposed === args ? 'Invalid arguments' : 'The user approved the call with edited arguments that are invalid; it was not performed. Invalid arguments';
    const error = new ToolError('invalid-input', `${whose} for "${tool.name}".`, { ...metaOf(call), issues });
    return early(call, tool, proposed, started, error, run);
  }

  /** Runs the chain on valid input. */
  function launch(
    call: ToolCall,
    opts: ExecuteOptions | undefined,
    started: number,
    run: RunContext | undefined,
    signal: AbortSignal | undefined,
    args: unknown,
    tool: AnyTool,
    edits: ArgumentEdit[] | undefined,
    input: unknown,
  ): Result {
    // An abort that came while the tool loaded, its availability or its input was checked: nothing starts.
    if (signal?.aborted) return early(call, tool, input, started, abortError(signal, metaOf(call)), run);
    if (opts?.onLaunch !== undefined) launched(opts.onLaunch);

    const chain = chainFor(tool);
    let interceptors = chain.all;
    let spans = chain.spans;
    let apart = chain.apart;
    if (opts?.interceptors?.length) {
      const own = opts.interceptors.map(toInterceptor);
      interceptors = [...chain.head, ...own, ...chain.policy];
      spans ||= own.some(traces);
      apart ||= own.some(abandons);
    }
    if (opts?.failedCheck !== undefined) interceptors = endingAtCheck(interceptors, gates.approval, opts.failedCheck);
    const progress = opts?.onProgress === undefined ? undefined : new ProgressSink(opts.onProgress, call);
    const ctx = new CallContext({
      tool,
      call,
      args,
      input,
      run,
      side,
      signal,
      spans: spans ? [] : NO_SPANS,
      onProgress: progress?.report,
      idempotencyKey: opts?.idempotencyKey,
    });
    if (opts?.approval !== undefined) ctx.set(approvalDecisionKey, opts.approval);

    const running = runLayers(ctx, interceptors, apart ? runToolApart : runTool, spans ? clock : null);
    if (running instanceof Promise || tool.output) return settling(started, signal, ctx, progress, edits, running);
    // A tool that goes on after its call ended (aborted, timed out) reports to nobody.
    progress?.end();
    return complete(started, ctx, edits, running);
  }

  /**
   * A chain that settles later (an async tool or interceptor), or an output schema to check: `launch`, continued. Not an
   * `async` function for a chain without an output schema (most async tools): a `.then` takes the same microtask turn.
   */
  function settling(
    started: number,
    signal: AbortSignal | undefined,
    ctx: CallContext,
    progress: ProgressSink | undefined,
    edits: ArgumentEdit[] | undefined,
    running: Promise<ToolOutcome> | ToolOutcome,
  ): Promise<ToolCallResult> {
    if (!(running instanceof Promise) || ctx.tool.output) return checking(started, signal, ctx, progress, edits, running);
    return (signal ? raceAbort(running, signal, metaOf(ctx.call)) : running).then((outcome) => {
      progress?.end();
      return complete(started, ctx, edits, outcome);
    });
  }

  /** {@link settling} with an output schema to check. */
  async function checking(
    started: number,
    signal: AbortSignal | undefined,
    ctx: CallContext,
    progress: ProgressSink | undefined,
    edits: ArgumentEdit[] | undefined,
    running: Promise<ToolOutcome> | ToolOutcome,
  ): Promise<ToolCallResult> {
    let outcome = !(running instanceof Promise) ? running : signal ? await raceAbort(running, signal, metaOf(ctx.call)) : await running;
    progress?.end();
    if (outcome.type === 'success' && ctx.tool.output) outcome = await checkOutput(ctx.tool, outcome.output, metaOf(ctx.call));
    return complete(started, ctx, edits, outcome);
  }

  /** The finished call's text for the model, its trace record and its result. */
  function complete(started: number, ctx: CallContext, edits: ArgumentEdit[] | undefined, outcome: ToolOutcome): ToolCallResult {
    const { tool, call } = ctx;
    let content: ModelContent | undefined;
    if (outcome.type !== 'error') {
      try {
        content = outcomeModelText(tool, outcome, ctx);
      } catch (error) {
        const message = `The result of "${tool.name}" could not be converted for the model: ${toToolError(error).message}`;
        outcome = failure(new ToolError('invalid-output', message, { ...metaOf(call), cause: error, unexpected: true }));
      }
    }
    if (onTrace) {
      try {
        onTrace(toTraceRecord(ctx, outcome));
      } catch {
        // A broken exporter must not fail the call.
      }
    }
    // What the call reported until now: a timed-out or aborted tool that goes on reports to nobody.
    return finish(call, tool, ctx.input, started, ctx.spans, outcome, content, ctx.usage, edits);
  }

  /** The tool of that name, or `undefined` when there is none or it cannot be loaded (it throws or rejects). */
  async function lookUp(name: string): Promise<AnyTool | undefined> {
    try {
      return await source.resolve(name);
    } catch {
      return undefined;
    }
  }

  /**
   * The error of a call of a tool `run` may not call: `unknown-tool`, with the names of those it may (a tool that fails to
   * load is left out; so is one whose lookup or check does not answer within 10 s, as in `availableTools`, reported to
   * `onLateCheck`), or the abort of `signal`, or why the names could not be listed (a cycle of resolvers).
   */
  async function unknownTool(run: RunContext, meta: CallMeta, signal?: AbortSignal): Promise<ToolError> {
    try {
      const names = await orAbort(visibleNames(run), signal);
      if (names === ABORTED) return abortError(signal as AbortSignal, meta);
      return new ToolError('unknown-tool', `Unknown tool "${meta.toolName}". Available tools: ${names.length ? names.join(', ') : '(none)'}.`, meta);
    } catch (error) {
      return toToolError(error, meta);
    }
  }

  /**
   * The names of the tools `run` may call, in the registry's order. Bounded as `availableTools` is: a resolver of one's own
   * that never answers (a client's result has no signal) holds the list 10 s at most, and is left out, reported.
   */
  async function visibleNames(run: RunContext): Promise<string[]> {
    const names = listedNames(registry.names());
    // The names whose lookup has not answered yet: a late one did not load, else its check did not answer.
    const loading = new Set<string>();
    const visible = (tool: AnyTool | undefined): string | false | Promise<string | false> => {
      if (tool === undefined) return false;
      const yes = isToolAvailable(tool, run);
      return yes instanceof Promise ? yes.then((answer) => answer && tool.name) : yes && tool.name;
    };
    const answers = names.map((name) => {
      let found: ReturnType<ToolRegistry['resolve']>;
      try {
        found = source.resolve(name, run.signal);
      } catch {
        return false;
      }
      if (!(found instanceof Promise)) return visible(found);
      loading.add(name);
      return found.then((tool) => {
        loading.delete(name);
        return visible(tool);
      }, () => false as const);
    });
    const visibleNames: string[] = [];
    (await withinCheckLimit(answers, run.signal)).forEach((answer, i) => {
      const name = names[i] as string;
      if (answer === null) {
        const what = loading.has(name) ? `Looking up the tool "${name}"` : `The availability check of "${name}"`;
        (late.onLateCheck ?? logLeftOut)(lateError(what, { toolName: name }, run.signal), name);
      } else if (answer !== false) visibleNames.push(answer);
    });
    return visibleNames;
  }

  async function executeAll<TDeps>(calls: readonly ToolCall[], opts: ExecuteAllOptions<TDeps> = {}): Promise<ToolCallResult[]> {
    const run = (opts.run ?? createRunContext()) as RunContext<TDeps>;
    // Groups come from the tools, so lazy tools are resolved first (a failed or unknown one has no group: its call
    // reports the failure itself).
    const signal = mergeSignals(opts.signal, run.signal);
    const resolving = calls.map((call) => {
      try {
        return typeof call?.name === 'string' ? source.resolve(call.name, signal) : undefined;
      } catch {
        return undefined;
      }
    });
    // A lazy tool that loads slowly does not hold the batch once the caller aborts: each call then reports the abort.
    const loaded = resolving.some((tool) => tool instanceof Promise)
      ? await orAbort(Promise.all(resolving.map((tool) => Promise.resolve(tool).catch(() => undefined))), signal)
      : resolving;
    const tools = loaded === ABORTED ? [] : loaded;
    const serial = createSerializer();
    return Promise.all(
      calls.map((call, index) => {
        const id = typeof call?.id === 'string' ? call.id : undefined;
        const one = () => execute(call, { ...opts, run, approval: id === undefined ? undefined : opts.approvals?.get(id) });
        return serial((tools[index] as AnyTool | undefined)?.policy.concurrency, one);
      }),
    );
  }

  async function acceptClientResult<TDeps>(result: ClientResult<TDeps>): Promise<ToolCallResult> {
    const started = clock();
    const { call } = result;
    const meta = describeCall(call);
    if (tickets !== undefined && result.run === undefined) return early(call, undefined, undefined, started, withoutRun('A client result', meta), null);
    const run = (result.run ?? createRunContext()) as RunContext;
    let tool: AnyTool | undefined | null;
    try {
      const found = typeof call?.name === 'string' ? source.resolve(call.name, run.signal) : undefined;
      // A resolver of one's own that never answers: given up on after 10 s (or at the run's abort), as the checks are.
      [tool] = found instanceof Promise ? await withinCheckLimit([found], run.signal) : [found];
    } catch (error) {
      // A lazy tool that fails to load: a typed failure, as in execute, not a rejection.
      return early(call, undefined, undefined, started, toToolError(error, meta), run);
    }
    if (tool === null) return early(call, undefined, undefined, started, lateError(`Looking up the tool "${meta.toolName}"`, meta, run.signal), run);
    // Its own check is bounded as the list's are: a client result has no signal to stop waiting at.
    if (tool === undefined || (tool.policy.available !== undefined && !(await availableTools([tool], run, late)).length)) {
      return early(call, undefined, undefined, started, await unknownTool(run, meta), run);
    }
    if (tool.policy.runsOn === side) {
      return early(call, tool, undefined, started, new ToolError('wrong-placement', `Tool "${tool.name}" runs on the ${side}; a client result for it is refused.`, meta), run);
    }
    const parsed = parseArguments(call.arguments, meta);
    if (!parsed.ok) return early(call, tool, 'value' in parsed ? parsed.value : call.arguments, started, parsed.error, run);
    const ctx = new CallContext({ tool, call, args: parsed.value, input: parsed.value, run, side });
    if (tickets) {
      let verdict: TicketVerifyResult;
      try {
        verdict = await tickets.safeVerify(result.ticket, ticketSubject(ctx, 'client-result'));
      } catch (error) {
        // A nonce store that fails: a typed failure, as in an approval's verification, not a rejection.
        return early(call, tool, parsed.value, started, toToolError(error, meta), run);
      }
      if (!verdict.ok) return early(call, tool, parsed.value, started, verdict.error, run);
    }
    let outcome: ToolOutcome;
    let content: ModelContent | undefined;
    if (result.isError) {
      outcome = failure(new ToolError('execution-failed', typeof result.output === 'string' ? result.output : 'The client reported a failure.', meta));
    } else {
      try {
        outcome = { type: 'success', output: redactOutput(tool, result.output) };
        content = outcomeModelText(tool, outcome, ctx);
      } catch (error) {
        return early(call, tool, parsed.value, started, new ToolError('invalid-output', toToolError(error).message, { ...meta, cause: error, unexpected: true }), run);
      }
    }
    // Traced as a refused result is: the client ran the call, so there are no spans or attempts here.
    if (onTrace !== undefined) traceUnrun(call, parsed.value, outcome, run, tool);
    return finish(call, tool, parsed.value, started, NO_SPANS, outcome, content);
  }

  /** Masked as the `redact()` of the global, registry and tool layers masks a call's input in its trace. */
  function redactInput(tool: AnyTool, input: unknown): unknown {
    return maskInput(chainFor(tool).head, input);
  }

  /** Masked as the chain masks a result the server runs (`redact()`), innermost first: the model reads the same. */
  function redactOutput(tool: AnyTool, output: unknown): unknown {
    return chainFor(tool).head.reduceRight((masked, layer) => (layer.redactOutput ? layer.redactOutput(masked) : masked), output);
  }

  async function refuse<TDeps>(call: ToolCall, error: ToolError, opts?: { readonly run?: RunContext<TDeps> }): Promise<ToolCallResult> {
    const started = clock();
    const meta = { toolName: call.name, callId: call.id };
    // A tool that cannot be loaded has no interceptors to mask the input with: the caller's error stands.
    const tool = await lookUp(call.name);
    const parsed = parseArguments(call.arguments, meta);
    return early(call, tool, 'value' in parsed ? parsed.value : call.arguments, started, error, (opts?.run as RunContext | undefined) ?? null);
  }

  return { registry, side, tickets, execute, executeAll, acceptClientResult, refuse, errorMessage, redactInput, redactOutput };
}

/**
 * Runs tasks of one `policy.concurrency` group one after another, in the order given; tasks without a group at once.
 * One serializer per batch of calls (a step, a chat turn).
 */
export function createSerializer(): <T>(group: string | undefined, task: () => Promise<T>) => Promise<T> {
  const groups = new Map<string, Promise<unknown>>();
  return (group, task) => {
    if (group === undefined) return task();
    const current = (groups.get(group) ?? Promise.resolve()).then(task, task);
    groups.set(group, current);
    return current;
  };
}

/**
 * `value` when it has a registry's shape, one made by hand too, checked once when the executor is made: a wrong object
 * failed at its first call, or its first unknown tool, with a `TypeError` that did not say what was wrong.
 */
function registryOf(value: unknown): ToolRegistry {
  // A registry's methods may come from a class: read, not copied.
  const registry = (isRegistry(value) ? value : {}) as Record<string, unknown>;
  const wrong = registry.kind
    ? ['names', 'resolve', 'tools'].find((key) => typeof registry[key] !== 'function') ?? (Array.isArray(registry.interceptors) ? '' : 'interceptors')
    : 'kind';
  if (wrong) throw new TypeError(`createExecutor: \`registry\` must be a list of tools or a registry (see createRegistry()); its ${wrong} is wrong.`);
  return value as ToolRegistry;
}

/** A call's names, for errors. */
type CallMeta = { readonly toolName: string; readonly callId: string };

/** The names of a call already checked to have a string `id` and `name`: made only where an error or a report needs them. */
function metaOf(call: ToolCall): CallMeta {
  return { toolName: call.name, callId: call.id };
}

/** A step of `execute`: the result, or a promise of it once a step was asynchronous. */
type Result = ToolCallResult | Promise<ToolCallResult>;

/** The issue of arguments that are an array where the tool's JSON Schema wants an object. */
const arrayIssues = (): ToolIssue[] => [{ path: '(root)', message: 'Invalid type: Expected Object but received Array (the arguments are named fields in one JSON object)' }];

/** The failure of a schema library that throws (a BigInt in a raw JSON Schema check, a bug): still the caller's bad input. */
function unvalidated(tool: AnyTool, cause: unknown, meta: CallMeta): ToolError {
  const reason = toToolError(cause).message;
  return new ToolError('invalid-input', `The arguments for "${tool.name}" could not be validated: ${reason}`, { ...meta, cause, unexpected: true });
}

/** The spans of a call that records none (frozen: nothing may push to it). */
const NO_SPANS: ToolSpan[] = Object.freeze([]) as unknown as ToolSpan[];

const traces = (interceptor: ToolInterceptor): boolean => interceptor.traces === true;
const abandons = (interceptor: ToolInterceptor): boolean => interceptor.abandons;

/**
 * The arguments a human edited when approving (`ApprovalDecision.input`), read like a model's (no prototype keys) and
 * refused when they change an argument the tool's `policy.editable` does not allow.
 */
function editedArguments(
  tool: AnyTool,
  args: unknown,
  input: unknown,
  meta: { readonly toolName: string; readonly callId: string },
): { readonly ok: true; readonly value: unknown; readonly edits: ArgumentEdit[] } | { readonly ok: false; readonly error: ToolError } {
  const parsed = parseArguments(input, meta);
  if (!parsed.ok) {
    const error = new ToolError(parsed.error.code, `The user approved the call with edited arguments that were refused; it was not performed. ${parsed.error.message}`, {
      ...meta,
      issues: parsed.error.issues,
    });
    return { ok: false, error };
  }
  const edits = argumentEdits(args, parsed.value);
  const refused = refusedEdits(tool.policy.editable, edits);
  if (refused !== undefined) {
    const message = `The user approved this call of "${tool.name}" with edited arguments, but the tool ${refused}; it was not performed.`;
    return { ok: false, error: new ToolError('invalid-input', message, meta) };
  }
  return { ok: true, value: parsed.value, edits };
}

/**
 * Runs `policy.check`: a throw ends the call at this layer, before the approval (the chain turns it into an outcome); so
 * does a check that outlives the tool's `timeoutMs` or the caller's abort.
 */
const precheck: ToolInterceptor = defineInterceptor('check', async (ctx, next) => {
  await withinToolTime(ctx, 'check', () => ctx.tool.policy.check?.(ctx.input, ctx));
  return next();
});

/**
 * The chain with its first layer that runs the tool's own functions before it (`check`, else `approval`) replaced by
 * one of the same name that fails with `error` (`ExecuteOptions.failedCheck`): what comes before it runs, nothing after.
 */
function endingAtCheck(interceptors: ToolInterceptor[], approvalGate: ToolInterceptor, error: ToolError): ToolInterceptor[] {
  const at = interceptors.findIndex((layer) => layer === precheck || layer === approvalGate);
  const ending = interceptors[at];
  if (ending === undefined) return interceptors;
  const failed = defineInterceptor(ending.name, () => Promise.resolve(failure(error)));
  return [...interceptors.slice(0, at), failed, ...interceptors.slice(at + 1)];
}

/** The input as the `redactInput` of these interceptors masks it (unchanged when none has one). */
function maskInput(interceptors: readonly ToolInterceptor[], input: unknown): unknown {
  let masked = input;
  for (const interceptor of interceptors) if (typeof interceptor.redactInput === 'function') masked = interceptor.redactInput(masked);
  return masked;
}

/**
 * The call's progress listener, guarded: a listener that throws does not fail the call, and `end()` silences it.
 * A class, not closures: a call with a listener makes the sink and its bound `report` (a names object, a closure
 * context and two closures before), a call without one nothing.
 */
class ProgressSink {
  declare readonly report: (progress: ToolProgress) => void;
  private declare readonly listener: (event: ToolProgressEvent) => void;
  private declare readonly toolName: string;
  private declare readonly callId: string;
  private declare live: boolean;

  constructor(listener: (event: ToolProgressEvent) => void, call: ToolCall) {
    this.listener = listener;
    this.toolName = call.name;
    this.callId = call.id;
    this.live = true;
    this.report = this.send.bind(this);
  }

  private send(progress: ToolProgress): void {
    if (!this.live) return;
    try {
      this.listener({ callId: this.callId, toolName: this.toolName, progress });
    } catch {
      // A broken listener must not fail the call.
    }
  }

  end(): void {
    this.live = false;
  }
}

/** A ticket binds the conversation: without the run, a fresh one would never match (the usual cause is a forgotten `run`). */
function withoutRun(what: string, meta: { toolName: string; callId: string }): ToolError {
  return new ToolError(
    'ticket-invalid',
    `${what} for "${meta.toolName}" came without a run: pass the run of its conversation ({ run }), whose conversationId the ticket is bound to.`,
    meta,
  );
}

/** Names a call for messages without trusting its shape (`String()` can throw on model-made objects). */
function describeCall(call: unknown): { toolName: string; callId: string } {
  const c = typeof call === 'object' && call !== null ? (call as { name?: unknown; id?: unknown }) : {};
  const text = (value: unknown) => (typeof value === 'string' ? value : Object.prototype.toString.call(value));
  return { toolName: text(c.name), callId: text(c.id) };
}

/** Tells `ExecuteOptions.onLaunch` that a call's chain starts; a listener that throws changes nothing. */
function launched(onLaunch: () => void): void {
  try {
    onLaunch();
  } catch {
    // A broken listener must not fail the call.
  }
}

/**
 * The tool of a chain with a layer that may give up on it (a time limit): run with the signal, input and attempt it
 * starts with, which stay its own when that layer ends the call and the layers outside get theirs back.
 */
function runToolApart(ctx: CallContext): Promise<ToolOutcome> | ToolOutcome {
  return runTool(new AttemptContext(ctx));
}

function runTool(ctx: ToolContext): Promise<ToolOutcome> | ToolOutcome {
  const { tool } = ctx;
  if (typeof tool.execute !== 'function') {
    return failure(new ToolError('wrong-placement', `Tool "${tool.name}" has no implementation on the ${ctx.side}.`, { toolName: tool.name, callId: ctx.call.id }));
  }
  const output = tool.execute(ctx.input, ctx);
  if (output instanceof Promise) return output.then(succeeded);
  // A thenable that is no Promise (a Prisma or Drizzle query, a Knex builder) is awaited as `await` would: its value is the output.
  if (isThenable(output)) return Promise.resolve(output).then(succeeded);
  return { type: 'success', output };
}

/** An async tool's output as its outcome: one function for every call, not a closure made per call. */
function succeeded(output: unknown): ToolOutcome {
  return { type: 'success', output };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return ((typeof value === 'object' && value !== null) || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';
}

async function checkOutput(tool: AnyTool, output: unknown, meta: { toolName: string; callId: string }): Promise<ToolOutcome> {
  let result: ValidationResult<unknown>;
  try {
    const checked = validateWithSchema(tool.output as NonNullable<AnyTool['output']>, output);
    result = checked instanceof Promise ? await checked : checked;
  } catch (cause) {
    // A schema that throws (a raw JSON Schema whose `$ref` resolves nowhere, as an MCP server may list one) fails the
    // call as the input's does: execute() must not reject.
    const reason = toToolError(cause).message;
    return failure(new ToolError('invalid-output', `The result of "${tool.name}" could not be validated: ${reason}`, { ...meta, cause, unexpected: true }));
  }
  if (result.ok) return { type: 'success', output: result.value };
  return failure(new ToolError('invalid-output', `The result of "${tool.name}" does not match its output schema.`, { ...meta, issues: result.issues }));
}

/** What {@link orAbort} resolves with when the caller aborts first. */
const ABORTED: unique symbol = Symbol('aborted');

/** Resolves with `promise`'s value, or with `ABORTED` as soon as `signal` aborts (no signal: `promise` itself). */
function orAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof ABORTED> {
  return raceSignal(promise, signal, () => ABORTED);
}

/** Resolves with the chain's outcome, or with `aborted` as soon as the caller aborts. */
function raceAbort(running: Promise<ToolOutcome>, signal: AbortSignal, meta: { toolName: string; callId: string }): Promise<ToolOutcome> {
  // Aborted inside the chain's synchronous start (an interceptor that stops the run): no abort event is left to come.
  if (signal.aborted) return Promise.resolve(failure(abortError(signal, meta)));
  return new Promise((resolve) => {
    const onAbort = () => resolve(failure(abortError(signal, meta)));
    signal.addEventListener('abort', onAbort, { once: true });
    running.then((outcome) => {
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    });
  });
}
