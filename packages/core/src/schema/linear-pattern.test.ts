import { describe, expect, it } from 'vitest';
import { compileLinearPattern, MAX_PATTERN_STATES, patternRisk } from './linear-pattern.ts';

/** Each construct, on texts chosen to sit on both sides of its edge; the engine's answer is the expected one. */
const CASES: readonly (readonly [string, readonly string[]])[] = [
  // literals, the unanchored search, anchors
  ['abc', ['abc', 'xabcx', 'ab', 'a b c', '']],
  ['^abc$', ['abc', 'abcd', 'xabc', 'abc\n']],
  ['^', ['', 'a']],
  ['$', ['', 'a']],
  ['^$', ['', 'a', '\n']],
  ['a$|^b', ['ba', 'ab', 'ca', 'cb']],
  ['', ['', 'x']],
  // the dot: every code point but the four line terminators; a surrogate pair is one character
  ['^.$', ['a', '😀', '\n', '\r', '\u2028', '\u2029', '\u0085', '\uD83D', '']],
  ['^..$', ['😀', 'ab', '\uD83D\uD83D']],
  ['^a.c$', ['abc', 'a\nc', 'a😀c']],
  // alternation, empty alternatives, groups of every kind
  ['^(?:ab|cd|)$', ['ab', 'cd', '', 'abcd']],
  ['^(|a)b$', ['b', 'ab', 'aab']],
  ['^(ab)(?<name>c|d)(?:e)$', ['abce', 'abde', 'abe']],
  ['x(?:)y', ['xy', 'x y']],
  ['(?:)*', ['', 'abc']],
  ['^(?:)+$', ['', 'a']],
  ['^(?:a|)*$', ['', 'aaa', 'ab']],
  ['^(a*)*$', ['', 'aaaa', 'aab']],
  // quantifiers, greedy and lazy, counted, on groups and classes
  ['^a*$', ['', 'aaaa', 'aaba']],
  ['^a+?$', ['', 'a', 'aaa']],
  ['^ab??c$', ['ac', 'abc', 'abbc']],
  ['^a{3}$', ['aa', 'aaa', 'aaaa']],
  ['^a{2,}$', ['a', 'aa', 'aaaaaa']],
  ['^a{2,4}?$', ['a', 'aa', 'aaaa', 'aaaaa']],
  ['^a{0}b$', ['b', 'ab']],
  ['^(?:ab){1,2}c$', ['abc', 'ababc', 'abababc', 'c']],
  ['^[a-c]{2}-\\d{1,3}$', ['ab-1', 'cc-123', 'ab-1234', 'ad-1']],
  ['^(a+)+$', ['a', 'aaaa', 'aaab']],
  ['^(a|aa)+b$', ['aaab', 'b']],
  // \b and \B: word characters are [A-Za-z0-9_] only
  ['\\bfoo\\b', ['foo', 'a foo b', 'afoo', 'foo_', 'foo-bar', 'éfooé']],
  ['\\Bo\\B', ['foo', 'o', 'xox', 'x o']],
  ['^\\b$', ['', 'a']],
  ['^\\B$', ['', 'a']],
  ['a\\b', ['a', 'ab', 'a!']],
  ['\\B', ['a\uD83Da', '😁', 'ab', 'a']],
  ['\\B[^]$', ['a😁', '😁']],
  // classes: ranges, negation, escapes inside, astral ranges, the empty and the full class
  ['^[abc]$', ['a', 'c', 'd', '']],
  ['^[^abc]$', ['a', 'd', '\n', '😀', '']],
  ['^[a-z0-9_-]+$', ['a-b_9', 'A', 'a b']],
  ['^[\\]\\\\^-]+$', [']', '\\', '^', '-', 'a']],
  ['^[\\d\\s]+$', ['1 2', '1\t2', 'a']],
  ['^[😀-😂]+$', ['😀😁😂', '😃', '\uD83D']],
  ['^[^😀]$', ['😀', 'a', '\uD83D']],
  ['^[]$', ['', 'a']],
  ['[]', ['', 'a']],
  ['^[^]$', ['\n', 'a', '😀']],
  ['^[\\b]$', ['\b', 'b']],
  ['^[\\p{L}\\d]+$', ['héllo1', 'Ω', 'a b']],
  // escapes
  ['^\\d\\D\\w\\W\\s\\S$', ['1a_ \t!', '1a_  !', 'aa_ \t!']],
  ['^\\p{L}+$', ['héllo', 'Ωμέγα', 'h3', '😀']],
  ['^\\P{L}$', ['1', 'a']],
  ['^\\p{Script=Greek}$', ['Ω', 'O']],
  ['^\\p{Lu}\\p{Ll}$', ['Ab', 'ab']],
  ['^\\u0041\\u{1F600}\\x42$', ['A😀B', 'A😀b']],
  ['^\\uD83D\\uDE00$', ['😀', '\uD83D\uDE00', '\uD83D']],
  ['^\\uD83D$', ['\uD83D', '😀']],
  ['^\\u{10FFFF}$', ['\u{10FFFF}', 'a']],
  ['^\\cJ\\cm$', ['\n\r', 'cJcm']],
  ['^\\t\\n\\v\\f\\r\\0$', ['\t\n\v\f\r\0', 'tnvfr0']],
  ['^\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$\\\\\\/$', ['.*+?()[]{}|^$\\/', 'a']],
  ['^😀+$', ['😀😀', '😀\uD83D', '']],
];

