// Approving a call with edited arguments: the client adds an edit part beside its approval; the loop runs the call with
// the edited arguments (when the tool's `policy.editable` allows them), tells the model what changed, and seals them.
import { createMemoryNonceStore, createRunContext, createTicketSigner, defineTool, editNote, type NonceStore, redact } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { approveWithEdits, mapToolPart, respondToApproval, userSays } from '../testing/client.ts';
import { callsStep, lastToolResults, scriptedModel, textStep } from '../testing/mock-model.ts';
import { createChatAgent } from './chat-agent.ts';
import { EDIT_PART, SEAL_PART, type SealPartData, TICKET_PART, type TicketPartData } from './protocol.ts';
import { sealResult } from './proofs.ts';
import { generateTextTurn } from './text-turn.ts';
import { refused } from '../test-support/chat-streams.ts';

const keys = [{ id: 'k1', secret: 'edits-secret-edits-secret-edits-secret' }];
const proposed = { order_id: 'A-1001', new_date: '2026-12-24' };
const edited = { order_id: 'A-1001', new_date: '2026-12-27' };
const run = () => createRunContext({ conversationId: 'conv-1' });

function fixture(...steps: Parameters<typeof scriptedModel>) {
  return fixtureWith(createTicketSigner({ keys }), ...steps);
}

function fixtureWith(tickets: ReturnType<typeof createTicketSigner>, ...steps: Parameters<typeof scriptedModel>) {
  const writes: unknown[] = [];
  const move = defineTool({
    name: 'update_delivery_date',
    description: 'Change a delivery date',
    input: v.object({ order_id: v.string(), new_date: v.pipe(v.string(), v.isoDate()) }),
    policy: { effects: 'write', editable: ['new_date'] },
    execute: (input) => {
      writes.push(input);
      return { ...input, updated: true };
    },
  });
  const send = defineTool({ name: 'send_email', description: 'Send', input: v.object({ to: v.string() }), policy: { effects: 'destructive' }, execute: () => 'sent' });
  const model = scriptedModel(...steps);
  const agent = createChatAgent({ model, tools: [move, send], tickets });
  return { agent, model, writes };
}

const dataOf = <T>(message: { parts: readonly unknown[] }, type: string) => message.parts.filter((p) => (p as { type: string }).type === type).map((p) => (p as { data: T }).data);

async function pending(...more: Parameters<typeof scriptedModel>) {
  const fx = fixture(callsStep([['c1', 'update_delivery_date', proposed]]), ...more);
  const first = await fx.agent.generate({ messages: 'Move A-1001 to Dec 24', run: run() });
  return { ...fx, first };
}

