import { describe, expect, it } from 'vitest';
import { continuationHeldText } from './continuation-held.ts';

describe('the notice of a continuation the chat holds', () => {
  it('says why the answer stops there, after how many automatic continuations, and what Continue does', () => {
    expect(continuationHeldText({ continuationHeld: 'limit', busy: false, maxAutoContinuations: 10 })).toBe(
      'The answer is held after 10 automatic continuations in a row (steps this page sent by itself): the answers above have not reached the model yet. ' +
        'Continue sends them; a new message takes them along.',
    );
    expect(continuationHeldText({ continuationHeld: 'limit', busy: false, maxAutoContinuations: 3 })).toMatch(
      /^The answer is held after 3 automatic continuations in a row \(steps this page sent by itself\): /,
    );
    // One is no row, and at 0 nothing was sent by itself: neither says "after 0 continuations" or "1 … in a row".
    expect(continuationHeldText({ continuationHeld: 'limit', busy: false, maxAutoContinuations: 1 })).toBe(
      'The answer is held after one automatic continuation (a step this page sent by itself): the answers above have not reached the model yet. ' +
        'Continue sends them; a new message takes them along.',
    );
    expect(continuationHeldText({ continuationHeld: 'limit', busy: false, maxAutoContinuations: 0 })).toBe(
      'Automatic steps is 0, so this page sends nothing on to the model by itself: the answers above wait for you. Continue sends them; a new message ' +
        'takes them along.',
    );
    expect(continuationHeldText({ continuationHeld: 'untaken', busy: false, maxAutoContinuations: 10 })).toBe(
      'The server answered without taking the answers above, so this page does not send them again by itself. ' +
        'Continue sends them once more; a new message takes them along.',
    );
  });

  it('shows nothing when nothing is held, nor while a response streams or a browser tool runs', () => {
    expect(continuationHeldText({ continuationHeld: undefined, busy: false, maxAutoContinuations: 10 })).toBeUndefined();
    expect(continuationHeldText({ continuationHeld: 'limit', busy: true, maxAutoContinuations: 10 })).toBeUndefined();
    expect(continuationHeldText({ continuationHeld: 'untaken', busy: true, maxAutoContinuations: 10 })).toBeUndefined();
  });
});
