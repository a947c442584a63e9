import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../executor/executor.ts';
import { ToolError } from '../errors/tool-error.ts';
import { boundModelContent, DEFAULT_MAX_CONTENT_CHARS, MIN_MAX_CONTENT_CHARS } from './content-bound.ts';
import { defineTool } from './define-tool.ts';
import { imagePart, type ModelContentPart, partsText } from './model-content.ts';

/** `n` characters that say where they are: each line's first number is its offset in the text. */
function numbered(n: number): string {
  let text = '';
  while (text.length < n) text += `${String(text.length).padStart(9, '0')} row\n`;
  return text.slice(0, n);
}

const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='), (c) => c.charCodeAt(0));

describe('boundModelContent', () => {
  it('leaves a text at or under the bound as it is, and any text under Infinity', () => {
    const text = numbered(5_000);
    expect(boundModelContent(text, 5_000)).toBe(text);
    expect(boundModelContent(numbered(2_000_000), Number.POSITIVE_INFINITY)).toHaveLength(2_000_000);
  });

  it('keeps the start and the end of a longer text around a note, never more than the bound', () => {
    const text = numbered(300_000);
    for (const max of [MIN_MAX_CONTENT_CHARS, 4_321, DEFAULT_MAX_CONTENT_CHARS, 299_999]) {
      const bounded = boundModelContent(text, max) as string;
      expect(bounded.length).toBeLessThanOrEqual(max);
      // Most of what is kept: more than half the bound, whatever the note takes.
      expect(bounded.length).toBeGreaterThan(max / 2);
      const [head, note, tail] = bounded.split(/\n\n(\[… [^\]]+\])\n\n/);
      expect(text.startsWith(head as string)).toBe(true);
      expect(text.endsWith(tail as string)).toBe(true);
      const omitted = text.length - (head as string).length - (tail as string).length;
      const count = (n: number) => n.toLocaleString('en-US');
      expect(note).toBe(
        `[… ${count(omitted)} of 300,000 characters left out here: this result is longer than the ${count(max)} characters you may ` +
          'read of one tool result. If you need what is missing, call the tool again for less of it (a narrower query, one page).]',
      );
      // The start gets the larger share: a list's first rows, a log's last lines.
      expect((head as string).length).toBeGreaterThan((tail as string).length);
    }
  });

  it('never splits a surrogate pair at either cut', () => {
    for (const max of [1_000, 1_001, 1_002, 1_003]) {
      const bounded = boundModelContent('😀'.repeat(2_000), max) as string;
      expect(bounded.length).toBeLessThanOrEqual(max);
      // encodeURIComponent throws a URIError on a lone surrogate.
      expect(() => encodeURIComponent(bounded)).not.toThrow();
      expect(bounded).toMatch(/^(?:😀)+\n\n\[…/);
      expect(bounded).toMatch(/\]\n\n(?:😀)+$/);
    }
  });

  it('refuses a bound with no room for the note and some of the result', () => {
    for (const bad of [999, 0, -5, 1_500.5, Number.NaN]) {
      expect(() => boundModelContent('x'.repeat(5_000), bad)).toThrow(RangeError);
    }
  });

  it('bounds the text parts of parts together, in order, and keeps images', () => {
    const image = imagePart(PNG, 'image/png');
    const parts: ModelContentPart[] = [
      { type: 'text', text: numbered(600) },
      image,
      { type: 'text', text: numbered(5_000) },
      { type: 'text', text: numbered(700) },
      image,
    ];
    const bounded = boundModelContent(parts, 2_000) as ModelContentPart[];
    // The first text fits; the second crosses the bound and is cut; the third is left out; both images stay.
    expect(bounded.map((part) => part.type)).toEqual(['text', 'image', 'text', 'image']);
    expect(bounded[0]).toBe(parts[0]);
    const texts = bounded.filter((part) => part.type === 'text').map((part) => part.text);
    expect(texts.join('').length).toBeLessThanOrEqual(2_000);
    // The note counts the left-out part too: everything but what was kept.
    const kept = texts.join('').replace(/\n\n\[… [^\]]+\]\n\n/, '').length;
    expect(texts[1]).toContain(`[… ${(6_300 - kept).toLocaleString('en-US')} of 6,300 characters left out here`);
    // Parts whose text fits are the same array.
    expect(boundModelContent(parts, 6_300)).toBe(parts);
  });
});

