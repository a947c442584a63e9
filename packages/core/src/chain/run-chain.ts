import type { CallContext } from '../context/tool-context.ts';
import { ToolError, toToolError } from '../errors/tool-error.ts';
import { failure, isOutcome } from './interceptor.ts';
import type { NextOverrides, ToolInterceptor, ToolOutcome, ToolSpan } from './types.ts';

/** The innermost step of a chain: the tool's own `execute` (or a stand-in in tests). */
export type ChainTerminal = (ctx: CallContext) => Promise<ToolOutcome> | ToolOutcome;

/** A monotonic millisecond clock. */
export type Clock = () => number;

/** `performance.now()` where it exists (browsers, Workers, Node), else `Date.now()`. */
export const defaultClock: Clock = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

/**
 * Runs `interceptors` around `terminal` as an onion. With a clock, records a timed span per layer on
 * `ctx.spans`; with `null`, records none and reads no clock (the executor's default: spans are for tracing).
 * Never rejects: a throw anywhere becomes an error outcome at that layer, so an outer interceptor can
 * still catch and replace it. This is the hot path: one `Layer` and one continuation per layer.
 */
export function runChain(ctx: CallContext, interceptors: readonly ToolInterceptor[], terminal: ChainTerminal, clock: Clock | null = defaultClock): Promise<ToolOutcome> {
  return Promise.resolve(runLayers(ctx, interceptors, terminal, clock));
}

/** {@link runChain}, but synchronous when nothing in the chain is (a synchronous tool, inside pass-throughs that return `next()`). */
export function runLayers(ctx: CallContext, interceptors: readonly ToolInterceptor[], terminal: ChainTerminal, clock: Clock | null): Promise<ToolOutcome> | ToolOutcome {
  return dispatch({ ctx, list: interceptors, terminal, clock }, 0, undefined);
}

/** What every layer of one chain run shares. */
interface ChainRun {
  readonly ctx: CallContext;
  readonly list: readonly ToolInterceptor[];
  readonly terminal: ChainTerminal;
  readonly clock: Clock | null;
}

const IDLE = 0;
const RUNNING = 1;
const DONE = 2;
/** Ended by its interceptor while the layers inside still run (`abandons`, e.g. a timeout). */
const DETACHED = 3;
/** Its interceptor has returned and the layer has ended: a `next()` now would run the tool after the call ended. */
const ENDED = 4;

/** One interceptor's layer: its `next()` and the state that keeps it honest. */
class Layer {
  state = IDLE;
  /** The promise the latest `next()` returned (still running while `state` is RUNNING), and its outcome once settled. */
  last: Promise<ToolOutcome> | undefined = undefined;
  lastOutcome: ToolOutcome | undefined = undefined;
  /** Set when the interceptor returned `next()`'s own promise: this layer ends when the inner ones do. */
  forward: ((outcome: ToolOutcome) => void) | undefined = undefined;
  savedInput: unknown = undefined;
  savedSignal: AbortSignal | undefined = undefined;
  // Declared, not defined: the constructor sets them (a defined field would be set twice per layer).
  declare readonly run: ChainRun;
  declare readonly depth: number;
  declare readonly interceptor: ToolInterceptor;

  constructor(run: ChainRun, depth: number, interceptor: ToolInterceptor) {
    this.run = run;
    this.depth = depth;
    this.interceptor = interceptor;
  }

  /** The interceptor's `next()`, bound to this layer (`layer.next.bind(layer)`: one object, where an arrow field made two). */
  next(overrides?: NextOverrides): Promise<ToolOutcome> {
    const { interceptor, run } = this;
    if (this.state !== IDLE) {
      // An outcome, not a rejection: nobody awaits a next() called from a timer or a stray promise, and nothing runs.
      if (this.state === ENDED) return Promise.resolve(failure(misuseError(run.ctx, `Interceptor "${interceptor.name}" called next() after it had returned; nothing ran.`)));
      if (this.state === RUNNING) return misuse(run.ctx, `Interceptor "${interceptor.name}" called next() while its previous next() was still running.`);
      if (!interceptor.reentrant) return misuse(run.ctx, `Interceptor "${interceptor.name}" called next() twice.`);
    }
    this.state = RUNNING;
    // Overrides apply to the layers inside this one only; `innerSettled` restores them.
    const { ctx } = run;
    this.savedInput = ctx.input;
    this.savedSignal = undefined;
    if (overrides !== undefined) {
      if ('input' in overrides) ctx.input = overrides.input;
      if (overrides.signal) {
        this.savedSignal = ctx.signal;
        ctx.signal = overrides.signal;
      }
    }
    // A synchronous terminal settles inside dispatch (state is then DONE already).
    const inner = dispatch(run, this.depth + 1, this);
    this.last = inner instanceof Promise ? inner : Promise.resolve(inner);
    return this.last;
  }

  /** The layers inside have settled with `outcome`. */
  innerSettled(outcome: ToolOutcome): void {
    const detached = this.state === DETACHED;
    // A layer that gave up on its inner layers, or that returned their promise, has ended with them.
    this.state = detached || this.forward !== undefined ? ENDED : DONE;
    this.lastOutcome = outcome;
    // A layer that gave up on its inner layers (timeout) restored the overrides then; the call has moved on since.
    if (!detached) this.restore();
    this.forward?.(outcome);
  }

  /** The interceptor ended this layer while the layers inside still run (`abandons`): the layers outside see their own input and signal again. */
  detach(): void {
    this.state = DETACHED;
    this.restore();
  }

