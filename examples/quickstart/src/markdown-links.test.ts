// The repository's Markdown links resolve: every relative link (README.md, packages/*/README.md, docs/*.md, …) names
// a file or folder that exists, and every `#anchor` one of the target's headings as GitHub slugs them. A published
// package's README is read on npm, where the repository is not: its relative links stay inside what the package ships.
// A path written in a code span from one of the repository's top folders (`apps/worker/src/index.ts`) exists too.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
/** Folders that hold no documentation of ours: installs, builds, test output. */
const SKIPPED = new Set(['node_modules', '.git', '.tools', '.turbo', '.wrangler', 'dist', 'output', 'test-results', 'playwright-report', 'packed', 'coverage']);

/** Every Markdown file under `dir`, as paths relative to the repository. */
function markdownFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** The text outside fenced code blocks; a line inside one becomes empty, so line numbers stay. */
function withoutCodeBlocks(text: string): string {
  let fence: string | undefined;
  return text
    .split('\n')
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === undefined && marker !== undefined) fence = marker;
      else if (fence !== undefined && marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      else if (fence === undefined) return line;
      return '';
    })
    .join('\n');
}

/** A heading's anchor as GitHub makes it: its text, lower case, without punctuation, spaces as hyphens. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors a Markdown file has: its headings' slugs (the second of a name gets `-1`), and `<a id>`/`<a name>`. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const body = withoutCodeBlocks(text);
  for (const [, heading = ''] of body.matchAll(/^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/gm)) {
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const [, id = ''] of body.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)) anchors.add(id);
  return anchors;
}

/** The link targets of a Markdown file, outside code: inline links and images, and reference definitions. */
function linksOf(text: string): { readonly target: string; readonly line: number }[] {
  const links: { target: string; line: number }[] = [];
  withoutCodeBlocks(text)
    .split('\n')
    .forEach((raw, index) => {
      const line = raw.replace(/(`+)[^`]*?\1/g, '');
      for (const [, target = ''] of line.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target, line: index + 1 });
      const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line)?.[1];
      if (definition !== undefined) links.push({ target: definition, line: index + 1 });
    });
  return links;
}

