// Not in the barrel: how the token budget's estimate (prompt-estimate.ts) counts a prompt, and what a turn keeps of its
// files between its model calls. The same part objects come back at every step of a turn (the AI SDK passes the
// messages on), so a file is read once a turn, not at every step (a 10 MB PDF in base64 wrapped at 76 columns took
// 25-60 ms a read, about 0.3-0.6 s over a 10-step turn: white space taken out, then every slice searched). Before the
// turn's first model call, where the loop may wait (`prepareStep`), a PDF's compressed object streams are inflated, so
// that pages written by PDF 1.5+ writers count.
import type { ModelMessage } from 'ai';
import {
  addMarks,
  fileBytes,
  IMAGE_TOKEN_ESTIMATE,
  type InflateBudget,
  imageSize,
  imageTokens,
  isPdf,
  marksPages,
  objectStreamMarks,
  PDF_PAGE_TOKEN_ESTIMATE,
  pdfMarks,
} from './file-tokens.ts';
import type { PromptToEstimate } from './prompt-estimate.ts';

/** What a turn has counted of its prompt's files: each image's and PDF's tokens, by its message part. */
export interface PromptFiles {
  /** The tokens of each file part counted so far. */
  readonly tokens: WeakMap<object, number>;
  /** File parts found to be neither an image nor a PDF (counted by their bytes): not read again to find out. */
  readonly plain: WeakSet<object>;
  /** How many times a file's bytes were read (a part counted once is not read again; the tests count them). */
  reads: number;
}

/** A turn's {@link PromptFiles}, empty: made when the turn starts, dropped with it. */
export function promptFiles(): PromptFiles {
  return { tokens: new WeakMap(), plain: new WeakSet(), reads: 0 };
}

/**
 * What inflating one model call's object streams may take at the most: 32 MiB read and inflated (an honest 20,000-page PDF's
 * page objects are 2-6 MB; a deflate bomb stops there), and 1 s where the clock moves while it runs (Workers move it at
 * I/O only: the bytes bound them there).
 */
const INFLATE_BYTES = 32 << 20;
const INFLATE_MS = 1_000;

/** Tokens each message, and each tool definition, counts beyond its text (roles, separators, the provider's framing). */
const OVERHEAD_TOKENS = 8;

/**
 * `estimateInputTokens`, with the file counts of `files` where it has them (and kept there when it counts a file):
 * the UTF-8 bytes of the texts / 4, 8 tokens a message and a tool, and each image's and PDF's tokens.
 */
export function estimatePrompt(prompt: PromptToEstimate, files: PromptFiles | undefined): number {
  let tokens = 0;
  let bytes = prompt.instructions === undefined ? 0 : utf8Bytes(prompt.instructions);
  for (const message of prompt.messages) {
    tokens += OVERHEAD_TOKENS;
    const counted = countValue(message, files);
    bytes += counted.bytes;
    tokens += counted.tokens;
  }
  for (const tool of prompt.tools) {
    tokens += OVERHEAD_TOKENS;
    bytes += utf8Bytes(tool.name) + (tool.description === undefined ? 0 : utf8Bytes(tool.description)) + countValue(tool.inputSchema, files).bytes;
  }
  return tokens + Math.ceil(bytes / 4);
}

/**
 * Counts the PDFs of `messages` that `files` has not counted yet, their compressed object streams inflated, and keeps
 * their tokens in `files` for the estimate. A stream that cannot be read (not Flate, one that does not inflate, over
 * 32 MiB read and inflated or 1 s for the call) counts each object it holds as a page, and the file at least its bytes
 * / 4; the other streams are still read. Never throws.
 */
export async function readPromptFiles(messages: readonly ModelMessage[], files: PromptFiles): Promise<void> {
  const budget: InflateBudget = { bytes: INFLATE_BYTES, until: Date.now() + INFLATE_MS };
  for (const part of pdfParts(messages, files)) {
    try {
      const bytes = fileBytes(partData(part));
      if (bytes === undefined) continue;
      files.reads += 1;
      const marks = pdfMarks(bytes);
      const streams = marks.objectStreams.length === 0 ? undefined : await objectStreamMarks(bytes, marks, budget);
      const pages = marksPages(streams === undefined ? marks : addMarks(marks, streams));
      // A stream left unread counted its objects as pages; the bytes / 4 where they are more (a deflate bomb's 40 KB).
      const tokens = pdfTokens(pages, bytes.length);
      files.tokens.set(part, streams?.unread === true ? Math.max(tokens, Math.ceil(bytes.length / 4)) : tokens);
    } catch {
      // Counted by the estimate as before.
    }
  }
}

/** The tokens of a PDF of `pages` pages (0: none shows) and `length` bytes. */
function pdfTokens(pages: number, length: number): number {
  return pages > 0 ? pages * PDF_PAGE_TOKEN_ESTIMATE : Math.max(PDF_PAGE_TOKEN_ESTIMATE, Math.ceil(length / 4));
}

