import { fold } from './words.ts';

const NUM = String.raw`(\d+(?:\.\d+)?)`;
// A "%" with a number (or a bracket) after it is the calculator's modulo ("10 + 15 % 4"): a sum in digits, left alone.
const PERCENT = String.raw`\s*(?:%|percent\b|per\s+cent\b|prozent\b|pour\s*cent\b)(?!\s*[\d(])`;
/** After "120 plus 17%": not a share of what follows ("7 + 3% of 200" is 7 plus 3% of 200, read by its own reading). */
const NOT_OF = String.raw`(?!\s*(?:of|off|von|de|discount|rabatt)\b)`;
/** What a percentage may be of: "VAT", "tax", "tip", "MwSt", "TVA" (one word, or none). */
const LEVY = String.raw`(?:\s+(?!to\b|on\b|onto\b|auf\b|a\b|of\b)[a-z]+)?`;

/** Numbers in a list: "4, 5 and 6", "2 und 3", "1, 2, 3" (one group: the numbers are read from it). */
const LIST = String.raw`(\d+(?:\.\d+)?(?:(?:\s*,\s*|\s*,?\s*(?:and|und|et|&)\s+)\d+(?:\.\d+)?)*)`;
/** Where a sum put as a request ends: nothing counted after its last number ("add 2 and 3 mugs" is a cart's). */
const ENDS = String.raw`(?=\s*(?:$|[.?!,;:)=]|(?:together|zusammen|ensemble|please|bitte|for\s+me)\b))`;
const numbersIn = (list: string | undefined): string[] => (list ?? '').match(/\d+(?:\.\d+)?/g) ?? [];

/** One way of putting a sum in words, and the expression it is, from the numbers it names. */
type Reading = readonly [RegExp, (numbers: readonly string[]) => string];

