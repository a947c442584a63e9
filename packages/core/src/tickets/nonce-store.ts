/**
 * Remembers used ticket nonces so every ticket works once. Back it with shared storage (D1, a Durable
 * Object, Redis) when more than one process verifies tickets.
 */
export interface NonceStore {
  /**
   * Atomically marks a nonce used until `expiresAt` (epoch ms; the ticket's expiry, after which the
   * entry may be forgotten). Resolves `false` if it was already used.
   */
  claim(nonce: string, expiresAt: number): Promise<boolean>;
  /** Optional: whether the nonce is claimed and not yet forgotten. Lets `verify(..., { consume: false })` report a used ticket. */
  has?(nonce: string): Promise<boolean>;
  /**
   * Optional: `claim` that keeps `decision` (a short string: what was decided with the ticket) with the nonce, in the same
   * atomic write. Resolves `true` when this call claimed it, else the decision kept by the claim that did (`null`: none).
   * Lets `verify(..., { decision })` tell a request sent again from one that decides otherwise; without it, it cannot.
   */
  claimDecision?(nonce: string, expiresAt: number, decision: string): Promise<true | string | null>;
}

/** Options for {@link createMemoryNonceStore}. */
export interface MemoryNonceStoreOptions {
  /** Most unexpired nonces held at once (default 10,000). Beyond it `claim` rejects rather than forget one. */
  readonly maxEntries?: number;
  /** Clock in epoch ms (default `Date.now`); give the signer the same one. */
  readonly now?: () => number;
}

/** Default for {@link MemoryNonceStoreOptions.maxEntries}. */
export const DEFAULT_MAX_NONCE_ENTRIES = 10_000;

/**
 * An in-memory {@link NonceStore} for one process (tests, a single Node server, a browser). Expired
 * entries are pruned; when full of unexpired ones it fails closed (rejects) instead of evicting a
 * nonce whose ticket could then be replayed. Not shared between Worker isolates.
 */
/* @__NO_SIDE_EFFECTS__ */
export function createMemoryNonceStore(options: MemoryNonceStoreOptions = {}): NonceStore {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_NONCE_ENTRIES;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError('createMemoryNonceStore: maxEntries must be a positive integer');
  }
  const now = options.now ?? Date.now;
  /** nonce → [expiresAt, decision], in insertion order. */
  const used = new Map<string, readonly [number, string | null]>();

  function prune(time: number, all: boolean): void {
    for (const [nonce, [expiresAt]] of used) {
      if (expiresAt <= time) used.delete(nonce);
      else if (!all) return; // cheap path: stop at the first live entry (expiries mostly arrive in order)
    }
  }

  function claimDecision(nonce: string, expiresAt: number, decision: string | null): Promise<true | string | null> {
    // Synchronous up to the returned promise, so concurrent claims of one nonce cannot both win.
    const time = now();
    prune(time, false);
    const previous = used.get(nonce);
    if (previous !== undefined && previous[0] > time) return Promise.resolve(previous[1]);
    used.delete(nonce);
    if (expiresAt <= time) return Promise.resolve(true); // already expired: nothing to remember
    if (used.size >= maxEntries) prune(time, true);
    if (used.size >= maxEntries) {
      return Promise.reject(new RangeError(`Memory nonce store is full (${maxEntries} unexpired tickets); raise maxEntries or use a shared store`));
    }
    used.set(nonce, [expiresAt, decision]);
    return Promise.resolve(true);
  }

  return {
    claim: (nonce, expiresAt) => claimDecision(nonce, expiresAt, null).then((claimed) => claimed === true),
    claimDecision,
    has(nonce) {
      const entry = used.get(nonce);
      return Promise.resolve(entry !== undefined && entry[0] > now());
    },
  };
}
