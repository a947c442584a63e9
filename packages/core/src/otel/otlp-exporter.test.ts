// The exporter's answer to Retry-After, on every runtime: a collector that asks for a wait (429 or 503, in seconds or as
// an HTTP date) gets no request before it, up to a minute, and nothing waits for it: no timer, no sleeping flush.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TraceRecord } from '../interceptors/trace.ts';
import { createOtlpExporter, type OtlpExportError } from './otlp-exporter.ts';

const record = (callId: string): TraceRecord => ({ traceId: callId, callId, toolName: 't', conversationId: '', input: {}, outcome: 'success', errorCode: undefined, attempts: 1, spans: [] });

/** Wall clock of the fake collector's dates: 2026-05-01T12:00:00Z plus the test's clock. */
const EPOCH = Date.UTC(2026, 4, 1, 12);

function setup(answers: { status: number; retryAfter?: string }[]) {
  let t = 0;
  const errors: OtlpExportError[] = [];
  const sent: number[] = [];
  const exporter = createOtlpExporter({
    url: 'https://collector.invalid/v1/traces',
    serviceName: 's',
    clock: () => t,
    now: () => EPOCH + t,
    onError: (error) => errors.push(error),
    fetch: async () => {
      sent.push(t);
      const answer = answers.shift() ?? { status: 200 };
      return new Response(answer.status === 200 ? '{}' : '{"message":"slow down"}', {
        status: answer.status,
        headers: answer.retryAfter === undefined ? {} : { 'retry-after': answer.retryAfter },
      });
    },
  });
  return {
    exporter,
    errors,
    sent,
    at: (ms: number) => {
      t = ms;
    },
  };
}

describe('createOtlpExporter: its url', () => {
  it('a url that is no http(s) URL is refused with a TypeError when the exporter is made (it failed every flush as network)', () => {
    const make = (url: string) => () => createOtlpExporter({ url, serviceName: 's', fetch: async () => new Response('{}') });
    for (const url of ['localhost:4318/v1/traces', 'ftp://collector.example/v1/traces', 'file:///tmp/traces']) {
      expect(make(url), url).toThrow(TypeError);
    }
    expect(make('grpc://collector:4317')).toThrow('createOtlpExporter: `url` must be an http:// or https:// URL; got "grpc://collector:4317".');
    for (const url of ['http://127.0.0.1:4318/v1/traces', 'https://otlp.example.com/v1/traces', 'HTTPS://OTLP.EXAMPLE.COM/v1/traces']) {
      expect(make(url), url).not.toThrow();
    }
    // A relative URL (a scheme without its colon is one) is what fetch makes of it: against the page's address in a
    // browser; with none (Node, a Worker), refused.
    for (const url of ['/v1/traces', 'http//collector']) {
      if (typeof location === 'undefined') expect(make(url), url).toThrow(TypeError);
      else expect(make(url), url).not.toThrow();
    }
  });
});

