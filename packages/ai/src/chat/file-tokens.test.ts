import { describe, expect, it } from 'vitest';
import { base64, compressedPdf, gif, jpeg, pdf, png, webp } from '../test-support/images.ts';
import { anthropicArea, IMAGE_TOKEN_ESTIMATE, imageTokens, openAIPatches, openAITiles, PDF_PAGE_TOKEN_ESTIMATE } from './file-tokens.ts';
import { estimateInputTokens } from './prompt-estimate.ts';
import { estimatePrompt, promptFiles, readPromptFiles } from './prompt-files.ts';

// The budget's estimate of images and PDFs, on real files built in the test (test-support/images.ts: each decodes).
const none = { instructions: undefined, tools: [] };
/** What one part of a user message adds to the estimate: the message with it, less the message without it. */
const count = (part: object): number =>
  estimateInputTokens({ ...none, messages: [{ role: 'user', content: [part] } as never] }) - estimateInputTokens({ ...none, messages: [{ role: 'user', content: [] }] });
const dataUrl = (mediaType: string, bytes: Uint8Array) => new URL(`data:${mediaType};base64,${base64(bytes)}`);
const latin1 = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));
/** A file's bytes with its text (one character a byte) changed by `change`. */
const edited = (bytes: Uint8Array, change: (text: string) => string): Uint8Array => Uint8Array.from(latin1(change(Array.from(bytes, (b) => String.fromCharCode(b)).join(''))));
/** What a PDF part counts once a turn has read its files (the chat loop does before its first model call). */
const inflated = async (data: unknown): Promise<number> => {
  const files = promptFiles();
  const part = { type: 'file', mediaType: 'application/pdf', data };
  await readPromptFiles([{ role: 'user', content: [part] }] as never, files);
  return estimatePrompt({ ...none, messages: [{ role: 'user', content: [part] } as never] }, files) - estimatePrompt({ ...none, messages: [{ role: 'user', content: [] }] }, files);
};
/** `bytes` deflated (zlib), as a PDF's Flate streams are. */
const deflated = async (bytes: Uint8Array): Promise<Uint8Array> => new Uint8Array(await new Response(new Blob([bytes.slice()]).stream().pipeThrough(new CompressionStream('deflate'))).arrayBuffer());

