import { type AnyTool, type ArgumentEdit, argumentEdits, fitArguments, type InferToolInput, type ToolProgress, validateWithSchema } from '@edgetool/core';
import {
  type AnyToolPart,
  dataByCallId,
  EDIT_PART,
  type EditPartData,
  type EdgetoolMessageMetadata,
  type ExecutionMode,
  historyDataByCallId,
  SEAL_PART,
  type SealPartData,
  TICKET_PART,
  type TicketPartData,
  TRACE_PART,
  type TracePartData,
  toolNameOf,
  toolParts,
} from '@edgetool/ai';
import type { BrowserCall, BrowserCalls } from './browser-calls.ts';
import { lastAssistantMessage, type MessageLike, messageMode } from './plan.ts';
import { type PolicySummary, type ServerToolInfo, summarizePolicy } from './server-tools.ts';
import { type CallTrace, traceOfPart } from './trace.ts';

/**
 * Where a call stands, for a UI:
 * `input-streaming` (the model is still writing the arguments), `running` (executing on the server or
 * in this browser), `pending` (handed to this browser, not started yet), `awaiting-approval` (a human
 * must decide), `authorising` (the browser chain checks a server call, or is about to), `approved` (sent back, the
 * server runs it next), `done`, `error`, `denied`, `interrupted` (stopped before it finished),
 * `expired` (its ticket expired before the server took the answer: nothing ran on the server, and it
 * can no longer be answered; ask the model again).
 */
export type ToolCallStatus =
  | 'input-streaming'
  | 'running'
  | 'pending'
  | 'awaiting-approval'
  | 'authorising'
  | 'approved'
  | 'done'
  | 'error'
  | 'denied'
  | 'interrupted'
  | 'expired';

/** Who asked for an approval: the server's loop, or the browser's own chain. */
export type ApprovalSource = 'server' | 'browser';

/**
 * The approval asked for a call. `requestReason`: what the tool says the call will do (`policy.approvalReason`), to show
 * beside the arguments; `approved` and `reason`: the human's decision, once there is one (`undefined` while it waits).
 */
export interface ToolCallApproval {
  /** The approval request's id (the AI SDK's for the server's; the call id for the browser chain's). */
  readonly id: string;
  readonly source: ApprovalSource;
  readonly approved: boolean | undefined;
  readonly reason: string | undefined;
  readonly requestReason: string | undefined;
}

/**
 * One tool call, ready to render. `TInput`: the type of `input`, `unknown` until {@link callOf} knows the call's tool.
 */
export interface ToolCallView<TInput = unknown> {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly messageId: string;
  readonly status: ToolCallStatus;
  /** The AI SDK part state, as is. */
  readonly partState: string;
  /** The model's arguments, as the message has them (a human's edits are in `edits`). */
  readonly input: TInput;
  readonly output: unknown;
  readonly errorText: string | undefined;
  /** Where the tool runs or ran; `undefined` while that is not known yet. */
  readonly ranOn: 'server' | 'browser' | undefined;
  /** Execution time where it ran, from its trace. */
  readonly durationMs: number | undefined;
  /** The tokens the call reported spending where it ran (a sub-agent, a tool that calls a model), from its trace. */
  readonly usage: CallTrace['usage'] | undefined;
  /** Every pass through an edgetool chain: the browser's (authorisation or run), then the server's. */
  readonly traces: readonly CallTrace[];
  readonly policy: PolicySummary | undefined;
  /** The approval asked for this call, by the server or by the browser chain; `undefined` when none was. */
  readonly approval: ToolCallApproval | undefined;
  /**
   * The arguments a human may edit before approving this call (`true`: any), as the server's approval ticket says
   * (`policy.editable`); `undefined` when none may be, and for calls the server does not ask about. Pass the edited
   * arguments to `approve(id, { input })`.
   */
  readonly editable: true | readonly string[] | undefined;
  /**
   * What a human changed in the model's arguments before approving (`input` stays the model's): from the result's seal
   * once it ran, from the approval sent until then. `undefined` when nothing was edited.
   */
  readonly edits: readonly ArgumentEdit[] | undefined;
  /** The server sealed this call's result (it produced or accepted it), in its message or in a later response's. */
  readonly sealed: boolean;
  readonly mode: ExecutionMode;
  /**
   * The call's latest progress report (`ctx.progress()` on the server or in this browser). Kept after the call ends;
   * not part of the conversation: a reloaded chat has it only from a saved `BrowserState`.
   */
  readonly progress: ToolProgress | undefined;
}

