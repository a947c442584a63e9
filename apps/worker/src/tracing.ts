import type { TraceRecord } from '@edgetool/core';
import { createOtlpExporter, type OtlpExporter, readOtlpEnv } from '@edgetool/core/otel';
import type { Env } from './env.ts';

/** What the demo's agents get when OTLP export is on: the exporter, and its `onTrace`. */
export interface DemoTracing {
  readonly exporter: OtlpExporter;
  readonly onTrace: (record: TraceRecord) => void;
}

/** One exporter per `env` (per isolate in practice): its queue outlives a request, and every request's turn flushes it. */
const tracings = new WeakMap<Env, DemoTracing | null>();

/**
 * OTLP export from the standard variables (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_HEADERS`,
 * `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_EXPORTER_OTLP_TIMEOUT`: see `readOtlpEnv`), or `undefined` when no
 * endpoint is set or `OTEL_SDK_DISABLED`/`OTEL_TRACES_EXPORTER` turn it off. An endpoint that is not a URL turns it off with one
 * log line: tracing must not take the chat down.
 */
export function demoTracing(env: Env): DemoTracing | undefined {
  let tracing = tracings.get(env);
  if (tracing === undefined) {
    tracing = null;
    try {
      const config = readOtlpEnv(env);
      if (config !== undefined) {
        const exporter = createOtlpExporter({ ...config, serviceName: config.serviceName ?? 'edgetool-demo' });
        tracing = { exporter, onTrace: exporter.export };
      }
    } catch (error) {
      console.error(`OTLP export is off: ${error instanceof Error ? error.message : String(error)}`);
    }
    tracings.set(env, tracing);
  }
  return tracing ?? undefined;
}
