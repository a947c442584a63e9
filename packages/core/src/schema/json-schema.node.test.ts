import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('@cfworker/json-schema');
  vi.resetModules();
});

describe('jsonSchema: a validator that fails to load (a lost network chunk in a browser)', () => {
  it('makes the call an invalid-input outcome, and the next use loads it again', async () => {
    vi.resetModules();
    vi.doMock('@cfworker/json-schema', () => {
      throw new Error('Failed to fetch dynamically imported module');
    });
    const { jsonSchema } = await import('./json-schema.ts');
    const { createExecutor } = await import('../executor/executor.ts');
    const { defineTool } = await import('../tool/define-tool.ts');
    const tool = defineTool({ name: 'echo', description: 'Echo', input: jsonSchema<{ q: string }>({ type: 'object', properties: { q: { type: 'string' } } }), execute: ({ q }) => q });
    const executor = createExecutor({ registry: [tool] });

    const failed = await executor.execute({ id: '1', name: 'echo', arguments: '{"q":"hi"}' });
    expect(failed.outcome).toMatchObject({ type: 'error', error: { code: 'invalid-input' } });
    expect(failed.content).toContain('The arguments for "echo" could not be validated:');

    vi.doUnmock('@cfworker/json-schema');
    const retried = await executor.execute({ id: '2', name: 'echo', arguments: '{"q":"hi"}' });
    expect(retried.outcome).toEqual({ type: 'success', output: 'hi' });
  });
});
