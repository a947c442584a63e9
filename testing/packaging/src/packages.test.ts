// The published packages, used the way a user gets them: each package is built (`pnpm build`) and packed
// (`pnpm pack`, which applies `publishConfig` and replaces `workspace:` versions), the tarballs are unpacked
// into a fresh project outside the repository, and that project links only the dependencies the packed
// manifests declare (the copies this workspace installed; nothing is fetched). It then runs the README's
// examples in plain Node, type-checks a TypeScript user against the shipped declarations, bundles a chat UI
// for the browser and a decorated toolbox the way wrangler bundles a Worker, and loads the Vite plugin.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BuildOptions, build, transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_ENTRY, TOOLBOX_ENTRY, TYPES_CHECK, VITE_PLUGIN_CHECK, WORKER_RUN } from './fixtures.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const PACKAGES = ['core', 'ai', 'react'] as const;
const EXAMPLES = [
  'quickstart.ts',
  'approvals.ts',
  'edits.ts',
  'errors.ts',
  'chat.ts',
  'worker.ts',
  'job.ts',
  'progress.ts',
  'usage.ts',
  'mcp.ts',
  'mcp-client.ts',
  'limits.ts',
  'available.ts',
  'available-registry.ts',
  'images.ts',
  'documents.ts',
  'settings.ts',
  'otel.ts',
  'strict.ts',
  'structured.ts',
] as const;
/** The subpaths each package publishes: a new one must be added here, and so gets the checks below. */
const SUBPATHS: Record<(typeof PACKAGES)[number], readonly string[]> = { core: ['.', './mcp', './otel', './vite'], ai: ['.', './testing'], react: ['.'] };
/**
 * Dependencies a package declares for its dependencies, not to import them: a required peer (`ai` needs `zod`), and the
 * types their declarations import (`@ai-sdk/provider`'s import `json-schema`, which ships none).
 */
const FOR_DEPENDENCIES: Partial<Record<(typeof PACKAGES)[number], readonly string[]>> = { ai: ['zod', '@types/json-schema'] };

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  readonly keywords?: readonly string[];
  readonly license?: string;
  readonly type?: string;
  readonly sideEffects?: boolean | readonly string[];
  readonly engines?: Record<string, string>;
  readonly main?: string;
  readonly module?: string;
  readonly types?: string;
  readonly exports?: Record<string, { readonly types: string; readonly default: string }>;
  readonly publishConfig?: unknown;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>;
}

interface Packed {
  readonly source: string;
  readonly manifest: Manifest;
  /** Paths inside the tarball, without the leading `package/`. */
  readonly files: readonly string[];
  readonly installed: string;
}

const work = mkdtempSync(join(tmpdir(), 'edgetool-packaging-'));
const app = join(work, 'app');
const packed = new Map<(typeof PACKAGES)[number], Packed>();
afterAll(() => rmSync(work, { recursive: true, force: true }));

function sh(cmd: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): { status: number; stdout: string; stderr: string } {
  const res = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
  return { status: res.status ?? 1, stdout: res.stdout ?? '', stderr: `${res.stderr ?? ''}${res.error ? res.error.message : ''}` };
}

function must(cmd: string, args: readonly string[], cwd: string): string {
  const res = sh(cmd, args, cwd);
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${res.stdout}\n${res.stderr}`);
  return res.stdout;
}

/** Links `name` into the app's node_modules from where `from` resolves it; one copy per name. */
function link(name: string, from: string): void {
  const source = realpathSync(join(from, 'node_modules', name));
  const target = join(app, 'node_modules', name);
  if (existsSync(target)) {
    if (realpathSync(target) !== source) throw new Error(`${name} resolves to two different copies: ${realpathSync(target)} and ${source}`);
    return;
  }
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(source, target, 'dir');
}

/** The paths of a package's shipped files that end in `ending`, from its tarball's listing. */
function shipped({ files, installed }: Packed, ending: '.js' | '.d.ts'): string[] {
  return files.filter((file) => file.startsWith('dist/') && file.endsWith(ending)).map((file) => join(installed, file));
}

/** Bundles with esbuild from the app's directory (no output written) and returns the JavaScript. */
async function bundleApp(options: BuildOptions): Promise<string> {
  const result = await build({ absWorkingDir: app, bundle: true, format: 'esm', target: 'es2022', write: false, logLevel: 'silent', ...options });
  return result.outputFiles?.[0]?.text ?? '';
}

const packageName = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/** The bare specifiers a file imports, statically or dynamically. */
function importsOf(code: string): string[] {
  const found = new Set<string>();
  for (const m of code.matchAll(/(?:^|[\s;])(?:import|export)\s*(?:[\w*${},\s]+from\s*)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)) {
    const specifier = m[1] ?? m[2];
    if (specifier !== undefined && !specifier.startsWith('.')) found.add(specifier);
  }
  return [...found].sort();
}

/** The relative specifiers a shipped file imports or re-exports (declarations included), outside its comments. */
function relativeImportsOf(code: string): string[] {
  const found = new Set<string>();
  const statements = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:"'`\\])\/\/.*$/gm, '$1');
  for (const m of statements.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g)) if (m[1] !== undefined) found.add(m[1]);
  return [...found].sort();
}

