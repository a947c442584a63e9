/**
 * What a large browser tool output costs every later request of its conversation (session 34). The AI SDK sends the
 * whole history with each request, so an output a browser tool returned once travels again with every message after
 * it, sealed. One conversation per size: a browser tool's call handed over, its output sent back (the server accepts
 * and seals it), then a new message, as the demo's Worker takes them (`createChatAgent`, tickets, offline-sized
 * scripted model). For each size: the request body's bytes, and the server's CPU time per later request (the
 * continuation checks, the seal over the output, the conversion for the model) as a ratio to the same conversation
 * with a 100-byte output, timed in process CPU time over interleaved rounds; and the characters of the model's prompt
 * (its messages as JSON), what a real model reads, and bills, at every request.
 *
 * `node src/history-output.ts [rounds]` (in `bench/`). Diagnostic only: not part of `bench` or `RESULTS.md`.
 */
import { cpuUsage } from 'node:process';
import { createChatAgent, type EdgetoolUIMessage } from '@edgetool/ai';
import { addToolOutput, callsStep, textStep, userSays } from '@edgetool/ai/testing';
import { createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import { MockLanguageModelV4 } from 'ai/test';
import * as v from 'valibot';

const rounds = Number(process.argv[2] ?? 200);
const SIZES = [100, 10_000, 100_000, 250_000];

const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'history-output-secret-history-output!!' }] });
// A browser tool (runsOn client: the server hands it over with a ticket), as the demo's cart and page tools.
const readPage = defineTool({ name: 'read_page', description: 'Reads the page in the browser', input: v.object({}), policy: { runsOn: 'client' } });

/** The characters of the prompt of the model's last call: what a real model reads (and bills) per request. */
const prompts = new Map<number, number>();
/** An agent whose model answers every later request with a short text (what the offline model costs is not measured). */
function agentFor(steps: ReturnType<typeof textStep>[], size?: number) {
  const model = new MockLanguageModelV4({
    doStream: async (options) => {
      if (size !== undefined) prompts.set(size, JSON.stringify(options.prompt).length);
      return steps.shift() ?? textStep('Noted.');
    },
  });
  return createChatAgent({ model, tools: [readPage], tickets });
}

/** The conversation after the browser output of `bytes` was sent and sealed, and a first answer on it. */
async function conversation(bytes: number): Promise<EdgetoolUIMessage[]> {
  const agent = agentFor([callsStep([['c1', 'read_page', {}]]), textStep('The page says a lot.')]);
  const id = `conv-${bytes}`;
  const run = () => createRunContext({ conversationId: id });
  const first = await agent.generate({ messages: userSays([], 'Read this page'), run: run() });
  const text = 'x'.repeat(Math.max(0, bytes - 12));
  const answered = addToolOutput(first.messages, 'c1', { text });
  const second = await agent.generate({ messages: answered, run: run() });
  return userSays(second.messages, 'And now?');
}

const cpu = (): number => {
  const { user, system } = cpuUsage();
  return (user + system) / 1000;
};

const histories = new Map<number, EdgetoolUIMessage[]>();
for (const size of SIZES) {
  const history = await conversation(size);
  // The output was taken and sealed: the later requests carry it as the server vouched for it.
  const parts = history.flatMap((message) => message.parts) as { type: string; state?: string }[];
  if (!parts.some((part) => part.type === 'tool-read_page' && part.state === 'output-available') || !parts.some((part) => part.type === 'data-edgetool-seal')) {
    throw new Error(`the ${size} B output was not sealed`);
  }
  histories.set(size, history);
}
const agents = new Map(SIZES.map((size) => [size, agentFor([], size)]));
const times = new Map<number, number>(SIZES.map((size) => [size, 0]));
// Each later request: the body as the browser sends it, parsed and answered by the agent, its stream read to the end.
async function request(size: number): Promise<void> {
  const body = JSON.stringify({ id: `conv-${size}`, messages: histories.get(size), mode: 'internal' });
  const parsed = JSON.parse(body) as { messages: EdgetoolUIMessage[] };
  const agent = agents.get(size) ?? agentFor([]);
  const turn = await agent.stream({ messages: parsed.messages, mode: 'internal', run: createRunContext({ conversationId: `conv-${size}` }) });
  await turn.toResponse().text();
}
for (const size of SIZES) for (let i = 0; i < 20; i++) await request(size);
for (let round = 0; round < rounds; round++) {
  for (const size of SIZES) {
    const start = cpu();
    await request(size);
    times.set(size, (times.get(size) ?? 0) + cpu() - start);
  }
}
const base = (times.get(SIZES[0] ?? 0) ?? 1) / rounds;
console.log('| browser output | request body | model prompt | server CPU per later request | ratio to a 100 B output |');
console.log('| ---: | ---: | ---: | ---: | ---: |');
for (const size of SIZES) {
  const bodyBytes = new TextEncoder().encode(JSON.stringify({ id: `conv-${size}`, messages: histories.get(size), mode: 'internal' })).byteLength;
  const ms = (times.get(size) ?? 0) / rounds;
  const prompt = (prompts.get(size) ?? 0).toLocaleString('en-US');
  console.log(`| ${size.toLocaleString('en-US')} B | ${bodyBytes.toLocaleString('en-US')} B | ${prompt} chars | ${ms.toFixed(2)} ms | ${(ms / base).toFixed(2)} |`);
}
