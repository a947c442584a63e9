// Every `vi.waitFor` of the hook's browser tests waits `LOADED` (5 s), never its default of 1 s: a run on a loaded 2-core
// machine failed five manual-mode tests at 1 s (docs/testing.md, "Tests on a busy machine"). A bare one passes on a quiet
// machine and fails under load, so it is refused here, where it is written. The files are read as text through Vite's
// `import.meta.glob` (no `node:` module): the check runs on both projects.
import { describe, expect, it } from 'vitest';

declare global {
  interface ImportMeta {
    glob<T>(pattern: string, options: { readonly query: '?raw'; readonly import: 'default'; readonly eager: true }): Record<string, T>;
  }
}

const SOURCES = import.meta.glob<string>('./**/*.browser.test.ts', { query: '?raw', import: 'default', eager: true });

const CLOSE: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' };

/**
 * The index just past what starts at `index`: a string or template (its `${…}` read as code), a comment or a bracket
 * group as a whole, else the one character. A regular expression literal with an unmatched bracket would confuse it:
 * the tests write none inside a wait.
 */
function skip(source: string, index: number): number {
  const char = source[index] ?? '';
  if (char === "'" || char === '"' || char === '`') {
    let at = index + 1;
    while (at < source.length && source[at] !== char) {
      if (source[at] === '\\') at += 2;
      else if (char === '`' && source.startsWith('${', at)) at = skip(source, at + 1);
      else at++;
    }
    return at + 1;
  }
  if (source.startsWith('//', index)) {
    const end = source.indexOf('\n', index);
    return end === -1 ? source.length : end;
  }
  if (source.startsWith('/*', index)) {
    const end = source.indexOf('*/', index + 2);
    return end === -1 ? source.length : end + 2;
  }
  const close = CLOSE[char];
  if (close === undefined) return index + 1;
  let at = index + 1;
  while (at < source.length && source[at] !== close) at = skip(source, at);
  return at + 1;
}

/** The top-level arguments of the call whose `(` is at `open`, as written without comments (trimmed; a trailing comma adds none). */
function callArguments(source: string, open: number): string[] {
  const args: string[] = [];
  let text = '';
  let at = open + 1;
  while (at < source.length && source[at] !== ')') {
    if (source[at] === ',') {
      args.push(text.trim());
      text = '';
      at++;
    } else {
      const next = skip(source, at);
      if (!source.startsWith('//', at) && !source.startsWith('/*', at)) text += source.slice(at, next);
      at = next;
    }
  }
  args.push(text.trim());
  return args.filter((arg) => arg !== '');
}

/** Each `vi.waitFor(…)` of `source` whose second and last argument is not `LOADED`, as `line: the line it starts on`. */
function unboundWaits(source: string): string[] {
  const lines = source.split('\n');
  const found: string[] = [];
  for (const match of source.matchAll(/\bvi\.waitFor\s*\(/g)) {
    const args = callArguments(source, (match.index ?? 0) + match[0].length - 1);
    if (args.length === 2 && args[1] === 'LOADED') continue;
    const line = source.slice(0, match.index).split('\n').length;
    found.push(`${line}: ${lines[line - 1]?.trim()}`);
  }
  return found;
}

describe('the hook tests wait on state with LOADED', () => {
  it('reads the browser test files (the glob finds them)', () => {
    expect(Object.keys(SOURCES).map((path) => path.replace(/^.*\//, '')).sort()).toEqual(
      expect.arrayContaining(['resume.browser.test.ts', 'use-edge-chat.browser.test.ts']),
    );
  });

  it.each(Object.entries(SOURCES))('%s: every vi.waitFor takes LOADED', (_path, source) => {
    expect(source).toMatch(/\bconst LOADED = \{ timeout: 5_000 \} as const;/);
    expect(unboundWaits(source)).toEqual([]);
  });

  it('finds a bare wait, one with its own bound or options, across lines, past strings, templates and comments', () => {
    const source = [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source under check holds a template literal.
      "await vi.waitFor(() => expect(f(')', `${g(')')}`)).toBe(1), LOADED);",
      'await vi.waitFor(() => expect(h()).toBe(2));',
      'await vi.waitFor(',
      '  () => expect(h(/* ) */ 3)).toEqual({ a: [1, 2] }), // ) (',
      '  LOADED,',
      ');',
      'await vi.waitFor(() => expect(h()).toBe(4), { timeout: 1_000 });',
      'await vi.waitFor(() => expect(h()).toBe(5), { ...LOADED, interval: 5 });',
    ].join('\n');
    expect(unboundWaits(source)).toEqual([
      '2: await vi.waitFor(() => expect(h()).toBe(2));',
      '7: await vi.waitFor(() => expect(h()).toBe(4), { timeout: 1_000 });',
      '8: await vi.waitFor(() => expect(h()).toBe(5), { ...LOADED, interval: 5 });',
    ]);
  });
});
