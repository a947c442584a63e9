/**
 * The chat-loop workload shared by `loop.bench.ts` and `memory.bench.ts`: the same scripted model,
 * the same four tools written twice (edgetool `defineTool` + valibot, plain AI SDK `tool()` + zod),
 * and one function per side that runs a whole turn and drains its UI message stream.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4StreamResult } from '@ai-sdk/provider';
import { type ChatAgent, createChatAgent, generateTextTurn, sealResult } from '@edgetool/ai';
import { callsStep, textStep } from '@edgetool/ai/testing';
import { createRunContext, createTicketSigner, defineTool, type RunContext } from '@edgetool/core';
import {
  convertToModelMessages,
  generateText,
  isStepCount,
  type ModelMessage,
  streamText,
  type ToolSet,
  toUIMessageStream,
  tool,
  type UIMessage,
  type UIMessageChunk,
  zodSchema,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import * as v from 'valibot';
import { z } from 'zod';

/** The loop bench's turn: 20 steps of 4 parallel tool calls, then one answering step (21 model calls, 80 tool calls). */
export const LOOP_TOOL_STEPS = 20;
export const LOOP_PARALLEL_CALLS = 4;


/** The four calls of one step, `[toolName, input]`; ids are `s<step>_c<i>`. */
function callsOf(step: number): [string, Record<string, unknown>][] {
  return [
    ['get_weather', { city: `City ${step}`, unit: step % 2 === 0 ? 'celsius' : 'fahrenheit' }],
    ['get_time', { time_zone: 'Europe/Berlin' }],
    ['add', { a: step, b: step * 2 }],
    ['lookup_order', { order_id: `A-${1000 + step}` }],
  ];
}

/** Step `step`'s scripted model output: its four parallel calls. */
function stepCalls(step: number): LanguageModelV4StreamResult {
  return callsStep(callsOf(step).map(([toolName, input], i) => [`s${step}_c${i}`, toolName, input] as const));
}

export const ANSWER = 'All done.';

/**
 * `ai/test`'s `MockLanguageModelV4` with scripted stream steps: step k (= the number of tool messages
 * already in the prompt) calls the four tools in parallel while k < `toolSteps`, then answers with text.
 * The step comes from the prompt, so one model serves any number of turns; the mock records every
 * call in `doStreamCalls`, which {@link forget} empties after each turn (test scaffolding, not SDK state).
 */
export function scriptedModel(toolSteps: number): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async (options: LanguageModelV4CallOptions) => {
      const step = options.prompt.filter((m) => m.role === 'tool').length;
      return step < toolSteps ? stepCalls(step) : textStep(ANSWER);
    },
    // The same script for `generateText` (the plain non-streaming baseline).
    doGenerate: async (options: LanguageModelV4CallOptions) => {
      const step = options.prompt.filter((m) => m.role === 'tool').length;
      const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } };
      if (step >= toolSteps) return { content: [{ type: 'text', text: ANSWER }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      const content = callsOf(step).map(([toolName, input], i) => ({ type: 'tool-call' as const, toolCallId: `s${step}_c${i}`, toolName, input: JSON.stringify(input) }));
      return { content, finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
    },
  });
}

export function forget(model: MockLanguageModelV4): void {
  model.doStreamCalls.length = 0;
  model.doGenerateCalls.length = 0;
}

// The tools' own work: tiny and identical on both sides, so what is measured is the machinery.
const weather = (city: string, unit: string) => ({ city, unit, temperature: unit === 'celsius' ? 21 : 70, conditions: 'sunny' });
const time = (timeZone: string) => ({ time_zone: timeZone, local_time: '12:00:00', utc_offset: '+01:00' });
const add = (a: number, b: number) => ({ sum: a + b });
const order = (id: string) => ({ order_id: id, status: 'shipped', delivery_date: '2026-12-01' });

/** The four tools, edgetool style: valibot input, read policy (no approval). */
export const edgetoolTools = [
  defineTool({
    name: 'get_weather',
    description: 'Current weather in a city.',
    input: v.object({ city: v.pipe(v.string(), v.minLength(1)), unit: v.picklist(['celsius', 'fahrenheit']) }),
    policy: { effects: 'read' },
    execute: ({ city, unit }) => weather(city, unit),
  }),
  defineTool({
    name: 'get_time',
    description: 'Local time in an IANA time zone.',
    input: v.object({ time_zone: v.pipe(v.string(), v.minLength(1)) }),
    policy: { effects: 'read' },
    execute: ({ time_zone }) => time(time_zone),
  }),
  defineTool({
    name: 'add',
    description: 'Adds two numbers.',
    input: v.object({ a: v.number(), b: v.number() }),
    policy: { effects: 'read' },
    execute: ({ a, b }) => add(a, b),
  }),
  defineTool({
    name: 'lookup_order',
    description: 'Looks up an order by id.',
    input: v.object({ order_id: v.pipe(v.string(), v.regex(/^A-\d{4}$/)) }),
    policy: { effects: 'read' },
    execute: ({ order_id }) => order(order_id),
  }),
];

