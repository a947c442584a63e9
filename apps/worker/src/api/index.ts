export * from './chat.ts';
export * from './health.ts';
export * from './mcp.ts';
export * from './tools.ts';
