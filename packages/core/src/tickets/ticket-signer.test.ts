import { describe, expect, it } from 'vitest';
import { ToolError } from '../errors/tool-error.ts';
import { canonicalJson } from './canonical-json.ts';
import { createMemoryNonceStore, type NonceStore } from './nonce-store.ts';
import { TicketError, type TicketErrorReason } from './ticket-error.ts';
import { createTicketSigner, DEFAULT_TICKET_TTL_MS, peekTicket, type SealSubject, type TicketKey, type TicketSigner, type TicketSubject } from './ticket-signer.ts';

const SECRET_A = 'a-test-secret-that-is-32-bytes-!';
const SECRET_B = crypto.getRandomValues(new Uint8Array(32));
const KEY_A: TicketKey = { id: 'k1', secret: SECRET_A };
const KEY_B: TicketKey = { id: 'k2', secret: SECRET_B };

const SUBJECT: TicketSubject = {
  purpose: 'approval',
  toolName: 'changeDeliveryDate',
  callId: 'call_1',
  args: { orderId: 'o-42', date: '2026-05-01', options: { notify: true, channels: ['email', { kind: 'sms', to: '+1' }] } },
  conversationId: 'conv_9',
};

function clock(start = 1_700_000_000_000): { now: () => number; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, advance: (ms) => (time += ms) };
}

function signer(keys: readonly TicketKey[] = [KEY_A], extra: { now?: () => number; nonceStore?: NonceStore } = {}): TicketSigner {
  return createTicketSigner({ keys, ...extra });
}

/** Asserts a rejection with a TicketError of that reason (and field), and returns it. */
async function refused(promise: Promise<unknown>, reason: TicketErrorReason, field?: string): Promise<TicketError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(TicketError.isInstance(error), `expected a TicketError (${reason}), got ${String(error)}`).toBe(true);
  const ticketError = error as TicketError;
  expect(ticketError.reason).toBe(reason);
  expect(ticketError.code).toBe('ticket-invalid');
  expect(ticketError.field).toBe(field);
  return ticketError;
}

function segments(ticket: string): [string, string, string, string] {
  return ticket.split('.') as [string, string, string, string];
}

function b64url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function unb64url(text: string): string {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)));
}

/** A store that counts claims, to prove refused tickets never reach it. */
function countingStore(): NonceStore & { claims: number } {
  const inner = createMemoryNonceStore();
  const store = {
    claims: 0,
    claim(nonce: string, expiresAt: number): Promise<boolean> {
      store.claims++;
      return inner.claim(nonce, expiresAt);
    },
  };
  return store;
}

