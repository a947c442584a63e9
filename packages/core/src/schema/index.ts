export * from './coerce.ts';
export * from './input-schema.ts';
export * from './json-schema.ts';
export * from './strict-nulls.ts';
export * from './strict-schema.ts';
