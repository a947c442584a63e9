// Reliability, a regenerated answer (useChat's regenerate(): the last assistant message is dropped and the rest sent
// again) over the Worker's D1: the demo's order date change and e-mail, both waiting for an approval.
// - Regenerated before anything was approved: the new answer's calls run once when approved, the deleted answer's
//   tickets are refused for them (403), and the outbox holds one message.
// - Regenerated after the calls ran: the results in the history never run again; a call runs again only when the model
//   makes it again (and, for these, when the user approves it again).
// - On a model that repeats its call ids (the offline model with `deterministicIds`, as llama.cpp's `call_0`), the
//   regenerated call has the deleted call's id: it must not read that call's recorded result (D1's call_results), and
//   its denial must not be refused as one of a call that ran.
import { dataByCallId, type EdgetoolUIMessage, TICKET_PART, type TicketPartData, UNFINISHED_CALL_TEXT } from '@edgetool/ai';
import { memoryRateLimiter, peekTicket } from '@edgetool/core';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { emailKey, type Part, post, readTurn, respond, rows, toolPart, toolParts, user } from '../../test/chat-client.ts';
import { type Prompt, recordingAgent } from '../../test/recording-agent.ts';

const MOVE = '/update_delivery_date {"order_id":"A-1003","new_date":"2026-12-24"}';
const MAIL = '/send_email {"order_id":"A-1003","subject":"New date","body":"Your chair arrives on 24 December."}';

/** POST /api/chat as a client of its own (send_email's rate limit counts per client address across test files). */
const client = (octet: number) => (body: unknown) => post(body, { headers: { 'cf-connecting-ip': `203.0.113.${octet}` } });

/** The ids of the calls a message waits on, by tool name (every one must wait for an approval). */
function pendingIds(message: EdgetoolUIMessage): { move: string; mail: string } {
  const move = toolPart(message, 'update_delivery_date');
  const mail = toolPart(message, 'send_email');
  expect([move?.state, mail?.state]).toEqual(['approval-requested', 'approval-requested']);
  return { move: move?.toolCallId as string, mail: mail?.toolCallId as string };
}

/** Both calls of the last message approved, as addToolApprovalResponse does. */
const approveBoth = (history: EdgetoolUIMessage[], ids: { move: string; mail: string }) => respond(respond(history, ids.move, true), ids.mail, true);

/** The history with the last message's ticket strings replaced by those `from` carries for the same tools. */
function withTicketsOf(history: EdgetoolUIMessage[], from: EdgetoolUIMessage): EdgetoolUIMessage[] {
  const old = new Map(from.parts.filter((p) => p.type === TICKET_PART).map((p) => [(p.data as TicketPartData).toolName, (p.data as TicketPartData).ticket]));
  const copy = structuredClone(history);
  const last = copy.at(-1) as EdgetoolUIMessage;
  last.parts = last.parts.map((p) => (p.type === TICKET_PART ? ({ ...p, data: { ...p.data, ticket: old.get((p.data as TicketPartData).toolName) } } as never) : p));
  return copy;
}

/**
 * What one conversation of a test wrote: its calls' events, its outbox rows, the nonces of its tickets spent. Only its
 * own rows: test files share a workerd, and a late write of an earlier file's test has been seen in these tables.
 */
function ledger(conversationId: string) {
  // Its outbox keys: `send_email:` and the call's idempotency key, a JSON array that starts with the conversation.
  const outboxKeys = `send_email:[${JSON.stringify(conversationId)},%`;
  const nonces = new Set<string>();
  const calls = new Set<string>();
  const count = async (sql: string, value: string) => (await rows<{ n: number }>(sql, value))[0]?.n;
  return {
    /** Notes the tickets and calls of messages the Worker answered. */
    track(...messages: EdgetoolUIMessage[]): void {
      for (const message of messages) {
        for (const part of message.parts) if (part.type === TICKET_PART) nonces.add(peekTicket(part.data.ticket)?.nonce as string);
        for (const part of toolParts(message)) calls.add(part.toolCallId as string);
      }
    },
    async counts(): Promise<{ events: number | undefined; outbox: number | undefined; nonces: number | undefined }> {
      const [events, outbox, spent] = await Promise.all([
        count('SELECT COUNT(*) AS n FROM order_events WHERE call_id IN (SELECT value FROM json_each(?1))', JSON.stringify([...calls])),
        count('SELECT COUNT(*) AS n FROM outbox WHERE idempotency_key LIKE ?1', outboxKeys),
        count('SELECT COUNT(*) AS n FROM ticket_nonces WHERE nonce IN (SELECT value FROM json_each(?1))', JSON.stringify([...nonces])),
      ]);
      return { events, outbox, nonces: spent };
    },
    outbox: () => rows<{ idempotency_key: string; subject: string }>('SELECT idempotency_key, subject FROM outbox WHERE idempotency_key LIKE ?1 ORDER BY rowid', outboxKeys),
  };
}

