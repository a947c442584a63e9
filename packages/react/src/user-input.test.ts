import { createExecutor, defineTool } from '@edgetool/core';
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

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 1));
};

describe('createUserInput', () => {
  it('a tool waits for the answer the UI gives', async () => {
    const { input, executor } = setup();
    let changes = 0;
    input.subscribe(() => changes++);
    const running = executor.execute({ id: 'c1', name: 'pick_date', arguments: { question: 'When?' } });
    await until(() => input.questions().length > 0);
    expect(input.questions()).toEqual([{ id: 'c1', toolName: 'pick_date', question: { question: 'When?' } }]);
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
    await until(() => input.questions().length > 0);
    input.decline('c1', 'not now');
    expect((await declined).outcome).toMatchObject({ type: 'error', error: { code: 'approval-denied', message: 'not now', toolName: 'pick_date', callId: 'c1' } });

    const controller = new AbortController();
    const aborted = executor.execute({ id: 'c2', name: 'pick_date', arguments: { question: 'When?' } }, { signal: controller.signal });
    await until(() => input.questions().length > 0);
    controller.abort();
    expect((await aborted).outcome).toMatchObject({ type: 'error', error: { code: 'aborted' } });
    expect(input.questions()).toEqual([]);
  });
});