/** The smallest Node major a range such as `>=22` or `>=20.19.0` allows, or `undefined` for another form. */
function minNode(range: string | undefined): number | undefined {
  const major = /^>=\s*(\d+)(?:\.\d+){0,2}$/.exec(range?.trim() ?? '')?.[1];
  return major === undefined ? undefined : Number(major);
}

/** The fenced code blocks of a Markdown file, with their language. */
function codeBlocks(markdown: string): { readonly lang: string; readonly code: string }[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1] ?? '', code: m[2] ?? '' }));
}

/** The link targets of a Markdown file outside its code: inline links and images, and reference definitions. */
function markdownLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/(`+)[^`]*?\1/g, '');
  const inline = [...prose.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? '');
  const definitions = [...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1] ?? '');
  return [...inline, ...definitions];
}

/** A package's README as its tarball ships it. */
const shippedReadme = (name: (typeof PACKAGES)[number]) => readFileSync(join((packed.get(name) as Packed).installed, 'README.md'), 'utf8');

function nodeEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('OPENAI_')) delete env[key];
  return env;
}

function runExample(file: string): string[] {
  const res = sh(process.execPath, [join('src', file)], app, nodeEnv());
  if (res.status !== 0) throw new Error(`node src/${file} exited with ${res.status}:\n${res.stdout}\n${res.stderr}`);
  return res.stdout.replace(/\n$/, '').split('\n');
}

function tsc(project: string): { status: number; output: string } {
  const bin = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const res = sh(process.execPath, [bin, '-p', project], app);
  return { status: res.status, output: `${res.stdout}${res.stderr}`.trim() };
}

/** Type-checks one file of the app's `src` as a Node user's strict project does (`tsconfig.node.json`), alone. */
function typeCheck(file: string): { status: number; output: string } {
  const project = `tsconfig.${file.replace(/\.tsx?$/, '')}.json`;
  writeFileSync(join(app, project), JSON.stringify({ extends: './tsconfig.node.json', include: [`src/${file}`] }));
  return tsc(project);
}

/** The machine's own Node: the first `node` on PATH outside the repository's `.tools` (Node 20 on a fresh machine). */
function systemNode(): { bin: string; version: string } {
  const tools = join(ROOT, '.tools');
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const bin = join(dir, 'node');
    if (dir === '' || !existsSync(bin) || realpathSync(bin).startsWith(tools) || realpathSync(dir).startsWith(tools)) continue;
    const res = sh(bin, ['--version'], work);
    if (res.status === 0 && res.stdout.startsWith('v')) return { bin, version: res.stdout.trim() };
  }
  throw new Error('No Node outside .tools on PATH: the machine has no Node of its own?');
}

