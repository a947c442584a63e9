import type { SealSubject, TicketSigner } from '@edgetool/core';

/** Default lifetime of a result seal: history older than this must be re-run, not trusted. */
export const DEFAULT_SEAL_TTL_MS: number = 30 * 24 * 60 * 60 * 1000;

/** A finished call of a conversation, as a seal covers it. */
export interface SealedCall {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: unknown;
  /** The output, the error text, or a denial with the reason the model reads (`null` when none). */
  readonly result: { readonly output: unknown } | { readonly errorText: string } | { readonly deniedReason: string | null };
  readonly conversationId: string;
}

/** What a seal binds: the call, its input, and exactly the output or error text the client holds. */
export function sealSubject(options: SealedCall): SealSubject {
  return {
    toolName: options.toolName,
    callId: options.toolCallId,
    // The client holds JSON: seal the JSON form, so Dates, undefined fields etc. compare equal after the round trip.
    content: toJsonValue({ input: options.input, ...options.result }),
    conversationId: options.conversationId,
  };
}

/** The value as it looks after `JSON.stringify` + `JSON.parse` (what travels to the client and back). */
export function toJsonValue(value: unknown): unknown {
  const json = JSON.stringify(value);
  return json === undefined ? null : JSON.parse(json);
}

/** Seals a call's result (what the turn stream sends before it). */
export function sealResult(tickets: TicketSigner, call: SealedCall, ttlMs: number): Promise<string> {
  return tickets.seal(sealSubject(call), { ttlMs });
}
