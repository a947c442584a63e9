/** Something the chat tells a screen reader: `key` names what it is about (an answer and its waiting calls, a question). */
export interface Announcement {
  readonly key: string;
  readonly text: string;
}

/** What the announcer said last, and how many announcements it has made (which live region holds the latest). */
export interface AnnouncerState {
  readonly last: Announcement | undefined;
  readonly count: number;
  /** The conversation it speaks for (the chat id): another one empties both regions. */
  readonly scope: string;
  /** Whether the regions hold `last`: not before this page's first announcement, nor after the conversation changed. */
  readonly speaking: boolean;
}

/** The announcer as a page (or a conversation put in place of another) first shows it: what it would say counts as said. */
export function quietAnnouncer(scope: string, next: Announcement | undefined, count = 0): AnnouncerState {
  return { last: next?.text === '' ? undefined : next, count, scope, speaking: false };
}

/**
 * The announcer after a render of the conversation `scope` that would say `next` (`undefined`: nothing to say now, as
 * while an answer streams). A new announcement is one whose key or text differs from the last one made; the same one
 * again (a re-render, or the same answer back after a pause) is not made twice, and nothing to say keeps the last one
 * where it is. Another conversation (a new chat, one taken over from another tab) empties both regions: what they held
 * was about the one that went, and what the new one shows at once counts as said, as on load.
 */
export function nextAnnouncer(state: AnnouncerState, next: Announcement | undefined, scope: string = state.scope): AnnouncerState {
  if (scope !== state.scope) return quietAnnouncer(scope, next, state.count);
  if (next === undefined || next.text === '') return state;
  if (state.last !== undefined && state.last.key === next.key && state.last.text === next.text) return state;
  return { last: next, count: state.count + 1, scope, speaking: true };
}

/**
 * The text of the announcer's two live regions: each new announcement goes to the other one, and the one it leaves is
 * emptied, so an answer with the same words as the one before is still a change that screen readers read (many skip a
 * region whose new text equals what it said last). None before the first announcement of this page or conversation.
 */
export function announcerRegions(state: AnnouncerState): readonly [string, string] {
  const text = !state.speaking || state.last === undefined ? '' : state.last.text;
  return state.count % 2 === 1 ? [text, ''] : ['', text];
}