describe('createTicketSigner: round trip', () => {
  it('signs a compact ticket and verifies it for exactly that call', async () => {
    const c = clock();
    const s = signer([KEY_A], { now: c.now });
    const ticket = await s.sign(SUBJECT);
    expect(ticket).toMatch(/^et1\.k1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const claims = await s.verify(ticket, SUBJECT);
    expect(claims).toEqual({
      v: 1,
      purpose: 'approval',
      tool: 'changeDeliveryDate',
      callId: 'call_1',
      argsHash: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      conv: 'conv_9',
      exp: c.now() + DEFAULT_TICKET_TTL_MS,
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      kid: 'k1',
    });
  });

  it('works for client results and with a Uint8Array secret', async () => {
    const s = signer([KEY_B]);
    const subject: TicketSubject = { ...SUBJECT, purpose: 'client-result' };
    expect((await s.verify(await s.sign(subject), subject)).purpose).toBe('client-result');
  });

  it('accepts the same arguments with keys in another order', async () => {
    const s = signer();
    const ticket = await s.sign(SUBJECT);
    const reordered = { options: { channels: ['email', { to: '+1', kind: 'sms' }], notify: true }, date: '2026-05-01', orderId: 'o-42' };
    await expect(s.verify(ticket, { ...SUBJECT, args: reordered })).resolves.toMatchObject({ callId: 'call_1' });
  });

  it('accepts arguments that went through JSON (as they do via the browser)', async () => {
    const s = signer();
    const subject: TicketSubject = { ...SUBJECT, args: { when: new Date(0), skip: undefined } };
    const ticket = await s.sign(subject);
    await expect(s.verify(ticket, { ...subject, args: JSON.parse(JSON.stringify(subject.args)) })).resolves.toBeDefined();
  });

  it('gives every ticket a fresh nonce', async () => {
    const s = signer();
    const [t1, t2] = await Promise.all([s.sign(SUBJECT), s.sign(SUBJECT)]);
    expect(t1).not.toBe(t2);
    expect(s.peek(t1)?.nonce).not.toBe(s.peek(t2)?.nonce);
  });
});

describe('createTicketSigner: origin only', () => {
  it('proves a ticket is this signer’s for exactly that call, even expired or used, and claims nothing', async () => {
    const time = clock();
    const store = countingStore();
    const s = signer([KEY_A], { now: time.now, nonceStore: store });
    const ticket = await s.sign(SUBJECT);
    await s.verify(ticket, SUBJECT);
    expect(store.claims).toBe(1);
    time.advance(DEFAULT_TICKET_TTL_MS + 1);
    await refused(s.verify(ticket, SUBJECT), 'expired');
    expect((await s.verify(ticket, SUBJECT, { origin: true })).callId).toBe('call_1');
    expect(store.claims).toBe(1);
    // Still bound to exactly its call and to this signer's keys.
    await refused(s.verify(ticket, { ...SUBJECT, args: { orderId: 'o-43' } }, { origin: true }), 'mismatch', 'args');
    await refused(signer([KEY_B]).verify(ticket, SUBJECT, { origin: true }), 'unknown-key');
    const [head, kid, payload, mac] = segments(ticket);
    // Another character where the MAC has one of 6 whole bits: writing 'AA' over its end left 1 MAC in ~700 unchanged.
    const forged = `${mac.slice(0, -2)}${mac.at(-2) === 'A' ? 'B' : 'A'}${mac.at(-1)}`;
    await refused(s.verify(`${head}.${kid}.${payload}.${forged}`, SUBJECT, { origin: true }), 'bad-signature');
  });
});

describe('createTicketSigner: subject mismatch', () => {
  const cases: [string, Partial<TicketSubject>][] = [
    ['args', { args: { ...(SUBJECT.args as object), options: { notify: true, channels: ['email', { kind: 'sms', to: '+2' }] } } }],
    ['toolName', { toolName: 'deleteOrder' }],
    ['callId', { callId: 'call_2' }],
    ['conversationId', { conversationId: 'conv_other' }],
    ['purpose', { purpose: 'client-result' }],
  ];
  for (const [field, change] of cases) {
    it(`rejects a different ${field} with reason 'mismatch' and field '${field}'`, async () => {
      const s = signer();
      const ticket = await s.sign(SUBJECT);
      const error = await refused(s.verify(ticket, { ...SUBJECT, ...change }), 'mismatch', field);
      expect(error.message).toContain(field);
      await expect(s.verify(ticket, SUBJECT)).resolves.toBeDefined(); // and did not burn the ticket
    });
  }

  it('rejects a deep change of array order or an added argument', async () => {
    const s = signer();
    const ticket = await s.sign({ ...SUBJECT, args: { ids: [1, 2], nested: { a: [[1], [2]] } } });
    await refused(s.verify(ticket, { ...SUBJECT, args: { ids: [2, 1], nested: { a: [[1], [2]] } } }), 'mismatch', 'args');
    await refused(s.verify(ticket, { ...SUBJECT, args: { ids: [1, 2], nested: { a: [[1], [2, 3]] } } }), 'mismatch', 'args');
    await refused(s.verify(ticket, { ...SUBJECT, args: { ids: [1, 2], nested: { a: [[1], [2]] }, admin: true } }), 'mismatch', 'args');
  });

  it('treats expected arguments with no JSON form as a mismatch, not a crash', async () => {
    const s = signer();
    const ticket = await s.sign(SUBJECT);
    await refused(s.verify(ticket, { ...SUBJECT, args: { n: 1n } }), 'mismatch', 'args');
  });

  it('carries the expected tool name and call id on the error', async () => {
    const s = signer();
    const error = await refused(s.verify(await s.sign(SUBJECT), { ...SUBJECT, callId: 'call_x' }), 'mismatch', 'callId');
    expect(error.toolName).toBe(SUBJECT.toolName);
    expect(error.callId).toBe('call_x');
  });
});

describe('createTicketSigner: expiry', () => {
  it('accepts a ticket until its expiry and rejects it from then on', async () => {
    const c = clock();
    const s = signer([KEY_A], { now: c.now });
    const ticket = await s.sign(SUBJECT);
    c.advance(DEFAULT_TICKET_TTL_MS - 1);
    await expect(s.verify(ticket, SUBJECT, { consume: false })).resolves.toBeDefined();
    c.advance(1);
    await refused(s.verify(ticket, SUBJECT), 'expired');
  });

  it('honours ttlMs from the signer and from sign()', async () => {
    const c = clock();
    const s = createTicketSigner({ keys: [KEY_A], ttlMs: 1000, now: c.now });
    expect(s.peek(await s.sign(SUBJECT))?.exp).toBe(c.now() + 1000);
    const short = await s.sign(SUBJECT, { ttlMs: 10 });
    c.advance(10);
    await refused(s.verify(short, SUBJECT), 'expired');
  });

  it('rejects a bad ttlMs', async () => {
    expect(() => createTicketSigner({ keys: [KEY_A], ttlMs: 0 })).toThrow(RangeError);
    await expect(signer().sign(SUBJECT, { ttlMs: Number.NaN })).rejects.toThrow(RangeError);
  });

  it('works with a clock that has fractions of a millisecond (performance.timeOrigin + performance.now())', async () => {
    // Tickets and seals were malformed to the signer that issued them: a fractional expiry is no integer, and a seal's
    // "1700000900000.25" added a fifth dot-separated part.
    let time = 1_700_000_000_000.25;
    const s = signer([KEY_A], { now: () => time });
    const ticket = await s.sign(SUBJECT, { ttlMs: 1000 });
    const seal = await s.seal({ toolName: 't', callId: 'c', conversationId: 'x', content: 1 }, { ttlMs: 1000 });
    expect(s.peek(ticket)?.exp).toBe(1_700_000_001_000);
    await s.verifySeal(seal, { toolName: 't', callId: 'c', conversationId: 'x', content: 1 });
    time += 999.7; // 1 700 000 000 999.95: still before the expiry
    await expect(s.verify(ticket, SUBJECT, { consume: false })).resolves.toBeDefined();
    time += 0.05;
    await refused(s.verify(ticket, SUBJECT), 'expired');
    await refused(s.verifySeal(seal, { toolName: 't', callId: 'c', conversationId: 'x', content: 1 }), 'expired');
  });

  it('refuses to issue what it could not verify: an expiry that is no time in epoch ms (a broken clock, a huge ttlMs)', async () => {
    // Today's time, read once: the expected words name it, and Date.now itself moved on between sign() and them.
    const today = Date.now();
    for (const [now, ttlMs] of [[() => Number.NaN, 1000], [() => 1e18, 1000], [() => -5000, 1000], [() => today, Number.MAX_SAFE_INTEGER]] as const) {
      const s = signer([KEY_A], { now });
      await expect(s.sign(SUBJECT, { ttlMs })).rejects.toThrow(new RangeError(`sign: now() + ttlMs is no time in epoch ms: ${Math.floor(now()) + ttlMs}`));
      await expect(s.seal({ toolName: 't', callId: 'c', conversationId: 'x', content: 1 }, { ttlMs })).rejects.toThrow(RangeError);
    }
  });
});

describe('createTicketSigner: keys', () => {
  it('rejects a ticket signed with another secret under the same key id', async () => {
    const forger = signer([{ id: 'k1', secret: 'an-attackers-secret-of-32-bytes!' }]);
    await refused(signer().verify(await forger.sign(SUBJECT), SUBJECT), 'bad-signature');
  });

  it('rejects a ticket whose key id is unknown', async () => {
    const other = signer([KEY_B]);
    await refused(signer([KEY_A]).verify(await other.sign(SUBJECT), SUBJECT), 'unknown-key');
  });

  it('supports rotation: the first key signs, every key verifies, a removed key is unknown', async () => {
    const before = signer([KEY_A]);
    const during = signer([KEY_B, KEY_A]);
    const after = signer([KEY_B]);
    const oldTicket = await before.sign(SUBJECT);
    const newTicket = await during.sign(SUBJECT);
    expect(during.peek(newTicket)?.kid).toBe('k2');
    await expect(during.verify(oldTicket, SUBJECT)).resolves.toMatchObject({ kid: 'k1' });
    await expect(after.verify(newTicket, SUBJECT)).resolves.toMatchObject({ kid: 'k2' });
    await refused(after.verify(await before.sign(SUBJECT), SUBJECT), 'unknown-key');
  });

  it('rejects an empty key list, short secrets, bad and duplicate ids, without echoing the secret', () => {
    expect(() => createTicketSigner({ keys: [] })).toThrow(/at least one key/);
    const short = 'x'.repeat(31);
    let error: unknown;
    try {
      createTicketSigner({ keys: [{ id: 'k', secret: short }] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toMatch(/31 bytes; at least 32/);
    expect((error as Error).message).not.toContain(short);
    expect(() => createTicketSigner({ keys: [{ id: 'k', secret: new Uint8Array(16) }] })).toThrow(RangeError);
    expect(() => createTicketSigner({ keys: [{ id: 'k', secret: 'é'.repeat(16) }] })).not.toThrow(); // 32 UTF-8 bytes
    expect(() => createTicketSigner({ keys: [{ id: 'a.b', secret: SECRET_A }] })).toThrow(/id/);
    expect(() => createTicketSigner({ keys: [{ id: '', secret: SECRET_A }] })).toThrow(/id/);
    expect(() => createTicketSigner({ keys: [KEY_A, { id: 'k1', secret: SECRET_B }] })).toThrow(/twice/);
  });

  it('copies a Uint8Array secret, so later mutation does not change the key', async () => {
    const secret = crypto.getRandomValues(new Uint8Array(32));
    const s = signer([{ id: 'k', secret }]);
    const copy = signer([{ id: 'k', secret: new Uint8Array(secret) }]);
    secret.fill(0);
    await expect(copy.verify(await s.sign(SUBJECT), SUBJECT)).resolves.toBeDefined();
  });
});

describe('createTicketSigner: single use', () => {
  it('rejects a replayed ticket', async () => {
    const s = signer();
    const ticket = await s.sign(SUBJECT);
    await s.verify(ticket, SUBJECT);
    await refused(s.verify(ticket, SUBJECT), 'replayed');
  });

  it('does not burn the ticket with consume: false', async () => {
    const s = signer();
    const ticket = await s.sign(SUBJECT);
    await s.verify(ticket, SUBJECT, { consume: false });
    await s.verify(ticket, SUBJECT, { consume: false });
    await s.verify(ticket, SUBJECT);
    await refused(s.verify(ticket, SUBJECT, { consume: false }), 'replayed');
  });

  it('with consume: false and a store without has(), never touches the store', async () => {
    const store = countingStore();
    const s = signer([KEY_A], { nonceStore: store });
    await s.verify(await s.sign(SUBJECT), SUBJECT, { consume: false });
    expect(store.claims).toBe(0);
  });

  it('never claims the nonce for a refused attempt', async () => {
    const c = clock();
    const store = countingStore();
    const s = signer([KEY_A], { now: c.now, nonceStore: store });
    const ticket = await s.sign(SUBJECT);
    const [prefix, kid, payload, sig] = segments(ticket);
    await refused(s.verify(ticket, { ...SUBJECT, args: {} }), 'mismatch', 'args');
    await refused(s.verify(`${prefix}.${kid}.${payload}x.${sig}`, SUBJECT), 'bad-signature');
    await refused(s.verify(ticket.slice(0, -1), SUBJECT), 'malformed');
    expect(store.claims).toBe(0);
    await s.verify(ticket, SUBJECT);
    expect(store.claims).toBe(1);
    const shortLived = await s.sign(SUBJECT, { ttlMs: 1 });
    c.advance(1);
    await refused(s.verify(shortLived, SUBJECT), 'expired');
    expect(store.claims).toBe(1);
  });

  it('lets exactly one of several concurrent verifications through', async () => {
    const s = signer();
    const ticket = await s.sign(SUBJECT);
    const results = await Promise.all(Array.from({ length: 8 }, () => s.safeVerify(ticket, SUBJECT)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const r of results) if (!r.ok) expect(r.error.reason).toBe('replayed');
  });

  it('lets exactly one through when two signers share a nonce store (two servers, one store)', async () => {
    const nonceStore = createMemoryNonceStore();
    const a = signer([KEY_A], { nonceStore });
    const b = signer([KEY_A], { nonceStore });
    const ticket = await a.sign(SUBJECT);
    const results = await Promise.all([a.safeVerify(ticket, SUBJECT), b.safeVerify(ticket, SUBJECT)]);
    expect(results.map((r) => r.ok).sort()).toEqual([false, true]);
  });
});

/** `claimMark` of a signer from `createTicketSigner`, which has one. */
const mark = (s: TicketSigner, ticket: string, name: string): Promise<boolean> => s.claimMark?.(ticket, name) ?? Promise.reject(new Error('no claimMark'));

describe('createTicketSigner: marks', () => {
  it('claims a named mark of a ticket once, apart from the ticket itself, until the ticket expires', async () => {
    const c = clock();
    const keys: [string, number][] = [];
    const memory = createMemoryNonceStore({ now: c.now });
    const nonceStore: NonceStore = {
      ...memory,
      claim: (nonce, expiresAt) => {
        keys.push([nonce, expiresAt]);
        return memory.claim(nonce, expiresAt);
      },
    };
    const s = signer([KEY_A], { now: c.now, nonceStore });
    const ticket = await s.sign(SUBJECT);
    const claims = s.peek(ticket)!;
    expect(await mark(s, ticket, 'started')).toBe(true);
    expect(await mark(s, ticket, 'started')).toBe(false);
    expect(keys).toEqual([[`${claims.nonce} started`, claims.exp], [`${claims.nonce} started`, claims.exp]]);
    // The ticket itself is still unused, and another mark is another claim.
    await s.verify(ticket, SUBJECT);
    expect(await mark(s, ticket, 'finished')).toBe(true);
    // Two signers over one store: one claim wins.
    const other = signer([KEY_A], { now: c.now, nonceStore: memory });
    const fresh = await s.sign(SUBJECT);
    expect((await Promise.all([mark(s, fresh, 'started'), mark(other, fresh, 'started')])).sort()).toEqual([false, true]);
  });

  it('refuses a ticket it did not issue, or that has expired, and a mark that is no lowercase word, claiming nothing', async () => {
    const c = clock();
    const store = countingStore();
    const s = signer([KEY_A], { now: c.now, nonceStore: store });
    const ticket = await s.sign(SUBJECT, { ttlMs: 1_000 });
    const [prefix, kid, payload, sig] = segments(ticket);
    await expect(mark(s, ticket, 'Started now')).rejects.toThrow(TypeError);
    await refused(mark(signer([KEY_B]), ticket, 'started'), 'unknown-key');
    await refused(mark(s, `${prefix}.${kid}.${payload}x.${sig}`, 'started'), 'bad-signature');
    await refused(mark(s, ticket.slice(0, -1), 'started'), 'malformed');
    c.advance(1_000);
    await refused(mark(s, ticket, 'started'), 'expired');
    expect(store.claims).toBe(0);
  });
});

describe('createTicketSigner: decisions', () => {
  it('keeps the decision with the nonce: a used ticket is replayed with the same one, a conflict with another', async () => {
    const s = signer();
    const ticket = await s.sign(SUBJECT);
    await s.verify(ticket, SUBJECT, { decision: 'approved' });
    await refused(s.verify(ticket, SUBJECT, { decision: 'approved' }), 'replayed');
    const conflict = await refused(s.verify(ticket, SUBJECT, { decision: 'denied' }), 'conflict');
    expect(conflict.message).toBe('The ticket has already been used, with another decision.');
    // Without a decision this request cannot be told apart: used is used.
    await refused(s.verify(ticket, SUBJECT), 'replayed');
    await refused(s.verify(ticket, SUBJECT, { consume: false, decision: 'denied' }), 'replayed');
  });

  it('a ticket used without a decision is replayed whatever this one decides', async () => {
    const s = signer();
    const ticket = await s.sign(SUBJECT);
    await s.verify(ticket, SUBJECT);
    const replayed = await refused(s.verify(ticket, SUBJECT, { decision: 'denied' }), 'replayed');
    // Nothing was kept, so nothing is confirmed: only a use that kept this very decision says so.
    expect(replayed.sameDecision).toBeUndefined();
    const other = await s.sign(SUBJECT);
    await s.verify(other, SUBJECT, { decision: 'denied' });
    expect((await refused(s.verify(other, SUBJECT, { decision: 'denied' }), 'replayed')).sameDecision).toBe(true);
  });

  it('a nonce store without claimDecision (written before it) keeps working: used is replayed, never a conflict', async () => {
    const memory = createMemoryNonceStore();
    const old: NonceStore = { claim: (nonce, expiresAt) => memory.claim(nonce, expiresAt) };
    const s = signer([KEY_A], { nonceStore: old });
    const ticket = await s.sign(SUBJECT);
    await s.verify(ticket, SUBJECT, { decision: 'approved' });
    await refused(s.verify(ticket, SUBJECT, { decision: 'denied' }), 'replayed');
    expect((await refused(s.verify(ticket, SUBJECT, { decision: 'approved' }), 'replayed')).sameDecision).toBeUndefined();
  });

  it('lets exactly one of two concurrent decisions through; the other is a conflict', async () => {
    const s = signer();
    const ticket = await s.sign(SUBJECT);
    const results = await Promise.all([s.safeVerify(ticket, SUBJECT, { decision: 'approved' }), s.safeVerify(ticket, SUBJECT, { decision: 'denied' })]);
    expect(results.map((r) => (r.ok ? 'ok' : r.error.reason))).toEqual(['ok', 'conflict']);
  });
});

describe('createTicketSigner: forged and broken tickets', () => {
  it('reports a missing ticket', async () => {
    const s = signer();
    for (const missing of [undefined, null, '']) await refused(s.verify(missing, SUBJECT), 'missing');
  });

  it('reports garbage and truncated tickets as malformed', async () => {
    const s = signer();
    const ticket = await s.sign(SUBJECT);
    const [prefix, kid, payload, sig] = segments(ticket);
    const garbage = [
      'hello',
      'et1.k1.e30',
      `${ticket}.extra`,
      ticket.slice(0, -1),
      ticket.slice(0, ticket.length / 2),
      `et2.${kid}.${payload}.${sig}`,
      `${prefix}.${kid}.${payload}.${sig.slice(0, -1)}=`,
      `${prefix}.${kid}.${payload}+.${sig}`,
      `${prefix}.${kid}..${sig}`,
      `${prefix}.${kid}.${payload}.${'A'.repeat(42)}`, // decodes, but to 31 bytes
      `${prefix}.${kid}.${payload}.${'A'.repeat(44)}`,
      `${prefix}..${payload}.${sig}`,
      ' '.repeat(20),
      'x'.repeat(100_000),
      42 as unknown as string,
    ];
    for (const bad of garbage) await refused(s.verify(bad, SUBJECT), 'malformed');
  });

  it('reports a tampered payload as a bad signature', async () => {
    const s = signer();
    const ticket = await s.sign(SUBJECT);
    const [prefix, kid, payload, sig] = segments(ticket);
    const claims = JSON.parse(unb64url(payload)) as Record<string, unknown>;
    for (const change of [{ tool: 'deleteOrder' }, { exp: Number(claims.exp) + 3_600_000 }, { nonce: 'A'.repeat(22) }]) {
      const forged = b64url(JSON.stringify({ ...claims, ...change }));
      await refused(s.verify(`${prefix}.${kid}.${forged}.${sig}`, SUBJECT), 'bad-signature');
    }
    // the key id is covered by the signature too
    const rotated = signer([KEY_A, { id: 'k9', secret: SECRET_A }]);
    await refused(rotated.verify(`${prefix}.k9.${payload}.${sig}`, SUBJECT), 'bad-signature');
  });

  it('reports a tampered signature as a bad signature', async () => {
    const s = signer();
    const ticket = await s.sign(SUBJECT);
    const [prefix, kid, payload, sig] = segments(ticket);
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    await refused(s.verify(`${prefix}.${kid}.${payload}.${flipped}`, SUBJECT), 'bad-signature');
    await refused(s.verify(`${prefix}.${kid}.${payload}.${'A'.repeat(43)}`, SUBJECT), 'bad-signature');
  });

  it('rejects a correctly signed payload that is not valid claims (defence in depth)', async () => {
    const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(SECRET_A), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const signWith = async (payloadJson: string, kid = 'k1'): Promise<string> => {
      const signed = `et1.${kid}.${b64url(payloadJson)}`;
      const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(signed)));
      return `${signed}.${btoa(String.fromCharCode(...mac)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
    };
    const s = signer([KEY_A, { id: 'k2', secret: SECRET_A }]);
    const claims = s.peek(await s.sign(SUBJECT))!;
    await refused(s.verify(await signWith('not json'), SUBJECT), 'malformed');
    await refused(s.verify(await signWith(JSON.stringify({ ...claims, v: 2 })), SUBJECT), 'malformed');
    await refused(s.verify(await signWith(JSON.stringify({ ...claims, exp: 'never' })), SUBJECT), 'malformed');
    await refused(s.verify(await signWith(JSON.stringify(claims), 'k2'), SUBJECT), 'malformed'); // header kid ≠ claims kid
    await expect(s.verify(await signWith(JSON.stringify(claims)), SUBJECT)).resolves.toEqual(claims);
  });
});

describe('TicketSigner.safeVerify', () => {
  it('returns claims or a TicketError as a value', async () => {
    const s = signer();
    const ticket = await s.sign(SUBJECT);
    const bad = await s.safeVerify(ticket, { ...SUBJECT, toolName: 'other' });
    expect(bad).toMatchObject({ ok: false, error: { reason: 'mismatch', field: 'toolName' } });
    const good = await s.safeVerify(ticket, SUBJECT);
    expect(good.ok && good.claims.callId).toBe('call_1');
    expect(await s.safeVerify(undefined, SUBJECT)).toMatchObject({ ok: false, error: { reason: 'missing' } });
  });

  it('rejects with errors that are not about the ticket (a failing nonce store)', async () => {
    const broken: NonceStore = { claim: () => Promise.reject(new Error('database down')) };
    const s = signer([KEY_A], { nonceStore: broken });
    await expect(s.safeVerify(await s.sign(SUBJECT), SUBJECT)).rejects.toThrow('database down');
  });
});

describe('TicketSigner.peek', () => {
  it('decodes claims without verifying, and undefined for non-tickets', async () => {
    const s = signer();
    const ticket = await s.sign(SUBJECT);
    expect(s.peek(ticket)).toMatchObject({ tool: 'changeDeliveryDate', callId: 'call_1', conv: 'conv_9', kid: 'k1' });
    expect(signer([KEY_B]).peek(ticket)?.callId).toBe('call_1'); // no key needed: never trust it
    for (const bad of ['garbage', '', undefined, null, `et1.k1.e30.${'A'.repeat(43)}`]) expect(s.peek(bad)).toBeUndefined();
  });

  it('peekTicket reads the same claims with no signer at all (a browser reading when an approval expires)', async () => {
    const c = clock();
    const ticket = await signer([KEY_A], { now: c.now }).sign(SUBJECT, { ttlMs: 60_000 });
    expect(peekTicket(ticket)).toEqual(signer().peek(ticket));
    expect(peekTicket(ticket)?.exp).toBe(c.now() + 60_000);
    for (const bad of ['garbage', '', undefined, null, `et1.k1.e30.${'A'.repeat(43)}`, `es1.k1.${c.now()}.${'A'.repeat(43)}`]) expect(peekTicket(bad)).toBeUndefined();
  });
});

describe('createTicketSigner: sign input checks', () => {
  it('refuses subjects it could never verify', async () => {
    const s = signer();
    await expect(s.sign({ ...SUBJECT, toolName: '' })).rejects.toThrow(TypeError);
    await expect(s.sign({ ...SUBJECT, purpose: 'other' as 'approval' })).rejects.toThrow(TypeError);
    await expect(s.sign({ ...SUBJECT, args: { n: Number.NaN } })).rejects.toThrow(TypeError);
  });
});

describe('TicketError', () => {
  it('is a ToolError with code ticket-invalid, a reason, and a safe message and JSON', async () => {
    const s = signer();
    const ticket = await s.sign(SUBJECT);
    const error = await refused(s.verify(ticket, { ...SUBJECT, conversationId: 'c2' }), 'mismatch', 'conversationId');
    expect(error).toBeInstanceOf(ToolError);
    expect(ToolError.isInstance(error)).toBe(true);
    expect(error.name).toBe('TicketError');
    expect(error.message).not.toContain(SECRET_A);
    expect(error.message).not.toContain(ticket);
    expect(error.toJSON()).toEqual({
      name: 'TicketError',
      code: 'ticket-invalid',
      message: 'The ticket was issued for a different tool call (conversationId differs).',
      toolName: 'changeDeliveryDate',
      callId: 'call_1',
      retryable: false,
      reason: 'mismatch',
      field: 'conversationId',
    });
    expect(JSON.parse(JSON.stringify(error))).toEqual(error.toJSON());
    expect(TicketError.isInstance(new ToolError('ticket-invalid', 'x'))).toBe(false);
    expect(TicketError.isInstance(new TicketError('expired'))).toBe(true);
    expect(new TicketError('expired').toJSON()).not.toHaveProperty('field');
  });
});

describe('TicketSigner.seal', () => {
  const CONTENT = { input: { orderId: 'A-1' }, output: { status: 'shipped', items: [{ sku: 'x', qty: 2 }] } };
  const SEALED: SealSubject = { toolName: 'queryOrder', callId: 'call_7', conversationId: 'conv_9', content: CONTENT };

  it('seals a result compactly and verifies it, whatever the key order of the content', async () => {
    const s = signer();
    const seal = await s.seal(SEALED);
    expect(seal).toMatch(/^es1\.k1\.[0-9]+\.[A-Za-z0-9_-]{43}$/);
    await s.verifySeal(seal, SEALED);
    // Reusable: a seal is an attestation, not a single-use ticket.
    await s.verifySeal(seal, SEALED);
    await s.verifySeal(seal, { ...SEALED, content: JSON.parse(JSON.stringify({ output: CONTENT.output, input: CONTENT.input })) });
  });

  it.each<[string, Partial<SealSubject>]>([
    ['content', { content: { input: { orderId: 'A-1' }, output: { status: 'delivered', items: [{ sku: 'x', qty: 2 }] } } }],
    ['call id', { callId: 'call_8' }],
    ['tool name', { toolName: 'cancelOrder' }],
    ['conversation', { conversationId: 'conv_10' }],
  ])('refuses the seal for another %s', async (_what, change) => {
    const s = signer();
    const seal = await s.seal(SEALED);
    const error = await refused(s.verifySeal(seal, { ...SEALED, ...change }), 'bad-signature');
    expect(error.callId).toBe(change.callId ?? SEALED.callId);
  });

  it("MACs each seal's own bytes, near the JavaScript HMAC's 1,024-byte limit and with many seals made at once", async () => {
    // Short texts are encoded into one reused buffer and MACed at once; long ones (WebCrypto) get their own bytes. Seals
    // started together, short and long, must each cover exactly their own text, as WebCrypto's HMAC of it says.
    const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(SECRET_A), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const expected = async (seal: string, subject: SealSubject): Promise<string> => {
      const head = seal.slice(0, seal.lastIndexOf('.'));
      const text = `${head}.${canonicalJson([subject.conversationId, subject.toolName, subject.callId, subject.content])}`;
      const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(text)));
      return `${head}.${btoa(String.fromCharCode(...mac)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
    };
    const s = signer();
    // ~1,024 characters of text: ASCII on both sides of the limit, and 'é' / '€' (2 / 3 bytes) that cross it in bytes only.
    const subjects: SealSubject[] = [];
    for (const unit of ['x', 'é', '€']) {
      for (const n of [900, 960, 968, 975, 980, 990, 1000, 1100, 3000]) subjects.push({ ...SEALED, callId: `call_${unit}_${n}`, content: { text: unit.repeat(n) } });
    }
    const seals = await Promise.all(subjects.map((subject) => s.seal(subject)));
    for (const [i, subject] of subjects.entries()) {
      expect(seals[i], subject.callId).toBe(await expected(seals[i] as string, subject));
      await s.verifySeal(seals[i], subject);
    }
    await Promise.all(subjects.map((subject, i) => s.verifySeal(seals[(i + 1) % subjects.length], subject).then(
      () => Promise.reject(new Error(`accepted another call's seal for ${subject.callId}`)),
      (error: unknown) => expect(TicketError.isInstance(error) && error.reason).toBe('bad-signature'),
    )));
  });

  it('keeps fields apart: moving text between call id and tool name changes the seal', async () => {
    const s = signer();
    const seal = await s.seal({ ...SEALED, toolName: 'a.b', callId: 'c' });
    await refused(s.verifySeal(seal, { ...SEALED, toolName: 'a', callId: 'b.c' }), 'bad-signature');
  });

  it('expires, and honours ttlMs', async () => {
    const time = clock();
    const s = signer([KEY_A], { now: time.now });
    const seal = await s.seal(SEALED, { ttlMs: 1000 });
    time.advance(999);
    await s.verifySeal(seal, SEALED);
    time.advance(1);
    await refused(s.verifySeal(seal, SEALED), 'expired');
    await expect(s.seal(SEALED, { ttlMs: 0 })).rejects.toThrow(RangeError);
  });

  it('refuses a tampered expiry, key, MAC or format, and never accepts a ticket as a seal', async () => {
    const s = signer([KEY_A, KEY_B]);
    const seal = await s.seal(SEALED);
    const [prefix, kid, exp, mac] = segments(seal);
    await refused(s.verifySeal(`${prefix}.${kid}.${Number(exp) + 1}.${mac}`, SEALED), 'bad-signature');
    await refused(s.verifySeal(`${prefix}.k2.${exp}.${mac}`, SEALED), 'bad-signature');
    await refused(s.verifySeal(`${prefix}.k9.${exp}.${mac}`, SEALED), 'unknown-key');
    await refused(s.verifySeal(`${prefix}.${kid}.${exp}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`, SEALED), 'bad-signature');
    await refused(s.verifySeal(undefined, SEALED), 'missing');
    for (const bad of ['x', `${prefix}.${kid}.${exp}`, `et1.${kid}.${exp}.${mac}`, `${prefix}.${kid}.-1.${mac}`, `${prefix}.${kid}.1e9.${mac}`, `${seal}.x`, 'es1.k1.1.'.padEnd(20_000, 'A')]) {
      await refused(s.verifySeal(bad, SEALED), 'malformed');
    }
    const ticket = await s.sign({ purpose: 'approval', toolName: SEALED.toolName, callId: SEALED.callId, args: SEALED.content, conversationId: SEALED.conversationId });
    await refused(s.verifySeal(ticket, SEALED), 'malformed');
  });

  it('another server (another secret) cannot vouch for a result', async () => {
    const seal = await signer([{ id: 'k1', secret: 'another-secret-that-is-32-bytes!' }]).seal(SEALED);
    await refused(signer().verifySeal(seal, SEALED), 'bad-signature');
  });

  it('treats content with no JSON form as not sealed, and refuses to seal it', async () => {
    const s = signer();
    const seal = await s.seal(SEALED);
    await refused(s.verifySeal(seal, { ...SEALED, content: { big: 1n } }), 'bad-signature');
    await expect(s.seal({ ...SEALED, content: { big: 1n } })).rejects.toThrow(TypeError);
    await expect(s.seal({ ...SEALED, callId: '' })).rejects.toThrow(/seal: callId/);
  });
});
