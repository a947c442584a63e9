// Not in the barrel: how the usage meter (usage.ts) and the token budget (loop-parts.ts) read a provider's count.

/** Whether `n` is a token count: a finite number from 0 (a broken provider can report a negative one). */
export function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0;
}
