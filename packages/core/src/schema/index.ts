export * from './coerce.ts';
export * from './input-schema.ts';
export * from './json-schema.ts';
