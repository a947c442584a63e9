// Resumable chat turns in the demo Worker: the D1 store (migrations/0006_chat_streams.sql) and the routes a reload and
// the Stop button use (GET and DELETE /api/chat/:id/stream), inside workerd. A turn is resumable only when its client
// sent a turn id (useEdgeChat({ resume: true }) does); any other client's turn still stops with its connection.
import { RESUMABLE_TURN_HEADER, type ResumableStore, resumableResponse, resumeResponse } from '@edgetool/ai';
import type { UIMessageChunk } from 'ai';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { chatRequest, counts, fold, post, readTurn, respond, rows, toolPart, user } from '../../test/chat-client.ts';
import { createD1ChatStreamStore } from '../chat-stream-store.ts';
import worker from '../index.ts';
import { OWNER_COOKIE, ownerOf } from './chat.ts';

const OWNER = '11111111-2222-4333-8444-555555555555';
const cookie = (owner = OWNER) => `${OWNER_COOKIE}=${owner}`;
const fetchWorker = (request: Request, ctx: ExecutionContext, vars: Record<string, string> = {}) =>
  worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, OFFLINE_DELAY_MS: '20', ...vars }, ctx);
const streamRequest = (chatId: string, method: 'GET' | 'DELETE', headers: Record<string, string> = {}) =>
  new Request(`http://localhost/api/chat/${encodeURIComponent(chatId)}/stream`, { method, headers });

const events = (text: string) => text.split('\n\n').filter((event) => event !== '');
const chunksOf = (text: string) =>
  events(text)
    .filter((event) => event !== 'data: [DONE]')
    .map((event) => JSON.parse(event.slice('data: '.length)));

/** Reads a body until `until` holds of the text so far, then cancels it (the page reloads). */
async function readThenLeave(response: Response, until: (text: string) => boolean): Promise<string> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!until(text)) {
    const read = await reader.read();
    if (read.done) throw new Error(`the stream ended first: ${text}`);
    text += decoder.decode(read.value, { stream: true });
  }
  await reader.cancel();
  return text;
}

