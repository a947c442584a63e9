export * from './body.ts';
export * from './router.ts';
