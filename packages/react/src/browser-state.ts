import { type ToolProgress, toToolProgress } from '@edgetool/core';
import { type CallTrace, readTraceSpan, type TraceSpan } from './trace.ts';

/**
 * What this browser knows about a conversation that its messages do not carry: the answers the user stopped, the
 * calls whose ticket expired before the server took their answer, the browser chain's traces and the latest progress
 * report of each call. `useEdgeChat` returns it as `browserState`; save it with the messages and pass it back as the
 * `browserState` option after a reload, so the conversation looks as it did. Plain JSON.
 */
export interface BrowserState {
  /** Ids of assistant messages the user stopped before they ended (`stop()`). */
  readonly stopped: readonly string[];
  /** Tool call ids whose ticket expired before the server took their answer: they can no longer be answered. */
  readonly expired: readonly string[];
  /** This browser's traces of each call (its runs and manual-mode authorisations); the server's are in the messages. */
  readonly traces: Readonly<Record<string, readonly CallTrace[]>>;
  /** The latest progress report of each call, the server's and this browser's (progress is never in the messages). */
  readonly progress: Readonly<Record<string, ToolProgress>>;
  /**
   * With `resume`: the id of the turn this browser sent whose answer it has not seen end (a reload mid-answer resumes
   * it). Absent otherwise.
   */
  readonly turn?: string;
  /**
   * With `resume`, while `turn` runs: the approvals given to its calls, by call id, with the human's edited arguments
   * (`input`) if any. A replay of the turn writes them back; the message alone cannot tell an approval made as it was
   * from one whose edit part a later chunk dropped.
   */
  readonly approvals?: Readonly<Record<string, ApprovalNote>>;
}

/** An approval given while a resumable turn ran (see {@link BrowserState.approvals}). */
export interface ApprovalNote {
  /** The human's arguments (`approve(id, { input })`); absent: approved as the model made them. */
  readonly input?: unknown;
}

/** A conversation this browser knows nothing more about. */
export const EMPTY_BROWSER_STATE: BrowserState = Object.freeze({ stopped: [], expired: [], traces: {}, progress: {} });

const OUTCOMES: ReadonlySet<string> = new Set(['success', 'error', 'approval-required', 'client-pending']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** A trace as the timeline draws it, or `undefined` when any field (or any span) is not what it should be. */
export function readCallTrace(value: unknown): CallTrace | undefined {
  if (!isObject(value)) return undefined;
  const { side, outcome, errorCode, durationMs, spans } = value;
  if ((side !== 'client' && side !== 'server') || typeof outcome !== 'string' || !OUTCOMES.has(outcome)) return undefined;
  if (!(errorCode === undefined || typeof errorCode === 'string') || !isCount(durationMs) || !Array.isArray(spans)) return undefined;
  const read = spans.map(readTraceSpan);
  if (read.some((span) => span === undefined)) return undefined;
  return { side, outcome: outcome as CallTrace['outcome'], errorCode, durationMs, spans: read as TraceSpan[] };
}

function readIds(value: unknown): string[] {
  return Array.isArray(value) ? [...new Set(value.filter((id): id is string => typeof id === 'string' && id !== ''))] : [];
}

/** The entries of a JSON object whose values `read` accepts (own keys only; `__proto__` is just a key). */
function readRecord<T>(value: unknown, read: (entry: unknown) => T | undefined): Record<string, T> {
  if (!isObject(value)) return {};
  const entries: [string, T][] = [];
  for (const [key, entry] of Object.entries(value)) {
    const checked = read(entry);
    if (checked !== undefined) entries.push([key, checked]);
  }
  return Object.fromEntries(entries);
}

/**
 * Reads a saved {@link BrowserState} (from `JSON.parse`) and keeps what it can check, entry by entry: a trace or a
 * progress report of the wrong shape is dropped, not the rest. Nothing here is a proof of anything: the server never
 * sees it, and a UI only draws it.
 */
export function parseBrowserState(value: unknown): BrowserState {
  if (!isObject(value)) return EMPTY_BROWSER_STATE;
  return {
    stopped: readIds(value.stopped),
    expired: readIds(value.expired),
    traces: readRecord(value.traces, (entry) => {
      if (!Array.isArray(entry)) return undefined;
      const traces = entry.map(readCallTrace);
      return traces.some((trace) => trace === undefined) ? undefined : (traces as CallTrace[]);
    }),
    progress: readRecord(value.progress, (entry) => {
      try {
        return toToolProgress(entry);
      } catch {
        return undefined;
      }
    }),
    ...(typeof value.turn === 'string' && /^[\x21-\x7e]{1,100}$/.test(value.turn) ? { turn: value.turn } : {}),
    ...(typeof value.turn === 'string' && isObject(value.approvals)
      ? { approvals: readRecord(value.approvals, (entry): ApprovalNote | undefined => (isObject(entry) ? ('input' in entry ? { input: entry.input } : {}) : undefined)) }
      : {}),
  };
}
