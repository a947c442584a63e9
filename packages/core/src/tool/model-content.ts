import { PLAIN_FILE_NAME } from './file-name.ts';

/** Text the model reads, one piece of a tool result's content. */
export interface TextPart {
  readonly type: 'text';
  readonly text: string;
}

/** An image the model sees, one piece of a tool result's content: base64 data (no `data:` prefix) and its media type. */
export interface ImagePart {
  readonly type: 'image';
  /** Standard base64 (RFC 4648 §4, padded), the image's bytes. */
  readonly data: string;
  /** One of {@link IMAGE_MEDIA_TYPES}: what every provider that takes images in tool results accepts. */
  readonly mediaType: string;
}

/**
 * A document the model reads, one piece of a tool result's content: a PDF as base64 data (no `data:` prefix), its
 * media type, and the file name the model is shown.
 */
export interface DocumentPart {
  readonly type: 'document';
  /** Standard base64 (RFC 4648 §4, padded), the document's bytes. */
  readonly data: string;
  /** One of {@link DOCUMENT_MEDIA_TYPES}. */
  readonly mediaType: string;
  /** A plain file name (`report.pdf`: no path, no control characters, at most 255 characters). */
  readonly filename?: string | undefined;
}

/** One piece of what the model reads for a tool result. */
export type ModelContentPart = TextPart | ImagePart | DocumentPart;

/**
 * What `toModelOutput` returns: text, or parts when the model should see images (a screenshot, a chart, a scanned
 * page) or read documents (a PDF). Providers that cannot take them in tool results get the parts' text, with a line
 * naming each image or document.
 */
export type ModelContent = string | readonly ModelContentPart[];

/** The image types a tool result may carry (what OpenAI, Anthropic and Gemini all take). */
export const IMAGE_MEDIA_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** The document types a tool result may carry: PDF, what the providers that take documents in tool results take. */
export const DOCUMENT_MEDIA_TYPES: readonly string[] = ['application/pdf'];

/** Base64 characters, then at most two `=`: with a length that is a multiple of 4, standard padded base64. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Base64 characters that hold the first 1,024 bytes, where PDF readers look for the `%PDF-` header. */
const PDF_HEADER_CHARS = 1368;
/** Bytes per `String.fromCharCode` call (spread arguments have a limit). */
const CHUNK = 0x8000;

/**
 * An image part from its bytes (or from base64 text you already have): `toModelOutput: (out) => [{ type: 'text', text:
 * out.caption }, imagePart(out.png, 'image/png')]`. Throws a `TypeError` for a media type that is not an image type
 * models take, or text that is not base64.
 */
export function imagePart(data: Uint8Array | ArrayBuffer | string, mediaType: string): ImagePart {
  const part = { type: 'image' as const, data: toBase64(data), mediaType };
  checkPart(part, 0);
  return part;
}

/**
 * A document part from a PDF's bytes (or from base64 text you already have), with the file name the model is shown:
 * `toModelOutput: (out) => [{ type: 'text', text: out.summary }, documentPart(out.pdf, 'application/pdf', 'invoice.pdf')]`.
 * Throws a `TypeError` for a media type other than `application/pdf`, data that is not base64 or not a PDF, or a
 * file name that is not a plain name.
 */
export function documentPart(data: Uint8Array | ArrayBuffer | string, mediaType: string, filename?: string): DocumentPart {
  const part: DocumentPart = { type: 'document', data: toBase64(data), mediaType, ...(filename === undefined ? {} : { filename }) };
  checkPart(part, 0);
  return part;
}

/**
 * Checks what `toModelOutput` returned: a string, or a non-empty list of text, image and document parts (copied, so
 * later changes to the tool's objects change nothing). Throws a `TypeError` that names the bad part.
 */
