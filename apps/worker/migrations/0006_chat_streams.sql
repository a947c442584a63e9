-- Resumable chat turns (src/chat-stream-store.ts): a turn whose client went away goes on and is recorded here, so a reload
-- resumes it (GET /api/chat/:id/stream). Nothing is written for a turn whose client stays. One recording per owner's
-- chat (key): a newer turn's replaces it. Chunks are SSE event texts, written in batches (one row per batch, a JSON
-- array). A cancel mark (DELETE /api/chat/:id/stream, the Stop button) stops a detached turn started before it.
CREATE TABLE chat_streams (
  key TEXT PRIMARY KEY,
  turn_id TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  ended TEXT
);
CREATE INDEX chat_streams_expiry ON chat_streams (expires_at);
CREATE TABLE chat_stream_chunks (
  key TEXT NOT NULL,
  turn_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  count INTEGER NOT NULL,
  chunks TEXT NOT NULL,
  PRIMARY KEY (key, turn_id, position)
);
CREATE TABLE chat_stream_cancels (
  key TEXT PRIMARY KEY,
  at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX chat_stream_cancels_expiry ON chat_stream_cancels (expires_at);
