import { type RefObject, useEffect, useRef } from 'react';

/** The last element that had focus, and whether it belonged to the message box's form. */
interface LastFocus {
  readonly element: Element;
  readonly inComposer: boolean;
}

/**
 * Hands focus back to the message box when the focused control disappears: Stop once the turn ends, the
 * approval buttons once answered, a date picker once used, a suggestion once sent. Without it focus falls to
 * `<body>`. On touch screens only the composer's own controls hand it back, so answering a card does not pop
 * up the on-screen keyboard. Checks after every render of the calling component.
 */
export function useFocusReturn(input: RefObject<HTMLTextAreaElement | null>): void {
  const last = useRef<LastFocus | undefined>(undefined);

  useEffect(() => {
    const onFocusIn = (event: FocusEvent) => {
      if (!(event.target instanceof Element)) return;
      const form = input.current?.form;
      last.current = { element: event.target, inComposer: form ? form.contains(event.target) : false };
    };
    document.addEventListener('focusin', onFocusIn);
    return () => document.removeEventListener('focusin', onFocusIn);
  }, [input]);

  useEffect(() => {
    const previous = last.current;
    if (!previous || previous.element.isConnected) return;
    const active = document.activeElement;
    if (active !== null && active !== document.body) return;
    if (!previous.inComposer && window.matchMedia('(pointer: coarse)').matches) return;
    last.current = undefined;
    input.current?.focus({ preventScroll: true });
  });
}
