// A linear-time matcher for JSON Schema `pattern`s: it answers what `new RegExp(source, 'u').test(text)` answers,
// in O(text length × program size), by running a Thompson NFA over a set of states (Pike's simulation, without
// captures: `.test` needs none). It never backtracks, so `^(a+)+$` on 'a'.repeat(5000) + '!' takes a few ms where the
// engine's backtracking takes hours. Membership of one code point in a class or escape is the engine's own answer
// (`^(?:[…])$` on that code point, which cannot backtrack), so classes, `\p{…}` and every escape mean what they mean
// natively. Backreferences, lookaround and modifiers are not supported: the compiler returns undefined.

/** The largest program the compiler builds, after counted quantifiers are expanded (`a{1,100}` is 200 states). */
export const MAX_PATTERN_STATES = 10_000;

/**
 * The most states one validation may visit, over all its patterns and texts (each visit costs tens of ns): about a
 * tenth of a second here. Linear time is still time: a 14-byte `[a-z]{0,4998}!` keeps 5,000 states alive per
 * character, and 10,000 characters took 6.7 s; forty texts of 790 characters in one array took as long when each had
 * a budget of its own. Work past it throws {@link PatternWorkError}; realistic patterns on realistic arguments stay
 * far below.
 */
export const MAX_PATTERN_WORK = 4_000_000;

/** What a validation may still spend on its patterns, in state visits; the compiled patterns of one validation share it. */
export interface PatternBudget {
  left: number;
}

/** Thrown when a validation's patterns would visit more than {@link MAX_PATTERN_WORK} states. */
export class PatternWorkError extends Error {
  /** The pattern that was being matched when the budget ran out. */
  readonly pattern: string;
  /** The length of what it was matching (UTF-16 code units). */
  readonly textLength: number;

  /** `subject` names what was matched: `a text` (a string value) or `property names` (their characters in all). */
  constructor(pattern: string, textLength: number, subject = 'a text') {
    super(
      `Matching this value against the schema's patterns would take more than ${MAX_PATTERN_WORK} steps; it stopped at pattern ` +
        `"${pattern}", on ${subject} of ${textLength} characters.`,
    );
    this.name = 'PatternWorkError';
    this.pattern = pattern;
    this.textLength = textLength;
  }
}

/** A parsed pattern: enough to compile it, or to tell whether the engine could backtrack on it for long. */
type Node =
  | { readonly t: 'char'; readonly p: number | string } // a code point, or the source of a one-character atom
  | { readonly t: 'seq' | 'alt'; readonly items: readonly Node[] }
  | { readonly t: 'rep'; readonly node: Node; readonly min: number; readonly max: number }
  | { readonly t: 'assert'; readonly k: string } // ^ $ b B
  | { readonly t: 'group'; readonly node: Node; readonly unsupported: boolean } // lookaround and modifiers are unsupported
  | { readonly t: 'backref' };

const QUANTIFIER = /\{(\d+)(,?)(\d*)\}/y;

