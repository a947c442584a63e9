export * from './memory-store.ts';
export * from './record.ts';
export * from './resume.ts';
export * from './store.ts';
