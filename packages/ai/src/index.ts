export * from './agent-tool.ts';
export * from './chat/index.ts';
export * from './execute-tool-calls.ts';
export * from './offline-model/index.ts';
export * from './provider.ts';