beforeAll(() => {
  const tarballs = join(work, 'tarballs');
  mkdirSync(tarballs, { recursive: true });
  mkdirSync(join(app, 'src'), { recursive: true });
  for (const name of PACKAGES) {
    const source = join(ROOT, 'packages', name);
    must(process.execPath, [join(ROOT, 'scripts', 'build-package.mjs')], source);
    const before = new Set(readdirSync(tarballs));
    must('pnpm', ['pack', '--pack-destination', tarballs], source);
    const tarball = readdirSync(tarballs).find((file) => !before.has(file));
    if (tarball === undefined) throw new Error(`pnpm pack made no tarball for ${name}`);
    const files = must('tar', ['tzf', join(tarballs, tarball)], work)
      .split('\n')
      .filter(Boolean)
      .map((path) => path.replace(/^package\//, ''));
    const installed = join(app, 'node_modules', '@edgetool', name);
    mkdirSync(installed, { recursive: true });
    must('tar', ['xzf', join(tarballs, tarball), '-C', installed, '--strip-components=1'], work);
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Manifest;
    packed.set(name, { source, manifest, files, installed });
  }
  // Only what the packed manifests declare, plus the app's own tools (Node and React types).
  for (const { source, manifest } of packed.values()) {
    for (const dep of [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]) {
      if (!dep.startsWith('@edgetool/')) link(dep, source);
    }
  }
  link('@types/node', join(ROOT, 'testing', 'packaging'));
  link('@types/react', join(ROOT, 'packages', 'react'));
  link('react-dom', join(ROOT, 'packages', 'react'));

  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'edgetool-user', private: true, type: 'module' }, null, 2));
  for (const file of EXAMPLES) copyFileSync(join(ROOT, 'examples', 'quickstart', 'src', file), join(app, 'src', file));
  writeFileSync(join(app, 'src', 'types-check.ts'), TYPES_CHECK);
  writeFileSync(join(app, 'src', 'browser.ts'), BROWSER_ENTRY);
  writeFileSync(join(app, 'src', 'toolbox.ts'), TOOLBOX_ENTRY);
  writeFileSync(join(app, 'src', 'vite-plugin.mjs'), VITE_PLUGIN_CHECK);
  const specifiers = PACKAGES.flatMap((name) => SUBPATHS[name].map((subpath) => `@edgetool/${name}${subpath.slice(1)}`));
  const imports = specifiers.map((specifier, i) => `import * as m${i} from '${specifier}';\n`).join('');
  writeFileSync(join(app, 'src', 'subpaths.ts'), `${imports}export const modules: object[] = [${specifiers.map((_, i) => `m${i}`).join(', ')}];\n`);
  writeFileSync(join(app, 'src', 'subpaths.mjs'), `for (const specifier of ${JSON.stringify(specifiers)}) console.log(specifier, Object.keys(await import(specifier)).length);\n`);
  const compilerOptions = {
    target: 'ES2022',
    lib: ['ES2022', 'DOM'],
    types: ['node'],
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    skipLibCheck: true,
  };
  const include = [...EXAMPLES.map((f) => `src/${f}`), 'src/types-check.ts', 'src/browser.ts', 'src/subpaths.ts'];
  writeFileSync(join(app, 'tsconfig.node.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, module: 'nodenext', moduleResolution: 'nodenext', allowImportingTsExtensions: true }, include }));
  writeFileSync(join(app, 'tsconfig.bundler.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, module: 'esnext', moduleResolution: 'bundler' }, include }));
  for (const mode of ['node', 'bundler']) {
    writeFileSync(join(app, `tsconfig.${mode}-libs.json`), JSON.stringify({ extends: `./tsconfig.${mode}.json`, compilerOptions: { skipLibCheck: false } }));
  }
}, 180_000);

describe('the tarballs', () => {
  it.each(PACKAGES)('@edgetool/%s ships its build, manifest, README and LICENSE only, and every export names a shipped file', (name) => {
    const { files, manifest } = packed.get(name) as Packed;
    expect(files.filter((file) => !/^(package\.json|README\.md|LICENSE|dist\/.+\.(js|d\.ts))$/.test(file))).toEqual([]);
    expect(files).toContain('README.md');
    expect(files).toContain('LICENSE');
    expect(files.some((file) => file.startsWith('src/'))).toBe(false);
    expect(manifest.publishConfig).toBeUndefined();
    const targets = Object.values(manifest.exports ?? {}).flatMap((target) => [target.types, target.default]);
    expect(targets.length).toBeGreaterThanOrEqual(2);
    for (const target of targets) expect(files).toContain(target.replace(/^\.\//, ''));
  });

  it.each(PACKAGES)('@edgetool/%s has a manifest fit for npm: ESM, side-effect free, MIT, a description, keywords, engines', (name) => {
    const { manifest, files, installed } = packed.get(name) as Packed;
    expect(manifest.name).toBe(`@edgetool/${name}`);
    expect(manifest.type).toBe('module');
    expect(manifest.sideEffects).toBe(false);
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
    expect(manifest.description).toMatch(/^.{40,200}$/);
    expect(manifest.keywords).toEqual(expect.arrayContaining(['edgetool', 'llm', 'tool-calling']));
    expect(new Set(manifest.keywords).size).toBe(manifest.keywords?.length);
    expect(Object.keys(manifest.exports ?? {})).toEqual(SUBPATHS[name]);
    // Fields older tools read instead of `exports`: none, or a shipped file.
    for (const field of [manifest.main, manifest.module, manifest.types]) if (field !== undefined) expect(files).toContain(field.replace(/^\.\//, ''));
  });

  it.each(PACKAGES)("@edgetool/%s asks for a Node at least as new as its dependencies' own", (name) => {
    const { manifest, source } = packed.get(name) as Packed;
    const own = minNode(manifest.engines?.node);
    expect(own).toBeGreaterThanOrEqual(20);
    const needs: Record<string, number> = {};
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) {
      const depManifest = dep.startsWith('@edgetool/')
        ? (packed.get(dep.slice('@edgetool/'.length) as (typeof PACKAGES)[number]) as Packed).manifest
        : (JSON.parse(readFileSync(join(realpathSync(join(source, 'node_modules', dep)), 'package.json'), 'utf8')) as Manifest);
      const min = minNode(depManifest.engines?.node);
      if (min !== undefined && min > (own ?? 0)) needs[dep] = min;
    }
    expect(needs).toEqual({});
  });

  it.each(PACKAGES)('@edgetool/%s ships no source maps and no test code, and every relative import names a shipped file', (name) => {
    const pkg = packed.get(name) as Packed;
    expect(pkg.files.filter((file) => /\.map$|(^|[/.-])tests?([/.-]|$)|test-support|__tests__|fixtures?\b/.test(file))).toEqual([]);
    const missing: string[] = [];
    let checked = 0;
    for (const file of [...shipped(pkg, '.js'), ...shipped(pkg, '.d.ts')]) {
      const code = readFileSync(file, 'utf8');
      expect({ file: relative(pkg.installed, file), sourceMap: /sourceMappingURL/.test(code), testSupport: /test-support/.test(code) }).toEqual({
        file: relative(pkg.installed, file),
        sourceMap: false,
        testSupport: false,
      });
      for (const specifier of relativeImportsOf(code)) {
        const target = relative(pkg.installed, join(dirname(file), specifier));
        const wanted = file.endsWith('.d.ts') ? target.replace(/\.js$/, '.d.ts') : target;
        if (!pkg.files.includes(wanted)) missing.push(`${relative(pkg.installed, file)} → ${specifier}`);
        checked++;
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(0);
  });

  it.each(PACKAGES)("@edgetool/%s's README stands on its own on npm: an install line, links only to what the tarball ships", (name) => {
    const { files } = packed.get(name) as Packed;
    const readme = shippedReadme(name);
    expect(readme).toMatch(new RegExp(`^# @edgetool/${name}\n`));
    expect(readme).toMatch(new RegExp(`^\`\`\`sh\nnpm install @edgetool/${name}\\b`, 'm'));
    const outside = markdownLinks(readme).filter((target) => {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) return false;
      const path = decodeURIComponent(target.split('#')[0] ?? '').replace(/^\.\//, '');
      return !files.includes(path);
    });
    expect(outside).toEqual([]);
  });

  it.each(PACKAGES)('@edgetool/%s depends on published versions, not on the workspace', (name) => {
    const { manifest } = packed.get(name) as Packed;
    const versions = { ...manifest.dependencies, ...manifest.peerDependencies };
    expect(Object.entries(versions).filter(([, version]) => version.startsWith('workspace:'))).toEqual([]);
    for (const [dep, version] of Object.entries(versions)) {
      if (dep.startsWith('@edgetool/')) expect(version).toBe(manifest.version);
    }
  });

  it.each(PACKAGES)('@edgetool/%s imports only what it declares, and its JavaScript needs no TypeScript', (name) => {
    const pkg = packed.get(name) as Packed;
    const { installed, manifest } = pkg;
    const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
    const scripts = shipped(pkg, '.js');
    expect(scripts.length).toBeGreaterThan(0);
    for (const file of scripts) {
      const code = readFileSync(file, 'utf8');
      const undeclared = importsOf(code).filter((specifier) => !declared.has(packageName(specifier)));
      expect({ file: relative(installed, file), undeclared }).toEqual({ file: relative(installed, file), undeclared: [] });
      expect(code).not.toMatch(/from\s*["'][^"']+\.ts["']/);
    }
    // Relative specifiers in declarations end in `.js`, which every TypeScript version resolves.
    const declarations = shipped(pkg, '.d.ts');
    expect(declarations.length).toBeGreaterThan(0);
    for (const file of declarations) expect(readFileSync(file, 'utf8')).not.toMatch(/["']\.{1,2}\/[^"']*\.ts["']/);
  });

  it.each(PACKAGES)('@edgetool/%s declares no dependency that its shipped files do not use', (name) => {
    const pkg = packed.get(name) as Packed;
    const files = [...shipped(pkg, '.js'), ...shipped(pkg, '.d.ts')];
    const used = new Set(files.flatMap((file) => importsOf(readFileSync(file, 'utf8')).map(packageName)));
    const unused = Object.keys(pkg.manifest.dependencies ?? {}).filter((dep) => !used.has(dep) && !(FOR_DEPENDENCIES[name] ?? []).includes(dep));
    expect(unused).toEqual([]);
  });

  it.each(PACKAGES)("@edgetool/%s brings the types its dependencies' declarations import from packages that ship none", (name) => {
    // npm installs a package's dependencies, never their devDependencies: a dependency whose declarations import an
    // untyped package (`@ai-sdk/provider` imports `json-schema`) leaves a TypeScript user with `any` unless someone
    // declares the `@types` package. Each declared dependency's own entry declarations, one level down; what another
    // @edgetool package brings counts, and a peer's types (react's) are the app's, with the peer.
    const { manifest, source } = packed.get(name) as Packed;
    const declared = new Set(Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }));
    const brought = new Set(declared);
    for (const dep of declared) {
      const other = dep.startsWith('@edgetool/') ? packed.get(dep.slice('@edgetool/'.length) as (typeof PACKAGES)[number]) : undefined;
      for (const inner of Object.keys(other?.manifest.dependencies ?? {})) brought.add(inner);
    }
    const missing = new Set<string>();
    for (const dep of declared) {
      if (dep.startsWith('@edgetool/') || !existsSync(join(source, 'node_modules', dep))) continue;
      const dir = realpathSync(join(source, 'node_modules', dep));
      const depManifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest & { readonly typings?: string };
      const entries = [depManifest.types, depManifest.typings, ...Object.values(depManifest.exports ?? {}).map((target) => target?.types)];
      for (const entry of new Set(entries.filter((file): file is string => typeof file === 'string' && file.endsWith('.d.ts')))) {
        if (!existsSync(join(dir, entry))) continue;
        for (const imported of importsOf(readFileSync(join(dir, entry), 'utf8')).map(packageName)) {
          const types = `@types/${imported.replace(/^@/, '').replace('/', '__')}`;
          const at = join(dir, '..', ...(dep.startsWith('@') ? ['..'] : []), imported);
          if (imported.startsWith('node:') || imported.startsWith('@types/') || !existsSync(join(at, 'package.json'))) continue;
          const target = JSON.parse(readFileSync(join(at, 'package.json'), 'utf8')) as Manifest & { readonly typings?: string };
          const typed = target.types ?? target.typings ?? Object.values(target.exports ?? {}).some((t) => typeof t === 'object' && t !== null && 'types' in t);
          if (typed || existsSync(join(at, 'index.d.ts')) || brought.has(types) || imported in (manifest.peerDependencies ?? {})) continue;
          missing.add(`${dep} imports ${imported}: declare ${types}`);
        }
      }
    }
    expect([...missing]).toEqual([]);
  });

  it.each(PACKAGES)('@edgetool/%s declares no `any` in its shipped types', (name) => {
    const pkg = packed.get(name) as Packed;
    const found: string[] = [];
    for (const file of shipped(pkg, '.d.ts')) {
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '')
        .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
      for (const line of code.split('\n')) if (/\bany\b/.test(line)) found.push(`${relative(pkg.installed, file)}: ${line.trim()}`);
    }
    expect(found).toEqual([]);
  });

  it('the core runtime imports no Node built-in (the build tooling under @edgetool/core/vite may)', () => {
    for (const name of PACKAGES) {
      for (const file of shipped(packed.get(name) as Packed, '.js').filter((f) => !f.endsWith('vite.js'))) {
        expect({ file, node: importsOf(readFileSync(file, 'utf8')).filter((s) => s.startsWith('node:')) }).toEqual({ file, node: [] });
      }
    }
  });
});

describe('a project that installs them', () => {
  it('runs the 30-second example in plain Node', () => {
    const lines = runExample('quickstart.ts');
    expect(lines[0]).toMatch(/^get_weather → success in \d+\.\d\d ms$/);
    expect(lines[1]).toBe('{"city":"Paris","celsius":21,"askedBy":"ada"}');
    expect(lines.slice(2).join('\n')).toMatch(/^Error \(invalid-input\): Invalid arguments for "get_weather"\.\n- city: /);
  });

  it("runs @edgetool/core on the machine's own Node (20 on a fresh machine): the 30-second and approvals examples", async () => {
    const node = systemNode();
    for (const file of ['quickstart.ts', 'approvals.ts']) {
      const { code } = await transform(readFileSync(join(app, 'src', file), 'utf8'), { loader: 'ts', format: 'esm', target: 'es2022' });
      writeFileSync(join(app, 'src', file.replace(/\.ts$/, '.mjs')), code);
    }
    const run = (file: string) => sh(node.bin, [join('src', file)], app, nodeEnv());
    const quickstart = run('quickstart.mjs');
    expect({ node: node.version, status: quickstart.status, stderr: quickstart.stderr }).toEqual({ node: node.version, status: 0, stderr: '' });
    expect(quickstart.stdout).toContain('{"city":"Paris","celsius":21,"askedBy":"ada"}');
    const approvals = run('approvals.mjs');
    expect(approvals.status).toBe(0);
    expect(approvals.stdout.split('\n').slice(0, 4)).toEqual([
      'Refunds 25.00 EUR on order A-1001.',
      expect.stringMatching(/^Error \(ticket-invalid\): .*args/),
      'Refunded 25 on A-1001',
      expect.stringMatching(/^Error \(ticket-invalid\): .*already been used/),
    ]);
  });

  it("type-checks the examples as the README's install section says: `tsc --init`, then its `types` set to node", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Use the packages in your own app\n'), readme.indexOf('\n## The chat loop'));
    expect(section).toContain('`npx tsc --init`');
    expect(section).toContain('change the `"types": []` it writes to\n`"types": ["node"]`');
    const dir = join(app, 'tsc-init');
    mkdirSync(dir, { recursive: true });
    for (const file of ['quickstart.ts', 'chat.ts', 'worker.ts']) copyFileSync(join(app, 'src', file), join(dir, file));
    const bin = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const check = () => sh(process.execPath, [bin, '--noEmit'], dir);
    expect(sh(process.execPath, [bin, '--init'], dir).status).toBe(0);
    const written = readFileSync(join(dir, 'tsconfig.json'), 'utf8');
    expect(written).toContain('"types": []');
    // As `tsc --init` writes it, a Node example does not compile: the step the README adds is needed.
    expect(check().stdout).toContain("Cannot find name 'process'");
    writeFileSync(join(dir, 'tsconfig.json'), written.replace('"types": []', '"types": ["node"]'));
    expect(check()).toMatchObject({ status: 0, stdout: '' });
  });

  it("type-checks and runs the example in @edgetool/core's own README, as shipped in its tarball", () => {
    const blocks = codeBlocks(shippedReadme('core'));
    expect(blocks.map((block) => block.lang)).toEqual(['sh', 'ts']);
    expect(blocks[1]?.code).toContain("from '@edgetool/core'");
    writeFileSync(join(app, 'src', 'core-readme.ts'), blocks[1]?.code ?? '');
    expect(typeCheck('core-readme.ts')).toEqual({ status: 0, output: '' });
    expect(runExample('core-readme.ts')).toEqual(['{"city":"Paris","celsius":21}']);
  });

  it("type-checks and runs the example in @edgetool/ai's own README, as shipped in its tarball: a lookup, then a write once after its approval", () => {
    const blocks = codeBlocks(shippedReadme('ai'));
    expect(blocks.map((block) => block.lang)).toEqual(['sh', 'ts']);
    expect(blocks[1]?.code).toContain("from '@edgetool/ai'");
    writeFileSync(join(app, 'src', 'ai-readme.ts'), blocks[1]?.code ?? '');
    expect(typeCheck('ai-readme.ts')).toEqual({ status: 0, output: '' });
    const lines = runExample('ai-readme.ts');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/A-1001.*shipped/);
    expect(lines[1]).toBe("[ 'update_delivery_date waits for approval' ]");
    expect(lines[2]).toMatch(/delivery_date 2026-12-24\. 2026-12-24$/);
  });

  it("type-checks, bundles and renders the component in @edgetool/react's own README, as shipped in its tarball", async () => {
    const blocks = codeBlocks(shippedReadme('react'));
    expect(blocks.map((block) => block.lang)).toEqual(['sh', 'tsx']);
    expect(blocks[1]?.code).toContain("from '@edgetool/react'");
    writeFileSync(join(app, 'src', 'react-readme.tsx'), blocks[1]?.code ?? '');
    writeFileSync(
      join(app, 'tsconfig.react-readme.json'),
      JSON.stringify({ extends: './tsconfig.bundler.json', compilerOptions: { jsx: 'react-jsx' }, include: ['src/react-readme.tsx'] }),
    );
    expect(tsc('tsconfig.react-readme.json')).toEqual({ status: 0, output: '' });
    // The browser bundle a user ships, and the first render of the component, on the server's React.
    const browser = await bundleApp({ entryPoints: ['src/react-readme.tsx'], platform: 'browser', jsx: 'automatic' });
    expect(browser).toMatch(/function useEdgeChat\b/);
    expect(browser).not.toMatch(/["']node:/);
    writeFileSync(join(app, 'src', 'react-render.tsx'), "import { renderToString } from 'react-dom/server';\nimport { Chat } from './react-readme.tsx';\nconsole.log(renderToString(<Chat />));\n");
    const file = join(app, 'react-render.bundle.mjs');
    writeFileSync(file, await bundleApp({ entryPoints: ['src/react-render.tsx'], platform: 'node', jsx: 'automatic', packages: 'external' }));
    const res = sh(process.execPath, [file], app, nodeEnv());
    expect(res.stderr).toBe('');
    expect(res.stdout.trim()).toBe('<main><form><input value=""/></form></main>');
  });

  it('loads every published subpath in Node, and TypeScript resolves each of them (moduleResolution node and bundler)', () => {
    const res = sh(process.execPath, [join('src', 'subpaths.mjs')], app, nodeEnv());
    expect(res.stderr).toBe('');
    const loaded = res.stdout.trim().split('\n').map((line) => line.split(' '));
    expect(loaded.map(([specifier]) => specifier)).toEqual(PACKAGES.flatMap((name) => SUBPATHS[name].map((subpath) => `@edgetool/${name}${subpath.slice(1)}`)));
    for (const [specifier, count] of loaded) expect({ specifier, exports: Number(count) > 0 }).toEqual({ specifier, exports: true });
    // src/subpaths.ts imports each of them: the type-check tests below fail on a subpath whose types do not resolve.
    expect(readFileSync(join(app, 'src', 'subpaths.ts'), 'utf8')).toContain("from '@edgetool/core/vite'");
  });

  it('runs the edits, errors and strict examples: what the model reads of an edit, of a failure, and of a strict tool', () => {
    const edits = runExample('edits.ts');
    expect(edits).toHaveLength(3);
    expect(edits[0]).toMatch(/^Error \(invalid-input\): .*lets a human edit only "new_date" \(changed: "order_id"\); it was not performed\.$/);
    expect(edits.slice(1)).toEqual([
      'The user edited your arguments before approving this call: new_date changed from "2026-12-24" to "2026-12-27". The outcome below is for the edited arguments.',
      '{"order_id":"A-1001","delivery_date":"2026-12-27"}',
    ]);
    expect(runExample('errors.ts')).toEqual([
      'Error (invalid-input): Invoice numbers look like INV-7.',
      'Error (execution-failed): The tool failed unexpectedly (reference call_2).',
      'connect ECONNREFUSED 10.0.3.7:5432 (user billing)',
    ]);
    expect(runExample('strict.ts')).toEqual([
      '{"from":{"type":"string"},"to":{"type":"string"},"date":{"type":["string","null"],"format":"date"},"maxStops":{"type":["number","null"]}}',
      '{"from":"CDG","to":"JFK"}',
    ]);
  });

  it('answers a chat request with the Worker example: a destructive call streams its approval request, nothing runs; a malformed one is a 400', () => {
    writeFileSync(join(app, 'src', 'worker-run.ts'), WORKER_RUN);
    expect(runExample('worker-run.ts')).toEqual(['200 text/event-stream', 'tool-approval-request cancel_order {"order_id":"A-1001"}', 'no output', '400 invalid-input']);
  });

  it('runs the structured output example on the offline model: the clear invalid-output, for the job and for the calling model', () => {
    const why = 'The answer was not valid JSON. This model cannot give structured output: The offline model answers in plain text.';
    const lines = runExample('structured.ts');
    expect(lines.slice(0, 2)).toEqual([why, `Error (invalid-output): ${why}`]);
    expect(lines[2]).toMatch(/^- \(root\): /);
  });

  it('runs the progress example: each report, then the result', () => {
    expect(runExample('progress.ts')).toEqual(['Imported 2 of 3 rows', 'Imported 3 of 3 rows', '{"imported":3}']);
  });

  it('runs the usage example: each call’s reported tokens, a failed call’s too', () => {
    expect(runExample('usage.ts')).toEqual([
      '["Call the supplier on Monday"] {"inputTokens":6,"totalTokens":6}',
      'Error (execution-failed): No note is close to a vector of 3 numbers. {"inputTokens":2,"totalTokens":2}',
    ]);
  });

  it('runs the MCP example through the published subpath export @edgetool/core/mcp', () => {
    expect(runExample('mcp.ts')).toEqual(['{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\\"city\\":\\"Paris\\",\\"celsius\\":21}"}],"isError":false}}']);
  });

  it('runs the MCP client example through @edgetool/core/mcp: its raw JSON Schema validator loads from the tarball', () => {
    const lines = runExample('mcp-client.ts');
    expect(lines.slice(0, 3)).toEqual(['{"id":"A-1001","status":"shipped"}', 'approval-required', 'Cancelled A-1001']);
    expect(lines.slice(3).join('\n')).toMatch(/^Error \(invalid-input\): Invalid arguments for "orders_get_order"\.\n- id: /);
  });

  it('runs the OpenTelemetry example through the published subpath export @edgetool/core/otel', () => {
    expect(runExample('otel.ts')).toEqual([
      'execute_tool get_weather ← 00f067aa0ba902b7',
      'get_weather ← execute_tool get_weather',
      '{"exported":1,"failed":0,"retrying":0,"dropped":0}',
    ]);
  });

  it('runs the limits example: the third search and the second SMS are refused with rate-limited', () => {
    const lines = runExample('limits.ts');
    expect(lines.slice(0, 2)).toEqual(['3 pages about tickets', '3 pages about seals']);
    expect(lines[2]).toMatch(/^Error \(rate-limited\): Tool "search_docs" may run at most 2 times per request/);
    expect(lines[3]).toBe('Sent https://example.com');
    expect(lines[4]).toMatch(/^Error \(rate-limited\): Tool "send_sms" is rate limited/);
    expect(lines).toHaveLength(5);
  });

  it('runs the available example: a tool only staff may see', () => {
    expect(runExample('available.ts')).toEqual(['Refunded A-1001', 'Error (unknown-tool): Unknown tool "refund_order". Available tools: lookup_order.']);
  });

  it('runs the registry example: a registry’s available hides its tools, nested in another registry', () => {
    expect(runExample('available-registry.ts')).toEqual(['orders-late.csv', 'Error (unknown-tool): Unknown tool "export_csv". Available tools: search.']);
  });

  it('runs the images example: imagePart and the parts come from the tarball', () => {
    expect(runExample('images.ts')).toEqual(['text, image', 'Sales in May: 1234 EUR', '[image: image/png, 68 B]']);
  });

  it('runs the documents example: documentPart and the parts come from the tarball', () => {
    expect(runExample('documents.ts')).toEqual(['text, document', 'Invoice INV-7, attached:', '[document: INV-7.pdf, application/pdf, 125 B]']);
  });

  it('runs the settings example: instructions per run, settings per turn, the turn\'s tokens', () => {
    const lines = runExample('settings.ts');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/A-1001.*shipped/);
    expect(lines[1]).toMatch(/^[1-9]\d* in, [1-9]\d* out, [1-9]\d* in all$/);
  });

  it('runs the approvals example: the forged approval and the replay are refused, the genuine one runs once', () => {
    const lines = runExample('approvals.ts');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('Refunds 25.00 EUR on order A-1001.');
    expect(lines[1]).toMatch(/^Error \(ticket-invalid\): .*args/);
    expect(lines[2]).toBe('Refunded 25 on A-1001');
    expect(lines[3]).toMatch(/^Error \(ticket-invalid\): .*already been used/);
  });

  it('runs the chat loop examples on the offline model: a lookup, then a write once after its approval', () => {
    const chat = runExample('chat.ts');
    expect(chat).toHaveLength(3);
    expect(chat[0]).toMatch(/A-1001.*shipped/);
    expect(chat[1]).toBe("[ 'update_delivery_date waits for approval' ]");
    expect(chat[2]).toMatch(/delivery_date 2026-12-24\. 2026-12-24$/);
    const job = runExample('job.ts');
    expect(job).toHaveLength(2);
    expect(job[0]).toBe('update_delivery_date waits for approval 2026-12-01');
    expect(job[1]).toMatch(/delivery_date 2026-12-24\. 2026-12-24$/);
  });

  it.each(['node', 'bundler'])('type-checks against the shipped declarations (moduleResolution %s), with types flowing from the schemas', (mode) => {
    // types-check.ts holds `@ts-expect-error` lines: were a type `any`, tsc would report the unused directive.
    expect(tsc(`tsconfig.${mode}.json`)).toEqual({ status: 0, output: '' });
  });

  it.each(['node', 'bundler'])('the shipped declarations themselves check clean under strict options (moduleResolution %s)', (mode) => {
    // With skipLibCheck off, the AI SDK's own declarations report errors under exactOptionalPropertyTypes
    // (reached through their real paths in the pnpm store); ours must report none.
    const { output } = tsc(`tsconfig.${mode}-libs.json`);
    const errors = output.split('\n').filter((line) => /error TS\d+/.test(line));
    expect(errors.filter((line) => !line.includes('/node_modules/.pnpm/'))).toEqual([]);
    // A module without declarations (TS7016) or not found (TS2307), in anyone's declarations, is `any` under skipLibCheck.
    expect(errors.filter((line) => /error TS(7016|2307)/.test(line))).toEqual([]);
    expect(errors.length === 0 || errors.every((line) => /node_modules\/\.pnpm\/(@ai-sdk\+|ai@)/.test(line))).toBe(true);
  });

  it('the shipped declarations hold a mistake a user makes as an error', () => {
    writeFileSync(join(app, 'src', 'mistake.ts'), `import { defineTool } from '@edgetool/core';\nimport * as v from 'valibot';\ndefineTool({ name: 'x', description: 'x', input: v.object({ n: v.number() }), execute: ({ n }) => n.toUpperCase() });\n`);
    writeFileSync(join(app, 'tsconfig.mistake.json'), JSON.stringify({ extends: './tsconfig.bundler.json', include: ['src/mistake.ts'] }));
    const result = tsc('tsconfig.mistake.json');
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/src\/mistake\.ts.*error TS2339: Property 'toUpperCase' does not exist on type 'number'/);
  });

  it('bundles a chat UI for the browser with the React hooks and a browser tool', async () => {
    const code = await bundleApp({ entryPoints: ['src/browser.ts'], platform: 'browser' });
    expect(code).toContain('browser_time_zone');
    expect(code).toMatch(/function useEdgeChat\b/);
    expect(code).not.toMatch(/["']node:/);
  });

  it('tree-shakes the published core: a tool alone brings neither the executor nor the tickets, nor OTLP export', async () => {
    const bundle = (contents: string) =>
      bundleApp({
        stdin: { contents, resolveDir: app, loader: 'ts' },
        minify: true,
        platform: 'neutral',
        mainFields: ['module', 'main'],
        external: ['valibot', '@cfworker/json-schema'],
      });
    const toolOnly = await bundle("export { defineTool } from '@edgetool/core';");
    const withExecutor = await bundle("export { defineTool, createExecutor, createTicketSigner } from '@edgetool/core';");
    expect(withExecutor).toContain('Available tools');
    expect(withExecutor).toContain('The ticket has already been used.');
    expect(toolOnly).not.toContain('Available tools');
    expect(toolOnly).not.toContain('The ticket has already been used.');
    expect(toolOnly.length).toBeLessThan(withExecutor.length / 3);
    // OTLP export is a subpath: the main entry has none of it, and the exporter brings neither the executor nor tickets.
    const whole = await bundle("export * from '@edgetool/core';");
    const otel = await bundle("export { createOtlpExporter, setTraceparent } from '@edgetool/core/otel';");
    expect(whole).not.toContain('execute_tool');
    expect(otel).toContain('execute_tool');
    expect(otel).not.toContain('Available tools');
    expect(otel).not.toContain('The ticket has already been used.');
  });

  it('bundles a decorated toolbox the way wrangler bundles a Worker, and the bundle runs', async () => {
    const code = await bundleApp({ entryPoints: ['src/toolbox.ts'], platform: 'neutral', mainFields: ['module', 'main'], conditions: ['workerd', 'worker', 'browser'] });
    const file = join(app, 'toolbox.bundle.mjs');
    writeFileSync(file, code);
    const bundled = (await import(pathToFileURL(file).href)) as { runBundled: () => Promise<{ names: string[]; content: string }> };
    expect(await bundled.runBundled()).toEqual({ names: ['current_zone'], content: 'zone: Europe/Paris' });
  });

  it('loads the Vite plugin from @edgetool/core/vite in Node, and it lowers decorators', () => {
    const res = sh(process.execPath, ['src/vite-plugin.mjs'], app, nodeEnv());
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout)).toEqual({ name: 'edgetool:decorators', lowered: true });
  });
});
