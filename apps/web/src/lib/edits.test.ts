import { jsonSchema } from '@edgetool/core';
import { describe, expect, it } from 'vitest';
import { changedFields, describeEdits, editedInput, editFields, editIssue } from './edits.ts';

const input = { order_id: 'A-1001', new_date: '2026-12-24', count: 2, tags: ['a'], body: 'line one\nline two' };

describe('editFields', () => {
  it('gives each editable argument a control that suits its value, in the order the server lists them', () => {
    expect(editFields(input, ['new_date', 'body', 'count', 'tags', 'reason'])).toEqual([
      { key: 'new_date', kind: 'date', initial: '2026-12-24' },
      { key: 'body', kind: 'long-text', initial: 'line one\nline two' },
      { key: 'count', kind: 'number', initial: '2' },
      { key: 'tags', kind: 'json', initial: '[\n  "a"\n]' },
      { key: 'reason', kind: 'text', initial: '' },
    ]);
    expect(editFields({ a: 'x' }, true)).toEqual([{ key: 'a', kind: 'text', initial: 'x' }]);
    expect(editFields(input, undefined)).toEqual([]);
    expect(editFields('not an object', true)).toEqual([]);
  });

  it('a date that does not exist stays text: a date control would show it empty', () => {
    const asked = { a: '2027-02-29', b: '2026-13-01', c: '2026-04-31', d: '0000-01-01', e: '2028-02-29', f: '2026-12-31' };
    expect(editFields(asked, true).map((field) => field.kind)).toEqual(['text', 'text', 'text', 'text', 'date', 'date']);
    // Corrected in the text field to a day that exists, or left as the model asked.
    const fields = editFields(asked, ['a']);
    expect(editedInput(asked, fields, { a: '2027-02-28' })).toMatchObject({ ok: true, input: { ...asked, a: '2027-02-28' } });
    expect(editedInput(asked, fields, {})).toMatchObject({ ok: true, input: undefined });
  });
});

describe('editFields with the tool\'s JSON Schema', () => {
  // update_delivery_date with optional arguments of each kind, as GET /api/tools gives it (a strict schema's nullable forms too).
  const schema = {
    type: 'object',
    properties: {
      order_id: { type: 'string' },
      new_date: { type: 'string', format: 'date' },
      reason: { type: 'string' },
      days: { type: 'integer', minimum: 0 },
      weight: { type: ['number', 'null'] },
      urgent: { type: 'boolean' },
      tags: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
      note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      mystery: {},
    },
  };
  const asked = { order_id: 'A-1001', new_date: '2026-12-24' };
  const keys = ['reason', 'days', 'weight', 'urgent', 'tags', 'note', 'mystery', 'unknown'];

  it('an argument the model left out gets the control its schema asks for', () => {
    expect(editFields(asked, keys, schema)).toEqual([
      { key: 'reason', kind: 'text', initial: '' },
      { key: 'days', kind: 'number', initial: '' },
      { key: 'weight', kind: 'number', initial: '' },
      { key: 'urgent', kind: 'json', initial: '' },
      { key: 'tags', kind: 'json', initial: '' },
      { key: 'note', kind: 'text', initial: '' },
      { key: 'mystery', kind: 'text', initial: '' },
      { key: 'unknown', kind: 'text', initial: '' },
    ]);
    expect(editFields({ order_id: 'A-1001' }, ['new_date'], schema)).toEqual([{ key: 'new_date', kind: 'date', initial: '' }]);
    // The model's value decides when there is one.
    expect(editFields({ ...asked, days: 'three' }, ['days'], schema)).toEqual([{ key: 'days', kind: 'text', initial: 'three' }]);
  });

  it('so a number typed there is sent as a number, JSON as its value, and a field left empty stays out', () => {
    const fields = editFields(asked, keys, schema);
    expect(editedInput(asked, fields, { days: '3', urgent: 'true', tags: '["gift"]' })).toMatchObject({ ok: true, input: { ...asked, days: 3, urgent: true, tags: ['gift'] } });
    expect(editedInput(asked, fields, { days: 'three' })).toEqual({ ok: false, key: 'days', message: 'days: enter a number.' });
    expect(editedInput(asked, fields, { days: ' ' })).toEqual({ ok: true, input: undefined, edits: [] });
  });
});

