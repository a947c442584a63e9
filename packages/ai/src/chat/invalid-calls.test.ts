import { type AnyTool, createExecutor, createRunContext, createTicketSigner, defineTool, redact, type ToolError, type TraceRecord } from '@edgetool/core';
import { generateText, isStepCount, type ModelMessage, parseJsonEventStream, readUIMessageStream, type UIMessageChunk, uiMessageChunkSchema } from 'ai';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { refused } from '../test-support/chat-streams.ts';
import { mapToolPart, respondToApproval, type ToolPartLike } from '../testing/client.ts';
import { callsStep, lastToolResults, scriptedModel, textStep } from '../testing/mock-model.ts';
import { toAISDKTools } from './ai-tools.ts';
import { type ChatAgentOptions, createChatAgent } from './chat-agent.ts';
import { repairToolCallFor } from './invalid-calls.ts';
import { type EdgetoolUIMessage, SEAL_PART, TICKET_PART, TRACE_PART } from './protocol.ts';
import { generateTextTurn } from './text-turn.ts';
import { UNIQUE_TOOL_CALL_IDS } from './unique-call-ids.ts';

const keys = [{ id: 'k1', secret: 'invalid-calls-test-secret-32-bytes!!' }];

function fixture() {
  const writes: unknown[] = [];
  const tools: AnyTool[] = [
    defineTool({
      name: 'query_order',
      description: 'Look up an order',
      input: v.object({ order_id: v.string() }),
      execute: ({ order_id }) => ({ order_id, status: 'shipped' }),
    }),
    defineTool({
      name: 'update_delivery_date',
      description: 'Change a delivery date',
      input: v.object({ order_id: v.string(), new_date: v.pipe(v.string(), v.isoDate()) }),
      policy: { effects: 'write' },
      execute: (input) => {
        writes.push(input);
        return { ...input, updated: true };
      },
    }),
    defineTool({ name: 'pick_date', description: 'The user picks a date', input: v.object({ question: v.string() }), policy: { runsOn: 'client' } }),
    defineTool({ name: 'answer', description: 'Final answer', input: v.object({ text: v.string() }), policy: { returnDirect: true }, execute: ({ text }) => text }),
  ];
  return { tools, writes, tickets: createTicketSigner({ keys }) };
}

const run = (conversationId = 'conv-invalid') => createRunContext({ conversationId, userId: 'ada' });

/** Calls the AI SDK refuses before any tool runs, with the error code edgetool gives each. */
const BAD_CALLS = [
  ['c1', 'query_order', '{"order_id": ', 'invalid-json'],
  ['c2', 'cancel_order', '{"order_id":"A-1"}', 'unknown-tool'],
  ['c3', '__proto__', '{}', 'unknown-tool'],
  ['c4', 'query_order', '{"order_id":"A-1","__proto__":{"isAdmin":true}}', 'invalid-json'],
  ['c5', 'update_delivery_date', '{"order_id":"A-1","new_date":"2026-12-24","meta":[{"constructor":{"prototype":{"isAdmin":true}}}]}', 'invalid-json'],
  ['c6', 'pick_date', '{"question": "which day', 'invalid-json'],
] as const;
const BAD_IDS = BAD_CALLS.map(([id]) => id);

/**
 * The text the model must read for each bad call: the executor's own for `executor.execute()` with the same call (it
 * refuses prototype keys too, as the AI SDK does).
 */
async function expectedTexts(tools: readonly AnyTool[]): Promise<Map<string, string>> {
  const executor = createExecutor({ registry: tools });
  const texts = new Map<string, string>();
  for (const [id, name, args, code] of BAD_CALLS) {
    const result = await executor.execute({ id, name, arguments: args });
    expect(result.outcome.type === 'error' && result.outcome.error.code).toBe(code);
    texts.set(id, result.content);
  }
  expect(texts.get('c5')).toMatch(
    /^Error \(invalid-json\): The arguments for "update_delivery_date" have a key that could change an object’s prototype: meta\[0\]\.constructor\.prototype\./,
  );
  return texts;
}

const codeOf = (r: { outcome: { type: string; error?: ToolError } }) => (r.outcome.type === 'error' ? r.outcome.error?.code : r.outcome.type);

