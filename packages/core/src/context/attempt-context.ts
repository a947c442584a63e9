// Not in the barrel: what a tool sees when a layer around it may give up on it (a time limit).
import type { ExecutionSide, ToolCall, ToolContext, ToolProgress, ToolSpan, ToolUsage } from '../chain/types.ts';
import type { AnyTool } from '../tool/types.ts';
import type { ContextKey } from './context-key.ts';
import type { RunContext } from './run-context.ts';
import type { CallContext } from './tool-context.ts';

/**
 * The call's context as a tool sees it inside a layer that may end the call while the tool goes on (`abandons`: a time
 * limit): everything is the call's, but the signal, input and attempt stay those the tool started with. The layers
 * outside get their own signal back when one gives up (a retry starts the next attempt with a fresh one), and a tool
 * that reads `ctx.signal` after an `await` must still see its own, aborted.
 */
export class AttemptContext<TInput = unknown, TDeps = unknown> implements ToolContext<TInput, TDeps> {
  declare readonly signal: AbortSignal;
  declare readonly input: TInput;
  declare readonly attempt: number;
  private declare readonly base: CallContext<TInput, TDeps>;

  constructor(base: CallContext<TInput, TDeps>) {
    this.base = base;
    this.signal = base.signal;
    this.input = base.input;
    this.attempt = base.attempt;
  }

  get tool(): AnyTool {
    return this.base.tool;
  }
  get call(): ToolCall {
    return this.base.call;
  }
  get args(): unknown {
    return this.base.args;
  }
  get run(): RunContext<TDeps> {
    return this.base.run;
  }
  get side(): ExecutionSide {
    return this.base.side;
  }
  get spans(): readonly ToolSpan[] {
    return this.base.spans;
  }
  get idempotencyKey(): string {
    return this.base.idempotencyKey;
  }
  get usage(): ToolUsage | undefined {
    return this.base.usage;
  }
  progress(update: ToolProgress): void {
    this.base.progress(update);
  }
  reportUsage(usage: ToolUsage): void {
    this.base.reportUsage(usage);
  }
  get<T>(key: ContextKey<T>): T | undefined {
    return this.base.get(key);
  }
  set<T>(key: ContextKey<T>, value: T): void {
    this.base.set(key, value);
  }
  has(key: ContextKey<unknown>): boolean {
    return this.base.has(key);
  }
}
