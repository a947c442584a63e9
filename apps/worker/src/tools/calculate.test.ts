import { describe, expect, it } from 'vitest';
import { call, describeOutcome, outputOf } from '../../test/support.ts';

describe('calculate (the tool)', () => {
  it('evaluates with the usual precedence', async () => {
    expect(outputOf(await call('calculate', { expression: '2 + 3 * 4 ^ 2 / (1 + 1)' }))).toEqual({ expression: '2 + 3 * 4 ^ 2 / (1 + 1)', result: 26 });
  });

  it('is a read tool: runs without approval', async () => {
    const result = await call('calculate', { expression: 'round(1234.5678 * 1.19, 2)' });
    expect(outputOf(result)).toMatchObject({ result: 1469.14 });
  });

  it.each([
    ['15 / 100 * 240', 36],
    ['120 * (1 + 17 / 100)', 140.4],
    ['80 * (1 - 20 / 100)', 64],
    ['90 / 2', 45],
    ['2 * 21', 42],
  ])('evaluates %j, what the offline model writes for a percentage or a sum in words, to %j', async (expression, result) => {
    expect(outputOf(await call('calculate', { expression }))).toEqual({ expression, result });
  });

  it('turns evaluation errors into invalid-input the model can fix', async () => {
    const result = await call('calculate', { expression: '1;alert(1)' });
    expect(describeOutcome(result.outcome)).toBe('invalid-input');
    expect(result.content).toBe(
      'Error (invalid-input): Cannot evaluate the expression: Unexpected ";" at position 2: only numbers, + - * / % ^, parentheses and functions are allowed.\n' +
        '- expression: Unexpected ";" at position 2: only numbers, + - * / % ^, parentheses and functions are allowed\n' +
        'Fix these arguments and call the tool again.',
    );
  });

  it.each(['constructor', 'process.exit()', '1 / 0'])('refuses %j', async (expression) => {
    expect(describeOutcome((await call('calculate', { expression })).outcome)).toBe('invalid-input');
  });

  it('refuses overlong input in the schema', async () => {
    const result = await call('calculate', { expression: '1+'.repeat(150) });
    expect(describeOutcome(result.outcome)).toBe('invalid-input');
    expect(result.content).toMatch(/At most 200 characters/);
  });
});