/**
 * A call that waits for a human decision: its view, the same object `toolCalls` has, with `status: 'awaiting-approval'`
 * and the approval asked (who asks: `approval.source`; the tool's words: `approval.requestReason`). One shape wherever
 * a pending approval shows: `pendingApprovals`, `autoApprove`, `toolCalls`.
 */
export interface PendingApproval<TInput = unknown> extends ToolCallView<TInput> {
  readonly status: 'awaiting-approval';
  readonly approval: ToolCallApproval;
}

/** The model that produced the conversation's latest answer. */
export interface ActiveModel {
  readonly provider: string;
  readonly modelId: string;
  readonly offline: boolean;
  /** For display: `"offline model (edgetool-offline)"` or `"openai · gpt-4o"`. */
  readonly label: string;
}

/** What {@link toolCallViews} needs besides the messages. */
export interface ViewOptions {
  readonly browserTools: ReadonlyMap<string, AnyTool>;
  readonly serverTools: ReadonlyMap<string, ServerToolInfo>;
  readonly browserCalls: BrowserCalls;
  /** The chat's status (`useChat`): a server call without a result is only running while the response streams. */
  readonly streaming: boolean;
  readonly mode: ExecutionMode;
  /** The latest progress report of each call (see `ToolCallView.progress`). */
  readonly progress?: ReadonlyMap<string, ToolProgress> | undefined;
  /** This browser's traces of calls from before a reload (see `BrowserState.traces`), shown before the live ones. */
  readonly earlierTraces?: ReadonlyMap<string, readonly CallTrace[]> | undefined;
  /** Assistant messages the user stopped: their calls that were left to this browser are interrupted, not pending. */
  readonly stopped?: ReadonlySet<string> | undefined;
  /** Calls whose ticket expired before the server took the answer (see `BrowserState.expired`). */
  readonly expired?: ReadonlySet<string> | undefined;
}

/** Answered for good: only the last assistant message can still change. */
function isSettled(state: string): boolean {
  return state === 'output-available' || state === 'output-error' || state === 'output-denied';
}

function statusOf(part: AnyToolPart, browser: BrowserCall | undefined, handedOver: boolean, isLive: boolean, mode: ExecutionMode): ToolCallStatus {
  switch (part.state) {
    case 'input-streaming':
      return isLive ? 'input-streaming' : 'interrupted';
    case 'input-available':
      if (browser?.status === 'cancelled') return 'interrupted';
      if (browser?.status === 'awaiting-approval') return 'awaiting-approval';
      if (browser?.status === 'running') return 'running';
      if (handedOver) return 'pending';
      return isLive ? 'running' : 'interrupted';
    case 'approval-requested':
      if (browser?.status === 'running') return 'authorising';
      if (browser?.status === 'cancelled') return 'interrupted';
      // Manual mode: the browser chain decides first, and a human only when it asks; until the chain has the call (the
      // render before the hook hands it over), nobody may answer it.
      if (browser === undefined && mode === 'manual') return 'authorising';
      return 'awaiting-approval';
    case 'approval-responded':
      return part.approval?.approved === true ? 'approved' : 'denied';
    case 'output-available':
      return 'done';
    case 'output-error':
      // A browser tool the user declined or denied ends as an error part (there is no denied state for client
      // results); its text is edgetool's `approval-denied`.
      return part.errorText?.startsWith('Error (approval-denied)') === true ? 'denied' : 'error';
    case 'output-denied':
      return 'denied';
    default:
      return 'pending';
  }
}

/**
 * Builds a view of every tool call in the conversation, by tool call id: state, input, output or
 * error, where it ran, its duration and traces (server traces from `data-edgetool-trace` parts,
 * browser traces from this browser's chain). Pure: the same inputs give the same views. A call's view is its first
 * part's: a later part with the same id (a hostile or buggy server repeats it) is no call of its own and never runs.
 */
