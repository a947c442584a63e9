export * from './registry.ts';
export * from './resolvers.ts';
