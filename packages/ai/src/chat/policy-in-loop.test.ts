// Tool policies the AI SDK does not know about, held in the chat loop as the executor holds them: calls of one
// `concurrency` group one at a time within a step, and `coerce` applied before the approval decision.
import { createRunContext, createTicketSigner, defineTool, jsonSchema, ToolError } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { approveWithEdits, respondToApproval } from '../testing/client.ts';
import { callsStep, lastToolResults, scriptedModel, textStep } from '../testing/mock-model.ts';
import { createChatAgent } from './chat-agent.ts';
import { generateTextTurn } from './text-turn.ts';

const tickets = () => createTicketSigner({ keys: [{ id: 'k1', secret: 'policy-loop-secret-policy-loop-secret' }] });

function grouped() {
  const state = { active: 0, maxActive: 0, order: [] as number[] };
  const tool = (name: string, group: string | undefined) =>
    defineTool({
      name,
      description: name,
      input: v.object({ i: v.number() }),
      policy: { concurrency: group },
      execute: async ({ i }) => {
        state.active++;
        state.maxActive = Math.max(state.maxActive, state.active);
        await new Promise((resolve) => setTimeout(resolve, 5));
        state.order.push(i);
        state.active--;
        return i;
      },
    });
  return { state, tools: [tool('write_row', 'db'), tool('write_log', 'db')] };
}

const step = () =>
  callsStep([
    ['c0', 'write_row', { i: 0 }],
    ['c1', 'write_log', { i: 1 }],
    ['c2', 'write_row', { i: 2 }],
  ]);

describe('policy.concurrency in the chat loop', () => {
  it('runs the calls of one group one at a time, in the order the model made them (stream)', async () => {
    const { state, tools } = grouped();
    const agent = createChatAgent({ model: scriptedModel(step(), textStep('done')), tools, tickets: tickets() });
    const result = await agent.generate({ messages: 'write', run: createRunContext() });
    expect(result.text).toBe('done');
    expect(state.maxActive).toBe(1);
    expect(state.order).toEqual([0, 1, 2]);
  });

  it('and in the text turn', async () => {
    const { state, tools } = grouped();
    const agent = createChatAgent({ model: scriptedModel(step(), textStep('done')), tools, tickets: tickets() });
    await generateTextTurn(agent, { messages: 'write', run: createRunContext() });
    expect(state.maxActive).toBe(1);
    expect(state.order).toEqual([0, 1, 2]);
  });
});

describe('policy.coerce with an approval rule in the chat loop', () => {
  it('decides the approval on the coerced input: a quoted amount still asks the human, and nothing runs', async () => {
    const refunds: number[] = [];
    const refund = defineTool({
      name: 'refund',
      description: 'Refund an amount',
      input: v.object({ amount: v.number() }),
      policy: { effects: 'write', coerce: true, needsApproval: ({ amount }) => amount > 100 },
      execute: ({ amount }) => {
        refunds.push(amount);
        return `refunded ${amount}`;
      },
    });
    const agent = createChatAgent({ model: scriptedModel(callsStep([['r1', 'refund', { amount: '500' }]]), textStep('never')), tools: [refund], tickets: tickets() });
    const result = await agent.generate({ messages: 'refund 500', run: createRunContext({ conversationId: 'conv-1' }) });
    expect(result.pending).toEqual([expect.objectContaining({ toolCallId: 'r1', kind: 'approval' })]);
    expect(refunds).toEqual([]);

    // A small quoted amount needs no approval and runs, coerced.
    const small = createChatAgent({ model: scriptedModel(callsStep([['r2', 'refund', { amount: '20' }]]), textStep('ok')), tools: [refund], tickets: tickets() });
    expect((await small.generate({ messages: 'refund 20', run: createRunContext() })).text).toBe('ok');
    expect(refunds).toEqual([20]);
  });
});

