import { createExecutor, createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { agentTool } from '../agent-tool.ts';
import { respondToApproval } from '../testing/client.ts';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { createChatAgent } from './chat-agent.ts';
import { PROGRESS_PART, type ProgressPartData, SEAL_PART } from './protocol.ts';
import { generateTextTurn } from './text-turn.ts';
import { gate, progressOf, readAll } from '../test-support/chat-streams.ts';

const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'test-secret-test-secret-test-secret-!!' }] });

/** A tool that reports a burst of progress, waits for the test, reports once more, and then (after its result) again. */
function scanFixture() {
  const first = gate();
  const late: { report?: () => void } = {};
  const scan = defineTool({
    name: 'scan_orders',
    description: 'Scans every order.',
    input: v.object({ batches: v.number() }),
    execute: async ({ batches }, ctx) => {
      for (let i = 1; i <= batches; i++) ctx.progress({ message: `Scanned batch ${i} of ${batches}`, completed: i, total: batches });
      await first.opened;
      ctx.progress({ message: 'Writing the report' });
      await new Promise((resolve) => setTimeout(resolve, 5));
      late.report = () => ctx.progress({ message: 'after the result' });
      return { batches };
    },
  });
  return { scan, first, late };
}

describe('chat loop: progress of running server calls', () => {
  it('streams the latest report of a running call as a transient part, between its input and its result', async () => {
    const { scan, first, late } = scanFixture();
    const model = scriptedModel(callsStep([['c1', 'scan_orders', { batches: 100 }]]), textStep('Scanned.'));
    const agent = createChatAgent({ model, tools: [scan], tickets });
    const turn = await agent.stream({ messages: 'Scan the orders', run: createRunContext({ conversationId: 'conv-p' }) });
    const chunks = await readAll(turn.stream, (chunk) => {
      if (chunk.type === PROGRESS_PART) first.open();
    });
    const types = chunks.map((c) => c.type);
    const progress = progressOf(chunks);
    // The burst of 100 reports went out as its latest report only; the report after the gate went out too.
    expect(progress.map((p) => p.data)).toEqual([
      { toolCallId: 'c1', toolName: 'scan_orders', message: 'Scanned batch 100 of 100', completed: 100, total: 100 },
      { toolCallId: 'c1', toolName: 'scan_orders', message: 'Writing the report' },
    ]);
    expect(progress.every((p) => p.transient === true && p.id === 'c1')).toBe(true);
    const input = types.indexOf('tool-input-available');
    const output = types.indexOf('tool-output-available');
    expect(types.indexOf(PROGRESS_PART)).toBeGreaterThan(input);
    expect(types.lastIndexOf(PROGRESS_PART)).toBeLessThan(output);
    expect(types.indexOf(SEAL_PART)).toBeLessThan(output);

    // Progress is not part of the conversation: the final message has the call, its seal, and no progress.
    const result = await turn.result;
    expect(result.text).toBe('Scanned.');
    expect(result.message.parts.some((p) => p.type === PROGRESS_PART)).toBe(false);
    // A report after the call ended reaches nobody (the tool's context no longer listens).
    expect(() => late.report?.()).not.toThrow();
  });

  it('a call the turn continues (approved in the previous one, as in manual mode) streams its progress too', async () => {
    const { scan, first } = scanFixture();
    const model = scriptedModel(callsStep([['c1', 'scan_orders', { batches: 3 }]]), textStep('Scanned.'));
    const agent = createChatAgent({ model, tools: [scan], tickets });
    const run = () => createRunContext({ conversationId: 'conv-m' });
    const asked = await agent.generate({ messages: 'Scan the orders', mode: 'manual', run: run() });
    expect(asked.pending).toEqual([expect.objectContaining({ toolCallId: 'c1', kind: 'approval' })]);
    const turn = await agent.stream({ messages: respondToApproval(asked.messages, 'c1', true), mode: 'manual', run: run() });
    const chunks = await readAll(turn.stream, (chunk) => {
      if (chunk.type === PROGRESS_PART) first.open();
    });
    const types = chunks.map((c) => c.type);
    expect(progressOf(chunks).map((p) => p.data.message)).toEqual(['Scanned batch 3 of 3', 'Writing the report']);
    // No input chunk in a continued turn: the reports come before the call's result.
    expect(types.includes('tool-input-available')).toBe(false);
    expect(types.lastIndexOf(PROGRESS_PART)).toBeLessThan(types.indexOf('tool-output-available'));
  });

  it('a turn whose tools never report streams exactly what it streamed before', async () => {
    const quiet = defineTool({ name: 'quiet', description: 'Says nothing.', input: v.object({}), execute: async () => 'ok' });
    const model = scriptedModel(callsStep([['c1', 'quiet', {}], ['c2', 'quiet', {}]]), textStep('Done.'));
    const agent = createChatAgent({ model, tools: [quiet], tickets });
    const turn = await agent.stream({ messages: 'Go', run: createRunContext({ conversationId: 'conv-q' }) });
    const chunks = await readAll(turn.stream);
    expect(progressOf(chunks)).toEqual([]);
    expect(chunks.filter((c) => c.type === 'tool-output-available')).toHaveLength(2);
    expect((await turn.result).text).toBe('Done.');
  });

  it('a tool’s last report before it returned always goes out, right before its result', async () => {
    const quick = defineTool({
      name: 'quick',
      description: 'Reports and returns at once.',
      input: v.object({ fail: v.boolean() }),
      execute: ({ fail }, ctx) => {
        ctx.progress({ message: 'first' });
        ctx.progress({ message: 'last', completed: 1, total: 1 });
        if (fail) throw new Error('no');
        return 'done';
      },
    });
    const model = scriptedModel(callsStep([['ok', 'quick', { fail: false }], ['bad', 'quick', { fail: true }]]), textStep('Both ran.'));
    const agent = createChatAgent({ model, tools: [quick], tickets });
    const turn = await agent.stream({ messages: 'Go', run: createRunContext({ conversationId: 'conv-l' }) });
    const chunks = await readAll(turn.stream);
    for (const id of ['ok', 'bad']) {
      const reports = chunks.flatMap((c, i) => (c.type === PROGRESS_PART && (c as { id?: string }).id === id ? [i] : []));
      const result = chunks.findIndex((c) => (c.type === 'tool-output-available' || c.type === 'tool-output-error') && c.toolCallId === id);
      expect(reports.length).toBeGreaterThan(0);
      expect((chunks[reports.at(-1) as number] as { data: ProgressPartData }).data).toMatchObject({ message: 'last', completed: 1, total: 1 });
      expect(reports.at(-1)).toBeLessThan(result);
      expect(chunks.slice(result + 1).some((c) => c.type === PROGRESS_PART && (c as { id?: string }).id === id)).toBe(false);
    }
  });

  it('parallel calls report under their own ids, a failing one too', async () => {
    const go = gate();
    const worker = defineTool({
      name: 'worker',
      description: 'Works, or fails.',
      input: v.object({ fail: v.boolean() }),
      execute: async ({ fail }, ctx) => {
        ctx.progress({ message: fail ? 'about to fail' : 'working', completed: 1, total: 2 });
        await go.opened;
        if (fail) throw new Error('disk full');
        return 'ok';
      },
    });
    const model = scriptedModel(callsStep([['a', 'worker', { fail: false }], ['b', 'worker', { fail: true }]]), textStep('One failed.'));
    const agent = createChatAgent({ model, tools: [worker], tickets });
    const turn = await agent.stream({ messages: 'Go', run: createRunContext({ conversationId: 'conv-r' }) });
    const seen = new Set<string>();
    const chunks = await readAll(turn.stream, (chunk) => {
      if (chunk.type === PROGRESS_PART) seen.add((chunk as { id: string }).id);
      if (seen.size === 2) go.open();
    });
    expect(
      progressOf(chunks)
        .map((p) => `${p.data.toolCallId}:${p.data.message}`)
        .sort(),
    ).toEqual(['a:working', 'b:about to fail']);
    expect(chunks.find((c) => c.type === 'tool-output-error')).toMatchObject({ toolCallId: 'b' });
    expect((await turn.result).text).toBe('One failed.');
  });
});

