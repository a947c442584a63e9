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

/** One piece of what the model reads for a tool result. */
export type ModelContentPart = TextPart | ImagePart;

/**
 * What `toModelOutput` returns: text, or parts when the model should see images (a screenshot, a chart, a scanned
 * page). Providers that cannot take images in tool results get the parts' text, with a line naming each image.
 */
export type ModelContent = string | readonly ModelContentPart[];

/** The image types a tool result may carry (what OpenAI, Anthropic and Gemini all take). */
export const IMAGE_MEDIA_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** Base64 characters, then at most two `=`: with a length that is a multiple of 4, standard padded base64. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Bytes per `String.fromCharCode` call (spread arguments have a limit). */
const CHUNK = 0x8000;

/**
 * An image part from its bytes (or from base64 text you already have): `toModelOutput: (out) => [{ type: 'text', text:
 * out.caption }, imagePart(out.png, 'image/png')]`. Throws a `TypeError` for a media type that is not an image type
 * models take, or text that is not base64.
 */
export function imagePart(data: Uint8Array | ArrayBuffer | string, mediaType: string): ImagePart {
  const part = { type: 'image' as const, data: typeof data === 'string' ? data : encodeBase64(data instanceof Uint8Array ? data : new Uint8Array(data)), mediaType };
  checkPart(part, 0);
  return part;
}

/**
 * Checks what `toModelOutput` returned: a string, or a non-empty list of text and image parts (copied, so later
 * changes to the tool's objects change nothing). Throws a `TypeError` that names the bad part.
 */
export function checkModelContent(value: unknown): ModelContent {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) throw new TypeError(`toModelOutput returned ${value === null ? 'null' : typeof value}, not a string or a list of parts`);
  if (value.length === 0) throw new TypeError('toModelOutput returned no parts');
  return value.map((part: unknown, index): ModelContentPart => {
    checkPart(part, index);
    const p = part as ModelContentPart;
    return p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image', data: p.data, mediaType: p.mediaType };
  });
}

function checkPart(part: unknown, index: number): void {
  const p = (typeof part === 'object' && part !== null ? part : {}) as Record<string, unknown>;
  if (p.type === 'text') {
    if (typeof p.text !== 'string') throw new TypeError(`part ${index} of toModelOutput is a text part without a string \`text\``);
    return;
  }
  if (p.type !== 'image') throw new TypeError(`part ${index} of toModelOutput is not { type: 'text', text } or { type: 'image', data, mediaType }`);
  if (typeof p.mediaType !== 'string' || !IMAGE_MEDIA_TYPES.includes(p.mediaType)) {
    throw new TypeError(`part ${index} of toModelOutput has media type ${JSON.stringify(p.mediaType)}; models take ${IMAGE_MEDIA_TYPES.join(', ')}`);
  }
  // One character class, no groups: a regex that repeats a group backtracks once per group and overflows the stack
  // on an image of some megabytes.
  if (typeof p.data !== 'string' || p.data.length === 0 || p.data.length % 4 !== 0 || !BASE64.test(p.data)) {
    throw new TypeError(`part ${index} of toModelOutput has \`data\` that is not base64 text (no "data:" prefix)`);
  }
}

/**
 * The parts as one text: text parts as they are, each image as a line that names it. What `ToolCallResult.content`
 * holds for parts, and what a model that cannot see images in tool results reads.
 */
export function partsText(parts: readonly ModelContentPart[]): string {
  return parts.map((part) => (part.type === 'text' ? part.text : `[image: ${part.mediaType}, ${approximateSize(part.data)}]`)).join('\n');
}

function approximateSize(base64: string): string {
  const bytes = Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** Standard padded base64 (`btoa` exists in browsers, Workers and Node), in chunks so large images fit. */
function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}
