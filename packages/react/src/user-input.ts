import type { ToolContext } from '@edgetool/core';
import { ToolError } from '@edgetool/core';
import { useSyncExternalStore } from 'react';

/** A question a browser tool asked the user, waiting for an answer from the UI. */
export interface UserQuestion<TQuestion> {
  /** The tool call id: render the question inside that call's card. */
  readonly id: string;
  /**
   * The chat that asked (the call's `ctx.run.conversationId`, the hook's chat id): two chats on one page may make calls
   * with the same id (a model that sends `call_0` every time).
   */
  readonly chatId: string;
  readonly toolName: string;
  readonly question: TQuestion;
}

/** Which question an answer is for: its call id, or the question itself (its chat too, when two chats share a call id). */
export type QuestionRef = string | Pick<UserQuestion<unknown>, 'id' | 'chatId'>;

/** Lets a browser tool's `execute` wait for the user: the tool asks, a component answers. */
export interface UserInput<TQuestion, TAnswer> {
  /** Asks on behalf of a call; resolves with the answer, rejects with `aborted` when the call is aborted. */
  ask(ctx: ToolContext, question: TQuestion): Promise<TAnswer>;
  /**
   * Answers the question of a call (no-op when it is no longer asked). A call id that two chats' questions share names
   * neither: a `TypeError` is thrown and nothing is answered; pass the question.
   */
  answer(question: QuestionRef, value: TAnswer): void;
  /** Declines to answer: the call ends as `approval-denied` with this reason (nothing ran). Names a question as `answer` does. */
  decline(question: QuestionRef, reason?: string): void;
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

  // By chat and call: a question of another chat with the same call id is another question.
  const keyOf = (chatId: string, id: string) => JSON.stringify([chatId, id]);

  const settle = (key: string): Waiting<TQuestion, TAnswer> | undefined => {
    const found = waiting.get(key);
    if (found) {
      waiting.delete(key);
      changed();
    }
    return found;
  };

  /** The key of the question `ref` names, if it is asked; throws when a bare call id names several chats' questions. */
  const find = (ref: QuestionRef): string | undefined => {
    if (typeof ref !== 'string') return keyOf(ref.chatId, ref.id);
    const keys = [...waiting].filter(([, w]) => w.entry.id === ref).map(([key]) => key);
    if (keys.length > 1) throw new TypeError(`Questions of ${keys.length} chats have the call id "${ref}": pass the question (its chatId says which).`);
    return keys[0];
  };
  const settleRef = (ref: QuestionRef) => {
    const key = find(ref);
    return key === undefined ? undefined : settle(key);
  };

  return {
    ask(ctx, question) {
      const id = ctx.call.id;
      const chatId = ctx.run.conversationId;
      const key = keyOf(chatId, id);
      const meta = { toolName: ctx.tool.name, callId: id };
      if (ctx.signal.aborted) return Promise.reject(new ToolError('aborted', 'The call was aborted before the user answered.', meta));
      return new Promise<TAnswer>((resolve, reject) => {
        settle(key)?.reject(new ToolError('aborted', 'The question was asked again.', meta));
        const onAbort = () => settle(key)?.reject(new ToolError('aborted', 'The call was aborted before the user answered.', meta));
        ctx.signal.addEventListener('abort', onAbort, { once: true });
        waiting.set(key, {
          entry: { id, chatId, toolName: ctx.tool.name, question },
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
    answer(ref, value) {
      settleRef(ref)?.resolve(value);
    },
    decline(ref, reason) {
      const found = settleRef(ref);
      // The user said no: an `approval-denied` the UI and the model can tell from a tool that failed.
      found?.reject(new ToolError('approval-denied', reason ?? 'The user declined to answer.', { toolName: found.entry.toolName, callId: found.entry.id }));
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
