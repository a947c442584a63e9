import type { ResumableStore } from '@edgetool/ai';

/** Options for {@link createD1ChatStreamStore}. */
export interface D1ChatStreamStoreOptions {
  /** Clock in epoch ms (default `Date.now`). */
  readonly now?: () => number;
  /** Expired recordings deleted per new recording, and expired marks per new recording or mark, at most (default 20). */
  readonly pruneBatch?: number;
}

/** A cancel mark of the key made at or after the turn's start (?2), not expired (?3). */
const CANCELLED = 'SELECT 1 FROM chat_stream_cancels WHERE key = ?1 AND at >= ?2 AND expires_at > ?3';
const MARK = `SELECT at FROM chat_stream_cancels WHERE key = ?1 AND at >= ?2 AND expires_at > ?3`;
const START = `INSERT INTO chat_streams (key, turn_id, started_at, expires_at, ended) SELECT ?1, ?4, ?2, ?5, NULL WHERE NOT EXISTS (${CANCELLED})
  ON CONFLICT (key) DO UPDATE SET turn_id = excluded.turn_id, started_at = excluded.started_at, expires_at = excluded.expires_at, ended = NULL`;
const CLEAR = `DELETE FROM chat_stream_chunks WHERE key = ?1 AND turn_id <> ?4 AND NOT EXISTS (${CANCELLED})`;
const RENEW = `UPDATE chat_streams SET expires_at = ?5 WHERE key = ?1 AND turn_id = ?4 AND NOT EXISTS (${CANCELLED})`;
const ADD = `INSERT INTO chat_stream_chunks (key, turn_id, position, count, chunks)
  SELECT ?1, ?4, ?6, ?7, ?8 WHERE EXISTS (SELECT 1 FROM chat_streams WHERE key = ?1 AND turn_id = ?4) AND NOT EXISTS (${CANCELLED})
  ON CONFLICT (key, turn_id, position) DO NOTHING`;
const PRUNE_CHUNKS = 'DELETE FROM chat_stream_chunks WHERE key IN (SELECT key FROM chat_streams WHERE expires_at <= ?1 ORDER BY expires_at LIMIT ?2)';
const PRUNE_STREAMS = 'DELETE FROM chat_streams WHERE key IN (SELECT key FROM chat_streams WHERE expires_at <= ?1 ORDER BY expires_at LIMIT ?2)';
const PRUNE_MARKS = 'DELETE FROM chat_stream_cancels WHERE key IN (SELECT key FROM chat_stream_cancels WHERE expires_at <= ?1 ORDER BY expires_at LIMIT ?2)';

/** A row's chunks (a JSON array of strings), or `undefined` when it holds anything else. */
function parseChunks(text: string): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.every((chunk) => typeof chunk === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A {@link ResumableStore} over D1 (migrations/0006_chat_streams.sql), shared by every isolate: the reload's GET may reach
 * another isolate than the detached turn. Each write is one D1 batch (one round trip): the cancel mark is read in it, and
 * nothing is written when there is one. An append is one row: its chunks as a JSON array, at most
 * `MAX_RESUMABLE_APPEND_BYTES` (256 KiB) of text, well under D1's 2,000,000 bytes a row even escaped.
 */
export function createD1ChatStreamStore(db: D1Database, options: D1ChatStreamStoreOptions = {}): ResumableStore {
  const now = options.now ?? Date.now;
  const pruneBatch = options.pruneBatch ?? 20;
  return {
    async append({ key, turnId, position, chunks, startedAt, expiresAt }) {
      const time = now();
      const bind = (sql: string) => db.prepare(sql).bind(key, startedAt, time, turnId, Math.floor(expiresAt));
      const statements = [db.prepare(MARK).bind(key, startedAt, time)];
      if (position === 0) {
        statements.push(db.prepare(PRUNE_CHUNKS).bind(time, pruneBatch), db.prepare(PRUNE_STREAMS).bind(time, pruneBatch), db.prepare(PRUNE_MARKS).bind(time, pruneBatch));
        statements.push(bind(START), db.prepare(CLEAR).bind(key, startedAt, time, turnId));
      } else statements.push(bind(RENEW));
      if (chunks.length > 0) {
        statements.push(db.prepare(ADD).bind(key, startedAt, time, turnId, Math.floor(expiresAt), position, chunks.length, JSON.stringify(chunks)));
      }
      const [mark] = await db.batch(statements);
      return (mark?.results.length ?? 0) > 0;
    },
    async finish(key, turnId, end) {
      await db.prepare('UPDATE chat_streams SET ended = ?3 WHERE key = ?1 AND turn_id = ?2').bind(key, turnId, end).run();
    },
    async read(key, from) {
      const time = now();
      const [stream, batches, mark] = await db.batch([
        db.prepare('SELECT turn_id, started_at, expires_at, ended FROM chat_streams WHERE key = ?1 AND expires_at > ?2').bind(key, time),
        db
          .prepare(
            'SELECT position, count, chunks FROM chat_stream_chunks WHERE key = ?1 AND turn_id = (SELECT turn_id FROM chat_streams WHERE key = ?1) AND position + count > ?2 ORDER BY position',
          )
          .bind(key, from),
        db.prepare('SELECT at FROM chat_stream_cancels WHERE key = ?1 AND expires_at > ?2').bind(key, time),
      ]);
      const row = stream?.results[0] as { turn_id: string; started_at: number; expires_at: number; ended: string | null } | undefined;
      if (row === undefined) return undefined;
      const chunks: string[] = [];
      // The rows must join up from `from` on, each its `count` chunks of text: one another version wrote, or one
      // tampered with, is an error (never a replay with bytes missing, doubled or out of order).
      let next = from;
      for (const batch of (batches?.results ?? []) as { position: number; count: number; chunks: string }[]) {
        const parsed = parseChunks(batch.chunks);
        if (parsed === undefined || parsed.length !== batch.count || batch.position > next || (next !== from && batch.position !== next)) {
          throw new Error(`The recording's row at ${batch.position} does not follow on from chunk ${next}, or is not a list of chunks.`);
        }
        chunks.push(...parsed.slice(next - batch.position));
        next = batch.position + parsed.length;
      }
      const at = (mark?.results[0] as { at: number } | undefined)?.at;
      if (row.ended !== null && row.ended !== 'done' && row.ended !== 'cancelled') throw new Error(`The recording's end ${JSON.stringify(row.ended)} is none.`);
      const end = row.ended ?? undefined;
      return { turnId: row.turn_id, chunks, end, startedAt: row.started_at, cancelledAt: at, expiresAt: row.expires_at };
    },
    async cancel(key, at, expiresAt) {
      // Every Stop writes a mark, most with no detached turn to stop (and so no new recording to prune them): each
      // prunes a few expired ones itself, or the table would grow with every click.
      await db.batch([
        db.prepare(PRUNE_MARKS).bind(now(), pruneBatch),
        db
          .prepare(
            'INSERT INTO chat_stream_cancels (key, at, expires_at) VALUES (?1, ?2, ?3) ON CONFLICT (key) DO UPDATE SET at = MAX(at, excluded.at), expires_at = MAX(expires_at, excluded.expires_at)',
          )
          .bind(key, Math.floor(at), Math.floor(expiresAt)),
      ]);
    },
  };
}