/**
 * The same four tools, plain AI SDK style: `tool()` with a zod input schema and `execute`. The schemas are
 * wrapped once with `zodSchema()`, so the AI SDK converts them to JSON Schema once (a raw zod schema is
 * converted on every step): the efficient way to write them, as edgetool's JSON Schema is also built once.
 */
export const plainTools = {
  get_weather: tool({
    description: 'Current weather in a city.',
    inputSchema: zodSchema(z.object({ city: z.string().min(1), unit: z.enum(['celsius', 'fahrenheit']) })),
    execute: async ({ city, unit }) => weather(city, unit),
  }),
  get_time: tool({
    description: 'Local time in an IANA time zone.',
    inputSchema: zodSchema(z.object({ time_zone: z.string().min(1) })),
    execute: async ({ time_zone }) => time(time_zone),
  }),
  add: tool({
    description: 'Adds two numbers.',
    inputSchema: zodSchema(z.object({ a: z.number(), b: z.number() })),
    execute: async ({ a, b }) => add(a, b),
  }),
  lookup_order: tool({
    description: 'Looks up an order by id.',
    inputSchema: zodSchema(z.object({ order_id: z.string().regex(/^A-\d{4}$/) })),
    execute: async ({ order_id }) => order(order_id),
  }),
} satisfies ToolSet;

const tickets = createTicketSigner({ keys: [{ id: 'bench', secret: 'bench-secret-bench-secret-bench-secret-0123456789' }] });

const userMessage = (text: string): UIMessage => ({ id: 'u1', role: 'user', parts: [{ type: 'text', text }] });

let conversation = 0;

/** What one turn produced (checked before anything is timed: every side must do the same work). */
export interface TurnOutcome {
  readonly results: number;
  readonly text: string;
}

/** One way of running a turn; `model` is its own scripted model. */
export interface Side {
  readonly run: () => Promise<TurnOutcome>;
  readonly model: MockLanguageModelV4;
}

async function drain(stream: ReadableStream<UIMessageChunk>): Promise<TurnOutcome> {
  const reader = stream.getReader();
  let results = 0;
  let text = '';
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    if (next.value.type === 'tool-output-available') results++;
    else if (next.value.type === 'text-delta') text += next.value.delta;
  }
  return { results, text };
}

/** Counts a built message's finished tool parts and its text. */
function outcomeOf(message: UIMessage | undefined): TurnOutcome {
  const parts = (message?.parts ?? []) as { type: string; state?: string; text?: string }[];
  return {
    results: parts.filter((p) => p.type.startsWith('tool-') && p.state === 'output-available').length,
    text: parts
      .filter((p) => p.type === 'text')
      .map((p) => p.text)
      .join(''),
  };
}

/**
 * The plain AI SDK turn: `streamText` with the four tools and `stopWhen: isStepCount(toolSteps + 1)`,
 * piped into `toUIMessageStream` and drained. `messages`: also get the final conversation the AI SDK's
 * way, `toUIMessageStream({ originalMessages, onEnd })` (what a chat server persists); the outcome is
 * then read from that message. `through` wraps the UI message stream (diagnostic sides).
 */
function plainSide(toolSteps: number, options: { readonly messages?: boolean; readonly through?: () => TransformStream<UIMessageChunk, UIMessageChunk> } = {}): Side {
  const model = scriptedModel(toolSteps);
  return {
    model,
    async run() {
      const original = [userMessage('Go')];
      let message: UIMessage | undefined;
      const result = streamText({
        model,
        messages: await convertToModelMessages(original, { tools: plainTools }),
        tools: plainTools,
        stopWhen: isStepCount(toolSteps + 1),
      });
      const onEnd = ({ responseMessage }: { responseMessage: UIMessage }) => {
        message = responseMessage;
      };
      const ui = toUIMessageStream({
        stream: result.stream,
        tools: plainTools,
        originalMessages: original,
        ...(options.messages ? { onEnd } : {}),
      }) as ReadableStream<UIMessageChunk>;
      const drained = await drain(options.through ? ui.pipeThrough(options.through()) : ui);
      forget(model);
      return options.messages ? outcomeOf(message) : drained;
    },
  };
}