/** The published package a file belongs to: its folder and what `npm pack` ships of it, or `undefined`. */
function publishedPackageOf(file: string): { readonly dir: string; readonly ships: (path: string) => boolean } | undefined {
  const dir = /^packages\/[^/]+(?=\/)/.exec(file)?.[0];
  if (dir === undefined || !existsSync(join(ROOT, dir, 'package.json'))) return undefined;
  const manifest = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as { readonly private?: boolean; readonly files?: readonly string[] };
  if (manifest.private === true) return undefined;
  // npm always ships these; the rest only under `files` (a folder there ships all it holds).
  const always = ['package.json', 'README.md', 'LICENSE'];
  const files = (manifest.files ?? []).map((entry) => entry.replace(/^\.\//, '').replace(/\/$/, ''));
  const ships = (path: string) => always.includes(path) || files.some((entry) => path === entry || path.startsWith(`${entry}/`));
  return { dir, ships };
}

/** What is wrong with one relative link of `file`, or `undefined` when it resolves. */
function brokenLink(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return undefined;
  const hash = target.indexOf('#');
  const path = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const resolved = path === '' ? file : relative(ROOT, join(ROOT, dirname(file), path));
  const published = publishedPackageOf(file);
  if (published !== undefined) {
    const inside = relative(published.dir, resolved);
    if (inside.startsWith('..') || !published.ships(inside)) return `${resolved} is not in the published ${published.dir} (npm shows this README without the repository)`;
  }
  if (resolved.startsWith('..') || !existsSync(join(ROOT, resolved))) return `no file ${resolved}`;
  if (anchor === undefined) return undefined;
  if (!resolved.endsWith('.md')) return /^L\d+(-L\d+)?$/.test(anchor) ? undefined : `#${anchor} in a file that is not Markdown`;
  return anchorsOf(readFileSync(join(ROOT, resolved), 'utf8')).has(anchor) ? undefined : `no heading #${anchor} in ${resolved}`;
}

/** The repository's top folders: a code span that starts with one (`apps/worker/src/http/allowed-host.ts`) is a path. */
const TOP_FOLDERS = ['packages', 'apps', 'docs', 'e2e', 'testing', 'bench', 'examples', 'scripts'];
/** What `.gitignore` names without a pattern (`.dev.vars`, `e2e/output/`): made by a build or a run, never committed. */
const GENERATED = readFileSync(join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim().replace(/\/$/, ''))
  .filter((line) => line !== '' && !line.startsWith('#') && !/[*?[]/.test(line));

/** The repository paths `file` names in code spans outside code blocks (no globs, no commands), with their lines. */
function codePathsOf(text: string): { readonly path: string; readonly line: number }[] {
  const top = new RegExp(`^(?:\\.{1,2}/)*(?:${TOP_FOLDERS.join('|')})/`);
  return withoutCodeBlocks(text)
    .split('\n')
    .flatMap((raw, index) =>
      [...raw.matchAll(/`([^`\s]+)`/g)]
        .map(([, span = '']) => span.replace(/:\d+(?:-\d+)?$/, '').replace(/[.,;:)]+$/, ''))
        .filter((span) => top.test(span) && !/[*?{}<>$]/.test(span))
        .map((path) => ({ path, line: index + 1 })),
    );
}

/** What is wrong with a path `file` names in a code span (from the repository's root or from its own folder). */
function brokenCodePath(file: string, path: string): string | undefined {
  const segments = path.split('/');
  if (GENERATED.some((entry) => (entry.includes('/') ? `${path}/`.startsWith(`${entry}/`) : segments.includes(entry)))) return undefined;
  if (existsSync(join(ROOT, path)) || existsSync(join(ROOT, dirname(file), path))) return undefined;
  return `no file ${path}`;
}

describe('Markdown links', () => {
  const files = markdownFiles('');

  it('finds the documentation: the READMEs and docs/', () => {
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'packages/core/README.md', 'packages/ai/README.md', 'packages/react/README.md', 'docs/architecture.md', 'docs/testing.md', 'docs/tools.md']),
    );
  });

  it('slugs headings as GitHub does', () => {
    expect(slug('The same tools over MCP (`@edgetool/core/mcp`)')).toBe('the-same-tools-over-mcp-edgetoolcoremcp');
    expect(slug('Tokens a tool spends (`ctx.reportUsage`)')).toBe('tokens-a-tool-spends-ctxreportusage');
    expect(slug('30-second example')).toBe('30-second-example');
    expect(slug('Size and speed: the targets we hold, and the three we miss')).toBe('size-and-speed-the-targets-we-hold-and-the-three-we-miss');
    expect(slug('Decisions (chat loop)')).toBe('decisions-chat-loop');
    expect(slug('Runtimes (vitest `projects`)')).toBe('runtimes-vitest-projects');
  });

  it("keeps a published package's README inside what the package ships", () => {
    expect(brokenLink('packages/core/README.md', '../../README.md')).toMatch(/^README\.md is not in the published packages\/core/);
    expect(brokenLink('packages/react/README.md', '../ai/README.md')).toMatch(/is not in the published packages\/react/);
    expect(brokenLink('packages/core/README.md', 'src/index.ts')).toMatch(/^packages\/core\/src\/index\.ts is not in the published/);
    expect(brokenLink('packages/core/README.md', 'LICENSE')).toBeUndefined();
    expect(brokenLink('packages/core/README.md', '#install')).toBeUndefined();
    expect(brokenLink('packages/core/README.md', 'https://standardschema.dev')).toBeUndefined();
    // The rest of the repository may link anywhere in it.
    expect(brokenLink('docs/architecture.md', '../packages/core/src/index.ts')).toBeUndefined();
  });

  it('reads the paths of code spans, and skips what a build or a run makes', () => {
    expect(codePathsOf('see `apps/worker/src/index.ts:12`, `packages/core/src/`, `npm test` and `examples/*.ts`')).toEqual([
      { path: 'apps/worker/src/index.ts', line: 1 },
      { path: 'packages/core/src/', line: 1 },
    ]);
    expect(codePathsOf('```\n`apps/none.ts`\n```\n`docs/none.md`.')).toEqual([{ path: 'docs/none.md', line: 4 }]);
    expect(brokenCodePath('README.md', 'packages/core/src/tool/define-tool.ts')).toBeUndefined();
    expect(brokenCodePath('README.md', 'packages/core/src/tool/defined-tool.ts')).toBe('no file packages/core/src/tool/defined-tool.ts');
    expect(brokenCodePath('apps/worker/README.md', 'scripts/dev.mjs')).toBeUndefined();
    expect(brokenCodePath('README.md', 'apps/worker/.dev.vars')).toBeUndefined();
    expect(brokenCodePath('docs/testing.md', 'e2e/output/screenshots/')).toBeUndefined();
    expect(brokenCodePath('apps/worker/README.md', 'apps/web/dist/index.html')).toBeUndefined();
  });

  it("every page of docs/ is linked from the README's Guides, the front door's way to what it left out", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const guides = readme.slice(readme.indexOf('\n## Guides\n'), readme.indexOf('\n## ', readme.indexOf('\n## Guides\n') + 1));
    const linked = new Set(linksOf(guides).map(({ target }) => target.split('#')[0]));
    const pages = files.filter((file) => /^docs\/[^/]+\.md$/.test(file));
    expect(pages.length).toBeGreaterThan(3);
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });

  it("the Guides table says which question each guide answers: a question first, then the guide's link", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const guides = readme.slice(readme.indexOf('\n## Guides\n'), readme.indexOf('\n## ', readme.indexOf('\n## Guides\n') + 1));
    const rows = guides
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| ---'))
      .slice(1)
      .map((line) => line.split(' | ').map((cell) => cell.replace(/^\| /, '')));
    expect(rows.length).toBeGreaterThan(10);
    for (const [question = '', guide = ''] of rows) {
      expect({ question, guide }).toEqual({ question: expect.stringMatching(/^[A-Z][^[\]]*\?$/), guide: expect.stringMatching(/^\[[^\]]+\]\([^)]+\.md\)/) });
    }
  });

  it('every page of docs/ opens with a way back to the Guides, the first line after its title', () => {
    const pages = files.filter((file) => /^docs\/[^/]+\.md$/.test(file));
    const without = pages.filter((page) => readFileSync(join(ROOT, page), 'utf8').split('\n')[2] !== '[edgetool](../README.md) › [guides](../README.md#guides)');
    expect(without).toEqual([]);
  });

  it('the README and the guides say a thing in one place: no prose line of theirs is written in two of them', () => {
    const pages = files.filter((file) => file === 'README.md' || /^docs\/[^/]+\.md$/.test(file));
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const page of pages) {
      for (const raw of withoutCodeBlocks(readFileSync(join(ROOT, page), 'utf8')).split('\n')) {
        const line = raw.trim();
        // Tables, short lines and a lone link (a "see …" on a line of its own) are not a thing said.
        if (line.length < 60 || line.startsWith('|') || /^\[[^\]]+\]\([^)]+\)[).,;:]*$/.test(line)) continue;
        const first = seen.get(line);
        if (first !== undefined && first !== page) twice.push(`${first} and ${page}: ${line}`);
        seen.set(line, first ?? page);
      }
    }
    expect(twice).toEqual([]);
  });

  it.each(files.filter((file) => /^(README\.md|docs\/[^/]+\.md|(packages|apps)\/[^/]+\/README\.md)$/.test(file)))('%s wraps its prose by hand at about 120 columns', (file) => {
    // A line over 130 columns is too long when it could have been broken: when a space outside its code spans and
    // links comes before column 130. One long code span or link alone on its line cannot be.
    const tooLong = withoutCodeBlocks(readFileSync(join(ROOT, file), 'utf8'))
      .split('\n')
      .flatMap((line, index) => {
        if (line.length <= 130 || line.trimStart().startsWith('|')) return [];
        const spaces = line.replace(/(`+)[\s\S]*?\1|!?\[[^\]]*\]\([^)]*\)/g, (atom) => 'x'.repeat(atom.length));
        const breakable = [...spaces.matchAll(/\S( )/g)].some((match) => (match.index ?? 0) + 1 <= 130);
        return breakable ? [`${file}:${index + 1} (${line.length} columns)`] : [];
      });
    expect(tooLong).toEqual([]);
  });

  it("the README's Contents line leads to each of its sections but the license, in the order they come", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const contents = readme.slice(readme.indexOf('**Contents:**'), readme.indexOf('\n\n', readme.indexOf('**Contents:**')));
    const linked = linksOf(contents).map(({ target }) => target.replace(/^#/, ''));
    const body = withoutCodeBlocks(readme);
    const sections = [...body.matchAll(/^## (.*)$/gm)].map(([, heading = '']) => slug(heading)).filter((anchor) => anchor !== 'license');
    expect(linked.filter((anchor) => sections.includes(anchor))).toEqual(sections);
    const headings = anchorsOf(readme);
    expect(linked.filter((anchor) => !headings.has(anchor))).toEqual([]);
  });

  it('docs/ never says "the README says": what the README said moved into the guides, and a page links the one that says it', () => {
    // "the README says to keep `ttlMs` short" pointed at text the README no longer holds once the guides took it.
    const pages = files.filter((file) => /^docs\/[^/]+\.md$/.test(file));
    const unlinked = pages.flatMap((page) =>
      withoutCodeBlocks(readFileSync(join(ROOT, page), 'utf8'))
        .split('\n')
        .flatMap((line, index) => (/\bREADME says\b/.test(line) ? [`${page}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(unlinked).toEqual([]);
  });

  it.each(files)('every file path named in a code span of %s exists', (file) => {
    const broken = codePathsOf(readFileSync(join(ROOT, file), 'utf8')).flatMap(({ path, line }) => {
      const problem = brokenCodePath(file, path);
      return problem === undefined ? [] : [`${file}:${line} (${path}): ${problem}`];
    });
    expect(broken).toEqual([]);
  });

  it.each(files)('every relative link and anchor in %s resolves', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const broken = linksOf(text).flatMap(({ target, line }) => {
      const problem = brokenLink(file, target);
      return problem === undefined ? [] : [`${file}:${line} (${target}): ${problem}`];
    });
    expect(broken).toEqual([]);
  });
});
