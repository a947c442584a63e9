// Emptying every binding's storage before a test. `reset()` from cloudflare:test deletes the storage of the Durable
// Objects that are running when it is called, and in workerd D1 is one: when D1's object is not running, `reset()`
// leaves the whole database as it was. That happened at the start of a test file in the same workerd (the first
// reset of a file took 2 to 10 ms instead of 15 to 125, and kept every table): the last test of the previous file left
// its rows to the next one (forged-continuations' denied nonce became the load test's 21st; a real ticket's nonce
// showed up in the nonce store's tests). test/reset-storage.test.ts shows it with abortAllDurableObjects().
import { reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';

/** The tables of the test D1 (none once its storage is deleted), without SQLite's and D1's own (`_cf_METADATA`). */
export async function d1Tables(): Promise<string[]> {
  const tables = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT GLOB 'sqlite_*' AND name NOT GLOB '_cf_*' ORDER BY name";
  const { results } = await env.DB.prepare(tables).all<{ name: string }>();
  return results.map((row) => row.name);
}

/**
 * Deletes every binding's storage, D1's included: a read first starts D1's Durable Object so that `reset()` deletes
 * it, and a D1 that still has tables afterwards fails here, named, instead of as a count that is one off later.
 */
export async function resetStorage(): Promise<void> {
  await env.DB.prepare('SELECT 1').first();
  await reset();
  const left = await d1Tables();
  if (left.length > 0) throw new Error(`reset() left the test D1 as it was (tables ${left.join(', ')}): this test would read an earlier test's rows.`);
}