export function toolCallViews(messages: readonly MessageLike[], options: ViewOptions): Map<string, ToolCallView> {
  const views = new Map<string, ToolCallView>();
  const last = lastAssistantMessage(messages);
  // Every seal of the conversation: a browser result of an earlier turn is sealed by a later response, in its message.
  const allSeals = historyDataByCallId<SealPartData>(messages, SEAL_PART);
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    const tickets = dataByCallId<TicketPartData>(message, TICKET_PART);
    const seals = dataByCallId<SealPartData>(message, SEAL_PART);
    const traces = dataByCallId<TracePartData>(message, TRACE_PART);
    const edited = dataByCallId<EditPartData>(message, EDIT_PART);
    const mode = messageMode(message, options.mode);
    const isLast = message === last;
    const stopped = options.stopped?.has(message.id) === true;
    for (const part of toolParts(message)) {
      const toolName = toolNameOf(part);
      const id = part.toolCallId;
      // A part that repeats a call id (a hostile or buggy server) does not take the call's view over: the first part's
      // stays, and the repeat never runs (see `planBrowserWork`).
      if (views.has(id)) continue;
      const browser = options.browserCalls.get(id);
      const ticket = tickets.get(id);
      const handedOver = ticket?.purpose === 'client-result';
      const browserTool = options.browserTools.get(toolName);
      const serverTool = options.serverTools.get(toolName);
      const serverTrace = traces.get(id);
      const seal = seals.get(id) ?? allSeals.get(id);
      const ranOn =
        handedOver || browser?.kind === 'run' || browserTool?.policy.runsOn === 'client'
          ? 'browser'
          : part.state === 'input-streaming' && serverTool === undefined && browserTool === undefined
            ? undefined
            : 'server';
      const browserTraces = [...(options.earlierTraces?.get(id) ?? []), ...(browser?.traces ?? [])];
      const allTraces = [...browserTraces, ...(serverTrace ? [traceOfPart(serverTrace)] : [])];
      const ranTrace = ranOn === 'browser' ? browserTraces.filter((t) => t.outcome !== 'approval-required').at(-1) : serverTrace;
      let approval: ToolCallView['approval'];
      if (part.approval !== undefined) {
        const asked = part.approval.requestReason;
        const requestReason = typeof asked === 'string' ? asked : browser?.requestReason;
        approval = { id: part.approval.id, source: 'server', approved: part.approval.approved, reason: part.approval.reason, requestReason };
      } else if (browser?.status === 'awaiting-approval') {
        approval = { id, source: 'browser', approved: undefined, reason: undefined, requestReason: browser.requestReason };
      }
      let status: ToolCallStatus;
      if (options.expired?.has(id) === true && !(isSettled(part.state) && seal !== undefined)) status = 'expired';
      else if (!isLast && !isSettled(part.state)) status = 'interrupted';
      // Stopped: what was left to this browser (a handed-over call, a manual-mode authorisation) does not start again.
      else if (stopped && (part.state === 'input-available' || (part.state === 'approval-requested' && mode === 'manual'))) status = 'interrupted';
      else status = statusOf(part, browser, handedOver, isLast && options.streaming, mode);
      views.set(id, {
        toolCallId: id,
        toolName,
        messageId: message.id,
        status,
        partState: part.state,
        input: part.input,
        output: part.output,
        errorText: part.errorText,
        ranOn,
        durationMs: ranTrace?.durationMs,
        usage: ranTrace?.usage,
        traces: allTraces,
        policy: policyFor(ranOn, browserTool, serverTool),
        approval,
        editable: ticket?.purpose === 'approval' ? editableOf(ticket.editable) : undefined,
        edits: editsOf(part, seal, edited.get(id)),
        sealed: seal !== undefined,
        mode,
        progress: options.progress?.get(id),
      });
    }
  }
  return views;
}

/**
 * A ticket part's `editable` as a UI can use it: `true`, or the names of arguments (text only); anything else reads as
 * none. The part comes from the server's stream or a saved history: a string or an object there threw while the
 * approval card listed its fields, and the page went blank.
 */
