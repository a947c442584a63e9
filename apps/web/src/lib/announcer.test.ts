import { describe, expect, it } from 'vitest';
import { type AnnouncerState, announcerRegions, nextAnnouncer, quietAnnouncer } from './announcer.ts';

const start: AnnouncerState = quietAnnouncer('chat-1', undefined);
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
    const restored = quietAnnouncer('chat-1', { key: 'answer:a1:', text: 'Restored.' });
    expect(regions([{ key: 'answer:a1:', text: 'Restored.' }, { key: 'question:q1', text: 'A question waits for you.' }], restored)).toEqual([
      ['', ''],
      ['A question waits for you.', ''],
    ]);
  });

  it('empties both regions when the conversation is replaced, and the next one speaks in the other region', () => {
    const question = { key: 'question:call_0', text: 'A question waits for you: Which day? Pick a date in the tool call\'s card.' };
    const asked = nextAnnouncer(start, question);
    expect(announcerRegions(asked)).toEqual([question.text, '']);
    // "New chat": the question went with the conversation; nothing is said of the new one yet.
    const replaced = nextAnnouncer(asked, undefined, 'chat-2');
    expect(announcerRegions(replaced)).toEqual(['', '']);
    expect(announcerRegions(nextAnnouncer(replaced, undefined, 'chat-2'))).toEqual(['', '']);
    // The same question asked again in the new chat is said, in the other region.
    expect(announcerRegions(nextAnnouncer(replaced, { ...question }, 'chat-2'))).toEqual(['', question.text]);
    // A conversation taken over from another tab: its last answer, shown at once, counts as said, as on load.
    const resumed = nextAnnouncer(asked, { key: 'answer:b1:', text: 'Restored.' }, 'chat-3');
    expect(announcerRegions(resumed)).toEqual(['', '']);
    expect(nextAnnouncer(resumed, { key: 'answer:b1:', text: 'Restored.' }, 'chat-3')).toBe(resumed);
  });
});
