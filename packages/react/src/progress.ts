import { PROGRESS_PART } from '@edgetool/ai';
import { type ToolProgress, toToolProgress } from '@edgetool/core';

/** The latest progress report of each call, by tool call id. */
export type ProgressByCall = ReadonlyMap<string, ToolProgress>;

/**
 * Reads a `data-edgetool-progress` chunk (`useChat`'s `onData`) as the call it is about and its report. Anything
 * else, or a report that is not a {@link ToolProgress}, is `undefined`: a UI never renders what it cannot check.
 */
export function readProgressPart(part: { readonly type: string; readonly data?: unknown }): { toolCallId: string; progress: ToolProgress } | undefined {
  if (part.type !== PROGRESS_PART || typeof part.data !== 'object' || part.data === null) return undefined;
  const { toolCallId } = part.data as { toolCallId?: unknown };
  if (typeof toolCallId !== 'string') return undefined;
  try {
    return { toolCallId, progress: toToolProgress(part.data) };
  } catch {
    return undefined;
  }
}

/** Collects reports and hands them over at most once per `schedule` tick (a frame in browsers). */
export interface ProgressBuffer {
  add(toolCallId: string, progress: ToolProgress): void;
  /** Drops what waits and cancels the tick (unmount); a later `add` starts over (React's StrictMode remounts). */
  dispose(): void;
}

/** The default tick: the next animation frame where there is one, else a 16 ms timer. */
function nextFrame(callback: () => void): () => void {
  if (typeof requestAnimationFrame === 'function') {
    const id = requestAnimationFrame(callback);
    return () => cancelAnimationFrame(id);
  }
  const id = setTimeout(callback, 16);
  return () => clearTimeout(id);
}

/**
 * Coalesces progress reports so a tool that reports a thousand times a second costs a render per frame:
 * `flush` receives the latest report of each call that reported since the last tick.
 */
export function createProgressBuffer(flush: (reports: ProgressByCall) => void, schedule: (callback: () => void) => () => void = nextFrame): ProgressBuffer {
  let waiting = new Map<string, ToolProgress>();
  let cancel: (() => void) | undefined;
  return {
    add(toolCallId, progress) {
      waiting.set(toolCallId, progress);
      cancel ??= schedule(() => {
        cancel = undefined;
        const reports = waiting;
        waiting = new Map();
        flush(reports);
      });
    },
    dispose() {
      cancel?.();
      cancel = undefined;
      waiting = new Map();
    },
  };
}
