import { describe, expect, it, vi } from 'vitest';
import { fitText, pdfString, textWidth, toPdfAscii, writePdf } from './pdf.ts';

describe('the PDF writer', () => {
  it('escapes backslashes and parentheses in strings, in that order', () => {
    expect(pdfString('a\\b(c)d')).toBe('(a\\\\b\\(c\\)d)');
    expect(pdfString('\\(')).toBe('(\\\\\\()');
    expect(pdfString('')).toBe('()');
  });

  it('keeps text to printable ASCII: accents dropped, white space as spaces, ASCII spellings, one ? per other character', () => {
    expect(toPdfAscii('Kurt Gödel, Émilie du Châtelet')).toBe('Kurt Godel, Emilie du Chatelet');
    expect(toPdfAscii('a\tb\nc\u00a0d')).toBe('a b c d');
    expect(toPdfAscii('€ 5 – “ok” 😀 日本')).toBe('EUR 5 - "ok" ? ??');
    expect(pdfString('Gödel (€)')).toBe('(Godel \\(EUR\\))');
  });

  it('spells names and signs that have no accent to drop in ASCII, instead of a ? (an invoice to O’Brien)', () => {
    expect(toPdfAscii('Seán O’Brien, Søren Kierkegaard, Łukasz Żółć, Straße 5, Æsir & Œuvre, Þór Guðmundsson')).toBe(
      "Sean O'Brien, Soren Kierkegaard, Lukasz Zolc, Strasse 5, AEsir & OEuvre, Thor Gudmundsson",
    );
    expect(toPdfAscii('„Zitat“ «guillemets» ‘single’ 2−1 — 3×4 • …')).toBe('"Zitat" "guillemets" \'single\' 2-1 - 3x4 * ...');
    expect(textWidth('O’Brien', 10)).toBe(textWidth("O'Brien", 10));
  });

  it("measures text with Helvetica's widths and cuts it short to fit", () => {
    // I 278, n 556, v 500, o 556, i 222, c 500, e 556: 3,168 thousandths.
    expect(textWidth('Invoice', 10)).toBeCloseTo(31.68, 5);
    expect(textWidth('2,890.00', 10)).toBeCloseTo((6 * 556 + 2 * 278) / 100, 5);
    expect(textWidth("'`", 1000)).toBe(191 + 333);
    expect(fitText('Office chair', 10, 100)).toBe('Office chair');
    const cut = fitText('Desk mat with a very long name that goes on and on', 10, 100);
    expect(cut).toMatch(/^Desk mat with .*\.\.\.$/);
    expect(textWidth(cut, 10)).toBeLessThanOrEqual(100);
    expect(textWidth(`${cut.slice(0, -3)}x...`, 10)).toBeGreaterThan(100);
    expect(fitText('ab', 10, 1)).toBe('...');
  });

  it('cuts a very long text in linear time (a 30,000-character name from D1 does not stall the invoice)', () => {
    // The work is counted, not timed (a busy machine stalls any clock): every measure reads its text through
    // toPdfAscii's normalize, so the characters normalized in all are what fitText read.
    const normalize = vi.spyOn(String.prototype, 'normalize');
    let cut: string;
    let read: number;
    try {
      cut = fitText('W'.repeat(30_000), 10, 100);
      read = normalize.mock.contexts.reduce((sum: number, text) => sum + String(text).length, 0);
    } finally {
      normalize.mockRestore();
    }
    // Measured again each character shorter, it read some 450 million characters (2 s of CPU); one pass reads the
    // text a fixed number of times.
    expect(read).toBeGreaterThanOrEqual(30_000);
    expect(read).toBeLessThanOrEqual(3 * 30_000);
    // W 944, three dots 3 × 278: 10 W (9.44 pt each) and the dots make 102.74 pt, 9 W 93.3 pt.
    expect(cut).toBe(`${'W'.repeat(9)}...`);
  });

  it('writes right-aligned text so that it ends at x, and rules as grey lines', () => {
    const pdf = new TextDecoder().decode(
      writePdf({ width: 200, height: 100, title: 'T', texts: [{ x: 150, y: 50, size: 10, text: '89.00', align: 'right' }], rules: [{ x1: 0, y1: 1, x2: 200, y2: 1 }] }),
    );
    // 89.00 is 4 × 556 + 278 = 2,502 thousandths: 25.02 pt at 10 pt, so it starts at 150 − 25.02.
    expect(pdf).toContain('BT /F1 10 Tf 124.98 50 Td (89.00) Tj ET\n0.5 w 0.6 G\n0 1 m 200 1 l S\nendstream');
    expect(pdf).toContain('/MediaBox [0 0 200 100]');
  });
});
