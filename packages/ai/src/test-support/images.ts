// Real images and PDFs of a chosen size, built byte by byte for the token estimate's tests (test-only code): each is a
// whole file a decoder reads (one flat colour; checked once against libvips), not a header alone.

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 255] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function concat(...parts: (Uint8Array | readonly number[])[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const be16 = (n: number) => [(n >>> 8) & 255, n & 255];
const le16 = (n: number) => [n & 255, (n >>> 8) & 255];
const le32 = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255];
const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0));

/** A grey PNG of `width`×`height` (8-bit greyscale, zlib through CompressionStream). */
export async function png(width: number, height: number): Promise<Uint8Array> {
  const chunk = (type: string, data: Uint8Array | readonly number[]) => {
    const body = concat(ascii(type), data);
    return concat(be32(data.length), body, be32(crc32(body)));
  };
  // Each row: filter type 0, then one byte a pixel.
  const rows = new Uint8Array(height * (width + 1)).fill(128);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0;
  const stream = new Blob([rows]).stream().pipeThrough(new CompressionStream('deflate'));
  const idat = new Uint8Array(await new Response(stream).arrayBuffer());
  return concat([137, 80, 78, 71, 13, 10, 26, 10], chunk('IHDR', [...be32(width), ...be32(height), 8, 0, 0, 0, 0]), chunk('IDAT', idat), chunk('IEND', []));
}

/**
 * A grey baseline JPEG of `width`×`height`: one component, every 8×8 block a DC difference of 0 and an end of block,
 * one bit each. `exif` puts an APP1 segment of that many bytes (at most 65,000) before the frame header, as cameras do.
 */
