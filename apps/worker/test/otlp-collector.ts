// Shared by the tracing tests (chat and MCP): what the local OTLP collector (collector.global-setup.ts) received.
import type { OtlpSpan, OtlpTraceRequest } from '@edgetool/core/otel';
import { inject } from 'vitest';

/** The collector's base URL; an endpoint `${collector}/<box>` keeps a test's posts apart from the others'. */
export const collector: string = inject('otlpCollector');
/** The trace and span ids of the `traceparent` the tests send. */
export const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
export const PARENT_ID = '00f067aa0ba902b7';

/** One export the collector received: its headers and body. */
export interface Received {
  readonly headers: Record<string, string>;
  readonly body: OtlpTraceRequest;
}

/** The exports a box received. */
export const received = async (box: string): Promise<Received[]> => (await (await fetch(`${collector}/${box}/received`)).json()) as Received[];
/** How many exports the collector received in all. */
export const count = async (): Promise<number> => ((await (await fetch(`${collector}/count`)).json()) as { count: number }).count;
/** Every span of some exports. */
export const spansOf = (posts: readonly Received[]): OtlpSpan[] => posts.flatMap((p) => p.body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
/** A span's attribute value. */
export const attribute = (span: OtlpSpan | undefined, key: string) => span?.attributes.find((a) => a.key === key)?.value;
