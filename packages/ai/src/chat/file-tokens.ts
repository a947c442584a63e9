// What images and PDFs in a prompt count in the token budget's estimate (prompt-estimate.ts), read from the few bytes
// that tell: an image's size from its header, a PDF's pages from its page objects. Nothing is decoded beyond that, but
// for a PDF's compressed object streams, which the turn inflates before its first model call (prompt-files.ts).

/**
 * Tokens an image counts when its size cannot be read (a URL, a provider's file reference, a header the estimate does
 * not know): the most any provider the estimate follows bills one image (see {@link imageTokens}), so that a refusal
 * never comes late.
 */
export const IMAGE_TOKEN_ESTIMATE = 5_000;

/**
 * Tokens a PDF counts a page: its text (Anthropic's guide: 1,500 to 3,000 tokens a page, by how dense it is) plus the
 * image of the page both Anthropic and OpenAI send beside the text, at {@link IMAGE_TOKEN_ESTIMATE}.
 */
export const PDF_PAGE_TOKEN_ESTIMATE: number = 3_000 + IMAGE_TOKEN_ESTIMATE;

/**
 * The most tokens one image of `width`×`height` pixels is billed by the providers' published rules, the largest of:
 * OpenAI's tiles at high (or auto) detail (fitted into 2048×2048, the shortest side then brought down to 768, 170 a
 * 512-pixel tile plus 85; at most 1,445), OpenAI's 32-pixel patches of its mini and nano models (at most 1,536, times
 * 2.46, nano's multiplier; at most 3,779), and Anthropic's w×h/750 after its own resize (fitted into a long edge of
 * 2,576 pixels and 3.75 megapixels, Claude Opus 4.7's; older models stop at 1,568 pixels, about 1,600 tokens), or its
 * 28-pixel patches where a thin image has more. Low detail (85 on OpenAI) is not read: another provider ignores it.
 */
export function imageTokens(width: number, height: number): number {
  return Math.max(openAITiles(width, height), openAIPatches(width, height), anthropicArea(width, height));
}

