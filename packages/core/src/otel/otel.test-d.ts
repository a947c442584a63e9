import { describe, expectTypeOf, it } from 'vitest';
import type { RunContext } from '../context/run-context.ts';
import type { ExecutorOptions } from '../executor/executor.ts';
import type { ParentCall, TraceRecord } from '../interceptors/trace.ts';
import {
  createOtlpExporter,
  type OtlpEnvConfig,
  type OtlpExporter,
  type OtlpExporterOptions,
  type OtlpFlushResult,
  type OtlpTraceRequest,
  readOtlpEnv,
  setTraceparent,
  type TraceParent,
  toOtlpTraces,
} from './index.ts';

describe('otel types', () => {
  it('a record names the call it was made inside, optionally (a sub-agent’s call)', () => {
    expectTypeOf<TraceRecord['parent']>().toEqualTypeOf<ParentCall | undefined>();
    expectTypeOf<ParentCall['callId']>().toEqualTypeOf<string>();
    expectTypeOf<ParentCall['span']>().toEqualTypeOf<{ readonly start: number; readonly index: number } | undefined>();
  });

  it('the exporter plugs into onTrace, and a flush resolves with counts', () => {
    const exporter = createOtlpExporter({ url: 'http://127.0.0.1:4318/v1/traces', serviceName: 's' });
    expectTypeOf(exporter).toEqualTypeOf<OtlpExporter>();
    expectTypeOf(exporter.export).toExtend<NonNullable<ExecutorOptions['onTrace']>>();
    expectTypeOf(exporter.flush).returns.toEqualTypeOf<Promise<OtlpFlushResult>>();
    // @ts-expect-error serviceName is required
    createOtlpExporter({ url: 'http://127.0.0.1:4318/v1/traces' });
  });

  it('types the conversion, the env reader and the run helper', () => {
    expectTypeOf(toOtlpTraces).parameter(0).toEqualTypeOf<readonly TraceRecord[]>();
    expectTypeOf(toOtlpTraces).returns.toEqualTypeOf<OtlpTraceRequest>();
    // A Worker's Env is an interface without an index signature; process.env is a record: both are taken.
    interface Env {
      readonly OTEL_EXPORTER_OTLP_ENDPOINT?: string;
      readonly DB: { prepare(sql: string): unknown };
    }
    expectTypeOf(readOtlpEnv).toBeCallableWith({} as Env);
    expectTypeOf(readOtlpEnv).toBeCallableWith({} as Record<string, string | undefined>);
    expectTypeOf(setTraceparent).toBeCallableWith({} as RunContext<{ db: string }>, null);
    expectTypeOf<TraceParent['flags']>().toEqualTypeOf<number>();
  });

  it('what readOtlpEnv reads spreads into the exporter’s options, given a service name of your own', () => {
    expectTypeOf(readOtlpEnv).toBeCallableWith({}, { onWarning: (message: string) => void message });
    expectTypeOf<OtlpEnvConfig['timeoutMs']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<OtlpEnvConfig['resource']>().toEqualTypeOf<Readonly<Record<string, string>> | undefined>();
    expectTypeOf<OtlpEnvConfig & { serviceName: string }>().toExtend<OtlpExporterOptions>();
  });
});
