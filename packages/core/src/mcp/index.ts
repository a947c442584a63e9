export * from './mcp-client.ts';
export * from './mcp-handler.ts';
export * from './protocol.ts';