describe('policy.maxContentChars in the executor', () => {
  const rows = numbered(250_000);
  const search = (policy: { maxContentChars?: number }) =>
    defineTool({ name: 'search_logs', description: 'Search the logs', input: v.object({}), policy, execute: () => ({ rows }) });

  it('bounds what the model reads of a result by default, and leaves the output whole', async () => {
    const result = await createExecutor({ registry: [search({})] }).execute({ id: 'c1', name: 'search_logs', arguments: {} });
    expect(result.isError).toBe(false);
    expect(result.content.length).toBeLessThanOrEqual(DEFAULT_MAX_CONTENT_CHARS);
    expect(result.content).toContain(`of ${JSON.stringify({ rows }).length.toLocaleString('en-US')} characters left out here`);
    expect(result.content.startsWith('{"rows":"000000000 row')).toBe(true);
    // The output (what a UI shows, what a seal covers) is the tool's own.
    expect(result.outcome.type === 'success' && result.outcome.output).toEqual({ rows });
  });

  it('takes the tool’s own bound, and Infinity for none', async () => {
    const executor = createExecutor({ registry: [search({ maxContentChars: 2_000 })] });
    expect((await executor.execute({ id: 'c1', name: 'search_logs', arguments: {} })).content.length).toBeLessThanOrEqual(2_000);
    const whole = await createExecutor({ registry: [search({ maxContentChars: Number.POSITIVE_INFINITY })] }).execute({ id: 'c1', name: 'search_logs', arguments: {} });
    expect(whole.content).toBe(JSON.stringify({ rows }));
  });

  it('bounds what toModelOutput returns, text and parts, and a browser result', async () => {
    const chart = defineTool({
      name: 'chart',
      description: 'Draws a chart',
      input: v.object({}),
      policy: { maxContentChars: 1_500, runsOn: 'anywhere' },
      execute: () => rows,
      toModelOutput: (output) => [{ type: 'text', text: output }, imagePart(PNG, 'image/png')],
    });
    const executor = createExecutor({ registry: [chart] });
    const result = await executor.execute({ id: 'c1', name: 'chart', arguments: {} });
    expect(result.parts?.map((part) => part.type)).toEqual(['text', 'image']);
    const text = result.parts?.[0]?.type === 'text' ? result.parts[0].text : '';
    expect(text.length).toBeLessThanOrEqual(1_500);
    expect(result.content).toBe(partsText(result.parts ?? []));
    // A browser's result is read through the same conversion (no signer here: results are trusted).
    const fromBrowser = await executor.acceptClientResult({ call: { id: 'c2', name: 'chart', arguments: {} }, output: rows, ticket: undefined });
    expect(fromBrowser.parts?.[0]?.type === 'text' && fromBrowser.parts[0].text.length).toBeLessThanOrEqual(1_500);
  });

  it('bounds a failure’s words as it bounds a result', async () => {
    const failing = defineTool({
      name: 'fetch_page',
      description: 'Fetches a page',
      input: v.object({}),
      policy: { maxContentChars: 1_000 },
      execute: () => {
        throw new ToolError('execution-failed', `The server answered 500: ${rows}`);
      },
    });
    const result = await createExecutor({ registry: [failing] }).execute({ id: 'c1', name: 'fetch_page', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.content.length).toBeLessThanOrEqual(1_000);
    expect(result.content.startsWith('Error (execution-failed): The server answered 500: 000000000 row')).toBe(true);
    expect(result.outcome.type === 'error' && result.outcome.error.message.length).toBeGreaterThan(250_000);
  });

  it('refuses a bound that is not a whole number of at least 1,000 characters', () => {
    for (const bad of [0, 999, 1_000.5, -1, Number.NaN, '5000', Number.NEGATIVE_INFINITY]) {
      expect(() => search({ maxContentChars: bad as number })).toThrow(
        new TypeError(`Tool "search_logs": maxContentChars must be a whole number of characters from 1000, or Infinity for no bound; got ${String(bad)}.`),
      );
    }
    expect(search({ maxContentChars: 1_000 }).policy.maxContentChars).toBe(1_000);
  });
});