export function checkModelContent(value: unknown): ModelContent {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) throw new TypeError(`toModelOutput returned ${value === null ? 'null' : typeof value}, not a string or a list of parts`);
  if (value.length === 0) throw new TypeError('toModelOutput returned no parts');
  return value.map((part: unknown, index): ModelContentPart => {
    checkPart(part, index);
    const p = part as ModelContentPart;
    if (p.type === 'text') return { type: 'text', text: p.text };
    if (p.type === 'image') return { type: 'image', data: p.data, mediaType: p.mediaType };
    return { type: 'document', data: p.data, mediaType: p.mediaType, ...(p.filename === undefined ? {} : { filename: p.filename }) };
  });
}

function checkPart(part: unknown, index: number): void {
  const p = (typeof part === 'object' && part !== null ? part : {}) as Record<string, unknown>;
  if (p.type === 'text') {
    if (typeof p.text !== 'string') throw new TypeError(`part ${index} of toModelOutput is a text part without a string \`text\``);
    return;
  }
  const image = p.type === 'image';
  if (!image && p.type !== 'document') {
    throw new TypeError(
      `part ${index} of toModelOutput is not { type: 'text', text }, { type: 'image', data, mediaType } or { type: 'document', data, mediaType, filename? }`,
    );
  }
  const types = image ? IMAGE_MEDIA_TYPES : DOCUMENT_MEDIA_TYPES;
  if (typeof p.mediaType !== 'string' || !types.includes(p.mediaType)) {
    // An image type in a document part, or a PDF in an image part: say which helper makes the right part.
    const other = (image ? DOCUMENT_MEDIA_TYPES : IMAGE_MEDIA_TYPES).includes(p.mediaType as string);
    const hint = other ? ` (${image ? 'documentPart' : 'imagePart'} makes a part for it)` : '';
    throw new TypeError(`part ${index} of toModelOutput has media type ${JSON.stringify(p.mediaType)}; models take ${types.join(', ')}${image ? '' : ' documents'}${hint}`);
  }
  // One character class, no groups: a regex that repeats a group backtracks once per group and overflows the stack
  // on an image of some megabytes.
  if (typeof p.data !== 'string' || p.data.length === 0 || p.data.length % 4 !== 0 || !BASE64.test(p.data)) {
    throw new TypeError(`part ${index} of toModelOutput has \`data\` that is not base64 text (no "data:" prefix)`);
  }
  if (image) return;
  // Not a PDF: the provider would refuse the whole request; here it is this call's error, which the model reads.
  if (!atob(p.data.slice(0, PDF_HEADER_CHARS)).slice(0, 1024).includes('%PDF-')) {
    throw new TypeError(`part ${index} of toModelOutput has \`data\` that is not a PDF (no "%PDF-" header in its first 1,024 bytes)`);
  }
  if (p.filename !== undefined && (typeof p.filename !== 'string' || !PLAIN_FILE_NAME.test(p.filename))) {
    throw new TypeError(
      `part ${index} of toModelOutput has filename ${JSON.stringify(p.filename)}, not a plain file name (1-255 characters, no "/", "\\" or control characters, not "." or "..")`,
    );
  }
}

/**
 * The parts as one text: text parts as they are, each image or document as a line that names it
 * (`[image: image/png, 68 B]`, `[document: report.pdf, application/pdf, 12.0 KB]`). What `ToolCallResult.content` holds
 * for parts, and what a model that cannot take them in tool results reads.
 */
export function partsText(parts: readonly ModelContentPart[]): string {
  return parts
    .map((part) => {
      if (part.type === 'text') return part.text;
      const name = part.type === 'document' && part.filename !== undefined ? `${part.filename}, ` : '';
      return `[${part.type}: ${name}${part.mediaType}, ${approximateSize(part.data)}]`;
    })
    .join('\n');
}

function approximateSize(base64: string): string {
  const bytes = Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Bytes as standard padded base64 (`btoa` exists in browsers, Workers and Node), in chunks so large files fit; text as it is. */
function toBase64(data: Uint8Array | ArrayBuffer | string): string {
  if (typeof data === 'string') return data;
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}
