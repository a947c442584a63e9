/**
 * Bundle size of `@edgetool/core`: esbuild (minify, esm, platform neutral, tree-shaking), raw and
 * gzip bytes. The baseline, bundled the same way in the same run, is the smallest valibot use a
 * tool author ships anyway (`object`, `string`, `number`, `safeParse`).
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { type BenchReport, bytes, ratio, type Table } from './report.ts';

/** Dependencies of the core, left out of the core's own figure (they are counted in row (c)). */
export const CORE_DEPENDENCIES = ['valibot', '@cfworker/json-schema'] as const;
const TARGET_GZIP = 5 * 1024;

export interface Entry {
  readonly label: string;
  readonly source: string;
  readonly external: boolean;
}

export const ENTRIES: readonly Entry[] = [
  { label: '(a) whole API: `export *`', source: "export * from '@edgetool/core';", external: true },
  { label: '(b) typical: defineTool, createExecutor, createRegistry', source: "export { createExecutor, createRegistry, defineTool } from '@edgetool/core';", external: true },
  { label: '(c1) whole API, dependencies included', source: "export * from '@edgetool/core';", external: false },
  { label: '(c2) typical, dependencies included', source: "export { createExecutor, createRegistry, defineTool } from '@edgetool/core';", external: false },
  { label: 'baseline: valibot object+string+number+safeParse', source: "export { number, object, safeParse, string } from 'valibot';", external: false },
];

/** What one import costs on its own: tree-shaking keeps only what it reaches. Dependencies external, then included. */
export const IMPORTS: readonly { readonly label: string; readonly names: string; readonly from?: string }[] = [
  { label: 'a tool: `defineTool` (valibot JSON Schema converter included)', names: 'defineTool' },
  { label: 'an interceptor: `defineInterceptor`', names: 'defineInterceptor' },
  { label: 'the executor: `createExecutor` (chain, registry, approvals, retry, timeout, trace)', names: 'createExecutor' },
  { label: 'tool + executor: `defineTool`, `createExecutor`', names: 'defineTool, createExecutor' },
  { label: 'raw JSON Schema tools: `jsonSchema`', names: 'jsonSchema' },
  { label: 'tickets and seals: `createTicketSigner`', names: 'createTicketSigner' },
  { label: 'toolbox classes: `tool`, `scanTools`', names: 'tool, scanTools' },
  { label: 'lazy tools: `lazyResolver`', names: 'lazyResolver' },
  { label: 'a cache for read tools: `cache` (its memory store included)', names: 'cache' },
  { label: 'an MCP endpoint: `createMcpHandler` from `@edgetool/core/mcp` (the executor included)', names: 'createMcpHandler', from: '@edgetool/core/mcp' },
  { label: 'an MCP client: `connectMcp` from `@edgetool/core/mcp` (remote tools: `defineTool`, `jsonSchema`)', names: 'connectMcp', from: '@edgetool/core/mcp' },
  { label: 'OTLP JSON of trace records: `toOtlpTraces` from `@edgetool/core/otel`', names: 'toOtlpTraces', from: '@edgetool/core/otel' },
  { label: 'an OTLP exporter: `createOtlpExporter`, `setTraceparent`, `readOtlpEnv` from `@edgetool/core/otel`', names: 'createOtlpExporter, setTraceparent, readOtlpEnv', from: '@edgetool/core/otel' },
];

export interface Size {
  readonly raw: number;
  readonly gzip: number;
  readonly inputs: Metafile['outputs'][string]['inputs'];
}

/** Bundles one entry with esbuild (minified, esm, neutral) and measures it. */
export async function bundle(entry: Entry): Promise<Size> {
  const options: BuildOptions = {
    stdin: { contents: entry.source, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    write: false,
    minify: true,
    treeShaking: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    // platform "neutral" sets no main fields; the dependencies resolve through their `exports`, this is a fallback.
    mainFields: ['module', 'main'],
    external: entry.external ? [...CORE_DEPENDENCIES] : [],
    metafile: true,
    logLevel: 'silent',
  };
  const result = await build(options);
  const file = result.outputFiles?.[0];
  if (!file || !result.metafile) throw new Error(`esbuild produced no output for ${entry.label}`);
  const output = Object.values(result.metafile.outputs)[0];
  return { raw: file.contents.byteLength, gzip: gzipSync(file.contents, { level: 9 }).byteLength, inputs: output?.inputs ?? {} };
}

/** The biggest source files in a bundle, as `path bytes` (for the notes). */
function topInputs(size: Size, count: number): string {
  return Object.entries(size.inputs)
    .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
    .slice(0, count)
    .map(([path, info]) => `\`${path.replace(/^.*?packages\/core\//, 'core/').replace(/^.*node_modules\//, '')}\` ${bytes(info.bytesInOutput)} B`)
    .join(', ');
}

export async function run(): Promise<BenchReport> {
  const sizes: Size[] = [];
  for (const entry of ENTRIES) sizes.push(await bundle(entry));
  const base = sizes[sizes.length - 1] as Size;
  const table: Table = {
    title: 'Bundle size (esbuild, minified, esm, platform neutral)',
    columns: ['bundle', 'raw B', 'gzip B', 'gzip vs baseline', 'gzip vs 5 KB target'],
    rows: ENTRIES.map((entry, i) => {
      const s = sizes[i] as Size;
      return [entry.label, bytes(s.raw), bytes(s.gzip), ratio(s.gzip / base.gzip), `${Math.round((s.gzip / TARGET_GZIP) * 100)} %`];
    }),
  };
  const perImport: Table = {
    title: 'What each import costs on its own (gzip B; tree-shaking drops the rest)',
    columns: ['import', 'raw B', 'gzip B', 'gzip B, dependencies included'],
    rows: [],
  };
  for (const { label, names, from = '@edgetool/core' } of IMPORTS) {
    const source = `export { ${names} } from '${from}';`;
    const own = await bundle({ label, source, external: true });
    const withDeps = await bundle({ label, source, external: false });
    (perImport.rows as string[][]).push([label, bytes(own.raw), bytes(own.gzip), bytes(withDeps.gzip)]);
  }
  const [whole, typical, , typicalWithDeps] = sizes as [Size, Size, Size, Size];
  return {
    id: 'core-size',
    title: 'Core size',
    method:
      `\`@edgetool/core\` bundled from \`packages/core/src/index.ts\`; (a) and (b) mark ${CORE_DEPENDENCIES.map((d) => `\`${d}\``).join(', ')} external, ` +
      '(c) includes them. Gzip is zlib level 9. The baseline row is bundled the same way in the same run.',
    tables: [table, perImport],
    targets: [
      { name: 'core (a), whole API, gzip', measured: `${bytes(whole.gzip)} B`, target: `< ${bytes(TARGET_GZIP)} B`, pass: whole.gzip < TARGET_GZIP },
      { name: 'core (b), typical import, gzip', measured: `${bytes(typical.gzip)} B`, target: `< ${bytes(TARGET_GZIP)} B`, pass: typical.gzip < TARGET_GZIP },
    ],
    notes: [
      `Largest inputs of (a), raw minified bytes: ${topInputs(whole, 6)}.`,
      `Largest inputs of (b): ${topInputs(typical, 8)}.`,
      `Largest inputs of (c2): ${topInputs(typicalWithDeps, 3)}.`,
    ],
  };
}
