import { documentPart, imagePart, progressText, type ToolProgress } from '@edgetool/core';
import type { MessageUsage, TurnLimit } from '@edgetool/ai';
import { type CallTrace, subCallRows, type ToolCallStatus } from '@edgetool/react';

/**
 * A duration for humans: `0.42 ms`, `12 ms`, `1.8 s`. A measurement of 0 is `< 1 ms`: the clock that timed it did not
 * move, which is not zero (a Worker's clock counts whole milliseconds, a browser's is coarsened; see
 * {@link durationTitle}); one that rounds to 0.00 is `< 0.01 ms`.
 */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '–';
  if (ms === 0) return '< 1 ms';
  if (ms < 0.005) return '< 0.01 ms';
  // Each unit up to the value that would round to the next one: 999.6 ms is "1.0 s", not "1000 ms".
  if (ms < 0.995) return `${ms.toFixed(2)} ms`;
  if (ms < 999.5) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Why a duration of 0 is shown as `< 1 ms`, for its title: what the clock of the side that timed it can tell.
 * `undefined` for any other duration (its figure says what was measured).
 */
export function durationTitle(ms: number | undefined, side: 'server' | 'client' | undefined): string | undefined {
  if (ms !== 0) return undefined;
  return side === 'client'
    ? "Timed as 0: this browser's clock is coarsened (to 0.1 ms in Chromium, more in some browsers), so the call took less than it shows."
    : "Timed as 0: a Worker's clock counts whole milliseconds, so the call took less than one. Deployed on Cloudflare the clock " +
        'moves only at I/O (a Spectre mitigation), so there a call that only computes reads 0 however long it computed.';
}

/**
 * The tokens an answer used, from its metadata (`metadata.usage`, which the server sends with `finish`: every request
 * of the answer), or a call, from its trace (what the tool reported spending): a short label and a longer title;
 * `undefined` when the total is unknown.
 */
export function formatUsage(usage: MessageUsage | undefined, of = 'this answer'): { readonly label: string; readonly title: string } | undefined {
  // Metadata a server sent, or a saved message: a count that is not a finite number from 0 is not shown (a `null` one threw).
  const n = (count: unknown) => (typeof count === 'number' && Number.isFinite(count) && count >= 0 ? count.toLocaleString('en-US') : undefined);
  const total = n(usage?.totalTokens);
  if (usage === undefined || total === undefined) return undefined;
  const part = (count: unknown, words: string, zero = true) => (n(count) === undefined || (!zero && count === 0) ? undefined : `${n(count)} ${words}`);
  const details = [
    part(usage.inputTokens, 'in'),
    part(usage.cachedInputTokens, 'of them cached', false),
    part(usage.outputTokens, 'out'),
    part(usage.reasoningTokens, 'of them reasoning', false),
  ].filter((text) => text !== undefined);
  return { label: `${total} tokens`, title: details.length ? `Tokens of ${of}: ${details.join(', ')}` : `Tokens of ${of}` };
}

/**
 * Why an answer ended before the model wrote it, from its metadata (`metadata.limit`): the server stopped the turn at
 * its step limit or its token budget. `undefined` when it did not (or the value is not one the server sends). `shows`:
 * the answer shows anything (text, a tool call); one that stopped at the token budget showing nothing was not sent to
 * the model at all (the server estimated the conversation over the budget), and asking again would meet the same.
 */
export function limitNote(limit: TurnLimit | undefined, shows = true): string | undefined {
  if (limit === 'steps') return 'Stopped: this answer reached the most model steps one turn may take. Ask again to go on.';
  if (limit === 'tokens' && !shows) {
    return 'Not sent to the model: this conversation is longer than one turn’s token budget allows. Start a new chat to go on.';
  }
  if (limit === 'tokens') return 'Stopped: this answer used the most tokens one turn may use. Ask again to go on.';
  return undefined;
}

/** A value as readable JSON (strings as they are). */
export function formatValue(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return jsonText(value, 2);
}

/** What the card shows of a value that has no text: nested deeper than this browser can write out. */
export const UNSHOWABLE = '(this value is nested too deeply to show)';

/**
 * `JSON.stringify(value, null, indent)` that never throws, for values a server sent (arguments, outputs): one JSON
 * cannot hold (a cycle) reads as `String(value)`, and one nested deeper than the engine can write as
 * {@link UNSHOWABLE}: `JSON.parse` reads any depth, but where `JSON.stringify` recurses (Node 24's V8; Chromium 156's
 * writes any depth) a server's arguments 10,000 lists deep threw, and so did `String`, while a card rendered.
 */
export function jsonText(value: unknown, indent?: number): string {
  try {
    return JSON.stringify(value, null, indent) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      return UNSHOWABLE;
    }
  }
}

/** An image a tool returned, ready for an `<img>`. */
export interface OutputImage {
  /** Where it is in the output: `output`, or the field or list index that holds it. */
  readonly at: string;
  readonly src: string;
  readonly mediaType: string;
}

/**
 * An image part (`imagePart()`: `{ type: 'image', data, mediaType }`, or MCP's `{ type: 'image', data, mimeType }`)
 * that passes the core's own check of image parts (a raster type models take, base64 data); `undefined` for anything
 * else (an SVG, which could carry script, included).
 */
