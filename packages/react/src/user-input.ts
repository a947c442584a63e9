import type { ToolContext } from '@edgetool/core';
import { ToolError } from '@edgetool/core';
import { useSyncExternalStore } from 'react';

/** A question a browser tool asked the user, waiting for an answer from the UI. */
export interface UserQuestion<TQuestion> {
  /** The tool call id: render the question inside that call's card. */
  readonly id: string;
  readonly toolName: string;
  readonly question: TQuestion;
}

/** Lets a browser tool's `execute` wait for the user: the tool asks, a component answers. */
export interface UserInput<TQuestion, TAnswer> {
  /** Asks on behalf of a call; resolves with the answer, rejects with `aborted` when the call is aborted. */
  ask(ctx: ToolContext, question: TQuestion): Promise<TAnswer>;
  /** Answers the question of a call (no-op when it is no longer asked). */
  answer(id: string, value: TAnswer): void;
  /** Declines to answer: the call ends as `approval-denied` with this reason (nothing ran). */
  decline(id: string, reason?: string): void;
  /** The questions waiting now (a stable array between changes). */
  questions(): readonly UserQuestion<TQuestion>[];
  subscribe(listener: () => void): () => void;
}

interface Waiting<TQuestion, TAnswer> {
  readonly entry: UserQuestion<TQuestion>;
  readonly resolve: (value: TAnswer) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Creates a store for interactive browser tools (a date picker, a confirmation form): the tool's
 * `execute` awaits `ask(ctx, question)`, and the UI lists `questions()` and calls `answer`.
 */
export function createUserInput<TQuestion, TAnswer>(): UserInput<TQuestion, TAnswer> {
  const waiting = new Map<string, Waiting<TQuestion, TAnswer>>();
  const listeners = new Set<() => void>();
  let snapshot: readonly UserQuestion<TQuestion>[] = [];

  const changed = () => {
    snapshot = [...waiting.values()].map((w) => w.entry);
    for (const listener of listeners) listener();
  };

  const settle = (id: string): Waiting<TQuestion, TAnswer> | undefined => {
    const found = waiting.get(id);
    if (found) {
      waiting.delete(id);
      changed();
    }
    return found;
  };

  return {
    ask(ctx, question) {
      const id = ctx.call.id;
      const meta = { toolName: ctx.tool.name, callId: id };
      if (ctx.signal.aborted) return Promise.reject(new ToolError('aborted', 'The call was aborted before the user answered.', meta));
      return new Promise<TAnswer>((resolve, reject) => {
        settle(id)?.reject(new ToolError('aborted', 'The question was asked again.', meta));
        const onAbort = () => settle(id)?.reject(new ToolError('aborted', 'The call was aborted before the user answered.', meta));
        ctx.signal.addEventListener('abort', onAbort, { once: true });
        waiting.set(id, {
          entry: { id, toolName: ctx.tool.name, question },
          resolve: (value) => {
            ctx.signal.removeEventListener('abort', onAbort);
            resolve(value);
          },
          reject: (error) => {
            ctx.signal.removeEventListener('abort', onAbort);
            reject(error);
          },
        });
        changed();
      });
    },
    answer(id, value) {
      settle(id)?.resolve(value);
    },
    decline(id, reason) {
      const found = settle(id);
      // The user said no: an `approval-denied` the UI and the model can tell from a tool that failed.
      found?.reject(new ToolError('approval-denied', reason ?? 'The user declined to answer.', { toolName: found.entry.toolName, callId: id }));
    },
    questions: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The questions of a {@link UserInput} store, re-rendering when they change. */
export function useUserQuestions<TQuestion, TAnswer>(input: UserInput<TQuestion, TAnswer>): readonly UserQuestion<TQuestion>[] {
  return useSyncExternalStore(input.subscribe, input.questions, input.questions);
}
