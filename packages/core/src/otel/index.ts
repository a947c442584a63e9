export * from './otlp-env.ts';
export * from './otlp-exporter.ts';
export * from './otlp-json.ts';
export * from './trace-context.ts';
