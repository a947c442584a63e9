import { useState } from 'react';
import { type Announcement, type AnnouncerState, nextAnnouncer, quietAnnouncer } from './announcer.ts';

/**
 * The announcer's state for what the page would say now in the conversation `scope` (see `nextAnnouncer`). What it
 * would say when it first renders (a conversation restored by a reload) counts as said: a screen reader does not read a
 * region's first content.
 */
export function useAnnouncer(next: Announcement | undefined, scope: string): AnnouncerState {
  const [state, setState] = useState<AnnouncerState>(() => quietAnnouncer(scope, next));
  const updated = nextAnnouncer(state, next, scope);
  // Kept during render (React's pattern for state derived from the previous render), so the new text shows at once.
  if (updated !== state) setState(updated);
  return updated;
}
