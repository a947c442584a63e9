// Not in the barrel: how an agent tool's sub-agent calls reach its trace part. The agent tool collects them on the run
// it was called on (typed state a tool may leave for its caller), the chat loop takes them when the call's result comes.
import { contextKey, type ContextKey, type RunContext, type ToolCallResult } from '@edgetool/core';
import { MAX_TRACE_SUB_CALLS, type SubCallTraceData, spansOf } from './protocol.ts';

/** The sub-agent calls of one agent call, so far. */
export interface SubCalls {
  readonly calls: SubCallTraceData[];
  omitted: number;
}

/** Agent calls' sub-calls by `<conversation id>\n<call id>` (a fork reads its parent's map: nested agents share it). */
const subCallsKey: ContextKey<Map<string, SubCalls>> = /* @__PURE__ */ contextKey<Map<string, SubCalls>>('edgetool.sub-calls');

const keyOf = (run: RunContext<unknown>, callId: string): string => `${run.conversationId}\n${callId}`;

/** Calls in a list, nested ones included. */
function count(calls: readonly SubCallTraceData[] | undefined): number {
  return calls === undefined ? 0 : calls.reduce((n, call) => n + 1 + count(call.calls), 0);
}

/** Starts collecting the sub-calls of the agent call `callId` of `run`: what the returned list holds when its result comes. */
export function collectSubCalls(run: RunContext<unknown>, callId: string): SubCalls {
  let all = run.get(subCallsKey);
  if (all === undefined) {
    all = new Map();
    run.set(subCallsKey, all);
  }
  const entry: SubCalls = { calls: [], omitted: 0 };
  all.set(keyOf(run, callId), entry);
  return entry;
}

/** Takes (and forgets) the sub-calls of the agent call `callId` of `run`; `undefined` for a call that is no agent call. */
export function takeSubCalls(run: RunContext<unknown>, callId: string): SubCalls | undefined {
  const all = run.get(subCallsKey);
  // A run no agent call collected on (most): no key to build (a string made and flattened for every call's result).
  if (all === undefined) return undefined;
  const key = keyOf(run, callId);
  const entry = all.get(key);
  all.delete(key);
  return entry;
}

/**
 * Adds a finished call of the sub-agent (on `fork`, the sub-agent's run) to `entry`, with its own sub-calls when it is a
 * nested agent call and they fit: at most {@link MAX_TRACE_SUB_CALLS} in all, the rest counted as left out.
 */
export function addSubCall(entry: SubCalls, fork: RunContext<unknown>, result: ToolCallResult): void {
  const nested = takeSubCalls(fork, result.call.id);
  const used = count(entry.calls);
  if (used >= MAX_TRACE_SUB_CALLS) {
    entry.omitted += 1;
    return;
  }
  const call: SubCallTraceData = {
    toolCallId: result.call.id,
    toolName: result.call.name,
    outcome: result.outcome.type,
    errorCode: result.outcome.type === 'error' ? result.outcome.error.code : undefined,
    durationMs: result.durationMs,
    spans: spansOf(result),
  };
  if (nested === undefined) {
    entry.calls.push(call);
    return;
  }
  const fits = used + 1 + count(nested.calls) <= MAX_TRACE_SUB_CALLS;
  const omitted = fits ? nested.omitted : nested.omitted + nested.calls.length;
  entry.calls.push({ ...call, ...(fits && nested.calls.length > 0 ? { calls: [...nested.calls] } : {}), ...(omitted > 0 ? { omittedCalls: omitted } : {}) });
}

/** What a trace part carries of an agent call's sub-calls (nothing for other calls). */
export function subCallsPart(entry: SubCalls | undefined): { readonly calls?: readonly SubCallTraceData[]; readonly omittedCalls?: number } {
  if (entry === undefined) return {};
  return { calls: [...entry.calls], ...(entry.omitted > 0 ? { omittedCalls: entry.omitted } : {}) };
}