describe("an image counts as the providers bill its pixels, read from the file's header", () => {
  it("each provider's rule gives its published examples", () => {
    // OpenAI: 1024×1024 at high detail is 4 tiles, 765 tokens; 2048×4096 is brought down to 768×1536, 6 tiles, 1,105.
    expect(openAITiles(1024, 1024)).toBe(765);
    expect(openAITiles(2048, 4096)).toBe(1_105);
    expect(openAITiles(64, 48)).toBe(255);
    // OpenAI's patches: 1024×1024 is 1,024 patches (×2.46); a photo is held to 1,536.
    expect(openAIPatches(1024, 1024)).toBe(Math.ceil(1_024 * 2.46));
    expect(openAIPatches(4000, 3000)).toBe(Math.ceil(1_536 * 2.46));
    // Anthropic: 1092×1092 is about 1,590; 200×200 is 54 by area, 64 by 28-pixel patches.
    expect(anthropicArea(1092, 1092)).toBe(1_590);
    expect(anthropicArea(200, 200)).toBe(64);
    // A 12-megapixel photo is brought down to 3.75 megapixels: 5,000, the most any image counts.
    expect(anthropicArea(4000, 3000)).toBe(5_000);
    expect(imageTokens(4000, 3000)).toBe(IMAGE_TOKEN_ESTIMATE);
  });

  it('PNG, JPEG, GIF and WebP, as bytes, base64, a data: URL or an image part, count their size', async () => {
    const small = await png(64, 48);
    expect(count({ type: 'file', mediaType: 'image/png', data: small })).toBe(imageTokens(64, 48));
    expect(imageTokens(64, 48)).toBe(255);
    // As the UI turn's messages carry a file: a data: URL.
    expect(count({ type: 'file', mediaType: 'image/png', data: { type: 'url', url: dataUrl('image/png', small) } })).toBe(255);
    // As a tool's result carries an image: base64, tagged.
    const photo = jpeg(1000, 750);
    expect(count({ type: 'file', mediaType: 'image/jpeg', data: { type: 'data', data: base64(photo) } })).toBe(imageTokens(1000, 750));
    expect(imageTokens(1000, 750)).toBe(1_890);
    expect(count({ type: 'image', image: base64(gif(120, 90)), mediaType: 'image/gif' })).toBe(imageTokens(120, 90));
    expect(count({ type: 'image', image: webp(4000, 3000) })).toBe(5_000);
    expect(count({ type: 'file', mediaType: 'image', data: webp(64, 48, true).buffer })).toBe(255);
    // A camera's JPEG: 60 KB of EXIF before the frame header, read segment by segment from the base64.
    expect(count({ type: 'file', mediaType: 'image/jpeg', data: `data:image/jpeg;base64,${base64(jpeg(800, 600, 60_000))}` })).toBe(imageTokens(800, 600));
    // The size, not the bytes: a large flat image of few bytes counts more than a small one.
    expect(webp(4000, 3000).length).toBeLessThan(small.length);
  });

  it('a URL, a file reference or a header it cannot read counts the most an image is billed', () => {
    expect(count({ type: 'file', mediaType: 'image/png', data: new URL('https://example.com/chart.png') })).toBe(IMAGE_TOKEN_ESTIMATE);
    expect(count({ type: 'image', image: 'https://example.com/chart.png' })).toBe(IMAGE_TOKEN_ESTIMATE);
    expect(count({ type: 'file', mediaType: 'image/png', data: { type: 'reference', reference: { openai: 'file-1' } } })).toBe(IMAGE_TOKEN_ESTIMATE);
    expect(count({ type: 'file', mediaType: 'image/heic', data: new Uint8Array(5_000).fill(7) })).toBe(IMAGE_TOKEN_ESTIMATE);
    expect(count({ type: 'file', mediaType: 'image/png', data: 'not base64 at all!' })).toBe(IMAGE_TOKEN_ESTIMATE);
    // A truncated header is not read past its end.
    expect(count({ type: 'file', mediaType: 'image/jpeg', data: jpeg(800, 600).subarray(0, 40) })).toBe(IMAGE_TOKEN_ESTIMATE);
  });
});

describe('hostile image headers (review33, held)', () => {
  it('a declared size of any magnitude counts at most the most an image is billed; a segment loop or a lying length ends', async () => {
    // 4,294,967,295² in a PNG, 65,535² in a GIF, 1 × 65,535 in a JPEG's frame header: each provider's resize bounds them.
    const huge = (await png(64, 48)).slice();
    new DataView(huge.buffer).setUint32(16, 0xffffffff);
    new DataView(huge.buffer).setUint32(20, 0xffffffff);
    const wide = gif(64, 48).slice();
    wide.set([0xff, 0xff, 0xff, 0xff], 6);
    const tall = jpeg(64, 48).slice();
    const frame = tall.findIndex((byte, i) => byte === 0xff && tall[i + 1] === 0xc0);
    tall.set([0xff, 0xff, 0, 1], frame + 5);
    for (const image of [huge, wide]) expect(count({ type: 'image', image })).toBeGreaterThan(4_900);
    for (const image of [huge, wide]) expect(count({ type: 'image', image })).toBeLessThanOrEqual(IMAGE_TOKEN_ESTIMATE);
    expect(count({ type: 'image', image: tall })).toBe(imageTokens(1, 65_535));
    // 1 MB of empty segments, of fill bytes, and a segment whose length runs past the end: none reaches a frame.
    const loop = new Uint8Array(1 << 20);
    loop.set([0xff, 0xd8]);
    for (let i = 2; i + 4 <= loop.length; i += 4) loop.set([0xff, 0xe1, 0, 2], i);
    const fill = new Uint8Array(1 << 20).fill(0xff);
    fill[1] = 0xd8;
    const past = Uint8Array.from([0xff, 0xd8, 0xff, 0xe1, 0xff, 0xff, ...jpeg(800, 600).subarray(2)]);
    for (const image of [loop, fill, past, base64(loop)]) expect(count({ type: 'image', image })).toBe(IMAGE_TOKEN_ESTIMATE);
  });
});