/** Parses a pattern the engine accepted with the `u` flag (so its syntax is not checked again here). */
function parse(source: string): Node {
  let i = 0;
  const skipPast = (end: string): void => {
    i = source.indexOf(end, i) + 1;
  };
  const alternatives = (): Node => {
    const items = [sequence()];
    while (source[i] === '|') {
      i++;
      items.push(sequence());
    }
    return items.length === 1 ? (items[0] as Node) : { t: 'alt', items };
  };
  const sequence = (): Node => {
    const items: Node[] = [];
    while (i < source.length && source[i] !== '|' && source[i] !== ')') {
      let node = atom();
      const c = source[i];
      let min = -1;
      let max = Infinity;
      if (c === '*') min = 0;
      else if (c === '+') min = 1;
      else if (c === '?') [min, max] = [0, 1];
      else if (c === '{') {
        QUANTIFIER.lastIndex = i;
        const m = QUANTIFIER.exec(source) as RegExpExecArray;
        min = Number(m[1]);
        max = m[2] === '' ? min : m[3] === '' ? Infinity : Number(m[3]);
        i += m[0].length - 1;
      }
      if (min >= 0) {
        i++;
        if (source[i] === '?') i++; // lazy: the same strings match
        node = { t: 'rep', node, min, max };
      }
      items.push(node);
    }
    return { t: 'seq', items };
  };
  const atom = (): Node => {
    const start = i;
    const c = source.codePointAt(i) as number;
    i += c > 0xffff ? 2 : 1;
    switch (c) {
      case 0x5e: // ^
      case 0x24: // $
        return { t: 'assert', k: String.fromCharCode(c) };
      case 0x2e: // .
        return { t: 'char', p: '.' };
      case 0x5b: {
        // [: in u mode a class holds no nested class; `\` escapes one character, `]` right after `[` or `[^` ends it
        if (source[i] === '^') i++;
        while (source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
        i++;
        return { t: 'char', p: source.slice(start, i) };
      }
      case 0x28: {
        // (
        let unsupported = false;
        if (source[i] === '?') {
          const next = source[i + 1];
          if (next === '<' && source[i + 2] !== '=' && source[i + 2] !== '!') skipPast('>'); // named group
          else {
            unsupported = next !== ':'; // lookahead, lookbehind, modifiers such as (?i:…)
            i = next === '=' || next === '!' ? i + 2 : next === '<' ? i + 3 : source.indexOf(':', i) + 1;
          }
        }
        const node = alternatives();
        i++; // )
        return { t: 'group', node, unsupported };
      }
      case 0x5c: {
        // \
        const e = source[i] as string;
        i++;
        if (e === 'b' || e === 'B') return { t: 'assert', k: e };
        if (e === 'k') {
          skipPast('>');
          return { t: 'backref' };
        }
        if (e >= '1' && e <= '9') {
          while (/\d/.test(source[i] ?? '')) i++;
          return { t: 'backref' };
        }
        if (e === 'x') i += 2;
        else if (e === 'c') i++;
        else if ((e === 'u' || e === 'p' || e === 'P') && source[i] === '{') skipPast('}');
        else if (e === 'u') {
          // \uXXXX, or a surrogate pair written as two escapes, which the u flag reads as one code point
          const lead = Number.parseInt(source.slice(i, i + 4), 16);
          const trail = source.startsWith('\\u', i + 4) ? Number.parseInt(source.slice(i + 6, i + 10), 16) : 0;
          i += lead >= 0xd800 && lead <= 0xdbff && trail >= 0xdc00 && trail <= 0xdfff ? 10 : 4;
        }
        return { t: 'char', p: source.slice(start, i) };
      }
      default:
        return { t: 'char', p: c };
    }
  };
  return alternatives();
}

const OP_CHAR = 0;
const OP_SPLIT = 1;
const OP_JUMP = 2;
const OP_ASSERT = 3;
const OP_MATCH = 4;

class TooLarge extends Error {}

/**
 * Compiles an ECMAScript pattern (the `u` flag's syntax, as JSON Schema uses it) into a function that answers exactly
 * what `new RegExp(source, 'u').test(text)` answers, in time linear in the text. Undefined when the engine rejects the
 * pattern, when it has a backreference, lookaround or modifiers, when its program would pass
 * {@link MAX_PATTERN_STATES} states, or when its groups are nested deeper than the stack allows.
 */
export function compileLinearPattern(source: string): ((text: string, budget?: PatternBudget) => boolean) | undefined {
  let tree: Node;
  try {
    new RegExp(source, 'u');
    tree = parse(source);
  } catch {
    return undefined;
  }
  // The program: op, and for CHAR the atom's index, for SPLIT/JUMP the targets, for ASSERT the assertion.
  const op: number[] = [];
  const x: number[] = [];
  const y: number[] = [];
  const atoms: (number | RegExp)[] = [];
  const atomIndex = new Map<number | string, number>();
  const push = (code: number, a = 0, b = 0): number => {
    if (op.length >= MAX_PATTERN_STATES) throw new TooLarge();
    op.push(code);
    x.push(a);
    y.push(b);
    return op.length - 1;
  };
  const emit = (node: Node): void => {
    switch (node.t) {
      case 'char': {
        let index = atomIndex.get(node.p);
        if (index === undefined) {
          index = atoms.push(typeof node.p === 'number' ? node.p : new RegExp(`^(?:${node.p})$`, 'u')) - 1;
          atomIndex.set(node.p, index);
        }
        push(OP_CHAR, index);
        return;
      }
      case 'assert':
        push(OP_ASSERT, '^$bB'.indexOf(node.k));
        return;
      case 'seq':
        for (const item of node.items) emit(item);
        return;
      case 'group':
        if (node.unsupported) throw new TooLarge();
        emit(node.node);
        return;
      case 'backref':
        throw new TooLarge();
      case 'alt': {
        const jumps: number[] = [];
        const last = node.items.length - 1;
        for (let k = 0; k < last; k++) {
          const split = push(OP_SPLIT, op.length + 1);
          emit(node.items[k] as Node);
          jumps.push(push(OP_JUMP));
          y[split] = op.length;
        }
        emit(node.items[last] as Node);
        for (const j of jumps) x[j] = op.length;
        return;
      }
      case 'rep': {
        const before = op.length;
        for (let k = 0; k < node.min; k++) {
          emit(node.node);
          if (op.length === before) return; // the body matches only the empty string: its copies add nothing
        }
        if (node.max === Infinity) {
          const split = push(OP_SPLIT, op.length + 1);
          emit(node.node);
          push(OP_JUMP, split);
          y[split] = op.length;
          return;
        }
        const splits: number[] = [];
        for (let k = node.min; k < node.max; k++) {
          splits.push(push(OP_SPLIT, op.length + 1));
          emit(node.node);
        }
        for (const s of splits) y[s] = op.length;
      }
    }
  };
  try {
    emit(tree);
    push(OP_MATCH);
  } catch {
    // TooLarge, or groups nested deeper than the stack lets `emit` recurse (a RangeError in V8, InternalError in Firefox)
    return undefined;
  }
  const [ops, xs, ys] = [Int32Array.from(op), Int32Array.from(x), Int32Array.from(y)];
  return (text, budget = { left: MAX_PATTERN_WORK }) => run(source, text, ops, xs, ys, atoms, budget);
}

/** [A-Za-z0-9_]: the word characters of `\b` and `\B` with the `u` flag and without `i`. */
const isWord = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;

function run(
  source: string,
  text: string,
  op: Int32Array,
  x: Int32Array,
  y: Int32Array,
  atoms: readonly (number | RegExp)[],
  budget: PatternBudget,
): boolean {
  let work = budget.left; // states left to visit
  try {
    return simulate();
  } finally {
    budget.left = Math.max(work, 0);
  }
  function simulate(): boolean {
    const size = op.length;
    const mark = new Uint32Array(size); // the step in which a state last joined the list being built
    const seen = new Uint32Array(atoms.length); // the step in which an atom was last tested, and its answer
    const answer = new Uint8Array(atoms.length);
    const stack = new Int32Array(2 * size + 2);
    let list = new Int32Array(size); // the CHAR states alive at the current position
    let following = new Int32Array(size);
    let count = 0;
    let built = 0;
    let step = 1;
    let i = 0;
    let prev = -1; // the code point before the current position (-1 at the start)
    let next = text.length > 0 ? (text.codePointAt(0) as number) : -1; // the one at it (-1 at the end)
    /** Adds a state and every state it reaches without reading, at the current position; true when one is MATCH. */
    const add = (pc: number): boolean => {
      let top = 0;
      stack[top++] = pc;
      while (top > 0) {
        const s = stack[--top] as number;
        if (--work < 0) throw new PatternWorkError(source, text.length);
        if (mark[s] === step) continue;
        mark[s] = step;
        const code = op[s];
        if (code === OP_CHAR) following[built++] = s;
        else if (code === OP_SPLIT) {
          stack[top++] = y[s] as number;
          stack[top++] = x[s] as number;
        } else if (code === OP_JUMP) stack[top++] = x[s] as number;
        else if (code === OP_MATCH) return true;
        else {
          const k = x[s];
          if (k === 0 ? i === 0 : k === 1 ? next < 0 : (isWord(prev) !== isWord(next)) === (k === 2)) stack[top++] = s + 1;
        }
      }
      return false;
    };
    if (add(0)) return true;
    [list, following, count, built] = [following, list, built, 0];
    while (next >= 0) {
      const c = next;
      const width = c > 0xffff ? 2 : 1;
      const char = text.slice(i, i + width);
      i += width;
      prev = c;
      next = i < text.length ? (text.codePointAt(i) as number) : -1;
      step++;
      for (let j = 0; j < count; j++) {
        const s = list[j] as number;
        const a = x[s] as number;
        const atom = atoms[a] as number | RegExp;
        let ok: boolean;
        if (typeof atom === 'number') ok = atom === c;
        else if (seen[a] === step) ok = answer[a] === 1;
        else {
          ok = atom.test(char);
          seen[a] = step;
          answer[a] = ok ? 1 : 0;
        }
        if (ok && add(s + 1)) return true;
      }
      if (add(0)) return true; // `.test` searches: a match may also start here
      [list, following, count, built] = [following, list, built, 0];
    }
    return false;
  }
}

/**
 * Why the engine's own backtracking could take exponential time on a pattern, or undefined when it cannot tell of any
 * reason: a quantifier on a group that holds a quantifier or an alternation (`(a+)+`, `(a|a)*`), or a backreference.
 * A conservative check for what {@link compileLinearPattern} cannot run. A pattern the engine rejects has no risk (it
 * throws before it matches anything).
 */
export function patternRisk(source: string): string | undefined {
  let tree: Node;
  try {
    new RegExp(source, 'u');
  } catch {
    return undefined;
  }
  try {
    tree = parse(source);
  } catch {
    return 'it could not be analysed';
  }
  let reason: string | undefined;
  /** Whether a node holds a quantifier or an alternation. */
  const visit = (node: Node): boolean => {
    switch (node.t) {
      case 'backref':
        reason ??= 'it has a backreference';
        return false;
      case 'rep':
        if (visit(node.node) && node.node.t === 'group') reason ??= 'a quantifier applies to a group that holds a quantifier or an alternation';
        return true;
      case 'group':
        return visit(node.node);
      case 'seq':
      case 'alt': {
        let holds = node.t === 'alt';
        for (const item of node.items) holds = visit(item) || holds;
        return holds;
      }
      default:
        return false;
    }
  };
  try {
    visit(tree);
  } catch {
    return 'it could not be analysed'; // nested deeper than the stack lets `visit` recurse
  }
  return reason;
}
