import type { ToolCallResult, ToolProgress, ToolSchema, ToolSpan } from '@edgetool/core';
import type { UIDataTypes, UIMessage } from 'ai';
import { knownCounts, type MessageUsage } from './usage.ts';

/** How a turn runs tools: the loop runs server tools itself, or hands every call back to the caller. */
export type ExecutionMode = 'internal' | 'manual';

/** A ticket issued with a pending call, as carried in the assistant message (`data-edgetool-ticket`). */
export interface TicketPartData {
  readonly toolCallId: string;
  readonly toolName: string;
  /** `approval`: the server runs the call once approved. `client-result`: the caller runs it and returns the result. */
  readonly purpose: 'approval' | 'client-result';
  readonly ticket: string;
  /** Where the tool runs, so a client knows whether to run it or only to authorise it. */
  readonly runsOn: 'server' | 'client' | 'anywhere';
  /**
   * For an approval: the arguments the human may edit before approving (`true`: any; the tool's `policy.editable`).
   * Absent when none may be edited. A UI offers editors for these; the server refuses any other change.
   */
  readonly editable?: true | readonly string[];
  /**
   * A seal over the call's provider metadata (`callProviderMetadata`: a Gemini thought signature, an OpenAI item id),
   * when the model's call had some: the part may carry it back with its answer only as the server issued it.
   */
  readonly metadataSeal?: string;
}

/**
 * The arguments a human edited before approving a call (`data-edgetool-edit`), added by the client to the message it
 * continues, beside the approval: the whole arguments, not only the changes. The server runs the call with them when
 * the tool's `policy.editable` allows every change, and records them in the result's seal.
 */
export interface EditPartData {
  readonly toolCallId: string;
  readonly input: unknown;
}

/** A server's attestation of a tool result in the history (`data-edgetool-seal`). */
export interface SealPartData {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly seal: string;
  /**
   * The arguments the call ran with, when a human edited them before approving (the tool part's `input` stays the
   * model's). Covered by the seal, and so is the part's `input` then: the model reads what it proposed and what ran.
   */
  readonly input?: unknown;
  /**
   * The seal covers the tool part's provider metadata too (`callProviderMetadata`, `resultProviderMetadata`): set when
   * the call had some. Without it, the part's metadata is not the server's, and is not sent to the provider.
   */
  readonly metadata?: true;
}

/**
 * A server's attestation of the provider metadata of the parts of one model step the AI SDK sends back to the provider
 * with theirs (text, reasoning, file, reasoning-file and custom parts: `data-edgetool-part-seal`), sent before the
 * step's end when one of them had some (an OpenAI item id, encrypted reasoning or compaction, Anthropic's signature):
 * that metadata goes back to the provider only as this server issued it.
 */
export interface PartSealPartData {
  /** The seal's own id, once in a conversation: the seal binds it, as a result's seal binds its call id. */
  readonly id: string;
  readonly seal: string;
}

/** One call's trace, for UIs (`data-edgetool-trace`). */
export interface TracePartData {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly side: 'server' | 'client';
  readonly outcome: ToolCallResult['outcome']['type'];
  readonly errorCode: string | undefined;
  readonly durationMs: number;
  readonly spans: readonly Pick<ToolSpan, 'name' | 'kind' | 'depth' | 'start' | 'duration' | 'outcome'>[];
  /** The tokens the call reported spending (`ctx.reportUsage()`: a sub-agent, a tool that calls a model); absent when none. */
  readonly usage?: MessageUsage;
  /**
   * An agent tool's call (`agentTool`): the calls its sub-agent made, in the order they ended, at most
   * {@link MAX_TRACE_SUB_CALLS} in the whole part (those of nested agents included). Absent for other calls.
   */
  readonly calls?: readonly SubCallTraceData[];
  /** How many of the sub-agent's calls are left out of `calls` (past the bound); absent when none. */
  readonly omittedCalls?: number;
}

/** The most sub-agent calls a trace part carries (`TracePartData.calls`, nested ones included): a UI needs no more. */
export const MAX_TRACE_SUB_CALLS = 20;

