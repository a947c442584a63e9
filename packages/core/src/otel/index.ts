export * from './otlp-json.ts';
export * from './trace-context.ts';
