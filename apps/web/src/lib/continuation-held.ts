import type { ContinuationHold } from '@edgetool/react';

/**
 * What the notice says while the chat holds the continuation the last answer has due (`useEdgeChat`'s
 * `continuationHeld`), and its Continue button sends it; `undefined` when nothing is held, or while a response streams
 * or a browser tool runs (the continuation is on its way, or not due yet). Without it the user saw finished cards and
 * no answer: the answers they hold never reached the model.
 */
export function continuationHeldText(held: ContinuationHold | undefined, busy: boolean): string | undefined {
  if (held === undefined || busy) return undefined;
  return held === 'limit'
    ? 'The answer paused after many steps this page sent by itself in a row: the answers above have not reached the model yet. ' +
        'Continue sends them; a new message takes them along.'
    : 'The server answered without taking the answers above, so this page does not send them again by itself. ' +
        'Continue sends them once more; a new message takes them along.';
}
