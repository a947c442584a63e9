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
 * Runs `interceptors` around `terminal` as an onion, recording a span per layer on `ctx.spans`.
 * Never rejects: a throw anywhere becomes an error outcome at that layer, so an outer
 * interceptor can still catch and replace it. One continuation per layer (this is the hot path).
 */
export function runChain(ctx: CallContext, interceptors: readonly ToolInterceptor[], terminal: ChainTerminal, clock: Clock = defaultClock): Promise<ToolOutcome> {
  return dispatch(ctx, interceptors, terminal, clock, 0, undefined);
}

/** The state of one layer's `next()`. */
interface Layer {
  state: 'idle' | 'running' | 'done';
  running: Promise<ToolOutcome> | undefined;
}

type Settled = ((outcome: ToolOutcome) => void) | undefined;

function dispatch(ctx: CallContext, list: readonly ToolInterceptor[], terminal: ChainTerminal, clock: Clock, i: number, onSettled: Settled): Promise<ToolOutcome> {
  const interceptor = list[i];
  const span: ToolSpan = {
    name: interceptor ? interceptor.name : ctx.tool.name,
    kind: interceptor ? 'interceptor' : 'execute',
    depth: i,
    start: clock(),
    duration: 0,
    outcome: 'running',
  };
  ctx.spans.push(span);
  const settle = (outcome: ToolOutcome): ToolOutcome => {
    span.duration = clock() - span.start;
    span.outcome = outcome.type;
    if (outcome.type === 'error') span.errorCode = outcome.error.code;
    onSettled?.(outcome);
    return outcome;
  };
  const fail = (error: unknown): ToolOutcome => failure(toToolError(error, { toolName: ctx.tool.name, callId: ctx.call.id }));

  if (interceptor === undefined) {
    let result: Promise<ToolOutcome> | ToolOutcome;
    try {
      result = terminal(ctx);
    } catch (error) {
      return Promise.resolve(settle(fail(error)));
    }
    return result instanceof Promise ? result.then(settle, (error: unknown) => settle(fail(error))) : Promise.resolve(settle(result));
  }

  const layer: Layer = { state: 'idle', running: undefined };
  const check = (result: unknown): ToolOutcome =>
    isOutcome(result)
      ? result
      : failure(new ToolError('chain-misuse', `Interceptor "${interceptor.name}" returned ${describe(result)} instead of a tool outcome.`, { toolName: ctx.tool.name, callId: ctx.call.id }));
  // An interceptor that started next() without awaiting it must not end its layer (and so the call)
  // while the layers inside still run, unless it declares that it abandons them (timeout).
  const finish = (outcome: ToolOutcome): ToolOutcome | Promise<ToolOutcome> =>
    layer.running && !interceptor.abandons ? layer.running.then(() => settle(outcome)) : settle(outcome);
  let pending: Promise<ToolOutcome>;
  try {
    pending = interceptor.intercept(ctx, makeNext(ctx, list, terminal, clock, i, interceptor, layer));
  } catch (error) {
    return Promise.resolve(finish(fail(error)));
  }
  return Promise.resolve(pending).then(
    (result) => finish(check(result)),
    (error: unknown) => finish(fail(error)),
  );
}

function makeNext(ctx: CallContext, list: readonly ToolInterceptor[], terminal: ChainTerminal, clock: Clock, i: number, interceptor: ToolInterceptor, layer: Layer) {
  return (overrides?: NextOverrides): Promise<ToolOutcome> => {
    if (layer.state === 'running') return misuse(ctx, `Interceptor "${interceptor.name}" called next() while its previous next() was still running.`);
    if (layer.state === 'done' && !interceptor.reentrant) return misuse(ctx, `Interceptor "${interceptor.name}" called next() twice.`);
    layer.state = 'running';
    // Overrides apply to the layers inside this one only; restore them when those finish.
    const savedInput = ctx.input;
    const savedSignal = overrides?.signal ? ctx.signal : undefined;
    if (overrides && 'input' in overrides) ctx.input = overrides.input;
    if (overrides?.signal) ctx.signal = overrides.signal;
    layer.running = dispatch(ctx, list, terminal, clock, i + 1, () => {
      layer.state = 'done';
      layer.running = undefined;
      ctx.input = savedInput;
      if (savedSignal) ctx.signal = savedSignal;
    });
    return layer.running;
  };
}

function misuse(ctx: CallContext, message: string): Promise<never> {
  return Promise.reject(new ToolError('chain-misuse', message, { toolName: ctx.tool.name, callId: ctx.call.id }));
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined (did it forget to return next()?)';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object that is not an outcome' : typeof value;
}
