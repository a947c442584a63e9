export * from './canonical-json';
export * from './nonce-store';
export * from './ticket-error';
export * from './ticket-signer';
