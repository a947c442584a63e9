import { describe, expect, it } from 'vitest';
import { CalculatorError, evaluate, MAX_EXPRESSION_LENGTH, MAX_NESTING } from './evaluate.ts';

describe('evaluate: arithmetic', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 - 4 - 3', 3],
    ['100 / 10 / 5', 2],
    ['7 % 4', 3],
    ['-7 % 4', -3],
    ['2 ^ 10', 1024],
    ['2 ^ 3 ^ 2', 512],
    ['2 ** 3', 8],
    ['-2 ^ 2', -4],
    ['(-2) ^ 2', 4],
    ['2 ^ -1', 0.5],
    ['--3', 3],
    ['+4 - -4', 8],
    ['3 * -2', -6],
    ['.5 + 1.25', 1.75],
    ['1e3 + 2.5E-1', 1000.25],
    ['0.1 + 0.2', 0.3],
    ['17.5 * 4 + 3', 73],
    ['  ( ( 1 ) )  ', 1],
    ['-0', 0],
  ])('%s = %s', (expression, expected) => {
    expect(evaluate(expression)).toBe(expected);
  });

  it.each([
    ['sqrt(16) + abs(-3)', 7],
    ['round(2.5)', 3],
    ['round(3.14159, 2)', 3.14],
    ['round(-2.5)', -3],
    ['round(-0.4)', 0],
    ['round(1.005, 2)', 1.01],
    ['round(2.675, 2)', 2.68],
    ['round(-1.005, 2)', -1.01],
    ['round(0.285, 2)', 0.29],
    ['floor(-1.5) + ceil(1.2)', 0],
    ['min(4, 2, 8) * max(1, 9, 3)', 18],
    ['max(-1)', -1],
    ['SQRT(9)', 3],
    ['ln(e)', 1],
    ['log10(1000)', 3],
    ['exp(0)', 1],
    ['round(pi, 2) * 100', 314],
    ['sqrt(2)^2', 2],
    ['2 * (3 + max(1, 2) ^ 2) / 7', 2],
  ])('%s = %s', (expression, expected) => {
    expect(evaluate(expression)).toBe(expected);
  });
});

describe('evaluate: clear errors', () => {
  const fails = (expression: string, message: RegExp) => {
    let error: unknown;
    try {
      evaluate(expression);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CalculatorError);
    expect((error as Error).message).toMatch(message);
  };

  it.each([
    ['1 / 0', /Division by zero/],
    ['5 % (2 - 2)', /Modulo by zero/],
    ['sqrt(-4)', /square root of a negative number/],
    ['ln(0)', /logarithm needs a positive number/],
    ['(-8) ^ (1/3)', /is not a real number/],
    ['10 ^ 400', /too large/],
    ['1e999', /too large/],
    ['', /empty/],
    ['   ', /empty/],
    ['1 +', /ends too early/],
    ['(1 + 2', /ends too early: expected "\)"/],
    ['1 + 2)', /Unexpected "\)" at position 6/],
    ['2(3)', /write \* for multiplication/],
    ['2 pi', /Unexpected "pi" at position 3/],
    ['1,5', /Unexpected ","/],
    ['max()', /max\(\) takes at least 1 argument, got 0/],
    ['sqrt(1, 2)', /sqrt\(\) takes 1 argument, got 2/],
    ['round()', /round\(\) takes 1 to 2 arguments, got 0/],
    [`min(${Array.from({ length: 21 }, (_, i) => i).join(', ')})`, /min\(\) takes 1 to 20 arguments, got 21/],
    ['round(1.5, 0.5)', /digits must be a whole number/],
    ['pi(2)', /constant, not a function/],
    ['sqrt 4', /expected "\(" after the function sqrt/],
    ['foo(1)', /Unknown name "foo" at position 1\. Functions: sqrt, abs/],
    ['x + 1', /Unknown name "x"/],
    ['15% of 80', /Unknown name "of"|expected/],
    ['1..2', /Unexpected/],
    ['3 = 3', /Unexpected "=" at position 3/],
  ])('%j → %s', fails);

  it('limits the length', () => {
    expect(evaluate('1+'.repeat(99).concat('1'))).toBe(100);
    fails('1+'.repeat(100).concat('1'), new RegExp(`too long \\(201 characters; at most ${MAX_EXPRESSION_LENGTH}\\)`));
  });

  it('limits the nesting instead of overflowing the stack', () => {
    const deep = (n: number) => `${'('.repeat(n)}1${')'.repeat(n)}`;
    expect(evaluate(deep(MAX_NESTING))).toBe(1);
    fails(deep(MAX_NESTING + 1), /nested too deeply/);
    fails('-'.repeat(150), /nested too deeply/);
    fails('2^'.repeat(60).concat('1'), /nested too deeply/);
  });
});

describe('evaluate: never runs code', () => {
  it.each([
    ['constructor', /Unknown name "constructor"/],
    ['__proto__', /Unknown name "__proto__"/],
    ['toString()', /Unknown name "toString"/],
    ['hasOwnProperty(1)', /Unknown name "hasOwnProperty"/],
    ['process.exit()', /Unknown name "process"/],
    ['globalThis', /Unknown name "globalThis"/],
    ['1;alert(1)', /Unexpected ";" at position 2/],
    ['alert(1)', /Unknown name "alert"/],
    ['eval("1")', /Unknown name "eval"/],
    ['Function("return 1")()', /Unknown name "Function"/],
    ['[].constructor', /Unexpected "\["/],
    ['`1`', /Unexpected "`"/],
    ['1 && 2', /Unexpected "&"/],
    ['a=1', /Unknown name "a"/],
  ])('%j is refused', (expression, message) => {
    expect(() => evaluate(expression)).toThrow(message);
  });

  it('does not reach for eval or Function at all (both trapped while it runs)', () => {
    const names = ['eval', 'Function'] as const;
    const originals = names.map((name) => Reflect.get(globalThis, name) as unknown);
    const trap = () => {
      throw new Error('eval/Function used');
    };
    try {
      for (const name of names) Reflect.set(globalThis, name, trap);
      expect(evaluate('2 * (3 + sqrt(16)) - max(1, 2) ^ 2')).toBe(10);
    } finally {
      for (const [i, name] of names.entries()) Reflect.set(globalThis, name, originals[i]);
    }
  });
});
