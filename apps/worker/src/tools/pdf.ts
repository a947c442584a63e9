// A minimal PDF 1.4 writer for the demo's invoices: one page, text in Helvetica (one of the 14 fonts every PDF reader
// has, so nothing is embedded) and straight rules, one uncompressed content stream, a cross-reference table with the
// byte offset of every object. The file is ASCII from its first byte to its last, so a string index is a byte offset.
// No edgetool import: the bench's plain AI SDK Worker (bench/plain-worker) uses it too.

/** A line of text: its baseline starts at (x, y), in points from the page's bottom left; right-aligned text ends at x. */
export interface PdfText {
  readonly x: number;
  readonly y: number;
  /** Font size in points. */
  readonly size: number;
  /** Kept to printable ASCII by {@link pdfString}. */
  readonly text: string;
  readonly align?: 'left' | 'right' | undefined;
}

/** A straight line from (x1, y1) to (x2, y2), half a point wide, grey. */
export interface PdfRule {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

/** One page and what is on it. */
export interface PdfPage {
  /** Page size in points. */
  readonly width: number;
  readonly height: number;
  readonly texts: readonly PdfText[];
  readonly rules?: readonly PdfRule[] | undefined;
  /** The document's title (its Info dictionary), which a PDF viewer shows as the window or tab title. */
  readonly title: string;
}

/** A4 in points. */
export const A4: { readonly width: number; readonly height: number } = { width: 595, height: 842 };

/**
 * Helvetica's advance widths (thousandths of the font size) for the characters 32 to 126 in WinAnsiEncoding, from
 * Adobe's Helvetica AFM (quotesingle and grave at 39 and 96, as WinAnsiEncoding maps them).
 */
const HELVETICA_WIDTHS: readonly number[] = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space ! " # $ % & ' ( ) * + , - . /
  556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0-9 : ; < = > ?
  1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @ A-O
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P-Z [ \ ] ^ _
  333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // ` a-o
  556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p-z { | } ~
];

/**
 * Letters and signs that have no decomposition to ASCII but an obvious ASCII spelling: typographic quotes and dashes
 * (O’Brien, “new”), ß, ø, æ, œ, ł and their kin, the euro sign.
 */
const ASCII_SPELLINGS: ReadonlyMap<string, string> = new Map([
  ...[...'‘’‚‛′'].map((c): [string, string] => [c, "'"]),
  ...[...'“”„‟″«»'].map((c): [string, string] => [c, '"']),
  ...[...'‐‑‒–—―−'].map((c): [string, string] => [c, '-']),
  ...Object.entries({ ß: 'ss', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ø: 'o', Ø: 'O', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', ð: 'd', Ð: 'D' }),
  ...Object.entries({ þ: 'th', Þ: 'Th', ı: 'i', ħ: 'h', Ħ: 'H', '×': 'x', '•': '*', '€': 'EUR' }),
]);

/**
 * Text kept to printable ASCII: accents dropped (ö → o), white space as spaces, letters and signs with an ASCII
 * spelling spelled so (’ → ', ß → ss, € → EUR), anything else as `?`.
 */
export function toPdfAscii(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\s/g, ' ')
    .replace(/[^\x20-\x7e]/gu, (char) => ASCII_SPELLINGS.get(char) ?? '?');
}

/** A PDF literal string: `(text)` with `\`, `(` and `)` escaped, after {@link toPdfAscii}. */
export function pdfString(text: string): string {
  return `(${toPdfAscii(text).replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** Helvetica's width of one printable ASCII character, in thousandths of the font size. */
const unitsOf = (char: string): number => HELVETICA_WIDTHS[(char.codePointAt(0) as number) - 32] as number;

/** How wide `text` is in Helvetica at `size` points, in points. */
export function textWidth(text: string, size: number): number {
  let units = 0;
  for (const char of toPdfAscii(text)) units += unitsOf(char);
  return (units * size) / 1000;
}

/** `text`, cut short with `...` so that it is at most `width` points wide at `size`. */
export function fitText(text: string, size: number, width: number): string {
  const ascii = toPdfAscii(text);
  if (textWidth(ascii, size) <= width) return ascii;
  // The longest start that fits with the dots, found in one pass (measuring every shorter cut again was quadratic: a
  // 20,000-character name took a second of CPU).
  let units = 3 * unitsOf('.');
  let end = 0;
  for (const char of ascii) {
    units += unitsOf(char);
    if ((units * size) / 1000 > width) break;
    end += 1;
  }
  return `${ascii.slice(0, end).trimEnd()}...`;
}

/** A number as PDF writes it: at most two decimals, never an exponent. */
function num(value: number): string {
  return String(Number(value.toFixed(2)));
}

/** The page's content stream: each text in its own BT/ET block (so each `Td` is from the page origin), then the rules. */
function contentStream(page: PdfPage): string {
  const texts = page.texts.map(({ x, y, size, text, align }) => {
    const left = align === 'right' ? x - textWidth(text, size) : x;
    return `BT /F1 ${num(size)} Tf ${num(left)} ${num(y)} Td ${pdfString(text)} Tj ET`;
  });
  const rules = (page.rules ?? []).map(({ x1, y1, x2, y2 }) => `${num(x1)} ${num(y1)} m ${num(x2)} ${num(y2)} l S`);
  return [...texts, ...(rules.length > 0 ? ['0.5 w 0.6 G', ...rules] : [])].join('\n');
}

/**
 * The page as a PDF file: catalog, page tree, page, font, content stream and info dictionary, then the cross-reference
 * table (one 20-byte entry per object, its byte offset) and the trailer that points at it.
 */
export function writePdf(page: PdfPage): Uint8Array {
  const content = contentStream(page);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(page.width)} ${num(page.height)}] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    // The content is ASCII, so its length in characters is its length in bytes.
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< /Title ${pdfString(page.title)} /Producer (edgetool demo) >>`,
  ];
  let file = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(file.length);
    file += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = file.length;
  file += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) file += `${String(offset).padStart(10, '0')} 00000 n \n`;
  file += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(file);
}
