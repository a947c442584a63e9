export * from './offline-model.ts';
export * from './types.ts';
