// Call limits in the chat loop: `policy.maxCallsPerRun` counts over every step of one turn (one run), so a model that
// loops on a tool is told to stop and answer; a call the limit will refuse never asks a human; `policy.rateLimit`
// spends a limiter's budget per user, on the stream and in the text turn alike.
import { createRunContext, createTicketSigner, defineTool, memoryRateLimiter, type RateLimiter } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { respondToApproval } from '../testing/client.ts';
import { callsStep, lastToolResults, scriptedModel, textStep } from '../testing/mock-model.ts';
import { createChatAgent } from './chat-agent.ts';
import { generateTextTurn } from './text-turn.ts';

const keys = [{ id: 'k1', secret: 'limits-test-secret-limits-test-secret' }];
const tickets = () => createTicketSigner({ keys });

function search() {
  const queries: string[] = [];
  const tool = defineTool({
    name: 'search',
    description: 'Search the catalogue',
    input: v.object({ q: v.string() }),
    policy: { maxCallsPerRun: 2 },
    execute: ({ q }) => {
      queries.push(q);
      return `results for ${q}`;
    },
  });
  return { tool, queries };
}

/** A write tool that needs approval, may run twice per request, and notes each text it sent. */
function notifyTool() {
  const sent: string[] = [];
  const notify = defineTool({
    name: 'notify',
    description: 'Notify the team',
    input: v.object({ text: v.string() }),
    policy: { effects: 'write', maxCallsPerRun: 2 },
    execute: ({ text }) => {
      sent.push(text);
      return 'sent';
    },
  });
  return { notify, sent };
}

const errorText = (output: unknown) => (output as { type: string; value: string }).value;

