// Node only: asks V8 (`--allow-natives-syntax`, in a child process) how it stores tools. Every read of a tool's fields on
// the executor's path (`policy`, `input`, `execute`, `output`, …) is a hash lookup on an object in dictionary mode.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const script = `
import * as v from 'valibot';
import { defineTool } from ${JSON.stringify(new URL('./define-tool.ts', import.meta.url).href)};
import { createRegistry } from ${JSON.stringify(new URL('../registry/registry.ts', import.meta.url).href)};
const fast = new Function('o', 'return %HasFastProperties(o)');
const make = (name, extra) => defineTool({ name, description: 'd', input: v.object({ city: v.string() }), execute: () => 1, ...extra });
const tools = [make('a'), make('b'), make('c', { toModelOutput: () => 'text', jsonSchema: { type: 'object' } })];
const registry = createRegistry({ tools, interceptors: [(ctx, next) => next()] });
console.log(JSON.stringify([...tools, ...tools.map((tool) => registry.resolve(tool.name))].map(fast)));
`;

describe('tools in V8', () => {
  it('keep fast properties: tools made by defineTool and the copies a registry hands out', () => {
    const child = spawnSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual([true, true, true, true, true, true]);
  });
});
