import type { EdgetoolUIMessage } from './protocol.ts';

/**
 * The history as the model's provider may read it: the provider metadata of each tool part no proof of this server
 * covers (`unproven`, see `VerifiedContinuation.unproven`) is dropped, and so is that of each text, reasoning, file,
 * reasoning-file and custom part no part seal covers (`unprovenParts`, the part objects), of every part of a
 * `steering-message` (a user's words, which the AI SDK sends as a user message), and every file part's
 * `providerReference` (a file in the provider's storage: this server never hands one to a client, and a client's would
 * name any file the provider keeps for the account). The same array when there is nothing to drop.
 */
export function withoutUnprovenMetadata(messages: EdgetoolUIMessage[], unproven: ReadonlySet<string>, unprovenParts: ReadonlySet<unknown>): EdgetoolUIMessage[] {
  let changed = false;
  const out = messages.map((message) => {
    let parts: typeof message.parts | undefined;
    for (const [index, part] of message.parts.entries()) {
      const kept = keptOf(unprovenParts.size > 0 && unprovenParts.has(part) ? withoutProviderMetadata(part) : part, unproven);
      if (kept === part) continue;
      parts ??= [...message.parts];
      parts[index] = kept;
    }
    if (parts === undefined) return message;
    changed = true;
    return { ...message, parts };
  });
  return changed ? out : messages;
}

/** A part without what the provider must not read of it; the very part when it has nothing to drop. */
function keptOf<T>(part: T, unproven: ReadonlySet<string>): T {
  const p = part as { type?: unknown; toolCallId?: unknown; providerReference?: unknown; parts?: unknown };
  if (p.type === 'file' && p.providerReference !== undefined) {
    const { providerReference: _dropped, ...rest } = p;
    return rest as T;
  }
  if (p.type === 'steering-message' && Array.isArray(p.parts)) {
    // The AI SDK makes it a user message: its parts' metadata and file references are the client's own.
    const inner: unknown[] = p.parts;
    const kept = inner.map((q) => keptOf(withoutProviderMetadata(q), unproven));
    return kept.some((q, i) => q !== inner[i]) ? ({ ...p, parts: kept } as T) : part;
  }
  if (typeof p.toolCallId !== 'string' || !unproven.has(p.toolCallId)) return part;
  const { callProviderMetadata: _call, resultProviderMetadata: _result, ...rest } = p as { callProviderMetadata?: unknown; resultProviderMetadata?: unknown };
  return rest as T;
}

/** A part without its `providerMetadata`, which the AI SDK would send to the provider as its options; the very part without any. */
function withoutProviderMetadata<T>(part: T): T {
  if (typeof part !== 'object' || part === null || !('providerMetadata' in part)) return part;
  const { providerMetadata: _dropped, ...rest } = part as { providerMetadata?: unknown };
  return rest as T;
}
