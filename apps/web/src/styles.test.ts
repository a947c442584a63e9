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

  it('writes white on the accent fill, and muted text on every panel, at 4.5:1 or more', () => {
    expect(contrast('#ffffff', colour('accent-fill'))).toBeGreaterThanOrEqual(4.5);
    for (const ground of ['bg', 'panel', 'panel-2']) expect(contrast(colour('muted'), colour(ground))).toBeGreaterThanOrEqual(4.5);
  });
});
