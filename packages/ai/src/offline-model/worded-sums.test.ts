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
});
