import { ToolError } from '../errors/tool-error.ts';

const SNIPPET = 120;

/**
 * Parses a model's raw arguments. Text is JSON-parsed (empty text means `{}`, which models send
 * for tools without parameters); anything else is taken as already parsed. Malformed JSON is a
 * typed `invalid-json` error, never an exception.
 */
export function parseArguments(raw: unknown, meta: { toolName: string; callId: string }): { ok: true; value: unknown } | { ok: false; error: ToolError } {
  if (typeof raw !== 'string') return { ok: true, value: raw === undefined ? {} : raw };
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (error) {
    const snippet = raw.length > SNIPPET ? `${raw.slice(0, SNIPPET)}… (${raw.length} chars)` : raw;
    const detail = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: new ToolError('invalid-json', `The arguments for "${meta.toolName}" are not valid JSON (${detail}). Received: ${snippet}`, {
        toolName: meta.toolName,
        callId: meta.callId,
        cause: error,
      }),
    };
  }
}
