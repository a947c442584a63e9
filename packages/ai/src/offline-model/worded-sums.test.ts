import { describe, expect, it } from 'vitest';
import { readWordedSums } from './worded-sums.ts';

describe('readWordedSums', () => {
  it.each([
    ['15% of 240', '15 / 100 * 240'],
    ['what is 20 percent of 80', 'what is 20 / 100 * 80'],
    ['add 17% VAT to 120', '120 * (1 + 17 / 100)'],
    ['add 10 percent to 80', '80 * (1 + 10 / 100)'],
    ['120 plus 19%', '120 * (1 + 19 / 100)'],
    ['80 minus 25%', '80 * (1 - 25 / 100)'],
    ['What is 120 plus 19%.', 'What is 120 * (1 + 19 / 100).'],
    ['take 20% off 80', '80 * (1 - 20 / 100)'],
    ['half of 90', '90 / 2'],
    ['a third of 90', '90 / 3'],
    ['twice 21', '2 * 21'],
    ['double 21', '2 * 21'],
    ['12 squared', '12^2'],
    ['Was sind 20 Prozent von 80?', 'Was sind 20 / 100 * 80?'],
    ['die Hälfte von 90', 'die 90 / 2'],
    ['la moitié de 90', 'la 90 / 2'],
    ['20 pour cent de 80', '20 / 100 * 80'],
  ])('%j → %j', (text, written) => {
    expect(readWordedSums(text)).toBe(written);
  });

  it('leaves text without such a sum alone: no number, or a percent of nothing', () => {
    for (const text of ['half of the orders are late', 'add 2 coffee beans to my cart', 'double-check A-1002', '20% is a lot', 'Which orders are delayed by more than 3 days?']) {
      expect(readWordedSums(text), text).toBe(text);
    }
  });

  it('leaves a sum written in digits alone: a % before a number is modulo ("10 + 15 % 4" is 13, not 10 plus 15%)', () => {
    for (const text of ['what is 15 % 4', 'what is 10 + 15 % 4', 'compute 100 - 20 % 7', 'what is 10 - 5 %(3)', '2 + 7%3']) {
      expect(readWordedSums(text), text).toBe(text);
    }
  });

  it('reads a percentage "of" a number after a sum as that share, not as a mark-up of the number before', () => {
    expect(readWordedSums('what is 7 + 3% of 200')).toBe('what is 7 + 3 / 100 * 200');
    expect(readWordedSums('80 - 20% off 50')).toBe('80 - 50 * (1 - 20 / 100)');
  });
});