describe('createOtlpExporter and Retry-After', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a 429 with Retry-After in seconds: flushes before it send nothing and keep the calls; no timer is left behind', async () => {
    const { exporter, errors, sent, at } = setup([{ status: 429, retryAfter: '30' }]);
    exporter.export(record('c1'));
    expect(await exporter.flush()).toEqual({ exported: 0, failed: 0, retrying: 1, dropped: 0 });
    expect(errors[0]).toMatchObject({ reason: 'status', status: 429, retrying: true });
    expect(errors[0]?.message).toContain('kept for the next flush after 30 s (Retry-After)');
    expect(vi.getTimerCount()).toBe(0);
    exporter.export(record('c2'));
    at(29_999);
    expect(await exporter.flush()).toEqual({ exported: 0, failed: 0, retrying: 2, dropped: 0 });
    expect(sent).toEqual([0]);
    expect(errors).toHaveLength(1); // a flush that waits reports nothing: the 429 said it once
    expect(vi.getTimerCount()).toBe(0);
    at(30_000);
    expect(await exporter.flush()).toEqual({ exported: 2, failed: 0, retrying: 0, dropped: 0 });
    expect(sent).toEqual([0, 30_000]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a 503 with an HTTP date waits until then; one in the past waits for nothing', async () => {
    const { exporter, sent, at } = setup([
      { status: 503, retryAfter: new Date(EPOCH + 20_000).toUTCString() },
      { status: 503, retryAfter: new Date(EPOCH - 5_000).toUTCString() },
    ]);
    exporter.export(record('c1'));
    await exporter.flush();
    at(19_000);
    await exporter.flush();
    expect(sent).toEqual([0]);
    at(20_000);
    expect(await exporter.flush()).toMatchObject({ retrying: 1 });
    at(20_001);
    expect(await exporter.flush()).toMatchObject({ exported: 1 });
    expect(sent).toEqual([0, 20_000, 20_001]);
  });

  it('a wait longer than a minute is cut to a minute: a collector cannot silence the exporter for a day', async () => {
    const { exporter, sent, at } = setup([{ status: 429, retryAfter: '86400' }]);
    exporter.export(record('c1'));
    await exporter.flush();
    at(59_999);
    await exporter.flush();
    at(60_000);
    expect(await exporter.flush()).toMatchObject({ exported: 1 });
    expect(sent).toEqual([0, 60_000]);
  });

  it('only 429 and 503 are waited for: a 502 with Retry-After is retried at the next flush, a 500 dropped, a bad value ignored', async () => {
    const { exporter, sent, at } = setup([
      { status: 502, retryAfter: '30' },
      { status: 429, retryAfter: 'soon' },
      { status: 500, retryAfter: '30' },
    ]);
    exporter.export(record('c1'));
    expect(await exporter.flush()).toMatchObject({ retrying: 1 });
    at(1);
    expect(await exporter.flush()).toMatchObject({ retrying: 1 });
    at(2);
    expect(await exporter.flush()).toMatchObject({ failed: 1 });
    exporter.export(record('c2'));
    at(3);
    expect(await exporter.flush()).toMatchObject({ exported: 1 });
    expect(sent).toEqual([0, 1, 2, 3]);
  });
});

describe('createOtlpExporter while the collector is down', () => {
  it('a flush makes spans of the batch it tries, not of the whole queue: a backlog costs each failing flush one batch', async () => {
    let made = 0;
    /** A record that counts how often it is made into spans (each time reads its layers once). */
    const counted = (callId: string): TraceRecord => ({
      ...record(callId),
      get spans() {
        made++;
        return [];
      },
    });
    const answers = [503, 503, 200, 200, 200, 200, 200];
    const sent: string[][] = [];
    const exporter = createOtlpExporter({
      url: 'https://collector.invalid/v1/traces',
      serviceName: 's',
      maxBatchSpans: 2,
      onError: () => {},
      fetch: async (_url, init) => {
        const body = JSON.parse(String(init.body)) as { resourceSpans: { scopeSpans: { spans: { attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[] };
        sent.push(body.resourceSpans[0]?.scopeSpans[0]?.spans.map((s) => s.attributes.find((a) => a.key === 'gen_ai.tool.call.id')?.value.stringValue ?? '') ?? []);
        return new Response('{}', { status: answers.shift() ?? 200 });
      },
    });
    for (let i = 1; i <= 10; i++) exporter.export(counted(`c${i}`));
    // The batch it sends, and the call after it (to know the batch is full): 3, not 10.
    expect(await exporter.flush()).toEqual({ exported: 0, failed: 0, retrying: 10, dropped: 0 });
    expect(made).toBe(3);
    expect(await exporter.flush()).toEqual({ exported: 0, failed: 0, retrying: 10, dropped: 0 });
    expect(made).toBe(6);
    // Back: everything goes, in order, each call once.
    expect(await exporter.flush()).toEqual({ exported: 10, failed: 0, retrying: 0, dropped: 0 });
    expect(sent.slice(2)).toEqual([['c1', 'c2'], ['c3', 'c4'], ['c5', 'c6'], ['c7', 'c8'], ['c9', 'c10']]);
    expect(exporter.pending).toBe(0);
  });
});
