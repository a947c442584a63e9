import { EDIT_PART } from '@edgetool/ai';
import { describe, expect, it } from 'vitest';
import { refusedEdit, withEditPart, withSentEdits } from './edits.ts';
import { parseServerTools } from './server-tools.ts';
import { assistant, seal, ticket, toolPart, user } from './test-support/messages.ts';
import { pendingApprovals, toolCallViews, type ViewOptions } from './views.ts';

const serverTools = parseServerTools({
  tools: [{ name: 'move', description: 'Move', inputSchema: { type: 'object' }, policy: { effects: 'write', runsOn: 'server', needsApproval: true } }],
});
const options: ViewOptions = {
  browserTools: new Map(),
  serverTools: new Map(serverTools.map((t) => [t.name, t] as const)),
  browserCalls: new Map(),
  streaming: false,
  mode: 'internal',
};
const edit = (toolCallId: string, input: unknown) => ({ type: EDIT_PART, id: toolCallId, data: { toolCallId, input } });
const approvalTicket = (editable?: true | string[]) => {
  const part = ticket('move', 'c1', 'approval', 'server');
  return { ...part, data: { ...(part.data as object), ...(editable === undefined ? {} : { editable }) } };
};

describe('withEditPart', () => {
  it('adds the edit beside the call, in the message that holds it, replacing an earlier edit of the same call', () => {
    const messages = [user('hi'), assistant([toolPart('move', 'c1', 'approval-requested', { approval: { id: 'a' } }), toolPart('move', 'c2', 'approval-requested')])];
    const once = withEditPart(messages, 'c1', { q: 'edited' });
    expect(once[0]).toBe(messages[0]);
    expect(once[1]?.parts.at(-1)).toEqual(edit('c1', { q: 'edited' }));
    const twice = withEditPart(withEditPart(once, 'c2', { q: 'other' }), 'c1', { q: 'again' });
    expect(twice[1]?.parts.filter((p) => p.type === EDIT_PART)).toEqual([edit('c2', { q: 'other' }), edit('c1', { q: 'again' })]);
    expect(messages[1]?.parts).toHaveLength(2);
    expect(withEditPart(messages, 'nope', {})).toEqual(messages);
  });
});

describe('refusedEdit', () => {
  const view = { toolCallId: 'c1', toolName: 'move', input: { order_id: 'A-1', new_date: '2026-12-24' }, editable: ['new_date'] as readonly string[] | true | undefined };
  it('allows a change of an editable argument, as an object or as JSON text (the server reads both), and any change when editable is true', () => {
    expect(refusedEdit(view, { order_id: 'A-1', new_date: '2026-12-27' })).toBeUndefined();
    expect(refusedEdit(view, '{"order_id":"A-1","new_date":"2026-12-27"}')).toBeUndefined();
    expect(refusedEdit({ ...view, editable: true }, { order_id: 'A-2' })).toBeUndefined();
  });
  it('names what the ticket does not allow: a tool that lets nothing be edited, another argument, text that is not JSON', () => {
    expect(refusedEdit({ ...view, editable: undefined }, view.input)).toBe('"move" lets no argument be edited (its policy.editable); approve without input.');
    expect(refusedEdit(view, '{"order_id":"A-2","new_date":"2026-12-24"}')).toBe('"move" lets a human edit only "new_date" (changed: "order_id").');
    expect(refusedEdit(view, 'A-2')).toBe('"move" lets a human edit only "new_date" (changed: the arguments as a whole).');
  });
});

describe('withSentEdits', () => {
  it('puts back the edit of an approved call that lost it; leaves calls that have one, wait, were denied or ran', () => {
    const approved = toolPart('move', 'c1', 'approval-responded', { approval: { id: 'a', approved: true } });
    const denied = toolPart('move', 'c2', 'approval-responded', { approval: { id: 'b', approved: false } });
    const waiting = toolPart('move', 'c3', 'approval-requested', { approval: { id: 'c' } });
    const messages = [user('hi'), assistant([approved, denied, waiting])];
    const edits = new Map<string, unknown>([['c1', { q: 'one' }], ['c2', { q: 'two' }], ['c3', { q: 'three' }], ['gone', {}]]);
    const restored = withSentEdits(messages, edits);
    expect(restored[1]?.parts.filter((p) => p.type === EDIT_PART)).toEqual([edit('c1', { q: 'one' })]);
    expect(withSentEdits(restored, edits)).toBe(restored);
    const ran = [user('hi'), assistant([toolPart('move', 'c1', 'output-available', { output: 'ok' })])];
    expect(withSentEdits(ran, edits)).toBe(ran);
  });
});

describe('views of editable approvals', () => {
  it('an approval says what may be edited (from its ticket); pending approvals too', () => {
    const views = toolCallViews([user('hi'), assistant([toolPart('move', 'c1', 'approval-requested', { approval: { id: 'a' } }), approvalTicket(['new_date'])])], options);
    expect(views.get('c1')).toMatchObject({ status: 'awaiting-approval', editable: ['new_date'], edits: undefined });
    expect(pendingApprovals(views)).toEqual([expect.objectContaining({ toolCallId: 'c1', editable: ['new_date'] })]);
    const closed = toolCallViews([user('hi'), assistant([toolPart('move', 'c1', 'approval-requested', { approval: { id: 'a' } }), approvalTicket()])], options);
    expect(closed.get('c1')?.editable).toBeUndefined();
    expect(pendingApprovals(closed)[0]?.editable).toBeUndefined();
  });

  it('the edits: from the approval sent until the result comes, then from the seal; none for a denial or an unchanged edit', () => {
    const approved = toolPart('move', 'c1', 'approval-responded', { approval: { id: 'a', approved: true } });
    const sent = toolCallViews([user('hi'), assistant([approved, edit('c1', { q: 'c1', extra: 1 })])], options).get('c1');
    expect(sent).toMatchObject({ status: 'approved', input: { q: 'c1' }, edits: [{ key: 'extra', from: undefined, to: 1 }] });

    const done = toolPart('move', 'c1', 'output-available', { output: 'ok' });
    const sealed = { ...seal('move', 'c1'), data: { ...(seal('move', 'c1').data as object), input: { q: 'changed' } } };
    // The seal is what the server ran: a stale edit part beside it does not count.
    expect(toolCallViews([user('hi'), assistant([done, sealed, edit('c1', { q: 'other' })])], options).get('c1')?.edits).toEqual([{ key: 'q', from: 'c1', to: 'changed' }]);

    const denied = toolPart('move', 'c1', 'approval-responded', { approval: { id: 'a', approved: false } });
    expect(toolCallViews([user('hi'), assistant([denied, edit('c1', { q: 'x' })])], options).get('c1')?.edits).toBeUndefined();
    expect(toolCallViews([user('hi'), assistant([approved, edit('c1', { q: 'c1' })])], options).get('c1')?.edits).toBeUndefined();
  });
});
