import type { MessageUsage } from '@edgetool/ai';
import { describe, expect, it } from 'vitest';
import { describeEdits } from './edits.ts';
import {
  base64Bytes,
  durationTitle,
  formatBytes,
  formatDuration,
  formatOffset,
  formatUsage,
  formatValue,
  UNSHOWABLE,
  limitNote,
  outputDocuments,
  outputImages,
  progressDisplay,
  STATUS_LABELS,
  statusLabel,
  statusTone,
  traceToggleLabel,
  withoutFileData,
} from './format.ts';
import { parseHealth } from './server-info.ts';

describe('formatting', () => {
  it('durations', () => {
    expect(formatDuration(0.421)).toBe('0.42 ms');
    expect(formatDuration(12.4)).toBe('12 ms');
    expect(formatDuration(1834)).toBe('1.8 s');
    expect(formatDuration(undefined)).toBe('–');
    // At a unit's edge, the next unit: not "1.00 ms" or "1000 ms".
    expect(formatDuration(0.998)).toBe('1 ms');
    expect(formatDuration(999.6)).toBe('1.0 s');
    expect(formatDuration(999.4)).toBe('999 ms');
  });

  it('a duration timed as 0 is "< 1 ms" with a title that says why, not "0.00 ms"; real figures stay as they are', () => {
    // A server tool that only computes, timed in a Worker: its clock counts whole milliseconds (deployed, it stands
    // still between I/O), so 0 means less than the clock shows.
    expect(formatDuration(0)).toBe('< 1 ms');
    expect(durationTitle(0, 'server')).toMatch(/^Timed as 0: a Worker's clock counts whole milliseconds/);
    expect(durationTitle(0, undefined)).toBe(durationTitle(0, 'server'));
    expect(durationTitle(0, 'client')).toMatch(/^Timed as 0: this browser's clock is coarsened/);
    // A figure the clock did measure, however small, is shown as it is (or says it rounds to nothing).
    expect(formatDuration(1)).toBe('1 ms');
    expect(formatDuration(0.1)).toBe('0.10 ms');
    expect(formatDuration(0.004)).toBe('< 0.01 ms');
    expect(formatDuration(0.005)).toBe('0.01 ms');
    for (const ms of [0.004, 0.1, 1, 12, undefined]) {
      expect(durationTitle(ms, 'server')).toBeUndefined();
      expect(durationTitle(ms, 'client')).toBeUndefined();
    }
  });

  it("an answer's tokens: a label, and a title with what is known", () => {
    expect(formatUsage({ inputTokens: 1200, outputTokens: 34, totalTokens: 1234 })).toEqual({
      label: '1,234 tokens',
      title: "Tokens of this answer: 1,200 in, 34 out",
    });
    expect(formatUsage({ inputTokens: 900, outputTokens: 100, totalTokens: 1000, cachedInputTokens: 512, reasoningTokens: 40 })?.title).toBe(
      "Tokens of this answer: 900 in, 512 of them cached, 100 out, 40 of them reasoning",
    );
    expect(formatUsage({ totalTokens: 7 })).toEqual({ label: '7 tokens', title: 'Tokens of this answer' });
    expect(formatUsage({ inputTokens: 800, outputTokens: 145, totalTokens: 945 }, 'this call')).toEqual({
      label: '945 tokens',
      title: 'Tokens of this call: 800 in, 145 out',
    });
    // Saved messages are untrusted: anything but a finite total shows nothing.
    expect(formatUsage(undefined)).toBeUndefined();
    expect(formatUsage({ inputTokens: 5 })).toBeUndefined();
    expect(formatUsage({ totalTokens: Number.NaN })).toBeUndefined();
    // Metadata a server sent: a count that is not a number from 0 is left out (a null one threw while the answer rendered).
    const odd = { totalTokens: 9, inputTokens: null, outputTokens: { n: 1 }, cachedInputTokens: -3, reasoningTokens: '2' } as unknown as MessageUsage;
    expect(formatUsage(odd)).toEqual({ label: '9 tokens', title: 'Tokens of this answer' });
    expect(formatUsage({ totalTokens: -1 })).toBeUndefined();
  });

  it('the limit a turn stopped at, as a note (nothing for an answer that did not stop at one)', () => {
    expect(limitNote('steps')).toMatch(/^Stopped: .*model steps/);
    expect(limitNote('tokens')).toMatch(/^Stopped: .*tokens/);
    // An answer that shows nothing was refused before the model was asked (its prompt was over the budget): asking
    // again would be refused the same way.
    expect(limitNote('tokens', false)).toMatch(/^Not sent to the model: .*token budget.*Start a new chat/);
    expect(limitNote('steps', false)).toMatch(/^Stopped: .*model steps/);
    expect(limitNote(undefined)).toBeUndefined();
    expect(limitNote('other' as never)).toBeUndefined();
    expect(formatUsage({ totalTokens: '12' as unknown as number })).toBeUndefined();
  });

  it('values', () => {
    expect(formatValue('plain')).toBe('plain');
    expect(formatValue({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(formatValue(undefined)).toBe('');
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(formatValue(loop)).toBe('[object Object]');
    // Arguments a server sent 10,000 lists deep: JSON.parse reads them, JSON.stringify and String cannot write them.
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(formatValue(deep)).toBe(UNSHOWABLE);
    expect(formatValue({ order_id: deep })).toBe('[object Object]');
    expect(describeEdits([{ key: 'items', from: deep, to: [] }])).toBe(`items ${UNSHOWABLE} → []`);
  });

  it('status labels and tones cover every status', () => {
    expect(STATUS_LABELS['awaiting-approval']).toBe('needs approval');
    expect(statusTone('awaiting-approval')).toBe('attention');
    expect(statusTone('error')).toBe('bad');
    expect(statusTone('interrupted')).toBe('muted');
  });

  it('an approved call says "running" while its answer streams (the server runs it), "approved" once the answer is over', () => {
    expect(statusLabel('approved', { streaming: true })).toBe('running');
    expect(statusLabel('approved', { streaming: false })).toBe('approved');
    expect(statusLabel('denied', { streaming: true })).toBe('denied');
    expect(statusLabel('awaiting-approval', { streaming: false })).toBe('needs approval');
  });

  it('a decision the server refused for good says "refused", not the "approved" (or "denied") the user chose', () => {
    expect(statusLabel('approved', { streaming: false, refused: true })).toBe('refused');
    expect(statusLabel('denied', { streaming: false, refused: true })).toBe('refused');
    expect(statusLabel('approved', { streaming: false, refused: false })).toBe('approved');
    // Only a decision is refused: a call in another state keeps its own words.
    expect(statusLabel('done', { streaming: false, refused: true })).toBe('done');
  });

  it('progress: the message, else a count; a bar only with a positive total, never past it', () => {
    expect(progressDisplay({ message: 'Checked 3 of 10 open orders', completed: 3, total: 10 })).toEqual({ text: 'Checked 3 of 10 open orders', bar: { value: 3, max: 10 } });
    expect(progressDisplay({ completed: 4, total: 8 })).toEqual({ text: '4 of 8', bar: { value: 4, max: 8 } });
    expect(progressDisplay({ completed: 4 })).toEqual({ text: '4 done', bar: undefined });
    expect(progressDisplay({ message: 'Writing the report' })).toEqual({ text: 'Writing the report', bar: undefined });
    expect(progressDisplay({ total: 5 })).toEqual({ text: 'working', bar: { value: 0, max: 5 } });
    expect(progressDisplay({ completed: 12, total: 10 }).bar).toEqual({ value: 10, max: 10 });
    expect(progressDisplay({ completed: 0, total: 0 })).toEqual({ text: '0 done', bar: undefined });
  });

  it('UTC offsets', () => {
    expect(formatOffset(120)).toBe('+02:00');
    expect(formatOffset(-330)).toBe('-05:30');
    expect(formatOffset(0)).toBe('+00:00');
  });
});

describe('traceToggleLabel', () => {
  const span = (name: string, depth: number) => ({ name, kind: 'interceptor' as const, depth, start: depth, duration: 1, outcome: 'success' as const });
  const call = (toolCallId: string, more: object = {}) => ({ toolCallId, toolName: 'query_order', outcome: 'success' as const, errorCode: undefined, durationMs: 1, spans: [span('trace', 0)], ...more });
  const trace = (more: object = {}) => ({ side: 'server' as const, outcome: 'success' as const, errorCode: undefined, durationMs: 5, spans: [span('trace', 0), span('timeout', 1)], ...more });

  it('counts the spans of every trace, and an agent call’s sub-agent calls, nested and left out ones included', () => {
    expect(traceToggleLabel([trace()])).toBe('Trace · 2 spans');
    expect(traceToggleLabel([trace({ spans: [span('trace', 0)] })])).toBe('Trace · 1 span');
    expect(traceToggleLabel([trace(), trace()])).toBe('Trace · 4 spans');
    // The toggle shows a row for each of them: the label counted the agent call's own two layers only.
    expect(traceToggleLabel([trace({ calls: [call('i1')] })])).toBe('Trace · 2 spans · 1 sub-agent call');
    const nested = trace({ calls: [call('i1'), call('i2', { calls: [call('n1'), call('n2')], omittedCalls: 3 })], omittedCalls: 4 });
    expect(traceToggleLabel([nested])).toBe('Trace · 2 spans · 11 sub-agent calls');
    expect(traceToggleLabel([trace({ calls: [] })])).toBe('Trace · 2 spans');
  });
});

describe('parseHealth', () => {
  it('reads the model object, or a bare model id', () => {
    expect(parseHealth({ ok: true, model: { provider: 'edgetool.offline', modelId: 'edgetool-offline', offline: true } })).toEqual({
      ok: true,
      model: { provider: 'edgetool.offline', modelId: 'edgetool-offline', offline: true, label: 'offline model (edgetool-offline)' },
    });
    expect(parseHealth({ ok: true, model: 'edgetool-offline' }).model).toMatchObject({ offline: true });
    expect(parseHealth({ ok: true, model: { provider: 'openai.responses', modelId: 'gpt-4.1-mini', offline: false } }).model?.label).toBe('openai.responses · gpt-4.1-mini');
    expect(parseHealth('nope')).toEqual({ ok: false, model: undefined });
  });
});

describe('images in tool outputs', () => {
  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

  it('finds image parts in the output, its fields and its list items, and only raster images with base64 data', () => {
    const image = { type: 'image', data: PNG, mediaType: 'image/png' };
    expect(outputImages(image)).toEqual([{ at: 'output', src: `data:image/png;base64,${PNG}`, mediaType: 'image/png' }]);
    expect(outputImages({ counts: { a: 1 }, image }).map((i) => [i.at, i.mediaType])).toEqual([['image', 'image/png']]);
    expect(outputImages([{ type: 'text', text: 'x' }, { type: 'image', data: PNG, mimeType: 'image/webp' }]).map((i) => i.mediaType)).toEqual(['image/webp']);
    expect(outputImages({ image: { ...image, mediaType: 'image/svg+xml' } })).toEqual([]);
    expect(outputImages({ image: { ...image, data: '"><script>' } })).toEqual([]);
    expect(outputImages({ nested: { deeper: image } })).toEqual([]);
    expect(outputImages('text')).toEqual([]);
    expect(outputImages(null)).toEqual([]);
  });

  it('shows the JSON without the base64', () => {
    const output = { total: 3, image: { type: 'image', data: PNG, mediaType: 'image/png' } };
    expect(withoutFileData(output)).toEqual({ total: 3, image: { type: 'image', data: '<image/png, 68 B of base64>', mediaType: 'image/png' } });
    expect(output.image.data).toBe(PNG);
    expect(withoutFileData({ a: 1 })).toEqual({ a: 1 });
    expect(withoutFileData('text')).toBe('text');
  });
});

describe('PDFs in tool outputs', () => {
  // A PDF of 900 bytes: the header the core's check looks for, then filler.
  const pdfBytes = new TextEncoder().encode(`%PDF-1.4\n${'%'.repeat(884)}\n%%EOF\n`);
  const PDF = btoa(String.fromCharCode(...pdfBytes));
  const BIG = btoa(`%PDF-1.4\n${' '.repeat(1250)}`);
  const invoice = { type: 'document', data: BIG, mediaType: 'application/pdf', filename: 'invoice-A-1001.pdf' };

  it('finds document parts in the output, its fields and its list items, with a label that names the file and its size', () => {
    expect(pdfBytes.length).toBe(900);
    expect(outputDocuments({ total: 89, document: invoice })).toEqual([
      { at: 'document', data: BIG, mediaType: 'application/pdf', filename: 'invoice-A-1001.pdf', size: 1259, label: 'Open invoice-A-1001.pdf (1.2 KB)' },
    ]);
    expect(outputDocuments({ type: 'document', data: PDF, mediaType: 'application/pdf' })).toMatchObject([{ at: 'output', filename: undefined, size: 900, label: 'Open the PDF (900 B)' }]);
    expect(outputDocuments([{ type: 'text', text: 'x' }, invoice]).map((d) => d.at)).toEqual(['1']);
  });

  it('only PDFs that pass the core check: application/pdf, base64 with a %PDF- header, a plain file name', () => {
    expect(outputDocuments({ document: { ...invoice, mediaType: 'text/html' } })).toEqual([]);
    expect(outputDocuments({ document: { ...invoice, mediaType: 'image/png' } })).toEqual([]);
    expect(outputDocuments({ document: { ...invoice, data: btoa('<html><script>alert(1)</script>') } })).toEqual([]);
    expect(outputDocuments({ document: { ...invoice, data: `data:application/pdf;base64,${BIG}` } })).toEqual([]);
    expect(outputDocuments({ document: { ...invoice, data: '"><script>' } })).toEqual([]);
    expect(outputDocuments({ document: { ...invoice, filename: '../../etc/passwd' } })).toEqual([]);
    expect(outputDocuments({ document: { ...invoice, filename: 42 } })).toEqual([]);
    expect(outputDocuments({ document: { ...invoice, type: 'image' } })).toEqual([]);
    expect(outputDocuments({ nested: { deeper: invoice } })).toEqual([]);
    expect(outputDocuments('text')).toEqual([]);
    expect(outputDocuments(null)).toEqual([]);
  });

  it('decodes the base64 back to the bytes for a Blob', () => {
    expect(base64Bytes(PDF)).toEqual(pdfBytes);
    expect(new TextDecoder().decode(base64Bytes(BIG).subarray(0, 5))).toBe('%PDF-');
  });

  it('sizes for humans', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1.0 KB');
    expect(formatBytes(1259)).toBe('1.2 KB');
    expect(formatBytes(3.4 * 1024 * 1024)).toBe('3.4 MB');
    expect(formatBytes(1024 * 1024 - 1)).toBe('1.0 MB');
    expect(formatBytes(1023.9 * 1024)).toBe('1023.9 KB');
  });

  it('shows the JSON without the base64 of a PDF, and leaves a part that fails the check as it is', () => {
    const output = { total: 89, document: invoice };
    expect(withoutFileData(output)).toEqual({ total: 89, document: { ...invoice, data: '<application/pdf, 1.2 KB of base64>' } });
    expect(output.document.data).toBe(BIG);
    expect(withoutFileData(invoice)).toEqual({ ...invoice, data: '<application/pdf, 1.2 KB of base64>' });
    const notPdf = { type: 'document', data: btoa('hello'), mediaType: 'application/pdf' };
    expect(withoutFileData({ document: notPdf })).toEqual({ document: notPdf });
  });

  it('gives the size in the unit that fits, as the link does: a PDF of several MB is not thousands of KB', () => {
    const scan = { ...invoice, data: btoa(`%PDF-1.4\n${' '.repeat(3.4 * 1024 * 1024 - 9)}`) };
    expect(outputDocuments(scan)[0]?.label).toBe('Open invoice-A-1001.pdf (3.4 MB)');
    expect(withoutFileData(scan)).toEqual({ ...invoice, data: '<application/pdf, 3.4 MB of base64>' });
  });
});
