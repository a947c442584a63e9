// The type and class names the READMEs set in code (`ToolContext`, `ToolError`, `ChatAgentOptions`) are ones a reader
// can import: each is declared by an export of our packages or apps, is a global of the runtime (`AbortSignal`,
// `TypeError`), or is one of the AI SDK's. The README and @edgetool/core's README named a `ToolChain` that no package
// has ever exported (the chain is made of `ToolInterceptor`s), so a user's `import type { ToolChain }` failed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
/** The READMEs, and the pages of docs/ (the guides hold what the README used to). docs/architecture.md is left out: its
 * decisions name what other libraries declare (`StreamableHTTPServerTransport`, `Ajv2020`) and type parameters. */
const READMES = [
  'README.md',
  'packages/core/README.md',
  'packages/ai/README.md',
  'packages/react/README.md',
  'apps/worker/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((file) => file.endsWith('.md') && file !== 'architecture.md')
    .map((file) => `docs/${file}`),
];

/** Every `.ts`/`.tsx` file under `dir`, tests and declarations of tests left out. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The names our code exports (barrels are `export *`, so every public name is declared with `export`). */
const declared = new Set(
  ['packages/core/src', 'packages/ai/src', 'packages/react/src', 'apps/worker/src'].flatMap(sources).flatMap((file) =>
    [...readFileSync(join(ROOT, file), 'utf8').matchAll(/export (?:declare )?(?:abstract )?(?:interface|type|class|function|const) ([A-Za-z_]\w*)/g)].map(
      ([, name = '']) => name,
    ),
  ),
);
/** The AI SDK's declarations, which the READMEs cite for its types (`ToolSet`, `LanguageModelUsage`). */
const aiSdk = readFileSync(join(import.meta.dirname, '..', 'node_modules', 'ai', 'dist', 'index.d.ts'), 'utf8');
/** Words in code that are no type of ours: other runtimes, a type parameter, HTTP header and cookie names. */
const OTHERS = new Set(['AsyncLocalStorage', 'Bun', 'Deno', 'Deps', 'Allow', 'Origin', 'HttpOnly']);

/** The capitalised names a Markdown file sets in code spans outside code blocks (`Name`, `Name<…>`, `Name.x`, `Name(`). */
function typeNamesOf(text: string): string[] {
  const prose = text.replace(/^```[\s\S]*?^```$/gm, '');
  const names = [...prose.matchAll(/`([A-Z][A-Za-z0-9]*)(?=[`<.[(])/g)].map(([, name = '']) => name);
  return [...new Set(names)].filter((name) => !/^[A-Z0-9_]+$/.test(name));
}

/** Where a name comes from, or `undefined` when nothing declares it. */
function sourceOf(name: string): string | undefined {
  if (declared.has(name)) return 'edgetool';
  if (name in globalThis) return 'runtime';
  if (new RegExp(`\\b(?:type|interface|class|declare const|declare function) ${name}\\b`).test(aiSdk)) return 'ai';
  return OTHERS.has(name) ? 'other' : undefined;
}

describe('the type names of the READMEs', () => {
  it('reads names in code spans, not code blocks nor constants', () => {
    expect(typeNamesOf('`ToolError` and `ToolContext<Vars>`, `ToolError.isInstance(e)`, `PORT`\n```ts\nconst x: Nope = 1;\n```\n')).toEqual([
      'ToolError',
      'ToolContext',
    ]);
    expect(['ToolError', 'TypeError', 'ToolSet', 'Deps', 'ToolChain'].map(sourceOf)).toEqual(['edgetool', 'runtime', 'ai', 'other', undefined]);
  });

  it.each(READMES)('every type name %s shows is one a reader can import or use', (file) => {
    const unknown = typeNamesOf(readFileSync(join(ROOT, file), 'utf8')).filter((name) => sourceOf(name) === undefined);
    expect(unknown).toEqual([]);
  });
});
