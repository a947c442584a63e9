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

/**
 * The part types of an assistant's message whose `providerMetadata` the AI SDK sends back to the provider (as the
 * part's `providerOptions`), which a step's part seal covers. A source part's metadata never reaches the provider.
 */
export type SealedPartType = 'text' | 'reasoning' | 'file' | 'reasoning-file' | 'custom';

/** Whether a part's type is one whose metadata a part seal covers (see {@link SealedPartType}). */
export function isSealedPartType(type: unknown): type is SealedPartType {
  return type === 'text' || type === 'reasoning' || type === 'file' || type === 'reasoning-file' || type === 'custom';
}

/**
 * A part of a model step that carries provider metadata, as a part seal covers it: its place among the step's parts of
 * a {@link SealedPartType} (so metadata moved to another part no longer matches), its type, its metadata, and what the
 * provider reads with that metadata (`bound`: a file's `url` and `mediaType`, a custom part's `kind`; see {@link boundOf}).
 */
export interface SealedPartMetadata {
  readonly index: number;
  readonly type: SealedPartType;
  readonly meta: unknown;
  readonly bound: readonly unknown[];
}

/**
 * What a part seal binds beside a part's metadata, read from the part or from the chunk that made it (same fields): a
 * file's or reasoning file's `url` and `mediaType` (a signature the provider issued for that file stays with it), a
 * custom part's `kind` (the provider reads the metadata by it: `openai.compaction`); nothing for text and reasoning,
 * whose words a client may edit.
 */
export function boundOf(type: SealedPartType, part: { readonly url?: unknown; readonly mediaType?: unknown; readonly kind?: unknown }): readonly unknown[] {
  if (type === 'file' || type === 'reasoning-file') return [part.url, part.mediaType];
  return type === 'custom' ? [part.kind] : [];
}

/** The name a part seal's subject gives in place of a tool's: its content also has a key no other seal's has. */
const PART_SEAL_SUBJECT = 'edgetool:part-metadata';

/**
 * What a step's part seal (`data-edgetool-part-seal`) binds: its own id (once in a conversation), and for each of the
 * step's parts that had provider metadata, in order, its place, type, metadata and what is bound with it.
 */
export function partMetadataSubject(options: { id: string; parts: readonly SealedPartMetadata[]; conversationId: string }): SealSubject {
  return {
    toolName: PART_SEAL_SUBJECT,
    callId: options.id,
    content: jsonForm({ metadataOfParts: options.parts.map((part) => [part.index, part.type, part.meta, ...part.bound]) }),
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
