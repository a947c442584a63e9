// Before every test: wipe every binding's storage, then apply migrations/ (schema + seed) to D1,
// so each test starts from the same twelve seeded orders.
import { applyD1Migrations, reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeEach } from 'vitest';

beforeEach(async () => {
  await reset();
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
});