describe('compileLinearPattern: the engine’s answers, construct by construct', () => {
  for (const [pattern, texts] of CASES) {
    it(`/${pattern}/u`, () => {
      const test = compileLinearPattern(pattern);
      expect(test).toBeTypeOf('function');
      for (const text of texts) expect([text, test?.(text)]).toEqual([text, new RegExp(pattern, 'u').test(text)]);
    });
  }

  it('does not search inside a surrogate pair, as the spec says (Node 24’s V8 does, for a match that reads nothing)', () => {
    // workerd's and Chromium's V8 answer false; Node 24's (13.6) finds \B between the two halves of 😁, at index 2.
    expect(compileLinearPattern('\\B')?.('a😁a')).toBe(false);
    expect(compileLinearPattern('x|\\B\\B$')?.('a😁a')).toBe(false);
    expect(compileLinearPattern('\\B')?.('😁')).toBe(true); // at 0 and at the end, where neither side is a word character
  });

  it('answers as the spec says where Chromium 156’s V8 does not (a `^` after a lazy quantifier over a class)', () => {
    // Node 24 and workerd answer true for both; Chromium 156 answers false: the first alternative cannot match, and it
    // sinks the whole pattern.
    expect(compileLinearPattern('([^]*?[^])^|^')?.('')).toBe(true);
    expect(compileLinearPattern('([^😀]+?[^a]^|)*a')?.('a')).toBe(true);
    expect(compileLinearPattern('([^]*?[^])^|^')?.('a')).toBe(true);
    expect(compileLinearPattern('([^]*?[^])^')?.('ab')).toBe(false);
  });

  it('answers in time linear in the text where the engine backtracks exponentially', () => {
    // The engine takes hours on these; a broken matcher hangs here until the test times out.
    expect(compileLinearPattern('^(a+)+$')?.(`${'a'.repeat(5000)}!`)).toBe(false);
    expect(compileLinearPattern('^(a|aa)*b$')?.('a'.repeat(5000))).toBe(false);
    expect(compileLinearPattern('^(\\w+\\s?)*$')?.(`${'word '.repeat(2000)}!`)).toBe(false);
    expect(compileLinearPattern('(x+x+)+y')?.('x'.repeat(5000))).toBe(false);
    expect(compileLinearPattern('^(a+)+$')?.('a'.repeat(5000))).toBe(true);
  });
});

describe('compileLinearPattern: what it leaves to the caller', () => {
  it('returns undefined for patterns the engine rejects with the u flag, which still throw there', () => {
    for (const pattern of ['a**', '(', 'a{2,1}', '[b-a]', '\\', '{', ']', 'a{', '\\-', '\\q', '(?<n>a)(?<n>b)', '[\\d-z]', '\\p{Nope}', '\\1', '+a']) {
      expect(() => new RegExp(pattern, 'u'), pattern).toThrow(SyntaxError);
      expect(compileLinearPattern(pattern), pattern).toBeUndefined();
    }
  });

  it('returns undefined for backreferences, lookaround and modifiers', () => {
    for (const pattern of ['(a)\\1', '(?<x>a)\\k<x>', 'a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b', '(?i:a)b', '(?-i:a)']) {
      expect(() => new RegExp(pattern, 'u'), pattern).not.toThrow();
      expect(compileLinearPattern(pattern), pattern).toBeUndefined();
    }
  });

  it(`returns undefined for a program over ${MAX_PATTERN_STATES} states once counted quantifiers are expanded`, () => {
    expect(compileLinearPattern('^a{1,100000}$')).toBeUndefined();
    expect(compileLinearPattern('^(?:a{100}){101}$')).toBeUndefined();
    expect(compileLinearPattern('a{99999999999999999999}')).toBeUndefined();
    // ^, the a's, $ and the final state: the largest program there is, and one state more.
    expect(compileLinearPattern(`^a{${MAX_PATTERN_STATES - 3}}$`)?.('a'.repeat(MAX_PATTERN_STATES - 3))).toBe(true);
    expect(compileLinearPattern(`^a{${MAX_PATTERN_STATES - 2}}$`)).toBeUndefined();
    // A body that matches only the empty string adds no states, however often it repeats.
    expect(compileLinearPattern('^(?:){99999999}a$')?.('a')).toBe(true);
  });
});

describe('patternRisk: the conservative check for what the engine runs', () => {
  it('names a quantifier on a group that holds a quantifier or an alternation, and backreferences', () => {
    for (const pattern of ['(a+)+', '^(a|b)*$', '(?:a{2}){3}', '((ab)*c)+', '(?<=(a+)+)b', '(?=(x|y)+)', '(?<n>a*)?']) {
      expect(patternRisk(pattern), pattern).toBe('a quantifier applies to a group that holds a quantifier or an alternation');
    }
    expect(patternRisk('(a)\\1')).toBe('it has a backreference');
    expect(patternRisk('(?<x>a)\\k<x>')).toBe('it has a backreference');
  });

  it('passes patterns without such a group, and patterns the engine rejects (they throw before matching)', () => {
    for (const pattern of ['^[a-z]+$', 'a*b+c?', '(ab)+', '(?:[a-z]{1,10})', 'a|b', '(a|b)', '(?<=a)b+', '(?i:a+)', '^\\d{1,100000}$', 'a**', '(']) {
      expect(patternRisk(pattern), pattern).toBeUndefined();
    }
  });
});
