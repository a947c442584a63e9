// POST /api/chat through the Worker's own fetch handler with an ExecutionContext: the record of an approved call (its
// result, or that it was given up on before it started) is written under ctx.waitUntil, so that a client that leaves
// does not cut the write off (review34: approve34 left it to the request, which workerd may stop with its client).
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { EdgetoolUIMessage } from '@edgetool/ai';
import { describe, expect, it, vi } from 'vitest';
import { chatRequest, readTurn, respond, rows, toolPart, user } from '../../test/chat-client.ts';
import worker from '../index.ts';

/** One turn through the Worker's fetch handler; the promises it handed to ctx.waitUntil, settled. */
async function turn(body: { id: string; messages: EdgetoolUIMessage[] }) {
  const ctx = createExecutionContext();
  const waitUntil = vi.spyOn(ctx, 'waitUntil');
  const request = chatRequest(body, { headers: { 'content-type': 'application/json' } });
  const result = await readTurn(await worker.fetch(request as Parameters<typeof worker.fetch>[0], env, ctx), body.messages.at(-1));
  await waitOnExecutionContext(ctx);
  return { ...result, handed: waitUntil.mock.calls.length };
}

describe('POST /api/chat hands the record of an approved call to ctx.waitUntil', () => {
  it('the approved write runs, and its record in D1 was written under waitUntil (one hand-off, none for the question)', async () => {
    const question = user('/update_delivery_date {"order_id":"A-1003","new_date":"2026-12-30"}');
    const first = await turn({ id: 'wait-until', messages: [question] });
    const part = toolPart(first.message, 'update_delivery_date');
    expect(part?.state).toBe('approval-requested');
    expect(first.handed).toBe(0);
    const approved = respond([question, first.message], part?.toolCallId as string, true);
    const second = await turn({ id: 'wait-until', messages: approved });
    expect(toolPart(second.message, 'update_delivery_date')?.state).toBe('output-available');
    expect(second.handed).toBe(1);
    expect(await rows('SELECT key FROM call_results')).toHaveLength(1);
  });
});
