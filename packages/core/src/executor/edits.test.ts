import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createRunContext } from '../context/run-context.ts';
import { redact } from '../interceptors/redact.ts';
import { createRegistry } from '../registry/registry.ts';
import { createTicketSigner } from '../tickets/index.ts';
import { imagePart } from '../tool/model-content.ts';
import { defineTool } from '../tool/define-tool.ts';
import { argumentEdits, editNote, withEditNote } from './edits.ts';
import { createExecutor } from './executor.ts';

const keys = [{ id: 'k1', secret: 'a-test-secret-that-is-at-least-32-bytes-long' }];
const proposed = { order_id: 'A-1001', new_date: '2026-12-24' };
const call = { id: 'call-1', name: 'update_delivery_date', arguments: proposed };

function setup(policy: { editable?: boolean | readonly string[]; needsApproval?: boolean | ((input: { order_id: string; new_date: string }) => boolean) } = {}) {
  const ran: unknown[] = [];
  const tool = defineTool({
    name: 'update_delivery_date',
    description: 'Change the delivery date of an order.',
    input: v.object({ order_id: v.pipe(v.string(), v.regex(/^A-\d{4}$/)), new_date: v.pipe(v.string(), v.isoDate()), reason: v.optional(v.string()) }),
    policy: {
      effects: 'write',
      editable: policy.editable ?? ['new_date', 'reason'],
      ...(policy.needsApproval === undefined ? {} : { needsApproval: policy.needsApproval }),
      check: ({ new_date }) => {
        if (new_date < '2026-01-01') throw new Error(`${new_date} is in the past`);
      },
    },
    execute: (input) => {
      ran.push(input);
      return { ...input, updated: true };
    },
  });
  const tickets = createTicketSigner({ keys });
  const executor = createExecutor({ registry: [tool], tickets });
  const run = createRunContext({ conversationId: 'conv-1' });
  const ticket = async () => {
    const pending = await executor.execute(call, { run });
    if (pending.outcome.type !== 'approval-required' || pending.outcome.ticket === undefined) throw new Error('expected an approval request');
    return pending.outcome.ticket;
  };
  return { executor, run, ticket, ran };
}

const errorOf = (outcome: { type: string; error?: { code: string; message: string } }) => (outcome.type === 'error' ? outcome.error : undefined);

