import { isTimerDelay, MAX_TIMER_MS } from '../interceptors/timer-delay.ts';
import type { TraceRecord } from '../interceptors/trace.ts';
import type { OtlpSpan, OtlpSpanOptions, RecordTime } from './otlp-json.ts';
import { recordSpans, recordTimeNow, traceRequest } from './record-spans.ts';
import { parseTraceparent } from './trace-context.ts';

/** Options for {@link createOtlpExporter}. */
export interface OtlpExporterOptions extends OtlpSpanOptions {
  /**
   * The collector's traces URL, used as is (`https://otlp.example.com/v1/traces`; see `readOtlpEnv`); else a TypeError.
   * A redirect from it is an error, not followed: the headers (an API key) would go wherever it points.
   */
  readonly url: string;
  /** Sent with every export (an API key, `authorization`). `content-type` is always `application/json`. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Sends the requests (default: the global `fetch`); a service binding's `fetch` in a Worker, a stub in tests. */
  readonly fetch?: ((input: string, init: RequestInit) => Promise<Response>) | undefined;
  /** The most calls waiting to be sent (default 2,048); a full queue drops its oldest, counted in the next flush. */
  readonly maxQueue?: number | undefined;
  /** The most spans in one request (default 512); a flush sends as many requests as it needs, one after another. */
  readonly maxBatchSpans?: number | undefined;
  /**
   * How long one request may take, its answer included (default 10,000 ms, at most 2^31 − 1); then it counts as a
   * failure worth retrying.
   */
  readonly timeoutMs?: number | undefined;
  /** Receives every failure to export (default: `console.warn`). Exporting never throws and `flush()` never rejects. */
  readonly onError?: ((error: OtlpExportError) => void) | undefined;
  /** The clock the spans were timed with (default `performance.now()`, the executor's); pass the executor's `clock` if you gave it one. */
  readonly clock?: (() => number) | undefined;
  /** The wall clock in Unix milliseconds (default `Date.now`). */
  readonly now?: (() => number) | undefined;
}

/** What one {@link OtlpExporter.flush} did, counted in calls (trace records). */
export interface OtlpFlushResult {
  /** Calls the collector accepted. */
  readonly exported: number;
  /** Calls given up on: the collector refused them with a status that must not be retried, or they could not be converted. */
  readonly failed: number;
  /** Calls kept for the next flush after a failure worth retrying: 429, 502, 503, 504, no answer, a time-out. */
  readonly retrying: number;
  /** Calls the full queue dropped (its oldest) since the previous flush. */
  readonly dropped: number;
}

/** Sends trace records to an OpenTelemetry collector over OTLP/HTTP with the JSON encoding. */
export interface OtlpExporter {
  /**
   * Queues a finished call's record: `onTrace: exporter.export`. Synchronous and cheap (the spans are made when they
   * are sent), never throws. A call whose `traceparent` says its trace is not sampled is left out, as the caller decided.
   */
  export(record: TraceRecord): void;
  /**
   * Sends what is queued, in requests of at most `maxBatchSpans` spans. Resolves when they are answered (or time out),
   * never rejects: failures go to `onError`. In a Worker: `ctx.waitUntil(exporter.flush())` once the turn is over.
   */
  flush(): Promise<OtlpFlushResult>;
  /** Calls queued and not yet sent. */
  readonly pending: number;
}

/** Why an export failed. */
export type OtlpExportFailure =
  /** The collector answered an error status (`status`); 429, 502, 503 and 504 are retried at the next flush. */
  | 'status'
  /** The collector could not be reached, or the connection broke before an answer: retried at the next flush. */
  | 'network'
  /** No answer within `timeoutMs`: retried at the next flush. */
  | 'timeout'
  /** The collector accepted the request but rejected some spans (OTLP partial success); never retried. */
  | 'partial-success'
  /** The queue was full and dropped its oldest calls. */
  | 'queue-full'
  /** A record could not be made into spans (not a trace record); dropped. */
  | 'invalid-record';

