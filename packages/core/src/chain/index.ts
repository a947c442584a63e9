export * from './interceptor.ts';
export * from './run-chain.ts';
export * from './types.ts';