describe('text turns and agents as tools: progress', () => {
  it('generateTextTurn hands reports and finished calls to its listeners', async () => {
    const { scan, first } = scanFixture();
    first.open();
    const model = scriptedModel(callsStep([['c1', 'scan_orders', { batches: 2 }]]), textStep('Scanned.'));
    const agent = createChatAgent({ model, tools: [scan], tickets });
    const reports: string[] = [];
    const finished: string[] = [];
    const result = await generateTextTurn(agent, {
      messages: 'Scan',
      run: createRunContext(),
      onProgress: ({ callId, progress }) => reports.push(`${callId}:${progress.message}`),
      onToolResult: (r) => {
        finished.push(r.call.id);
        throw new Error('a broken listener');
      },
    });
    expect(result.text).toBe('Scanned.');
    expect(reports).toEqual(['c1:Scanned batch 1 of 2', 'c1:Scanned batch 2 of 2', 'c1:Writing the report']);
    expect(finished).toEqual(['c1']);
    expect(result.toolResults.map((r) => r.outcome.type)).toEqual(['success']);
  });

  it('an agent tool’s reports: inner reports as text under the inner tool’s name, its count is finished inner calls', async () => {
    const { scan, first } = scanFixture();
    first.open();
    const inner = createChatAgent({ model: scriptedModel(callsStep([['i1', 'scan_orders', { batches: 2 }]]), textStep('All scanned.')), tools: [scan], tickets });
    const auditor = await agentTool({ name: 'auditor', description: 'Audits orders.', agent: inner });
    const events: unknown[] = [];
    const result = await createExecutor({ registry: [auditor] }).execute(
      { id: 'o1', name: 'auditor', arguments: { task: 'Audit' } },
      { approval: { approved: true }, onProgress: ({ progress }) => events.push(progress) },
    );
    expect(result.outcome).toEqual({ type: 'success', output: { answer: 'All scanned.', usage: { inputTokens: 20, outputTokens: 10, totalTokens: 30 } } });
    expect(result.content).toBe('All scanned.');
    expect(events).toEqual([
      { message: 'scan_orders: Scanned batch 1 of 2', completed: 0 },
      { message: 'scan_orders: Scanned batch 2 of 2', completed: 0 },
      { message: 'scan_orders: Writing the report', completed: 0 },
      { message: 'scan_orders done', completed: 1 },
    ]);
  });

  it('an agent tool reports its inner tools’ progress and each inner call as it finishes', async () => {
    const { scan, first } = scanFixture();
    first.open();
    const inner = createChatAgent({ model: scriptedModel(callsStep([['i1', 'scan_orders', { batches: 1 }]]), textStep('All scanned.')), tools: [scan], tickets });
    const auditor = await agentTool({ name: 'auditor', description: 'Audits orders.', agent: inner });
    const outer = createChatAgent({ model: scriptedModel(callsStep([['o1', 'auditor', { task: 'Audit everything' }]]), textStep('Audited.')), tools: [auditor], tickets });
    const turn = await outer.stream({ messages: 'Audit', run: createRunContext({ conversationId: 'conv-a' }) });
    const chunks = await readAll(turn.stream);
    const messages = progressOf(chunks).map((p) => p.data);
    expect(messages.every((p) => p.toolCallId === 'o1' && p.toolName === 'auditor')).toBe(true);
    // Its count is finished inner calls, never the inner tool's own count (that goes into the text).
    expect(messages.every((p) => p.completed === 0 || p.completed === 1)).toBe(true);
    expect(messages.filter((p) => p.completed === 0).every((p) => p.message?.startsWith('scan_orders: '))).toBe(true);
    // The stream may coalesce reports that arrive together; the last one always goes out.
    expect(messages.at(-1)).toMatchObject({ message: 'scan_orders done', completed: 1 });
    expect((await turn.result).text).toBe('Audited.');
  });
});