describe('policy.check in the chat loop', () => {
  function move() {
    const writes: string[] = [];
    const tool = defineTool({
      name: 'move_order',
      description: 'Move an order',
      input: v.object({ order_id: v.string() }),
      policy: {
        effects: 'write',
        check: ({ order_id }) => {
          if (order_id !== 'A-1') throw new ToolError('invalid-input', `No order ${order_id}.`, { issues: [{ path: 'order_id', message: 'unknown' }] });
        },
      },
      execute: ({ order_id }) => {
        writes.push(order_id);
        return 'moved';
      },
    });
    return { tool, writes };
  }

  for (const mode of ['internal', 'manual'] as const) {
    it(`${mode} mode: a call that fails its check never asks a human; the model reads the check's error`, async () => {
      const { tool, writes } = move();
      const model = scriptedModel(callsStep([['m1', 'move_order', { order_id: 'A-9' }]]), textStep('That order does not exist.'));
      const agent = createChatAgent({ model, tools: [tool], tickets: tickets() });
      const result = await agent.generate({ messages: 'move A-9', mode, run: createRunContext({ conversationId: 'conv-1' }) });
      expect(result.pending).toEqual([]);
      expect(result.text).toBe('That order does not exist.');
      expect(writes).toEqual([]);
      const [seen] = lastToolResults(model.doStreamCalls[1]);
      expect((seen?.output as { value: string } | undefined)?.value).toBe('Error (invalid-input): No order A-9.\n- order_id: unknown\nFix these arguments and call the tool again.');
    });

    it(`${mode} mode: a call that passes its check still waits for the approval`, async () => {
      const { tool, writes } = move();
      const agent = createChatAgent({ model: scriptedModel(callsStep([['m1', 'move_order', { order_id: 'A-1' }]]), textStep('never')), tools: [tool], tickets: tickets() });
      const result = await agent.generate({ messages: 'move A-1', mode, run: createRunContext({ conversationId: 'conv-1' }) });
      expect(result.pending).toEqual([expect.objectContaining({ toolCallId: 'm1', kind: 'approval' })]);
      expect(writes).toEqual([]);
    });
  }
});

describe('an input schema that throws while validating', () => {
  it('never asks a human and does not fail the turn: the model reads the executor’s invalid-input', async () => {
    // A remote (MCP) tool's raw JSON Schema is checked by nothing before its first call; remote tools are destructive by default.
    const ran: unknown[] = [];
    const remote = defineTool({
      name: 'remote_write',
      description: 'A remote write',
      input: jsonSchema({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }),
      policy: { effects: 'destructive' },
      execute: (input) => {
        ran.push(input);
        return 'ran';
      },
    });
    const model = scriptedModel(callsStep([['w1', 'remote_write', { a: 1 }]]), textStep('That tool is broken.'));
    const agent = createChatAgent({ model, tools: [remote], tickets: tickets() });
    const result = await agent.generate({ messages: 'write', run: createRunContext({ conversationId: 'conv-1' }) });
    expect(result.pending).toEqual([]);
    expect(result.text).toBe('That tool is broken.');
    expect(ran).toEqual([]);
    const [seen] = lastToolResults(model.doStreamCalls[1]);
    expect((seen?.output as { value: string } | undefined)?.value).toMatch(/^Error \(invalid-input\): The arguments for "remote_write" could not be validated: Unresolved \$ref/);
  });
});

describe('an approval rule (needsApproval) that throws', () => {
  for (const stream of [true, false]) {
    it(`never asks a human and does not fail the turn: the tool does not run and the model reads the error (${stream ? 'stream' : 'text turn'})`, async () => {
      const ran: number[] = [];
      const transfer = defineTool({
        name: 'transfer',
        description: 'Transfer an amount',
        input: v.object({ amount: v.number() }),
        policy: {
          effects: 'write',
          needsApproval: () => {
            throw new Error('limits service unavailable');
          },
        },
        execute: ({ amount }) => {
          ran.push(amount);
          return `sent ${amount}`;
        },
      });
      const model = scriptedModel(callsStep([['t1', 'transfer', { amount: 5 }]]), textStep('The transfer could not be checked.'));
      const agent = createChatAgent({ model, tools: [transfer], tickets: tickets() });
      const input = { messages: 'send 5', run: createRunContext({ conversationId: 'conv-1' }) };
      const result = stream ? await agent.generate(input) : await generateTextTurn(agent, input);
      expect(result.pending).toEqual([]);
      expect(result.text).toBe('The transfer could not be checked.');
      expect(ran).toEqual([]);
      const [seen] = lastToolResults(model.doStreamCalls[1] ?? model.doGenerateCalls[1]);
      expect((seen?.output as { value: string } | undefined)?.value).toBe('Error (execution-failed): limits service unavailable');
    });
  }
});

