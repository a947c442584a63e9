// Before every test: wipe every binding's storage (test/reset-storage.ts: D1 included, checked), then apply migrations/
// (schema + seed) to D1, so each test starts from the same twelve seeded orders. After every test: no chat turn may
// still be running, since its writes would land in a later test's D1 (test files share a workerd, `isolate: false`).
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach } from 'vitest';
import { drainUnreadStreams } from './chat-client.ts';
import { resetStorage } from './reset-storage.ts';

beforeEach(async () => {
  await resetStorage();
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
});

afterEach(async () => {
  const unread = await drainUnreadStreams();
  if (unread.length > 0) throw new Error(`The test never read ${unread.join(', ')}: read every stream to its end (readTurn, readBody).`);
});
