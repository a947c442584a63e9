export * from './tool-error.ts';
