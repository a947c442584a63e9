import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../executor/index.ts';
import { defineTool } from '../tool/index.ts';
import { ToolError } from './tool-error.ts';

describe('ToolError', () => {
  it('keeps its code, message and options', () => {
    const error = new ToolError('execution-failed', 'No such order.', { toolName: 'get_order', retryable: true });
    expect({ code: error.code, message: error.message, toolName: error.toolName, retryable: error.retryable }).toEqual({
      code: 'execution-failed',
      message: 'No such order.',
      toolName: 'get_order',
      retryable: true,
    });
  });

  it('refuses a code that is not a string with a TypeError that shows the call, as unchecked JavaScript makes one', () => {
    const wrong = { code: 'execution-failed', message: 'No such order.' } as unknown as 'execution-failed';
    expect(() => new ToolError(wrong, '')).toThrow(
      new TypeError("ToolError takes (code, message, options?), as in new ToolError('execution-failed', 'No such order.'): its code was an object."),
    );
    expect(() => new ToolError(undefined as unknown as 'timeout', 'x')).toThrow(/its code was undefined\.$/);
  });

  it('a tool that makes one wrongly tells the model why, instead of "Error ([object Object]): "', async () => {
    const tool = defineTool({
      name: 'get_order',
      description: 'Look up an order',
      input: v.object({ id: v.string() }),
      execute: ({ id }) => {
        throw new ToolError({ code: 'execution-failed', message: `No order ${id}` } as unknown as 'execution-failed', '');
      },
    });
    const result = await createExecutor({ registry: [tool] }).execute({ id: 'c1', name: 'get_order', arguments: '{"id":"A-9"}' });
    expect(result.content).toMatch(/^Error \(execution-failed\): ToolError takes \(code, message, options\?\)/);
  });
});
