// Helpers shared by the chat loop's tests (test-only code, not part of the package).
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { type AnyTool, createMemoryNonceStore, defineTool, type NonceStore, ToolError } from '@edgetool/core';
import * as v from 'valibot';
import { readUIMessageStream, type UIMessageChunk } from 'ai';
import { expect } from 'vitest';
import { type EdgetoolUIMessage, PROGRESS_PART, type ProgressPartData } from '../chat/protocol.ts';
import { ContinuationError } from '../chat/verify-continuation.ts';

/** A gate a test opens when it has seen what it waits for. */
export function gate(): { open: () => void; opened: Promise<void> } {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** Reads a stream chunk by chunk, calling `onChunk` after each (a test can react to what it sees). */
export async function readAll(stream: ReadableStream<UIMessageChunk>, onChunk: (chunk: UIMessageChunk) => void = () => {}): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
    onChunk(value);
  }
}

/** The progress parts of a turn's chunks. */
export const progressOf = (chunks: readonly UIMessageChunk[]): { id?: string; data: ProgressPartData; transient?: boolean }[] =>
  chunks.filter((c) => c.type === PROGRESS_PART).map((c) => c as { id?: string; data: ProgressPartData; transient?: boolean });

/** The `ContinuationError` (a `ToolError`) that `promise` rejects with; fails the test when it resolves. */
export async function refused(promise: Promise<unknown>): Promise<ContinuationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ContinuationError);
  expect(ToolError.isInstance(error)).toBe(true);
  return error as ContinuationError;
}

/** A nonce store that records each `claimDecision` and what it answered (`true`: this call claimed the nonce). */
export function recording(store: NonceStore = createMemoryNonceStore()): { store: NonceStore; claims: (true | string | null)[] } {
  const claims: (true | string | null)[] = [];
  const recorded: NonceStore = {
    claim: (n, e) => store.claim(n, e),
    has: (n) => store.has?.(n) ?? Promise.resolve(false),
    claimDecision: async (n, e, d) => {
      const answer = await (store.claimDecision as NonNullable<NonceStore['claimDecision']>)(n, e, d);
      claims.push(answer);
      return answer;
    },
  };
  return { store: recorded, claims };
}

/** What the model read as the result of call `id` in a prompt (the tool-result's output), or `undefined`. */
export function readInPrompt(prompt: LanguageModelV4CallOptions['prompt'] | undefined, id: string): unknown {
  for (const message of prompt ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result' && part.toolCallId === id) return part.output;
  }
  return undefined;
}

/**
 * `update_delivery_date`, a write the server runs once approved (the date editable), and the inputs it ran with; with
 * `hang`, it never settles and its `timeoutMs` (20) ends it.
 */
export function deliveryMove(hang = false): { move: AnyTool; writes: unknown[] } {
  const writes: unknown[] = [];
  const move = defineTool({
    name: 'update_delivery_date',
    description: 'Change a delivery date',
    input: v.object({ order_id: v.string(), new_date: v.pipe(v.string(), v.isoDate()) }),
    policy: { effects: 'write', editable: ['new_date'], ...(hang ? { timeoutMs: 20 } : {}) },
    execute: async (input) => {
      writes.push(input);
      if (hang) await new Promise(() => {});
      return { ...input, updated: true };
    },
  });
  return { move, writes };
}

/**
 * Folds `chunks` into `message` (a continued one), or into a new message, as useChat does with what reached it of a
 * response.
 */
export async function foldInto(message: EdgetoolUIMessage | undefined, chunks: readonly UIMessageChunk[]): Promise<EdgetoolUIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let folded = message === undefined ? undefined : structuredClone(message);
  for await (const snapshot of readUIMessageStream<EdgetoolUIMessage>({ stream, ...(folded === undefined ? {} : { message: folded }) })) folded = snapshot;
  if (folded === undefined) throw new Error('no message came');
  return folded;
}
