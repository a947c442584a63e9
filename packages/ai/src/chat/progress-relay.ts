import type { ToolProgressEvent } from '@edgetool/core';
import type { UIMessageChunk } from 'ai';
import { PROGRESS_PART, type ProgressPartData } from './protocol.ts';

/**
 * Carries the progress reports of a turn's running server calls into its UI stream. Reports arrive from tools at
 * any time; the stream takes them between its own chunks. Per call only the latest report waits (a tool reporting
 * in a tight loop costs the client one chunk per read, not one per report), and a report goes out only while its
 * call is open in the stream: after the call's `tool-input-available`, before its result.
 */
export interface ProgressRelay {
  /** The executor's listener: keeps the call's latest report. */
  readonly report: (event: ToolProgressEvent) => void;
  /** The turn stream sent `chunk`: opens a call on its input, closes it (dropping what waits) on its result. */
  saw(chunk: UIMessageChunk): void;
  /** Whether a call is open (only then can a report arrive that the stream should wait for). */
  active(): boolean;
  /** The chunks to send now, one per open call with a waiting report; empties the queue. */
  take(): UIMessageChunk[];
  /** Resolves when a report for an open call is waiting (at once if one is). */
  arrived(): Promise<void>;
}

/** Creates the relay of one turn. */
export function createProgressRelay(): ProgressRelay {
  const open = new Set<string>();
  const waiting = new Map<string, ProgressPartData>();
  let wake: (() => void) | undefined;
  let signal: Promise<void> | undefined;

  const ready = () => {
    for (const id of waiting.keys()) if (open.has(id)) return true;
    return false;
  };

  return {
    report({ callId, toolName, progress }) {
      waiting.set(callId, { toolCallId: callId, toolName, ...progress });
      if (open.has(callId)) wake?.();
    },
    saw(chunk) {
      switch (chunk.type) {
        case 'tool-input-available':
          open.add(chunk.toolCallId);
          if (waiting.has(chunk.toolCallId)) wake?.();
          return;
        case 'tool-output-available':
          if (chunk.preliminary === true) return;
          open.delete(chunk.toolCallId);
          waiting.delete(chunk.toolCallId);
          return;
        case 'tool-output-error':
        case 'tool-output-denied':
          open.delete(chunk.toolCallId);
          waiting.delete(chunk.toolCallId);
          return;
        case 'finish':
        case 'abort':
        case 'error':
          open.clear();
          waiting.clear();
          return;
      }
    },
    active: () => open.size > 0,
    take() {
      const chunks: UIMessageChunk[] = [];
      for (const [id, data] of waiting) {
        if (!open.has(id)) continue;
        waiting.delete(id);
        chunks.push({ type: PROGRESS_PART, id, data, transient: true });
      }
      return chunks;
    },
    arrived() {
      if (ready()) return Promise.resolve();
      signal ??= new Promise<void>((resolve) => {
        wake = () => {
          wake = undefined;
          signal = undefined;
          resolve();
        };
      });
      return signal;
    },
  };
}