describe('createD1ChatStreamStore', () => {
  const key = '["u","c"]';
  const batch = (turnId: string, position: number, chunks: string[], startedAt = 1_000) => ({ key, turnId, position, chunks, startedAt, expiresAt: 100_000 });

  it('records batches, reads from any position, and a newer turn replaces the older recording', async () => {
    let now = 1_000;
    const store: ResumableStore = createD1ChatStreamStore(env.DB, { now: () => now });
    expect(await store.read(key, 0)).toBeUndefined();
    expect(await store.append(batch('t1', 0, ['a', 'b']))).toBe(false);
    expect(await store.append(batch('t1', 2, ['c']))).toBe(false);
    expect(await store.append(batch('t1', 3, []))).toBe(false);
    expect(await store.read(key, 0)).toEqual({ turnId: 't1', chunks: ['a', 'b', 'c'], end: undefined, startedAt: 1_000, cancelledAt: undefined, expiresAt: 100_000 });
    expect((await store.read(key, 1))?.chunks).toEqual(['b', 'c']);
    expect((await store.read(key, 3))?.chunks).toEqual([]);
    // A write with nothing to add still renews the expiry: a resume sees the detached turn is alive.
    expect(await store.append({ ...batch('t1', 3, []), expiresAt: 100_500 })).toBe(false);
    expect((await store.read(key, 0))?.expiresAt).toBe(100_500);
    await store.finish(key, 't1', 'done');
    expect((await store.read(key, 0))?.end).toBe('done');
    // The next turn of the chat: the older recording and its chunks are gone.
    expect(await store.append(batch('t2', 0, ['x'], 2_000))).toBe(false);
    expect(await store.read(key, 0)).toMatchObject({ turnId: 't2', chunks: ['x'], end: undefined });
    expect(await rows('SELECT turn_id FROM chat_stream_chunks')).toEqual([{ turn_id: 't2' }]);
    // A write of the replaced turn adds nothing.
    expect(await store.append(batch('t1', 3, ['late']))).toBe(false);
    expect((await store.read(key, 0))?.chunks).toEqual(['x']);
    // Expired: as if there were none.
    now = 100_500;
    expect(await store.read(key, 0)).toBeUndefined();
  });

  it('a cancel mark made after a turn started stops its writes (it writes nothing more); an older mark does not', async () => {
    const store = createD1ChatStreamStore(env.DB, { now: () => 1_500 });
    await store.cancel(key, 900, 100_000);
    expect(await store.append(batch('t1', 0, ['a']))).toBe(false);
    await store.cancel(key, 1_200, 100_000);
    expect(await store.append(batch('t1', 1, ['b']))).toBe(true);
    expect(await store.read(key, 0)).toMatchObject({ chunks: ['a'], cancelledAt: 1_200 });
    // A mark before a turn's first write: nothing at all is recorded.
    await store.cancel('["u","d"]', 1_200, 100_000);
    expect(await store.append({ ...batch('t3', 0, ['z']), key: '["u","d"]' })).toBe(true);
    expect(await store.read('["u","d"]', 0)).toBeUndefined();
  });

  it('a detached turn that sends megabytes at once (a PDF in base64) is recorded in bounded rows and replayed byte for byte', async () => {
    const store = createD1ChatStreamStore(env.DB);
    // About 5 MB in one event: more than D1 takes in one row (2,000,000 bytes).
    const big = 'JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoKPDwvTGVuZ3RoIDMgMCBSL0ZpbHRlci9GbGF0ZURlY29kZT4+Cg==€😀'.repeat(55_000);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const source = new ReadableStream<UIMessageChunk>({
      async start(controller) {
        controller.enqueue({ type: 'start' });
        await held;
        controller.enqueue({ type: 'tool-output-available', toolCallId: 'c1', output: { base64: big } });
        controller.enqueue({ type: 'finish' });
        controller.close();
      },
    });
    const waits: Promise<unknown>[] = [];
    const options = { store, chatId: 'big', owner: 'u', turnId: 'turn-big', waitUntil: (work: Promise<unknown>) => waits.push(work), intervalMs: 5 };
    const errors: unknown[] = [];
    await readThenLeave(resumableResponse(source, { ...options, onError: (error) => errors.push(error) }), (text) => text.includes('"start"'));
    release();
    await Promise.all(waits);
    expect(errors).toEqual([]);
    const stored = await rows<{ size: number }>('SELECT length(CAST(chunks AS BLOB)) AS size FROM chat_stream_chunks WHERE key = ?1', '["u","big"]');
    // One row per append: none near D1's limit.
    expect(stored.length).toBeGreaterThan(10);
    for (const { size } of stored) expect(size).toBeLessThan(2_000_000);
    const replay = await (await resumeResponse({ store, chatId: 'big', owner: 'u', turnId: 'turn-big' })).text();
    const expected = [{ type: 'start' }, { type: 'tool-output-available', toolCallId: 'c1', output: { base64: big } }, { type: 'finish' }];
    expect(replay).toBe(`${expected.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`);
  });

  it('a row another version wrote, or one tampered with, is refused on read: never replayed with bytes missing or doubled', async () => {
    const store = createD1ChatStreamStore(env.DB, { now: () => 1_500 });
    await store.append(batch('t1', 0, ['a', 'b']));
    await store.append(batch('t1', 2, ['c']));
    expect((await store.read(key, 0))?.chunks).toEqual(['a', 'b', 'c']);
    const tamper = async (sql: string, ...params: unknown[]) => {
      await env.DB.prepare(sql).bind(...params).run();
      await expect(store.read(key, 0)).rejects.toThrow(/does not follow on|is none/);
    };
    // A gap (a row lost), a count that is not the row's, chunks that are not text, an end no version writes.
    await tamper('UPDATE chat_stream_chunks SET position = 3 WHERE position = 2');
    await tamper('UPDATE chat_stream_chunks SET position = 2, count = 2 WHERE position = 3');
    await tamper('UPDATE chat_stream_chunks SET count = 1, chunks = ?1 WHERE position = 2', '{"c":1}');
    await tamper('UPDATE chat_stream_chunks SET chunks = ?1 WHERE position = 2', 'not json');
    await env.DB.prepare('UPDATE chat_stream_chunks SET chunks = ?1 WHERE position = 2').bind('["c"]').run();
    expect((await store.read(key, 1))?.chunks).toEqual(['b', 'c']);
    await tamper("UPDATE chat_streams SET ended = 'finished'");
  });

  it('a cancel prunes expired marks: Stop clicks with no turn to stop do not grow the table', async () => {
    let now = 1_000;
    const store = createD1ChatStreamStore(env.DB, { now: () => now, pruneBatch: 2 });
    for (const [i, chat] of ['a', 'b', 'c'].entries()) await store.cancel(`["u","${chat}"]`, now, now + 100 * (i + 1));
    now = 2_000;
    await store.cancel('["u","d"]', now, now + 100);
    // The two oldest expired marks pruned (the batch), the third left for the next cancel; the new mark kept.
    expect(await rows('SELECT key FROM chat_stream_cancels ORDER BY key')).toEqual([{ key: '["u","c"]' }, { key: '["u","d"]' }]);
    await store.cancel('["u","e"]', now, now + 100);
    expect(await rows('SELECT key FROM chat_stream_cancels ORDER BY key')).toEqual([{ key: '["u","d"]' }, { key: '["u","e"]' }]);
  });
});