const READINGS: readonly Reading[] = [
  // "add 2 and 3", "add 2 to 3", "addiere 2 und 3", "additionne 2 et 3"; "the sum of 4, 5 and 6", "die Summe von 4 und 5"
  [new RegExp(String.raw`\b(?:add|addiere|additionne[rz]?)\s+${NUM}\s+(?:to|zu|a)\s+${NUM}${ENDS}`, 'g'), ([x, y]) => `${x} + ${y}`],
  // "add 10, 20 and 30", "2 and 3 added together"
  [new RegExp(String.raw`\b(?:add|addiere|additionne[rz]?)\s+(?=\d+(?:\.\d+)?\s*(?:,|and|und|et|&))${LIST}${ENDS}`, 'g'), ([list]) => numbersIn(list).join(' + ')],
  [new RegExp(String.raw`(?<![\d.])(?=\d+(?:\.\d+)?\s*(?:,|and|und|et|&))${LIST}\s+added(?:\s+together|\s+up)?\b`, 'g'), ([list]) => numbersIn(list).join(' + ')],
  [new RegExp(String.raw`\b(?:the\s+)?(?:sum|total|summe|somme)\s+(?:of|von|aus|de|des)\s+${LIST}${ENDS}`, 'g'), ([list]) => numbersIn(list).join(' + ')],
  [new RegExp(String.raw`\b(?:the\s+)?(?:product|produkt|produit)\s+(?:of|von|aus|de|des)\s+${LIST}${ENDS}`, 'g'), ([list]) => numbersIn(list).join(' * ')],
  // "the average of 2, 4 and 9", "der Durchschnitt von 2 und 4", "la moyenne de 2 et 4"
  [
    new RegExp(String.raw`\b(?:the\s+)?(?:average|mean|durchschnitt|mittelwert|moyenne)\s+(?:of|von|aus|de|des)\s+${LIST}${ENDS}`, 'g'),
    ([list]) => `(${numbersIn(list).join(' + ')}) / ${numbersIn(list).length}`,
  ],
  // "the difference between 10 and 4", "subtract 3 from 10", "ziehe 3 von 10 ab", "soustrais 3 de 10"
  [new RegExp(String.raw`\b(?:the\s+)?(?:difference|differenz)\s+(?:between|of|zwischen|entre)\s+${NUM}\s+(?:and|und|et)\s+${NUM}${ENDS}`, 'g'), ([x, y]) => `${x} - ${y}`],
  [
    new RegExp(String.raw`\b(?:subtract|subtrahiere|ziehe?|soustrai[st]|soustraire|enleve)\s+${NUM}\s+(?:from|von|de|a)\s+${NUM}(?:\s+ab\b)?${ENDS}`, 'g'),
    ([x, y]) => `${y} - ${x}`,
  ],
  // "multiply 4 by 5", "multipliziere 4 mit 5", "multiplie 4 par 5"; "divide 10 by 4", "teile 10 durch 4", "divise 10 par 4"
  [new RegExp(String.raw`\b(?:multiply|multipliziere|multiplie[rz]?)\s+${NUM}\s+(?:by|and|with|mit|und|par|et)\s+${NUM}${ENDS}`, 'g'), ([x, y]) => `${x} * ${y}`],
  [new RegExp(String.raw`\b(?:divide|teile|dividiere|divise[rz]?)\s+${NUM}\s+(?:by|durch|par)\s+${NUM}${ENDS}`, 'g'), ([x, y]) => `${x} / ${y}`],
  // "add 17% VAT to 120", "put 10 percent on 80", "schlage 19 % MwSt auf 100 auf"
  [new RegExp(String.raw`\b(?:add|put|plus|schlage?|ajoute[rz]?)\s+${NUM}${PERCENT}${LEVY}\s+(?:to|on|onto|auf|a)\s+${NUM}`, 'g'), ([p, x]) => `${x} * (1 + ${p} / 100)`],
  // "120 plus 17% (VAT)", "120 + 17 %"
  [new RegExp(String.raw`\b${NUM}\s*(?:\+|plus|with|mit|avec)\s*${NUM}${PERCENT}${NOT_OF}`, 'g'), ([x, p]) => `${x} * (1 + ${p} / 100)`],
  // "80 minus 20%", "80 less 20 percent"
  [new RegExp(String.raw`\b${NUM}\s*(?:-|minus|less|moins|weniger)\s*${NUM}${PERCENT}${NOT_OF}`, 'g'), ([x, p]) => `${x} * (1 - ${p} / 100)`],
  // "20% off 80", "take 20 percent off 80"
  [new RegExp(String.raw`(?:\btake\s+)?\b${NUM}${PERCENT}\s+(?:off|discount\s+on|rabatt\s+auf|de\s+remise\s+sur)\s+${NUM}`, 'g'), ([p, x]) => `${x} * (1 - ${p} / 100)`],
  // "15% of 240", "20 percent of 80", "20 Prozent von 80", "20 pour cent de 80"
  [new RegExp(String.raw`\b${NUM}${PERCENT}\s+(?:of|von|de)\s+${NUM}`, 'g'), ([p, x]) => `${p} / 100 * ${x}`],
  // "half of 90", "die Hälfte von 90", "la moitié de 90"
  [new RegExp(String.raw`\b(?:half|halfte|moitie)\s+(?:of\s+|von\s+|de\s+)?${NUM}`, 'g'), ([x]) => `${x} / 2`],
  [new RegExp(String.raw`\b(?:a\s+|one\s+)?third\s+of\s+${NUM}`, 'g'), ([x]) => `${x} / 3`],
  [new RegExp(String.raw`\b(?:a\s+|one\s+)?quarter\s+of\s+${NUM}`, 'g'), ([x]) => `${x} / 4`],
  // "twice 21", "double 21", "triple 7"
  [new RegExp(String.raw`\b(?:twice|double|doppelte?\s+(?:von\s+)?)\s*(?:of\s+)?${NUM}`, 'g'), ([x]) => `2 * ${x}`],
  [new RegExp(String.raw`\b(?:thrice|triple)\s+(?:of\s+)?${NUM}`, 'g'), ([x]) => `3 * ${x}`],
  // "square root of 144", "cube root of 27", "die Wurzel aus 144", "la racine carrée de 144"
  [new RegExp(String.raw`\b(?:(?:the\s+)?square\s+root|sqrt|(?:quadrat)?wurzel|racine(?:\s+carree)?)\s+(?:of\s+|aus\s+|von\s+|de\s+)?${NUM}`, 'g'), ([x]) => `sqrt(${x})`],
  [new RegExp(String.raw`\b(?:the\s+)?cube\s+root\s+of\s+${NUM}`, 'g'), ([x]) => `${x}^(1 / 3)`],
  // "round 3.14159 to 2 digits" (or decimal places), "round up 3.2", "round down 3.7", "round 3.7"
  [new RegExp(String.raw`\bround\s+up\s+${NUM}|\b(?:aufrunden|arrondir\s+au-dessus)\s+${NUM}`, 'g'), ([x]) => `ceil(${x})`],
  [new RegExp(String.raw`\bround\s+down\s+${NUM}|\b(?:abrunden)\s+${NUM}`, 'g'), ([x]) => `floor(${x})`],
  [
    new RegExp(String.raw`\b(?:round|runde|arrondis|arrondir)\s+${NUM}(?:\s+(?:to|auf|a)\s+(\d{1,2})\s+(?:decimal\s+places?|decimals?|digits?|places?|nachkommastellen|stellen|decimales?|chiffres?))?`, 'g'),
    ([x, digits]) => (digits === undefined ? `round(${x})` : `round(${x}, ${digits})`),
  ],
  // "the absolute value of -5", "the natural log of 10", "log of 100" (base 10)
  [/\b(?:the\s+)?absolute\s+value\s+of\s+(-?\d+(?:\.\d+)?)/g, ([x]) => `abs(${x})`],
  [new RegExp(String.raw`\b(?:the\s+)?natural\s+(?:log|logarithm)\s+of\s+${NUM}`, 'g'), ([x]) => `ln(${x})`],
  [new RegExp(String.raw`\b(?:the\s+)?(?:log|logarithm)\s+(?:base\s+10\s+)?of\s+${NUM}`, 'g'), ([x]) => `log10(${x})`],
  // "2 to the power of 10", "2 to the 10th power", "2 hoch 10"
  [new RegExp(String.raw`\b${NUM}\s+(?:to\s+the\s+power\s+of|raised\s+to(?:\s+the\s+power\s+of)?|hoch|puissance)\s+${NUM}`, 'g'), ([x, y]) => `${x}^${y}`],
  [new RegExp(String.raw`\b${NUM}\s+to\s+the\s+(\d+)(?:st|nd|rd|th)(?:\s+power)?`, 'g'), ([x, y]) => `${x}^${y}`],
  // "12 squared", "2 cubed"
  [new RegExp(String.raw`\b${NUM}\s+squared\b`, 'g'), ([x]) => `${x}^2`],
  [new RegExp(String.raw`\b${NUM}\s+cubed\b`, 'g'), ([x]) => `${x}^3`],
];

