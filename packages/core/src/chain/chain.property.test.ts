// Property-based tests of the ToolChain (issue "Reliability"): random stacks of well- and
// badly-behaved interceptors spread over the global, registry, tool and call layers.
// Runs per runtime: 1,000 random chains + 300 chains with an interceptor that does not await next()
// (up to 9 interceptors each, ~6,000 interceptor runs).
// Failures print fast-check's seed and path.
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ToolError, type ToolErrorCode } from '../errors/tool-error.ts';
import { createExecutor } from '../executor/executor.ts';
import { createRegistry } from '../registry/registry.ts';
import { CODES, OUTCOME_TYPES, jsonValue } from '../test-support/arbitraries.ts';
import { defineTool } from '../tool/define-tool.ts';
import { defineInterceptor, failure, success } from './interceptor.ts';
import type { ToolInterceptor, ToolOutcome } from './types.ts';


/** Garbage an interceptor may return instead of an outcome (or outcomes that are barely valid). */
const GARBAGE: readonly (() => unknown)[] = [
  () => undefined,
  () => null,
  () => 42,
  () => 'a string',
  () => ({}),
  () => [],
  () => ({ type: 'bogus' }),
  () => ({ type: 'error', error: new Error('not a ToolError') }),
  () => ({ type: 'error' }),
  () => ({ type: 'success' }),
  () => ({ type: 'success', output: 10n }),
  () => ({ type: 'approval-required' }),
  () => ({ type: 'client-pending', ticket: 5 }),
  () => new ToolError('rate-limited', 'returned, not thrown'),
  () => Promise.resolve(undefined),
];

type Behaviour =
  | { kind: 'pass' }
  | { kind: 'pass-async' }
  | { kind: 'short'; output: unknown }
  | { kind: 'short-error'; code: ToolErrorCode }
  | { kind: 'throw'; sync: boolean; what: number }
  | { kind: 'garbage'; afterNext: boolean; which: number }
  | { kind: 'twice' }
  | { kind: 'twice-parallel' }
  | { kind: 'twice-unawaited' }
  | { kind: 'fire-and-forget'; output: unknown }
  | { kind: 'rewrite'; input: unknown }
  | { kind: 'retry'; times: number };

const behaviourArb: fc.Arbitrary<Behaviour> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'pass' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'pass-async' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('short' as const), output: jsonValue }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('short-error' as const), code: fc.constantFrom<ToolErrorCode>(...([...CODES] as ToolErrorCode[])) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('throw' as const), sync: fc.boolean(), what: fc.nat(4) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('garbage' as const), afterNext: fc.boolean(), which: fc.nat(GARBAGE.length - 1) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'twice' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'twice-parallel' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rewrite' as const), input: jsonValue }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('retry' as const), times: fc.integer({ min: 1, max: 3 }) }) },
);

/** Interceptors that start next() and do not wait for it: the chain must still finish before execute() resolves. */
const unawaitedArb: fc.Arbitrary<Behaviour> = fc.oneof(
  fc.constant({ kind: 'twice-unawaited' as const }),
  fc.record({ kind: fc.constant('fire-and-forget' as const), output: jsonValue }),
);

const THROWN: readonly (() => unknown)[] = [
  () => new Error('interceptor broke'),
  () => 'a thrown string',
  () => new ToolError('rate-limited', 'slow down', { retryable: true }),
  () => undefined,
  () => ({ message: 'an object' }),
];

