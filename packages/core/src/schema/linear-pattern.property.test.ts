// compileLinearPattern against the engine: random patterns from a grammar of the syntax it supports (literals, the
// dot, classes, every escape, groups of each kind, alternation with empty alternatives, anchors, \b, greedy, lazy and
// counted quantifiers, some of them out of order, which the engine rejects), each tested on random texts over a small
// alphabet that makes matches likely, with astral code points, a lone surrogate and line terminators. The answer must
// be `new RegExp(p, 'u').test(s)`, or undefined where the engine throws. Texts stay short (at most 8 code points) and
// counted quantifiers small, so the engine's backtracking stays cheap on nested quantifiers. 1,000 patterns per runtime.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileLinearPattern } from './linear-pattern.ts';

const literal = fc.constantFrom('a', 'b', 'c', 'A', '1', '_', '-', ' ', '😀', 'é', ',', '\\.', '\\*', '\\/', '\\(', '\\]', '\\{', '\\\\', '\\$');
const escaped = fc.constantFrom(
  '\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '\\p{L}', '\\P{L}', '\\p{Lu}', '\\p{Emoji_Presentation}',
  '\\u0061', '\\u{1F600}', '\\uD83D\\uDE00', '\\uD83D', '\\x62', '\\cJ', '\\t', '\\n', '\\r', '\\v', '\\f', '\\0', '\\u2028',
);
const klass = fc.constantFrom(
  '[ab]', '[^a]', '[a-c]', '[^a-c]', '[\\d_]', '[😀-😂]', '[^😀]', '[^]', '[]', '[\\w-]', '[-a]', '[\\]a]', '[\\n\\r]', '[\\p{L}1]', '[.]', '[\\b]',
);
const assertion = fc.constantFrom('^', '$', '\\b', '\\B');
const quantifier = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('*', '+', '?') },
  { weight: 4, arbitrary: fc.tuple(fc.nat(3), fc.option(fc.nat(2), { nil: undefined }), fc.boolean()).map(([n, more, open]) => (more === undefined ? `{${n}${open ? ',' : ''}}` : `{${n},${n + more}}`)) },
  { weight: 1, arbitrary: fc.constantFrom('{2,1}', '{1,0}') }, // out of order: a syntax error
).chain((q) => fc.constantFrom(q, `${q}?`));

const { pattern } = fc.letrec<{ pattern: string; alternative: string; term: string; atom: string }>((tie) => ({
  pattern: fc.array(tie('alternative'), { minLength: 1, maxLength: 3 }).map((alternatives) => alternatives.join('|')),
  alternative: fc.oneof({ weight: 1, arbitrary: fc.constant('') }, { weight: 6, arbitrary: fc.array(tie('term'), { minLength: 1, maxLength: 4 }).map((terms) => terms.join('')) }),
  term: fc.oneof(
    { depthSize: 'small' },
    assertion,
    tie('atom'),
    tie('atom'),
    fc.tuple(tie('atom'), quantifier).map(([atom, q]) => atom + q),
  ),
  atom: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    literal,
    literal,
    escaped,
    klass,
    fc.constant('.'),
    fc.tuple(fc.constantFrom('(', '(?:', '(?<n>'), tie('pattern')).map(([open, body]) => `${open}${body})`),
  ),
}));

/** Group names made unique (a repeated name is a syntax error unless the two sit in different alternatives). */
const named = pattern.map((p) => {
  let n = 0;
  return p.replace(/\(\?<n>/g, () => `(?<n${n++}>`);
});

const character = fc.constantFrom('a', 'a', 'b', 'c', 'A', '1', '_', '-', ' ', '\n', '\r', '\u2028', '😀', '😁', '\uD83D', 'é', 'Ω', '.', '\t');
const text = fc.array(character, { maxLength: 8 }).map((chars) => chars.join(''));

const QUIRK = /\B/u.test('a😁a');
// Chromium 156's V8 answers false for `([^]*?[^])^|^` on '' (and `([^😀]+?[^a]^|)*a` on 'a'), where the spec, Node 24
// and workerd answer true: an alternative that cannot match (a `^` after a lazy quantifier over a class) sinks the
// whole pattern. Where the engine has that bug, patterns with both a lazy quantifier and a `^` after an atom have no
// oracle here (linear-pattern.test.ts pins both answers); the 1-in-10,000 pattern it hits failed this test at random.
const LAZY_ANCHOR = '([^]*?[^])^|^'; // a string: the linter refuses `[^]` in a literal
const LAZY_ANCHOR_BUG = !new RegExp(LAZY_ANCHOR, 'u').test('');
const lazyThenAnchor = (p: string) => /[*+?}]\?/.test(p) && /[^|([]\^/.test(p);

describe('compileLinearPattern = new RegExp(p, "u").test (property)', () => {
  it('gives the engine’s answer on random patterns and texts', () => {
    fc.assert(
      fc.property(named, fc.array(text, { minLength: 1, maxLength: 8 }), (p, texts) => {
        let native: RegExp | undefined;
        try {
          native = new RegExp(p, 'u');
        } catch {}
        const test = compileLinearPattern(p);
        if (native === undefined) {
          expect(test).toBeUndefined();
          return;
        }
        expect(test).toBeTypeOf('function');
        if (LAZY_ANCHOR_BUG && lazyThenAnchor(p)) return;
        for (const s of texts) {
          // Node 24's V8 also looks for \B inside a surrogate pair (against the spec; workerd's and Chromium's do not).
          if (QUIRK && p.includes('\\B') && /[\ud800-\udbff][\udc00-\udfff]/.test(s)) continue;
          expect([p, s, test?.(s)]).toEqual([p, s, native.test(s)]);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