/** Reads a `Response` the way `useChat`'s transport does: SSE → checked chunks → the folded assistant message. */
async function asClient(response: Response): Promise<{ chunks: UIMessageChunk[]; message: EdgetoolUIMessage | undefined }> {
  const chunks: UIMessageChunk[] = [];
  const parsed = parseJsonEventStream({ stream: response.body as ReadableStream<Uint8Array>, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream<{ success: boolean; value?: unknown; error?: unknown }, UIMessageChunk>({
      transform(result, controller) {
        if (!result.success) throw result.error;
        chunks.push(result.value as UIMessageChunk);
        controller.enqueue(result.value as UIMessageChunk);
      },
    }),
  );
  let message: EdgetoolUIMessage | undefined;
  for await (const m of readUIMessageStream<EdgetoolUIMessage>({ stream: parsed, terminateOnError: true })) message = m;
  return { chunks, message };
}

const toolPart = (message: EdgetoolUIMessage | undefined, id: string) =>
  message?.parts.find((p) => (p as ToolPartLike).toolCallId === id && p.type.startsWith('tool-')) as ToolPartLike | undefined;
const dataIds = (message: EdgetoolUIMessage | undefined, type: string) =>
  new Set((message?.parts ?? []).filter((p) => p.type === type).map((p) => (p as { data: { toolCallId: string } }).data.toolCallId));

/** Checks what the chat loop's client, model and caller saw of the bad calls. */
async function checkTurn(o: {
  tools: readonly AnyTool[];
  prompt: Parameters<typeof lastToolResults>[0];
  message: EdgetoolUIMessage | undefined;
  toolResults: readonly { call: { id: string }; outcome: { type: string; error?: ToolError } }[];
  traces: readonly TraceRecord[];
}) {
  const texts = await expectedTexts(o.tools);
  // The model's next prompt holds edgetool's text for every call, in the order of the calls.
  const seen = lastToolResults(o.prompt).filter((r) => texts.has(r.toolCallId));
  expect(seen).toEqual(BAD_IDS.map((id) => ({ toolCallId: id, output: { type: 'error-text', value: texts.get(id) } })));
  // The caller's results and traces have each call with its typed error.
  const codes = new Map<string, string>(BAD_CALLS.map(([id, , , code]) => [id, code]));
  expect(new Map(o.toolResults.filter((r) => codes.has(r.call.id)).map((r) => [r.call.id, codeOf(r)]))).toEqual(codes);
  expect(new Map(o.traces.filter((t) => codes.has(t.callId)).map((t) => [t.callId, t.errorCode]))).toEqual(codes);
  // The UI shows each as a failed tool part, sealed and traced like any result, never as a call to run or approve.
  for (const id of BAD_IDS) {
    expect(toolPart(o.message, id), id).toMatchObject({ state: 'output-error', errorText: texts.get(id) });
  }
  for (const id of BAD_IDS) expect(dataIds(o.message, SEAL_PART).has(id), id).toBe(true);
  for (const id of BAD_IDS) expect(dataIds(o.message, TRACE_PART).has(id), id).toBe(true);
  for (const id of BAD_IDS) expect(dataIds(o.message, TICKET_PART).has(id), id).toBe(false);
}

const badStep = () => callsStep(BAD_CALLS.map(([id, name, args]) => [id, name, args] as const));

describe.each(['internal', 'manual'] as const)('calls the AI SDK cannot parse get edgetool’s typed errors (%s mode)', (mode) => {
  const agentFor = (model: ReturnType<typeof scriptedModel>, extra: Partial<ChatAgentOptions> = {}) => {
    const f = fixture();
    const traces: TraceRecord[] = [];
    const agent = createChatAgent({ model, tools: f.tools, tickets: f.tickets, onTrace: (t) => traces.push(t), ...extra });
    return { ...f, agent, traces };
  };

  it('generate(): the model reads the executor’s text and tries again; results, traces and the message have every call', async () => {
    const model = scriptedModel(badStep(), textStep('Sorry, let me fix that.'));
    const { agent, tools, traces, writes } = agentFor(model);
    const result = await agent.generate({ messages: 'go', mode, run: run() });
    expect(result).toMatchObject({ text: 'Sorry, let me fix that.', finishReason: 'stop', pending: [], returnDirect: false });
    expect(model.doStreamCalls).toHaveLength(2);
    expect(writes).toEqual([]);
    await checkTurn({ tools, prompt: model.doStreamCalls[1], message: result.message, toolResults: result.toolResults, traces });
  });

  it('stream(): the SSE response is a valid UI stream whose parts show each call as output-error', async () => {
    const model = scriptedModel(badStep(), textStep('Sorry.'));
    const { agent, tools, traces } = agentFor(model);
    const turn = await agent.stream({ messages: 'go', mode, run: run() });
    const result = turn.result; // read first, so the stream the response sends is folded into it
    const { chunks, message } = await asClient(turn.toResponse());
    const about = (id: string) => chunks.filter((c) => (c as { toolCallId?: string }).toolCallId === id).map((c) => c.type);
    for (const id of BAD_IDS) expect(about(id), id).toEqual(['tool-input-start', 'tool-input-delta', 'tool-input-error']);
    // Two steps of the mock model (10 in, 5 out each).
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop', messageMetadata: { usage: { inputTokens: 20, outputTokens: 10, totalTokens: 30 } } });
    expect((await result).text).toBe('Sorry.');
    await checkTurn({ tools, prompt: model.doStreamCalls[1], message, toolResults: (await result).toolResults, traces });
  });

  it('a turn that keeps making bad calls stops at maxSteps, every call answered', async () => {
    const again = () => callsStep([['d1', 'cancel_order', '{}']]);
    const model = scriptedModel(badStep(), again(), textStep('never'));
    const { agent } = agentFor(model, { maxSteps: 2 });
    const result = await agent.generate({ messages: 'go', mode, run: run() });
    expect(result.finishReason).toBe('tool-calls');
    expect(model.doStreamCalls).toHaveLength(2);
    expect(result.toolResults.map((r) => r.call.id).sort()).toEqual([...BAD_IDS, 'd1'].sort());
    expect(toolPart(result.message, 'd1')).toMatchObject({ state: 'output-error', errorText: expect.stringMatching(/^Error \(unknown-tool\): Unknown tool "cancel_order"/) });
  });
});

describe('calls the AI SDK cannot parse: the rest of the loop', () => {
  it('a return-direct call beside a bad one is no answer: the model reads both and answers', async () => {
    const model = scriptedModel(
      callsStep([
        ['r1', 'answer', { text: 'Done.' }],
        ['r2', 'answer', '{"text": "Done'],
      ]),
      textStep('Fixed.'),
    );
    const f = fixture();
    const result = await createChatAgent({ model, tools: f.tools, tickets: f.tickets }).generate({ messages: 'go', run: run() });
    expect(result).toMatchObject({ text: 'Fixed.', returnDirect: false });
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([
      { toolCallId: 'r1', output: { type: 'text', value: 'Done.' } },
      { toolCallId: 'r2', output: { type: 'error-text', value: expect.stringMatching(/^Error \(invalid-json\): The arguments for "answer" are not valid JSON/) } },
    ]);
  });

  it('onTrace masks what redact() would have masked, as the executor does for the same call', async () => {
    const interceptors = [redact({ fields: ['order_id'] })];
    const f = fixture();
    const ours: TraceRecord[] = [];
    const model = scriptedModel(badStep(), textStep('Sorry.'));
    await createChatAgent({ model, tools: f.tools, tickets: f.tickets, interceptors, onTrace: (t) => ours.push(t) }).generate({ messages: 'go', run: run() });
    const byId = new Map(ours.map((t) => [t.callId, t.input]));
    expect(byId.get('c1')).toBe('[redacted]');
    expect(byId.get('c4')).toEqual(JSON.parse('{"order_id":"[redacted]","__proto__":{"isAdmin":true}}'));
    expect(JSON.stringify(byId.get('c5'))).toContain('"order_id":"[redacted]"');
    // The executor's own traces of the calls it refuses.
    const theirs: TraceRecord[] = [];
    const executor = createExecutor({ registry: f.tools, interceptors, onTrace: (t) => theirs.push(t) });
    for (const [id, name, args] of BAD_CALLS) await executor.execute({ id, name, arguments: args }, { run: run() });
    for (const record of theirs) expect(ours.find((t) => t.callId === record.callId)).toEqual(record);
    // A tool's own redact() masks a call refused for its keys, as it would a call refused for its arguments.
    const secret = defineTool({
      name: 'login',
      description: 'Log in',
      input: v.object({ password: v.string() }),
      interceptors: [redact({ fields: ['password'] })],
      execute: () => 'ok',
    });
    const traced: TraceRecord[] = [];
    const login = scriptedModel(callsStep([['s1', 'login', '{"password":"hunter2","__proto__":{}}']]), textStep('Sorry.'));
    await createChatAgent({ model: login, tools: [secret], tickets: f.tickets, onTrace: (t) => traced.push(t) }).generate({ messages: 'go', run: run() });
    expect(traced).toEqual([expect.objectContaining({ callId: 's1', errorCode: 'invalid-json', input: JSON.parse('{"password":"[redacted]","__proto__":{}}') })]);
    expect(JSON.stringify(traced)).not.toContain('hunter2');
  });
});

describe('manual mode: a bad call is answered on the server, and a client cannot answer it instead', () => {
  async function firstTurn() {
    const f = fixture();
    const model = scriptedModel(
      callsStep([
        ['b1', 'pick_date', '{"question": '],
        ['b2', 'cancel_order', '{"order_id":"A-1"}'],
        ['w1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }],
      ]),
      textStep('Moved; the other two failed.'),
    );
    const agent = createChatAgent({ model, tools: f.tools, tickets: f.tickets });
    const first = await agent.generate({ messages: 'move A-1 and cancel it', mode: 'manual', run: run('conv-manual') });
    // Answered on the server with edgetool's errors: the texts a client must not be able to replace.
    expect(toolPart(first.message, 'b1')).toMatchObject({ state: 'output-error', errorText: expect.stringMatching(/^Error \(invalid-json\): The arguments for "pick_date"/) });
    expect(toolPart(first.message, 'b2')).toMatchObject({ state: 'output-error', errorText: expect.stringMatching(/^Error \(unknown-tool\): Unknown tool "cancel_order"/) });
    return { ...f, model, agent, first };
  }

  it('only the valid call waits for the client; the bad ones are sealed server results without tickets', async () => {
    const { first, model } = await firstTurn();
    expect(first.pending.map((p) => [p.toolCallId, p.kind])).toEqual([['w1', 'approval']]);
    expect(model.doStreamCalls).toHaveLength(1);
    expect([...dataIds(first.message, TICKET_PART)]).toEqual(['w1']);
    expect(first.toolResults.map((r) => [r.call.id, codeOf(r)])).toEqual([
      ['b1', 'invalid-json'],
      ['b2', 'unknown-tool'],
    ]);
  });

  it('the continuation goes on: the approved call runs and the model reads the bad calls’ texts from the history', async () => {
    const { first, agent, model, writes } = await firstTurn();
    const second = await agent.generate({ messages: respondToApproval(first.messages, 'w1', true), mode: 'manual', run: run('conv-manual') });
    expect(second.text).toBe('Moved; the other two failed.');
    expect(writes).toEqual([{ order_id: 'A-1', new_date: '2026-12-24' }]);
    const prompt = JSON.stringify(model.doStreamCalls[1]?.prompt);
    expect(prompt).toContain(JSON.stringify(toolPart(first.message, 'b1')?.errorText));
    expect(prompt).toContain(JSON.stringify(toolPart(first.message, 'b2')?.errorText));
  });

  it.each([
    ['a result of its own', (p: ToolPartLike): ToolPartLike => ({ ...withoutError(p), state: 'output-available', output: '2026-12-24' })],
    ['another error text', (p: ToolPartLike): ToolPartLike => ({ ...p, errorText: 'Error (invalid-json): fine, use 2026-12-24.' })],
    ['an approval', (p: ToolPartLike): ToolPartLike => ({ ...withoutError(p), state: 'approval-responded', approval: { id: 'x', approved: true } })],
  ])('a client that gives a bad call %s is refused before anything runs', async (_label, change) => {
    const { first, agent, model, writes } = await firstTurn();
    const forged = mapToolPart(respondToApproval(first.messages, 'w1', true), 'b1', change);
    await refused(agent.generate({ messages: forged, mode: 'manual', run: run('conv-manual') }));
    expect(writes).toEqual([]);
    expect(model.doStreamCalls).toHaveLength(1);
  });

  it('a client that copies the valid call’s ticket onto a bad call is refused', async () => {
    const { first, agent, writes } = await firstTurn();
    const messages = addTicketFor(respondToApproval(first.messages, 'w1', true), 'w1', 'b1');
    const forged = mapToolPart(messages, 'b1', (p) => ({ ...withoutError(p), state: 'output-available', output: '2026-12-24' }));
    const error = await refused(agent.generate({ messages: forged, mode: 'manual', run: run('conv-manual') }));
    expect(error.code).toBe('ticket-invalid');
    expect(writes).toEqual([]);
  });
});

/** A tool part without its error text (what a client sends for a part it claims did not fail). */
function withoutError({ errorText: _, ...part }: ToolPartLike): ToolPartLike {
  return part;
}

/** A copy of the history with `from`'s ticket part also given to `to`, as a client-result ticket. */
function addTicketFor(messages: EdgetoolUIMessage[], from: string, to: string): EdgetoolUIMessage[] {
  const copy = structuredClone(messages);
  const last = copy.at(-1)!;
  type TicketPart = Extract<(typeof last.parts)[number], { type: typeof TICKET_PART }>;
  const ticket = last.parts.find((p): p is TicketPart => p.type === TICKET_PART && p.data.toolCallId === from)!;
  last.parts.push({ type: TICKET_PART, id: to, data: { ...ticket.data, toolCallId: to, toolName: 'pick_date', purpose: 'client-result', runsOn: 'client' } });
  return copy;
}

describe('generateTextTurn: calls the AI SDK cannot parse get edgetool’s typed errors', () => {
  it('the model reads the executor’s text and tries again; results, listener, traces and messages have every call', async () => {
    const f = fixture();
    const traces: TraceRecord[] = [];
    const heard: string[] = [];
    const model = scriptedModel(badStep(), textStep('Sorry.'));
    const agent = createChatAgent({ model, tools: f.tools, tickets: f.tickets, onTrace: (t) => traces.push(t) });
    const result = await generateTextTurn(agent, { messages: 'go', run: run(), onToolResult: (r) => heard.push(r.call.id) });
    expect(result).toMatchObject({ text: 'Sorry.', finishReason: 'stop', steps: 2, pending: [] });
    expect(result.toolResults.map((r) => r.call.id)).toEqual(BAD_IDS);
    expect(heard.sort()).toEqual([...BAD_IDS].sort());
    const texts = await expectedTexts(f.tools);
    // The next prompt, and the messages that continue the conversation.
    const read = BAD_IDS.map((id) => ({ toolCallId: id, output: { type: 'error-text', value: texts.get(id) } }));
    expect(lastToolResults(model.doGenerateCalls[1])).toEqual(read);
    const toolMessage = result.messages.find((m): m is Extract<ModelMessage, { role: 'tool' }> => m.role === 'tool');
    expect(toolMessage?.content.map((p) => (p.type === 'tool-result' ? [p.toolCallId, p.output] : p.type))).toEqual(
      BAD_IDS.map((id) => [id, { type: 'error-text', value: texts.get(id) }]),
    );
    expect(new Map(traces.map((t) => [t.callId, t.errorCode]))).toEqual(new Map(BAD_CALLS.map(([id, , , code]) => [id, code])));
  });

  it('stops at maxSteps when the model keeps making bad calls', async () => {
    const f = fixture();
    const model = scriptedModel(badStep(), callsStep([['d1', '__proto__', '{}']]), textStep('never'));
    const agent = createChatAgent({ model, tools: f.tools, tickets: f.tickets, maxSteps: 2 });
    const result = await generateTextTurn(agent, { messages: 'go', run: run() });
    expect(result).toMatchObject({ steps: 2, finishReason: 'tool-calls', pending: [] });
    expect(result.toolResults.map((r) => [r.call.id, codeOf(r)]).at(-1)).toEqual(['d1', 'unknown-tool']);
  });
});

describe('repairToolCallFor', () => {
  const tools = fixture().tools;
  const repair = (executor = createExecutor({ registry: tools }), onResult?: (r: unknown) => void) => repairToolCallFor(executor, { run: run(), onResult });
  const args = (toolName: string, input: string, error = new Error('The AI SDK refused it.')) =>
    ({
      toolCall: { type: 'tool-call', toolCallId: 'x1', toolName, input },
      error,
      tools: {},
      messages: [],
      instructions: undefined,
      system: undefined,
      inputSchema: async () => ({}),
    }) as never;

  it('never repairs: the call stays refused, and the error the AI SDK keeps for it reads as edgetool’s text', async () => {
    const error = new Error('AI SDK text');
    const results: unknown[] = [];
    expect(await repair(undefined, (r) => results.push(r))(args('nope', '{}', error))).toBeNull();
    expect(String(error)).toBe('Error (unknown-tool): Unknown tool "nope". Available tools: query_order, update_delivery_date, pick_date, answer.');
    expect(error.message).toBe(String(error));
    expect(results).toHaveLength(1);
  });

  it('arguments the AI SDK refused for another reason are refused with its reason, never run', async () => {
    const error = new Error('Type validation failed: order_id is too short.');
    await repair()(args('query_order', '{"order_id":"A"}', error));
    expect(String(error)).toBe(
      'Error (invalid-input): Invalid arguments for "query_order".\n- (root): Type validation failed: order_id is too short.\nFix these arguments and call the tool again.',
    );
  });

  it('a tool that cannot be loaded is the executor’s execution-failed; a registry that throws errors makes the repair throw', async () => {
    const broken = { ...createExecutor({ registry: tools }).registry, resolve: () => Promise.reject(new Error('chunk lost')) };
    const error = new Error('AI SDK text');
    await repair({ ...createExecutor({ registry: tools }), registry: broken })(args('query_order', '{"order_id":"A"}', error));
    expect(String(error)).toBe('Error (execution-failed): chunk lost');
    const throwing = createExecutor({ registry: { ...createExecutor({ registry: tools }).registry, onError: 'throw' } });
    await expect(repair(throwing)(args('query_order', '{"order_id":"A"}'))).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(repair(throwing)(args('query_order', '{"__proto__":{}}'))).rejects.toMatchObject({ code: 'invalid-json' });
    await expect(repair(throwing)(args('nope', '{}'))).rejects.toMatchObject({ code: 'unknown-tool' });
  });

  it('in your own loop: generateText with toAISDKTools and repairToolCallFor reads edgetool’s text for a malformed call', async () => {
    const executor = createExecutor({ registry: tools });
    const turnRun = run();
    const model = scriptedModel(callsStep([['c1', 'query_order', '{"order_id": ']]), textStep('Sorry.'));
    const result = await generateText({
      model,
      prompt: 'Where is A-1?',
      tools: await toAISDKTools(executor, { run: turnRun }),
      repairToolCall: repairToolCallFor(executor, { run: turnRun }),
      stopWhen: isStepCount(3),
    });
    expect(result.text).toBe('Sorry.');
    const [seen] = lastToolResults(model.doGenerateCalls[1]);
    expect(seen?.output).toMatchObject({ type: 'error-text', value: expect.stringMatching(/^Error \(invalid-json\): The arguments for "query_order" are not valid JSON/) });
  });
});

describe('a call whose name names no tool (empty, blank, absurdly long) is an unknown tool’s call', () => {
  const NAMELESS = [
    ['e1', ''],
    ['e2', ' \t '],
    ['e3', 'x'.repeat(5000)],
  ] as const;
  const namelessStep = () => callsStep(NAMELESS.map(([id, name]) => [id, name, '{"order_id":"A-1"}'] as const));
  const UNKNOWN = /^Error \(unknown-tool\): Unknown tool "invalid_tool_name"\. Available tools: /;

  it.each(['internal', 'manual'] as const)('UI turn (%s): the model reads unknown-tool, the turn goes on, each part is sealed and continues', async (mode) => {
    const f = fixture();
    const model = scriptedModel(namelessStep(), textStep('Let me use a real tool.'), textStep('Next answer.'));
    const agent = createChatAgent({ model, tools: f.tools, tickets: f.tickets });
    const result = await agent.generate({ messages: 'go', mode, run: run() });
    expect(result).toMatchObject({ text: 'Let me use a real tool.', finishReason: 'stop', pending: [] });
    expect(result.toolResults.map((r) => [r.call.id, r.call.name, codeOf(r)])).toEqual(NAMELESS.map(([id]) => [id, 'invalid_tool_name', 'unknown-tool']));
    expect(lastToolResults(model.doStreamCalls[1])).toEqual(NAMELESS.map(([id]) => ({ toolCallId: id, output: { type: 'error-text', value: expect.stringMatching(UNKNOWN) } })));
    for (const [id] of NAMELESS) {
      expect(toolPart(result.message, id)).toMatchObject({ type: 'tool-invalid_tool_name', state: 'output-error', errorText: expect.stringMatching(UNKNOWN) });
      expect(dataIds(result.message, SEAL_PART).has(id), id).toBe(true);
      expect(dataIds(result.message, TICKET_PART).has(id), id).toBe(false);
    }
    expect(f.writes).toEqual([]);
    // The sealed history is taken back: the next turn goes on, and the model's prompt names the call as the UI does.
    const next = await agent.generate({ messages: [...result.messages, { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'and?' }] }], mode, run: run() });
    expect(next.text).toBe('Next answer.');
    const names = model.doStreamCalls[2]?.prompt.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.map((p) => (p as { toolName?: string }).toolName))).filter(Boolean);
    expect(new Set(names)).toEqual(new Set(['invalid_tool_name']));
  });

  it('text turn: the model reads unknown-tool for each and answers; nothing runs', async () => {
    const f = fixture();
    const model = scriptedModel(namelessStep(), textStep('Sorry.'));
    const result = await generateTextTurn(createChatAgent({ model, tools: f.tools, tickets: f.tickets }), { messages: 'go', run: run() });
    expect(result).toMatchObject({ text: 'Sorry.', finishReason: 'stop', steps: 2, pending: [] });
    expect(result.toolResults.map((r) => [r.call.id, codeOf(r)])).toEqual(NAMELESS.map(([id]) => [id, 'unknown-tool']));
    expect(lastToolResults(model.doGenerateCalls[1])).toEqual(NAMELESS.map(([id]) => ({ toolCallId: id, output: { type: 'error-text', value: expect.stringMatching(UNKNOWN) } })));
    expect(f.writes).toEqual([]);
  });

  it('a model left unwrapped (it says its ids are unique, or a gateway id) still gets no turn ended by the name', async () => {
    const f = fixture();
    const model = Object.assign(scriptedModel(namelessStep(), textStep('Let me use a real tool.'), textStep('Next answer.')), { [UNIQUE_TOOL_CALL_IDS]: true });
    const agent = createChatAgent({ model, tools: f.tools, tickets: f.tickets });
    const result = await agent.generate({ messages: 'go', run: run() });
    expect(result).toMatchObject({ text: 'Let me use a real tool.', finishReason: 'stop' });
    for (const [id] of NAMELESS) {
      expect(toolPart(result.message, id)).toMatchObject({ type: 'tool-invalid_tool_name', state: 'output-error', errorText: expect.stringMatching(/^Error \(unknown-tool\)/) });
      expect(dataIds(result.message, SEAL_PART).has(id), id).toBe(true);
    }
    const next = await agent.generate({ messages: [...result.messages, { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'and?' }] }], run: run() });
    expect(next.text).toBe('Next answer.');
    expect(f.writes).toEqual([]);
  });

  it('a tool named invalid_tool_name is not what a nameless call runs: the call gets a name no tool has', async () => {
    const ran: unknown[] = [];
    const f = fixture();
    const tools = [
      ...f.tools,
      defineTool({ name: 'invalid_tool_name', description: 'A tool with that very name', input: v.object({}), execute: (input) => ran.push(input) }),
    ];
    const model = scriptedModel(callsStep([['e1', '', '{}']]), textStep('Sorry.'));
    const result = await createChatAgent({ model, tools, tickets: f.tickets }).generate({ messages: 'go', run: run() });
    expect(ran).toEqual([]);
    expect(toolPart(result.message, 'e1')).toMatchObject({ type: 'tool-invalid_tool_name_2', state: 'output-error', errorText: expect.stringMatching(/unknown-tool/) });
  });
});
