export * from './approval.ts';
export * from './cache.ts';
export * from './limits.ts';
export * from './redact.ts';
export * from './retry.ts';
export * from './timeout.ts';
export * from './trace.ts';