/** A failure to export, as `onError` receives it. */
export class OtlpExportError extends Error {
  readonly reason: OtlpExportFailure;
  /** The HTTP status, when the collector answered. */
  readonly status: number | undefined;
  /** How many calls (trace records) it concerns. */
  readonly records: number;
  /** The calls stay queued for the next flush. */
  readonly retrying: boolean;

  constructor(reason: OtlpExportFailure, message: string, options: { status?: number | undefined; records: number; retrying: boolean; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'OtlpExportError';
    this.reason = reason;
    this.status = options.status;
    this.records = options.records;
    this.retrying = options.retrying;
  }
}

/** The OTLP/HTTP statuses a client should retry; every other error status must not be (OTLP specification). */
const RETRYABLE = new Set([429, 502, 503, 504]);
/** The longest `Retry-After` (of a 429 or 503) honoured: a collector must not silence the exporter for a day. */
const MAX_RETRY_AFTER_MS = 60_000;
const MAX_MESSAGE = 300;
/** The most of an answer read: enough for an error's message or a partial success, never a body that fills memory. */
const MAX_ANSWER_BYTES = 64 * 1024;

interface Entry {
  readonly record: TraceRecord;
  readonly at: RecordTime;
}

type Sent = { readonly ok: true } | { readonly ok: false; readonly error: OtlpExportError; readonly wait?: number | undefined };

const TIMED_OUT: unique symbol = Symbol('timed out');

/**
 * Exports edgetool's traces to any OpenTelemetry collector or backend that takes OTLP/HTTP JSON (an OTel Collector,
 * Grafana, Honeycomb, Jaeger), with `fetch` only: no OTel SDK, no async context store, no timer left running, so it
 * works the same in a Worker, a browser and Node. Records wait in a bounded queue until `flush()`.
 */
/* @__NO_SIDE_EFFECTS__ */
export function createOtlpExporter(options: OtlpExporterOptions): OtlpExporter {
  const { url, timeoutMs = 10_000, maxQueue = 2048, maxBatchSpans = 512 } = options;
  // A URL fetch cannot send (no http(s) scheme) failed every flush as `network` and was retried for ever. A relative one
  // is read as fetch reads it: against the page's address in a browser; where there is none (a Worker), it is refused.
  let protocol: string | undefined;
  try {
    protocol = new URL(url, (globalThis as { location?: { href: string } }).location?.href).protocol;
  } catch {}
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new TypeError(`createOtlpExporter: \`url\` must be an http:// or https:// URL; got ${JSON.stringify(String(url))}.`);
  }
  // A delay `setTimeout` cannot keep fires after 1 ms: every request would time out, and nothing would be exported.
  if (!isTimerDelay(timeoutMs)) {
    throw new TypeError(`createOtlpExporter: \`timeoutMs\` must be a number of milliseconds from 1 to ${MAX_TIMER_MS}; got ${String(timeoutMs)}.`);
  }
  for (const [name, value] of [['maxQueue', maxQueue], ['maxBatchSpans', maxBatchSpans]] as const) {
    // NaN compares false with everything: a NaN `maxQueue` would never drop, a queue without a bound.
    if (!(value >= 1) || (value !== Infinity && !Number.isInteger(value))) {
      throw new TypeError(`createOtlpExporter: \`${name}\` must be a whole number from 1; got ${String(value)}.`);
    }
  }
  const send = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
  const clock = options.clock ?? (() => performance.now());
  const now = options.now ?? Date.now;
  // A Headers object: a caller's `Content-Type` must be replaced, not joined to ours.
  const headers = new Headers(options.headers);
  headers.set('content-type', 'application/json');
  const queue: Entry[] = [];
  let dropped = 0;
  /** The collector's `Retry-After`: no request before this moment on `clock` (a flush before it sends nothing). */
  let resumeAt = Number.NEGATIVE_INFINITY;