export function jpeg(width: number, height: number, exif = 0): Uint8Array {
  const segment = (marker: number, body: readonly number[] | Uint8Array) => concat([0xff, marker], be16(body.length + 2), body);
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const scan = new Uint8Array(Math.ceil((blocks * 2) / 8)).fill(0);
  // Two 0 bits a block; the last byte is padded with 1 bits.
  const used = (blocks * 2) % 8;
  if (used !== 0) scan[scan.length - 1] = (1 << (8 - used)) - 1;
  // One code of one bit in each table: DC category 0, AC end of block.
  const table = (cls: number) => [cls << 4, 1, ...new Array<number>(15).fill(0), 0];
  return concat(
    [0xff, 0xd8],
    segment(0xe0, [...ascii('JFIF'), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    exif > 0 ? segment(0xe1, concat(ascii('Exif'), [0, 0], new Uint8Array(exif))) : [],
    segment(0xdb, [0, ...new Array<number>(64).fill(1)]),
    segment(0xc0, [8, ...be16(height), ...be16(width), 1, 1, 0x11, 0]),
    segment(0xc4, table(0)),
    segment(0xc4, table(1)),
    segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    scan,
    [0xff, 0xd9],
  );
}

/** A GIF of `width`×`height` in colour 0, LZW codes of 3 bits (a clear code before every two pixels keeps them at 3). */
export function gif(width: number, height: number): Uint8Array {
  const codes: number[] = [];
  for (let left = width * height; left > 0; left -= 2) codes.push(4, 0, ...(left > 1 ? [0] : []));
  codes.push(5);
  const lzw: number[] = [];
  let bits = 0;
  let n = 0;
  for (const code of codes) {
    bits |= code << n;
    n += 3;
    while (n >= 8) {
      lzw.push(bits & 255);
      bits >>>= 8;
      n -= 8;
    }
  }
  if (n > 0) lzw.push(bits & 255);
  const blocks: number[] = [];
  for (let i = 0; i < lzw.length; i += 255) blocks.push(Math.min(255, lzw.length - i), ...lzw.slice(i, i + 255));
  return Uint8Array.from([
    ...ascii('GIF89a'),
    ...le16(width),
    ...le16(height),
    0x80,
    0,
    0,
    ...[0, 0, 0, 255, 255, 255],
    0x2c,
    0,
    0,
    0,
    0,
    ...le16(width),
    ...le16(height),
    0,
    2,
    ...blocks,
    0,
    0x3b,
  ]);
}

/**
 * A lossless WebP of `width`×`height` in one colour: every prefix code has one symbol, so the pixels take no bits.
 * `extended` wraps it in a VP8X header, as a WebP with metadata has.
 */
export function webp(width: number, height: number, extended = false): Uint8Array {
  const out: number[] = [0x2f];
  let bits = 0;
  let n = 0;
  const put = (value: number, count: number) => {
    for (let i = 0; i < count; i++) {
      bits |= ((value >>> i) & 1) << n;
      n += 1;
      if (n === 8) {
        out.push(bits);
        bits = 0;
        n = 0;
      }
    }
  };
  put(width - 1, 14);
  put(height - 1, 14);
  put(0, 1); // no alpha
  put(0, 3); // version 0
  put(0, 1); // no transform
  put(0, 1); // no colour cache
  put(0, 1); // no meta prefix codes
  // Green, red, blue, alpha, distance: a simple code of one 8-bit symbol each.
  for (const symbol of [128, 128, 128, 255, 0]) {
    put(1, 1);
    put(0, 1);
    put(1, 1);
    put(symbol, 8);
  }
  if (n > 0) out.push(bits);
  const chunk = (type: string, data: readonly number[]) => [...ascii(type), ...le32(data.length), ...data, ...(data.length % 2 ? [0] : [])];
  const body = [
    ...(extended ? chunk('VP8X', [0, 0, 0, 0, ...le32(width - 1).slice(0, 3), ...le32(height - 1).slice(0, 3)]) : []),
    ...chunk('VP8L', out),
  ];
  return Uint8Array.from([...ascii('RIFF'), ...le32(4 + body.length), ...ascii('WEBP'), ...body]);
}

/**
 * A PDF of `pages` empty pages, its page objects written out (`/Type /Page`), with a cross-reference table. `scan`
 * puts a stream of that many bytes before the pages, as a scanned page's image is (its bytes are not an image here).
 */
export function pdf(pages: number, scan = 0): Uint8Array {
  const first = scan > 0 ? 4 : 3;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${i + first} 0 R`).join(' ')}] /Count ${pages} >>`,
    ...Array.from({ length: pages }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>'),
  ];
  if (scan > 0) objects.splice(2, 0, `<< /Type /XObject /Subtype /Image /Length ${scan} >>\nstream\n${'\u00ff'.repeat(scan)}\nendstream`);
  let text = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const [i, object] of objects.entries()) {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${object}\nendobj\n`;
  }
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Uint8Array.from(ascii(text));
}

/**
 * A PDF whose objects after the first are in compressed object streams (`streams` of them, the objects shared out in
 * turn), as PDF 1.5 writers save them: no page object shows in its bytes. `linearized` writes a linearization
 * dictionary first, with the page count (`/N`).
 */
export async function compressedPdf(pages: number, linearized = false, streams = 1): Promise<Uint8Array> {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ')}] /Count ${pages} >>`,
    ...Array.from({ length: pages }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>'),
  ];
  const parts: (Uint8Array | readonly number[])[] = [ascii('%PDF-1.5\n')];
  if (linearized) parts.push(ascii(`1000 0 obj\n<< /Linearized 1 /L 0 /N ${pages} /T 0 /H [0 0] /O 3 /E 0 >>\nendobj\n`));
  for (let s = 0; s < streams; s++) {
    let header = '';
    let body = '';
    const inStream = objects.flatMap((object, i) => (i % streams === s ? [{ object, i }] : []));
    for (const { object, i } of inStream) {
      header += `${i + 1} ${body.length} `;
      body += `${object}\n`;
    }
    const stream = new Blob([Uint8Array.from(ascii(header + body))]).stream().pipeThrough(new CompressionStream('deflate'));
    const packed = new Uint8Array(await new Response(stream).arrayBuffer());
    parts.push(
      ascii(`${objects.length + 1 + s} 0 obj\n<< /Type /ObjStm /N ${inStream.length} /First ${header.length} /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`),
      packed,
      ascii('\nendstream\nendobj\n'),
    );
  }
  parts.push(ascii('startxref\n0\n%%EOF\n'));
  return concat(...parts);
}

/** Bytes as base64. */
export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
