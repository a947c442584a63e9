import { describe, expect, it } from 'vitest';
import { describeEdits, editedInput, editFields } from './edits.ts';

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