/** OpenAI's tiles at high or auto detail: fitted into 2048×2048, the shortest side brought down to 768, 170 a 512-pixel tile + 85. */
export function openAITiles(width: number, height: number): number {
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shortest = Math.min(1, 768 / Math.min(w, h));
  w *= shortest;
  h *= shortest;
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

/** OpenAI's 32-pixel patches (mini and nano models), at most 1,536, times nano's multiplier, 2.46: the larger of its two. */
export function openAIPatches(width: number, height: number): number {
  return Math.ceil(Math.min(Math.ceil(width / 32) * Math.ceil(height / 32), 1_536) * 2.46);
}

/** Anthropic's w×h/750, or its 28-pixel patches, after fitting a long edge of 2,576 pixels and 3.75 megapixels. */
export function anthropicArea(width: number, height: number): number {
  const scale = Math.min(1, 2_576 / Math.max(width, height), Math.sqrt(3_750_000 / (width * height)));
  const w = Math.max(1, Math.floor(width * scale));
  const h = Math.max(1, Math.floor(height * scale));
  return Math.max(Math.ceil((w * h) / 750), Math.ceil(w / 28) * Math.ceil(h / 28));
}

/** A file's bytes where a message part keeps them: raw, base64, or a base64 `data:` URL, read a slice at a time. */
interface FileBytes {
  readonly length: number;
  /** Up to `n` bytes from `offset` (fewer at the end). */
  bytes(offset: number, n: number): Uint8Array;
  /** The same as text, one character a byte where it is ASCII (what a search for PDF keywords needs). */
  text(offset: number, n: number): string;
}

/**
 * The bytes of a message part's data (an `image` part's `image`, a `file` part's `data`, tagged or bare, a tool
 * output's file), or `undefined` when the part names them elsewhere (a URL, a provider's file reference).
 */
export function fileBytes(data: unknown): FileBytes | undefined {
  if (typeof data === 'object' && data !== null && !(data instanceof URL) && !ArrayBuffer.isView(data) && !(data instanceof ArrayBuffer)) {
    const tagged = data as { type?: unknown; data?: unknown; url?: unknown };
    if (tagged.type === 'data') return fileBytes(tagged.data);
    if (tagged.type === 'url') return fileBytes(tagged.url);
    return undefined;
  }
  if (data instanceof Uint8Array) return rawBytes(data);
  if (data instanceof ArrayBuffer) return rawBytes(new Uint8Array(data));
  const text = data instanceof URL ? data.href : data;
  if (typeof text !== 'string') return undefined;
  if (text.startsWith('data:')) {
    // Read as the AI SDK reads it (splitDataUrl): what stands after the first comma, up to any next one, is base64,
    // with `;base64` or without (a PDF's base64 sent as `data:application/pdf,JVBERi…` reaches the provider whole).
    const comma = text.indexOf(',');
    if (comma < 0) return undefined;
    const next = text.indexOf(',', comma + 1);
    return base64Bytes(text.slice(comma + 1, next < 0 ? text.length : next));
  }
  // Base64 has no colon: anything with a scheme is a URL the provider fetches.
  return /^[a-z][a-z0-9+.-]*:/i.test(text) ? undefined : base64Bytes(text);
}

const LATIN1 = new TextDecoder('latin1');

/** `data` as a file; a string holds one byte a character (an inflated stream's text). */
function rawBytes(data: Uint8Array | string): FileBytes {
  if (typeof data === 'string') return { length: data.length, bytes: () => new Uint8Array(), text: (offset, n) => data.slice(offset, offset + n) };
  return {
    length: data.byteLength,
    bytes: (offset, n) => data.subarray(offset, offset + n),
    text: (offset, n) => LATIN1.decode(data.subarray(offset, offset + n)),
  };
}

/**
 * Base64 `encoded`: a slice is decoded from the 4-character group its first byte is in. White space is taken out first,
 * as atob (and so the AI SDK) skips it: kept, base64 wrapped at 76 columns put the groups past the first slice out of
 * step, and a PDF's pages there were not counted.
 */
function base64Bytes(encoded: string): FileBytes | undefined {
  const text = /[\t\n\f\r ]/.test(encoded) ? encoded.replace(/[\t\n\f\r ]+/g, '') : encoded;
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61) end -= 1; // '=' padding
  const length = Math.floor((end * 3) / 4);
  const text_ = (offset: number, n: number): string => {
    const from = Math.floor(offset / 3) * 4;
    const to = Math.min(end, Math.ceil((offset + n) / 3) * 4);
    if (from >= to) return '';
    let slice = text.slice(from, to).replace(/-/g, '+').replace(/_/g, '/');
    if (slice.length % 4 !== 0) slice += '='.repeat(4 - (slice.length % 4));
    try {
      return atob(slice).slice(offset % 3, (offset % 3) + n);
    } catch {
      return '';
    }
  };
  return {
    length,
    text: text_,
    bytes: (offset, n) => {
      const binary = text_(offset, n);
      const out = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
      return out;
    },
  };
}

/** An image's width and height from its header (PNG, JPEG, GIF, WebP), or `undefined` when it cannot be read. */
export function imageSize(file: FileBytes): { width: number; height: number } | undefined {
  const head = file.bytes(0, 30);
  const size = (width: number, height: number) => (width > 0 && height > 0 ? { width, height } : undefined);
  const be16 = (b: Uint8Array, i: number) => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
  const le16 = (b: Uint8Array, i: number) => (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8);
  const le24 = (b: Uint8Array, i: number) => le16(b, i) | ((b[i + 2] ?? 0) << 16);
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head.length >= 24 && ascii(1, 4) === 'PNG' && ascii(12, 16) === 'IHDR') {
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    return size(view.getUint32(16), view.getUint32(20));
  }
  if (head.length >= 10 && ascii(0, 4) === 'GIF8') return size(le16(head, 6), le16(head, 8));
  if (head.length >= 30 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') {
    const chunk = ascii(12, 16);
    if (chunk === 'VP8 ') return size(le16(head, 26) & 0x3fff, le16(head, 28) & 0x3fff);
    if (chunk === 'VP8L' && head[20] === 0x2f) {
      const bits = le24(head, 21) | ((head[24] ?? 0) << 24);
      return size((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
    }
    if (chunk === 'VP8X') return size(le24(head, 24) + 1, le24(head, 27) + 1);
    return undefined;
  }
  if (head[0] === 0xff && head[1] === 0xd8) {
    // JPEG: the segments up to the first start-of-frame, whose header holds the size; each is skipped by its length.
    let at = 2;
    for (let segments = 0; segments < 256 && at + 9 <= file.length; segments++) {
      const segment = file.bytes(at, 9);
      if (segment[0] !== 0xff) return undefined;
      const marker = segment[1] ?? 0;
      if (marker === 0xff) {
        at += 1; // fill byte
        continue;
      }
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return size(be16(segment, 7), be16(segment, 5));
      if (marker === 0xd9 || marker === 0xda) return undefined;
      at += marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7) ? 2 : 2 + be16(segment, 2);
    }
  }
  return undefined;
}

