// Internal: base64url without padding (RFC 4648 §5), strict on decode. Not part of the public API.

const ALPHABET = /^[A-Za-z0-9_-]*$/;
// A final group of 3 characters carries 2 bytes + 2 unused bits, one of 2 characters 1 byte + 4 unused bits.
// Unused bits must be zero, so every byte string has exactly one encoding (no malleable tickets).
const LAST_CHAR_FOR_2_BYTES = /[AEIMQUYcgkosw048]$/;
const LAST_CHAR_FOR_1_BYTE = /[AQgw]$/;

const CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Encodes bytes as unpadded base64url (a direct loop: no binary string, `btoa` or replacements). */
export function encodeBase64Url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += CHARS[n >>> 18]! + CHARS[(n >>> 12) & 63]! + CHARS[(n >>> 6) & 63]! + CHARS[n & 63]!;
  }
  if (i < bytes.length) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8);
    out += CHARS[n >>> 18]! + CHARS[(n >>> 12) & 63]!;
    if (i + 1 < bytes.length) out += CHARS[(n >>> 6) & 63]!;
  }
  return out;
}

/** Decodes unpadded, canonical base64url; `undefined` for anything else (padding, bad characters, non-zero trailing bits). */
export function decodeBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!ALPHABET.test(text)) return undefined;
  const rest = text.length % 4;
  if (rest === 1) return undefined;
  if (rest === 2 && !LAST_CHAR_FOR_1_BYTE.test(text)) return undefined;
  if (rest === 3 && !LAST_CHAR_FOR_2_BYTES.test(text)) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