/** A call an agent tool's sub-agent made, as its agent call's trace part carries it (`TracePartData.calls`). */
export interface SubCallTraceData {
  /** The call's id in the sub-agent's conversation (not one of the chat's tool parts). */
  readonly toolCallId: string;
  readonly toolName: string;
  readonly outcome: TracePartData['outcome'];
  readonly errorCode: string | undefined;
  readonly durationMs: number;
  readonly spans: TracePartData['spans'];
  /** A nested agent's call: its sub-agent's calls, when they fit in the part's bound. */
  readonly calls?: readonly SubCallTraceData[];
  /** How many of a nested agent's calls are left out. */
  readonly omittedCalls?: number;
}

/**
 * The latest progress report of a running server call (`data-edgetool-progress`). Sent as a transient chunk: it
 * reaches `useChat`'s `onData` (and `useEdgeChat`'s `progress`) but never the message, the history or the model.
 */
export interface ProgressPartData extends ToolProgress {
  readonly toolCallId: string;
  readonly toolName: string;
}

/** A finished call's trace: what a trace part carries (`server`), or what the browser's timeline shows of its own calls (`client`). */
export function traceOf(result: ToolCallResult, side: TracePartData['side']): Omit<TracePartData, 'toolCallId' | 'toolName'> {
  return {
    side,
    outcome: result.outcome.type,
    errorCode: result.outcome.type === 'error' ? result.outcome.error.code : undefined,
    durationMs: result.durationMs,
    spans: spansOf(result),
    ...(result.usage === undefined ? {} : { usage: result.usage }),
  };
}

/** A call's spans, as trace parts carry them. */
export function spansOf(result: Pick<ToolCallResult, 'spans'>): TracePartData['spans'] {
  return result.spans.map(({ name, kind, depth, start, duration, outcome }) => ({ name, kind, depth, start, duration, outcome }));
}

/**
 * The limit a turn stopped at with the results of its last calls unread by the model: `'steps'` (`maxSteps` model steps
 * ran) or `'tokens'` (the turn used its `tokenBudget`).
 */
export type TurnLimit = 'steps' | 'tokens';

/**
 * The shape a turn's final answer must have (`generateTextTurn`'s and `agentTool`'s `output`): a valibot schema, any
 * Standard Schema with a JSON Schema (zod 4, arktype, …), or `jsonSchema(...)`, the kinds `defineTool`'s input takes.
 */
export type TurnOutputSchema<T = unknown> = ToolSchema<T>;

/** Metadata on each assistant message the loop produces. */
export interface EdgetoolMessageMetadata {
  readonly model?: { readonly provider: string; readonly modelId: string; readonly offline: boolean };
  readonly mode?: ExecutionMode;
  /**
   * The tokens this message cost, sent with its `finish`. A message continued over several requests (an approval, a
   * browser tool's result) shows all of them: each request adds its own tokens to what the message it continues says.
   * Display only, since a client can change it: the server's own count is each request's `usage`.
   */
  readonly usage?: MessageUsage;
  /**
   * The limit the turn stopped at before the model answered (`'steps'`: `maxSteps`, `'tokens'`: `tokenBudget`), so a UI
   * can say why there is no answer. Absent when it did not stop at one.
   */
  readonly limit?: TurnLimit;
}

/**
 * The data parts edgetool puts in messages, by name (`data-<name>` parts), and nothing else: a part narrowed by its
 * `type` has its own data. A type, not an interface, so it fits the AI SDK's `UIDataTypes` without an index signature.
 */
export type EdgetoolDataParts = {
  readonly 'edgetool-ticket': TicketPartData;
  readonly 'edgetool-seal': SealPartData;
  readonly 'edgetool-trace': TracePartData;
  readonly 'edgetool-progress': ProgressPartData;
  readonly 'edgetool-edit': EditPartData;
  readonly 'edgetool-part-seal': PartSealPartData;
};

