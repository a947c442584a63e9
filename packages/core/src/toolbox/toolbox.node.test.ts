// Node-only: drives esbuild, TypeScript and the Vite plugin, which are build tools.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, transform } from 'esbuild';
import * as v from 'valibot';
import { afterAll, describe, expect, it } from 'vitest';
import { decorators } from '../../tooling/vite-decorators.ts';
import { createExecutor } from '../executor/executor.ts';
import { scanTools, tool } from './toolbox.ts';

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

  it('the Vite plugin drops imports used only as types and keeps side-effect imports', async () => {
    // `ToolContext` is a type: kept in the output, the browser fails with "does not provide an export named 'ToolContext'".
    writeFileSync(join(dir, 'setup.mjs'), 'globalThis.edgetoolSetupRan = true;');
    const source = `
      import './setup.mjs';
      import { ToolContext } from '@edgetool/core';
      const seen: string[] = [];
      function mark(_value: unknown, context: ClassMethodDecoratorContext) { seen.push(String(context.name)); }
      export class Box { @mark hello(_input?: unknown, ctx?: ToolContext): string { return ctx ? 'ctx' : 'hi'; } }
      export const names = (): string[] => seen;
    `;
    const out = (await decorators().transform(source, '/app/src/typed-box.ts'))?.code ?? '';
    expect(out).not.toMatch(/@edgetool\/core|ToolContext/);
    expect(out).toMatch(/^import "\.\/setup\.mjs";$/m);
    expect(out).not.toMatch(/^\s*@mark/m);
    const file = join(dir, 'typed-box.mjs');
    writeFileSync(file, out);
    const mod = (await import(pathToFileURL(file).href)) as { names: () => string[]; Box: new () => { hello(): string } };
    expect(mod.names()).toEqual(['hello']);
    expect(new mod.Box().hello()).toBe('hi');
    expect((globalThis as { edgetoolSetupRan?: boolean }).edgetoolSetupRan).toBe(true);
  });

  it('compiled with experimentalDecorators, @tool throws a TypeError that says to turn it off', async () => {
    const source = `class Legacy { @tool({ description: 'Ping', input }) ping() { return 'pong'; } }`;
    const out = await transform(source, { loader: 'ts', target: 'es2022', tsconfigRaw: { compilerOptions: { experimentalDecorators: true } } });
    expect(out.code).toContain('__decorateClass');
    const run = new Function('tool', 'input', out.code) as (decorator: typeof tool, input: v.ObjectSchema<{}, undefined>) => void;
    expect(() => run(tool, v.object({}))).toThrow(/@tool\(\) is a standard \(TC39\) decorator.*experimentalDecorators/);
  });

  it('compiled with experimentalDecorators, @tool throws the same TypeError with another decorator above or below it', async () => {
    const logged = (_target: object, _key: string, descriptor: PropertyDescriptor) => descriptor;
    for (const source of [
      `class Above { @logged @tool({ description: 'Ping', input }) ping() { return 'pong'; } }`,
      `class Below { @tool({ description: 'Ping', input }) @logged ping() { return 'pong'; } }`,
    ]) {
      const out = await transform(source, { loader: 'ts', target: 'es2022', tsconfigRaw: { compilerOptions: { experimentalDecorators: true } } });
      const run = new Function('tool', 'logged', 'input', out.code) as (decorator: typeof tool, other: typeof logged, input: v.ObjectSchema<{}, undefined>) => void;
      expect(() => run(tool, logged, v.object({}))).toThrow(/@tool\(\) is a standard \(TC39\) decorator.*experimentalDecorators/);
    }
  });

  it('compiled by TypeScript 7 (no decorator metadata without Symbol.metadata), a decorator above @tool keeps the tool', async () => {
    // TypeScript passes `context.metadata` only when `Symbol.metadata` exists at run time; Node 24 has none.
    const source = `
      declare const tool: (options: object) => (method: Function, context: object) => void;
      declare const input: object;
      declare const scanTools: (target: object) => object[];
      const calls: string[] = [];
      const metadata: unknown[] = [];
      function logged(method: Function, context: { name: string | symbol; metadata: unknown }) {
        metadata.push(context.metadata);
        return function (this: unknown, ...args: unknown[]) {
          calls.push(String(context.name));
          return method.apply(this, args);
        };
      }
      class Clock {
        zone = 'Europe/Paris';
        @logged @tool({ description: 'Current zone', input }) current_zone() { return this.zone; }
        @logged @tool({ description: 'Kind', input }) static kind(this: { name: string }) { return this.name; }
      }
      class Berlin extends Clock {
        override zone = 'Europe/Berlin';
      }
      function twice() {
        class Twice { @tool({ name: 'one', description: 'One', input }) @tool({ name: 'two', description: 'Two', input }) both() {} }
        return Twice;
      }
      class Toolbox { readonly tools = scanTools(this); }
      class Early extends Toolbox { @tool({ description: 'Ping', input }) ping() { return 'pong'; } }
    `;
    writeFileSync(join(dir, 'ts7.ts'), source);
    const tsc = new URL('../../../../node_modules/typescript/bin/tsc', import.meta.url).pathname;
    // Run where no tsconfig.json is: TypeScript 7 refuses files on the command line next to one.
    execFileSync(process.execPath, [tsc, '--target', 'es2022', '--strict', '--noImplicitOverride', '--outDir', 'ts7', 'ts7.ts'], { cwd: dir });
    const code = readFileSync(join(dir, 'ts7', 'ts7.js'), 'utf8');
    expect(code).toContain('__esDecorate');
    expect(code).toContain('Symbol.metadata ?');
    const run = new Function('tool', 'input', 'scanTools', `${code}\nreturn { Berlin, calls, metadata, twice, Early };`) as (
      decorator: typeof tool,
      input: v.ObjectSchema<{}, undefined>,
      scan: typeof scanTools,
    ) => { Berlin: new () => object; calls: string[]; metadata: unknown[]; twice: () => unknown; Early: new () => object };
    const { Berlin, calls, metadata, twice, Early } = run(tool, v.object({}), scanTools);
    expect(metadata).toEqual(typeof (Symbol as { metadata?: symbol }).metadata === 'symbol' ? [{}, {}] : [undefined, undefined]);
    const tools = scanTools(new Berlin());
    expect(tools.map((t) => t.name).sort()).toEqual(['current_zone', 'kind']);
    const executor = createExecutor({ registry: tools });
    expect((await executor.execute({ id: '1', name: 'current_zone', arguments: {} })).content).toBe('Europe/Berlin');
    expect((await executor.execute({ id: '2', name: 'kind', arguments: {} })).content).toBe('Berlin');
    expect(calls).toEqual(['current_zone', 'kind']);
    expect(twice).toThrow(new TypeError('@tool() twice on the method both: give each tool a method of its own.'));
    // A base class's field that scans before the subclass's @tool methods are set up fails at `new` without metadata too.
    expect(() => new Early()).toThrow(/^@tool\(\) method ping of Early was set up after scanTools\(\) ran on the instance/);
  });

  it('the Vite plugin lowers decorators in JavaScript files too, parsed as JavaScript', async () => {
    // Vite 8 passes them through in .js as in .ts; the plugin skipped .js, and with `include` set for it parsed the file as
    // TypeScript, where `a < b > (c)` is a generic call: the comparison became `a(c)`.
    const source = `
      const seen = [];
      function mark(_value, context) { seen.push(context.name); }
      const a = 1, b = 2, c = 0;
      export const compared = a < b > (c);
      export class Box { @mark hello() { return 'hi'; } }
      export const names = () => { new Box(); return seen; };
    `;
    const cases = [['box.js', decorators()], ['box.mjs', decorators()], ['other.js', decorators({ include: /\.js$/ })]] as const;
    for (const [i, [name, plugin]] of cases.entries()) {
      const out = await plugin.transform(source, `/app/src/${name}`);
      expect(out?.code).not.toMatch(/^\s*@mark/m);
      const file = join(dir, `lowered-${i}.mjs`);
      writeFileSync(file, out?.code ?? '');
      const mod = (await import(pathToFileURL(file).href)) as { compared: boolean; names: () => string[] };
      expect(mod.compared).toBe(true);
      expect(mod.names()).toEqual(['hello']);
    }
    const jsx = await decorators().transform('function mark() {}\nexport class View { @mark render() { return <p>{1 < 2}</p>; } }', '/app/src/view.jsx');
    expect(jsx?.code).toMatch(/<p>\{1 < 2\}<\/p>/);
    expect(jsx?.code).not.toMatch(/^\s*@mark/m);
  });

  it('the Vite plugin leaves files without decorators and node_modules alone', async () => {
    const plugin = decorators();
    expect(await plugin.transform('export const a = "x@y.z";', '/app/src/a.ts')).toBeNull();
    expect(await plugin.transform('class A { @x m() {} }', '/app/node_modules/lib/a.ts')).toBeNull();
    expect(await plugin.transform('class A { @x m() {} }', '/app/src/a.css')).toBeNull();
  });
});
