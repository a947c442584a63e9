/** Something the chat tells a screen reader: `key` names what it is about (an answer and its waiting calls, a question). */
export interface Announcement {
  readonly key: string;
  readonly text: string;
}

/** What the announcer said last, and how many announcements it has made (which live region holds the latest). */
export interface AnnouncerState {
  readonly last: Announcement | undefined;
  readonly count: number;
}

/**
 * The announcer after a render that would say `next` (`undefined`: nothing to say now, as while an answer streams).
 * A new announcement is one whose key or text differs from the last one made; the same one again (a re-render, or
 * the same answer back after a pause) is not made twice, and nothing to say keeps the last one where it is.
 */
export function nextAnnouncer(state: AnnouncerState, next: Announcement | undefined): AnnouncerState {
  if (next === undefined || next.text === '') return state;
  if (state.last !== undefined && state.last.key === next.key && state.last.text === next.text) return state;
  return { last: next, count: state.count + 1 };
}

/**
 * The text of the announcer's two live regions: each new announcement goes to the other one, and the one it leaves is
 * emptied, so an answer with the same words as the one before is still a change that screen readers read (many skip a
 * region whose new text equals what it said last). None before the first announcement of this page.
 */
export function announcerRegions(state: AnnouncerState): readonly [string, string] {
  const text = state.count === 0 || state.last === undefined ? '' : state.last.text;
  return state.count % 2 === 1 ? [text, ''] : ['', text];
}
