// What every test's setup relies on: the storage reset before a test empties D1 whether or not D1's Durable Object is
// running. abortAllDurableObjects() stops it, as it was found stopped at the start of some test files.
import { abortAllDurableObjects, applyD1Migrations, reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { d1Tables, resetStorage } from './reset-storage.ts';

/** A spent nonce of an earlier test, as the forged-continuation tests leave one. */
const leaveANonce = () =>
  env.DB.prepare("INSERT INTO ticket_nonces (nonce, expires_at, decision) VALUES ('earlier', ?1, 'denied')").bind(Date.now() + 60_000).run();

describe('resetStorage', () => {
  it('empties D1 even when its Durable Object is not running', async () => {
    await leaveANonce();
    await abortAllDurableObjects();
    await resetStorage();
    expect(await d1Tables()).toEqual([]);
    await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
    expect((await env.DB.prepare('SELECT nonce FROM ticket_nonces').all()).results).toEqual([]);
  });

  // The runtime's behaviour that resetStorage works around. Should this start failing (reset() empties a D1 that is not
  // running), the read in resetStorage can go; the check after it stays.
  it('is needed: reset() alone leaves a D1 whose Durable Object is not running as it was', async () => {
    await leaveANonce();
    await abortAllDurableObjects();
    await reset();
    expect((await env.DB.prepare('SELECT nonce, decision FROM ticket_nonces').all()).results).toEqual([{ nonce: 'earlier', decision: 'denied' }]);
  });
});
