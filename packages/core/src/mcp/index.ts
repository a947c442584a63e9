export * from './mcp-handler.ts';