describe('approving with edited arguments in the chat loop', () => {
  it('tells the client which arguments it may edit, in the approval ticket', async () => {
    const { first } = await pending(textStep('never'));
    expect(dataOf<TicketPartData>(first.message, TICKET_PART)).toEqual([expect.objectContaining({ toolCallId: 'c1', purpose: 'approval', editable: ['new_date'] })]);
    expect(first.pending).toEqual([expect.objectContaining({ toolCallId: 'c1', kind: 'approval', editable: ['new_date'] })]);
    const other = fixture(callsStep([['e1', 'send_email', { to: 'a@b.c' }]]), textStep('never'));
    const asked = await other.agent.generate({ messages: 'mail', run: run() });
    expect(dataOf<TicketPartData>(asked.message, TICKET_PART)[0]).not.toHaveProperty('editable');
    expect(asked.pending[0]).not.toHaveProperty('editable');
  });

  it('runs the call once with the edited arguments; the model reads what changed; the seal records them and the history goes on', async () => {
    const { agent, model, first, writes } = await pending(textStep('Moved to Dec 27.'), textStep('You are welcome.'));
    const second = await agent.generate({ messages: approveWithEdits(first.messages, 'c1', edited), run: run() });
    expect(writes).toEqual([edited]);
    expect(second.text).toBe('Moved to Dec 27.');
    const note = editNote([{ key: 'new_date', from: '2026-12-24', to: '2026-12-27' }]);
    const output = '{"order_id":"A-1001","new_date":"2026-12-27","updated":true}';
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([{ toolCallId: 'c1', output: { type: 'text', value: `${note}\n${output}` } }]);
    // The tool part keeps the model's arguments; the seal records what ran.
    const part = second.message.parts.find((p) => 'toolCallId' in p && p.toolCallId === 'c1') as { state: string; input: unknown; output: unknown };
    expect(part).toMatchObject({ state: 'output-available', input: proposed, output: { ...edited, updated: true } });
    expect(dataOf<SealPartData>(second.message, SEAL_PART)).toEqual([expect.objectContaining({ toolCallId: 'c1', input: edited })]);
    expect(second.toolResults[0]?.edits).toEqual([{ key: 'new_date', from: '2026-12-24', to: '2026-12-27' }]);

    // Later requests: the sealed history is accepted, and the model still reads the note beside the result.
    const third = await agent.generate({ messages: userSays(second.messages, 'thanks'), run: run() });
    expect(third.text).toBe('You are welcome.');
    const history = model.doStreamCalls[2]?.prompt.find((m) => m.role === 'tool');
    expect(JSON.stringify(history?.content)).toContain(JSON.stringify(`${note}\n${output}`).slice(1, -1));
    expect(writes).toHaveLength(1);
  });

  it("masks the fields redact() hides in the edit note, in this turn and in the history (the history's named the new value)", async () => {
    const move = defineTool({
      name: 'update_delivery_date',
      description: 'Change a delivery date',
      input: v.object({ order_id: v.string(), new_date: v.pipe(v.string(), v.isoDate()) }),
      policy: { effects: 'write', editable: ['new_date'] },
      interceptors: [redact({ fields: ['new_date'] })],
      execute: (input) => ({ order_id: input.order_id, updated: true }),
    });
    const model = scriptedModel(callsStep([['c1', 'update_delivery_date', proposed]]), textStep('Moved.'), textStep('You are welcome.'));
    const agent = createChatAgent({ model, tools: [move], tickets: createTicketSigner({ keys }) });
    const first = await agent.generate({ messages: 'Move A-1001', run: run() });
    const second = await agent.generate({ messages: approveWithEdits(first.messages, 'c1', edited), run: run() });
    const note = editNote([{ key: 'new_date', from: '[redacted]', to: '[redacted]' }]);
    const output = '{"order_id":"A-1001","updated":true}';
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([{ toolCallId: 'c1', output: { type: 'text', value: `${note}\n${output}` } }]);
    await agent.generate({ messages: userSays(second.messages, 'thanks'), run: run() });
    const history = JSON.stringify(model.doStreamCalls[2]?.prompt.find((m) => m.role === 'tool')?.content);
    expect(history).toContain(JSON.stringify(`${note}\n${output}`).slice(1, -1));
    expect(history).not.toContain('2026-12-27');
  });

  it('refuses history whose recorded edit was changed or removed: the seal covers it', async () => {
    const { agent, first } = await pending(textStep('Moved.'), textStep('never'));
    const second = await agent.generate({ messages: approveWithEdits(first.messages, 'c1', edited), run: run() });
    const changeSeal = (change: (data: SealPartData) => SealPartData) =>
      second.messages.map((m) => ({ ...m, parts: m.parts.map((p) => (p.type === SEAL_PART ? { ...p, data: change(p.data as SealPartData) } : p)) }));
    const altered = changeSeal((data) => ({ ...data, input: { ...edited, new_date: '2026-12-31' } }));
    const removed = changeSeal(({ input: _input, ...data }) => data);
    for (const messages of [altered, removed]) {
      await expect(agent.generate({ messages: userSays(messages, 'thanks'), run: run() })).rejects.toMatchObject({ code: 'ticket-invalid', problem: 'forged-result' });
    }
  });

  it('refuses an edit of an argument the tool does not allow: nothing runs, the model reads why', async () => {
    const { agent, model, first, writes } = await pending(textStep('I could not move it.'));
    const second = await agent.generate({ messages: approveWithEdits(first.messages, 'c1', { ...edited, order_id: 'A-2002' }), run: run() });
    expect(writes).toEqual([]);
    const [result] = lastToolResults(model.doStreamCalls[1]) as unknown as [{ output: { type: string; value: string } }];
    expect(result.output.value).toContain('lets a human edit only "new_date" (changed: "order_id"); it was not performed');
    expect(second.text).toBe('I could not move it.');
  });

  it('seals the arguments the call ran with: not an edit it refused, and edited arguments sent as JSON text as the object they are', async () => {
    // A refused edit: nothing ran with it, so the seal records none and later requests show no change.
    const refused = await pending(textStep('I could not move it.'), textStep('ok'));
    const second = await refused.agent.generate({ messages: approveWithEdits(refused.first.messages, 'c1', { ...edited, order_id: 'A-2002' }), run: run() });
    expect(refused.writes).toEqual([]);
    expect(dataOf<SealPartData>(second.message, SEAL_PART)).toEqual([expect.not.objectContaining({ input: expect.anything() })]);
    expect((await refused.agent.generate({ messages: userSays(second.messages, 'thanks'), run: run() })).text).toBe('ok');

    // Edited arguments as JSON text run as the object they spell (as a model's would): the seal records that object, and
    // the model reads the change of the date later too, not a change of the arguments into a string.
    const text = await pending(textStep('Moved.'), textStep('ok'));
    const moved = await text.agent.generate({ messages: approveWithEdits(text.first.messages, 'c1', JSON.stringify(edited)), run: run() });
    expect(text.writes).toEqual([edited]);
    expect(dataOf<SealPartData>(moved.message, SEAL_PART)).toEqual([expect.objectContaining({ toolCallId: 'c1', input: edited })]);
    await text.agent.generate({ messages: userSays(moved.messages, 'thanks'), run: run() });
    const history = JSON.stringify(text.model.doStreamCalls[2]?.prompt.find((m) => m.role === 'tool')?.content);
    expect(history).toContain(JSON.stringify(editNote([{ key: 'new_date', from: '2026-12-24', to: '2026-12-27' }])).slice(1, -1));
  });

  it('ignores an edit beside a denial, and an edit part for a call nobody approved now', async () => {
    const denied = await pending(textStep('Not moved.'));
    const messages = approveWithEdits(denied.first.messages, 'c1', edited);
    const deny = mapToolPart(messages, 'c1', (p) => ({ ...p, approval: { ...(p.approval ?? {}), approved: false } }));
    const result = await denied.agent.generate({ messages: deny, run: run() });
    expect(denied.writes).toEqual([]);
    expect(result.message.parts.some((p) => 'toolCallId' in p && p.toolCallId === 'c1' && p.state === 'output-denied')).toBe(true);

    // An edit part that stays in the history after its call ran changes nothing later on.
    const fx = await pending(textStep('Moved.'), textStep('ok'));
    const plain = await fx.agent.generate({ messages: respondToApproval(fx.first.messages, 'c1', true), run: run() });
    expect(fx.writes).toEqual([proposed]);
    const stale = plain.messages.map((m) => (m.id === plain.message.id ? { ...m, parts: [...m.parts, { type: EDIT_PART, id: 'c1', data: { toolCallId: 'c1', input: edited } }] } : m));
    expect((await fx.agent.generate({ messages: userSays(stale as typeof plain.messages, 'thanks'), run: run() })).text).toBe('ok');
    expect(fx.writes).toEqual([proposed]);
  });

  it('refuses history whose part shows other model arguments than the edited call’s: the seal covers what the model proposed too', async () => {
    const { agent, model, first } = await pending(textStep('Moved.'), textStep('never'));
    const second = await agent.generate({ messages: approveWithEdits(first.messages, 'c1', edited), run: run() });
    // What the model would read it asked for: another order, or the edited date as if it had proposed it.
    const asIf = (input: unknown) => mapToolPart(second.messages, 'c1', (part) => ({ ...part, input }));
    const otherOrder = asIf({ ...proposed, order_id: 'A-9999' });
    const edit = asIf(edited);
    // And the edited date as its own proposal with no edit recorded: the seal alone then covers the edited arguments.
    const noEdit = edit.map((m) => ({ ...m, parts: m.parts.map((p) => (p.type === SEAL_PART ? { ...p, data: (({ input: _input, ...data }) => data)(p.data as SealPartData) } : p)) }));
    for (const messages of [otherOrder, edit, noEdit]) {
      const error = await refused(agent.generate({ messages: userSays(messages, 'thanks'), run: run() }));
      expect(error).toMatchObject({ code: 'ticket-invalid', problem: 'forged-result', callId: 'c1' });
    }
    expect(model.doStreamCalls).toHaveLength(2);
  });

  it('takes an edited call sealed before seals covered the model’s arguments, while its approval ticket names the part’s input', async () => {
    const tickets = createTicketSigner({ keys });
    const { agent, model, first } = await pending(textStep('Moved.'), textStep('You are welcome.'), textStep('never'));
    const second = await agent.generate({ messages: approveWithEdits(first.messages, 'c1', edited), run: run() });
    const part = second.message.parts.find((p) => 'toolCallId' in p && p.toolCallId === 'c1') as { output: unknown };
    // The seal an earlier version made: what ran and the result, not the model's arguments.
    const old = await sealResult(tickets, { toolName: 'update_delivery_date', toolCallId: 'c1', input: edited, result: { output: part.output }, conversationId: 'conv-1' }, 60_000);
    const withOld = second.messages.map((m) => ({ ...m, parts: m.parts.map((p) => (p.type === SEAL_PART ? { ...p, data: { ...(p.data as SealPartData), seal: old } } : p)) }));
    const third = await agent.generate({ messages: userSays(withOld, 'thanks'), run: run() });
    expect(third.text).toBe('You are welcome.');
    // Its part's input changed: the approval ticket does not name it, so the old seal is no proof.
    const altered = mapToolPart(withOld, 'c1', (p) => ({ ...p, input: { ...proposed, order_id: 'A-9999' } }));
    await refused(agent.generate({ messages: userSays(altered, 'thanks'), run: run() }));
    // Nor without its approval ticket.
    const unticketed = withOld.map((m) => ({ ...m, parts: m.parts.filter((p) => p.type !== TICKET_PART) }));
    await refused(agent.generate({ messages: userSays(unticketed, 'thanks'), run: run() }));
    expect(model.doStreamCalls).toHaveLength(3);
  });

  it('answers the same edited continuation sent again with the recorded result, sealed with the edit', async () => {
    const { agent, model, first, writes } = await pending(textStep('Moved.'), textStep('Moved, as I said.'));
    const approved = approveWithEdits(first.messages, 'c1', edited);
    await agent.generate({ messages: approved, run: run() });
    const again = await agent.generate({ messages: approved, run: run() });
    expect(writes).toEqual([edited]);
    expect(dataOf<SealPartData>(again.message, SEAL_PART)).toEqual([expect.objectContaining({ toolCallId: 'c1', input: edited })]);
    expect(again.text).toBe('Moved, as I said.');
    // The model reads the recorded result as it did the first time: with what the user changed first.
    const [result] = lastToolResults(model.doStreamCalls[2]) as unknown as [{ output: { value: string } }];
    expect(result.output.value).toMatch(/^The user edited your arguments before approving this call: new_date changed from "2026-12-24" to "2026-12-27"/);
  });

  it('refuses the same continuation sent again with another edit, or none: it would run other arguments than the first', async () => {
    const { agent, model, first, writes } = await pending(textStep('Moved.'), textStep('never'));
    await agent.generate({ messages: approveWithEdits(first.messages, 'c1', edited), run: run() });
    for (const messages of [approveWithEdits(first.messages, 'c1', { ...edited, new_date: '2027-05-05' }), respondToApproval(first.messages, 'c1', true)]) {
      const error = await refused(agent.generate({ messages, run: run() }));
      expect(error.problem).toBe('forged-approval');
      expect(error.message).toMatch(/answered before with another decision/);
    }
    expect(writes).toEqual([edited]);
    expect(model.doStreamCalls).toHaveLength(2);
    // And the other way round: approved as proposed, sent again with an edit.
    const plain = await pending(textStep('Moved.'), textStep('never'));
    await plain.agent.generate({ messages: respondToApproval(plain.first.messages, 'c1', true), run: run() });
    expect((await refused(plain.agent.generate({ messages: approveWithEdits(plain.first.messages, 'c1', edited), run: run() }))).problem).toBe('forged-approval');
    expect(plain.writes).toEqual([proposed]);
  });

  it('with a nonce store that keeps no decisions, answers a copy with another edit as the first one ran: its seal records the first edit', async () => {
    const memory = createMemoryNonceStore();
    const nonceStore: NonceStore = { claim: (nonce, expiresAt) => memory.claim(nonce, expiresAt) };
    const { agent, model, writes } = fixtureWith(
      createTicketSigner({ keys, nonceStore }),
      callsStep([['c1', 'update_delivery_date', proposed]]),
      textStep('Moved.'),
      textStep('Moved, as I said.'),
      textStep('ok'),
    );
    const first = await agent.generate({ messages: 'Move A-1001 to Dec 24', run: run() });
    await agent.generate({ messages: approveWithEdits(first.messages, 'c1', edited), run: run() });
    const again = await agent.generate({ messages: approveWithEdits(first.messages, 'c1', { ...edited, new_date: '2027-05-05' }), run: run() });
    expect(writes).toEqual([edited]);
    expect(dataOf<SealPartData>(again.message, SEAL_PART)).toEqual([expect.objectContaining({ toolCallId: 'c1', input: edited })]);
    await agent.generate({ messages: userSays(again.messages, 'thanks'), run: run() });
    const history = JSON.stringify(model.doStreamCalls[3]?.prompt.find((m) => m.role === 'tool')?.content);
    expect(history).toContain('to \\"2026-12-27\\"');
    expect(history).not.toContain('2027-05-05');
  });

  it('takes edited arguments in a text turn too', async () => {
    const { agent, model, writes } = fixture(callsStep([['c1', 'update_delivery_date', proposed]]), textStep('Moved to Dec 27.'));
    const first = await generateTextTurn(agent, { messages: 'Move A-1001', run: run() });
    expect(first.pending).toEqual([expect.objectContaining({ toolCallId: 'c1', kind: 'approval', editable: ['new_date'] })]);
    const second = await generateTextTurn(agent, { messages: first.messages, approvals: { c1: { approved: true, input: edited } }, run: run() });
    expect(writes).toEqual([edited]);
    expect(second.text).toBe('Moved to Dec 27.');
    const [result] = lastToolResults(model.doGenerateCalls[1]) as unknown as [{ output: { value: string } }];
    expect(result.output.value).toMatch(/^The user edited your arguments before approving this call: new_date changed from "2026-12-24" to "2026-12-27"/);
  });
});
