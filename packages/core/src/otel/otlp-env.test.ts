import { describe, expect, it } from 'vitest';
import { createOtlpExporter } from './otlp-exporter.ts';
import { readOtlpEnv } from './otlp-env.ts';

describe('readOtlpEnv', () => {
  it('is off without an endpoint', () => {
    expect(readOtlpEnv({})).toBeUndefined();
    expect(readOtlpEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ', OTEL_EXPORTER_OTLP_HEADERS: 'a=b' })).toBeUndefined();
  });

  it('is off with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none, and refuses grpc (JSON went to a gRPC port and failed every export)', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    expect(readOtlpEnv({ ...endpoint, OTEL_SDK_DISABLED: 'TRUE' })).toBeUndefined();
    expect(readOtlpEnv({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
    expect(readOtlpEnv({ ...endpoint, OTEL_SDK_DISABLED: 'false', OTEL_TRACES_EXPORTER: 'otlp' })?.url).toBe('http://127.0.0.1:4318/v1/traces');
    for (const protocol of ['http/json', 'http/protobuf']) expect(readOtlpEnv({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: protocol })).toBeDefined();
    expect(() => readOtlpEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      'OTEL_EXPORTER_OTLP_PROTOCOL is grpc, but this exporter posts OTLP as JSON over HTTP',
    );
    // The traces variable wins over the general one, as for the endpoint.
    expect(readOtlpEnv({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' })).toBeDefined();
  });

  it('exports only when OTEL_TRACES_EXPORTER (a comma-separated list) names otlp: console or zipkin alone is not a yes', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    for (const exporters of ['console', 'zipkin', 'console, zipkin', 'none,otlp', ' NONE ']) {
      expect(readOtlpEnv({ ...endpoint, OTEL_TRACES_EXPORTER: exporters }), exporters).toBeUndefined();
    }
    for (const exporters of ['otlp', 'console,otlp', ' OTLP , console', '']) {
      expect(readOtlpEnv({ ...endpoint, OTEL_TRACES_EXPORTER: exporters })?.url, exporters).toBe('http://127.0.0.1:4318/v1/traces');
    }
  });

  it('appends /v1/traces to the base endpoint, and takes the traces endpoint as is', () => {
    expect(readOtlpEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })?.url).toBe('http://127.0.0.1:4318/v1/traces');
    expect(readOtlpEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otlp.example.com/otlp/' })?.url).toBe('https://otlp.example.com/otlp/v1/traces');
    // A query on the base stays at the end (it read `…/?tenant=a/v1/traces`).
    expect(readOtlpEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h:4318/?tenant=a' })?.url).toBe('http://h:4318/v1/traces?tenant=a');
    expect(readOtlpEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h:4318/otlp?tenant=a#x' })?.url).toBe('http://h:4318/otlp/v1/traces?tenant=a#x');
    expect(readOtlpEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://a.example', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b.example/custom' })?.url).toBe('https://b.example/custom');
  });

  it('reads headers as key=value pairs, percent-decoded, the traces ones over the others', () => {
    const config = readOtlpEnv({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Basic%20dXNlcjpwYXNz, x-team = one ,broken,bad name=x,x-keep=a=b',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-team=two',
      OTEL_SERVICE_NAME: 'orders',
    });
    expect(config).toEqual({
      url: 'http://127.0.0.1:4318/v1/traces',
      headers: { authorization: 'Basic dXNlcjpwYXNz', 'x-team': 'two', 'x-keep': 'a=b' },
      serviceName: 'orders',
    });
  });

  it('keeps a value that is not percent-encoded as written, and ignores what is not a string', () => {
    expect(readOtlpEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h', OTEL_EXPORTER_OTLP_HEADERS: 'k=100%' })?.headers).toEqual({ k: '100%' });
    expect(readOtlpEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h', OTEL_SERVICE_NAME: 42 })?.serviceName).toBeUndefined();
    expect(readOtlpEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: { binding: true } })).toBeUndefined();
  });

  it('skips a header whose value fetch refuses, so createOtlpExporter takes what it read', () => {
    const config = readOtlpEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h', OTEL_EXPORTER_OTLP_HEADERS: 'x-euro=%E2%82%AC,x-line=a%0Ab,x-raw=€,x-nul=a%00b,x-ok=Bearer%20t' });
    expect(config?.headers).toEqual({ 'x-ok': 'Bearer t' });
    expect(() => createOtlpExporter({ url: 'http://h/v1/traces', headers: config?.headers, serviceName: 's' })).not.toThrow();
  });

  it('throws a TypeError naming the variable for an endpoint that is not an http(s) URL', () => {
    expect(() => readOtlpEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' })).toThrow(/^OTEL_EXPORTER_OTLP_ENDPOINT must be an http:\/\/ or https:\/\/ URL/);
    expect(() => readOtlpEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'not a url' })).toThrow(TypeError);
  });
});
