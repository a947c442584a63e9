import { MAX_TIMER_MS } from '../interceptors/timer-delay.ts';

/** The exporter settings the standard OpenTelemetry environment variables give. */
export interface OtlpEnvConfig {
  /**
   * The traces URL: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as is, else `OTEL_EXPORTER_OTLP_ENDPOINT` with `/v1/traces`
   * after its path (a query it carries stays at the end).
   */
  readonly url: string;
  /** `OTEL_EXPORTER_OTLP_HEADERS`, then `OTEL_EXPORTER_OTLP_TRACES_HEADERS` over it (`key=value` pairs, comma-separated, values percent-decoded). */
  readonly headers: Readonly<Record<string, string>>;
  /** `OTEL_SERVICE_NAME`, else the `service.name` of `OTEL_RESOURCE_ATTRIBUTES`, when set. */
  readonly serviceName: string | undefined;
  /** `OTEL_RESOURCE_ATTRIBUTES` (`key=value` pairs, percent-decoded) but `service.name`: the exporter's `resource`. */
  readonly resource: Readonly<Record<string, string>> | undefined;
  /** `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT`, else `OTEL_EXPORTER_OTLP_TIMEOUT`, in ms (`0`, no limit, is 2^31 − 1). */
  readonly timeoutMs: number | undefined;
}

/** Options for {@link readOtlpEnv}. */
export interface OtlpEnvOptions {
  /** Told of each variable skipped for a value it cannot read (default: `console.warn`); nothing is thrown for those. */
  readonly onWarning?: ((message: string) => void) | undefined;
}

/** An HTTP header name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A header value `fetch` takes: bytes (no character above U+00FF), no NUL, CR or LF. */
const VALUE = /^[^\0\r\n\u0100-\uffff]*$/;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/**
 * `k1=v1,k2=v2` as headers; a pair without `=`, with a name that is not a header name, or with a value `fetch` would
 * refuse (`Headers` throws on it, and with it `createOtlpExporter`) is skipped.
 */
function parseHeaders(value: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (value ?? '').split(',')) {
    const at = pair.indexOf('=');
    const key = pair.slice(0, at).trim();
    if (at < 0 || !TOKEN.test(key)) continue;
    const raw = pair.slice(at + 1).trim();
    let decoded = raw;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      // Not percent-encoded after all: keep it as written.
    }
    if (VALUE.test(decoded)) headers[key.toLowerCase()] = decoded;
  }
  return headers;
}

/**
 * `OTEL_RESOURCE_ATTRIBUTES` as attributes: `key=value` pairs separated by commas, keys and values percent-decoded
 * (`,` and `=` in them must be encoded), blanks around them dropped. `null` when any pair is not one or does not decode:
 * OTel's resource SDK discards the whole value then.
 */
function parseAttributes(value: string | undefined): Record<string, string> | null {
  const pairs: [string, string][] = [];
  for (const member of (value ?? '').split(',')) {
    if (member.trim() === '') continue;
    const at = member.indexOf('=');
    try {
      const key = decodeURIComponent(member.slice(0, at).trim());
      if (at < 1 || key === '') return null;
      pairs.push([key, decodeURIComponent(member.slice(at + 1).trim())]);
    } catch {
      return null;
    }
  }
  return Object.fromEntries(pairs);
}

/**
 * Reads the OTLP exporter's settings from environment variables, as OpenTelemetry SDKs do: a Worker's `env` (its
 * variables and secrets), or `process.env` in Node. `undefined` when no endpoint is set, or when `OTEL_SDK_DISABLED`
 * is `true` or `OTEL_TRACES_EXPORTER` does not name `otlp` (`none`, `console`: export is off). Throws a `TypeError`
 * for an endpoint that is not an http(s) URL, and for `grpc` in `OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL` (the exporter
 * posts JSON over HTTP, which a collector takes on its HTTP port beside protobuf, but a gRPC port does not). A timeout
 * or `OTEL_RESOURCE_ATTRIBUTES` it cannot read is skipped with a warning (`onWarning`). Spread the result into
 * `createOtlpExporter` with a `serviceName` of your own for when none is set.
 */
export function readOtlpEnv(variables: object, options: OtlpEnvOptions = {}): OtlpEnvConfig | undefined {
  const env = variables as Readonly<Record<string, unknown>>;
  const warn = options.onWarning ?? ((message: string) => console.warn(`edgetool OTLP settings: ${message}`));
  if (text(env.OTEL_SDK_DISABLED)?.toLowerCase() === 'true') return undefined;
  // The trace exporters to use, comma-separated (default `otlp`): `console` or `zipkin` alone sends nothing over OTLP,
  // and `none` turns them all off.
  const exporters = text(env.OTEL_TRACES_EXPORTER)
    ?.toLowerCase()
    .split(',')
    .map((name) => name.trim());
  if (exporters !== undefined && (exporters.includes('none') || !exporters.includes('otlp'))) return undefined;
  const wire = text(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ?? text(env.OTEL_EXPORTER_OTLP_PROTOCOL);
  if (wire?.toLowerCase() === 'grpc') {
    throw new TypeError('OTEL_EXPORTER_OTLP_PROTOCOL is grpc, but this exporter posts OTLP as JSON over HTTP: use http/json or http/protobuf, and the HTTP port (4318).');
  }
  const traces = text(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const base = text(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  // The signal's path goes after the base's path, before a query or fragment it may carry (`?tenant=a`).
  const [, path = '', rest = ''] = /^([^?#]*)(.*)$/s.exec(base ?? '') ?? [];
  const url = traces ?? (base === undefined ? undefined : `${path.replace(/\/+$/, '')}/v1/traces${rest}`);
  if (url === undefined) return undefined;
  let protocol = '';
  try {
    protocol = new URL(url).protocol;
  } catch {
    // Reported below.
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    const name = traces === undefined ? 'OTEL_EXPORTER_OTLP_ENDPOINT' : 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT';
    throw new TypeError(`${name} must be an http:// or https:// URL, not ${JSON.stringify(traces ?? base)}.`);
  }
  const headers = { ...parseHeaders(text(env.OTEL_EXPORTER_OTLP_HEADERS)), ...parseHeaders(text(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS)) };
  // OTel's Timeout type: whole milliseconds, 0 for none; any other value is skipped with a warning, as if unset.
  const timeout = (name: string): number | undefined => {
    const value = text(env[name]);
    if (value === undefined) return undefined;
    const ms = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (ms <= MAX_TIMER_MS) return ms || MAX_TIMER_MS;
    warn(`${name} must be a whole number of milliseconds from 0 to ${MAX_TIMER_MS}; "${value}" is ignored.`);
    return undefined;
  };
  const attributes = parseAttributes(text(env.OTEL_RESOURCE_ATTRIBUTES));
  if (attributes === null) warn('OTEL_RESOURCE_ATTRIBUTES must be key=value pairs separated by commas, percent-encoded; all of it is ignored.');
  const { 'service.name': named, ...resource } = attributes ?? {};
  return {
    url,
    headers,
    serviceName: text(env.OTEL_SERVICE_NAME) ?? text(named),
    resource: Object.keys(resource).length > 0 ? resource : undefined,
    timeoutMs: timeout('OTEL_EXPORTER_OTLP_TRACES_TIMEOUT') ?? timeout('OTEL_EXPORTER_OTLP_TIMEOUT'),
  };
}
