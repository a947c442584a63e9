import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { equalBytes, hmacSha256, SELF_TEST, SMALL_MESSAGE_BYTES, sha256 } from './hmac-sha256.ts';
import { createTicketSigner } from './ticket-signer.ts';

const text = (value: string) => new TextEncoder().encode(value);
const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
const filled = (length: number, byte: number) => new Uint8Array(length).fill(byte);

async function webCryptoHmac(secret: Uint8Array, data: Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new Uint8Array(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return hex(new Uint8Array(await crypto.subtle.sign('HMAC', key, new Uint8Array(data))));
}

describe('sha256 (FIPS 180-4 examples)', () => {
  it('its computed constants pass the self-test on this engine (else the signer would use WebCrypto only)', () => {
    expect(SELF_TEST).toBe(true);
  });

  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
  ])('sha256(%j)', (message, digest) => {
    expect(hex(sha256(text(message)))).toBe(digest);
  });

  it('a million times "a" (many blocks, a length above 2^16 bits)', () => {
    expect(hex(sha256(filled(1_000_000, 0x61)))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });
});

describe('hmacSha256', () => {
  it.each([
    ['1', filled(20, 0x0b), text('Hi There'), 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7'],
    ['2', text('Jefe'), text('what do ya want for nothing?'), '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843'],
    ['3', filled(20, 0xaa), filled(50, 0xdd), '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe'],
    ['4', Uint8Array.from({ length: 25 }, (_, i) => i + 1), filled(50, 0xcd), '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b'],
    ['6', filled(131, 0xaa), text('Test Using Larger Than Block-Size Key - Hash Key First'), '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54'],
    [
      '7',
      filled(131, 0xaa),
      text('This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.'),
      '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
    ],
  ])('RFC 4231 test case %s', (_case, key, data, mac) => {
    expect(hex(hmacSha256(key)(data))).toBe(mac);
  });

  it('equals WebCrypto for any key and message, across every block boundary (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 200 }), fc.uint8Array({ maxLength: SMALL_MESSAGE_BYTES * 2 + 70 }), async (key, data) => {
        expect(hex(hmacSha256(key)(data))).toBe(await webCryptoHmac(key, data));
      }),
      { numRuns: 300 },
    );
    // Every length around the padding edges (55/56/63/64 bytes and their multiples).
    const key = text('a-key-for-the-boundary-lengths-0123456789');
    const sign = hmacSha256(key);
    for (let length = 0; length <= 200; length++) {
      const data = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 255);
      expect(hex(sign(data))).toBe(await webCryptoHmac(key, data));
    }
  });

  it('a signer reused for many messages keeps its key state', () => {
    const sign = hmacSha256(text('Jefe'));
    sign(filled(300, 1));
    expect(hex(sign(text('what do ya want for nothing?')))).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('equalBytes compares contents and lengths', () => {
    expect(equalBytes(filled(32, 7), filled(32, 7))).toBe(true);
    const other = filled(32, 7);
    other[31] = 8;
    expect(equalBytes(filled(32, 7), other)).toBe(false);
    expect(equalBytes(filled(31, 7), filled(32, 7))).toBe(false);
  });
});

describe('the signer on both sides of the small-message limit', () => {
  const keys = [{ id: 'k1', secret: 'a-secret-that-is-at-least-32-bytes-long!' }];

  it.each([
    ['short content (JavaScript HMAC)', 'shipped'],
    ['long content (WebCrypto)', 'x'.repeat(SMALL_MESSAGE_BYTES * 2)],
  ])('%s: a seal verifies, and any change to the content fails', async (_name, output) => {
    const signer = createTicketSigner({ keys });
    const subject = { toolName: 'query_order', callId: 'c1', conversationId: 'conv', content: { output } };
    const seal = await signer.seal(subject);
    await expect(signer.verifySeal(seal, subject)).resolves.toBeUndefined();
    await expect(signer.verifySeal(seal, { ...subject, content: { output: `${output}!` } })).rejects.toMatchObject({ reason: 'bad-signature' });
    // Another signer with the same key (another isolate) verifies it too.
    const other = createTicketSigner({ keys });
    await expect(other.verifySeal(seal, subject)).resolves.toBeUndefined();
  });
});