describe('policy.approvalReason in the chat loop', () => {
  function pay(reason: (input: { amount: number; to: string }) => string) {
    const paid: number[] = [];
    const tool = defineTool({
      name: 'pay',
      description: 'Pay someone',
      input: v.object({ amount: v.number(), to: v.string() }),
      policy: { effects: 'write', coerce: true, approvalReason: (input, ctx) => `${reason(input)} (${ctx.run.userId})` },
      execute: ({ amount }) => {
        paid.push(amount);
        return 'paid';
      },
    });
    return { tool, paid };
  }
  const payStep = () => callsStep([['p1', 'pay', { amount: '40', to: 'Bob' }]]);

  for (const mode of ['internal', 'manual'] as const) {
    it(`${mode} mode: the approval request carries the tool's words, made from the coerced input, in the stream, the message and pending`, async () => {
      const { tool, paid } = pay(({ amount, to }) => `Sends ${amount.toFixed(2)} EUR to ${to}.`);
      const agent = createChatAgent({ model: scriptedModel(payStep(), textStep('never')), tools: [tool], tickets: tickets() });
      const turn = await agent.stream({ messages: 'pay Bob 40', mode, run: createRunContext({ conversationId: 'conv-1', userId: 'ada' }) });
      const chunks: { type: string; reason?: string }[] = [];
      for await (const chunk of turn.stream as unknown as AsyncIterable<{ type: string; reason?: string }>) chunks.push(chunk);
      const result = await turn.result;
      const words = 'Sends 40.00 EUR to Bob. (ada)';
      expect(chunks.find((c) => c.type === 'tool-approval-request')?.reason).toBe(words);
      expect(result.pending).toEqual([expect.objectContaining({ toolCallId: 'p1', kind: 'approval', reason: words })]);
      const part = result.message.parts.find((p) => p.type === 'tool-pay') as { approval?: { requestReason?: string } } | undefined;
      expect(part?.approval?.requestReason).toBe(words);
      expect(paid).toEqual([]);
    });
  }

  it('the text turn reports the words with its pending call', async () => {
    const { tool } = pay(({ to }) => `Pays ${to}.`);
    const agent = createChatAgent({ model: scriptedModel(payStep(), textStep('never')), tools: [tool], tickets: tickets() });
    const result = await generateTextTurn(agent, { messages: 'pay', run: createRunContext({ userId: 'ada' }) });
    expect(result.pending).toEqual([expect.objectContaining({ toolCallId: 'p1', kind: 'approval', reason: 'Pays Bob. (ada)' })]);
  });

  it('a reason that throws asks no human and does not fail the turn: nothing runs and the model reads the error', async () => {
    const { tool, paid } = pay(() => {
      throw new ToolError('invalid-input', 'Bob has no account here.');
    });
    const model = scriptedModel(payStep(), textStep('I cannot pay Bob.'));
    const agent = createChatAgent({ model, tools: [tool], tickets: tickets() });
    const result = await agent.generate({ messages: 'pay', run: createRunContext({ conversationId: 'conv-1' }) });
    expect(result.pending).toEqual([]);
    expect(result.text).toBe('I cannot pay Bob.');
    expect(paid).toEqual([]);
    const [seen] = lastToolResults(model.doStreamCalls[1]);
    expect((seen?.output as { value: string } | undefined)?.value).toBe('Error (invalid-input): Bob has no account here.');
  });
});

describe('policy.approvalReason in manual mode', () => {
  it('a call its rule lets through still goes to the browser chain, and its reason is not asked for (a throwing one could skip that chain)', async () => {
    const ran: string[] = [];
    let reasons = 0;
    const note = defineTool({
      name: 'note',
      description: 'Write a note',
      input: v.object({ text: v.string() }),
      policy: {
        effects: 'write',
        needsApproval: ({ text }) => text.length > 100,
        approvalReason: () => {
          reasons++;
          throw new Error('reason service down');
        },
      },
      execute: ({ text }) => {
        ran.push(text);
        return 'noted';
      },
    });
    const agent = createChatAgent({ model: scriptedModel(callsStep([['n1', 'note', { text: 'short' }]]), textStep('never')), tools: [note], tickets: tickets() });
    const result = await agent.generate({ messages: 'note it', mode: 'manual', run: createRunContext({ conversationId: 'conv-1' }) });
    expect(result.pending).toEqual([expect.objectContaining({ toolCallId: 'n1', kind: 'approval' })]);
    expect(result.pending[0]).not.toHaveProperty('reason');
    expect(ran).toEqual([]);
    expect(reasons).toBe(0);
  });
});

