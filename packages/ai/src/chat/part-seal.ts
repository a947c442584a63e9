// Not in the barrel: how a model step's part seal (`data-edgetool-part-seal`) reads the parts it covers, for the turn
// stream that issues it and `verifyContinuation` that checks it.
import type { SealSubject } from '@edgetool/core';
import { jsonForm } from './proofs.ts';

/**
 * The part types of an assistant's message whose `providerMetadata` the AI SDK sends back to the provider (as the
 * part's `providerOptions`), which a step's part seal covers. A source part's metadata never reaches the provider.
 */
export type SealedPartType = 'text' | 'reasoning' | 'file' | 'reasoning-file' | 'custom';

/**
 * The part types whose `providerMetadata` no part seal covers, because it never reaches the provider:
 * `convertToModelMessages` leaves source parts out of the prompt (a type test holds both lists to the installed `ai`).
 */
export type UnsealedPartType = 'source-url' | 'source-document';

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
