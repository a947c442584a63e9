import { describe, expect, it } from 'vitest';
import { type AnnouncerState, announcerRegions, nextAnnouncer } from './announcer.ts';

const start: AnnouncerState = { last: undefined, count: 0 };
/** The regions after each render in turn, as a page shows them. */
const regions = (renders: readonly ({ key: string; text: string } | undefined)[], from = start) => {
  let state = from;
  return renders.map((next) => {
    state = nextAnnouncer(state, next);
    return announcerRegions(state);
  });
};

describe('the chat announcer', () => {
  it('says nothing before the first announcement', () => {
    expect(announcerRegions(start)).toEqual(['', '']);
    expect(regions([undefined, { key: 'answer:a1:', text: '' }])).toEqual([
      ['', ''],
      ['', ''],
    ]);
  });

  it('puts a second answer with the same words in the other region, so the change is read', () => {
    const same = 'Order A-1001 is on its way.';
    expect(regions([{ key: 'answer:a1:', text: same }, undefined, { key: 'answer:a2:', text: same }])).toEqual([
      [same, ''],
      [same, ''],
      ['', same],
    ]);
  });

  it('does not say an answer again when the page renders it again, nor after a pause', () => {
    const answer = { key: 'answer:a1:', text: 'Done.' };
    const first = nextAnnouncer(start, answer);
    expect(nextAnnouncer(first, { ...answer })).toBe(first);
    expect(nextAnnouncer(nextAnnouncer(first, undefined), { ...answer })).toBe(first);
  });

  it('says a new step of the same answer that waits on the user, and a changed text', () => {
    const waits = '1 tool call waits for your approval.';
    const renders = [{ key: 'answer:a1:c1', text: waits }, undefined, { key: 'answer:a1:c2', text: waits }, { key: 'answer:a1:c2', text: `${waits} Done.` }];
    expect(regions(renders)).toEqual([
      [waits, ''],
      [waits, ''],
      ['', waits],
      [`${waits} Done.`, ''],
    ]);
  });

  it('counts what the page showed when it loaded as said', () => {
    const restored: AnnouncerState = { last: { key: 'answer:a1:', text: 'Restored.' }, count: 0 };
    expect(regions([{ key: 'answer:a1:', text: 'Restored.' }, { key: 'question:q1', text: 'A question waits for you.' }], restored)).toEqual([
      ['', ''],
      ['A question waits for you.', ''],
    ]);
  });
});
