export * from './context-key.ts';
export * from './idempotency-key.ts';
export * from './run-context.ts';
export * from './tool-context.ts';
