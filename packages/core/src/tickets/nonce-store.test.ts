import { describe, expect, it } from 'vitest';
import { createMemoryNonceStore } from './nonce-store.ts';

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, advance: (ms) => (time += ms) };
}

describe('createMemoryNonceStore', () => {
  it('lets each nonce be claimed once', async () => {
    const c = clock();
    const store = createMemoryNonceStore({ now: c.now });
    expect(await store.claim('n1', c.now() + 1000)).toBe(true);
    expect(await store.claim('n1', c.now() + 1000)).toBe(false);
    expect(await store.claim('n2', c.now() + 1000)).toBe(true);
  });

  it('reports claimed, unexpired nonces through has()', async () => {
    const c = clock();
    const store = createMemoryNonceStore({ now: c.now });
    expect(await store.has?.('n')).toBe(false);
    await store.claim('n', c.now() + 10);
    expect(await store.has?.('n')).toBe(true);
    c.advance(10);
    expect(await store.has?.('n')).toBe(false);
  });

  it('lets exactly one of many concurrent claims win', async () => {
    const store = createMemoryNonceStore();
    const results = await Promise.all(Array.from({ length: 10 }, () => store.claim('same', Date.now() + 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('forgets a nonce once its expiry has passed', async () => {
    const c = clock();
    const store = createMemoryNonceStore({ now: c.now });
    expect(await store.claim('n', c.now() + 1000)).toBe(true);
    c.advance(999);
    expect(await store.claim('n', c.now() + 1000)).toBe(false);
    c.advance(1);
    expect(await store.claim('n', c.now() + 1000)).toBe(true);
  });

  it('fails closed when full of unexpired nonces instead of evicting one', async () => {
    const c = clock();
    const store = createMemoryNonceStore({ maxEntries: 3, now: c.now });
    for (const n of ['a', 'b', 'c']) expect(await store.claim(n, c.now() + 1000)).toBe(true);
    await expect(store.claim('d', c.now() + 1000)).rejects.toThrow(/full/);
    // nothing was evicted: all three are still single-use
    for (const n of ['a', 'b', 'c']) expect(await store.claim(n, c.now() + 1000)).toBe(false);
  });

  it('prunes expired entries to make room, even when expiries arrive out of order', async () => {
    const c = clock();
    const store = createMemoryNonceStore({ maxEntries: 3, now: c.now });
    expect(await store.claim('long', c.now() + 10_000)).toBe(true); // blocks the cheap front-of-queue prune
    expect(await store.claim('short1', c.now() + 100)).toBe(true);
    expect(await store.claim('short2', c.now() + 100)).toBe(true);
    await expect(store.claim('x', c.now() + 100)).rejects.toThrow(RangeError);
    c.advance(100);
    expect(await store.claim('y', c.now() + 100)).toBe(true);
    expect(await store.claim('z', c.now() + 100)).toBe(true);
    await expect(store.claim('w', c.now() + 100)).rejects.toThrow(RangeError);
    expect(await store.claim('long', c.now() + 10_000)).toBe(false);
  });

  it('stays bounded under a long stream of claims', async () => {
    const c = clock();
    const store = createMemoryNonceStore({ maxEntries: 50, now: c.now });
    for (let i = 0; i < 5000; i++) {
      expect(await store.claim(`n${i}`, c.now() + 10)).toBe(true);
      c.advance(1);
    }
  });

  it('does not store a nonce that is already expired', async () => {
    const c = clock();
    const store = createMemoryNonceStore({ maxEntries: 1, now: c.now });
    expect(await store.claim('old', c.now())).toBe(true);
    expect(await store.claim('fresh', c.now() + 1)).toBe(true);
  });

  it('keeps a decision with the nonce it claims and gives it to every later claim, until the nonce expires', async () => {
    const c = clock();
    const store = createMemoryNonceStore({ now: c.now });
    expect(await store.claimDecision?.('n', c.now() + 1000, 'approved')).toBe(true);
    expect(await store.claimDecision?.('n', c.now() + 1000, 'denied')).toBe('approved');
    expect(await store.claim('n', c.now() + 1000)).toBe(false);
    expect(await store.has?.('n')).toBe(true);
    // A nonce claimed without one keeps none.
    expect(await store.claim('plain', c.now() + 1000)).toBe(true);
    expect(await store.claimDecision?.('plain', c.now() + 1000, 'denied')).toBe(null);
    // Once expired, the nonce and its decision are forgotten.
    c.advance(1000);
    expect(await store.claimDecision?.('n', c.now() + 1000, 'denied')).toBe(true);
    expect(await store.claimDecision?.('n', c.now() + 1000, 'approved')).toBe('denied');
  });

  it('lets exactly one of many concurrent decisions win, and tells the others what it decided', async () => {
    const store = createMemoryNonceStore();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.claimDecision?.('same', Date.now() + 60_000, `d${i}`)));
    expect(results).toEqual([true, ...Array.from({ length: 9 }, () => 'd0')]);
  });

  it('rejects a bad maxEntries', () => {
    expect(() => createMemoryNonceStore({ maxEntries: 0 })).toThrow(RangeError);
    expect(() => createMemoryNonceStore({ maxEntries: 1.5 })).toThrow(RangeError);
  });
});
