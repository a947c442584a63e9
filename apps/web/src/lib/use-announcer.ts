import { useState } from 'react';
import { type Announcement, type AnnouncerState, nextAnnouncer } from './announcer.ts';

/**
 * The announcer's state for what the page would say now (see `nextAnnouncer`). What it would say when it first renders
 * (a conversation restored by a reload) counts as said: a screen reader does not read a region's first content.
 */
export function useAnnouncer(next: Announcement | undefined): AnnouncerState {
  const [state, setState] = useState<AnnouncerState>(() => ({ last: next?.text === '' ? undefined : next, count: 0 }));
  const updated = nextAnnouncer(state, next);
  // Kept during render (React's pattern for state derived from the previous render), so the new text shows at once.
  if (updated !== state) setState(updated);
  return updated;
}
