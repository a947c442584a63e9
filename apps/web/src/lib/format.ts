import { progressText, type ToolProgress } from '@edgetool/core';
import type { ToolCallStatus } from '@edgetool/react';

/** A duration for humans: `0.42 ms`, `12 ms`, `1.8 s`. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '–';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A value as readable JSON (strings as they are). */
export function formatValue(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The words a tool card shows for a status. */
export const STATUS_LABELS: Readonly<Record<ToolCallStatus, string>> = {
  'input-streaming': 'preparing',
  running: 'running',
  pending: 'queued',
  'awaiting-approval': 'needs approval',
  authorising: 'authorising',
  approved: 'approved',
  done: 'done',
  error: 'failed',
  denied: 'denied',
  interrupted: 'stopped',
};

/** The tone of a status pill. */
export function statusTone(status: ToolCallStatus): 'busy' | 'attention' | 'ok' | 'bad' | 'muted' {
  switch (status) {
    case 'input-streaming':
    case 'running':
    case 'pending':
    case 'authorising':
    case 'approved':
      return 'busy';
    case 'awaiting-approval':
      return 'attention';
    case 'done':
      return 'ok';
    case 'error':
    case 'denied':
      return 'bad';
    default:
      return 'muted';
  }
}

/** "+02:00" for an offset in minutes east of UTC. */
export function formatOffset(minutesEast: number): string {
  const sign = minutesEast >= 0 ? '+' : '-';
  const abs = Math.abs(minutesEast);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** What a tool card shows of a progress report: a line of text, and a bar when the total is known. */
export interface ProgressDisplay {
  readonly text: string;
  /** `<progress max value>`: `value` within `0..max`; absent when the report has no (positive) total. */
  readonly bar: { readonly value: number; readonly max: number } | undefined;
}

/** A progress report as a card shows it: the line `progressText` makes, and a bar when the total is known. */
export function progressDisplay(progress: ToolProgress): ProgressDisplay {
  const { completed, total } = progress;
  return {
    text: progressText(progress),
    bar: total !== undefined && total > 0 ? { value: Math.min(completed ?? 0, total), max: total } : undefined,
  };
}
