export * from './body.ts';
export * from './client-address.ts';
export * from './router.ts';
