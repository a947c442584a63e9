export * from './toolbox.ts';
