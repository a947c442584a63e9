// Node-only: drives esbuild and the Vite plugin, which are build tools.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { decorators } from '../../tooling/vite-decorators.ts';

const dir = mkdtempSync(join(tmpdir(), 'edgetool-decorators-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('decorated toolboxes in real bundlers', () => {
  it('work when bundled by esbuild the way wrangler bundles a Worker', async () => {
    const result = await build({
      entryPoints: [new URL('../test-support/decorated-toolbox.ts', import.meta.url).pathname],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      mainFields: ['module', 'main'],
      conditions: ['workerd', 'worker', 'browser'],
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.text ?? '';
    expect(code).not.toMatch(/^\s*@tool\(/m);
    const file = join(dir, 'bundle.mjs');
    writeFileSync(file, code);
    const mod = (await import(pathToFileURL(file).href)) as { runBundled: () => Promise<{ names: string[]; content: string }> };
    expect(await mod.runBundled()).toEqual({ names: ['current_zone'], content: 'zone: Europe/Paris' });
  });

  it('the Vite plugin lowers decorators so the output runs without decorator support', async () => {
    const plugin = decorators();
    const source = `
      const seen = [];
      function mark(_value, context) { seen.push(context.name); }
      export class Box { @mark hello() { return 'hi'; } }
      export const names = () => { new Box(); return seen; };
    `;
    const out = await plugin.transform(source, '/app/src/box.ts');
    expect(out?.code).toBeDefined();
    expect(out?.code).not.toMatch(/^\s*@mark/m);
    const file = join(dir, 'box.mjs');
    writeFileSync(file, out?.code ?? '');
    const mod = (await import(pathToFileURL(file).href)) as { names: () => string[]; Box: new () => { hello(): string } };
    expect(mod.names()).toEqual(['hello']);
    expect(new mod.Box().hello()).toBe('hi');
  });

  it('the Vite plugin leaves files without decorators and node_modules alone', async () => {
    const plugin = decorators();
    expect(await plugin.transform('export const a = "x@y.z";', '/app/src/a.ts')).toBeNull();
    expect(await plugin.transform('class A { @x m() {} }', '/app/node_modules/lib/a.ts')).toBeNull();
    expect(await plugin.transform('class A { @x m() {} }', '/app/src/a.css')).toBeNull();
  });
});