/** The prompt of a text turn (no UI messages), the same for both text sides. */
const prompt = (): ModelMessage[] => [{ role: 'user', content: 'Go' }];

/** The plain AI SDK without a UI stream: `generateText` with the same tools, awaited to the last step. */
function plainGenerateSide(toolSteps: number): Side {
  const model = scriptedModel(toolSteps);
  return {
    model,
    async run() {
      const result = await generateText({
        model,
        messages: prompt(),
        tools: plainTools,
        stopWhen: isStepCount(toolSteps + 1),
      });
      forget(model);
      return { results: result.steps.reduce((n, step) => n + step.toolResults.length, 0), text: result.text };
    },
  };
}

/** A seal of the length `sealResult` makes here, for the stage that seals nothing (`sealing(…, false)`). */
const FIXED_SEAL = `es1.bench.${Date.now() + 60_000}.${'A'.repeat(43)}`;

/**
 * edgetool's per-result seal (`sealResult`), added to the plain stream as a data part. With `seal: false` the same stage
 * and the same data parts with a fixed seal: what the stage and its chunks cost, so the seal's own work is the difference.
 */
function sealing(conversationId: string, seal = true): TransformStream<UIMessageChunk, UIMessageChunk> {
  const inputs = new Map<string, { toolName: string; input: unknown }>();
  return new TransformStream({
    async transform(chunk, controller) {
      controller.enqueue(chunk);
      if (chunk.type === 'tool-input-available') inputs.set(chunk.toolCallId, { toolName: chunk.toolName, input: chunk.input });
      if (chunk.type !== 'tool-output-available') return;
      const call = inputs.get(chunk.toolCallId);
      if (!call) return;
      const sealed = await (seal
        ? sealResult(tickets, { toolName: call.toolName, toolCallId: chunk.toolCallId, input: call.input, result: { output: chunk.output }, conversationId }, 60_000)
        : Promise.resolve(FIXED_SEAL));
      controller.enqueue({ type: 'data-edgetool-seal', id: chunk.toolCallId, data: { toolCallId: chunk.toolCallId, toolName: call.toolName, seal: sealed } });
    },
  });
}

/** An edgetool side: its own scripted model and chat agent (`trace` as given); `turn` runs one turn with them. */
function edgetoolSide(
  toolSteps: number,
  turn: (agent: ChatAgent, run: RunContext) => Promise<{ readonly toolResults: readonly unknown[]; readonly text: string }>,
  options: { readonly trace?: boolean } = {},
): Side {
  const model = scriptedModel(toolSteps);
  const agent = createChatAgent({ model, tools: edgetoolTools, tickets, maxSteps: toolSteps + 1, ...options });
  return {
    model,
    async run() {
      const result = await turn(agent, createRunContext({ conversationId: `conv-${++conversation}` }));
      forget(model);
      return { results: result.toolResults.length, text: result.text };
    },
  };
}

/** The UI turn: `generate()` with one user UI message. */
const uiTurn = (agent: ChatAgent, run: RunContext) => agent.generate({ messages: [userMessage('Go')], run });

/** Every side of the loop bench, for a loop of `toolSteps` steps of 4 parallel calls plus one answering step. */
export function createSides(toolSteps: number) {
  const edgetool = edgetoolSide(toolSteps, uiTurn);
  // Diagnostic: the same UI turn without trace parts (no spans, no trace chunk per result).
  const edgetoolNoTrace = edgetoolSide(toolSteps, uiTurn, { trace: false });
  // The text turn for server code: `generateTextTurn(agent)` on the AI SDK's `generateText` (no UI stream, no proofs).
  const edgetoolText = edgetoolSide(toolSteps, (agent, run) => generateTextTurn(agent, { messages: prompt(), run }));
  return {
    edgetool,
    edgetoolNoTrace,
    edgetoolText,
    plain: plainSide(toolSteps),
    plainMessages: plainSide(toolSteps, { messages: true }),
    plainGenerate: plainGenerateSide(toolSteps),
    plainSeals: plainSide(toolSteps, { through: () => sealing(`conv-${++conversation}`) }),
    plainSealStage: plainSide(toolSteps, { through: () => sealing(`conv-${++conversation}`, false) }),
  } satisfies Record<string, Side>;
}
