// Node only: Node's JSON.stringify overflows its stack on values some ten thousand levels deep (workerd and Chromium
// reach further), which is what the executor must report in words.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineTool } from '../tool/define-tool.ts';
import { createExecutor } from './executor.ts';

describe('an output nested too deeply for JSON.stringify', () => {
  it('is invalid-output that says so, not "Maximum call stack size exceeded"', async () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const tool = defineTool({ name: 'deep', description: '', input: v.object({}), execute: () => deep });
    const result = await createExecutor({ registry: [tool] }).execute({ id: 'c1', name: 'deep', arguments: {} });
    expect(result.outcome.type === 'error' && result.outcome.error.code).toBe('invalid-output');
    expect(result.content).toMatch(/could not be converted for the model: the output is nested too deeply to convert to JSON$/);
  });
});
