// A minimal PNG encoder for the demo's charts: 8-bit indexed colour, no filtering, zlib through the platform's
// CompressionStream('deflate') (Workers, browsers and Node all have it). Enough for flat shapes; no text.

/** An image of palette indices, one byte per pixel, row after row. */
export interface IndexedImage {
  readonly width: number;
  readonly height: number;
  /** RGB colours; a pixel's value is its index here (at most 256). */
  readonly palette: readonly (readonly [number, number, number])[];
  readonly pixels: Uint8Array;
}

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

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

/** One chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Encodes an indexed image as PNG bytes. */
export async function encodePng(image: IndexedImage): Promise<Uint8Array> {
  const { width, height, palette, pixels } = image;
  if (pixels.length !== width * height) throw new RangeError(`encodePng: ${pixels.length} pixels for ${width}×${height}`);
  if (palette.length === 0 || palette.length > 256) throw new RangeError('encodePng: 1 to 256 palette colours');
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 3, 0, 0, 0], 8); // bit depth 8, colour type 3 (indexed), deflate, no filter method, no interlace
  // Each row starts with its filter type: 0 (none).
  const rows = new Uint8Array(height * (width + 1));
  for (let y = 0; y < height; y++) rows.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  const parts = [
    Uint8Array.from(SIGNATURE),
    chunk('IHDR', header),
    chunk('PLTE', Uint8Array.from(palette.flat())),
    chunk('IDAT', await deflate(rows)),
    chunk('IEND', new Uint8Array(0)),
  ];
  const png = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    png.set(part, at);
    at += part.length;
  }
  return png;
}
