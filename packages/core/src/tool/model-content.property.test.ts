import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOSTILE_KEYS, jsonValue } from '../test-support/arbitraries.ts';
import { checkModelContent, DOCUMENT_MEDIA_TYPES, documentPart, IMAGE_MEDIA_TYPES, imagePart, type ModelContentPart, partsText } from './model-content.ts';

const toBytes = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
const PDF_HEADER = new TextEncoder().encode('%PDF-1.7\n');
const KEYS = new Set(['type', 'text', 'data', 'mediaType', 'filename']);

/** Base64 that is valid, or almost: a character off, padding wrong, a prefix, whitespace. */
const base64ish = fc.oneof(
  fc.uint8Array({ maxLength: 64 }).map((bytes) => btoa(String.fromCharCode(...bytes))),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => `${btoa(String.fromCharCode(...bytes))}=`),
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => btoa(String.fromCharCode(...bytes)).replace(/=+$/, '')),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => `data:image/png;base64,${btoa(String.fromCharCode(...bytes))}`),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => ` ${btoa(String.fromCharCode(...bytes))}`),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => btoa(String.fromCharCode(...PDF_HEADER, ...bytes))),
  fc.string({ maxLength: 40 }),
);

const bytes = fc.uint8Array({ minLength: 1, maxLength: 64 });
const encode = (data: Uint8Array) => btoa(String.fromCharCode(...data));
const plainName = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,30}$/);

/** Parts the executor must accept. */
const validPart: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ type: fc.constant('text'), text: fc.string({ maxLength: 20 }) }),
  fc.record({ type: fc.constant('image'), data: bytes.map(encode), mediaType: fc.constantFrom(...IMAGE_MEDIA_TYPES) }),
  fc.record(
    { type: fc.constant('document'), data: bytes.map((b) => encode(Uint8Array.from([...PDF_HEADER, ...b]))), mediaType: fc.constant('application/pdf'), filename: plainName },
    { requiredKeys: ['type', 'data', 'mediaType'] },
  ),
);

/** A wrong or hostile value for one field of a part. */
const wrongField = fc.record({
  key: fc.constantFrom('type', 'text', 'data', 'mediaType', 'filename', ...HOSTILE_KEYS),
  value: fc.oneof(
    fc.constantFrom('text', 'image', 'document', 'file', 'TEXT', '', 'image/svg+xml', 'text/html', 'IMAGE/PNG', ...DOCUMENT_MEDIA_TYPES),
    fc.constantFrom('a.pdf', '../x.pdf', 'a/b.pdf', 'a\\b.pdf', '.', '..', 'a\u0000.pdf', 'x'.repeat(256)),
    base64ish,
    jsonValue,
  ),
});

/** Valid parts, valid parts with one field made wrong (or an extra hostile key), and random objects. */
const partish: fc.Arbitrary<unknown> = fc.oneof(
  validPart,
  fc.tuple(validPart, wrongField).map(([part, { key, value }]) => Object.defineProperty({ ...part }, key, { value, enumerable: true, writable: true, configurable: true })),
  fc.dictionary(fc.constantFrom('type', 'text', 'data', 'mediaType', 'filename'), fc.oneof(base64ish, jsonValue)),
);

describe('model content: random tool output (property)', () => {
  it('checkModelContent accepts a copy of valid parts or throws a TypeError naming the part; what it accepts checks again the same, and reads as text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(partish, { maxLength: 4 }), partish, jsonValue), (value) => {
        let checked: ReturnType<typeof checkModelContent>;
        try {
          checked = checkModelContent(value);
        } catch (error) {
          expect(error).toBeInstanceOf(TypeError);
          expect((error as Error).message).toMatch(/toModelOutput/);
          return;
        }
        if (typeof checked === 'string') {
          expect(checked).toBe(value);
          return;
        }
        expect(Array.isArray(value)).toBe(true);
        expect(checked.length).toBe((value as unknown[]).length);
        checked.forEach((part: ModelContentPart, index) => {
          // A fresh object with the part's own fields only, none of what else the tool's object carried.
          expect(part).not.toBe((value as unknown[])[index]);
          for (const key of Object.keys(part)) expect(KEYS.has(key), key).toBe(true);
          expect(Object.getPrototypeOf(part)).toBe(Object.prototype);
          if (part.type === 'image') expect(IMAGE_MEDIA_TYPES).toContain(part.mediaType);
          if (part.type === 'document') {
            expect(DOCUMENT_MEDIA_TYPES).toContain(part.mediaType);
            expect(new TextDecoder('latin1').decode(toBytes(part.data).slice(0, 1024))).toContain('%PDF-');
          }
        });
        expect(checkModelContent(checked)).toEqual(checked);
        expect(typeof partsText(checked)).toBe('string');
      }),
      { numRuns: 2000 },
    );
  });

  it('valid parts are always accepted, as equal copies', () => {
    fc.assert(
      fc.property(fc.array(validPart, { minLength: 1, maxLength: 5 }), (parts) => {
        const checked = checkModelContent(parts);
        expect(checked).toEqual(parts);
        expect(checked).not.toBe(parts);
      }),
      { numRuns: 500 },
    );
  });

  it('imagePart and documentPart encode any bytes as base64 that decodes back to them', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.constantFrom(...IMAGE_MEDIA_TYPES), fc.boolean(), (bytes, mediaType, buffer) => {
        if (bytes.length === 0) {
          expect(() => imagePart(bytes, mediaType)).toThrow(TypeError);
          return;
        }
        const image = imagePart(buffer ? bytes.slice().buffer : bytes, mediaType);
        expect(toBytes(image.data)).toEqual(bytes);
        const pdf = Uint8Array.from([...PDF_HEADER, ...bytes]);
        const document = documentPart(pdf, 'application/pdf', 'scan.pdf');
        expect(toBytes(document.data)).toEqual(pdf);
        expect(partsText([image, document])).toMatch(/^\[image: image\/\w+, .+\]\n\[document: scan\.pdf, application\/pdf, .+\]$/);
      }),
      { numRuns: 300 },
    );
  });

  it('a document without "%PDF-" in its first 1,024 bytes is refused, however it is padded', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 1500 }), (bytes) => {
        const text = new TextDecoder('latin1').decode(bytes.slice(0, 1024));
        fc.pre(!text.includes('%PDF-'));
        expect(() => documentPart(bytes, 'application/pdf')).toThrow(/not a PDF/);
      }),
      { numRuns: 300 },
    );
  });
});
