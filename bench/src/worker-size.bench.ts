/**
 * Worker bundle size: `wrangler deploy --dry-run --minify --outdir` (offline, nothing uploaded) of the
 * demo Worker (apps/worker) and of its plain-AI-SDK twin (bench/plain-worker), gzip of the output, and
 * where the difference comes from (esbuild metafile, per package). Both Workers import the same model
 * module (`createModelFromEnv` from @edgetool/ai: the offline model and @ai-sdk/openai), so the
 * difference is the SDK layer plus the app code that uses it; the model module is reported separately.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { bundle, ENTRIES, type Size } from './core-size.bench.ts';
import { type BenchReport, bytes, type Table } from './report.ts';
import { prepareConfig, ROOT, scratch, type WorkerName, WORKERS, wrangler } from './workers.ts';

const TARGET_DIFF_GZIP = 10 * 1024;

interface WorkerBundle {
  readonly raw: number;
  readonly gzip: number;
  /** Minified bytes in the output per group of inputs. */
  readonly groups: Map<string, number>;
  readonly wranglerSays: string;
}

interface Metafile {
  readonly outputs: Record<string, { readonly inputs: Record<string, { readonly bytesInOutput: number }> }>;
}

const GROUPS = {
  coreTickets: '@edgetool/core: tickets, seals, HMAC, canonical JSON, nonce store',
  core: '@edgetool/core: tools, chain, executor, registry, schemas, approvals',
  mcp: 'the MCP endpoint: @edgetool/core/mcp and the /api/mcp route',
  otel: 'OTLP export of traces: @edgetool/core/otel and the demo\'s tracing.ts (off unless configured)',
  aiProofs: '@edgetool/ai: proofs and continuation checks (seals, tickets, verify)',
  aiChat: '@edgetool/ai: chat loop, text turn, agent-as-tool',
  model: '@edgetool/ai: model module (offline model, createModelFromEnv), shared',
  valibot: 'valibot',
  toJsonSchema: '@valibot/to-json-schema',
  cfworker: '@cfworker/json-schema',
  appNonces: 'app code: the D1 nonce store (single-use tickets across isolates)',
  app: 'app code (routes, tools, agent set-up)',
  ai: 'ai (AI SDK core), shared',
  zod: 'zod, shared',
  aiSdk: '@ai-sdk/* (provider-utils, openai, gateway, provider), shared',
  other: 'other dependencies, shared',
} as const;

/** The npm package a bundled input comes from (`@scope/name` or `name`), or `undefined` for workspace code. */
export function packageOf(path: string): string | undefined {
  const p = path.replaceAll('\\', '/');
  const at = p.lastIndexOf('/node_modules/');
  if (at < 0) return undefined;
  const rest = p.slice(at + '/node_modules/'.length);
  return rest.startsWith('@') ? rest.split('/').slice(0, 2).join('/') : (rest.split('/')[0] as string);
}

/** Which group a bundled input belongs to, from its absolute path. */
function groupOf(path: string): string {
  const p = path.replaceAll('\\', '/');
  const pkg = packageOf(p);
  if (pkg !== undefined) {
    if (pkg === 'valibot') return GROUPS.valibot;
    if (pkg === '@valibot/to-json-schema') return GROUPS.toJsonSchema;
    if (pkg === '@cfworker/json-schema') return GROUPS.cfworker;
    if (pkg === 'ai') return GROUPS.ai;
    if (pkg === 'zod') return GROUPS.zod;
    if (pkg.startsWith('@ai-sdk/')) return GROUPS.aiSdk;
    return GROUPS.other;
  }
  if (p.includes('/packages/core/src/tickets/')) return GROUPS.coreTickets;
  if (p.includes('/packages/core/src/mcp/') || p.endsWith('/apps/worker/src/api/mcp.ts')) return GROUPS.mcp;
  if (p.includes('/packages/core/src/otel/') || p.endsWith('/apps/worker/src/tracing.ts')) return GROUPS.otel;
  if (p.includes('/packages/core/')) return GROUPS.core;
  if (p.includes('/packages/ai/src/offline-model/') || p.endsWith('/packages/ai/src/provider.ts')) return GROUPS.model;
  if (/\/packages\/ai\/src\/chat\/(proofs|turn-proofs|verify-continuation)\.ts$/.test(p)) return GROUPS.aiProofs;
  if (p.includes('/packages/ai/')) return GROUPS.aiChat;
  if (p.endsWith('/apps/worker/src/nonce-store.ts')) return GROUPS.appNonces;
  if (p.includes('/apps/') || p.includes('/bench/')) return GROUPS.app;
  return GROUPS.other;
}

