// Every decorator in this file follows other code on its line: none starts a line. The core's tests lower decorators
// with `decorators()` from `@edgetool/core/vite` (vitest.config.ts); a plugin that spotted `@` only at a line's start
// left this file untransformed, and no runtime here parses decorators (a SyntaxError, so the file could not load).
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../executor/executor.ts';
import { scanTools, tool } from './toolbox.ts';

class Clock { @tool({ description: 'The server time zone', input: v.object({}) }) zone() { return 'UTC'; } }

describe('decorators that do not start a line', () => {
  it('are lowered, so the class is scanned', async () => {
    const tools = scanTools(new Clock());
    expect(tools.map((t) => t.name)).toEqual(['zone']);
    expect((await createExecutor({ registry: tools }).execute({ id: '1', name: 'zone', arguments: {} })).content).toBe('UTC');
  });
});