describe('a PDF counts by its pages', () => {
  it('pages counted from its page objects, whatever its bytes', async () => {
    const page = PDF_PAGE_TOKEN_ESTIMATE;
    expect(page).toBe(8_000);
    // A text PDF is small: its bytes / 4 (300 tokens for 10 pages) was far under what the pages cost.
    const text = pdf(10);
    expect(text.length / 4).toBeLessThan(page);
    expect(count({ type: 'file', mediaType: 'application/pdf', data: text })).toBe(10 * page);
    expect(count({ type: 'file', mediaType: 'application/pdf', data: { type: 'data', data: base64(pdf(3)) } })).toBe(3 * page);
    expect(count({ type: 'file', mediaType: 'application/pdf', data: { type: 'url', url: dataUrl('application/pdf', pdf(40)) } })).toBe(40 * page);
    // A scanned PDF is large: 3 MB of page images before its 2 page objects, which the search finds past its first MB.
    const scanned = pdf(2, 3_000_000);
    expect(count({ type: 'file', mediaType: 'application/pdf', data: scanned })).toBe(2 * page);
    expect(count({ type: 'file', mediaType: 'application/pdf', data: base64(scanned) })).toBe(2 * page);
    // A PDF named by its bytes only (no media type) is read as one.
    expect(count({ type: 'file', mediaType: 'application/octet-stream', data: pdf(2) })).toBe(2 * page);
  });

  it('pages in compressed object streams: a linearized file tells their number, else its bytes / 4 and one page at least', async () => {
    expect(count({ type: 'file', mediaType: 'application/pdf', data: await compressedPdf(12, true) })).toBe(12 * PDF_PAGE_TOKEN_ESTIMATE);
    expect(count({ type: 'file', mediaType: 'application/pdf', data: await compressedPdf(12) })).toBe(PDF_PAGE_TOKEN_ESTIMATE);
    const large = new Uint8Array(100_000).fill(32);
    large.set(Array.from('%PDF-1.7', (c) => c.charCodeAt(0)));
    expect(count({ type: 'file', mediaType: 'application/pdf', data: large })).toBe(25_000);
    // One fetched by URL: its pages are unknown, one is counted.
    expect(count({ type: 'file', mediaType: 'application/pdf', data: new URL('https://example.com/a.pdf') })).toBe(PDF_PAGE_TOKEN_ESTIMATE);
  });

  it('pages in compressed object streams count once the turn inflates them, as bytes, base64 or wrapped (budget34)', async () => {
    const page = PDF_PAGE_TOKEN_ESTIMATE;
    const compressed = await compressedPdf(12);
    expect(await inflated(compressed)).toBe(12 * page);
    expect(await inflated(base64(compressed).replace(/.{76}/g, '$&\r\n'))).toBe(12 * page);
    expect(await inflated({ type: 'url', url: dataUrl('application/pdf', compressed) })).toBe(12 * page);
    // Its length in another object (`/Length 9 0 R`): read to its `endstream`, less the end of line before it.
    expect(await inflated(edited(compressed, (text) => text.replace(/\/Length \d+/, '/Length 9 0 R')))).toBe(12 * page);
    // The 13th page of an incremental update, and the root it rewrote, with the 12 in the stream: 13, not 25.
    const update = '15 0 obj\n<< /Type /Page /Parent 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 13 >>\nendobj\n';
    expect(await inflated(edited(compressed, (text) => text + update))).toBe(13 * page);
    // 40 pages shared out over two streams (a writer puts up to about 100 objects in one), the root in the first: 40.
    expect(await inflated(await compressedPdf(40, false, 2))).toBe(40 * page);
    // A stream that cannot be read counts each of its objects (/N: 14 here) as a page, on the safe side (review34; it
    // counted one): a filter other than Flate, predictors, a stream that does not inflate, and 40 MB of zeros, a
    // deflate bomb past 32 MiB (/N 1: its bytes / 4).
    expect(await inflated(edited(compressed, (text) => text.replace('/FlateDecode', '/LZWDecode')))).toBe(14 * page);
    expect(await inflated(edited(compressed, (text) => text.replace('/Filter', '/DecodeParms << /Predictor 12 >> /Filter')))).toBe(14 * page);
    expect(await inflated(edited(compressed, (text) => text.replace('stream\n', 'stream\n\u00ff\u00ff\u00ff')))).toBe(14 * page);
    const zeros = await deflated(new Uint8Array(40 << 20));
    const bomb = Uint8Array.from([...latin1('%PDF-1.5\n1 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length '), ...latin1(`${zeros.length} >>\nstream\n`), ...zeros, ...latin1('\nendstream\nendobj\n')]);
    expect(await inflated(bomb)).toBe(Math.max(page, Math.ceil(bomb.length / 4)));
  });

  it('a hostile PDF never counts fewer pages than its readable streams hold, and reads a bounded amount (review34)', async () => {
    const page = PDF_PAGE_TOKEN_ESTIMATE;
    const compressed = await compressedPdf(12);
    const body = Array.from(compressed.subarray(9), (b) => String.fromCharCode(b)).join('');
    /** The 12-page file with `objects` written before its own (after its `%PDF-1.5` line). */
    const ahead = (objects: string | Uint8Array): Uint8Array =>
      Uint8Array.from([...latin1('%PDF-1.5\n'), ...(typeof objects === 'string' ? latin1(objects) : objects), ...latin1(body)]);
    // A decoy stream the inflater refuses (LZW; a stream that does not inflate; one cut short by its /Length) before
    // the real one: 12 pages and the decoy's one object. It counted 1 page (any stream unread dropped them all).
    const decoy = (dictionary: string, data: string) => `90 0 obj\n<< /Type /ObjStm /N 1 /First 4 ${dictionary} >>\nstream\n${data}\nendstream\nendobj\n`;
    expect(await inflated(ahead(decoy('/Filter /LZWDecode /Length 4', 'abcd')))).toBe(13 * page);
    expect(await inflated(ahead(decoy('/Filter /FlateDecode /Length 4', '\u00ff\u00ff\u00ff\u00ff')))).toBe(13 * page);
    const real = await deflated(Uint8Array.from(latin1('3 0 << /Type /Page >>\n')));
    const cut = Array.from(real.subarray(0, real.length - 4), (b) => String.fromCharCode(b)).join('');
    expect(await inflated(ahead(decoy(`/Filter /FlateDecode /Length ${cut.length}`, cut)))).toBe(13 * page);
    // A deflate bomb first spends the budget: the real stream after it is not read and counts its 14 objects.
    const zeros = await deflated(new Uint8Array(40 << 20));
    const bomb = Uint8Array.from([...latin1('90 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length '), ...latin1(`${zeros.length} >>\nstream\n`), ...zeros, ...latin1('\nendstream\nendobj\n')]);
    expect(await inflated(ahead(bomb))).toBeGreaterThanOrEqual(12 * page);
    // 5,000 decoys: the first 4,096 are tried, each after them counts a page, the real one among them.
    const many = Array.from({ length: 5_000 }, (_, i) => `${100 + i} 0 obj << /Type /ObjStm >> endobj\n`).join('');
    expect(await inflated(ahead(many))).toBeGreaterThanOrEqual(5_000 * page);
    // 4,000 streams of a length read to an `endstream` at the end of 8 MB, as a base64 data URL (11 MB): each would read
    // the file again (32 GB); what is searched is taken off the budget, and each left counts its object.
    const lying = Array.from({ length: 4_000 }, (_, i) => `${100 + i} 0 obj\n<< /Type /ObjStm /N 1 /Filter /FlateDecode /Length 9 0 R >>\nstream\n`).join('');
    const padded = ahead(`${lying}${'\u00ff'.repeat(8 << 20)}\nendstream\nendobj\n`);
    const url = `data:application/pdf;base64,${base64(padded)}`;
    expect(url.length).toBeGreaterThan(11_000_000);
    expect(await inflated(url)).toBeGreaterThanOrEqual(4_000 * page);
    // An honest file of 100 streams whose lengths are other objects' takes what it searched, not a slice a stream: 40.
    const indirect = edited(await compressedPdf(40, false, 100), (text) => text.replace(/\/Length \d+/g, '/Length 9 0 R'));
    expect(await inflated(indirect)).toBe(40 * page);
  });

  it('a page tree node counts its pages where the page objects do not show them all; an outline\'s /Count counts nothing', async () => {
    const page = PDF_PAGE_TOKEN_ESTIMATE;
    // 12 pages in a compressed object stream, then an incremental update that adds a 13th: that page object and the new
    // page tree root are written out. It counted the one page object it saw.
    const update = '15 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n'
      + `2 0 obj\n<< /Kids [${Array.from({ length: 13 }, (_, i) => `${i + 3} 0 R`).join(' ')}] /Count 13 /Type /Pages >>\nendobj\n`;
    const compressed = await compressedPdf(12);
    const added = new Uint8Array(compressed.length + update.length);
    added.set(compressed);
    added.set(Array.from(update, (c) => c.charCodeAt(0)), compressed.length);
    expect(count({ type: 'file', mediaType: 'application/pdf', data: added })).toBe(13 * page);
    // A 3-page PDF whose outline has 40 open entries: 3 pages, not 40.
    const outlined = new TextDecoder('latin1').decode(pdf(3)).replace('%PDF-1.4\n', '%PDF-1.4\n99 0 obj\n<< /Type /Outlines /First 98 0 R /Count 40 >>\nendobj\n');
    expect(count({ type: 'file', mediaType: 'application/pdf', data: Uint8Array.from(outlined, (c) => c.charCodeAt(0)) })).toBe(3 * page);
    // A stream's stray << and >> end with their object: the page tree after it still counts.
    const stray = `%PDF-1.4\n1 0 obj\n<< /Length 200 >>\nstream\n${'<<'.repeat(100)}\nendstream\nendobj\n2 0 obj\n<< /Type /Page >>\nendobj\n`
      + '3 0 obj\n<< /Type /Pages /Count 7 /Kids [2 0 R] >>\nendobj\n';
    expect(count({ type: 'file', mediaType: 'application/pdf', data: Uint8Array.from(stray, (c) => c.charCodeAt(0)) })).toBe(7 * page);
  });

  it("base64 is read as the AI SDK decodes it: white space skipped, a data: URL's text after the comma with or without ;base64", () => {
    // 20,000 pages, 2 MB: page objects past the first MB, where base64 wrapped at 76 columns put the groups out of step.
    const book = base64(pdf(20_000));
    const pages = (data: unknown) => count({ type: 'file', mediaType: 'application/pdf', data }) / PDF_PAGE_TOKEN_ESTIMATE;
    expect(pages(book)).toBe(20_000);
    expect(pages(book.replace(/.{76}/g, '$&\r\n'))).toBe(20_000);
    expect(pages(book.replace(/.{64}/g, '$& '))).toBe(20_000);
    expect(pages(`data:application/pdf;name=book.pdf;base64,${book}`)).toBe(20_000);
    // Without ;base64 the AI SDK still decodes it (splitDataUrl) and sends the whole book; it counted one page.
    expect(pages(`data:application/pdf,${book}`)).toBe(20_000);
    expect(pages({ type: 'url', url: new URL(`data:application/pdf,${base64(pdf(3))}`) })).toBe(3);
    // Characters base64 has not (the AI SDK's atob refuses them: nothing is sent) count, and nothing throws.
    expect(pages(`${base64(pdf(5))}*!`)).toBeGreaterThanOrEqual(1);
    expect(pages('data:application/pdf,%25PDF-1.4%0A')).toBeGreaterThanOrEqual(1);
  });

  it('another file counts its bytes / 4, as before', () => {
    // "role", "user" and "content" (15 bytes), then "type", "file", "mediaType", "text/csv" and "data" (29) and the data.
    expect(count({ type: 'file', mediaType: 'text/csv', data: new Uint8Array(40_000) })).toBe(Math.ceil((15 + 29 + 40_000) / 4) - Math.ceil(15 / 4));
    // A turn finds out once that it is no PDF (its base64 decoded to look): at its later calls it only counts the bytes.
    const files = promptFiles();
    const csv = { type: 'file', mediaType: 'text/csv', data: base64(new Uint8Array(3_000).fill(65)) };
    const prompt = { ...none, messages: [{ role: 'user', content: [csv] } as never] };
    expect(estimatePrompt(prompt, files)).toBe(estimateInputTokens(prompt));
    expect(files.plain.has(csv)).toBe(true);
    expect(estimatePrompt(prompt, files)).toBe(estimateInputTokens(prompt));
  });
});
