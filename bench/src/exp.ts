import { isStepCount, streamText, toUIMessageChunk, toUIMessageStream, type UIMessageChunk, generateId } from 'ai';
import { measure } from './harness.ts';
import { forget, plainTools, scriptedModel } from './loop-fixtures.ts';
const steps = 20;
async function drain(s: ReadableStream<unknown>) { const r = s.getReader(); let n = 0; while (!(await r.read()).done) n++; return n; }
function single(source: ReadableStream<any>): ReadableStream<UIMessageChunk> {
  const reader = source.getReader();
  const id = generateId();
  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) { controller.close(); return; }
        const chunk = toUIMessageChunk(value, { tools: plainTools, sendFinish: true, responseMessageId: id } as never);
        if (chunk) { controller.enqueue(chunk); return; }
      }
    },
    cancel(reason) { return reader.cancel(reason); },
  });
}
function plain(kind: 'sdk' | 'single') {
  const model = scriptedModel(steps);
  return async () => {
    const result = streamText({ model, messages: [{ role: 'user', content: 'Go' }], tools: plainTools, stopWhen: isStepCount(steps + 1) });
    const ui = kind === 'sdk' ? toUIMessageStream({ stream: result.stream, tools: plainTools }) : single(result.stream);
    const n = await drain(ui);
    forget(model);
    return n;
  };
}
const cases = [ { name: 'sdk toUIMessageStream', fn: plain('sdk'), async: true }, { name: 'single stage', fn: plain('single'), async: true } ];
for (const c of cases) console.log(c.name, await c.fn());
const stats = await measure(cases, { warmupMs: 1500, batchMs: 300, rounds: 10, batchesPerRound: 1, minCallsPerBatch: 1 });
for (const s of stats) console.log(s.name.padEnd(24), (s.median / 1e6).toFixed(1), 'ms');
