import { describe, expect, it, vi } from 'vitest';
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

  it('reads OTEL_EXPORTER_OTLP_TIMEOUT in ms, OTEL_EXPORTER_OTLP_TRACES_TIMEOUT over it; 0 is no limit (the longest a timer keeps)', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h' };
    expect(readOtlpEnv(endpoint)?.timeoutMs).toBeUndefined();
    expect(readOtlpEnv({ ...endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: '5000' })?.timeoutMs).toBe(5000);
    expect(readOtlpEnv({ ...endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: '5000', OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: ' 2000 ' })?.timeoutMs).toBe(2000);
    expect(readOtlpEnv({ ...endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: '0' })?.timeoutMs).toBe(2 ** 31 - 1);
    // An empty value is unset (OTel's rule), without a warning.
    const warnings: string[] = [];
    expect(readOtlpEnv({ ...endpoint, OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '', OTEL_EXPORTER_OTLP_TIMEOUT: '700' }, { onWarning: (m) => warnings.push(m) })?.timeoutMs).toBe(700);
    expect(warnings).toEqual([]);
  });

  it('skips a timeout that is not a whole number of ms up to 2^31 − 1 with a warning, and falls back to the general one', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h' };
    for (const bad of ['10s', '-1', '1.5', '2147483648', 'abc']) {
      const warnings: string[] = [];
      const config = readOtlpEnv({ ...endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: '3000', OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: bad }, { onWarning: (m) => warnings.push(m) });
      expect(config?.timeoutMs, bad).toBe(3000);
      expect(warnings, bad).toEqual([
        `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT must be a whole number of milliseconds from 0 to 2147483647; "${bad}" is ignored.`,
      ]);
    }
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(readOtlpEnv({ ...endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: 'soon' })?.timeoutMs).toBeUndefined();
      expect(warn).toHaveBeenCalledWith('edgetool OTLP settings: OTEL_EXPORTER_OTLP_TIMEOUT must be a whole number of milliseconds from 0 to 2147483647; "soon" is ignored.');
    } finally {
      warn.mockRestore();
    }
  });

  it('reads OTEL_RESOURCE_ATTRIBUTES as key=value pairs, percent-decoded; OTEL_SERVICE_NAME wins over its service.name', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h' };
    const attributes = 'service.name=from-attributes, service.version=1.2.3,deployment.environment.name=prod%20eu ,team=a%2Cb%3Dc,';
    expect(readOtlpEnv({ ...endpoint, OTEL_RESOURCE_ATTRIBUTES: attributes })).toMatchObject({
      serviceName: 'from-attributes',
      resource: { 'service.version': '1.2.3', 'deployment.environment.name': 'prod eu', team: 'a,b=c' },
    });
    const named = readOtlpEnv({ ...endpoint, OTEL_RESOURCE_ATTRIBUTES: attributes, OTEL_SERVICE_NAME: 'orders' });
    expect(named?.serviceName).toBe('orders');
    expect(named?.resource).not.toHaveProperty('service.name');
    expect(readOtlpEnv({ ...endpoint, OTEL_RESOURCE_ATTRIBUTES: ' ' })?.resource).toBeUndefined();
  });

  it('skips all of OTEL_RESOURCE_ATTRIBUTES with a warning when it cannot be decoded (OTel: discard the whole value), never throws', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h', OTEL_SERVICE_NAME: 'orders' };
    for (const bad of ['a=1,broken,b=2', 'a=%E2%82', '=x', 'a=1,%ZZ=2']) {
      const warnings: string[] = [];
      const config = readOtlpEnv({ ...endpoint, OTEL_RESOURCE_ATTRIBUTES: bad }, { onWarning: (m) => warnings.push(m) });
      expect(config, bad).toMatchObject({ url: 'http://h/v1/traces', serviceName: 'orders' });
      expect(config?.resource, bad).toBeUndefined();
      expect(warnings, bad).toEqual([
        'OTEL_RESOURCE_ATTRIBUTES must be key=value pairs separated by commas, percent-encoded; all of it is ignored.',
      ]);
    }
  });

  it('what it reads is what createOtlpExporter takes: the resource attributes and the time limit reach the export', async () => {
    const config = readOtlpEnv({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h',
      OTEL_EXPORTER_OTLP_TIMEOUT: '1500',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=orders,service.version=2',
    });
    if (config === undefined) throw new Error('no config');
    const bodies: string[] = [];
    const fetch = async (_url: string, init: RequestInit) => {
      bodies.push(String(init.body));
      return new Response('{}');
    };
    const exporter = createOtlpExporter({ ...config, serviceName: config.serviceName ?? 'fallback', fetch });
    exporter.export({ traceId: 'c1', callId: 'c1', toolName: 't', conversationId: '', input: {}, outcome: 'success', errorCode: undefined, attempts: 1, spans: [] });
    expect(await exporter.flush()).toMatchObject({ exported: 1 });
    expect(JSON.parse(bodies[0] ?? '{}').resourceSpans[0].resource.attributes).toEqual([
      { key: 'service.name', value: { stringValue: 'orders' } },
      { key: 'service.version', value: { stringValue: '2' } },
    ]);
  });
});
