// The bench figures the docs quote are those of the run in bench/RESULTS.md: README.md's "Size and speed", the MCP and
// OTLP guides (docs/mcp.md, docs/otel.md), and the current run named in docs/architecture.md. `npm run bench` rewrites
// RESULTS.md; a run committed without the docs (session 27's left "1.07× on the last" beside a RESULTS.md of 1.04×) fails here, and says
// which figure to change.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const RESULTS = read('bench/RESULTS.md');

/** The text of a `## heading` of RESULTS.md, up to the next one. */
function section(heading: string): string {
  const start = RESULTS.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`bench/RESULTS.md has no section "## ${heading}"`);
  const end = RESULTS.indexOf('\n## ', start + 1);
  return RESULTS.slice(start, end === -1 ? undefined : end);
}

/** The cells of the table row of `heading` whose first cell starts with `label`, the label's cell included. */
function row(heading: string, label: string): string[] {
  const line = section(heading)
    .split('\n')
    .find((candidate) => candidate.startsWith(`| ${label}`));
  if (line === undefined) throw new Error(`bench/RESULTS.md "## ${heading}" has no row "${label}"`);
  return line
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());
}

/** The first number of a cell (`+71,493`, `1.04× (4.3 vs 4.0 ms/turn)`, `36.0 %`). */
function num(cell: string | undefined): number {
  const match = /-?[\d,]+(?:\.\d+)?/.exec(cell ?? '');
  if (match === null) throw new Error(`no number in "${cell}"`);
  return Number(match[0].replace(/,/g, ''));
}

/** Bytes as the docs write them: decimal kilobytes, whole or with one decimal. */
const kb = (bytes: number, decimals = 0) => (bytes / 1000).toFixed(decimals);

/** The numbers `pattern` captures in `text` (spaces and line breaks folded), or a failure that names the phrase. */
function quoted(file: string, text: string, pattern: RegExp): string[] {
  const match = pattern.exec(text.replace(/\s+/g, ' '));
  if (match === null) throw new Error(`${file} no longer has the phrase ${pattern}: keep it and this test in step`);
  return match.slice(1);
}

const bench = {
  firstLoadEdgetool: num(row('Browser bundle', '**edgetool in all**')[1]),
  firstLoadShare: num(row('Browser bundle', '**edgetool in all**')[2]),
  firstLoad: num(row('Browser bundle', 'whole first load |')[1]),
  firstLoadGzip: num(row('Browser bundle', 'whole first load, gzip')[1]),
  reactDomShare: num(row('Browser bundle', 'react-dom |')[2]),
  zodShare: num(row('Browser bundle', 'zod |')[2]),
  tool: num(row('Core size', 'a tool: `defineTool`')[2]),
  executor: num(row('Core size', 'the executor: `createExecutor`')[2]),
  toolAndExecutor: num(row('Core size', 'tool + executor:')[2]),
  tickets: num(row('Core size', 'tickets and seals: `createTicketSigner`')[2]),
  mcpEndpoint: num(row('Core size', 'an MCP endpoint: `createMcpHandler`')[2]),
  mcpClient: num(row('Core size', 'an MCP client: `connectMcp`')[2]),
  otlpExporter: num(row('Core size', 'an OTLP exporter: `createOtlpExporter`')[2]),
  otlpJson: num(row('Core size', 'OTLP JSON of trace records:')[2]),
  wholeApi: num(row('Core size', '(a) whole API')[2]),
  typical: num(row('Core size', '(b) typical')[2]),
  workerPlainGzip: num(row('Worker bundle', 'plain AI SDK (bench/plain-worker)')[2]),
  workerAddsRaw: num(row('Worker bundle', 'difference (edgetool − plain)')[1]),
  workerAddsGzip: num(row('Worker bundle', 'difference (edgetool − plain)')[2]),
  workerMcpRaw: num(row('Worker bundle', 'the MCP endpoint:')[3]),
  workerOtlpRaw: num(row('Worker bundle', 'OTLP export of traces:')[3]),
  workerProofsGzip: num(/that is about ([\d,]+) B gzip/.exec(section('Worker bundle'))?.[1]),
  textTurn: num(row('Targets', 'chat loop, text turn:')[1]),
  uiTurn: num(row('Targets', 'chat loop, UI turn:')[1]),
  load: num(row('Targets', 'worker load, edgetool ÷ plain req/s')[1]),
  overheadNs: num(row('Executor overhead', 'executor.execute, 3 interceptors |')[3]),
  overheadRatio: num(row('Executor overhead', 'executor.execute, 3 interceptors |')[4]),
  overheadAloneNs: num(row('Executor overhead', 'executor overhead, 3 interceptors (paired) |')[1]),
  baselineNs: num(row('Executor overhead', 'baseline: parse + safeParse + call, awaited')[1]),
  resultFloorNs: num(row('Executor overhead', 'the result itself:')[1]),
  date: /\| date \| (\d{4}-\d\d-\d\d)T/.exec(RESULTS)?.[1],
};
/** A part of the Worker's added minified bytes, at the gzip difference's share (as RESULTS.md reckons the proofs). */
const workerGzipShare = (raw: number) => (raw * bench.workerAddsGzip) / bench.workerAddsRaw;

