export * from './convert-result.ts';
export * from './executor.ts';
export { parseArguments, parseJson } from './parse-arguments.ts';
