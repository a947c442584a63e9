export * from './chat/index.ts';
export * from './offline-model/index.ts';
