/**
 * A small, safe arithmetic evaluator: an on-demand tokenizer and a recursive-descent parser that computes as it
 * parses. It knows numbers, + - * / % ^ (and ** for ^), parentheses, unary minus and a fixed table of
 * functions and constants. There is no eval, no Function, and no property lookup on user-supplied
 * names (tables are Maps), so `constructor` or `process.exit()` are just unknown names.
 *
 * Grammar (lowest precedence first; ^ is right-associative and binds tighter than unary minus,
 * so -2^2 = -4 and 2^-1 = 0.5):
 *   expression := term (('+' | '-') term)*
 *   term       := unary (('*' | '/' | '%') unary)*
 *   unary      := ('-' | '+') unary | power
 *   power      := primary ('^' unary)?
 *   primary    := number | name | name '(' arguments? ')' | '(' expression ')'
 */

/** Longest expression accepted. */
export const MAX_EXPRESSION_LENGTH = 200;
/** Deepest nesting of parentheses, unary signs and powers. */
export const MAX_NESTING = 40;

/** A readable evaluation error with the 0-based position it refers to. */
export class CalculatorError extends Error {
  readonly position: number;

  constructor(message: string, position: number) {
    super(message);
    this.name = 'CalculatorError';
    this.position = position;
  }
}

type Operator = '+' | '-' | '*' | '/' | '%' | '^' | '(' | ')' | ',';
type Token =
  | { readonly kind: 'number'; readonly value: number; readonly pos: number; readonly text: string }
  | { readonly kind: 'name'; readonly name: string; readonly pos: number; readonly text: string }
  | { readonly kind: 'op'; readonly op: Operator; readonly pos: number; readonly text: string }
  | { readonly kind: 'end'; readonly pos: number; readonly text: string };

interface FunctionSpec {
  readonly minArgs: number;
  readonly maxArgs: number;
  readonly apply: (args: readonly number[], pos: number) => number;
}

const MANY = 20;

function round(args: readonly number[], pos: number): number {
  const [x = 0, digits = 0] = args;
  if (!Number.isInteger(digits) || digits < 0 || digits > 12) throw new CalculatorError('round(x, digits): digits must be a whole number from 0 to 12', pos);
  const factor = 10 ** digits;
  // Halves away from zero (round(-2.5) = -3, as on paper; Math.round gives -2), on the decimal that was written:
  // 1.005 × 100 is 100.49999999999999 in binary, so without the 15 digits round(1.005, 2) came out as 1.
  const scaled = Number((Math.abs(x) * factor).toPrecision(15));
  return (Math.sign(x) * Math.round(scaled)) / factor;
}

function unary(name: string, fn: (x: number) => number, domain?: (x: number) => string | undefined): FunctionSpec {
  return {
    minArgs: 1,
    maxArgs: 1,
    apply: ([x = 0], pos) => {
      const problem = domain?.(x);
      if (problem) throw new CalculatorError(`${name}(${x}): ${problem}`, pos);
      return fn(x);
    },
  };
}

const FUNCTIONS: ReadonlyMap<string, FunctionSpec> = new Map<string, FunctionSpec>([
  ['sqrt', unary('sqrt', Math.sqrt, (x) => (x < 0 ? 'the square root of a negative number is not a real number' : undefined))],
  ['abs', unary('abs', Math.abs)],
  ['floor', unary('floor', Math.floor)],
  ['ceil', unary('ceil', Math.ceil)],
  ['ln', unary('ln', Math.log, (x) => (x <= 0 ? 'the logarithm needs a positive number' : undefined))],
  ['log10', unary('log10', Math.log10, (x) => (x <= 0 ? 'the logarithm needs a positive number' : undefined))],
  ['exp', unary('exp', Math.exp)],
  ['round', { minArgs: 1, maxArgs: 2, apply: round }],
  ['min', { minArgs: 1, maxArgs: MANY, apply: (args) => Math.min(...args) }],
  ['max', { minArgs: 1, maxArgs: MANY, apply: (args) => Math.max(...args) }],
]);

const CONSTANTS: ReadonlyMap<string, number> = new Map([
  ['pi', Math.PI],
  ['e', Math.E],
]);