describe('editedInput', () => {
  const fields = editFields(input, ['new_date', 'count', 'tags', 'reason']);

  it('nothing changed: approve as the model asked', () => {
    expect(editedInput(input, fields, {})).toEqual({ ok: true, input: undefined, edits: [] });
    expect(editedInput(input, fields, { new_date: '2026-12-24', reason: '' })).toMatchObject({ input: undefined });
  });

  it('the whole arguments with the changes, typed like the model\'s values', () => {
    const result = editedInput(input, fields, { new_date: '2026-12-27', count: '3', tags: '["b"]', reason: 'holiday' });
    expect(result).toEqual({
      ok: true,
      input: { ...input, new_date: '2026-12-27', count: 3, tags: ['b'], reason: 'holiday' },
      edits: [
        { key: 'new_date', from: '2026-12-24', to: '2026-12-27' },
        { key: 'count', from: 2, to: 3 },
        { key: 'tags', from: ['a'], to: ['b'] },
        { key: 'reason', from: undefined, to: 'holiday' },
      ],
    });
  });

  it('names the field whose value cannot be read', () => {
    expect(editedInput(input, fields, { count: 'three' })).toEqual({ ok: false, key: 'count', message: 'count: enter a number.' });
    expect(editedInput(input, fields, { tags: '[b' })).toEqual({ ok: false, key: 'tags', message: 'tags: enter valid JSON.' });
    // A date control gives '' when it is emptied or holds a date it cannot read (a day left out): no date to send.
    expect(editedInput(input, fields, { new_date: '' })).toEqual({ ok: false, key: 'new_date', message: 'new_date: enter a date.' });
    expect(editedInput(input, fields, { new_date: '2027-02-29' })).toEqual({ ok: false, key: 'new_date', message: 'new_date: enter a date.' });
  });
});

describe('describeEdits', () => {
  it('one line for the card', () => {
    expect(
      describeEdits([
        { key: 'new_date', from: '2026-12-24', to: '2026-12-27' },
        { key: 'reason', from: undefined, to: 'holiday' },
        { key: 'note', from: 'x', to: undefined },
        { key: 'count', from: 2, to: 3 },
      ]),
    ).toBe('new_date "2026-12-24" → "2026-12-27"; reason set to "holiday"; note removed; count 2 → 3');
  });
});

describe('changedFields', () => {
  it('names the fields the user changed from the model\'s value, not those typed back to it', () => {
    const fields = editFields({ new_date: '2027-01-05', reason: 'late' }, ['new_date', 'reason']);
    expect(changedFields(fields, {})).toEqual([]);
    expect(changedFields(fields, { new_date: '2027-01-05' })).toEqual([]);
    expect(changedFields(fields, { new_date: '2027-01-09', reason: 'late' })).toEqual(['new_date']);
  });
});

describe('editIssue', () => {
  // send_email's input schema as GET /api/tools gives it: the server refuses an edit it fails, and the call ends unperformed.
  const schema = {
    type: 'object',
    properties: {
      order_id: { type: 'string', pattern: '^A-\\d{4}$' },
      subject: { type: 'string', minLength: 1, maxLength: 200 },
      body: { type: 'string', minLength: 1, maxLength: 5000 },
    },
    required: ['order_id', 'subject', 'body'],
  };
  const asked = { order_id: 'A-1001', subject: 'Your order', body: 'It ships today.' };

  it("names a changed field the tool's schema refuses, as the server would refuse it", async () => {
    const validator = jsonSchema(schema);
    const issue = await editIssue(validator, { ...asked, subject: '' }, ['subject']);
    expect(issue?.key).toBe('subject');
    expect(issue?.message).toMatch(/^subject: .*short/i);
    expect(await editIssue(validator, { ...asked, body: 'x'.repeat(5001) }, ['body'])).toMatchObject({ key: 'body' });
    // Once the validator has loaded, the answer comes at once (the click decides within its own tick).
    expect(editIssue(validator, { ...asked, subject: '' }, ['subject'])).not.toBeInstanceOf(Promise);
  });

  it('lets valid edits go, looks only at what the user changed, and checks nothing without a schema', async () => {
    const validator = jsonSchema(schema);
    expect(await editIssue(validator, { ...asked, subject: 'Shipped' }, ['subject'])).toBeUndefined();
    // The model's own arguments were checked before the approval was asked: not the user's to fix.
    expect(await editIssue(validator, { ...asked, order_id: 'nope', subject: 'Shipped' }, ['subject'])).toBeUndefined();
    expect(await editIssue(validator, { ...asked, subject: '' }, [])).toBeUndefined();
    expect(editIssue(undefined, { ...asked, subject: '' }, ['subject'])).toBeUndefined();
  });
});
