export * from './allowed-host.ts';
export * from './body.ts';
export * from './client-address.ts';
export * from './router.ts';
