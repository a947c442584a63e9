export * from './define-tool.ts';
export * from './types.ts';
