import { describe, expect, it } from 'vitest';
import { continuationHeldText } from './continuation-held.ts';

describe('the notice of a continuation the chat holds', () => {
  it('says why the answer stops there, and what Continue does', () => {
    expect(continuationHeldText('limit', false)).toBe(
      'The answer paused after many steps this page sent by itself in a row: the answers above have not reached the model yet. ' +
        'Continue sends them; a new message takes them along.',
    );
    expect(continuationHeldText('untaken', false)).toBe(
      'The server answered without taking the answers above, so this page does not send them again by itself. ' +
        'Continue sends them once more; a new message takes them along.',
    );
  });

  it('shows nothing when nothing is held, nor while a response streams or a browser tool runs', () => {
    expect(continuationHeldText(undefined, false)).toBeUndefined();
    expect(continuationHeldText('limit', true)).toBeUndefined();
    expect(continuationHeldText('untaken', true)).toBeUndefined();
  });
});
