import { type RefObject, useCallback, useEffect, useRef } from 'react';

/** How close to the end (px) still counts as "at the bottom". */
const SLACK_PX = 48;

/** Keys that scroll a focused scroll container up. */
const UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);

/**
 * Pins or unpins: a pinned container has no scroll anchoring. The browser's anchoring keeps a line in view in place as
 * content above it changes height (text rewrapped in a narrower window), which scrolls the container: read as the
 * user's scroll, it unpinned the list, and the end was left out of view. Unpinned, the reader's line keeps it.
 */
function stick(stuck: { current: boolean }, element: HTMLElement | null, value: boolean): void {
  stuck.current = value;
  if (element) element.style.overflowAnchor = value ? 'none' : '';
}

/**
 * Keeps a scroll container pinned to its end while its content grows (streamed text, new cards, a taller
 * composer, a narrower window), until the user scrolls up; scrolling back to the end pins it again. `pin()` pins and
 * scrolls at once, for a message the user just sent. Nothing moves while `active` is false (the welcome screen).
 */
export function useStickToBottom(container: RefObject<HTMLElement | null>, active: boolean): { readonly pin: () => void } {
  const stuck = useRef(true);
  const enabled = useRef(active);
  enabled.current = active;

  const pin = useCallback(() => {
    const element = container.current;
    stick(stuck, element, true);
    if (element) element.scrollTop = element.scrollHeight;
  }, [container]);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    stick(stuck, element, stuck.current);
    // A finger or the scrollbar holds the list: do not fight it; its position decides once it lets go.
    let holding = false;
    const atBottom = () => element.scrollHeight - element.scrollTop - element.clientHeight <= SLACK_PX;
    const follow = () => {
      if (enabled.current && stuck.current && !holding) element.scrollTop = element.scrollHeight;
    };
    const onScroll = () => {
      stick(stuck, element, atBottom());
    };
    // Wheel and keys are seen before the scroll they cause: unpin first, so a streamed token cannot undo them.
    const onWheel = (event: WheelEvent) => {
      if (event.deltaY < 0) stick(stuck, element, false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (UP_KEYS.has(event.key)) stick(stuck, element, false);
    };
    const onHold = (event: Event) => {
      if (event.type === 'touchstart' || event.target === element) holding = true;
    };
    const onRelease = () => {
      if (!holding) return;
      holding = false;
      stick(stuck, element, atBottom());
    };
    const mutations = new MutationObserver(follow);
    mutations.observe(element, { childList: true, subtree: true, characterData: true });
    const resizes = new ResizeObserver(follow);
    resizes.observe(element);
    element.addEventListener('scroll', onScroll, { passive: true });
    element.addEventListener('wheel', onWheel, { passive: true });
    element.addEventListener('keydown', onKey);
    element.addEventListener('touchstart', onHold, { passive: true });
    element.addEventListener('pointerdown', onHold);
    window.addEventListener('touchend', onRelease);
    window.addEventListener('pointerup', onRelease);
    return () => {
      mutations.disconnect();
      resizes.disconnect();
      element.removeEventListener('scroll', onScroll);
      element.removeEventListener('wheel', onWheel);
      element.removeEventListener('keydown', onKey);
      element.removeEventListener('touchstart', onHold);
      element.removeEventListener('pointerdown', onHold);
      window.removeEventListener('touchend', onRelease);
      window.removeEventListener('pointerup', onRelease);
    };
  }, [container]);

  return { pin };
}
