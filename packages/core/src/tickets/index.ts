export * from './canonical-json.ts';
export * from './nonce-store.ts';
export * from './ticket-error.ts';
export * from './ticket-signer.ts';
