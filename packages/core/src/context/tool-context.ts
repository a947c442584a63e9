import type { ExecutionSide, ToolCall, ToolContext, ToolSpan } from '../chain/types.ts';
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
