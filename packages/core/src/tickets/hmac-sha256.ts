// Internal: HMAC-SHA256 (RFC 2104, FIPS 180-4) in plain JavaScript for short messages. Not part of the public API.
//
// WebCrypto's HMAC is asynchronous everywhere and costly per call for the small texts tickets and seals sign:
// about 50 µs of main-thread work plus a thread-pool hop in Node, 11 µs in workerd, 16 µs in Chromium, against
// 3–9 µs here. The signer uses this up to SMALL_MESSAGE_BYTES and WebCrypto above, where native hashing wins.
// SHA-256 has no secret-dependent branches or table indexes, and MACs are compared in constant time.

/** Messages up to this many bytes are signed here; longer ones through WebCrypto. */
export const SMALL_MESSAGE_BYTES = 1024;

/** The first 32 bits of the fractional part of `x`, as an int32 bit pattern. */
const fraction = (x: number): number => ((x - Math.floor(x)) * 0x100000000) | 0;

// FIPS 180-4 §4.2.2 and §5.3.3: the round constants are the fractional parts of the cube roots of the first 64
// primes, the initial state those of the square roots of the first 8. Computed here instead of 600 bytes of literals;
// SELF_TEST below checks the result against a known digest before the signer relies on it.
const K = new Int32Array(64);
const INITIAL = new Int32Array(8);
for (let n = 2, found = 0; found < 64; n++) {
  let prime = true;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) prime = false;
  if (!prime) continue;
  if (found < 8) INITIAL[found] = fraction(Math.sqrt(n));
  K[found++] = fraction(Math.cbrt(n));
}
const W = new Int32Array(64);