describe('GET and DELETE /api/chat/:id/stream', () => {
  it('a resumable turn whose page reloads goes on, and the reload reads it from its start to its end', async () => {
    const ctx = createExecutionContext();
    const request = chatRequest({ id: 'resume-1', messages: [user('Where is order A-1002?')] }, { headers: { cookie: cookie(), [RESUMABLE_TURN_HEADER]: 'turn-1' } });
    const response = await fetchWorker(request, ctx);
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toBeNull();
    const before = await readThenLeave(response, (text) => text.includes('"tool-input-available"'));
    // Another browser, another turn id, another chat: nothing to resume.
    const other = createExecutionContext();
    expect((await fetchWorker(streamRequest('resume-1', 'GET', { cookie: cookie('99999999-2222-4333-8444-555555555555') }), other)).status).toBe(204);
    expect((await fetchWorker(streamRequest('resume-1', 'GET'), other)).status).toBe(204);
    expect((await fetchWorker(streamRequest('resume-1', 'GET', { cookie: cookie(), [RESUMABLE_TURN_HEADER]: 'turn-0' }), other)).status).toBe(204);
    expect((await fetchWorker(streamRequest('resume-2', 'GET', { cookie: cookie() }), other)).status).toBe(204);
    // The reload: wait for the first write, then read the recording and its tail.
    let resumed: Response | undefined;
    for (let i = 0; i < 200; i++) {
      resumed = await fetchWorker(streamRequest('resume-1', 'GET', { cookie: cookie(), [RESUMABLE_TURN_HEADER]: 'turn-1' }), other);
      if (resumed.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(resumed?.status).toBe(200);
    expect(resumed?.headers.get('content-type')).toBe('text/event-stream');
    const replay = await (resumed as Response).text();
    await waitOnExecutionContext(ctx);
    expect(replay.startsWith(before)).toBe(true);
    expect(events(replay).at(-1)).toBe('data: [DONE]');
    const message = await fold(chunksOf(replay));
    const part = message.parts.find((p) => p.type === 'tool-query_order') as { state?: string } | undefined;
    expect(part?.state).toBe('output-available');
    expect(chunksOf(replay).at(-1)?.type).toBe('finish');
  });

  it('a replayed approval request carries the ticket it had: the approval runs the call once, however often it is replayed', async () => {
    const ctx = createExecutionContext();
    const ask = user('/update_delivery_date {"order_id":"A-1004","new_date":"2026-12-23"}');
    const request = chatRequest({ id: 'replay-approval', messages: [ask] }, { headers: { cookie: cookie(), [RESUMABLE_TURN_HEADER]: 'turn-a' } });
    await readThenLeave(await fetchWorker(request, ctx), (text) => text.includes('"start"'));
    await waitOnExecutionContext(ctx);
    const replayed = async () => {
      const resumed = await fetchWorker(streamRequest('replay-approval', 'GET', { cookie: cookie(), [RESUMABLE_TURN_HEADER]: 'turn-a' }), createExecutionContext());
      expect(resumed.status).toBe(200);
      return fold(chunksOf(await resumed.text()));
    };
    const first = await replayed();
    const call = toolPart(first, 'update_delivery_date');
    expect(call?.state).toBe('approval-requested');
    const before = await counts();
    const approved = respond([ask, first], call?.toolCallId as string, true);
    const ran = await readTurn(await post({ id: 'replay-approval', messages: approved }), approved.at(-1));
    expect(toolPart(ran.message, 'update_delivery_date')?.state).toBe('output-available');
    expect(await rows('SELECT delivery_date FROM orders WHERE id = ?1', 'A-1004')).toEqual([{ delivery_date: '2026-12-23' }]);
    const after = await counts();
    expect(after.events).toBe(before.events + 1);
    // A later reload replays the same request, ticket and all: approving it again runs nothing more.
    const again = await replayed();
    expect(again).toEqual(first);
    const twice = respond([ask, again], call?.toolCallId as string, true);
    await readTurn(await post({ id: 'replay-approval', messages: twice }), twice.at(-1));
    expect(await counts()).toEqual(after);
  });

  it('a turn without a turn id is not recorded (its client cannot resume): it stops with its connection, as before', async () => {
    const ctx = createExecutionContext();
    const response = await fetchWorker(chatRequest({ id: 'plain-1', messages: [user('Where is order A-1002?')] }, { headers: { cookie: cookie() } }), ctx);
    await readThenLeave(response, (text) => text.includes('"start"'));
    await waitOnExecutionContext(ctx);
    expect(await rows('SELECT key FROM chat_streams')).toEqual([]);
    expect((await fetchWorker(streamRequest('plain-1', 'GET', { cookie: cookie() }), createExecutionContext())).status).toBe(204);
  });

  it('only an owner cookie the Worker could have made names an owner: a forged, malformed or huge one is none', () => {
    const owner = (header: string) => ownerOf(new Request('http://localhost/api/chat/c/stream', { headers: { cookie: header } }));
    expect(owner(`theme=dark; ${cookie()}`)).toBe(OWNER);
    expect(owner(cookie(crypto.randomUUID()))).toMatch(/^[0-9a-f-]{36}$/);
    // Well-formed for the old pattern, yet an id anyone can guess and share.
    expect(owner(cookie('-'.repeat(36)))).toBeUndefined();
    expect(owner(cookie('0'.repeat(36)))).toBeUndefined();
    expect(owner(`${cookie()}=x`)).toBeUndefined();
    expect(owner(cookie('AAAAAAAA-2222-4333-8444-555555555555'))).toBeUndefined();
    expect(owner(cookie('a'.repeat(64 * 1024)))).toBeUndefined();
    expect(owner('')).toBeUndefined();
  });

  it('a browser without the owner cookie gets one with its first resumable turn', async () => {
    const ctx = createExecutionContext();
    const response = await fetchWorker(chatRequest({ id: 'new-1', messages: [user('Hello')] }, { headers: { [RESUMABLE_TURN_HEADER]: 'turn-1' } }), ctx);
    const set = response.headers.get('set-cookie') ?? '';
    expect(set).toMatch(new RegExp(`^${OWNER_COOKIE}=[0-9a-f-]{36}; Path=/api/chat; HttpOnly; SameSite=Strict`));
    await response.text();
    await waitOnExecutionContext(ctx);
  });

  it('a recording whose turn id is none a client sends, or whose rows were tampered with, is not resumed: 204 or an error, never the wrong bytes', async () => {
    const ctx = createExecutionContext();
    const request = chatRequest({ id: 'tampered', messages: [user('Hello')] }, { headers: { cookie: cookie(), [RESUMABLE_TURN_HEADER]: 'turn-t' } });
    await readThenLeave(await fetchWorker(request, ctx), (text) => text.includes('"start"'));
    await waitOnExecutionContext(ctx);
    const get = (turnId?: string) =>
      fetchWorker(streamRequest('tampered', 'GET', { cookie: cookie(), ...(turnId === undefined ? {} : { [RESUMABLE_TURN_HEADER]: turnId }) }), createExecutionContext());
    expect((await get('turn-t')).status).toBe(200);
    // Another version's turn id (or a tampered one): no GET gets it, not even one that names no turn.
    await env.DB.batch([
      env.DB.prepare("UPDATE chat_streams SET turn_id = 'turn t'"),
      env.DB.prepare("UPDATE chat_stream_chunks SET turn_id = 'turn t'"),
    ]);
    expect((await get()).status).toBe(204);
    expect((await get('turn-t')).status).toBe(204);
    // Rows that do not join up: the read fails (a JSON 500), rather than replay the answer with a piece missing.
    await env.DB.batch([
      env.DB.prepare("UPDATE chat_streams SET turn_id = 'turn-t'"),
      env.DB.prepare("UPDATE chat_stream_chunks SET turn_id = 'turn-t', position = position + 1"),
    ]);
    const broken = await get('turn-t');
    expect(broken.status).toBe(500);
    expect(((await broken.json()) as { error: { code: string } }).error.code).toBe('internal-error');
  });

  it('DELETE (Stop) stops a detached turn, and a reload then resumes nothing', async () => {
    const ctx = createExecutionContext();
    const request = chatRequest({ id: 'stop-1', messages: [user('Where is order A-1002?')] }, { headers: { cookie: cookie(), [RESUMABLE_TURN_HEADER]: 'turn-1' } });
    const response = await fetchWorker(request, ctx, { OFFLINE_DELAY_MS: '200' });
    // The DELETE lands before the POST's connection closes: the detaching turn reads the mark first.
    const stopped = await fetchWorker(streamRequest('stop-1', 'DELETE', { cookie: cookie() }), createExecutionContext());
    expect(stopped.status).toBe(204);
    await readThenLeave(response, (text) => text.includes('"start"'));
    await waitOnExecutionContext(ctx);
    expect(await rows('SELECT key FROM chat_streams')).toEqual([]);
    expect((await fetchWorker(streamRequest('stop-1', 'GET', { cookie: cookie() }), createExecutionContext())).status).toBe(204);
    // Another site may not stop a chat; a chat id that is none is refused.
    const forged = streamRequest('stop-1', 'DELETE', { cookie: cookie(), origin: 'https://evil.example' });
    expect((await fetchWorker(forged, createExecutionContext())).status).toBe(403);
    expect((await fetchWorker(streamRequest('x'.repeat(201), 'GET', { cookie: cookie() }), createExecutionContext())).status).toBe(400);
  });
});