describe("README.md's size and speed figures", () => {
  const readme = read('README.md');
  const text = readme.slice(readme.indexOf('## Size and speed'), readme.indexOf('## Runtimes'));
  const figures = (pattern: RegExp) => quoted('README.md "Size and speed"', text, pattern);

  it('the chat UI: edgetool’s share of the first load, its size, and the largest packages', () => {
    expect(figures(/edgetool is (\d+) % of the demo's first load: (\d+) KB of (\d+) KB minified, (\d+) KB gzip in all/)).toEqual([
      bench.firstLoadShare.toFixed(0),
      kb(bench.firstLoadEdgetool),
      kb(bench.firstLoad),
      kb(bench.firstLoadGzip),
    ]);
    expect(figures(/React DOM is (\d+) % and the zod that `ai` brings (\d+) %/)).toEqual([bench.reactDomShare.toFixed(0), bench.zodShare.toFixed(0)]);
  });

  it('the core, import by import (gzip)', () => {
    expect(figures(/a tool, ([\d.]+) KB/)).toEqual([kb(bench.tool, 1)]);
    expect(figures(/the executor with its chain.*?, ([\d.]+) KB;/)).toEqual([kb(bench.executor, 1)]);
    expect(figures(/tickets and seals, ([\d.]+) KB/)).toEqual([kb(bench.tickets, 1)]);
    expect(figures(/the MCP client, ([\d.]+) KB, and the MCP endpoint with the executor, ([\d.]+) KB/)).toEqual([
      kb(bench.mcpClient, 1),
      kb(bench.mcpEndpoint, 1),
    ]);
    expect(figures(/OTLP export of traces, ([\d.]+) KB/)).toEqual([kb(bench.otlpExporter, 1)]);
  });

  it('the Worker: what edgetool adds (gzip), and what of it the proofs, the MCP endpoint and the OTLP export are', () => {
    expect(figures(/adds about (\d+) KB gzip to a (\d+) KB plain AI SDK Worker/)).toEqual([kb(bench.workerAddsGzip), kb(bench.workerPlainGzip)]);
    expect(figures(/About (\d+) KB of that is the tickets and seals .*?, about (\d+) KB the MCP endpoint and (\d+) KB the OTLP export/)).toEqual([
      kb(bench.workerProofsGzip),
      kb(workerGzipShare(bench.workerMcpRaw)),
      kb(workerGzipShare(bench.workerOtlpRaw)),
    ]);
  });

  it('the loop and the Worker under load: the last run’s ratio, inside the range quoted over runs', () => {
    const cases = [
      [/as fast as plain `generateText` \(([\d.]+)–([\d.]+)× over runs, ([\d.]+)× on the last/, bench.textTurn],
      [/takes ([\d.]+)–([\d.]+)× a plain UI stream \(([\d.]+)× on the last run/, bench.uiTurn],
      [/throughput \(([\d.]+)–([\d.]+)× over runs, ([\d.]+)× on the last\)/, bench.load],
    ] as const;
    for (const [pattern, last] of cases) {
      const [low, high, quotedLast] = figures(pattern).map(Number);
      expect(quotedLast, String(pattern)).toBe(last);
      expect(low, String(pattern)).toBeLessThanOrEqual(last);
      expect(high, String(pattern)).toBeGreaterThanOrEqual(last);
    }
  });

  it('the executor: its ratio to a bare call, and the last run’s overhead', () => {
    expect(figures(/costs about ([\d.]+)× a bare/)).toEqual([bench.overheadRatio.toFixed(1)]);
    const [overhead, low, high] = figures(/came to ([\d.]+) µs of overhead on the last run's machine \(([\d.]+)–([\d.]+)× over runs/);
    expect(overhead).toBe((bench.overheadNs / 1000).toFixed(2));
    expect(figures(/and to ([\d.]+) µs timed in a process of its\s+own/)).toEqual([(bench.overheadAloneNs / 1000).toFixed(2)]);
    expect(Number(low)).toBeLessThanOrEqual(bench.overheadRatio);
    expect(Number(high)).toBeGreaterThanOrEqual(bench.overheadRatio);
    expect(figures(/about ([\d.]+) µs of it the model's text and the timing/)).toEqual([(bench.resultFloorNs / 1000).toFixed(2)]);
  });
});

describe("the size figures of the subpaths' guides (docs/mcp.md, docs/otel.md)", () => {
  // The MCP and OTLP pages quote their own rows; they were left at session 23's run (16.3 KB for a client of 18.1).
  const figures = (page: string, pattern: RegExp) => quoted(page, read(page), pattern);

  it('the OTLP conversion and exporter, the MCP endpoint and the MCP client are their rows of RESULTS.md', () => {
    expect(figures('docs/otel.md', /On its own the conversion is ([\d.]+) KB gzip and the exporter with the context helpers ([\d.]+) KB/)).toEqual([
      kb(bench.otlpJson, 1),
      kb(bench.otlpExporter, 1),
    ]);
    expect(
      figures('docs/mcp.md', /the endpoint with the executor is ([\d.]+) KB gzip \(the `createMcpHandler` row of `bench\/RESULTS\.md`\), ([\d.]+) KB more than a tool and the executor/),
    ).toEqual([kb(bench.mcpEndpoint, 1), kb(bench.mcpEndpoint - bench.toolAndExecutor, 1)]);
    expect(figures('docs/mcp.md', /On its own the client is about ([\d.]+) KB gzip \(the `connectMcp` row/)).toEqual([kb(bench.mcpClient, 1)]);
  });
});

describe("docs/architecture.md's current run", () => {
  it('is the run in bench/RESULTS.md', () => {
    const pattern =
      /`bench\/RESULTS\.md` holds the current run\. Its run of session \d+ \((\d{4}-\d\d-\d\d)\): the core ([\d,]+) B gzip for `export \*` and ([\d,]+) B for the typical import, \+([\d.]+) KB gzip added to the Worker, ([\d,]+) ns of executor overhead with three pass-throughs \(([\d.]+)× the baseline, ([\d,]+) ns[^)]*\), the text turn ([\d.]+)×.*?, the UI turn ([\d.]+)× and the Worker under load ([\d.]+)×/;
    const [date, wholeApi, typical, adds, overhead, ratio, baseline, text, ui, load] = quoted('docs/architecture.md', read('docs/architecture.md'), pattern);
    expect({ date, wholeApi, typical, adds, overhead, ratio, baseline, text, ui, load }).toEqual({
      date: bench.date,
      wholeApi: bench.wholeApi.toLocaleString('en-US'),
      typical: bench.typical.toLocaleString('en-US'),
      adds: kb(bench.workerAddsGzip, 1),
      overhead: bench.overheadNs.toLocaleString('en-US'),
      ratio: bench.overheadRatio.toFixed(2),
      baseline: bench.baselineNs.toLocaleString('en-US'),
      text: bench.textTurn.toFixed(2),
      ui: bench.uiTurn.toFixed(2),
      load: bench.load.toFixed(2),
    });
  });
});