function makeInterceptor(name: string, b: Behaviour): ToolInterceptor {
  const intercept = (_ctx: unknown, next: (o?: { input?: unknown }) => Promise<ToolOutcome>): Promise<ToolOutcome> => {
    switch (b.kind) {
      case 'pass':
        return next();
      case 'pass-async':
        return (async () => {
          await Promise.resolve();
          return await next();
        })();
      case 'short':
        return Promise.resolve(success(b.output));
      case 'short-error':
        return Promise.resolve(failure(new ToolError(b.code, `short-circuited with ${b.code}`)));
      case 'throw':
        if (b.sync) throw THROWN[b.what]?.();
        return Promise.reject(THROWN[b.what]?.());
      case 'garbage':
        return (async () => {
          if (b.afterNext) await next();
          return GARBAGE[b.which]?.() as ToolOutcome;
        })();
      case 'twice':
        return (async () => {
          await next();
          return next();
        })();
      case 'twice-parallel':
        return (async () => {
          const [first, second] = await Promise.allSettled([next(), next()]);
          if (second.status === 'rejected') throw second.reason;
          return first.status === 'fulfilled' ? first.value : second.value;
        })();
      case 'twice-unawaited':
        next();
        return next();
      case 'fire-and-forget':
        next();
        return Promise.resolve(success(b.output));
      case 'rewrite':
        return next({ input: b.input });
      case 'retry':
        return (async () => {
          let outcome = await next();
          for (let i = 0; i < b.times && outcome.type === 'error'; i++) outcome = await next();
          return outcome;
        })();
    }
  };
  return defineInterceptor(name, intercept as never, { reentrant: b.kind === 'retry' });
}

const layerArb = fc.constantFrom('global', 'registry', 'tool', 'call');
const inputArb = fc.record({ text: fc.string({ maxLength: 8 }) });
type ToolBehaviour = { mode: 'return' | 'async' | 'throw' | 'reject' | 'echo'; output: unknown; retries: number };
const toolBehaviourArb: fc.Arbitrary<ToolBehaviour> = fc.record({
  mode: fc.constantFrom('return', 'async', 'throw', 'reject', 'echo'),
  output: jsonValue,
  retries: fc.constantFrom(0, 0, 0, 1, 2),
});

/** Lets every pending promise job run (no timers: Chromium clamps nested timers to 4 ms). */
async function flushMicrotasks(rounds = 200): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}

type Layered = { layer: string; behaviour: Behaviour };

