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
 * interceptor can still catch and replace it.
 */
export function runChain(ctx: CallContext, interceptors: readonly ToolInterceptor[], terminal: ChainTerminal, clock: Clock = defaultClock): Promise<ToolOutcome> {
  return dispatch(ctx, interceptors, terminal, clock, 0);
}

async function dispatch(ctx: CallContext, list: readonly ToolInterceptor[], terminal: ChainTerminal, clock: Clock, i: number): Promise<ToolOutcome> {
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
  let outcome: ToolOutcome;
  try {
    if (interceptor === undefined) {
      outcome = await terminal(ctx);
    } else {
      const layer: Layer = { state: 'idle', running: undefined };
      try {
        const result: unknown = await interceptor.intercept(ctx, makeNext(ctx, list, terminal, clock, i, interceptor, layer));
        outcome = isOutcome(result)
          ? result
          : failure(new ToolError('chain-misuse', `Interceptor "${interceptor.name}" returned ${describe(result)} instead of a tool outcome.`, { toolName: ctx.tool.name, callId: ctx.call.id }));
      } finally {
        // An interceptor that started next() without awaiting it must not end its layer (and so the
        // call) while the layers inside are still running.
        if (layer.running && !interceptor.abandons) await layer.running;
      }
    }
  } catch (error) {
    outcome = failure(toToolError(error, { toolName: ctx.tool.name, callId: ctx.call.id }));
  }
  span.duration = clock() - span.start;
  span.outcome = outcome.type;
  if (outcome.type === 'error') span.errorCode = outcome.error.code;
  return outcome;
}

/** The state of one layer's `next()`. */
interface Layer {
  state: 'idle' | 'running' | 'done';
  running: Promise<ToolOutcome> | undefined;
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
    layer.running = dispatch(ctx, list, terminal, clock, i + 1).then((outcome) => {
      layer.state = 'done';
      layer.running = undefined;
      ctx.input = savedInput;
      if (savedSignal) ctx.signal = savedSignal;
      return outcome;
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
