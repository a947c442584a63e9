import { createExecutor, createRunContext, defineTool } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createUserInput } from './user-input.ts';

function setup() {
  const input = createUserInput<{ question: string }, string>();
  const pickDate = defineTool({
    name: 'pick_date',
    description: 'The user picks a date',
    input: v.object({ question: v.string() }),
    policy: { runsOn: 'client' },
    execute: ({ question }, ctx) => input.ask(ctx, { question }),
  });
  return { input, executor: createExecutor({ side: 'client', registry: [pickDate] }) };
}

/**
 * Resolves once `check` holds, looked at again on every change `input` announces: the questions' own event, not a poll
 * of a hundred 1 ms sleeps (a bound that a busy machine can outlast). A change that never comes is the test's time limit.
 */
const until = (input: { subscribe(listener: () => void): () => void }, check: () => boolean) =>
  new Promise<void>((resolve) => {
    if (check()) return resolve();
    const off = input.subscribe(() => {
      if (!check()) return;
      off();
      resolve();
    });
  });

describe('createUserInput', () => {
  it('a tool waits for the answer the UI gives', async () => {
    const { input, executor } = setup();
    let changes = 0;
    input.subscribe(() => changes++);
    const running = executor.execute({ id: 'c1', name: 'pick_date', arguments: { question: 'When?' } });
    await until(input, () => input.questions().length > 0);
    // A call without a run has a conversation id of its own: its question's chatId.
    expect(input.questions()).toEqual([{ id: 'c1', chatId: expect.any(String), toolName: 'pick_date', question: { question: 'When?' } }]);
    expect(input.questions()).toBe(input.questions()); // stable snapshot for useSyncExternalStore
    input.answer('c1', '2026-12-24');
    expect((await running).outcome).toEqual({ type: 'success', output: '2026-12-24' });
    expect(input.questions()).toEqual([]);
    expect(changes).toBe(2);
    input.answer('c1', 'late'); // no-op
  });

  it('a decline fails the call; an abort removes the question', async () => {
    const { input, executor } = setup();
    const declined = executor.execute({ id: 'c1', name: 'pick_date', arguments: { question: 'When?' } });
    await until(input, () => input.questions().length > 0);
    input.decline('c1', 'not now');
    expect((await declined).outcome).toMatchObject({ type: 'error', error: { code: 'approval-denied', message: 'not now', toolName: 'pick_date', callId: 'c1' } });

    const controller = new AbortController();
    const aborted = executor.execute({ id: 'c2', name: 'pick_date', arguments: { question: 'When?' } }, { signal: controller.signal });
    await until(input, () => input.questions().length > 0);
    controller.abort();
    expect((await aborted).outcome).toMatchObject({ type: 'error', error: { code: 'aborted' } });
    expect(input.questions()).toEqual([]);
  });

  it('two chats on one page whose calls share an id (a model that sends call_0 every time) each keep their question', async () => {
    const { input, executor } = setup();
    const ask = (chat: string, question: string) => executor.execute({ id: 'call_0', name: 'pick_date', arguments: { question } }, { run: createRunContext({ conversationId: chat }) });
    const first = ask('chat-a', 'Delivery?');
    await until(input, () => input.questions().length === 1);
    const second = ask('chat-b', 'Pickup?');
    await until(input, () => input.questions().length === 2);
    // The second question did not end the first as "asked again": it belongs to another chat.
    expect(input.questions()).toEqual([
      { id: 'call_0', chatId: 'chat-a', toolName: 'pick_date', question: { question: 'Delivery?' } },
      { id: 'call_0', chatId: 'chat-b', toolName: 'pick_date', question: { question: 'Pickup?' } },
    ]);
    // The call id alone cannot say which: nothing is answered, and the developer is told to pass the question.
    expect(() => input.answer('call_0', 'x')).toThrow(TypeError);
    expect(() => input.decline('call_0')).toThrow(TypeError);
    const [a, b] = input.questions();
    input.answer(b as NonNullable<typeof b>, '2026-12-25');
    expect((await second).outcome).toEqual({ type: 'success', output: '2026-12-25' });
    // One question of that call id left: its id alone names it.
    input.answer('call_0', '2026-12-24');
    expect((await first).outcome).toEqual({ type: 'success', output: '2026-12-24' });
    expect(a?.chatId).toBe('chat-a');
    expect(input.questions()).toEqual([]);
  });
});
