import type { EdgetoolUIMessage, TicketPartData, TracePartData } from '@edgetool/ai';

type Part = Record<string, unknown>;

/** An assistant message from parts (tool parts as `tool-<name>`). */
export function assistant(parts: Part[], metadata?: EdgetoolUIMessage['metadata']): EdgetoolUIMessage {
  return { id: 'a1', role: 'assistant', parts: parts as never, ...(metadata ? { metadata } : {}) };
}

/** A user message. */
export function user(text: string, id = 'u1'): EdgetoolUIMessage {
  return { id, role: 'user', parts: [{ type: 'text', text }] };
}

/** A tool part. */
export function toolPart(toolName: string, toolCallId: string, state: string, extra: Part = {}): Part {
  return { type: `tool-${toolName}`, toolCallId, state, input: { q: toolCallId }, ...extra };
}

/** A `data-edgetool-ticket` part. */
export function ticket(toolName: string, toolCallId: string, purpose: TicketPartData['purpose'], runsOn: TicketPartData['runsOn'] = 'client'): Part {
  return { type: 'data-edgetool-ticket', id: toolCallId, data: { toolCallId, toolName, purpose, runsOn, ticket: `et1.k1.${toolCallId}` } };
}

/** A `data-edgetool-seal` part. */
export function seal(toolName: string, toolCallId: string): Part {
  return { type: 'data-edgetool-seal', id: toolCallId, data: { toolCallId, toolName, seal: `et1.k1.seal-${toolCallId}` } };
}

/** A `data-edgetool-trace` part (server side, success). */
export function trace(toolName: string, toolCallId: string, durationMs = 4): Part {
  const data: TracePartData = {
    toolCallId,
    toolName,
    side: 'server',
    outcome: 'success',
    errorCode: undefined,
    durationMs,
    spans: [
      { name: 'trace', kind: 'interceptor', depth: 0, start: 100, duration: durationMs, outcome: 'success' },
      { name: toolName, kind: 'execute', depth: 1, start: 101, duration: durationMs - 2, outcome: 'success' },
    ],
  };
  return { type: 'data-edgetool-trace', id: toolCallId, data };
}

/** A `step-start` part. */
export const stepStart: Part = { type: 'step-start' };
