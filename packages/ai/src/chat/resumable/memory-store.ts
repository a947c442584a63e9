import { MAX_RESUMABLE_APPEND_BYTES, type ResumableEnd, type ResumableStore } from './store.ts';

/** Options for {@link createMemoryResumableStore}. */
export interface MemoryResumableStoreOptions {
  /** Clock in epoch ms (default `Date.now`): recordings and marks past their expiry are gone. */
  readonly now?: () => number;
}

interface Recording {
  turnId: string;
  chunks: string[];
  end: ResumableEnd | undefined;
  startedAt: number;
  expiresAt: number;
}

/**
 * A {@link ResumableStore} in this process's memory (Node servers with one process, tests). A Worker's isolates share
 * no memory: there, use a database (the demo's D1 store). Like one, it refuses an append over
 * {@link MAX_RESUMABLE_APPEND_BYTES}.
 */
export function createMemoryResumableStore(options: MemoryResumableStoreOptions = {}): ResumableStore {
  const now = options.now ?? Date.now;
  const recordings = new Map<string, Recording>();
  const marks = new Map<string, { at: number; expiresAt: number }>();
  const encoder = new TextEncoder();
  const mark = (key: string) => {
    const found = marks.get(key);
    if (found !== undefined && found.expiresAt <= now()) marks.delete(key);
    return found !== undefined && found.expiresAt > now() ? found.at : undefined;
  };
  const live = (key: string) => {
    const found = recordings.get(key);
    if (found !== undefined && found.expiresAt <= now()) recordings.delete(key);
    return found !== undefined && found.expiresAt > now() ? found : undefined;
  };
  return {
    async append({ key, turnId, position, chunks, startedAt, expiresAt }) {
      // As a database refuses a row too large: a writer that sends more than an append may hold fails here too.
      const bytes = chunks.reduce((sum, chunk) => sum + encoder.encode(chunk).byteLength, 0);
      if (bytes > MAX_RESUMABLE_APPEND_BYTES) throw new RangeError(`An append holds at most ${MAX_RESUMABLE_APPEND_BYTES} bytes; this one has ${bytes}.`);
      const at = mark(key);
      if (at !== undefined && at >= startedAt) return true;
      let recording = live(key);
      if (chunks.length === 0) {
        if (recording?.turnId === turnId) recording.expiresAt = expiresAt;
        return false;
      }
      if (position === 0 || recording?.turnId !== turnId) {
        if (position !== 0) return false; // the turn's recording was replaced by a newer one: nothing to add to
        recording = { turnId, chunks: [], end: undefined, startedAt, expiresAt };
        recordings.set(key, recording);
      }
      recording.chunks.splice(position, chunks.length, ...chunks);
      recording.expiresAt = expiresAt;
      return false;
    },
    async finish(key, turnId, end) {
      const recording = live(key);
      if (recording?.turnId === turnId) recording.end = end;
    },
    async read(key, from) {
      const recording = live(key);
      if (recording === undefined) return undefined;
      const { turnId, end, startedAt, expiresAt } = recording;
      return { turnId, chunks: recording.chunks.slice(from), end, startedAt, cancelledAt: mark(key), expiresAt };
    },
    async cancel(key, at, expiresAt) {
      const before = marks.get(key);
      if (before === undefined || before.at <= at) marks.set(key, { at, expiresAt });
    },
  };
}
