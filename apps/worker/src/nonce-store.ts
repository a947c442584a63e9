import type { NonceStore } from '@edgetool/core';

/** Options for {@link createD1NonceStore}. */
export interface D1NonceStoreOptions {
  /** Clock in epoch ms (default `Date.now`); give the ticket signer the same one. */
  readonly now?: () => number;
  /** Expired rows deleted per claim at most (default 100), so pruning never turns into a long write. */
  readonly pruneBatch?: number;
}

const PRUNE =
  'DELETE FROM ticket_nonces WHERE nonce IN (SELECT nonce FROM ticket_nonces WHERE expires_at <= ?1 ORDER BY expires_at LIMIT ?2)';

/**
 * Inserts the nonce with its decision (NULL: none), or takes over a row whose ticket has expired; a live row is left
 * alone, so `changes` is 1 exactly for the one claim that wins, whatever the concurrency.
 */
const CLAIM = `INSERT INTO ticket_nonces (nonce, expires_at, decision) VALUES (?1, ?2, ?4)
  ON CONFLICT (nonce) DO UPDATE SET expires_at = excluded.expires_at, decision = excluded.decision WHERE ticket_nonces.expires_at <= ?3`;

/** The decision a live row keeps: read in the claim's batch (one transaction), so it is the winning claim's. */
const DECISION = 'SELECT decision FROM ticket_nonces WHERE nonce = ?1';

/**
 * A {@link NonceStore} over the `ticket_nonces` table of D1, shared by every isolate of the Worker,
 * so a ticket works once however many isolates see it. Each claim is one atomic statement (plus a
 * bounded prune of expired rows in the same batch, one round trip). `claimDecision` keeps the decision
 * in that same statement and reads back the winner's in the same batch: still one round trip, no extra write.
 */
export function createD1NonceStore(db: D1Database, options: D1NonceStoreOptions = {}): NonceStore {
  const now = options.now ?? Date.now;
  const pruneBatch = options.pruneBatch ?? 100;
  if (!Number.isInteger(pruneBatch) || pruneBatch < 0) throw new RangeError('createD1NonceStore: pruneBatch must be a non-negative integer');

  /** Claims `nonce` keeping `decision`: `true` when this claim won, else the decision the winner kept (`null`: none). */
  async function claimDecision(nonce: string, expiresAt: number, decision: string | null): Promise<true | string | null> {
    if (typeof nonce !== 'string' || nonce === '') throw new TypeError('A nonce must be a non-empty string');
    if (!Number.isFinite(expiresAt)) throw new TypeError('expiresAt must be a finite epoch-ms number');
    const time = now();
    if (expiresAt <= time) return true; // already expired: the signer refuses the ticket anyway; nothing to remember
    const claim = db.prepare(CLAIM).bind(nonce, Math.floor(expiresAt), time, decision);
    const prune = pruneBatch === 0 ? [] : [db.prepare(PRUNE).bind(time, pruneBatch)];
    const [won, kept] = (await db.batch<{ decision: string | null }>([...prune, claim, db.prepare(DECISION).bind(nonce)])).slice(-2);
    return won?.meta.changes === 1 ? true : (kept?.results[0]?.decision ?? null);
  }

  return {
    claim: async (nonce, expiresAt) => (await claimDecision(nonce, expiresAt, null)) === true,
    claimDecision,
    async has(nonce) {
      const row = await db.prepare('SELECT 1 AS used FROM ticket_nonces WHERE nonce = ?1 AND expires_at > ?2').bind(nonce, now()).first();
      return row !== null;
    },
  };
}
