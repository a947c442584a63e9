import type { CallResultStore, RecordedCallResult } from '@edgetool/ai';

/** Options for {@link createD1CallResultStore}. */
export interface D1CallResultStoreOptions {
  /** Clock in epoch ms (default `Date.now`). */
  readonly now?: () => number;
  /** Expired rows deleted per write at most (default 100). */
  readonly pruneBatch?: number;
}

const PRUNE = 'DELETE FROM call_results WHERE key IN (SELECT key FROM call_results WHERE expires_at <= ?1 ORDER BY expires_at LIMIT ?2)';
const PUT = 'INSERT INTO call_results (key, result, expires_at) VALUES (?1, ?2, ?3) ON CONFLICT (key) DO UPDATE SET result = excluded.result, expires_at = excluded.expires_at';

/**
 * A {@link CallResultStore} over the `call_results` table of D1, shared by every isolate: whichever isolate gets the
 * same continuation again answers it with the result the first one recorded.
 */
export function createD1CallResultStore(db: D1Database, options: D1CallResultStoreOptions = {}): CallResultStore {
  const now = options.now ?? Date.now;
  const pruneBatch = options.pruneBatch ?? 100;
  return {
    async get(key) {
      const row = await db.prepare('SELECT result FROM call_results WHERE key = ?1 AND expires_at > ?2').bind(key, now()).first<{ result: string }>();
      if (row === null) return undefined;
      try {
        return JSON.parse(row.result) as RecordedCallResult;
      } catch {
        return undefined; // a row that is not ours to read: as if nothing was recorded
      }
    },
    async put(key, result, expiresAt) {
      // Outputs are JSON data (they go to the model and the client as JSON); undefined becomes null. The arguments a human
      // edited are kept: a replay is sealed with them.
      const edited = 'input' in result ? { input: result.input } : {};
      const text = JSON.stringify('output' in result ? { output: result.output ?? null, ...edited } : { errorText: result.errorText, ...edited });
      await db.batch([db.prepare(PRUNE).bind(now(), pruneBatch), db.prepare(PUT).bind(key, text, Math.floor(expiresAt))]);
    },
  };
}