  function report(error: OtlpExportError): void {
    try {
      if (options.onError !== undefined) options.onError(error);
      else console.warn(`edgetool OTLP export: ${error.message}`);
    } catch {
      // A broken listener must not fail the flush.
    }
  }

  /** Puts entries back in front (they are the oldest), dropping the oldest beyond `maxQueue`. */
  function requeue(entries: readonly Entry[]): void {
    queue.unshift(...entries);
    if (queue.length > maxQueue) dropped += queue.splice(0, queue.length - maxQueue).length;
  }

  /** One POST, bounded by `timeoutMs` whatever `fetch` does with its signal; resolves, never rejects. */
  async function post(body: string, records: number): Promise<Sent> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve(TIMED_OUT);
      }, timeoutMs);
    });
    const fail = (reason: OtlpExportFailure, message: string, status?: number, cause?: unknown, wait?: number): Sent => {
      const retrying = reason !== 'status' || RETRYABLE.has(status as number);
      const kept = wait ? `, kept for the next flush after ${Math.ceil(wait / 1000)} s (Retry-After)` : ', kept for the next flush';
      return {
        ok: false,
        wait,
        error: new OtlpExportError(reason, `${message} (${records} call${records === 1 ? '' : 's'}${retrying ? kept : ', dropped'})`, { status, records, retrying, cause }),
      };
    };
    try {
      // A redirect is not followed: fetch sent the headers (an API key) on to whatever origin it named, and turned a
      // 301's POST into a GET whose 200 (a web page) read as exported. It is an error status that is not retried.
      const response = await Promise.race([send(url, { method: 'POST', headers, body, redirect: 'manual', signal: controller.signal }), expired]);
      if (response === TIMED_OUT) return fail('timeout', `${url} did not answer within ${timeoutMs} ms`);
      // The status decides: the body only explains it (an error's message, a partial success). One that breaks off or
      // never ends must not make an accepted export one to send again (twice in the backend), or a refused one retried.
      const read = await Promise.race([startOf(response), expired]);
      const text = read === TIMED_OUT ? '' : read;
      if (!response.ok) {
        // OTLP: a 429 or 503 may say how long to wait (seconds, or an HTTP date); honoured up to a minute.
        const wait = response.status === 429 || response.status === 503 ? retryAfter(response.headers.get('retry-after'), now()) : undefined;
        // A browser shows a redirect as status 0 and hides where it points.
        const to = response.headers.get('location');
        const moved = response.status < 400 ? ` (a redirect${to === null ? '' : ` to ${to}`}, which the exporter does not follow)` : '';
        return fail('status', `${url} answered ${response.status}${moved}${text === '' ? '' : `: ${text.slice(0, MAX_MESSAGE)}`}`, response.status, undefined, wait);
      }
      const partial = partialSuccess(text);
      if (partial !== undefined) {
        const message = `${url} rejected ${partial.rejected} span${partial.rejected === 1 ? '' : 's'}${partial.message === '' ? '' : `: ${partial.message.slice(0, MAX_MESSAGE)}`}`;
        report(new OtlpExportError('partial-success', message, { status: response.status, records, retrying: false }));
      }
      return { ok: true };
    } catch (error) {
      return fail('network', `${url} could not be reached: ${error instanceof Error ? error.message : String(error)}`, undefined, error);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  }

  async function flush(): Promise<OtlpFlushResult> {
    const lost = dropped;
    dropped = 0;
    if (lost > 0) report(new OtlpExportError('queue-full', `the queue was full: ${lost} call${lost === 1 ? '' : 's'} dropped (maxQueue ${maxQueue})`, { records: lost, retrying: false }));
    // The collector asked for a wait: everything stays queued, and nothing (no timer) waits for it.
    if (clock() < resumeAt) return { exported: 0, failed: 0, retrying: queue.length, dropped: lost };
    // Everything queued now; calls exported while this flush runs wait for the next one. Calls are made into spans as
    // their batch is sent: while the collector is down, a flush makes one batch (and the call after it), not the whole
    // queue, to fail once (a backlog of 2,048 calls took some 100 ms of CPU each flush, in a Worker each request's).
    const entries = queue.splice(0);
    let exported = 0;
    let failed = 0;
    let i = 0;
    /** The next call that can be made into spans, with them; `undefined` once none is left. */
    const take = (): { entry: Entry; spans: OtlpSpan[] } | undefined => {
      while (i < entries.length) {
        const entry = entries[i++] as Entry;
        try {
          return { entry, spans: recordSpans(entry.record, entry.at, options) };
        } catch (error) {
          failed++;
          report(new OtlpExportError('invalid-record', `a record could not be made into spans: ${error instanceof Error ? error.message : String(error)}`, { records: 1, retrying: false, cause: error }));
        }
      }
      return undefined;
    };
    let next = take();
    while (next !== undefined) {
      const batch: Entry[] = [];
      const spans: OtlpSpan[] = [];
      // At least one call per request, however many layers it has.
      do {
        batch.push(next.entry);
        spans.push(...next.spans);
        next = take();
      } while (next !== undefined && spans.length + next.spans.length <= maxBatchSpans);
      const sent = await post(JSON.stringify(traceRequest(spans, options)), batch.length);
      if (sent.ok) {
        exported += batch.length;
        continue;
      }
      report(sent.error);
      if (sent.wait !== undefined) resumeAt = clock() + sent.wait;
      if (sent.error.retrying) {
        // This batch and the rest wait for the next flush: a collector that is down would fail them too.
        const rest = [...batch, ...(next === undefined ? [] : [next.entry]), ...entries.slice(i)];
        requeue(rest);
        return { exported, failed, retrying: rest.length, dropped: lost };
      }
      failed += batch.length;
    }
    return { exported, failed, retrying: 0, dropped: lost };
  }

  return {
    export(record: TraceRecord): void {
      try {
        const parent = parseTraceparent(record.traceId);
        if (parent !== undefined && (parent.flags & 0x01) === 0) return;
        queue.push({ record, at: recordTimeNow(clock, now) });
        if (queue.length > maxQueue) {
          queue.shift();
          dropped++;
        }
      } catch {
        // Exporting must never fail a call.
      }
    },
    flush,
    get pending(): number {
      return queue.length;
    },
  };
}

