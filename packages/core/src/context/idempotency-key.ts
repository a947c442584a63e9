import { contextKey, type ContextKey } from './context-key.ts';

/** Options for {@link idempotencyKeyOf}: one call of one conversation, and the nonce of the ticket that approved it. */
export interface IdempotencyKeyOptions {
  readonly conversationId: string;
  readonly callId: string;
  /** The approval ticket's nonce (or the ticket itself when its signer reads none); absent for a call run without one. */
  readonly nonce?: string | undefined;
}

/**
 * The key `ctx.idempotencyKey` gives a tool: its conversation, its call id and, for a call approved with a ticket, that
 * ticket's nonce, as JSON (unambiguous whatever the ids hold). The nonce tells apart two calls given one id (a model
 * that repeats `call_0`, regenerated); a continuation sent again carries the same ticket, so it gets the same key.
 */
export function idempotencyKeyOf(options: IdempotencyKeyOptions): string {
  const { conversationId, callId, nonce } = options;
  return JSON.stringify(nonce === undefined ? [conversationId, callId] : [conversationId, callId, nonce]);
}

/** Where the approval layer puts the nonce of the ticket it verified for this call (read by `ctx.idempotencyKey`). */
export const approvedNonceKey: ContextKey<string> = contextKey<string>('edgetool.approved-nonce');
