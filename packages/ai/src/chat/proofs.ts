import { parseJson, type SealSubject, type TicketSigner } from '@edgetool/core';

/** Default lifetime of a result seal: history older than this must be re-run, not trusted. */
export const DEFAULT_SEAL_TTL_MS: number = 30 * 24 * 60 * 60 * 1000;

/** A finished call of a conversation, as a seal covers it. */
export interface SealedCall {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: unknown;
  /**
   * The model's arguments, when a human edited them before approving (`input` is what ran): the seal covers both, so a
   * client can change neither what ran nor what the model reads it proposed. Absent for a call that ran as proposed.
   */
  readonly proposed?: unknown;
  /** The provider's metadata of the model's call, when it had some (the part's `callProviderMetadata`). */
  readonly callMeta?: unknown;
  /** The provider's metadata of the result, when it had some (the part's `resultProviderMetadata`). */
  readonly resultMeta?: unknown;
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
    content: jsonForm({
      input: options.input,
      ...('proposed' in options ? { proposed: options.proposed } : {}),
      ...(options.callMeta === undefined ? {} : { callProviderMetadata: options.callMeta }),
      ...(options.resultMeta === undefined ? {} : { resultProviderMetadata: options.resultMeta }),
      ...options.result,
    }),
    conversationId: options.conversationId,
  };
}

/**
 * What a ticket part's `metadataSeal` binds: the provider metadata of a call the server handed out for an answer (an
 * approval, a client's result), which the part carries back with that answer. Its content has a key no result seal has.
 */
export function metadataSubject(options: { toolName: string; toolCallId: string; meta: unknown; conversationId: string }): SealSubject {
  return {
    toolName: options.toolName,
    callId: options.toolCallId,
    content: jsonForm({ metadataOfCall: options.meta }),
    conversationId: options.conversationId,
  };
}

/** The provider metadata of a tool part the AI SDK sends to the provider: `undefined` when none (or `null`). */
export function providerMetadataOf(part: { readonly callProviderMetadata?: unknown; readonly resultProviderMetadata?: unknown }): {
  callMeta?: unknown;
  resultMeta?: unknown;
} {
  return {
    ...(part.callProviderMetadata == null ? {} : { callMeta: part.callProviderMetadata }),
    ...(part.resultProviderMetadata == null ? {} : { resultMeta: part.resultProviderMetadata }),
  };
}

/** The value as it looks after `JSON.stringify` + `JSON.parse` (what travels to the client and back). */
export function toJsonValue(value: unknown): unknown {
  const json = JSON.stringify(value);
  return json === undefined ? null : parseJson(json);
}

/**
 * {@link toJsonValue}, without the round trip for values that are JSON data already (plain objects, arrays,
 * strings, finite numbers, booleans, `null`, and `undefined` members, which the canonical JSON drops as
 * `JSON.stringify` does): most tool inputs and outputs. Those canonicalise to the same text either way.
 */
export function jsonForm(value: unknown): unknown {
  return value !== undefined && isJsonData(value, 0) ? value : toJsonValue(value);
}

function isJsonData(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      // Deep values (and cycles) take the round trip, which reports a cycle as JSON.stringify does.
      if (depth > 64) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (value[i] === undefined || !isJsonData(value[i], depth + 1)) return false;
        return true;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if ((proto !== Object.prototype && proto !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
      for (const key in value) if (Object.hasOwn(value, key) && !isJsonData((value as Record<string, unknown>)[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

/** Seals a call's result (what the turn stream sends before it). */
export function sealResult(tickets: TicketSigner, call: SealedCall, ttlMs: number): Promise<string> {
  return tickets.seal(sealSubject(call), { ttlMs });
}
