import type { ToolContext } from '../chain/types.ts';
import { parentCallKey, traceIdKey } from '../interceptors/trace.ts';
import { Attributes, type ContextKey } from './context-key.ts';

/**
 * Run-level context: one per request (a chat turn), shared by every tool call in it.
 * Carries who is asking, the conversation, dependencies such as a database binding,
 * and typed state that tools may update for later steps and the caller to read.
 */
export interface RunContext<TDeps = unknown> {
  readonly conversationId: string;
  readonly userId: string | undefined;
  readonly deps: TDeps;
  /** Aborts every call of the run (for example when the client disconnects). */
  readonly signal: AbortSignal | undefined;
  get<T>(key: ContextKey<T>): T | undefined;
  set<T>(key: ContextKey<T>, value: T): void;
  has(key: ContextKey<unknown>): boolean;
}

/** Options for {@link createRunContext}. */
export interface RunContextOptions<TDeps> {
  readonly conversationId?: string | undefined;
  readonly userId?: string | undefined;
  readonly deps?: TDeps;
  readonly signal?: AbortSignal | undefined;
  /** Reads fall back to this run; writes stay here (a copy-on-write fork, e.g. for a sub-agent). */
  readonly parent?: RunContext<unknown> | undefined;
}

class RunContextImpl<TDeps> extends Attributes implements RunContext<TDeps> {
  // Declared, not defined: the constructor sets them (a defined field would be set twice per run).
  private declare id: string | undefined;
  declare readonly userId: string | undefined;
  declare readonly deps: TDeps;
  declare readonly signal: AbortSignal | undefined;
  private declare readonly parent: RunContext<unknown> | undefined;

  constructor(options: RunContextOptions<TDeps>) {
    super();
    this.id = options.conversationId;
    this.userId = options.userId;
    this.deps = options.deps as TDeps;
    this.signal = options.signal;
    this.parent = options.parent;
  }

  /** Generated on first read when none was given (most calls without a run never read it). */
  get conversationId(): string {
    if (this.id === undefined) this.id = crypto.randomUUID();
    return this.id;
  }

  override get<T>(key: ContextKey<T>): T | undefined {
    return super.has(key) ? super.get(key) : this.parent?.get(key);
  }

  override has(key: ContextKey<unknown>): boolean {
    return super.has(key) || (this.parent?.has(key) ?? false);
  }
}

/**
 * A child of `run` for work that must not write into it (a sub-agent): same user and deps, its own
 * conversation id, reads see the parent's state, writes stay in the child. Given `parent`, the call the work runs
 * inside (an agent tool's `ctx`), the fork's calls share that call's trace id and their trace records name it.
 */
export function forkRunContext<TDeps>(
  run: RunContext<TDeps>,
  options: { conversationId: string; signal?: AbortSignal | undefined; parent?: ToolContext<unknown, unknown> | undefined },
): RunContext<TDeps> {
  const fork = new RunContextImpl<TDeps>({ conversationId: options.conversationId, userId: run.userId, deps: run.deps, signal: options.signal ?? run.signal, parent: run as RunContext<unknown> });
  const call = options.parent;
  if (call !== undefined) {
    const first = call.spans[0];
    fork.set(parentCallKey, {
      callId: call.call.id,
      toolName: call.tool.name,
      conversationId: call.run.conversationId,
      traceConversationId: call.run.get(parentCallKey)?.traceConversationId ?? call.run.conversationId,
      // The layer opened last is the one running now (the tool's `execute`, when the work is the tool's).
      span: first === undefined ? undefined : { start: first.start, index: call.spans.length - 1 },
    });
    // The call's trace id as its own record will have it (`toTraceRecord`), so the fork's calls join its trace.
    fork.set(traceIdKey, call.get(traceIdKey) ?? call.run.get(traceIdKey) ?? call.call.id);
  }
  return fork;
}

/**
 * Creates the context shared by all tool calls of one request. Its deps type comes from `deps` (or a type argument),
 * never from where the run is passed, so a run without deps cannot pass for one that has them.
 */
export function createRunContext<TDeps = undefined>(options: RunContextOptions<TDeps> = {}): RunContext<NoInfer<TDeps>> {
  return new RunContextImpl(options);
}
