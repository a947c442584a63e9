/**
 * What edgetool weighs in a chat UI: the demo's browser bundle (apps/web, the same entry Vite builds),
 * bundled with esbuild for the browser (minified, production React), split by package from the metafile.
 * The point of reference is the rest of the same bundle: React, the AI SDK's `useChat` and what it brings.
 */
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { type BenchReport, bytes, type Table } from './report.ts';
import { ROOT } from './workers.ts';
import { packageOf } from './worker-size.bench.ts';

const ENTRY = join(ROOT, 'apps', 'web', 'src', 'main.tsx');

/** edgetool's own groups (the rest are the app and third-party packages). */
const EDGETOOL = ['@edgetool/core', '@edgetool/react', '@edgetool/ai (protocol types and constants)'] as const;

/** The package (or workspace part) an input belongs to. */
function groupOf(path: string): string {
  const pkg = packageOf(path);
  if (pkg !== undefined) return pkg;
  const p = path.replaceAll('\\', '/');
  if (p.includes('packages/core/')) return EDGETOOL[0];
  if (p.includes('packages/react/')) return EDGETOOL[1];
  if (p.includes('packages/ai/')) return EDGETOOL[2];
  if (p.includes('apps/web/')) return 'the demo app (components, browser tools)';
  return 'other';
}

interface Output {
  readonly path: string;
  readonly contents: Uint8Array;
  readonly inputs: Record<string, { readonly bytesInOutput: number }>;
  readonly imports: readonly { readonly path: string; readonly kind: string }[];
  readonly entryPoint?: string;
}

export async function run(): Promise<BenchReport> {
  const outdir = join(ROOT, 'bench', '.web-size');
  const result = await build({
    entryPoints: [ENTRY],
    // Metafile paths are relative to this directory.
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    // Nothing is written: the directory only names the output files.
    outdir,
    // As Vite does for a browser: a dynamic import() becomes its own chunk, loaded when first needed.
    splitting: true,
    minify: true,
    treeShaking: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    loader: { '.css': 'empty', '.svg': 'empty', '.png': 'empty' },
    metafile: true,
    logLevel: 'silent',
  });
  const meta = result.metafile as Metafile;
  const outputs = new Map<string, Output>();
  for (const file of result.outputFiles) {
    const name = relative(ROOT, file.path);
    const info = meta.outputs[name];
    if (!name.endsWith('.js') || !info) continue;
    outputs.set(name, { path: name, contents: file.contents, inputs: info.inputs, imports: info.imports, ...(info.entryPoint ? { entryPoint: info.entryPoint } : {}) });
  }
  const entry = [...outputs.values()].find((o) => o.entryPoint !== undefined);
  if (!entry) throw new Error('esbuild produced no entry chunk for apps/web');
  // The first load: the entry chunk and every chunk it imports statically.
  const first = new Set<string>();
  const visit = (name: string) => {
    if (first.has(name)) return;
    first.add(name);
    for (const imported of outputs.get(name)?.imports ?? []) if (imported.kind === 'import-statement') visit(imported.path);
  };
  visit(entry.path);
  const sum = (names: Iterable<string>, f: (o: Output) => number) => [...names].reduce((n, name) => n + f(outputs.get(name) as Output), 0);
  const lazy = [...outputs.keys()].filter((name) => !first.has(name));

  const groups = new Map<string, { first: number; lazy: number }>();
  for (const [name, output] of outputs) {
    for (const [input, info] of Object.entries(output.inputs)) {
      const group = groupOf(input);
      const row = groups.get(group) ?? { first: 0, lazy: 0 };
      if (first.has(name)) row.first += info.bytesInOutput;
      else row.lazy += info.bytesInOutput;
      groups.set(group, row);
    }
  }
  const raw = sum(first, (o) => o.contents.byteLength);
  const gzip = sum(first, (o) => gzipSync(o.contents, { level: 9 }).byteLength);
  const lazyRaw = sum(lazy, (o) => o.contents.byteLength);
  const edgetool = EDGETOOL.reduce((n, g) => n + (groups.get(g)?.first ?? 0), 0);
  const pct = (n: number) => `${((n / raw) * 100).toFixed(1)} %`;
  const rows = [...groups].sort((a, b) => b[1].first - a[1].first);
  const table: Table = {
    title: 'The demo chat UI (apps/web/src/main.tsx): minified bytes per package, first load and on demand',
    columns: ['package', 'first load B', 'share of first load', 'on demand B'],
    rows: [
      ...rows.map(([group, n]) => [group, bytes(n.first), pct(n.first), n.lazy ? bytes(n.lazy) : '—']),
      ['**edgetool in all** (core, react, ai constants)', bytes(edgetool), pct(edgetool), '—'],
      ['whole first load', bytes(raw), '100 %', bytes(lazyRaw)],
      ['whole first load, gzip', bytes(gzip), '', ''],
    ],
  };
  const cfworker = groups.get('@cfworker/json-schema');
  return {
    id: 'web-size',
    title: 'Browser bundle',
    method:
      'esbuild (bundle, code splitting as Vite does, minify, tree-shaking, esm, browser, es2022, `NODE_ENV=production`) of apps/web/src/main.tsx, the entry Vite builds; ' +
      'CSS and images left out. "First load" is the entry chunk and the chunks it imports statically; "on demand" is what a dynamic `import()` loads later. ' +
      'Minified bytes per package from the metafile (gzip is not additive, so the split is in minified bytes; the gzip row is the whole first load).',
    tables: [table],
    targets: [],
    notes: [
      `edgetool is ${pct(edgetool)} of the chat UI's first load. The browser gets no tickets, seals or HMAC (they stay on the server); it runs the browser tools through the same executor and chain. ` +
        `zod comes with \`ai\` (\`useChat\` validates UI messages with it).`,
      `\`@cfworker/json-schema\` (${bytes((cfworker?.first ?? 0) + (cfworker?.lazy ?? 0))} B, ${cfworker?.first ? 'in the first load' : 'on demand'}) checks the inputs of server tools against their JSON Schema before the browser authorises them (manual mode). ` +
        '`jsonSchema()` loads it with a dynamic `import()` when the first raw schema is made, so it is not part of the first load.',
    ],
  };
}
