import type { ContinuationHold } from '@edgetool/react';

/** What {@link continuationHeldText} reads of `useEdgeChat`'s result. */
export interface HeldChat {
  readonly continuationHeld: ContinuationHold | undefined;
  readonly busy: boolean;
  readonly maxAutoContinuations: number;
}

/**
 * What the notice says while the chat holds the continuation the last answer has due (`useEdgeChat`'s
 * `continuationHeld`), and its Continue button sends it; `undefined` when nothing is held, or while a response streams
 * or a browser tool runs (the continuation is on its way, or not due yet). Without it the user saw finished cards and
 * no answer: the answers they hold never reached the model. A hold at the limit says after how many (at 0, that the
 * page sends none by itself).
 */
export function continuationHeldText(chat: HeldChat): string | undefined {
  const { continuationHeld: held, busy, maxAutoContinuations: limit } = chat;
  if (held === undefined || busy) return undefined;
  return held === 'limit'
    ? `${heldWhy(limit)} Continue sends them; a new message takes them along.`
    : 'The server answered without taking the answers above, so this page does not send them again by itself. ' +
        'Continue sends them once more; a new message takes them along.';
}

/**
 * Why a hold at the limit came, as a person says it: at 0 the page sends nothing by itself (no run of continuations
 * came before), at 1 it sent one, else that many in a row.
 */
function heldWhy(limit: number): string {
  if (limit === 0) return 'Automatic steps is 0, so this page sends nothing on to the model by itself: the answers above wait for you.';
  const notYet = 'the answers above have not reached the model yet.';
  if (limit === 1) return `The answer is held after one automatic continuation (a step this page sent by itself): ${notYet}`;
  return `The answer is held after ${limit} automatic continuations in a row (steps this page sent by itself): ${notYet}`;
}