function asImage(value: unknown, at = 'output'): OutputImage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { type, data, mediaType, mimeType } = value as Record<string, unknown>;
  const kind = mediaType ?? mimeType;
  if (type !== 'image' || typeof data !== 'string' || typeof kind !== 'string') return undefined;
  try {
    imagePart(data, kind);
  } catch {
    return undefined;
  }
  return { at, src: `data:${kind};base64,${data}`, mediaType: kind };
}

/** What `read` finds in a tool's output: the output itself, or its fields and list items one level down. */
function findInOutput<T>(output: unknown, read: (value: unknown, at?: string) => T | undefined): T[] {
  const own = read(output);
  if (own !== undefined) return [own];
  if (typeof output !== 'object' || output === null) return [];
  return Object.entries(output).flatMap(([key, value]) => {
    const found = read(value, key);
    return found === undefined ? [] : [found];
  });
}

/** The images in a tool's output: the output itself, or its fields and list items one level down. */
export function outputImages(output: unknown): OutputImage[] {
  return findInOutput(output, asImage);
}

/** A PDF a tool returned, ready for a link that opens it (from a `blob:` URL the card makes, never a `data:` URL). */
export interface OutputDocument {
  /** Where it is in the output: `output`, or the field or list index that holds it. */
  readonly at: string;
  /** Base64, as the part holds it. */
  readonly data: string;
  readonly mediaType: string;
  readonly filename: string | undefined;
  /** Its size in bytes (decoded). */
  readonly size: number;
  /** What the link says: `Open invoice-A-1001.pdf (1.2 KB)`. */
  readonly label: string;
}

/**
 * A document part (`documentPart()`: `{ type: 'document', data, mediaType, filename? }`) that passes the core's own
 * check of document parts (application/pdf, base64 data with a `%PDF-` header, a plain file name); `undefined` for
 * anything else.
 */
function asDocument(value: unknown, at = 'output'): OutputDocument | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { type, data, mediaType, filename } = value as Record<string, unknown>;
  if (type !== 'document' || typeof data !== 'string' || typeof mediaType !== 'string') return undefined;
  try {
    documentPart(data, mediaType, filename as string | undefined);
  } catch {
    return undefined;
  }
  const name = typeof filename === 'string' ? filename : undefined;
  const size = base64Size(data);
  return { at, data, mediaType, filename: name, size, label: `Open ${name ?? 'the PDF'} (${formatBytes(size)})` };
}

/** The PDFs in a tool's output: the output itself, or its fields and list items one level down. */
export function outputDocuments(output: unknown): OutputDocument[] {
  return findInOutput(output, asDocument);
}

/** The bytes of standard base64 (what a document part holds), for a `Blob`. */
export function base64Bytes(data: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(data), (char) => char.charCodeAt(0));
}

/** How many bytes standard padded base64 holds. */
function base64Size(data: string): number {
  return Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
}

/** A size for humans: `850 B`, `1.2 KB`, `3.4 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1023.95 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * The output for its JSON view, the base64 of each image and PDF replaced by a short note with the file's size (the
 * card shows the image itself, and a link that opens the PDF).
 */
export function withoutFileData(output: unknown): unknown {
  const short = (value: unknown): unknown => {
    const file = asImage(value) ?? asDocument(value);
    if (file === undefined) return value;
    const { data } = value as { data: string };
    return { ...(value as object), data: `<${file.mediaType}, ${formatBytes(base64Size(data))} of base64>` };
  };
  const own = short(output);
  if (own !== output) return own;
  if (typeof output !== 'object' || output === null) return output;
  return Array.isArray(output) ? output.map(short) : Object.fromEntries(Object.entries(output).map(([key, value]) => [key, short(value)]));
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
  expired: 'expired',
};

/**
 * The words of a card's status pill. An approved call in an answer that streams says `running`: its continuation is out
 * and the server runs it before the model reads anything (the thinking indicator stays away meanwhile, see
 * `awaitsContent`); once the answer is over it says `approved` again (sent, no outcome came). A decision the server
 * refused for good (`state.refused`, see `refusedContinuation`) says `refused`: "approved" beside the card's note that
 * the approval was refused said what the user chose, not what became of it (nothing ran).
 */
export function statusLabel(status: ToolCallStatus, state: { readonly streaming: boolean; readonly refused?: boolean | undefined }): string {
  if (state.refused === true && (status === 'approved' || status === 'denied')) return REFUSED_LABEL;
  return status === 'approved' && state.streaming ? STATUS_LABELS.running : STATUS_LABELS[status];
}

/** The pill of a card whose decision (an approval, a denial) the server refused for good. */
export const REFUSED_LABEL = 'refused';

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

/**
 * The label of a call card's folded trace: what unfolding it shows, the layers of each chain and, for an agent call, the
 * calls of its sub-agent (nested agents' too, and those the server left out, which it shows as "… N more calls").
 */
export function traceToggleLabel(traces: readonly CallTrace[]): string {
  let spans = 0;
  let calls = 0;
  for (const trace of traces) {
    spans += trace.spans.length;
    const rows = subCallRows(trace);
    calls += rows.length + (trace.omittedCalls ?? 0) + rows.reduce((n, row) => n + row.omittedCalls, 0);
  }
  const label = `Trace · ${spans} ${spans === 1 ? 'span' : 'spans'}`;
  return calls === 0 ? label : `${label} · ${calls} sub-agent ${calls === 1 ? 'call' : 'calls'}`;
}
