import { ContinuationError, verifyContinuation } from '@edgetool/ai';
import { createExecutor, createRunContext, createTicketSigner } from '@edgetool/core';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { NOW, rows } from '../test/support.ts';
import { createD1NonceStore } from './nonce-store.ts';
import { createDemoRegistry, type DemoDeps, demoDeps } from './tools/index.ts';

/** A gate a test opens when it has seen what it waits for. */
function gate(): { open: () => void; opened: Promise<void> } {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, advance: (ms) => (time += ms) };
}

const stored = () => rows<{ nonce: string; expires_at: number }>('SELECT nonce, expires_at FROM ticket_nonces ORDER BY nonce');

describe('createD1NonceStore', () => {
  it('lets each nonce be claimed once', async () => {
    const c = clock();
    const store = createD1NonceStore(env.DB, { now: c.now });
    expect(await store.claim('n1', c.now() + 1000)).toBe(true);
    expect(await store.claim('n1', c.now() + 1000)).toBe(false);
    expect(await store.claim('n2', c.now() + 1000)).toBe(true);
    expect(await stored()).toEqual([
      { nonce: 'n1', expires_at: 1_001_000 },
      { nonce: 'n2', expires_at: 1_001_000 },
    ]);
  });

  it('lets exactly one of many concurrent claims win, also across store instances (isolates)', async () => {
    const stores = [createD1NonceStore(env.DB), createD1NonceStore(env.DB), createD1NonceStore(env.DB)];
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => stores[i % 3]?.claim('same', Date.now() + 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('reports claimed, unexpired nonces through has()', async () => {
    const c = clock();
    const store = createD1NonceStore(env.DB, { now: c.now });
    expect(await store.has?.('n')).toBe(false);
    await store.claim('n', c.now() + 10);
    expect(await store.has?.('n')).toBe(true);
    c.advance(10);
    expect(await store.has?.('n')).toBe(false);
  });

  it('forgets a nonce once its expiry has passed', async () => {
    const c = clock();
    const store = createD1NonceStore(env.DB, { now: c.now });
    expect(await store.claim('n', c.now() + 1000)).toBe(true);
    c.advance(999);
    expect(await store.claim('n', c.now() + 1000)).toBe(false);
    c.advance(1);
    expect(await store.claim('n', c.now() + 1000)).toBe(true);
    expect(await stored()).toEqual([{ nonce: 'n', expires_at: 1_002_000 }]);
  });

  it('takes over an expired row even when pruning is off', async () => {
    const c = clock();
    const store = createD1NonceStore(env.DB, { now: c.now, pruneBatch: 0 });
    expect(await store.claim('n', c.now() + 5)).toBe(true);
    c.advance(5);
    expect(await store.claim('n', c.now() + 5)).toBe(true);
    expect(await store.claim('n', c.now() + 5)).toBe(false);
  });

  it('prunes expired rows opportunistically, a bounded number per claim', async () => {
    const c = clock();
    const store = createD1NonceStore(env.DB, { now: c.now, pruneBatch: 2 });
    for (const n of ['a', 'b', 'c', 'd', 'e']) await store.claim(n, c.now() + 10);
    await store.claim('long', c.now() + 10_000);
    c.advance(10);
    await store.claim('x', c.now() + 10);
    expect((await stored()).map((r) => r.nonce)).toEqual(['c', 'd', 'e', 'long', 'x']);
    await store.claim('y', c.now() + 10);
    await store.claim('z', c.now() + 10);
    expect((await stored()).map((r) => r.nonce)).toEqual(['long', 'x', 'y', 'z']);
  });

  it('does not store a nonce that is already expired', async () => {
    const c = clock();
    const store = createD1NonceStore(env.DB, { now: c.now });
    expect(await store.claim('old', c.now())).toBe(true);
    expect(await stored()).toEqual([]);
  });

  it('keeps the decision a claim makes with the nonce, in the same row, and gives it to every later claim', async () => {
    const c = clock();
    const store = createD1NonceStore(env.DB, { now: c.now });
    expect(await store.claimDecision?.('n', c.now() + 1000, 'approved')).toBe(true);
    expect(await store.claimDecision?.('n', c.now() + 1000, 'denied')).toBe('approved');
    expect(await store.claim('n', c.now() + 1000)).toBe(false);
    // A plain claim keeps none; so does a row written before the column existed (NULL).
    expect(await store.claim('plain', c.now() + 1000)).toBe(true);
    expect(await store.claimDecision?.('plain', c.now() + 1000, 'denied')).toBe(null);
    await env.DB.prepare('INSERT INTO ticket_nonces (nonce, expires_at) VALUES (?1, ?2)').bind('old', c.now() + 1000).run();
    expect(await store.claimDecision?.('old', c.now() + 1000, 'denied')).toBe(null);
    expect(await rows('SELECT nonce, decision FROM ticket_nonces ORDER BY nonce')).toEqual([
      { nonce: 'n', decision: 'approved' },
      { nonce: 'old', decision: null },
      { nonce: 'plain', decision: null },
    ]);
    // A row whose ticket expired is taken over with the new decision, or with none.
    c.advance(1000);
    expect(await store.claimDecision?.('n', c.now() + 1000, 'denied')).toBe(true);
    expect(await store.claimDecision?.('n', c.now() + 1000, 'approved')).toBe('denied');
    expect(await store.claim('plain', c.now() + 1000)).toBe(true);
    expect(await store.claimDecision?.('old', c.now() + 1000, 'approved')).toBe(true);
    expect(await store.claimDecision?.('old', c.now() + 1000, 'denied')).toBe('approved');
  });

  it('lets exactly one of many concurrent decisions win across store instances (isolates); the others read its decision', async () => {
    const stores = [createD1NonceStore(env.DB), createD1NonceStore(env.DB, { pruneBatch: 0 }), createD1NonceStore(env.DB)];
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => stores[i % 3]?.claimDecision?.('same', Date.now() + 60_000, `d${i}`)));
    const winner = results.indexOf(true);
    expect(results.filter((r) => r === true)).toHaveLength(1);
    expect(results.filter((r) => r !== true)).toEqual(Array.from({ length: 11 }, () => `d${winner}`));
  });

  it('refuses a ticket sent again with another decision, across isolates: the signer reads the first decision from D1', async () => {
    const subject = { purpose: 'approval', toolName: 'send_email', callId: 'c1', args: { order_id: 'A-1002' }, conversationId: 'conv' } as const;
    const keys = [{ id: 'k1', secret: 'a-test-secret-that-is-at-least-32-bytes-long' }];
    const here = createTicketSigner({ keys, nonceStore: createD1NonceStore(env.DB) });
    const there = createTicketSigner({ keys, nonceStore: createD1NonceStore(env.DB) });
    const ticket = await here.sign(subject);
    expect((await here.safeVerify(ticket, subject, { decision: 'approved' })).ok).toBe(true);
    const reason = async (decision: string) => {
      const result = await there.safeVerify(ticket, subject, { decision });
      return result.ok ? 'ok' : result.error.reason;
    };
    expect([await reason('approved'), await reason('denied')]).toEqual(['replayed', 'conflict']);
    // The same decision is confirmed (an earlier turn's answer is read this way); a row that kept none is not.
    const again = await there.safeVerify(ticket, subject, { decision: 'approved' });
    expect(again.ok ? undefined : again.error.sameDecision).toBe(true);
    const plain = await here.sign(subject);
    expect((await here.safeVerify(plain, subject)).ok).toBe(true);
    const unknown = await there.safeVerify(plain, subject, { decision: 'approved' });
    expect(unknown.ok ? 'ok' : [unknown.error.reason, unknown.error.sameDecision]).toEqual(['replayed', undefined]);
  });

  it('rejects nonsense arguments', async () => {
    const store = createD1NonceStore(env.DB);
    await expect(store.claim('', Date.now() + 1000)).rejects.toThrow(TypeError);
    await expect(store.claim('n', Number.NaN)).rejects.toThrow(TypeError);
    expect(() => createD1NonceStore(env.DB, { pruneBatch: -1 })).toThrow(RangeError);
  });

  it('makes approval tickets single-use in the core executor', async () => {
    const tickets = createTicketSigner({
      keys: [{ id: 'k1', secret: 'a-test-secret-that-is-at-least-32-bytes-long' }],
      nonceStore: createD1NonceStore(env.DB),
    });
    const executor = createExecutor({ registry: createDemoRegistry(), tickets });
    const run = createRunContext<DemoDeps>({ conversationId: 'conv-nonce', deps: { ...demoDeps(env), now: () => NOW } });
    const call = { id: 'call-1', name: 'send_email', arguments: { order_id: 'A-1002', subject: 'Delay', body: 'Your monitors arrive later.' } };
    const pending = await executor.execute(call, { run });
    const ticket = pending.outcome.type === 'approval-required' ? pending.outcome.ticket : undefined;
    expect(ticket).toEqual(expect.any(String));
    expect((await executor.execute(call, { run, approval: { approved: true, ticket } })).outcome.type).toBe('success');
    // A second executor (another isolate) shares the D1 store: the replay is refused there too.
    const elsewhere = createExecutor({ registry: createDemoRegistry(), tickets });
    const replay = await elsewhere.execute(call, { run, approval: { approved: true, ticket } });
    expect(replay.outcome.type === 'error' && replay.outcome.error.code).toBe('ticket-invalid');
    expect(await rows('SELECT id FROM outbox')).toHaveLength(1);
    expect(await rows('SELECT nonce FROM ticket_nonces')).toHaveLength(1);
  });
});

describe('two copies of one continuation at once, over D1 (two isolates)', () => {
  const keys = [{ id: 'k1', secret: 'a-test-secret-that-is-at-least-32-bytes-long' }];
  const conversationId = 'conv-copies';
  const calls = [
    { id: 'c1', input: { order_id: 'A-1002', new_date: '2026-12-24' } },
    { id: 'c2', input: { order_id: 'A-1003', new_date: '2026-12-27' } },
  ];

  /** The message the browser continues: both approvals answered (`approved` per call id), each with its ticket. */
  async function continuation(signer: ReturnType<typeof createTicketSigner>, approved: Record<string, boolean>) {
    const parts: unknown[] = [];
    for (const { id, input } of calls) {
      const ticket = await signer.sign({ purpose: 'approval', toolName: 'update_delivery_date', callId: id, args: input, conversationId });
      parts.push(
        { type: 'tool-update_delivery_date', toolCallId: id, state: 'approval-responded', input, approval: { id: `a-${id}`, approved: approved[id] } },
        { type: 'data-edgetool-ticket', data: { toolCallId: id, toolName: 'update_delivery_date', purpose: 'approval', ticket, runsOn: 'server' } },
      );
    }
    return (decisions: Record<string, boolean>) => [
      { role: 'user', parts: [{ type: 'text', text: 'move both' }] },
      {
        role: 'assistant',
        parts: parts.map((p) => {
          const part = p as { toolCallId?: string; approval?: object };
          return part.toolCallId === undefined ? p : { ...part, approval: { ...part.approval, approved: decisions[part.toolCallId] } };
        }),
      },
    ];
  }

  /** Isolate A's claim of c2's ticket waits until isolate B's copy is answered. */
  function isolates() {
    const reached = gate();
    const bDone = gate();
    const d1 = createD1NonceStore(env.DB);
    let paused = '';
    const a = createTicketSigner({
      keys,
      nonceStore: {
        claim: (n, e) => d1.claim(n, e),
        has: (n) => d1.has?.(n) ?? Promise.resolve(false),
        claimDecision: async (n, e, d) => {
          if (n === paused) {
            reached.open();
            await bDone.opened;
          }
          return (d1.claimDecision as NonNullable<typeof d1.claimDecision>)(n, e, d);
        },
      },
    });
    const b = createTicketSigner({ keys, nonceStore: createD1NonceStore(env.DB) });
    return { a, b, reached, bDone, pause: (ticket: string) => (paused = a.peek(ticket)?.nonce ?? '') };
  }

  const options = (tickets: ReturnType<typeof createTicketSigner>) => ({ tickets, registry: createDemoRegistry(), conversationId });
  const ticketOf = (messages: { parts: unknown[] }[], id: string) => {
    const part = messages[1]?.parts.find((p) => (p as { data?: { toolCallId?: string } }).data?.toolCallId === id) as { data: { ticket: string } } | undefined;
    return part?.data.ticket ?? '';
  };

  it('the same copy twice: one claims every ticket, the other replays them all and claims none', async () => {
    const s = isolates();
    const messages = (await continuation(s.a, {}))({ c1: true, c2: true });
    s.pause(ticketOf(messages, 'c2'));
    const copyA = verifyContinuation(messages, options(s.a));
    await s.reached.opened;
    // Before: B found c2's ticket unused and claimed it, so each copy ran one of the two calls.
    const copyB = await verifyContinuation(messages, options(s.b));
    s.bDone.open();
    const a = await copyA;
    expect([...a.decisions.keys()]).toEqual(['c1', 'c2']);
    expect([...a.replayed]).toEqual([]);
    expect([...copyB.replayed]).toEqual(['c1', 'c2']);
    // One row per ticket, each kept with A's decision (the leader's names the whole copy).
    const kept = await rows<{ decision: string }>('SELECT decision FROM ticket_nonces ORDER BY decision');
    expect(kept.map((r) => r.decision.replace(/[A-Za-z0-9_-]{43}/g, '<hash>'))).toEqual(['approved', 'approved copy <hash>']);
  });

  it('copies that decide otherwise: the one that loses the leader is refused and claims nothing', async () => {
    const s = isolates();
    const make = await continuation(s.a, {});
    const messages = make({ c1: true, c2: true });
    s.pause(ticketOf(messages, 'c2'));
    const copyA = verifyContinuation(messages, options(s.a));
    await s.reached.opened;
    // Before: B claimed c2 with its denial and A was refused on it: both tickets spent, and c1 never ran.
    const error = await verifyContinuation(make({ c1: true, c2: false }), options(s.b)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContinuationError);
    expect((error as ContinuationError).problem).toBe('forged-approval');
    s.bDone.open();
    const a = await copyA;
    expect([...a.decisions.values()].map((d) => d.approved)).toEqual([true, true]);
    expect([...a.replayed]).toEqual([]);
  });
});
