// Build-time helper (Node), not part of the portable runtime: `import { decorators } from '@edgetool/core/vite'`.
import { transform } from 'esbuild';

/** The subset of a Vite/Vitest plugin this needs (keeps `vite` out of our types). */
export interface DecoratorsPlugin {
  readonly name: string;
  readonly enforce: 'pre';
  transform(code: string, id: string): Promise<{ code: string; map: string } | null>;
}

const DECORATOR = /(^|[\s{;(])@[A-Za-z_$][\w$]*/m;

/**
 * esbuild's loader for a file: JavaScript files are parsed as JavaScript, since TypeScript reads some of them otherwise
 * (`a < b > (c)` is a generic call there, and would become `a(c)`).
 */
function loaderOf(file: string): 'js' | 'jsx' | 'ts' | 'tsx' {
  const ext = /\.[cm]?([jt]sx?)$/.exec(file)?.[1];
  return ext === 'js' || ext === 'jsx' || ext === 'tsx' ? ext : 'ts';
}

/**
 * Vite 8 (rolldown/oxc) passes standard TC39 decorators through untransformed, in TypeScript and JavaScript files alike,
 * and no browser runs them yet. This plugin lowers them with esbuild (as wrangler does) before Vite sees the file.
 * `include` picks the files (default: `.ts`, `.tsx`, `.js`, `.jsx` and their `.m`/`.c` forms, outside `node_modules`).
 */
export function decorators(options: { readonly include?: RegExp } = {}): DecoratorsPlugin {
  const include = options.include ?? /\.[cm]?[jt]sx?$/;
  return {
    name: 'edgetool:decorators',
    enforce: 'pre',
    async transform(code, id) {
      const file = id.split('?')[0] ?? id;
      if (file.includes('/node_modules/') || !include.test(file) || !DECORATOR.test(code)) return null;
      const result = await transform(code, {
        loader: loaderOf(file),
        target: 'es2022',
        format: 'esm',
        jsx: 'preserve',
        sourcemap: 'external',
        sourcefile: file,
        // No `verbatimModuleSyntax`: like tsc and Vite, drop imports only used as types (`import { ToolContext }`),
        // which the runtime module does not export. Side-effect imports (`import './x'`) are always kept.
        tsconfigRaw: { compilerOptions: { experimentalDecorators: false, useDefineForClassFields: true } },
      });
      return { code: result.code, map: result.map };
    },
  };
}
