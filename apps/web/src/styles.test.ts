/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The theme's colours, read from styles.css itself (Node: vitest hands a CSS import over empty): the light theme's
// `:root` and the dark theme's override.
const css = readFileSync(new URL('./styles.css', import.meta.url), 'utf8');

function colours(block: string): Map<string, string> {
  return new Map([...block.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})\s*;/gi)].map(([, name, hex]) => [name ?? '', (hex ?? '').toLowerCase()]));
}

const light = colours(/^:root\s*\{([^}]*)\}/m.exec(css)?.[1] ?? '');
const dark = new Map([...light, ...colours(/prefers-color-scheme:\s*dark\)\s*\{\s*:root\s*\{([^}]*)\}/.exec(css)?.[1] ?? '')]);

/** WCAG's contrast ratio of two `#rrggbb` colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r = 0, g = 0, bl = 0] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16) / 255);
    const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(bl);
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((high ?? 0) + 0.05) / ((low ?? 0) + 0.05);
}

describe.each([
  ['light', light],
  ['dark', dark],
])('the %s theme', (_name, theme) => {
  const colour = (name: string): string => {
    const value = theme.get(name);
    if (value === undefined) throw new Error(`styles.css has no --${name}`);
    return value;
  };

  it('writes each tone on its soft background at 4.5:1 or more (the tags, badges and notes)', () => {
    // The light theme's "browser" tags were 3.3:1 (#0d9488 on #e3f6f3), "done" and "running" 4.49 and 4.48.
    const pairs = ['server', 'browser', 'ok', 'warn', 'bad', 'busy', 'accent'].map((tone) => [tone, contrast(colour(tone), colour(`${tone}-soft`))] as const);
    expect(pairs.filter(([, ratio]) => ratio < 4.5)).toEqual([]);
  });

  // Decorative (aria-hidden) marks: WCAG's non-text contrast (1.4.11) asks 3:1 of a graphic's parts. The dark theme's
  // white "et" was 1.8:1 on the avatar's teal end (#2dd4bf) and the white "!" 2.8:1 on the error icon (#f87171).
  it.each(['.avatar', '.error-icon'])('draws the mark of %s at 3:1 or more on each colour of its fill, and the fill on the page', (selector) => {
    const rule = new RegExp(`^${selector.replace('.', '\\.')}\\s*\\{([^}]*)\\}`, 'm').exec(css)?.[1] ?? '';
    const value = (property: string) => new RegExp(`^\\s*${property}:\\s*([^;]+);`, 'm').exec(rule)?.[1] ?? '';
    const resolve = (text: string) =>
      [...text.matchAll(/var\(--([\w-]+)\)|#(?:[0-9a-f]{6}|[0-9a-f]{3})\b/gi)].map(([hex, name]) =>
        name !== undefined ? colour(name) : hex.length === 4 ? `#${[...hex.slice(1)].map((digit) => digit.repeat(2)).join('')}` : hex.toLowerCase(),
      );
    const [ink, ...extra] = resolve(value('color'));
    const fills = resolve(value('background'));
    expect(ink).toBeDefined();
    expect(extra).toEqual([]);
    expect(fills.length).toBeGreaterThan(0);
    const ratios = fills.map((fill) => [fill, contrast(ink ?? '', fill), Math.min(...['bg', 'panel', 'bad-soft'].map((ground) => contrast(fill, colour(ground))))]);
    expect(ratios.filter(([, mark, shape]) => Number(mark) < 3 || Number(shape) < 3)).toEqual([]);
  });

  it('writes white on the accent fill, and muted text on every panel, at 4.5:1 or more', () => {
    expect(contrast('#ffffff', colour('accent-fill'))).toBeGreaterThanOrEqual(4.5);
    for (const ground of ['bg', 'panel', 'panel-2']) expect(contrast(colour('muted'), colour(ground))).toBeGreaterThanOrEqual(4.5);
  });
});

describe('reduced motion', () => {
  it("stops every animation and transition, a pseudo-element's too (the streaming answer's caret blinked on)", () => {
    const plain = css.replace(/\/\*[\s\S]*?\*\//g, '');
    const selectorsOf = (text: string, moving: boolean) =>
      [...text.matchAll(/([^{}]+)\{([^{}]*)\}/g)]
        .filter(([, , body = '']) => !moving || /^\s*(animation|transition)(-[\w-]+)?\s*:/m.test(body))
        .flatMap(([, selectors = '']) => selectors.split(',').map((selector) => selector.trim()));
    const reduce = /@media\s*\(prefers-reduced-motion:\s*reduce\)\s*\{([\s\S]*?)\n\}/.exec(plain)?.[1] ?? '';
    const stopped = new Set(selectorsOf(reduce, false));
    expect(stopped.has('*')).toBe(true);
    // The pseudo-element a selector ends in ('' for an element): `*` matches elements only, so each needs its own.
    const pseudo = (selector: string) => /::[\w-]+$/.exec(selector)?.[0] ?? '';
    const moving = selectorsOf(plain, true);
    expect(moving).toContain('.bubble-streaming::after');
    expect(moving.filter((selector) => !stopped.has(`*${pseudo(selector)}`) && !stopped.has(pseudo(selector)))).toEqual([]);
  });
});
