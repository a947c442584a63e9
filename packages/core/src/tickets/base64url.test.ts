import { describe, expect, it } from 'vitest';
import { decodeBase64Url, encodeBase64Url } from './base64url.ts';

describe('base64url', () => {
  it('round-trips every length and every byte value', () => {
    for (let length = 0; length <= 40; length++) {
      const bytes = crypto.getRandomValues(new Uint8Array(length));
      const text = encodeBase64Url(bytes);
      expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
      expect(decodeBase64Url(text)).toEqual(bytes);
    }
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(decodeBase64Url(encodeBase64Url(all))).toEqual(all);
  });

  it('uses the URL-safe alphabet without padding', () => {
    expect(encodeBase64Url(new Uint8Array([0xfb, 0xff, 0xbf]))).toBe('-_-_');
    expect(encodeBase64Url(new Uint8Array([1]))).toBe('AQ');
  });

  it('rejects padding, foreign characters, impossible lengths and non-canonical trailing bits', () => {
    expect(decodeBase64Url('AQ==')).toBeUndefined();
    expect(decodeBase64Url('+/+/')).toBeUndefined();
    expect(decodeBase64Url('A Q')).toBeUndefined();
    expect(decodeBase64Url('AQIDB')).toBeUndefined();
    expect(decodeBase64Url('AR')).toBeUndefined(); // same byte as 'AQ' with a stray bit
    expect(decodeBase64Url('AQID')).toEqual(new Uint8Array([1, 2, 3]));
    expect(decodeBase64Url('AQI')).toEqual(new Uint8Array([1, 2]));
    expect(decodeBase64Url('AQJ')).toBeUndefined();
  });
});
