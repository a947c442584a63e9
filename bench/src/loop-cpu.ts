/**
 * The UI turn against the plain UI turn (the loop bench's pair) in process CPU time, for A/B runs on a busy machine:
 * run it in two checkouts by turns and compare the ratios. Wall-clock loop benches follow the neighbours' load; CPU
 * time much less. Both sides must be this checkout's: a second copy of `ai` and `@edgetool/*` loaded into the same
 * process ran ~15-20 % slower than the first whichever code it held, which buried a change of a few per cent.
 * `text` measures the text pair instead: `generateTextTurn` against plain `generateText` with the same tools.
 *   node src/loop-cpu.ts [text] [rounds, default 20] [turns per batch, default 3]
 */
import type { BenchCase } from './harness.ts';
import { createSides, LOOP_TOOL_STEPS } from './loop-fixtures.ts';

const args = process.argv.slice(2);
const text = args[0] === 'text';
const [rounds = '20', perBatch = '3'] = text ? args.slice(1) : args;
const sides = createSides(LOOP_TOOL_STEPS);
const cases: BenchCase[] = text
  ? [
      { name: 'plain generateText', fn: sides.plainGenerate.run, async: true },
      { name: 'edgetool generateTextTurn()', fn: sides.edgetoolText.run, async: true },
    ]
  : [
      { name: 'plain UI turn', fn: sides.plainMessages.run, async: true },
      { name: 'edgetool generate()', fn: sides.edgetool.run, async: true },
    ];
const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1e3;
};
const cpu: number[][] = cases.map(() => []);
for (const c of cases) for (const end = performance.now() + 1500; performance.now() < end; ) await c.fn();
for (let round = 0; round < Number(rounds); round++) {
  for (let k = 0; k < cases.length; k++) {
    const at = (k + round) % cases.length;
    const t0 = cpuNow();
    for (let i = 0; i < Number(perBatch); i++) await (cases[at] as BenchCase).fn();
    (cpu[at] as number[]).push((cpuNow() - t0) / Number(perBatch));
  }
}
const median = (xs: readonly number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1] as number;
const [plain, edgetool] = cpu as [number[], number[]];
const ratio = median(edgetool.map((x, i) => x / (plain[i] as number)));
const pair = text ? 'text turn' : 'UI turn';
console.log(
  `${pair}: plain ${(median(plain) / 1e6).toFixed(2)} ms, edgetool ${(median(edgetool) / 1e6).toFixed(2)} ms CPU per turn; edgetool / plain ${ratio.toFixed(3)} (median of ${rounds} paired rounds)`,
);
