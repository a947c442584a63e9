// Not in the barrel: what a registry puts in the tools it hands out, so that its `onError` travels with them.
import type { ErrorProcessor } from './registry.ts';

/**
 * A registry made by `createRegistry`, or a tool one of them handed out: `~onError` is the `onError` of the innermost
 * registry that set one (unset when none did). A plain key, so that two bundled copies of the core read each other's.
 */
export type Folded = { readonly '~onError'?: ErrorProcessor | undefined };