describe('policy.maxCallsPerRun in the chat loop', () => {
  it('counts over the steps of one turn: the third call is refused with text that tells the model to answer', async () => {
    const { tool, queries } = search();
    const model = scriptedModel(
      callsStep([['c1', 'search', { q: 'a' }]]),
      callsStep([['c2', 'search', { q: 'b' }]]),
      callsStep([['c3', 'search', { q: 'c' }]]),
      textStep('Here is what I found.'),
    );
    const agent = createChatAgent({ model, tools: [tool], tickets: tickets() });
    const result = await agent.generate({ messages: 'find things', run: createRunContext() });
    expect(queries).toEqual(['a', 'b']);
    expect(result.text).toBe('Here is what I found.');
    expect(result.toolResults.map((r) => (r.outcome.type === 'error' ? r.outcome.error.code : r.outcome.type))).toEqual(['success', 'success', 'rate-limited']);
    const [seen] = lastToolResults(model.doStreamCalls[3]);
    expect(errorText(seen?.output)).toMatch(/may run at most 2 times per request.*answer with what you have/);
    const part = result.message.parts.find((p) => 'toolCallId' in p && p.toolCallId === 'c3');
    expect(part).toMatchObject({ state: 'output-error' });

    // The next request is a new run: the budget starts again.
    const again = createChatAgent({ model: scriptedModel(callsStep([['d1', 'search', { q: 'd' }]]), textStep('ok')), tools: [tool], tickets: tickets() });
    await again.generate({ messages: 'more', run: createRunContext() });
    expect(queries).toEqual(['a', 'b', 'd']);
  });

  it('never asks a human for a call its limit will refuse', async () => {
    const sent: string[] = [];
    const notify = defineTool({
      name: 'notify',
      description: 'Notify the team',
      input: v.object({ text: v.string(), urgent: v.optional(v.boolean(), false) }),
      policy: { effects: 'write', needsApproval: ({ urgent }) => urgent, maxCallsPerRun: 1 },
      execute: ({ text }) => {
        sent.push(text);
        return 'sent';
      },
    });
    const model = scriptedModel(
      callsStep([['n1', 'notify', { text: 'fyi' }]]),
      callsStep([['n2', 'notify', { text: 'PAGE EVERYONE', urgent: true }]]),
      textStep('I could send only one notification.'),
    );
    const agent = createChatAgent({ model, tools: [notify], tickets: tickets() });
    const result = await agent.generate({ messages: 'notify', run: createRunContext({ conversationId: 'conv-1' }) });
    expect(sent).toEqual(['fyi']);
    expect(result.pending).toEqual([]);
    expect(result.finishReason).toBe('stop');
    expect(result.toolResults.at(-1)?.outcome).toMatchObject({ type: 'error', error: { code: 'rate-limited' } });
  });

  it.each(['internal', 'manual'] as const)('asks a human for no more calls of one step than its limit lets run, the others refused at once (%s mode)', async (mode) => {
    const { notify, sent } = notifyTool();
    const calls = ['a', 'b', 'c', 'd', 'e'].map((text) => [`n-${text}`, 'notify', { text }] as const);
    const model = scriptedModel(callsStep(calls), textStep('Sent two; the others were over the limit.'));
    const agent = createChatAgent({ model, tools: [notify], tickets: tickets() });
    const run = () => createRunContext({ conversationId: `conv-step-${mode}` });
    const first = await agent.generate({ messages: 'notify five times', run: run(), mode });
    // All five used to ask, and once approved, three were refused by the limit all the same.
    expect(first.pending.map((p) => p.toolCallId)).toEqual(['n-a', 'n-b']);
    const refusedNow = first.toolResults.map((r) => [r.call.id, r.outcome.type === 'error' ? r.outcome.error.code : r.outcome.type]);
    expect(refusedNow.sort()).toEqual([
      ['n-c', 'rate-limited'],
      ['n-d', 'rate-limited'],
      ['n-e', 'rate-limited'],
    ]);
    expect(sent).toEqual([]);
    let messages = first.messages;
    for (const id of ['n-a', 'n-b']) messages = respondToApproval(messages, id, true);
    const done = await agent.generate({ messages, run: run(), mode });
    expect(sent).toEqual(['a', 'b']);
    expect(done.text).toBe('Sent two; the others were over the limit.');
    // The model reads every call's result: the refusals it was told at once, and the two that ran.
    const read = model.doStreamCalls[1]?.prompt.flatMap((m) => (m.role === 'tool' ? m.content : [])) ?? [];
    const results = read.flatMap((part) => (part.type === 'tool-result' ? [[part.toolCallId, errorText(part.output)]] : []));
    expect(results.sort()).toEqual([
      ['n-a', 'sent'],
      ['n-b', 'sent'],
      ...['n-c', 'n-d', 'n-e'].map((id) => [id, expect.stringContaining('at most 2 times per request, and that many calls of it already wait for approval')]),
    ]);
  });

  it('a call approved in the previous request is not counted twice: a later call of its turn may still ask', async () => {
    const { notify, sent } = notifyTool();
    const model = scriptedModel(callsStep([['n1', 'notify', { text: 'one' }]]), callsStep([['n2', 'notify', { text: 'two' }]]), textStep('never'));
    const agent = createChatAgent({ model, tools: [notify], tickets: tickets() });
    const run = () => createRunContext({ conversationId: 'conv-again' });
    const first = await agent.generate({ messages: 'notify twice', run: run() });
    const second = await agent.generate({ messages: respondToApproval(first.messages, 'n1', true), run: run() });
    // One call ran in this request and none waits: the second may ask (the resumed approval used to count as one waiting).
    expect(sent).toEqual(['one']);
    expect(second.pending.map((p) => p.toolCallId)).toEqual(['n2']);
  });

  it('a text turn that reuses the run of the turn its approval came from counts the approved call once', async () => {
    const { notify, sent } = notifyTool();
    const model = scriptedModel(callsStep([['n1', 'notify', { text: 'one' }]]), callsStep([['n2', 'notify', { text: 'two' }]]), textStep('never'));
    const agent = createChatAgent({ model, tools: [notify], tickets: tickets() });
    // One run for both turns (a job's): n1 waited in the first, and runs in the second, where it is counted as run.
    const run = createRunContext();
    const first = await generateTextTurn(agent, { messages: 'notify twice', run });
    expect(first.pending.map((p) => p.toolCallId)).toEqual(['n1']);
    const second = await generateTextTurn(agent, { messages: first.messages, approvals: { n1: true }, run });
    // It used to count as waiting too (1 run + 1 waiting): n2 was refused with rate-limited instead of asking.
    expect(sent).toEqual(['one']);
    expect(second.pending.map((p) => p.toolCallId)).toEqual(['n2']);
  });

  it('holds in the text turn too', async () => {
    const { tool, queries } = search();
    const model = scriptedModel(
      callsStep([
        ['c1', 'search', { q: 'a' }],
        ['c2', 'search', { q: 'b' }],
        ['c3', 'search', { q: 'c' }],
      ]),
      textStep('done'),
    );
    const agent = createChatAgent({ model, tools: [tool], tickets: tickets() });
    const result = await generateTextTurn(agent, { messages: 'find', run: createRunContext() });
    expect(queries.sort()).toEqual(['a', 'b']);
    expect(result.text).toBe('done');
    const outputs = lastToolResults(model.doGenerateCalls[1]);
    expect(outputs.filter((o) => errorText(o.output).includes('rate-limited'))).toHaveLength(1);
  });
});

describe('policy.rateLimit in the chat loop', () => {
  it('spends the user’s budget across turns and refuses the call once it is spent; other users are not affected', async () => {
    let sent = 0;
    const limiter = memoryRateLimiter({ limit: 1, periodMs: 60_000 });
    const tool = defineTool({
      name: 'send_sms',
      description: 'Send an SMS',
      input: v.object({ to: v.string() }),
      policy: { effects: 'write', needsApproval: false, rateLimit: { limiter: (ctx) => (ctx.run.deps as { limiter: RateLimiter }).limiter } },
      execute: () => ++sent,
    });
    const turn = async (userId: string) => {
      const model = scriptedModel(callsStep([['s1', 'send_sms', { to: '+1' }]]), textStep('ok'));
      const agent = createChatAgent({ model, tools: [tool], tickets: tickets() });
      const result = await agent.generate({ messages: 'text them', run: createRunContext({ userId, deps: { limiter } }) });
      return result.toolResults[0]?.outcome;
    };
    expect(await turn('ann')).toMatchObject({ type: 'success' });
    expect(await turn('ann')).toMatchObject({ type: 'error', error: { code: 'rate-limited' } });
    expect(await turn('bob')).toMatchObject({ type: 'success' });
    expect(sent).toBe(2);
  });
});