/** Runs one random chain and checks every invariant. */
async function runCase(stack: readonly Layered[], toolBehaviour: ToolBehaviour, input: { text: string }): Promise<void> {
  let executions = 0;
  const inputsSeen: unknown[] = [];
  const named = stack.map((s, i) => ({ ...s, interceptor: makeInterceptor(`i${i}-${s.behaviour.kind}`, s.behaviour) }));
  const at = (layer: string) => named.filter((s) => s.layer === layer).map((s) => s.interceptor);
  const tool = defineTool({
    name: 'target',
    description: '',
    input: v.object({ text: v.string() }),
    policy: { retries: toolBehaviour.retries },
    interceptors: at('tool'),
    execute: async (toolInput) => {
      executions++;
      inputsSeen.push(toolInput);
      switch (toolBehaviour.mode) {
        case 'throw':
          throw new Error('tool failed');
        case 'reject':
          await Promise.resolve();
          throw new ToolError('execution-failed', 'tool failed later', { retryable: true });
        case 'async':
          await Promise.resolve();
          return toolBehaviour.output;
        case 'echo':
          return toolInput;
        default:
          return toolBehaviour.output;
      }
    },
  });
  const registry = createRegistry({ tools: [tool], interceptors: at('registry') });
  const executor = createExecutor({ registry, interceptors: at('global'), spans: true });
  const order = [...at('global'), ...at('registry'), ...at('tool'), ...at('call')].map((i) => i.name);
  if (toolBehaviour.retries > 0) order.push('retry');

  const result = await executor.execute({ id: 'c1', name: 'target', arguments: JSON.stringify(input) }, { interceptors: at('call') });
  const executionsAtReturn = executions;
  const spansAtReturn = result.spans.map((s) => ({ ...s }));

  // a typed outcome
  expect(OUTCOME_TYPES.has(result.outcome.type), `outcome ${String(result.outcome.type)}`).toBe(true);
  expect(typeof result.content).toBe('string');
  if (result.outcome.type === 'error') {
    expect(ToolError.isInstance(result.outcome.error)).toBe(true);
    expect(CODES.has(result.outcome.error.code), `code ${String(result.outcome.error.code)}`).toBe(true);
  }

  // well-formed spans: a pre-order walk of the onion, each layer named, timed and finished
  const depthOfExecute = order.length;
  expect(spansAtReturn.length).toBeGreaterThan(0);
  expect(spansAtReturn[0]?.depth).toBe(0);
  spansAtReturn.forEach((span, k) => {
    const where = `span ${k} ${span.name}@${span.depth} of ${JSON.stringify(spansAtReturn.map((s) => `${s.name}@${s.depth}:${s.outcome}`))}`;
    expect(Number.isInteger(span.depth) && span.depth >= 0 && span.depth <= depthOfExecute, where).toBe(true);
    if (k > 0) expect(span.depth, where).toBeLessThanOrEqual((spansAtReturn[k - 1]?.depth ?? 0) + 1);
    if (span.depth === depthOfExecute) expect([span.kind, span.name], where).toEqual(['execute', 'target']);
    else expect([span.kind, span.name], where).toEqual(['interceptor', order[span.depth]]);
    expect(span.duration, where).toBeGreaterThanOrEqual(0);
    expect(span.outcome, `${where}: every span is finished when execute() resolves`).not.toBe('running');
    expect(OUTCOME_TYPES.has(span.outcome), where).toBe(true);
    if (span.outcome === 'error') expect(CODES.has(span.errorCode as string), where).toBe(true);
    else expect(span.errorCode, where).toBeUndefined();
  });
  const outer = spansAtReturn[0];
  if (!(result.outcome.type === 'error' && result.outcome.error.code === 'invalid-output')) expect(outer?.outcome).toBe(result.outcome.type);
  expect(spansAtReturn.filter((s) => s.kind === 'execute')).toHaveLength(executionsAtReturn);

  // execute runs at most once, unless a reentrant interceptor (a retry) is in the chain,
  // and never after execute() has resolved
  await flushMicrotasks();
  const reentrant = toolBehaviour.retries > 0 || stack.some((s) => s.behaviour.kind === 'retry');
  if (!reentrant) expect(executions, 'execute ran more than once').toBeLessThanOrEqual(1);
  expect(executions, 'execute ran after execute() had resolved').toBe(executionsAtReturn);

  // without rewriting interceptors the tool saw the validated input
  if (!stack.some((s) => s.behaviour.kind === 'rewrite')) for (const seenInput of inputsSeen) expect(seenInput).toEqual(input);
}

const stackArb = (behaviour: fc.Arbitrary<Behaviour>) => fc.array(fc.record({ layer: layerArb, behaviour }), { maxLength: 8 });

describe('ToolChain properties: random interceptor stacks', () => {
  it('always returns a typed outcome with well-formed, finished spans, and execute runs at most once unless retried', async () => {
    await fc.assert(fc.asyncProperty(stackArb(behaviourArb), toolBehaviourArb, inputArb, runCase), { numRuns: 1000 });
  });

  it('an interceptor that does not await next() cannot make execute() resolve while the chain is still running', async () => {
    const withUnawaited = fc
      .tuple(stackArb(behaviourArb), fc.record({ layer: layerArb, behaviour: unawaitedArb }), fc.nat())
      .map(([stack, bad, at]) => [...stack.slice(0, at % (stack.length + 1)), bad, ...stack.slice(at % (stack.length + 1))]);
    const example: [Layered[], ToolBehaviour, { text: string }] = [
      [{ layer: 'global', behaviour: { kind: 'twice-unawaited' } }],
      { mode: 'return', output: null, retries: 2 },
      { text: '' },
    ];
    await fc.assert(fc.asyncProperty(withUnawaited, toolBehaviourArb, inputArb, runCase), { numRuns: 300, examples: [example] });
  });
});