  private restore(): void {
    const { ctx } = this.run;
    ctx.input = this.savedInput;
    if (this.savedSignal) ctx.signal = this.savedSignal;
  }
}

function openSpan(run: ChainRun, depth: number, interceptor: ToolInterceptor | undefined): ToolSpan | undefined {
  if (run.clock === null) return undefined;
  const span: ToolSpan = {
    name: interceptor ? interceptor.name : run.ctx.tool.name,
    kind: interceptor ? 'interceptor' : 'execute',
    depth,
    start: run.clock(),
    duration: 0,
    outcome: 'running',
  };
  (run.ctx.spans as ToolSpan[]).push(span);
  return span;
}

function settle(run: ChainRun, span: ToolSpan | undefined, parent: Layer | undefined, outcome: ToolOutcome): ToolOutcome {
  if (span !== undefined) {
    span.duration = (run.clock as Clock)() - span.start;
    span.outcome = outcome.type;
    if (outcome.type === 'error') span.errorCode = outcome.error.code;
  }
  parent?.innerSettled(outcome);
  return outcome;
}

function fail(ctx: CallContext, error: unknown): ToolOutcome {
  return failure(toToolError(error, { toolName: ctx.tool.name, callId: ctx.call.id }));
}

function dispatch(run: ChainRun, depth: number, parent: Layer | undefined): Promise<ToolOutcome> | ToolOutcome {
  const { ctx } = run;
  const interceptor = run.list[depth];
  const span = openSpan(run, depth, interceptor);

  if (interceptor === undefined) {
    let result: Promise<ToolOutcome> | ToolOutcome;
    try {
      result = run.terminal(ctx);
    } catch (error) {
      return settle(run, span, parent, fail(ctx, error));
    }
    return result instanceof Promise ? later(run, span, parent, result) : settle(run, span, parent, result);
  }

  const layer = new Layer(run, depth, interceptor);
  let pending: Promise<ToolOutcome>;
  try {
    pending = interceptor.intercept(ctx, layer.next.bind(layer));
  } catch (error) {
    return Promise.resolve(finishLayer(run, layer, span, parent, fail(ctx, error)));
  }
  // A pass-through (`(ctx, next) => next()`) returned the inner layers' own promise: its outcome is
  // theirs, already checked. End this layer with them instead of one more promise hop.
  // When the inner layers already settled (pass-throughs around a synchronous tool), the outermost layer
  // hands the outcome back synchronously (the executor skips a microtask hop); inner ones keep sharing
  // the one promise, so an outer next() need not wrap the outcome again. (A plain function that returned nothing
  // before any next() is no pass-through: `last` is then undefined too.)
  if (pending !== undefined && pending === layer.last) {
    if (layer.state === DONE) {
      layer.state = ENDED;
      const outcome = settle(run, span, parent, layer.lastOutcome as ToolOutcome);
      return parent === undefined ? outcome : pending;
    }
    layer.forward = settle.bind(undefined, run, span, parent);
    return pending;
  }
  return later(run, span, parent, Promise.resolve(pending), layer);
}

/**
 * Ends a layer (the terminal's without `layer`) when `pending` settles. Its closures are made here: in `dispatch`,
 * they would make every layer allocate a context for the variables they capture, whichever path it takes.
 */
function later(run: ChainRun, span: ToolSpan | undefined, parent: Layer | undefined, pending: Promise<unknown>, layer?: Layer): Promise<ToolOutcome> {
  return pending.then(
    (result) => finishLayer(run, layer, span, parent, layer === undefined || isOutcome(result) ? (result as ToolOutcome) : notAnOutcome(run.ctx, layer.interceptor, result)),
    (error: unknown) => finishLayer(run, layer, span, parent, fail(run.ctx, error)),
  );
}

/**
 * Ends a layer with `outcome` (the terminal's has no `layer`). An interceptor that started next() without awaiting it
 * must not end its layer (and so the call) while the layers inside still run, unless it abandons them (timeout).
 */
function finishLayer(run: ChainRun, layer: Layer | undefined, span: ToolSpan | undefined, parent: Layer | undefined, outcome: ToolOutcome): ToolOutcome | Promise<ToolOutcome> {
  if (layer?.state !== RUNNING) {
    if (layer !== undefined) layer.state = ENDED;
    return settle(run, span, parent, outcome);
  }
  if (!layer.interceptor.abandons) {
    return (layer.last as Promise<ToolOutcome>).then(() => {
      layer.state = ENDED;
      return settle(run, span, parent, outcome);
    });
  }
  layer.detach();
  return settle(run, span, parent, outcome);
}

function notAnOutcome(ctx: CallContext, interceptor: ToolInterceptor, result: unknown): ToolOutcome {
  return failure(
    new ToolError('chain-misuse', `Interceptor "${interceptor.name}" returned ${describe(result)} instead of a tool outcome.`, { toolName: ctx.tool.name, callId: ctx.call.id }),
  );
}

function misuse(ctx: CallContext, message: string): Promise<never> {
  const refused = Promise.reject(misuseError(ctx, message));
  // Rejected for whoever awaits it, but a stray next() nobody awaits (`void next()`) must not end a Node process.
  refused.catch(() => {});
  return refused;
}

function misuseError(ctx: CallContext, message: string): ToolError {
  return new ToolError('chain-misuse', message, { toolName: ctx.tool.name, callId: ctx.call.id });
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined (did it forget to return next()?)';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object that is not an outcome' : typeof value;
}
