// Internal: base64url without padding (RFC 4648 §5), strict on decode. Not part of the public API.

const ALPHABET = /^[A-Za-z0-9_-]*$/;
// A final group of 3 characters carries 2 bytes + 2 unused bits, one of 2 characters 1 byte + 4 unused bits.
// Unused bits must be zero, so every byte string has exactly one encoding (no malleable tickets).
const LAST_CHAR_FOR_2_BYTES = /[AEIMQUYcgkosw048]$/;
const LAST_CHAR_FOR_1_BYTE = /[AQgw]$/;

/** Encodes bytes as unpadded base64url. */
export function encodeBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
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
