export * from './message-events.ts';
export * from './server.ts';
export * from './types.ts';