/** Bytes of a PDF searched at once: a slice, and the bytes of the next slice a keyword may run into. */
const SLICE = 1 << 20;
const OVERLAP = 64;

/** A page object's `/Type /Page` (not `/Pages`: a PDF name ends at white space or a delimiter). */
const PAGE = /\/Type[\0\t\n\f\r ]*\/Page(?=[\0\t\n\f\r /<>[\]()%{}]|$)/g;

/**
 * What {@link pdfPages} reads of a PDF's structure: dictionaries' bounds, the keys that mark a page tree node, and each
 * object's end (a stream's bytes may hold `<<` or `>>`: what they unbalance ends with their object).
 */
const TREE = /<<|>>|endobj|\/Type[\0\t\n\f\r ]*\/Pages(?=[\0\t\n\f\r /<>[\]()%{}]|$)|\/Kids(?=[\0\t\n\f\r /<>[\]()%{}]|$)|\/Count[\0\t\n\f\r ]+(\d{1,6})/g;

/** A PDF's compressed object streams (`/Type /ObjStm`) read at the most: each past them counts a page. */
const MAX_OBJECT_STREAMS = 4_096;

/** A compressed object stream's dictionary (`/Type /ObjStm`). */
const OBJECT_STREAM = /\/Type[\0\t\n\f\r ]*\/ObjStm(?=[\0\t\n\f\r /<>[\]()%{}]|$)/g;

/** What a PDF's bytes show of its pages, as {@link pdfPages} counts them; added up over a file and its object streams. */
export interface PdfMarks {
  /** `/Type /Page` objects. */
  readonly pages: number;
  /** The largest `/Count` of a page tree node. */
  readonly treeCount: number;
  /** The largest `/Count` of any kind (an outline's too). */
  readonly anyCount: number;
  /** A linearized file's page count (`/N`), or 0. */
  readonly linearized: number;
  /** Where the file's compressed object streams say `/Type /ObjStm` (the first {@link MAX_OBJECT_STREAMS}). */
  readonly objectStreams: readonly number[];
  /** How many say so, all of them. */
  readonly objectStreamCount: number;
}

/**
 * A PDF's pages, counted from what its bytes show without inflating anything: its `/Type /Page` objects, or more where
 * a page tree node (`/Type /Pages`, or one with `/Kids`) counts more (`/Count`: a file whose pages are in compressed
 * object streams and had one added by an incremental update shows that page and the new root); with no page object,
 * the largest `/Count` of any kind; and never fewer than a linearized file's first object says (`/N`). 0 when none shows. A
 * file saved with incremental updates may hold a page twice: it then counts twice, on the safe side.
 */
export function pdfPages(file: FileBytes): number {
  return marksPages(pdfMarks(file));
}

/** The pages {@link PdfMarks} show (see {@link pdfPages}). */
export function marksPages(marks: PdfMarks): number {
  const { pages, treeCount, anyCount, linearized } = marks;
  return Math.max(pages > 0 ? Math.max(pages, treeCount) : anyCount, linearized);
}

/** The marks of a file and those of the object streams inflated from it, as one file's. */
export function addMarks(file: PdfMarks, streams: PdfMarks): PdfMarks {
  return {
    pages: file.pages + streams.pages,
    treeCount: Math.max(file.treeCount, streams.treeCount),
    anyCount: Math.max(file.anyCount, streams.anyCount),
    linearized: file.linearized,
    objectStreams: file.objectStreams,
    objectStreamCount: file.objectStreamCount,
  };
}