describe('a hung check or approvalReason in the chat loop', () => {
  const send = (policy: { timeoutMs?: number; check?: () => Promise<void>; approvalReason?: () => Promise<string> }, ran: string[]) =>
    defineTool({
      name: 'send_note',
      description: 'Sends a note',
      input: v.object({ to: v.string() }),
      policy: { effects: 'write', ...policy },
      execute: ({ to }) => {
        ran.push(to);
        return 'sent';
      },
    });
  const never = () => new Promise<never>(() => {});

  it('ends within the tool’s timeoutMs: the loop asks no one, and the model reads the timeout (UI and text turns)', async () => {
    for (const policy of [{ check: never }, { approvalReason: never }]) {
      const ran: string[] = [];
      const model = scriptedModel(callsStep([['c1', 'send_note', { to: 'bob' }]]), textStep('It timed out.'), callsStep([['c2', 'send_note', { to: 'eve' }]]), textStep('Again.'));
      const agent = createChatAgent({ model, tools: [send({ timeoutMs: 20, ...policy }, ran)], tickets: tickets() });
      const turn = await agent.generate({ messages: 'send it', run: createRunContext({ conversationId: 'c' }) });
      expect(turn.text).toBe('It timed out.');
      expect(turn.pending).toEqual([]);
      expect(lastToolResults(model.doStreamCalls[1])).toEqual([{ toolCallId: 'c1', output: { type: 'error-text', value: expect.stringMatching(/^Error \(timeout\): Tool "send_note" was not run: its (check|approval reason) did not finish within 20 ms\.$/) } }]);
      const text = await generateTextTurn(agent, { messages: 'send it', run: createRunContext({ conversationId: 'c' }) });
      expect(text.text).toBe('Again.');
      expect(ran).toEqual([]);
    }
  });

  it('a check, rule or reason that timed out is not run again: the call is answered after one limit, not two (UI and text turns)', async () => {
    for (const [key, what] of [
      ['check', 'check'],
      ['needsApproval', 'approval rule'],
      ['approvalReason', 'approval reason'],
    ] as const) {
      for (const turn of ['ui', 'text'] as const) {
        let runs = 0;
        const hung = () => {
          runs++;
          return never();
        };
        const ran: string[] = [];
        const tool = defineTool({
          name: 'send_note',
          description: 'Sends a note',
          input: v.object({ to: v.string() }),
          policy: { effects: 'write', timeoutMs: 1_000, [key]: hung },
          execute: ({ to }) => {
            ran.push(to);
            return 'sent';
          },
        });
        const model = scriptedModel(callsStep([['c1', 'send_note', { to: 'bob' }]]), textStep('It timed out.'));
        const agent = createChatAgent({ model, tools: [tool], tickets: tickets() });
        vi.useFakeTimers();
        try {
          const request = { messages: 'send it', run: createRunContext({ conversationId: 'c' }) };
          let answered = false;
          const text = (turn === 'ui' ? agent.generate(request) : generateTextTurn(agent, request)).then((result) => {
            answered = true;
            return result.text;
          });
          await vi.advanceTimersByTimeAsync(1_000);
          expect([runs, answered]).toEqual([1, true]);
          expect(await text).toBe('It timed out.');
        } finally {
          vi.useRealTimers();
        }
        // The same typed timeout the model read before, from the approval step's run of the function.
        const read = turn === 'ui' ? lastToolResults(model.doStreamCalls[1]) : lastToolResults(model.doGenerateCalls[1]);
        expect(read).toEqual([{ toolCallId: 'c1', output: { type: 'error-text', value: `Error (timeout): Tool "send_note" was not run: its ${what} did not finish within 1000 ms.` } }]);
        expect(ran).toEqual([]);
      }
    }
  });

  it('a check, rule or reason that throws or rejects is not run again: it runs once, and the model reads its failure (UI and text turns)', async () => {
    for (const key of ['check', 'needsApproval', 'approvalReason'] as const) {
      for (const how of ['throws', 'rejects'] as const) {
        for (const turn of ['ui', 'text'] as const) {
          let runs = 0;
          const failing = () => {
            runs++;
            // A service that is down the first time and answers after: run again, it would let the call go on.
            if (runs > 1) return key === 'needsApproval' ? false : undefined;
            if (how === 'throws') throw new Error(`${key} service down`);
            return Promise.reject(new Error(`${key} service down`));
          };
          const ran: string[] = [];
          const tool = defineTool({
            name: 'send_note',
            description: 'Sends a note',
            input: v.object({ to: v.string() }),
            policy: { effects: 'write', [key]: failing },
            execute: ({ to }) => {
              ran.push(to);
              return 'sent';
            },
          });
          const model = scriptedModel(callsStep([['c1', 'send_note', { to: 'bob' }]]), textStep('It failed.'));
          const agent = createChatAgent({ model, tools: [tool], tickets: tickets() });
          const request = { messages: 'send it', run: createRunContext({ conversationId: 'c' }) };
          const result = turn === 'ui' ? await agent.generate(request) : await generateTextTurn(agent, request);
          expect(result.text).toBe('It failed.');
          const read = turn === 'ui' ? lastToolResults(model.doStreamCalls[1]) : lastToolResults(model.doGenerateCalls[1]);
          expect([key, how, turn, runs, read, ran]).toEqual([
            key,
            how,
            turn,
            1,
            [{ toolCallId: 'c1', output: { type: 'error-text', value: `Error (execution-failed): ${key} service down` } }],
            [],
          ]);
        }
      }
    }
  });

  it('in a continuation: an approved call whose check times out on the way in is not checked again; one a human edited is checked on the edit', async () => {
    const approvedWith = async (answer: 'as-is' | 'edited') => {
      let runs = 0;
      const ran: string[] = [];
      const tool = defineTool({
        name: 'send_note',
        description: 'Sends a note',
        input: v.object({ to: v.string() }),
        // Passes when the human is asked; then hangs for the model's arguments (the AI SDK checks an approval again).
        policy: { effects: 'write', editable: ['to'], timeoutMs: 20, check: ({ to }) => (++runs === 1 || to !== 'bob' ? undefined : never()) },
        execute: ({ to }) => {
          ran.push(to);
          return 'sent';
        },
      });
      const model = scriptedModel(callsStep([['c1', 'send_note', { to: 'bob' }]]), textStep('Done.'));
      const agent = createChatAgent({ model, tools: [tool], tickets: tickets() });
      const run = () => createRunContext({ conversationId: 'c' });
      const asked = await agent.generate({ messages: 'send it', run: run() });
      const messages = answer === 'as-is' ? respondToApproval(asked.messages, 'c1', true) : approveWithEdits(asked.messages, 'c1', { to: 'eve' });
      const done = await agent.generate({ messages, run: run() });
      return { runs, ran, read: lastToolResults(model.doStreamCalls[1]), done };
    };
    const asIs = await approvedWith('as-is');
    expect(asIs.runs).toBe(2);
    expect(asIs.ran).toEqual([]);
    expect(asIs.read).toEqual([{ toolCallId: 'c1', output: { type: 'error-text', value: 'Error (timeout): Tool "send_note" was not run: its check did not finish within 20 ms.' } }]);
    // The edited arguments are the executor's to check: the approval step only saw the model's.
    const edited = await approvedWith('edited');
    expect(edited.ran).toEqual(['eve']);
    expect(edited.done.toolResults.map((r) => r.outcome.type)).toEqual(['success']);
  });

  it('ends when the turn is aborted, with no timeoutMs: the turn does not wait for the check forever', async () => {
    for (const policy of [{ check: never }, { approvalReason: never }]) {
      const ran: string[] = [];
      const agent = createChatAgent({ model: scriptedModel(callsStep([['c1', 'send_note', { to: 'bob' }]]), textStep('unreachable')), tools: [send(policy, ran)], tickets: tickets() });
      const controller = new AbortController();
      const turn = agent.generate({ messages: 'send it', run: createRunContext({ conversationId: 'c' }), signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 20));
      controller.abort();
      expect((await turn).finishReason).toBe('aborted');
      expect(ran).toEqual([]);
    }
  });
});
