export * from './health.ts';
export * from './tools.ts';
