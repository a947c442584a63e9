#!/usr/bin/env node
// Builds the publishable form of one workspace package (run from its directory: `pnpm build`).
//
// In the workspace, `exports` points at the TypeScript sources, so tests, wrangler and Vite use them
// without a build. `publishConfig.exports` says what the published package offers instead, and this
// script produces exactly that, for every subpath both maps name:
//   - JavaScript: esbuild, ESM, every entry in one run with code splitting (shared modules become one
//     chunk, so a class has one identity across subpaths), dependencies left as imports, not minified
//     (consumers minify; `/* @__NO_SIDE_EFFECTS__ */` and `sideEffects: false` keep tree-shaking).
//   - Types: `tsc --emitDeclarationOnly` (TypeScript 7 emits declarations; `isolatedDeclarations` keeps
//     them per file) under dist/types, relative `.ts` specifiers rewritten to `.js`, and one small
//     declaration per entry at the path `publishConfig.exports` names.
// `pnpm pack` then swaps `exports` for `publishConfig.exports`; testing/packaging checks the result.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, posix, relative, resolve } from 'node:path';

const dir = process.cwd();
const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const DIST = join(dir, 'dist');

/** The entries: for each subpath, its source (from `exports`) and its outputs (from `publishConfig.exports`). */
function entries() {
  const source = manifest.exports ?? {};
  const published = manifest.publishConfig?.exports ?? {};
  const list = [];
  for (const [subpath, target] of Object.entries(published)) {
    const from = source[subpath]?.default;
    if (typeof from !== 'string') throw new Error(`${manifest.name}: "${subpath}" is in publishConfig.exports but not in exports.`);
    const js = target.default;
    const types = target.types;
    if (!/^\.\/dist\/[\w./-]+\.js$/.test(js) || !/^\.\/dist\/[\w./-]+\.d\.ts$/.test(types)) {
      throw new Error(`${manifest.name}: "${subpath}" must publish ./dist/<name>.js and ./dist/<name>.d.ts.`);
    }
    if (js.slice(0, -3) !== types.slice(0, -5)) throw new Error(`${manifest.name}: "${subpath}" has JavaScript and types under different names.`);
    list.push({ subpath, source: from, name: js.slice('./dist/'.length, -'.js'.length) });
  }
  for (const subpath of Object.keys(source)) {
    if (!(subpath in published)) throw new Error(`${manifest.name}: "${subpath}" is in exports but not in publishConfig.exports.`);
  }
  return list;
}

function run(cmd, args) {
  const res = spawnSync(cmd, args, { cwd: dir, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

const RELATIVE_TS = /((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]*?)\.ts(['"])/g;

async function main() {
  const list = entries();
  rmSync(DIST, { recursive: true, force: true });

  const require = createRequire(join(dir, 'package.json'));
  const esbuild = await import(require.resolve('esbuild'));
  await esbuild.build({
    absWorkingDir: dir,
    entryPoints: Object.fromEntries(list.map((e) => [e.name, e.source])),
    outdir: 'dist',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    packages: 'external',
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  });

  // Declarations for every source file the entries reach, laid out as in the package.
  const roots = [...new Set(list.map((e) => e.source.replace(/^\.\//, '').split('/')[0]))];
  const tsconfig = join(dir, '.tsconfig.build.json');
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: './tsconfig.json',
      include: roots,
      exclude: ['**/*.test.ts', '**/*.test.tsx', '**/*.test-d.ts', '**/test-support/**'],
      compilerOptions: { noEmit: false, emitDeclarationOnly: true, declaration: true, rootDir: '.', outDir: 'dist/types' },
    }),
  );
  try {
    run(process.execPath, [join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc'), '-p', tsconfig]);
  } finally {
    rmSync(tsconfig, { force: true });
  }
  for (const path of readdirSync(join(DIST, 'types'), { recursive: true })) {
    if (!path.endsWith('.d.ts')) continue;
    const file = join(DIST, 'types', path);
    const text = readFileSync(file, 'utf8');
    const rewritten = text.replace(RELATIVE_TS, '$1$2.js$3');
    if (rewritten !== text) writeFileSync(file, rewritten);
  }
  for (const entry of list) {
    const declaration = join(DIST, `${entry.name}.d.ts`);
    const target = join(DIST, 'types', entry.source.replace(/\.ts$/, '.d.ts'));
    if (!existsSync(target)) throw new Error(`${manifest.name}: no declarations were emitted for ${entry.source}.`);
    let specifier = relative(dirname(declaration), target).split('\\').join(posix.sep).replace(/\.d\.ts$/, '.js');
    if (!specifier.startsWith('.')) specifier = `./${specifier}`;
    const hasDefault = /^export default /m.test(readFileSync(resolve(dir, entry.source), 'utf8'));
    mkdirSync(dirname(declaration), { recursive: true });
    writeFileSync(declaration, `export * from '${specifier}';\n${hasDefault ? `export { default } from '${specifier}';\n` : ''}`);
  }
  console.log(`${manifest.name}: built ${list.map((e) => `dist/${e.name}.js`).join(', ')} with their declarations.`);
}

await main();
