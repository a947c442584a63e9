// Not in the barrel: how a turn's token budget reaches the sub-agents its calls run (agentTool) while they run. A turn
// with a budget leaves its meter on its run; an agent call opens a slot in it for its inner turn (on its fork), whose
// meter counts there as it spends and asks the slot what is left before each step.
import { contextKey, type ContextKey, type RunContext, type ToolCallResult } from '@edgetool/core';
import type { LanguageModelUsage } from 'ai';
import { tokensOf } from './loop-parts.ts';

/** What one call of a turn (an agent call) runs its inner turns in: they count in the turn's meter while they run. */
export interface MeterSlot {
  /** Tokens the calling turn (and every turn it runs inside) has left: `Infinity` when none has a budget. */
  left(): number;
  /** An inner turn's meter, counted in the calling turn's from now on (until the call's result is in). */
  add(meter: TokenMeter): void;
}

/** A turn's tokens, counted as its budget counts them (`turnLimits`), but while the turn runs. */
export interface TokenMeter {
  /** Tokens left before this turn's budget or a calling turn's is used: `Infinity` when none has a budget. */
  left(): number;
  /** Tokens spent so far: model calls that ended, calls that finished, and inner turns of calls still running. */
  spent(): number;
  /** A model call of the turn ended: its tokens count now, before its tools run. */
  step(usage: Partial<LanguageModelUsage> | undefined): void;
  /** The slot of this turn's call `callId` (the same one for every attempt of the call). */
  slot(callId: string): MeterSlot;
  /**
   * The turn has ended: the run's calls read the meter they read before it began again (a turn run inside a call of
   * another on the same run, by a tool of one's own, must not leave its meter to that turn's later calls).
   */
  close(): void;
}

/** The meter of the turn that runs on a run (a later turn on the same run replaces it). */
const meterKey: ContextKey<TokenMeter> = /* @__PURE__ */ contextKey<TokenMeter>('edgetool.token-meter');
/** On an agent call's fork: the slot its inner turns count in. */
const slotKey: ContextKey<MeterSlot> = /* @__PURE__ */ contextKey<MeterSlot>('edgetool.token-meter-slot');

/**
 * The meter of a turn that starts on `run` with `budget` (the lower of the agent's and the turn's) and records its
 * finished calls in `results`, left on the run for the agent calls it makes. `undefined`, and nothing set, when no budget
 * applies: neither the turn's nor a calling turn's (the run is no agent call's fork), and no earlier turn on the run left
 * a meter a later call could take for this turn's.
 */
export function openTokenMeter(run: RunContext<unknown>, budget: number | undefined, results: ReadonlyMap<string, ToolCallResult>): TokenMeter | undefined {
  const outer = run.get(slotKey);
  // A meter an earlier turn closed is no longer there to take (close() leaves its key, holding what was before).
  const before = run.get(meterKey);
  if (budget === undefined && outer === undefined && before === undefined) return undefined;
  let steps = 0;
  // Each call's inner turns (a structured answer's repair round is a second one).
  const inner = new Map<string, TokenMeter[]>();
  const spent = (): number => {
    let n = steps;
    for (const result of results.values()) n += tokensOf(result.usage);
    // A call whose result is in counts by its result's usage, which holds what its inner turns reported.
    for (const [callId, turns] of inner) if (!results.has(callId)) for (const turn of turns) n += turn.spent();
    return n;
  };
  const meter: TokenMeter = {
    left: () => Math.min(budget === undefined ? Number.POSITIVE_INFINITY : budget - spent(), outer === undefined ? Number.POSITIVE_INFINITY : outer.left()),
    spent,
    step: (usage) => {
      steps += tokensOf(usage);
    },
    slot: (callId) => ({
      left: meter.left,
      add: (turn) => {
        const turns = inner.get(callId);
        if (turns === undefined) inner.set(callId, [turn]);
        else turns.push(turn);
      },
    }),
    close: () => {
      if (run.get(meterKey) === meter) run.set(meterKey, before as TokenMeter);
    },
  };
  outer?.add(meter);
  run.set(meterKey, meter);
  return meter;
}

/** The meter of the turn a call of `run` belongs to, when a budget applies to it. */
export function tokenMeterOf(run: RunContext<unknown>): TokenMeter | undefined {
  return run.get(meterKey);
}

/** Runs the inner turns on `fork` in `slot`: they count in the calling turn's meter and stop at what it has left. */
export function runInSlot(fork: RunContext<unknown>, slot: MeterSlot): void {
  fork.set(slotKey, slot);
}

/** The slot the turns on `run` count in (an agent call's), if any. */
export function meterSlotOf(run: RunContext<unknown>): MeterSlot | undefined {
  return run.get(slotKey);
}
