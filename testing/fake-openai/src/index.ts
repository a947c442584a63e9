export * from './openai-error';
export * from './rule-responder';
export * from './server';
export * from './split';
export * from './types';
