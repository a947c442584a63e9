export * from './convert-result.ts';
export * from './edits.ts';
export * from './executor.ts';
export * from './parse-arguments.ts';
