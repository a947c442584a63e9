// Helpers shared by the chat loop's tests (test-only code, not part of the package).
import { createMemoryNonceStore, type NonceStore, ToolError } from '@edgetool/core';
import type { UIMessageChunk } from 'ai';
import { expect } from 'vitest';
import { PROGRESS_PART, type ProgressPartData } from '../chat/protocol.ts';
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
