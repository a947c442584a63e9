// Not in the barrel: how a turn's token budget reaches the sub-agents its calls run (agentTool) while they run. A turn
// with a budget hands its meter to each call it runs, by run and call id (`meterCall`: two turns may run at once on one
// run object, each with its own budget); an agent call opens a slot in it for its inner turn (on its fork), whose meter
// counts there as it spends and asks the slot what is left before each step.
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
}

/**
 * The meters of the turns running calls on each run, by call id, while the calls run. Keyed by the run object (a fork's
 * own, not its parent's: `run.get` would read a parent's through a fork) and dropped with it.
 */
const running = new WeakMap<RunContext<unknown>, Map<string, TokenMeter[]>>();
/** On an agent call's fork: the slot its inner turns count in. */
const slotKey: ContextKey<MeterSlot> = /* @__PURE__ */ contextKey<MeterSlot>('edgetool.token-meter-slot');

/**
 * The meter of a turn that starts on `run` with `budget` (the lower of the agent's and the turn's) and records its
 * finished calls in `results`, for the agent calls it makes ({@link meterCall}). `undefined` when no budget applies:
 * neither the turn's nor a calling turn's (the run is no agent call's fork).
 */
export function openTokenMeter(run: RunContext<unknown>, budget: number | undefined, results: ReadonlyMap<string, ToolCallResult>): TokenMeter | undefined {
  const outer = run.get(slotKey);
  if (budget === undefined && outer === undefined) return undefined;
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
  };
  outer?.add(meter);
  return meter;
}

/**
 * Hands `meter` to the call `callId` of `run` while it runs (the chat loop's `toAISDKTools({ running })`): its agent
 * calls read it ({@link tokenMeterOf}). Returns what ends that when the call has ended. A turn left its meter on its run
 * before (budget34): a second turn at once on the same run replaced it, and the first turn's agent calls counted in the
 * second's budget and stopped at what that had left.
 */
export function meterCall(run: RunContext<unknown>, callId: string, meter: TokenMeter): () => void {
  let calls = running.get(run);
  if (calls === undefined) {
    calls = new Map();
    running.set(run, calls);
  }
  const meters = calls.get(callId);
  if (meters === undefined) calls.set(callId, [meter]);
  else meters.push(meter);
  const held = calls;
  return () => {
    const now = held.get(callId);
    const at = now?.indexOf(meter) ?? -1;
    if (now === undefined || at < 0) return;
    now.splice(at, 1);
    if (now.length === 0) held.delete(callId);
  };
}

/**
 * The meter of the turn that runs the call `callId` on `run`, when a budget applies to it. Two turns that run a call of
 * the same id on one run at once (a model that numbers its calls): the one with less left, on the safe side.
 */
export function tokenMeterOf(run: RunContext<unknown>, callId: string): TokenMeter | undefined {
  const meters = running.get(run)?.get(callId);
  if (meters === undefined || meters.length < 2) return meters?.[0];
  return meters.reduce((least, meter) => (meter.left() < least.left() ? meter : least));
}

/** Runs the inner turns on `fork` in `slot`: they count in the calling turn's meter and stop at what it has left. */
export function runInSlot(fork: RunContext<unknown>, slot: MeterSlot): void {
  fork.set(slotKey, slot);
}

/** The slot the turns on `run` count in (an agent call's), if any. */
export function meterSlotOf(run: RunContext<unknown>): MeterSlot | undefined {
  return run.get(slotKey);
}
