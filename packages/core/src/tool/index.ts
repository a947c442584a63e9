export * from './define-tool.ts';
export * from './types.ts';
export * from './model-content.ts';
export * from './available.ts';
export * from './content-bound.ts';
