// Node-only: the MCP errors of a second copy of the module (two bundles of the package), which `vi.resetModules()` gives
// on Node's module runner (a browser keeps one module per URL).
import { describe, expect, it, vi } from 'vitest';
import { McpError, McpTimeoutError } from './mcp-client.ts';

describe('McpError', () => {
  it('isInstance knows an McpError from another copy of the package (a second bundle), where instanceof does not', async () => {
    vi.resetModules(); // the next import evaluates the module again: a second copy, as two bundles have
    const copy = await import('./mcp-client.ts');
    expect(copy.McpError).not.toBe(McpError);
    const theirs = new copy.McpError('refused', { status: 500 });
    const theirTimeout = new copy.McpTimeoutError('tools/list', 30_000);
    expect(theirs instanceof McpError).toBe(false);
    expect([McpError.isInstance(theirs), McpError.isInstance(theirTimeout), McpTimeoutError.isInstance(theirTimeout)]).toEqual([true, true, true]);
    // A plain McpError is no timeout; an error that only borrows the name is neither.
    expect(McpTimeoutError.isInstance(theirs)).toBe(false);
    const lookalike = Object.assign(new Error('refused'), { name: 'McpError' });
    expect([McpError.isInstance(lookalike), McpError.isInstance(null), McpError.isInstance('McpError')]).toEqual([false, false, false]);
    expect([theirs.name, theirTimeout.name]).toEqual(['McpError', 'McpTimeoutError']);
  });
});