/** The function names the evaluator knows (for descriptions and error messages). */
export const CALCULATOR_FUNCTIONS: readonly string[] = [...FUNCTIONS.keys()];
/** The constant names the evaluator knows. */
export const CALCULATOR_CONSTANTS: readonly string[] = [...CONSTANTS.keys()];


function describeChar(ch: string): string {
  return ch === '"' ? "'\"'" : `"${ch}"`;
}

/** Reads tokens on demand, so errors surface left to right (`process.exit()` fails on `process`, not on `.`). */
class Lexer {
  readonly #source: string;
  #pos = 0;
  // Sticky regexes carry `lastIndex`, so each lexer has its own (no shared mutable module state).
  readonly #number = /\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?/y;
  readonly #name = /[A-Za-z_][A-Za-z0-9_]*/y;
  readonly #space = /\s+/y;

  constructor(source: string) {
    this.#source = source;
  }

  next(): Token {
    const source = this.#source;
    const space = this.#space;
    space.lastIndex = this.#pos;
    if (space.test(source)) this.#pos = space.lastIndex;
    const pos = this.#pos;
    if (pos >= source.length) return { kind: 'end', pos: source.length, text: '' };
    const ch = source[pos] as string;
    if (/[\d.]/.test(ch)) {
      this.#number.lastIndex = pos;
      const match = this.#number.exec(source);
      if (match === null) throw new CalculatorError(`Unexpected ${describeChar(ch)} at position ${pos + 1}`, pos);
      this.#pos = this.#number.lastIndex;
      return { kind: 'number', value: Number(match[0]), pos, text: match[0] };
    }
    if (/[A-Za-z_]/.test(ch)) {
      this.#name.lastIndex = pos;
      const text = (this.#name.exec(source) as RegExpExecArray)[0];
      this.#pos = this.#name.lastIndex;
      return { kind: 'name', name: text.toLowerCase(), pos, text };
    }
    if (ch === '*' && source[pos + 1] === '*') {
      this.#pos += 2;
      return { kind: 'op', op: '^', pos, text: '**' };
    }
    if ('+-*/%^(),'.includes(ch)) {
      this.#pos += 1;
      return { kind: 'op', op: ch as Operator, pos, text: ch };
    }
    throw new CalculatorError(`Unexpected ${describeChar(ch)} at position ${pos + 1}: only numbers, + - * / % ^, parentheses and functions are allowed`, pos);
  }
}

function finite(value: number, pos: number, what: string): number {
  if (Number.isNaN(value)) throw new CalculatorError(`${what} is not a real number`, pos);
  if (!Number.isFinite(value)) throw new CalculatorError(`${what} is too large`, pos);
  return value;
}

class Parser {
  readonly #lexer: Lexer;
  #current: Token;
  #depth = 0;

  constructor(source: string) {
    this.#lexer = new Lexer(source);
    this.#current = this.#lexer.next();
  }

  #advance(): void {
    this.#current = this.#lexer.next();
  }

