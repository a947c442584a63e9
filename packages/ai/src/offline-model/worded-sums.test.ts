import { describe, expect, it } from 'vitest';
import { otherMaths, readWordedSums } from './worded-sums.ts';

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
    // The calculator's functions, said in words.
    ['round 3.14159 to 2 digits', 'round(3.14159, 2)'],
    ['round 2.5 to 0 decimal places', 'round(2.5, 0)'],
    ['round 3.7', 'round(3.7)'],
    ['round up 3.2', 'ceil(3.2)'],
    ['round down 3.7', 'floor(3.7)'],
    ['square root of 144', 'sqrt(144)'],
    ['what is the square root of 2?', 'what is sqrt(2)?'],
    ['die Wurzel aus 144', 'die sqrt(144)'],
    ['cube root of 27', '27^(1 / 3)'],
    ['2 to the power of 10', '2^10'],
    ['2 to the 10th power', '2^10'],
    ['the absolute value of -5', 'abs(-5)'],
    ['log of 100', 'log10(100)'],
    ['the natural log of 10', 'ln(10)'],
    // Sums, differences, products and averages put as requests, and their numbers in a list.
    ['add 2 and 3', '2 + 3'],
    ['add 2.5 to 4', '2.5 + 4'],
    ['please add 7 and 8 together', 'please 7 + 8 together'],
    ['sum of 4, 5 and 6', '4 + 5 + 6'],
    ['what is the sum of 1, 2, 3, 4?', 'what is 1 + 2 + 3 + 4?'],
    ['the product of 3 and 4', '3 * 4'],
    ['the average of 2, 4 and 9', '(2 + 4 + 9) / 3'],
    ['the difference between 10 and 4', '10 - 4'],
    ['subtract 3 from 10', '10 - 3'],
    ['multiply 4 by 5', '4 * 5'],
    ['divide 10 by 4', '10 / 4'],
    ['addiere 2 und 3', '2 + 3'],
    ['Summe von 4, 5 und 6', '4 + 5 + 6'],
    ['ziehe 3 von 10 ab', '10 - 3'],
    ['additionne 2 et 3', '2 + 3'],
    ['la somme de 4, 5 et 6', 'la 4 + 5 + 6'],
    ['multiplie 4 par 5', '4 * 5'],
    ['add 10 and 20 and 30', '10 + 20 + 30'],
    ["what's 2 and 3 added together", "what's 2 + 3"],
  ])('%j → %j', (text, written) => {
    expect(readWordedSums(text)).toBe(written);
  });

  it('names maths beyond arithmetic and functions, and nothing else', () => {
    expect(['factorial of 5', 'what is sin(30)', 'the derivative of x^2', 'is 17 a prime'].map(otherMaths)).toEqual(['factorial', 'sin', 'derivative', 'is 17 a prime']);
    expect(['die Fakultät von 5', 'Ableitung von x^2', 'Calcule la FACTORIELLE de 5'].map(otherMaths)).toEqual(['Fakultät', 'Ableitung', 'FACTORIELLE']);
    expect(['Where is A-1005!', 'round 3.7', 'a tangential remark', 'sqrt(2)'].map(otherMaths)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('leaves text without such a sum alone: no number, or a percent of nothing', () => {
    for (const text of ['round trip to Paris', 'the root of the problem', 'half of the orders are late', 'add 2 coffee beans to my cart', 'double-check A-1002', '20% is a lot', 'Which orders are delayed by more than 3 days?',
      // Counted things are added to a cart, and days to a date: no sum.
      'add 3 apples and 2 bananas', 'add 2 and 3 mugs', 'add 2 mugs and 3 cups to my cart', 'add 5 days to A-1003', 'subtract 2 days from A-1003', 'the sum of the orders']) {
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