/** What a PDF's bytes (or an object stream's, inflated) show of its pages: see {@link pdfPages}. */
export function pdfMarks(file: FileBytes): PdfMarks {
  let pages = 0;
  let anyCount = 0;
  let treeCount = 0;
  const objectStreams: number[] = [];
  let objectStreamCount = 0;
  // The dictionaries open where the search is: whether each is a page tree node, and its /Count.
  const open: { tree: boolean; count: number }[] = [];
  let deeper = 0;
  // Tokens of the page tree read at the most: an honest file has a few an object; 48 MB of `<<` would take a second.
  let tree = 1_000_000;
  for (let start = 0; start < file.length; start += SLICE) {
    const text = file.text(start, SLICE + OVERLAP);
    for (const match of text.matchAll(PAGE)) if (match.index < SLICE) pages += 1;
    for (const match of text.matchAll(OBJECT_STREAM)) {
      if (match.index >= SLICE) continue;
      objectStreamCount += 1;
      if (objectStreams.length < MAX_OBJECT_STREAMS) objectStreams.push(start + match.index);
    }
    for (const match of tree > 0 ? text.matchAll(TREE) : []) {
      tree -= 1;
      if (match.index >= SLICE || tree === 0) break;
      const token = match[0];
      const top = open.at(-1);
      if (token === 'endobj') {
        open.length = 0;
        deeper = 0;
      } else if (token === '<<') {
        if (open.length < 64) open.push({ tree: false, count: 0 });
        else deeper += 1;
      } else if (token === '>>') {
        if (deeper > 0) deeper -= 1;
        else if (open.pop()?.tree === true) treeCount = Math.max(treeCount, top?.count ?? 0);
      } else if (match[1] !== undefined) {
        const n = Number(match[1]);
        anyCount = Math.max(anyCount, n);
        if (deeper === 0 && top !== undefined) top.count = n;
      } else if (deeper === 0 && top !== undefined) top.tree = true;
    }
  }
  const linearized = /\/Linearized[\s\S]{0,400}?\/N[\0\t\n\f\r ]+(\d{1,6})/.exec(file.text(0, 1_024));
  return { pages, treeCount, anyCount, linearized: linearized === null ? 0 : Number(linearized[1]), objectStreams, objectStreamCount };
}

/** What inflating a prompt's object streams may still spend: inflated bytes, and a time (`Date.now()`) to stop at. */
export interface InflateBudget {
  /** Bytes that may still be inflated (taken off as they are). */
  bytes: number;
  /** The `Date.now()` past which nothing more is inflated. */
  readonly until: number;
}

/** What {@link objectStreamMarks} found: the marks of the streams it inflated, and whether any was left unread. */
export interface StreamMarks extends PdfMarks {
  /** A stream was not read (its objects then count as pages: see {@link objectStreamMarks}). */
  readonly unread: boolean;
}

/**
 * The marks of a PDF's compressed object streams (`marks.objectStreams`), each inflated (`DecompressionStream`, which
 * Workers, browsers and Node have). A stream that cannot be read (a filter other than `/FlateDecode` alone,
 * `/DecodeParms`, one that does not inflate, one past {@link MAX_OBJECT_STREAMS}, or one met once `budget` is spent)
 * counts each object it says it holds (`/N`, at least 1) as a page, and `unread` is set; the others are read still.
 * Before (budget34), one such stream made the file count as if it had none: a broken decoy, or a deflate bomb, put before
 * a stream of 12 pages had them counted as 1.
 */
export async function objectStreamMarks(file: FileBytes, marks: PdfMarks, budget: InflateBudget): Promise<StreamMarks> {
  let all: PdfMarks = { pages: 0, treeCount: 0, anyCount: 0, linearized: 0, objectStreams: [], objectStreamCount: 0 };
  // Past the first 4,096 nothing is read: each counts one page (a writer puts about 100 objects in one).
  let unreadObjects = marks.objectStreamCount - marks.objectStreams.length;
  for (const at of marks.objectStreams) {
    const found = objectStreamData(file, at, budget);
    const text = found.data === undefined ? undefined : await inflate(found.data, budget);
    if (text === undefined) unreadObjects += found.objects;
    else all = addMarks(all, pdfMarks(rawBytes(text)));
  }
  return { ...all, pages: all.pages + unreadObjects, unread: unreadObjects > 0 };
}