function editableOf(value: unknown): ToolCallView['editable'] {
  if (value === true) return true;
  return Array.isArray(value) ? (value as unknown[]).filter((key): key is string => typeof key === 'string') : undefined;
}

/** What a human changed before approving: as the seal records it once the call ran, as the approval sent says until then. */
function editsOf(part: AnyToolPart, seal: SealPartData | undefined, edit: EditPartData | undefined): readonly ArgumentEdit[] | undefined {
  const sent = part.state === 'approval-responded' && part.approval?.approved === true && edit !== undefined && 'input' in edit;
  const recorded = seal !== undefined && 'input' in seal ? { input: seal.input } : sent ? { input: edit.input } : undefined;
  if (recorded === undefined) return undefined;
  const edits = argumentEdits(part.input, recorded.input);
  return edits.length > 0 ? edits : undefined;
}

/** The browser tool's policy for calls that run here; the server's description otherwise. */
function policyFor(ranOn: ToolCallView['ranOn'], browserTool: AnyTool | undefined, serverTool: ServerToolInfo | undefined): PolicySummary | undefined {
  if (browserTool && (ranOn === 'browser' || serverTool === undefined)) return summarizePolicy(browserTool);
  return serverTool?.policy;
}

/** Whether a call waits for a human decision (its status says so, and an approval was asked). */
export function isPendingApproval<TInput>(view: ToolCallView<TInput>): view is PendingApproval<TInput> {
  return view.status === 'awaiting-approval' && view.approval !== undefined;
}

/** The calls waiting for a human decision, in conversation order: their views, as they are. */
export function pendingApprovals(views: ReadonlyMap<string, ToolCallView>): PendingApproval[] {
  return [...views.values()].filter(isPendingApproval);
}

/** A view or a pending approval whose `input` is typed by `TTool`'s schema (see {@link callOf}). */
export type CallOf<TView extends ToolCallView, TTool extends AnyTool> = TView extends PendingApproval
  ? PendingApproval<InferToolInput<TTool>>
  : ToolCallView<InferToolInput<TTool>>;

/**
 * A call of `tool` with its arguments typed by that tool's schema: a copy whose `input` is what the schema makes of the
 * model's arguments (the tool's `coerce` and `strict` applied, defaults filled in), the input the tool runs with.
 * `undefined` for another tool's call, and for arguments the schema refuses or validates only asynchronously. Edit a
 * call's arguments (`approve(id, { input })`) from the view's own `input`: these may differ where a default was filled.
 */
export function callOf<TView extends ToolCallView, TTool extends AnyTool>(view: TView, tool: TTool): CallOf<TView, TTool> | undefined {
  if (view.toolName !== tool.name) return undefined;
  let result: ReturnType<typeof validateWithSchema<unknown>>;
  try {
    // The executor's reading of a schema's answer: any thenable is a promise, and an answer of neither shape throws.
    result = validateWithSchema(tool.input, fitArguments(view.input, tool.jsonSchema, tool.policy));
  } catch {
    // A schema that throws (a raw JSON Schema with a `$ref` to nowhere), or answers nothing usable: no typed arguments.
    return undefined;
  }
  if (result instanceof Promise) {
    // Not awaited here (a render cannot wait): its outcome is dropped, a rejection included.
    result.catch(() => undefined);
    return undefined;
  }
  return result.ok ? ({ ...view, input: result.value } as CallOf<TView, TTool>) : undefined;
}

/** The model named in the latest assistant message's metadata. */
export function activeModel(messages: readonly MessageLike[]): ActiveModel | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const model = (messages[i]?.metadata as EdgetoolMessageMetadata | undefined)?.model;
    if (model && typeof model.modelId === 'string') return describeModelLabel(model);
  }
  return undefined;
}

/** Adds a display label to a model description (`offline model (…)` when offline). */
export function describeModelLabel(model: { readonly provider: string; readonly modelId: string; readonly offline: boolean }): ActiveModel {
  const label = model.offline ? `offline model (${model.modelId})` : `${model.provider} · ${model.modelId}`;
  return { provider: model.provider, modelId: model.modelId, offline: model.offline, label };
}
