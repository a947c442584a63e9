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
 * no answer: the answers they hold never reached the model. A hold at the limit says after how many.
 */
export function continuationHeldText(chat: HeldChat): string | undefined {
  const { continuationHeld: held, busy, maxAutoContinuations: limit } = chat;
  if (held === undefined || busy) return undefined;
  return held === 'limit'
    ? `The answer is held after ${limit} automatic ${limit === 1 ? 'continuation' : 'continuations'} in a row (steps this page sent by itself): ` +
        'the answers above have not reached the model yet. Continue sends them; a new message takes them along.'
    : 'The server answered without taking the answers above, so this page does not send them again by itself. ' +
        'Continue sends them once more; a new message takes them along.';
}