/** An app's own data parts by name (`{ weather: Weather }` types `data-weather`); edgetool's names are taken. */
export type AppDataParts = UIDataTypes & { readonly [K in keyof EdgetoolDataParts]?: never };

/**
 * The UI message type of an edgetool chat: edgetool's data parts, and the app's own (`TData`, none by default) for
 * parts its server writes beside the agent's stream.
 */
export type EdgetoolUIMessage<TData extends AppDataParts = {}> = UIMessage<EdgetoolMessageMetadata, EdgetoolDataParts & TData>;

/** Data part type names. */
export const TICKET_PART = 'data-edgetool-ticket';
export const SEAL_PART = 'data-edgetool-seal';
export const TRACE_PART = 'data-edgetool-trace';
export const PROGRESS_PART = 'data-edgetool-progress';
export const EDIT_PART = 'data-edgetool-edit';
export const PART_SEAL_PART = 'data-edgetool-part-seal';

/** A tool part of a UI message, whatever its tool (static `tool-<name>` or `dynamic-tool`). */
export interface AnyToolPart {
  readonly type: string;
  readonly toolCallId: string;
  readonly toolName?: string;
  readonly state: string;
  readonly input?: unknown;
  readonly output?: unknown;
  readonly errorText?: string;
  /** `requestReason`: why the server asks (the tool's `policy.approvalReason`); `reason`: the human's, with the answer. */
  readonly approval?: { readonly id: string; readonly approved?: boolean; readonly reason?: string; readonly requestReason?: string };
  /** The provider's metadata of the model's call (the AI SDK sends it back to the provider with the call). */
  readonly callProviderMetadata?: unknown;
  /** The provider's metadata of the call's result (a provider-executed tool's). */
  readonly resultProviderMetadata?: unknown;
}

/** The tool parts of a message. */
export function toolParts(message: { readonly parts: readonly unknown[] }): AnyToolPart[] {
  return message.parts.filter((part): part is AnyToolPart => {
    const p = part as { type?: unknown; toolCallId?: unknown };
    return typeof p.type === 'string' && (p.type.startsWith('tool-') || p.type === 'dynamic-tool') && typeof p.toolCallId === 'string';
  });
}

/** The tool name of a tool part. */
export function toolNameOf(part: AnyToolPart): string {
  return part.type === 'dynamic-tool' ? String(part.toolName) : part.type.slice('tool-'.length);
}

/** The data parts of one kind in a message, by tool call id (the last one wins). */
export function dataByCallId<T extends { toolCallId: string }>(message: { readonly parts: readonly unknown[] }, type: string): Map<string, T> {
  return collectData(message, type, new Map<string, T>());
}

/**
 * The data parts of one kind in every assistant message of a conversation, by tool call id (the last one wins): a part
 * a later response wrote about an earlier message's call (the seal of a browser result taken after its turn).
 */
export function historyDataByCallId<T extends { toolCallId: string }>(
  messages: readonly { readonly role: string; readonly parts: readonly unknown[] }[],
  type: string,
): Map<string, T> {
  const found = new Map<string, T>();
  for (const message of messages) if (message.role === 'assistant') collectData(message, type, found);
  return found;
}

function collectData<T extends { toolCallId: string }>(message: { readonly parts: readonly unknown[] }, type: string, found: Map<string, T>): Map<string, T> {
  for (const part of message.parts) {
    const p = part as { type?: unknown; data?: unknown };
    if (p.type !== type || typeof p.data !== 'object' || p.data === null) continue;
    const data = p.data as T;
    if (typeof data.toolCallId === 'string') found.set(data.toolCallId, data);
  }
  return found;
}

/**
 * The tokens a message says it cost so far (`metadata.usage`), when the request continues it: the counts that are
 * finite and not negative, nothing else. `undefined` for any other message. Client data, for display only.
 */
export function shownUsage(message: UIMessage | undefined): MessageUsage | undefined {
  if (message?.role !== 'assistant') return undefined;
  const usage = (message.metadata as { usage?: unknown } | undefined)?.usage;
  return typeof usage === 'object' && usage !== null ? knownCounts(usage) : undefined;
}
