import type { ExecutionSide, ToolCall, ToolContext, ToolProgress, ToolSpan } from '../chain/types.ts';
import type { AnyTool } from '../tool/types.ts';
import { Attributes } from './context-key.ts';
import type { RunContext } from './run-context.ts';

/** Everything a per-call context is made of. */
export interface ToolContextInit<TInput, TDeps> {
  readonly tool: AnyTool;
  readonly call: ToolCall;
  readonly args: unknown;
  readonly input: TInput;
  readonly run: RunContext<TDeps>;
  readonly side: ExecutionSide;
  readonly signal?: AbortSignal | undefined;
  readonly spans?: ToolSpan[];
  /** Receives the call's progress reports (already checked and copied). */
  readonly onProgress?: ((progress: ToolProgress) => void) | undefined;
}

/**
 * The per-call context. One instance per call, never shared between calls, never stored globally.
 * `input`, `signal` and `attempt` are written only by the chain runner (via `next()` overrides).
 */
export class CallContext<TInput = unknown, TDeps = unknown> extends Attributes implements ToolContext<TInput, TDeps> {
  readonly tool: AnyTool;
  readonly call: ToolCall;
  readonly args: unknown;
  readonly run: RunContext<TDeps>;
  readonly side: ExecutionSide;
  readonly spans: ToolSpan[];
  input: TInput;
  attempt = 1;
  private ownSignal: AbortSignal | undefined;
  private readonly onProgress: ((progress: ToolProgress) => void) | undefined;

  constructor(init: ToolContextInit<TInput, TDeps>) {
    super();
    this.tool = init.tool;
    this.call = init.call;
    this.args = init.args;
    this.input = init.input;
    this.run = init.run;
    this.side = init.side;
    this.spans = init.spans ?? [];
    this.ownSignal = init.signal;
    this.onProgress = init.onProgress;
  }

  progress(update: ToolProgress): void {
    const checked = toToolProgress(update);
    this.onProgress?.(checked);
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
  if (typeof update !== 'object' || update === null) throw new TypeError('A progress report is an object: { message?, completed?, total? }.');
  const { message, completed, total } = update as Record<string, unknown>;
  if (message === undefined && completed === undefined && total === undefined) {
    throw new TypeError('A progress report needs a `message`, `completed` or `total`.');
  }
  if (message !== undefined && typeof message !== 'string') throw new TypeError('A progress `message` is a string.');
  const amount = (name: string, value: unknown): number | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new TypeError(`A progress \`${name}\` is a finite number ≥ 0.`);
    return value;
  };
  const progress: { message?: string; completed?: number; total?: number } = {};
  if (message !== undefined) progress.message = message.length > MAX_PROGRESS_MESSAGE ? `${message.slice(0, MAX_PROGRESS_MESSAGE - 1)}…` : message;
  const done = amount('completed', completed);
  if (done !== undefined) progress.completed = done;
  const all = amount('total', total);
  if (all !== undefined) progress.total = all;
  return progress;
}