/**
 * The start of an answer's body as text, at most {@link MAX_ANSWER_BYTES} (the rest is cancelled); `''` when it breaks
 * off. It was read whole: a URL that answers 200 with a large file filled a Worker's memory until `timeoutMs`.
 */
async function startOf(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    for (;;) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) return text + decoder.decode();
      bytes += chunk.value.byteLength;
      text += decoder.decode(chunk.value, { stream: true });
      if (bytes >= MAX_ANSWER_BYTES) {
        reader?.cancel().catch(() => {});
        return text;
      }
    }
  } catch {
    return '';
  }
}

/** A `Retry-After` (delay-seconds, or an HTTP date after `nowMs`) in ms, from 0 to a minute; `undefined` when unreadable. */
function retryAfter(value: string | null, nowMs: number): number | undefined {
  const text = value?.trim() ?? '';
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text) - nowMs;
  return Number.isNaN(ms) ? undefined : Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** The `partialSuccess` of an OTLP JSON answer, when it reports rejected spans or a message. */
function partialSuccess(text: string): { rejected: number; message: string } | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const partial = (body as { partialSuccess?: { rejectedSpans?: unknown; errorMessage?: unknown } } | null)?.partialSuccess;
  if (typeof partial !== 'object' || partial === null) return undefined;
  const rejected = Number(partial.rejectedSpans ?? 0);
  const message = typeof partial.errorMessage === 'string' ? partial.errorMessage : '';
  return (Number.isFinite(rejected) && rejected > 0) || message !== '' ? { rejected: Number.isFinite(rejected) ? rejected : 0, message } : undefined;
}