function dryRun(name: WorkerName, dir: string): WorkerBundle {
  const config = prepareConfig(name, join(dir, name));
  const outdir = join(dir, name, 'out');
  const metafile = join(dir, name, 'meta.json');
  const output = wrangler(['deploy', '--dry-run', '--minify', '--outdir', outdir, '--metafile', metafile, '-c', config], join(dir, name));
  const files = readdirSync(outdir).filter((f) => /\.(m?js|wasm)$/.test(f));
  const contents = files.map((f) => readFileSync(join(outdir, f)));
  const meta = JSON.parse(readFileSync(metafile, 'utf8')) as Metafile;
  const groups = new Map<string, number>();
  for (const [file, out] of Object.entries(meta.outputs)) {
    if (file.endsWith('.map')) continue;
    for (const [input, info] of Object.entries(out.inputs)) {
      const abs = isAbsolute(input) ? input : resolve(join(dir, name), input);
      const group = groupOf(abs);
      groups.set(group, (groups.get(group) ?? 0) + info.bytesInOutput);
    }
  }
  return {
    raw: contents.reduce((n, c) => n + c.byteLength, 0),
    gzip: contents.reduce((n, c) => n + gzipSync(c, { level: 9 }).byteLength, 0),
    groups,
    wranglerSays: /Total Upload: ([^\n]*)/.exec(output)?.[1]?.trim() ?? '?',
  };
}

