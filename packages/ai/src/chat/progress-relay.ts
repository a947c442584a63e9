import type { ToolProgressEvent } from '@edgetool/core';
import type { UIMessageChunk } from 'ai';
import { PROGRESS_PART, type ProgressPartData } from './protocol.ts';

/**
 * Carries the progress reports of a turn's running server calls into its UI stream. Reports arrive from tools at
 * any time; the stream takes them between its own chunks. Per call only the latest report waits (a tool reporting
 * in a tight loop costs the client one chunk per read, not one per report), and a report goes out only while its
 * call is open in the stream: after the call's `tool-input-available`, and at the latest right before its result
 * (so the last report a tool made before it returned always reaches the client).
 */
export interface ProgressRelay {
  /** The executor's listener: keeps the call's latest report. */
  readonly report: (event: ToolProgressEvent) => void;
  /**
   * The turn stream is about to send `chunk`: its input opens a call, its result closes it. Returns the call's
   * waiting report when `chunk` closes it: send it first.
   */
  saw(chunk: UIMessageChunk): UIMessageChunk | undefined;
  /** Whether a call is open (only then can a report arrive that the stream should wait for). */
  active(): boolean;
  /** The chunks to send now, one per open call with a waiting report; empties the queue. */
  take(): readonly UIMessageChunk[];
  /**
   * Resolves when a report for an open call is waiting (at once if one is), or when the last open call closes: with no
   * call open, no report can come that the stream should wait for, so nothing is left waiting. Resolves with `undefined`,
   * so that the stream races it against a read as it is.
   */
  arrived(): Promise<undefined>;
  /**
   * Calls `onReport` when a report for an open call comes in (the pumped turn writes it out then, with no race per read).
   * One listener: a later call replaces it.
   */
  listen(onReport: () => void): void;
}

/** What {@link ProgressRelay.take} returns when no report waits. */
const NONE: readonly UIMessageChunk[] = Object.freeze([]);

/** The calls a turn continues: the decisions on them, and those an earlier copy of the continuation already ran. */
export interface ResumedCalls {
  readonly decisions: ReadonlyMap<string, { readonly approved: boolean }>;
  /** Approved calls answered from their record, not run again (`VerifiedContinuation.replayed`). */
  readonly replayed?: ReadonlySet<string> | undefined;
}

/**
 * Creates the relay of one turn. Of the calls it continues (`resumed`), those that run now (approved, and not answered
 * from their record) are open from the start: the AI SDK runs them before the model's first step and sends no input
 * chunk for them. A denied call runs nothing and reports nothing, so the stream never waits for it.
 */
export function createProgressRelay(resumed: ResumedCalls = { decisions: new Map() }): ProgressRelay {
  const open = new Set<string>();
  for (const [id, decision] of resumed.decisions) if (decision.approved && resumed.replayed?.has(id) !== true) open.add(id);
  /** Calls whose result went out: a late report of theirs is dropped. */
  const closed = new Set<string>();
  const waiting = new Map<string, ProgressPartData>();
  let wake: (() => void) | undefined;
  let signal: Promise<undefined> | undefined;
  let listener: (() => void) | undefined;

  const toChunk = (id: string, data: ProgressPartData): UIMessageChunk => ({ type: PROGRESS_PART, id, data, transient: true });
  /** Closes a call: its waiting report, if any, as the chunk to send before the result. */
  const close = (id: string): UIMessageChunk | undefined => {
    const data = open.delete(id) ? waiting.get(id) : undefined;
    waiting.delete(id);
    closed.add(id);
    if (open.size === 0) wake?.();
    return data === undefined ? undefined : toChunk(id, data);
  };

  const ready = () => {
    for (const id of waiting.keys()) if (open.has(id)) return true;
    return false;
  };

  return {
    report({ callId, toolName, progress }) {
      if (closed.has(callId)) return;
      waiting.set(callId, { toolCallId: callId, toolName, ...progress });
      if (!open.has(callId)) return;
      wake?.();
      listener?.();
    },
    saw(chunk) {
      switch (chunk.type) {
        case 'tool-input-available':
          open.add(chunk.toolCallId);
          if (waiting.has(chunk.toolCallId)) wake?.();
          return undefined;
        case 'tool-output-available':
          return chunk.preliminary === true ? undefined : close(chunk.toolCallId);
        case 'tool-output-error':
        case 'tool-output-denied':
          return close(chunk.toolCallId);
        case 'finish':
        case 'abort':
        case 'error':
          open.clear();
          waiting.clear();
          wake?.();
          return undefined;
        default:
          return undefined;
      }
    },
    active: () => open.size > 0,
    take() {
      // Asked before every chunk of the turn: nothing to allocate when no report waits (most of the time).
      if (waiting.size === 0) return NONE;
      const chunks: UIMessageChunk[] = [];
      for (const [id, data] of waiting) {
        if (!open.has(id)) continue;
        waiting.delete(id);
        chunks.push(toChunk(id, data));
      }
      return chunks;
    },
    arrived() {
      if (ready()) return Promise.resolve(undefined);
      signal ??= new Promise<undefined>((resolve) => {
        wake = () => {
          wake = undefined;
          signal = undefined;
          resolve(undefined);
        };
      });
      return signal;
    },
    listen(onReport) {
      listener = onReport;
    },
  };
}