const deliveryDate = async () => (await rows<{ delivery_date: string }>('SELECT delivery_date FROM orders WHERE id = ?', 'A-1003'))[0]?.delivery_date;

describe('a regenerated answer, through the Worker', () => {
  it('regenerated before approving: the new calls run once, the deleted answer’s tickets get a typed 403, one message in the outbox', async () => {
    const id = 'regenerate-before-approving';
    const send = client(31);
    const mine = ledger(id);
    const ask = user(`${MOVE}\n${MAIL}`);
    const first = await readTurn(await send({ id, messages: [ask] }));
    const old = pendingIds(first.message);
    // Regenerate: the question alone again. The offline model's ids have a random part: new calls, new tickets.
    const again = await readTurn(await send({ id, messages: [ask] }));
    const ids = pendingIds(again.message);
    mine.track(first.message, again.message);
    expect([ids.move, ids.mail]).not.toContain(old.move);
    expect([ids.move, ids.mail]).not.toContain(old.mail);
    expect(await mine.counts()).toEqual({ events: 0, outbox: 0, nonces: 0 });

    // The new answer approved with the deleted answer's tickets: they were issued for other calls. Refused before
    // anything runs, and nothing is spent (the new tickets stay good).
    const approved = approveBoth([ask, again.message], ids);
    const forged = withTicketsOf(approved, first.message);
    const refused = await send({ id, messages: forged });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: expect.objectContaining({ code: 'ticket-invalid', problem: 'forged-approval', reason: 'mismatch', toolCallId: expect.stringMatching(`^(${ids.move}|${ids.mail})$`) }),
    });
    expect(await mine.counts()).toEqual({ events: 0, outbox: 0, nonces: 0 });

    // Approved with its own tickets: each call runs once.
    const ran = await readTurn(await send({ id, messages: approved }), approved.at(-1));
    expect(toolPart(ran.message, 'update_delivery_date')).toMatchObject({ state: 'output-available', output: { delivery_date: '2026-12-24' } });
    expect(toolPart(ran.message, 'send_email')).toMatchObject({ state: 'output-available', output: { queued: true, duplicate: false } });
    // Two events (the move, the queued e-mail), one message, the two new tickets spent.
    expect(await mine.counts()).toEqual({ events: 2, outbox: 1, nonces: 2 });
    // Each recorded result is kept under its call's id and its approval ticket's nonce.
    const kept = await rows<{ key: string }>('SELECT key FROM call_results WHERE key LIKE ?1', `[${JSON.stringify(id)},%`);
    const nonceOf = (callId: string) => peekTicket(dataByCallId<TicketPartData>(again.message, TICKET_PART).get(callId)?.ticket)?.nonce;
    expect(kept.map((row) => JSON.parse(row.key) as unknown)).toEqual(
      expect.arrayContaining([
        [id, ids.move, nonceOf(ids.move)],
        [id, ids.mail, nonceOf(ids.mail)],
      ]),
    );
    expect(kept).toHaveLength(2);

    // The same continuation again (its answer lost): the recorded results, nothing runs twice. The deleted answer's
    // tickets are still refused.
    const replay = await readTurn(await send({ id, messages: approved }), approved.at(-1));
    expect(toolPart(replay.message, 'send_email')?.output).toEqual(toolPart(ran.message, 'send_email')?.output);
    const again403 = await send({ id, messages: forged });
    expect(again403.status).toBe(403);
    await again403.text();
    expect(await mine.counts()).toEqual({ events: 2, outbox: 1, nonces: 2 });
    expect(await mine.outbox()).toEqual([{ idempotency_key: emailKey(id, ids.mail, again.message), subject: 'New date' }]);
    expect(await deliveryDate()).toBe('2026-12-24');
  });

  it('regenerated after the calls ran: the history’s results never run again; a call runs again only when the model makes it again', async () => {
    const id = 'regenerate-after-running';
    const send = client(32);
    const mine = ledger(id);
    const ask = user(`${MOVE}\n${MAIL}`);
    const first = await readTurn(await send({ id, messages: [ask] }));
    const approved = approveBoth([ask, first.message], pendingIds(first.message));
    const ran = await readTurn(await send({ id, messages: approved }), approved.at(-1));
    mine.track(ran.message);
    expect(await mine.counts()).toEqual({ events: 2, outbox: 1, nonces: 2 });

    // A later answer regenerated (twice): the sealed results in the history are read, never run.
    const thanks = [ask, ran.message, user('thanks')];
    for (let i = 0; i < 2; i++) {
      const answer = await readTurn(await send({ id, messages: thanks }));
      expect(toolParts(answer.message)).toEqual([]);
    }
    expect(await mine.counts()).toEqual({ events: 2, outbox: 1, nonces: 2 });

    // The answer that ran them regenerated: the model makes both calls again, as new calls. The move is already done
    // (the tool's check refuses it before asking); the e-mail waits for an approval. Nothing ran.
    const again = await readTurn(await send({ id, messages: [ask] }));
    mine.track(again.message);
    const move = toolPart(again.message, 'update_delivery_date') as Part;
    const mail = toolPart(again.message, 'send_email') as Part;
    expect(move).toMatchObject({ state: 'output-error', errorText: expect.stringContaining('already scheduled for 2026-12-24') });
    expect(mail.state).toBe('approval-requested');
    expect([move.toolCallId, mail.toolCallId]).not.toContain(toolPart(ran.message, 'send_email')?.toolCallId);
    expect(await mine.counts()).toEqual({ events: 2, outbox: 1, nonces: 2 });

    // Approved, the new e-mail is a new call: it runs (once), under its own idempotency key.
    const approvedAgain = respond([ask, again.message], mail.toolCallId as string, true);
    const sent = await readTurn(await send({ id, messages: approvedAgain }), approvedAgain.at(-1));
    expect(toolPart(sent.message, 'send_email')).toMatchObject({ state: 'output-available', output: { queued: true, duplicate: false } });
    await readTurn(await send({ id, messages: approvedAgain }), approvedAgain.at(-1));
    expect(await mine.counts()).toEqual({ events: 3, outbox: 2, nonces: 3 });
  });
});

