import { createElement, StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';

interface ProbeProps {
  readonly hook: (props: never) => unknown;
  readonly value: unknown;
  readonly box: { current: unknown };
}

/** Calls the hook under test on every render and keeps its latest result. */
function Probe({ hook, value, box }: ProbeProps): null {
  box.current = hook(value as never);
  return null;
}

/**
 * Renders a hook in a real DOM and exposes its latest result. In StrictMode by default, like apps in development;
 * `strict: false` renders as a production build does (effects run once: a page load after a reload).
 */
export function renderHook<P, R>(hook: (props: P) => R, props: P, options: { readonly strict?: boolean } = {}): { readonly current: R; rerender(next: P): void; unmount(): void } {
  const strict = options.strict ?? true;
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  const box: { current: unknown } = { current: undefined };
  const render = (value: P) =>
    flushSync(() => {
      const probe = createElement(Probe, { hook: hook as ProbeProps['hook'], value, box });
      root.render(strict ? createElement(StrictMode, null, probe) : probe);
    });
  render(props);
  return {
    get current() {
      if (box.current === undefined) throw new Error('the hook has not rendered yet');
      return box.current as R;
    },
    rerender: render,
    unmount: () => {
      root.unmount();
      container.remove();
    },
  };
}