/** The model module alone, as both Workers import it (its dependencies external). */
async function modelModule(): Promise<{ raw: number; gzip: number }> {
  const result = await build({
    stdin: { contents: "export { createModelFromEnv } from '@edgetool/ai';", resolveDir: new URL('.', import.meta.url).pathname, loader: 'ts' },
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['module', 'main'],
    external: ['ai', '@ai-sdk/*', '@edgetool/core', 'valibot', 'zod'],
    logLevel: 'silent',
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild produced no output for the model module');
  return { raw: file.contents.byteLength, gzip: gzipSync(file.contents, { level: 9 }).byteLength };
}

/** The groups that exist only because edgetool proves what crosses the client: the plain Worker has none of it. */
const PROOF_GROUPS: readonly string[] = [GROUPS.coreTickets, GROUPS.aiProofs, GROUPS.appNonces];

/** How much of the difference is tickets, seals and their checks (raw bytes are additive; gzip is estimated at the same share). */
function proofShare(edgetool: WorkerBundle, plain: WorkerBundle, diffGzip: number): string {
  const proofs = PROOF_GROUPS.reduce((n, g) => n + (edgetool.groups.get(g) ?? 0), 0);
  const diffRaw = edgetool.raw - plain.raw;
  const share = proofs / diffRaw;
  return (
    `Of the ${signed(diffRaw)} B (minified) edgetool adds, ${bytes(proofs)} B (${Math.round(share * 100)} %) are its proofs: tickets for approvals and client calls, ` +
    `seals on results, the continuation checks and the D1 nonce store. The plain Worker has no equivalent (it trusts the history a client sends back). ` +
    `At the same share of the gzip difference, that is about ${bytes(Math.round((share * diffGzip) / 100) * 100)} B gzip. ` +
    `A further ${bytes(edgetool.groups.get(GROUPS.mcp) ?? 0)} B are the MCP endpoint (\`POST /api/mcp\`) and ${bytes(edgetool.groups.get(GROUPS.otel) ?? 0)} B ` +
    'the OTLP export of traces (bundled, on only with `OTEL_EXPORTER_OTLP_ENDPOINT`), which the plain Worker does not have.'
  );
}

const signed = (n: number) => (n > 0 ? `+${bytes(n)}` : n < 0 ? `−${bytes(-n)}` : '0');

export async function run(): Promise<BenchReport> {
  const { dir, cleanup } = scratch('edgetool-size-');
  let edgetool: WorkerBundle;
  let plain: WorkerBundle;
  try {
    edgetool = dryRun('edgetool', dir);
    plain = dryRun('plain', dir);
  } finally {
    cleanup();
  }
  const core: Size[] = [];
  for (const entry of ENTRIES.slice(0, 4)) core.push(await bundle(entry));
  const model = await modelModule();
  const diffGzip = edgetool.gzip - plain.gzip;
  const sizes: Table = {
    title: 'Worker bundles (wrangler deploy --dry-run --minify; gzip level 9 of the output)',
    columns: ['bundle', 'raw B', 'gzip B', 'wrangler reports'],
    rows: [
      [WORKERS.edgetool.label, bytes(edgetool.raw), bytes(edgetool.gzip), edgetool.wranglerSays],
      [WORKERS.plain.label, bytes(plain.raw), bytes(plain.gzip), plain.wranglerSays],
      ['difference (edgetool − plain)', signed(edgetool.raw - plain.raw), signed(diffGzip), ''],
      ['model module both import (createModelFromEnv, deps external)', bytes(model.raw), bytes(model.gzip), 'esbuild'],
      ...ENTRIES.slice(0, 4).map((entry, i) => [`core alone ${entry.label}`, bytes((core[i] as Size).raw), bytes((core[i] as Size).gzip), 'esbuild (core-size bench)']),
    ],
  };
  const order = Object.values(GROUPS) as string[];
  const breakdown: Table = {
    title: 'Where the bytes are (minified bytes in the output per package, esbuild metafile of the same dry run)',
    columns: ['inputs', 'edgetool B', 'plain B', 'difference B'],
    rows: order
      .filter((g) => edgetool.groups.has(g) || plain.groups.has(g))
      .map((g) => {
        const e = edgetool.groups.get(g) ?? 0;
        const p = plain.groups.get(g) ?? 0;
        return [g, bytes(e), bytes(p), signed(e - p)];
      }),
  };
  return {
    id: 'worker-size',
    title: 'Worker bundle',
    method:
      '`wrangler deploy --dry-run --minify --outdir <tmp> --metafile` (offline, nothing is uploaded) on a copy of each Worker\'s wrangler config (paths made absolute). ' +
      '**edgetool** is apps/worker (`src/index.ts`: the demo routes, D1 tools, agent-as-tool, browser-tool declarations, D1 nonce store on @edgetool/core + @edgetool/ai, ' +
      'an MCP endpoint and OTLP export of traces, off unless configured). **plain** is bench/plain-worker: the same routes but the MCP endpoint, no tracing, the same body limits and router, the same tools (same names, descriptions, SQL) as AI SDK `tool()` with zod input schemas, ' +
      '`streamText` + `toUIMessageStream`, `toolApproval` for the two write tools, a `generateText` sub-agent as edgetool\'s `agentTool` runs, no tickets or seals. ' +
      'Both import the same model module (`createModelFromEnv` from @edgetool/ai) and the app\'s calculator; gzip is zlib level 9 of the emitted JavaScript. ' +
      'The core rows are the core-size bench\'s esbuild bundles, for reference.',
    tables: [sizes, breakdown],
    targets: [
      {
        name: 'worker bundle, edgetool adds (gzip)',
        measured: `${signed(diffGzip)} B (${bytes(edgetool.gzip)} vs ${bytes(plain.gzip)})`,
        target: `< ${bytes(TARGET_DIFF_GZIP)} B`,
        pass: diffGzip < TARGET_DIFF_GZIP,
      },
    ],
    notes: [
      proofShare(edgetool, plain, diffGzip),
      `The model module (offline model + \`createModelFromEnv\`, which imports @ai-sdk/openai) is in both bundles and cancels out of the difference. ` +
        `zod is in both: \`ai\` imports it (${bytes(plain.groups.get(GROUPS.zod) ?? 0)} B minified here), so the plain Worker's zod schemas add no library bytes, while edgetool's demo adds valibot on top (its JSON Schema converter is part of @edgetool/core).`,
      `Paths: ${relative(ROOT, WORKERS.edgetool.config)}, ${relative(ROOT, WORKERS.plain.config)}.`,
    ],
  };
}