/** One 64-byte block of `bytes` at `offset` into the state `h`. */
function compress(h: Int32Array, bytes: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++, offset += 4) W[i] = (bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
  for (let i = 16; i < 64; i++) {
    const x = W[i - 15]!;
    const y = W[i - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    W[i] = (s1 + W[i - 7]! + s0 + W[i - 16]!) | 0;
  }
  let a = h[0]!;
  let b = h[1]!;
  let c = h[2]!;
  let d = h[3]!;
  let e = h[4]!;
  let f = h[5]!;
  let g = h[6]!;
  let k = h[7]!;
  for (let i = 0; i < 64; i++) {
    const t1 = (k + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
    const t2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    k = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  h[0] = (h[0]! + a) | 0;
  h[1] = (h[1]! + b) | 0;
  h[2] = (h[2]! + c) | 0;
  h[3] = (h[3]! + d) | 0;
  h[4] = (h[4]! + e) | 0;
  h[5] = (h[5]! + f) | 0;
  h[6] = (h[6]! + g) | 0;
  h[7] = (h[7]! + k) | 0;
}

const TAIL = new Uint8Array(128);
/** The running state of {@link finish}: copied from the state it starts at, so no array is made per hash. */
const H = new Int32Array(8);

/** SHA-256 of `prefixBytes` bytes already compressed into `state`, followed by `data`. */
function finish(state: Int32Array, prefixBytes: number, data: Uint8Array): Uint8Array {
  const h = H;
  h.set(state);
  const n = data.length;
  let offset = 0;
  for (; offset + 64 <= n; offset += 64) compress(h, data, offset);
  // The last bytes, the 0x80 marker and the bit length (big-endian) in one or two blocks.
  const rest = n - offset;
  const end = rest + 9 > 64 ? 128 : 64;
  TAIL.fill(0, 0, end);
  for (let i = 0; i < rest; i++) TAIL[i] = data[offset + i]!;
  TAIL[rest] = 0x80;
  const bits = (prefixBytes + n) * 8;
  const high = Math.floor(bits / 0x100000000);
  for (let i = 0; i < 4; i++) {
    TAIL[end - 8 + i] = high >>> (24 - 8 * i);
    TAIL[end - 4 + i] = bits >>> (24 - 8 * i);
  }
  for (let at = 0; at < end; at += 64) compress(h, TAIL, at);
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    const word = h[i]!;
    out[i * 4] = word >>> 24;
    out[i * 4 + 1] = word >>> 16;
    out[i * 4 + 2] = word >>> 8;
    out[i * 4 + 3] = word;
  }
  return out;
}

/** SHA-256 of `data`. */
export function sha256(data: Uint8Array): Uint8Array {
  return finish(INITIAL, 0, data);
}

/**
 * Whether this implementation gives SHA-256("abc") on this engine (FIPS 180-4 example). The signer falls back to
 * WebCrypto for every message if it does not, so a miscomputed constant can never produce a wrong MAC.
 */
export const SELF_TEST: boolean = /* @__PURE__ */ (() => {
  const digest = sha256(new Uint8Array([0x61, 0x62, 0x63]));
  const expected = [0xba7816bf, 0x8f01cfea, 0x414140de, 0x5dae2223, 0xb00361a3, 0x96177a9c, 0xb410ff61, 0xf20015ad];
  const view = new DataView(digest.buffer);
  return expected.every((word, i) => view.getUint32(i * 4) === word);
})();

/** An HMAC-SHA256 under `secret`, with both padded key blocks hashed once. */
export function hmacSha256(secret: Uint8Array): (data: Uint8Array) => Uint8Array {
  const key = secret.length > 64 ? sha256(secret) : secret;
  const block = new Uint8Array(64);
  const inner = INITIAL.slice();
  const outer = INITIAL.slice();
  block.fill(0x36);
  for (let i = 0; i < key.length; i++) block[i]! ^= key[i]!;
  compress(inner, block, 0);
  block.fill(0x5c);
  for (let i = 0; i < key.length; i++) block[i]! ^= key[i]!;
  compress(outer, block, 0);
  // No copy of the padded key stays behind in the scratch buffers.
  block.fill(0);
  W.fill(0);
  return (data) => finish(outer, 64, finish(inner, 64, data));
}

/**
 * Whether `data` is hashed here (short, and the self-test passed) rather than through WebCrypto: then an {@link HmacKey}
 * reads it at once, within the call, before its first await (the ticket signer reuses one buffer for such texts).
 */
export function inJavaScript(data: Uint8Array): boolean {
  return SELF_TEST && data.length <= SMALL_MESSAGE_BYTES;
}

/** `data` as WebCrypto's types want it (a `TextEncoder`'s output is typed `ArrayBufferLike` in some runtimes' types). */
const buffer = (data: Uint8Array): Uint8Array<ArrayBuffer> => data as Uint8Array<ArrayBuffer>;

/** SHA-256 of `data`: here for short data, through WebCrypto for long. */
export async function sha256Digest(data: Uint8Array): Promise<Uint8Array> {
  return inJavaScript(data) ? sha256(data) : new Uint8Array(await crypto.subtle.digest('SHA-256', buffer(data)));
}

/** The HMAC-SHA256 of one secret, for short messages here and for long ones through WebCrypto. */
export interface HmacKey {
  sign(data: Uint8Array): Promise<Uint8Array>;
  /** Whether `signature` is the MAC of `data`, compared in constant time either way. */
  verify(data: Uint8Array, signature: Uint8Array): Promise<boolean>;
}

/** An {@link HmacKey}; its padded key blocks and its WebCrypto key are made on first use. */
export function createHmacKey(secret: Uint8Array<ArrayBuffer>): HmacKey {
  let local: ((data: Uint8Array) => Uint8Array) | undefined;
  let imported: Promise<CryptoKey> | undefined;
  const localMac = (data: Uint8Array): Uint8Array => {
    local ??= hmacSha256(secret);
    return local(data);
  };
  const webCryptoKey = (): Promise<CryptoKey> => {
    if (imported === undefined) {
      const key = crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
      imported = key;
      // A failed import is tried again next time.
      key.catch(() => {
        if (imported === key) imported = undefined;
      });
    }
    return imported;
  };
  return {
    async sign(data) {
      if (inJavaScript(data)) return localMac(data);
      return new Uint8Array(await crypto.subtle.sign('HMAC', await webCryptoKey(), buffer(data)));
    },
    async verify(data, signature) {
      if (inJavaScript(data)) return equalBytes(localMac(data), signature);
      return crypto.subtle.verify('HMAC', await webCryptoKey(), buffer(signature), buffer(data));
    },
  };
}

/** Whether two byte strings are equal, in time that depends only on their lengths. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
