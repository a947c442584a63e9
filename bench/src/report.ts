/** What one `*.bench.ts` file hands back to the runner (plain JSON: it crosses a process boundary). */
export interface BenchReport {
  readonly id: string;
  readonly title: string;
  /** What is measured against what, in one or two sentences. */
  readonly method: string;
  readonly tables: readonly Table[];
  /** Targets are information: a miss is reported, never turned into a failing exit code. */
  readonly targets: readonly Target[];
  readonly notes: readonly string[];
}

export interface Table {
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

export interface Target {
  readonly name: string;
  readonly measured: string;
  readonly target: string;
  readonly pass: boolean;
}

/** Formats a byte count with thousands separators. */
export const bytes = (n: number): string => n.toLocaleString('en-US');

/** Formats nanoseconds: one decimal below 100, none above. */
export const ns = (n: number): string => (Math.abs(n) < 100 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US'));

/** Formats a ratio as `1.23×`. */
export const ratio = (n: number): string => `${n.toFixed(2)}×`;

const isNumeric = (cell: string) => /^(—|[-+]?[\d,.]+( ?[×%]| B| ns)?)$/.test(cell);

/** A fixed-width text table for the terminal (numbers right-aligned). */
export function textTable(table: Table): string {
  const widths = table.columns.map((c, i) => Math.max(c.length, ...table.rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i > 0 && isNumeric(cell) ? cell.padStart(widths[i] as number) : cell.padEnd(widths[i] as number))).join('  ');
  return [line(table.columns), widths.map((w) => '─'.repeat(w)).join('  '), ...table.rows.map(line)].join('\n');
}

/** A GitHub-flavoured markdown table (numeric columns right-aligned). */
export function markdownTable(table: Table): string {
  const numeric = table.columns.map((_, i) => i > 0 && table.rows.every((r) => isNumeric(r[i] ?? '')));
  const row = (cells: readonly string[]) => `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;
  return [row(table.columns), `|${numeric.map((n) => (n ? ' ---: ' : ' --- ')).join('|')}|`, ...table.rows.map(row)].join('\n');
}
