-- Results of approved tool calls, by conversation and call id: a continuation sent again (its answer was lost) gets
-- the recorded result instead of a refused ticket, and the call does not run twice. See src/call-result-store.ts.
CREATE TABLE call_results (
  key TEXT PRIMARY KEY,
  result TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX call_results_expires_at ON call_results (expires_at);
