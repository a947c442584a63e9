import type { ExecutionSide, ToolCall, ToolContext, ToolProgress, ToolSpan, ToolUsage } from '../chain/types.ts';
import type { AnyTool } from '../tool/types.ts';
import { Attributes } from './context-key.ts';
import { approvedNonceKey, idempotencyKeyOf } from './idempotency-key.ts';
import { createRunContext, type RunContext } from './run-context.ts';

/** Everything a per-call context is made of. */
export interface ToolContextInit<TInput, TDeps> {
  readonly tool: AnyTool;
  readonly call: ToolCall;
  readonly args: unknown;
  readonly input: TInput;
  /** The run the call belongs to (absent: a fresh one, made on first read). */
  readonly run?: RunContext<TDeps> | undefined;
  readonly side: ExecutionSide;
  readonly signal?: AbortSignal | undefined;
  readonly spans?: ToolSpan[];
  /** Receives the call's progress reports (already checked and copied). */
  readonly onProgress?: ((progress: ToolProgress) => void) | undefined;
  /**
   * The call's `idempotencyKey` as its caller knows it, or a function of the call id that gives it on the first read
   * (absent, or `undefined` from the function: made from the run, the call and a verified ticket).
   */
  readonly idempotencyKey?: string | ((callId: string) => string | undefined) | undefined;
}

/**
 * The per-call context. One instance per call, never shared between calls, never stored globally.
 * `input`, `signal` and `attempt` are written only by the chain runner (via `next()` overrides).
 */
export class CallContext<TInput = unknown, TDeps = unknown> extends Attributes implements ToolContext<TInput, TDeps> {
  // Declared, not defined: the constructor sets them (a defined field would be set twice per call, and an initialized one
  // is defined on each new context, which V8 does more slowly than an assignment: see Attributes).
  declare readonly tool: AnyTool;
  declare readonly call: ToolCall;
  declare readonly args: unknown;
  declare readonly side: ExecutionSide;
  declare readonly spans: ToolSpan[];
  declare input: TInput;
  /** Set by the first `reportUsage()` (a call that reports nothing never has it). */
  declare readonly usage: ToolUsage | undefined;
  declare attempt: number;
  private declare ownRun: RunContext<TDeps> | undefined;
  private declare ownSignal: AbortSignal | undefined;
  private declare readonly onProgress: ((progress: ToolProgress) => void) | undefined;
  /** The caller's key, or its function until the first read calls it (then its answer). */
  private declare ownKey: string | ((callId: string) => string | undefined) | undefined;

  constructor(init: ToolContextInit<TInput, TDeps>) {
    super();
    this.attempt = 1;
    this.tool = init.tool;
    this.call = init.call;
    this.args = init.args;
    this.input = init.input;
    this.ownRun = init.run;
    this.side = init.side;
    this.spans = init.spans ?? [];
    this.ownSignal = init.signal;
    this.onProgress = init.onProgress;
    this.ownKey = init.idempotencyKey;
  }

  progress(update: ToolProgress): void {
    const checked = toToolProgress(update);
    this.onProgress?.(checked);
  }

  reportUsage(usage: ToolUsage): void {
    // A new object each time: a finished call's result keeps the sum it was given, whatever is reported later.
    (this as { usage: ToolUsage | undefined }).usage = toToolUsage(usage, this.usage);
  }

  /** Made on read when the caller gave none, or gave a function: only a tool that writes reads it. */
  get idempotencyKey(): string {
    let own = this.ownKey;
    if (typeof own === 'function') {
      // Called once: every attempt and every later read of the call get the key it gave.
      own = own(this.call.id);
      this.ownKey = own;
    }
    if (own !== undefined) return own;
    return idempotencyKeyOf({ conversationId: this.run.conversationId, callId: this.call.id, nonce: this.get(approvedNonceKey) });
  }

  /** Created on first read when the caller gave none (most calls without a run never read it). */
  get run(): RunContext<TDeps> {
    this.ownRun ??= createRunContext() as RunContext<TDeps>;
    return this.ownRun;
  }

  /** Created on first read when the caller gave none, so listeners never pile up on a shared signal. */
  get signal(): AbortSignal {
    this.ownSignal ??= new AbortController().signal;
    return this.ownSignal;
  }

  set signal(value: AbortSignal) {
    this.ownSignal = value;
  }
}

/** The longest progress message kept; longer ones are cut with an ellipsis. */
export const MAX_PROGRESS_MESSAGE = 500;

/**
 * Checks a progress report and copies its three fields (nothing else: the copy is safe to serialize, and later
 * changes to the tool's object do not change what was reported). Throws a `TypeError` for anything else: an
 * object with no field, a `message` that is not a string, a `completed` or `total` that is not a finite number ≥ 0.
 */
export function toToolProgress(update: unknown): ToolProgress {
  const { message, completed, total } = (typeof update === 'object' && update !== null ? update : {}) as Record<string, unknown>;
  const isCount = (value: unknown) => value === undefined || (typeof value === 'number' && Number.isFinite(value) && value >= 0);
  if ((message === undefined && completed === undefined && total === undefined) || !(message === undefined || typeof message === 'string') || !isCount(completed) || !isCount(total)) {
    throw new TypeError('Not a progress report: report { message?: string, completed?: number ≥ 0, total?: number ≥ 0 } with one of them at least.');
  }
  const progress: { message?: string; completed?: number; total?: number } = {};
  if (message !== undefined) progress.message = message.length > MAX_PROGRESS_MESSAGE ? `${message.slice(0, MAX_PROGRESS_MESSAGE - 1)}…` : message;
  if (completed !== undefined) progress.completed = completed as number;
  if (total !== undefined) progress.total = total as number;
  return progress;
}

/** The counts of a usage report, in the order they are copied. */
const USAGE_COUNTS = ['inputTokens', 'outputTokens', 'totalTokens', 'reasoningTokens', 'cachedInputTokens'] as const;

const NOT_USAGE = 'Not a usage report: report token counts ≥ 0 as { inputTokens?, outputTokens?, totalTokens?, reasoningTokens?, cachedInputTokens? }, one at least.';

/**
 * Checks a usage report and copies its counts (nothing else), added to `sum` when given (a running sum; it is not
 * changed). Throws a `TypeError` for anything else: no count at all, or a count that is not a finite number ≥ 0.
 */
export function toToolUsage(usage: unknown, sum?: ToolUsage): ToolUsage {
  // Any value as an object: null and primitives have no counts.
  const report = Object(usage) as Record<string, unknown>;
  const copy: Record<string, number> = {};
  let counted = false;
  for (const key of USAGE_COUNTS) {
    const n = report[key];
    const before = sum?.[key];
    if (n !== undefined) {
      // Number.isFinite is false for anything but a number.
      if (!(Number.isFinite(n) && (n as number) >= 0)) throw new TypeError(NOT_USAGE);
      counted = true;
    }
    if (n !== undefined || before !== undefined) copy[key] = ((n as number | undefined) ?? 0) + (before ?? 0);
  }
  if (!counted) throw new TypeError(NOT_USAGE);
  return copy;
}

/** A report as one line for people: its message, else its counts ("3 of 10", or "3 done" with no positive total). */
export function progressText({ message, completed, total }: ToolProgress): string {
  if (message !== undefined) return message;
  if (completed === undefined) return 'working';
  return total !== undefined && total > 0 ? `${completed} of ${total}` : `${completed} done`;
}