/** The Worker's agent over its D1 on a model that repeats its call ids, prompts recorded, with a rate limiter of its own. */
function repeatingAgent() {
  const emailLimiter = memoryRateLimiter({ limit: 10, periodMs: 60_000 });
  return recordingAgent({ deterministicIds: true, deps: () => ({ db: env.DB, emailLimiter }) });
}

/** What a prompt gives the model as the result of `toolCallId`. */
function resultFor(prompt: Prompt | undefined, toolCallId: string): unknown {
  const parts = (prompt ?? []).flatMap((message) => (message.role === 'tool' ? message.content : []));
  for (const part of parts) if (part.type === 'tool-result' && part.toolCallId === toolCallId) return part.output;
  return undefined;
}

describe('a regenerated answer on a model that repeats its call ids, over D1', () => {
  it('the new call has the deleted call’s id: it reads none of that call’s recorded result, and its denial is no 403', async () => {
    const id = 'regenerate-repeated-ids';
    const agent = repeatingAgent();
    const ask = user(MAIL);
    const first = await readTurn(await agent.chat(id, [ask]));
    const callId = toolPart(first.message, 'send_email')?.toolCallId as string;
    const approved = respond([ask, first.message], callId, true);
    await readTurn(await agent.chat(id, approved), approved.at(-1));
    const mine = ledger(id);
    mine.track(first.message);
    expect(await mine.counts()).toEqual({ events: 1, outbox: 1, nonces: 1 });

    /** The answer regenerated: the same call id again, with a new ticket. */
    const regenerate = async () => {
      const again = await readTurn(await agent.chat(id, [ask]));
      expect(toolPart(again.message, 'send_email')).toMatchObject({ state: 'approval-requested', toolCallId: callId });
      return [ask, again.message];
    };

    // Approved, its continuation lost, and the user goes on: the model reads an unknown outcome, not the first e-mail.
    const approvedLost = respond(await regenerate(), callId, true);
    expect((await readTurn(await agent.chat(id, [...approvedLost, user('did it go out?')]))).chunks.at(-1)?.type).toBe('finish');
    expect(resultFor(agent.prompts.at(-1), callId)).toEqual({ type: 'error-text', value: UNFINISHED_CALL_TEXT });

    // Denied, its continuation lost, and the user goes on: read as denied. It was a 403 (forged-approval: "the call
    // ran"), read from the first call's record, and every later message of the conversation got it again.
    const deniedLost = respond(await regenerate(), callId, false);
    const response = await agent.chat(id, [...deniedLost, user('never mind')]);
    expect(response.status).toBe(200);
    await readTurn(response);
    expect(resultFor(agent.prompts.at(-1), callId)).toEqual({ type: 'error-text', value: 'Tool call execution denied.' });
    // Denied and sent again (its answer lost): the same continuation, not a denial of a call that ran.
    const denied = respond(await regenerate(), callId, false);
    await readTurn(await agent.chat(id, denied), denied.at(-1));
    const resent = await agent.chat(id, denied);
    expect(resent.status).toBe(200);
    await readTurn(resent, denied.at(-1));

    // One e-mail in the outbox through all of it.
    expect(await mine.outbox()).toEqual([{ idempotency_key: emailKey(id, callId, first.message), subject: 'New date' }]);
  });

  it('the new call, approved, e-mails under a key of its own: its own row beside the replaced call’s, and nothing twice when sent again', async () => {
    const id = 'regenerate-repeated-ids-mail';
    const agent = repeatingAgent();
    const ask = user(MAIL);
    const first = await readTurn(await agent.chat(id, [ask]));
    const callId = toolPart(first.message, 'send_email')?.toolCallId as string;
    const approvedFirst = respond([ask, first.message], callId, true);
    const ran = await readTurn(await agent.chat(id, approvedFirst), approvedFirst.at(-1));
    const queued = toolPart(ran.message, 'send_email')?.output as { outbox_id: string; duplicate: boolean };
    expect(queued.duplicate).toBe(false);

    // Regenerated: the same call id and the same arguments, a new ticket. Approved, it is a new e-mail: the outbox
    // key was the conversation and call id, so it came back as the replaced call's row (`duplicate: true`).
    const again = await readTurn(await agent.chat(id, [ask]));
    expect(toolPart(again.message, 'send_email')).toMatchObject({ state: 'approval-requested', toolCallId: callId, input: toolPart(first.message, 'send_email')?.input });
    const approved = respond([ask, again.message], callId, true);
    const sent = await readTurn(await agent.chat(id, approved), approved.at(-1));
    const own = toolPart(sent.message, 'send_email')?.output as { outbox_id: string; duplicate: boolean };
    expect(own).toMatchObject({ queued: true, duplicate: false });
    expect(own.outbox_id).not.toBe(queued.outbox_id);

    // The same continuation sent again (its answer lost): that call's result, and nothing written twice.
    const resent = await readTurn(await agent.chat(id, approved), approved.at(-1));
    expect(toolPart(resent.message, 'send_email')?.output).toEqual(own);
    const mine = ledger(id);
    mine.track(first.message, again.message);
    expect(await mine.counts()).toEqual({ events: 2, outbox: 2, nonces: 2 });
    expect(await mine.outbox()).toEqual([
      { idempotency_key: emailKey(id, callId, first.message), subject: 'New date' },
      { idempotency_key: emailKey(id, callId, again.message), subject: 'New date' },
    ]);
  });
});