/** The parts of `messages` that hold a PDF's bytes and that `files` has not counted. */
function pdfParts(messages: readonly ModelMessage[], files: PromptFiles): object[] {
  const found: object[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (typeof v !== 'object' || v === null || v instanceof Uint8Array || v instanceof ArrayBuffer || v instanceof URL || depth > 64) return;
    if (Array.isArray(v)) {
      for (const item of v) walk(item, depth + 1);
      return;
    }
    const kind = fileKind(v, files);
    if (kind === 'pdf') {
      if (!files.tokens.has(v)) found.push(v);
      return;
    }
    if (kind === 'image') return;
    for (const [key, item] of Object.entries(v)) if (!UNCOUNTED.has(key)) walk(item, depth + 1);
  };
  walk(messages, 0);
  return found;
}

/** Keys whose values reach no model as tokens (a provider's options and metadata). */
const UNCOUNTED = new Set(['providerOptions', 'providerMetadata']);

/** The bytes of a message's texts (keys included, as their JSON would carry them), and the tokens of its images and PDFs. */
function countValue(value: unknown, files: PromptFiles | undefined): { bytes: number; tokens: number } {
  let bytes = 0;
  let tokens = 0;
  const walk = (v: unknown, depth: number): void => {
    if (typeof v === 'string') bytes += utf8Bytes(v);
    else if (typeof v === 'number' || typeof v === 'boolean') bytes += String(v).length;
    else if (typeof v !== 'object' || v === null) return;
    else if (v instanceof Uint8Array || v instanceof ArrayBuffer) bytes += v.byteLength;
    else if (v instanceof URL) bytes += utf8Bytes(v.href);
    else if (depth > 64) return;
    else if (Array.isArray(v)) for (const item of v) walk(item, depth + 1);
    else {
      const file = fileTokens(v, files);
      if (file !== undefined) {
        tokens += file;
        return;
      }
      for (const [key, item] of Object.entries(v)) {
        if (UNCOUNTED.has(key)) continue;
        bytes += key.length;
        walk(item, depth + 1);
      }
    }
  };
  walk(value, 0);
  return { bytes, tokens };
}

/**
 * Whether a message part is an image (an `image` part, or a `file` or tool-output part of an image type) or a PDF (of
 * that media type, or bytes that start as one); `undefined` for any other part.
 */
function fileKind(part: object, files: PromptFiles | undefined): 'image' | 'pdf' | undefined {
  const { type, mediaType } = part as { type?: unknown; mediaType?: unknown };
  const media = typeof mediaType === 'string' ? mediaType.toLowerCase() : '';
  const image = type === 'image' || type === 'image-data' || type === 'image-url' || type === 'image-file-id';
  const file = type === 'file' || type === 'file-data' || type === 'media';
  if (image || (file && (media === 'image' || media.startsWith('image/')))) return 'image';
  if (!file) return undefined;
  if (media === 'application/pdf') return 'pdf';
  if (files?.plain.has(part)) return undefined;
  const bytes = fileBytes(partData(part));
  if (bytes !== undefined && isPdf(bytes)) return 'pdf';
  files?.plain.add(part);
  return undefined;
}

/** The tokens of a message part that is an image or a PDF (kept in `files`, read there when counted); else `undefined`. */
function fileTokens(part: object, files: PromptFiles | undefined): number | undefined {
  const known = files?.tokens.get(part);
  if (known !== undefined) return known;
  const kind = fileKind(part, files);
  if (kind === undefined) return undefined;
  const bytes = fileBytes(partData(part));
  if (files !== undefined && bytes !== undefined) files.reads += 1;
  let tokens: number;
  if (kind === 'image') {
    const size = bytes === undefined ? undefined : imageSize(bytes);
    tokens = size === undefined ? IMAGE_TOKEN_ESTIMATE : imageTokens(size.width, size.height);
  } else {
    // A PDF the provider fetches itself, or one named by a file reference: its pages are unknown here, one is counted.
    tokens = bytes === undefined ? PDF_PAGE_TOKEN_ESTIMATE : pdfTokens(marksPages(pdfMarks(bytes)), bytes.length);
  }
  files?.tokens.set(part, tokens);
  return tokens;
}

/** Where a part keeps its file: `image` for an image part, `url` for an image URL part, `data` for the others. */
function partData(part: object): unknown {
  const { type, image, url, data } = part as { type?: unknown; image?: unknown; url?: unknown; data?: unknown };
  return type === 'image' ? image : type === 'image-url' ? url : data;
}

/** The UTF-8 length of `text`, without encoding it. */
export function utf8Bytes(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A code unit from U+0080 takes one more byte, from U+0800 two more; a surrogate pair (4 bytes) is two units of 2.
    if (c >= 0x80) n += c >= 0x800 && (c < 0xd800 || c > 0xdfff) ? 2 : 1;
  }
  return n;
}