/**
 * A text with its sums in words written as arithmetic a calculator reads (no percent sign, which is modulo there):
 * "add 2 and 3" → `2 + 3`, "the sum of 4, 5 and 6" → `4 + 5 + 6`, "subtract 3 from 10" → `10 - 3`, "multiply 4 by 5",
 * "divide 10 by 4", "the average of 2, 4 and 9" → `(2 + 4 + 9) / 3`, "15% of 240" → `15 / 100 * 240`, "add 17% VAT to 120" → `120 * (1 + 17 / 100)`, "20% off 80", "half of 90" →
 * `90 / 2`, "twice 21" → `2 * 21`, "12 squared", "square root of 144" → `sqrt(144)`, "round 3.14159 to 2 digits" →
 * `round(3.14159, 2)`, "2 to the power of 10", "log of 100", in German and French too (as the calculator's functions
 * can). What names no number is left alone.
 */
export function readWordedSums(text: string): string {
  const folded = fold(text);
  const found: Array<{ start: number; end: number; expression: string }> = [];
  for (const [pattern, write] of READINGS) {
    for (const match of folded.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (found.some((other) => start < other.end && end > other.start)) continue;
      found.push({ start, end, expression: write(match.slice(1).filter((group) => group !== undefined)) });
    }
  }
  found.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const { start, end, expression } of found) {
    out += `${text.slice(at, start)}${expression}`;
    at = end;
  }
  return out + text.slice(at);
}

/**
 * Maths that a calculator of arithmetic and a few functions cannot do, by the word that names it: factorials,
 * trigonometry, calculus, primes, divisors.
 */
const OTHER_MATHS =
  /\b(?:factorials?|fakultat|factorielle|sines?|cosines?|tangents?|sinus|cosinus|tangente|arc\s*(?:sin|cos|tan)\w*|integrals?|integrate|derivatives?|differentiate|ableitung|prime\s+(?:numbers?|factors?)|is\s+\d+\s+(?:a\s+)?prime|primzahl\w*|gcd|lcm|greatest\s+common\s+divisor|least\s+common\s+multiple|permutations?|matri(?:x|ces)|(?:sin|cos|tan)(?=\s*\(|\s+\d))\b/;

/** The words in `text` that name maths beyond arithmetic ("factorial of 5", "sin(30)", "Fakultät"), as written, or `undefined`. */
export function otherMaths(text: string): string | undefined {
  const match = OTHER_MATHS.exec(fold(text));
  return match === null ? undefined : text.slice(match.index, match.index + match[0].length);
}
