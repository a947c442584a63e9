import { describe, expectTypeOf, it } from 'vitest';
import type { ToolError } from '../errors/tool-error.ts';
import { connectMcp, type McpClient, type McpClientOptions, McpError, type McpHandlerOptions, McpTimeoutError } from './index.ts';

describe('mcp client types', () => {
  it('connectMcp takes its options and resolves with a client; resumeAttempts is a number', () => {
    expectTypeOf(connectMcp).parameter(0).toEqualTypeOf<McpClientOptions>();
    expectTypeOf(connectMcp).returns.toEqualTypeOf<Promise<McpClient>>();
    expectTypeOf<McpClientOptions['resumeAttempts']>().toEqualTypeOf<number | undefined>();
    expectTypeOf(connectMcp).toBeCallableWith({ url: 'https://mcp.example.com/mcp', resumeAttempts: 0 });
    // @ts-expect-error a number of attempts, not a flag
    connectMcp({ url: 'https://mcp.example.com/mcp', resumeAttempts: true });
  });

  it('McpError.isInstance narrows to McpError, McpTimeoutError.isInstance to McpTimeoutError', () => {
    const value: unknown = null;
    if (McpError.isInstance(value)) expectTypeOf(value).toEqualTypeOf<McpError>();
    if (McpTimeoutError.isInstance(value)) expectTypeOf(value).toEqualTypeOf<McpTimeoutError>();
  });
});

describe('mcp handler types: onLateCheck', () => {
  it('takes the same listener as createExecutor and availableTools', () => {
    expectTypeOf<McpHandlerOptions['onLateCheck']>().toEqualTypeOf<((error: ToolError, name: string) => void) | undefined>();
  });
});