  #isOp(op: Operator): boolean {
    const token = this.#current;
    return token.kind === 'op' && token.op === op;
  }

  #unexpected(expected: string): CalculatorError {
    const token = this.#current;
    if (token.kind === 'end') return new CalculatorError(`The expression ends too early: expected ${expected}`, token.pos);
    const hint = token.kind === 'op' && token.op === '(' ? ' (write * for multiplication, e.g. 2*(3+4))' : '';
    return new CalculatorError(`Unexpected "${token.text}" at position ${token.pos + 1}: expected ${expected}${hint}`, token.pos);
  }

  #enter(pos: number): void {
    if (++this.#depth > MAX_NESTING) throw new CalculatorError(`The expression is nested too deeply (more than ${MAX_NESTING} levels)`, pos);
  }

  parse(): number {
    const value = this.#expression();
    if (this.#current.kind !== 'end') throw this.#unexpected('an operator or the end of the expression');
    return value;
  }

  #expression(): number {
    let value = this.#term();
    while (this.#isOp('+') || this.#isOp('-')) {
      const { pos } = this.#current;
      const plus = this.#isOp('+');
      this.#advance();
      const right = this.#term();
      value = finite(plus ? value + right : value - right, pos, 'The result');
    }
    return value;
  }

  #term(): number {
    let value = this.#unary();
    for (let token = this.#current; token.kind === 'op' && (token.op === '*' || token.op === '/' || token.op === '%'); token = this.#current) {
      const { op, pos } = token;
      this.#advance();
      const right = this.#unary();
      if (op !== '*' && right === 0) throw new CalculatorError(op === '/' ? 'Division by zero' : 'Modulo by zero', pos);
      value = finite(op === '*' ? value * right : op === '/' ? value / right : value % right, pos, 'The result');
    }
    return value;
  }

  #unary(): number {
    if (this.#isOp('-') || this.#isOp('+')) {
      const { pos } = this.#current;
      const negate = this.#isOp('-');
      this.#advance();
      this.#enter(pos);
      const value = this.#unary();
      this.#depth--;
      return negate ? -value : value;
    }
    return this.#power();
  }

  #power(): number {
    const base = this.#primary();
    if (!this.#isOp('^')) return base;
    const { pos } = this.#current;
    this.#advance();
    this.#enter(pos);
    const exponent = this.#unary(); // right-associative: 2^3^2 = 2^9
    this.#depth--;
    return finite(base ** exponent, pos, `${base}^${exponent}`);
  }

  #primary(): number {
    const token = this.#current;
    if (token.kind === 'number') {
      this.#advance();
      return finite(token.value, token.pos, `The number ${token.text}`);
    }
    if (token.kind === 'op' && token.op === '(') {
      this.#advance();
      this.#enter(token.pos);
      const value = this.#expression();
      this.#depth--;
      if (!this.#isOp(')')) throw this.#unexpected('")"');
      this.#advance();
      return value;
    }
    if (token.kind === 'name') {
      const fn = FUNCTIONS.get(token.name);
      const constant = CONSTANTS.get(token.name);
      if (fn === undefined && constant === undefined) {
        throw new CalculatorError(
          `Unknown name "${token.text}" at position ${token.pos + 1}. Functions: ${CALCULATOR_FUNCTIONS.join(', ')}; constants: ${CALCULATOR_CONSTANTS.join(', ')}`,
          token.pos,
        );
      }
      this.#advance();
      if (fn !== undefined) return this.#call(token.text, fn, token.pos);
      if (this.#isOp('(')) throw new CalculatorError(`"${token.text}" is a constant, not a function`, token.pos);
      return constant as number;
    }
    throw this.#unexpected('a number, a function or "("');
  }

  #call(name: string, fn: FunctionSpec, pos: number): number {
    if (!this.#isOp('(')) throw this.#unexpected(`"(" after the function ${name}`);
    this.#advance();
    this.#enter(pos);
    const args: number[] = [];
    if (!this.#isOp(')')) {
      args.push(this.#expression());
      while (this.#isOp(',')) {
        this.#advance();
        args.push(this.#expression());
      }
    }
    this.#depth--;
    if (!this.#isOp(')')) throw this.#unexpected('"," or ")"');
    this.#advance();
    if (args.length < fn.minArgs || args.length > fn.maxArgs) {
      // min and max take "at least 1" while too few are given; past MANY the bound that was broken is the upper one.
      const wanted =
        fn.minArgs === fn.maxArgs ? `${fn.minArgs}` : fn.maxArgs === MANY && args.length < fn.minArgs ? `at least ${fn.minArgs}` : `${fn.minArgs} to ${fn.maxArgs}`;
      const noun = / 1$|^1$/.test(wanted) ? 'argument' : 'arguments';
      throw new CalculatorError(`${name}() takes ${wanted} ${noun}, got ${args.length}`, pos);
    }
    return finite(fn.apply(args, pos), pos, `${name}(${args.join(', ')})`);
  }
}

/**
 * Evaluates an arithmetic expression. Throws a {@link CalculatorError} with a readable message for
 * anything else. Results are rounded to 15 significant digits (0.1 + 0.2 = 0.3).
 */
export function evaluate(expression: string): number {
  if (typeof expression !== 'string') throw new CalculatorError('The expression must be a string', 0);
  if (expression.length > MAX_EXPRESSION_LENGTH) {
    throw new CalculatorError(`The expression is too long (${expression.length} characters; at most ${MAX_EXPRESSION_LENGTH})`, MAX_EXPRESSION_LENGTH);
  }
  if (expression.trim() === '') throw new CalculatorError('The expression is empty', 0);
  const value = new Parser(expression).parse();
  const rounded = Number(finite(value, 0, 'The result').toPrecision(15));
  return rounded === 0 ? 0 : rounded; // no -0
}