describe('argumentEdits', () => {
  it('lists the changed top-level arguments in the proposal order, added ones last; key order and equal values do not count', () => {
    expect(argumentEdits({ a: 1, b: { x: [1, 2], y: 'z' }, c: 'same' }, { c: 'same', b: { y: 'z', x: [1, 2] }, a: 2, d: true })).toEqual([
      { key: 'a', from: 1, to: 2 },
      { key: 'd', from: undefined, to: true },
    ]);
    expect(argumentEdits({ a: 1, b: 2 }, { a: 1 })).toEqual([{ key: 'b', from: 2, to: undefined }]);
    expect(argumentEdits({ a: [1, 2] }, { a: [2, 1] })).toEqual([{ key: 'a', from: [1, 2], to: [2, 1] }]);
    expect(argumentEdits({ a: { b: 1 } }, { a: [1] })).toHaveLength(1);
    expect(argumentEdits({ a: 1 }, { a: 1 })).toEqual([]);
  });

  it('a nested key set to undefined is absent, as in JSON (it counted as a change the tool could refuse)', () => {
    // An in-process caller's form object: `note: undefined` is no argument, at the top level and nested alike.
    expect(argumentEdits({ opts: { notify: true } }, { opts: { notify: true, note: undefined }, extra: undefined })).toEqual([]);
    expect(argumentEdits({ opts: { notify: true, note: undefined } }, { opts: { notify: false } })).toEqual([
      { key: 'opts', from: { notify: true, note: undefined }, to: { notify: false } },
    ]);
    // In a list, an undefined item is one (JSON writes null): a list one item longer is changed.
    expect(argumentEdits({ ids: [1] }, { ids: [1, undefined] })).toHaveLength(1);
  });

  it('compares arguments that are not objects as a whole', () => {
    expect(argumentEdits('x', 'y')).toEqual([{ key: '', from: 'x', to: 'y' }]);
    expect(argumentEdits([1], [1])).toEqual([]);
    expect(argumentEdits({ a: 1 }, [1])).toEqual([{ key: '', from: { a: 1 }, to: [1] }]);
  });

  it('tells the model each change, and that the outcome is for the edited arguments', () => {
    const note = editNote([
      { key: 'new_date', from: '2026-12-24', to: '2026-12-27' },
      { key: 'reason', from: undefined, to: 'holidays' },
      { key: 'note', from: 'x', to: undefined },
    ]);
    expect(note).toBe(
      'The user edited your arguments before approving this call: new_date changed from "2026-12-24" to "2026-12-27"; reason set to "holidays"; note removed (you proposed "x"). The outcome below is for the edited arguments.',
    );
    expect(editNote([{ key: 'body', from: 'a', to: 'b'.repeat(500) }])).toContain(`"${'b'.repeat(199)}…`);
    expect(editNote([{ key: '', from: 1n, to: 2 }])).toContain('the arguments changed from 1 to 2');
  });

  it('values nested deeper than the stack or cyclic: compared as changed, named as values JSON cannot show, never a throw', () => {
    const deep = (depth: number): unknown[] => {
      let value: unknown[] = [];
      for (let i = 0; i < depth; i++) value = [value];
      return value;
    };
    expect(argumentEdits({ a: deep(1_000_000), b: 1 }, { a: deep(1_000_000), b: 1 })).toEqual([expect.objectContaining({ key: 'a' })]);
    // Whether the engine's JSON.stringify reaches that deep differs (Node's stack does not; workerd's and Chromium's do).
    expect(editNote([{ key: 'a', from: 1, to: deep(1_000_000) }])).toMatch(/^The user edited your arguments before approving this call: a changed from 1 to (\(a value JSON cannot show\)|\[\[\[)/);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(editNote([{ key: 'a', from: 1, to: cycle }])).toContain('a changed from 1 to (a value JSON cannot show)');
  });

  it('puts the note before text, or as a text part before parts; no edits, no note', () => {
    const edits = [{ key: 'a', from: 1, to: 2 }];
    expect(withEditNote('result', edits)).toMatch(/^The user edited your arguments .*\nresult$/);
    const image = imagePart(new Uint8Array([1, 2, 3]), 'image/png');
    expect(withEditNote([image], edits)).toEqual([{ type: 'text', text: editNote(edits) }, image]);
    expect(withEditNote('result', [])).toBe('result');
    expect(withEditNote('result', undefined)).toBe('result');
  });
});

describe('approving with edited arguments', () => {
  it('runs the call once with the edited arguments, on the ticket issued for the proposed ones; the model reads what changed', async () => {
    const s = setup();
    const ticket = await s.ticket();
    const input = { ...proposed, new_date: '2026-12-27', reason: 'the customer is away' };
    const result = await s.executor.execute(call, { run: s.run, approval: { approved: true, ticket, input } });
    expect(result.outcome).toMatchObject({ type: 'success', output: { new_date: '2026-12-27', updated: true } });
    expect(s.ran).toEqual([input]);
    expect(result.input).toEqual(input);
    expect(result.call.arguments).toBe(proposed);
    expect(result.edits).toEqual([
      { key: 'new_date', from: '2026-12-24', to: '2026-12-27' },
      { key: 'reason', from: undefined, to: 'the customer is away' },
    ]);
    expect(result.content).toBe(`${editNote(result.edits ?? [])}\n${JSON.stringify(result.outcome.type === 'success' ? result.outcome.output : null)}`);
    // Single use, edited or not.
    const again = await s.executor.execute(call, { run: s.run, approval: { approved: true, ticket, input } });
    expect(errorOf(again.outcome)?.code).toBe('ticket-invalid');
    expect(s.ran).toHaveLength(1);
  });

  it('takes edited arguments as JSON text too, and an edit that changes nothing adds no note', async () => {
    const s = setup();
    const result = await s.executor.execute(call, { run: s.run, approval: { approved: true, ticket: await s.ticket(), input: JSON.stringify({ new_date: '2026-12-24', order_id: 'A-1001' }) } });
    expect(result.outcome.type).toBe('success');
    expect(result.edits).toBeUndefined();
    expect(result.content).not.toMatch(/edited/);
  });

  it('refuses a change of an argument the tool does not let a human edit: nothing runs, the ticket stays unused', async () => {
    const s = setup();
    const ticket = await s.ticket();
    const result = await s.executor.execute(call, { run: s.run, approval: { approved: true, ticket, input: { order_id: 'A-2002', new_date: '2026-12-27' } } });
    expect(errorOf(result.outcome)).toMatchObject({ code: 'invalid-input' });
    expect(result.content).toContain('lets a human edit only "new_date", "reason" (changed: "order_id")');
    expect(s.ran).toEqual([]);
    // The refusal came before the ticket was checked: the unedited approval still goes through.
    expect((await s.executor.execute(call, { run: s.run, approval: { approved: true, ticket } })).outcome.type).toBe('success');
  });

  it('refuses every edit of a tool that is not editable, and replacing the arguments as a whole unless any edit is allowed', async () => {
    const closed = setup({ editable: false });
    const refused = await closed.executor.execute(call, { run: closed.run, approval: { approved: true, ticket: await closed.ticket(), input: { ...proposed, new_date: '2026-12-25' } } });
    expect(refused.content).toContain('lets a human edit none of its arguments (changed: "new_date")');
    const partly = setup();
    const whole = await partly.executor.execute(call, { run: partly.run, approval: { approved: true, ticket: await partly.ticket(), input: ['A-1001'] } });
    expect(whole.content).toContain('(changed: the arguments as a whole)');
    const open = setup({ editable: true });
    const any = await open.executor.execute(call, { run: open.run, approval: { approved: true, ticket: await open.ticket(), input: { order_id: 'A-2002', new_date: '2026-12-25' } } });
    expect(any.outcome.type).toBe('success');
    expect(closed.ran).toEqual([]);
    expect(partly.ran).toEqual([]);
  });

  it('validates the edited arguments again and runs the check on them: invalid or refused edits run nothing', async () => {
    const s = setup();
    const invalid = await s.executor.execute(call, { run: s.run, approval: { approved: true, ticket: await s.ticket(), input: { ...proposed, new_date: 'next week' } } });
    expect(errorOf(invalid.outcome)?.code).toBe('invalid-input');
    expect(invalid.content).toMatch(/^Error \(invalid-input\): The user approved the call with edited arguments that are invalid; it was not performed\. Invalid arguments for "update_delivery_date"\.\n- new_date: /);
    const past = await s.executor.execute(call, { run: s.run, approval: { approved: true, ticket: await s.ticket(), input: { ...proposed, new_date: '2025-01-01' } } });
    expect(errorOf(past.outcome)?.message).toBe('2025-01-01 is in the past');
    expect(past.content).toMatch(/^The user edited your arguments before approving this call: new_date changed from "2026-12-24" to "2025-01-01"\. .*\nError \(execution-failed\)/);
    const polluted = await s.executor.execute(call, {
      run: s.run,
      approval: { approved: true, ticket: await s.ticket(), input: '{"order_id":"A-1001","new_date":"2026-12-27","__proto__":{"admin":true}}' },
    });
    expect(errorOf(polluted.outcome)?.code).toBe('invalid-json');
    expect(polluted.content).toContain('The user approved the call with edited arguments that were refused');
    expect(s.ran).toEqual([]);
  });

  it('ignores edited arguments on a denial', async () => {
    const s = setup();
    const denied = await s.executor.execute(call, { run: s.run, approval: { approved: false, ticket: await s.ticket(), input: { order_id: 'A-2002' } } });
    expect(errorOf(denied.outcome)?.code).toBe('approval-denied');
    expect(denied.edits).toBeUndefined();
    // The model's own invalid arguments are the model's, whatever the denial carried.
    const invalid = { ...call, arguments: { order_id: 'A-1001', new_date: 'soon' } };
    const refused = await s.executor.execute(invalid, { run: s.run, approval: { approved: false, input: { order_id: 'A-1001', new_date: '2026-12-27' } } });
    expect(refused.content).toMatch(/^Error \(invalid-input\): Invalid arguments for "update_delivery_date"\.\n/);
  });

  it('checks the ticket of an edit even when the rule would not ask for the edited arguments', async () => {
    // Dates before 2027 need no approval: an edit moving a 2027 date into 2026 must still carry a valid ticket.
    const s = setup({ needsApproval: ({ new_date }) => new_date >= '2027-01-01' });
    const late = { id: 'call-2', name: 'update_delivery_date', arguments: { order_id: 'A-1001', new_date: '2027-03-01' } };
    const input = { order_id: 'A-1001', new_date: '2026-12-27' };
    const forged = await s.executor.execute(late, { run: s.run, approval: { approved: true, ticket: 'et1.k1.forged.forged', input } });
    expect(errorOf(forged.outcome)?.code).toBe('ticket-invalid');
    expect(s.ran).toEqual([]);
    const pending = await s.executor.execute(late, { run: s.run });
    const ticket = pending.outcome.type === 'approval-required' ? pending.outcome.ticket : undefined;
    expect((await s.executor.execute(late, { run: s.run, approval: { approved: true, ticket, input } })).outcome.type).toBe('success');
    expect(s.ran).toEqual([input]);
  });
});

  it("masks the fields redact() hides in the note the model reads (it named the human's new secret in full)", async () => {
    const ran: unknown[] = [];
    const tool = defineTool({
      name: 'connect',
      description: 'Connects a mailbox.',
      input: v.object({ host: v.string(), auth: v.object({ user: v.string(), password: v.string() }), api_key: v.optional(v.string()) }),
      policy: { effects: 'write', editable: ['host', 'auth', 'api_key'] },
      interceptors: [redact({ fields: ['password'] })],
      execute: (input) => {
        ran.push(input);
        return 'connected';
      },
    });
    const executor = createExecutor({ registry: createRegistry({ tools: [tool], interceptors: [redact({ fields: ['api_key'] })] }), tickets: createTicketSigner({ keys }) });
    const run = createRunContext({ conversationId: 'conv-1' });
    const proposal = { id: 'c-1', name: 'connect', arguments: { host: 'imap.a', auth: { user: 'ann', password: 'guess' } } };
    const pending = await executor.execute(proposal, { run });
    const ticket = pending.outcome.type === 'approval-required' ? pending.outcome.ticket : undefined;
    const input = { host: 'imap.b', auth: { user: 'ann', password: 'hunter2-real' }, api_key: 'sk-live-123' };
    const result = await executor.execute(proposal, { run, approval: { approved: true, ticket, input } });
    expect(result.content).toBe(
      'The user edited your arguments before approving this call: host changed from "imap.a" to "imap.b"; ' +
        'auth changed from {"user":"ann","password":"[redacted]"} to {"user":"ann","password":"[redacted]"}; api_key set to "[redacted]". ' +
        'The outcome below is for the edited arguments.\nconnected',
    );
    // The tool ran with the real values, and the caller's edits keep them (the chat loop rebuilds the input from them).
    expect(ran).toEqual([input]);
    expect(result.edits?.map((edit) => edit.to)).toEqual(['imap.b', input.auth, 'sk-live-123']);
  });

describe('policy.editable', () => {
  const base = { name: 't', description: 'd', input: v.object({ a: v.string(), b: v.number() }), execute: () => 1 } as const;

  it('defaults to false and keeps a copy of the list', () => {
    expect(defineTool({ ...base, policy: { effects: 'write' } }).policy.editable).toBe(false);
    const names = ['a'];
    const tool = defineTool({ ...base, policy: { effects: 'write', editable: names } });
    names.push('b');
    expect(tool.policy.editable).toEqual(['a']);
    expect(Object.isFrozen(tool.policy.editable)).toBe(true);
  });

  it('refuses a bad value, names the input does not have, and edits without approvals', () => {
    expect(() => defineTool({ ...base, policy: { effects: 'write', editable: [] } })).toThrow('editable must be true, false or a non-empty list of argument names');
    expect(() => defineTool({ ...base, policy: { effects: 'write', editable: 'a' as never } })).toThrow('editable must be');
    expect(() => defineTool({ ...base, policy: { effects: 'write', editable: ['a', 'c'] } })).toThrow('Tool "t": editable names arguments its input does not have (c); it has a, b.');
    expect(() => defineTool({ ...base, policy: { effects: 'write', needsApproval: false, editable: true } })).toThrow('so it needs approvals');
    expect(() => defineTool({ ...base, policy: { editable: ['a'] } })).toThrow('so it needs approvals');
  });
});