/** How far from its `/Type /ObjStm` an object stream's dictionary is read, each way. */
const DICTIONARY = 2_048;
const WS = '[\\0\\t\\n\\f\\r ]';
const FLATE = new RegExp(`/Filter${WS}*(?:/FlateDecode|\\[${WS}*/FlateDecode${WS}*\\])`);
const LENGTH = new RegExp(`/Length${WS}+(\\d{1,10})(?!\\d)(?!${WS}+\\d+${WS}+R)`);
/** An object stream's number of objects. */
const OBJECTS = new RegExp(`/N${WS}+(\\d{1,6})(?!\\d)`);

/**
 * The compressed bytes of the object stream whose dictionary says `/Type /ObjStm` at `at`: from after its `stream`
 * line to its `/Length`, or, where the length is another object's (`/Length 9 0 R`), to its `endstream` less the end
 * of line before it; `data` is `undefined` when they cannot be found, the filter is not Flate or `budget` is spent (what
 * is read is taken off it: many streams of one lying length would each read the file again). `objects`: its `/N`, at
 * least 1.
 */
function objectStreamData(file: FileBytes, at: number, budget: InflateBudget): { data: Uint8Array | undefined; objects: number } {
  const from = Math.max(0, at - DICTIONARY);
  let open = -1;
  for (const match of file.text(from, at - from).matchAll(/\bobj(?=[\0\t\n\f\r <])/g)) open = match.index + 3;
  const after = file.text(at, DICTIONARY);
  const stream = /\bstream(?:\r\n|\n|\r)/.exec(after);
  const dictionary = open < 0 ? after.slice(0, stream?.index ?? 0) : file.text(from + open, at - from - open) + after.slice(0, stream?.index ?? 0);
  const objects = Math.max(1, Number(OBJECTS.exec(dictionary)?.[1] ?? 1));
  const none = { data: undefined, objects };
  if (open < 0 || stream === null || budget.bytes < 0 || Date.now() > budget.until) return none;
  if (!FLATE.test(dictionary) || dictionary.includes('/DecodeParms')) return none;
  const start = at + stream.index + stream[0].length;
  const length = LENGTH.exec(dictionary);
  if (length !== null) {
    const n = Number(length[1]);
    if (start + n > file.length || n > budget.bytes) return none;
    budget.bytes -= n;
    return { data: file.bytes(start, n), objects };
  }
  for (let slice = start; slice < file.length && budget.bytes >= 0; slice += SLICE) {
    const end = file.text(slice, SLICE + OVERLAP).indexOf('endstream');
    // What was searched: to the `endstream` where it is in this slice (a short stream takes little), else the slice.
    budget.bytes -= end < 0 || end >= SLICE ? SLICE : end;
    if (end < 0 || end >= SLICE) continue;
    const data = file.bytes(start, slice + end - start);
    const eol = data.at(-2) === 13 && data.at(-1) === 10 ? 2 : data.at(-1) === 10 || data.at(-1) === 13 ? 1 : 0;
    return { data: data.subarray(0, data.length - eol), objects };
  }
  return none;
}

/** `data` inflated (zlib, as `/FlateDecode` is) as text, one character a byte; `undefined` on an error or over `budget`. */
async function inflate(data: Uint8Array, budget: InflateBudget): Promise<string | undefined> {
  try {
    const reader = new Blob([data.slice()]).stream().pipeThrough(new DecompressionStream('deflate')).getReader();
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text;
      budget.bytes -= value.byteLength;
      if (budget.bytes < 0 || Date.now() > budget.until) {
        await reader.cancel().catch(() => undefined);
        return undefined;
      }
      text += LATIN1.decode(value);
    }
  } catch {
    return undefined;
  }
}

/** Whether the bytes start as a PDF does. */
export function isPdf(file: FileBytes): boolean {
  return file.text(0, 5) === '%PDF-';
}
