export * from './client.ts';
export * from './mock-model.ts';
