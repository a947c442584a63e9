import { clipped } from './clip-text.ts';
import { type AnyTool, type ArgumentEdit, type TicketSigner, type ToolCallResult, ToolError } from '@edgetool/core';
import type { UIMessageChunk } from 'ai';
import { editableArguments, runsOnCaller } from './ai-tools.ts';
import {
  type ExecutionMode,
  PART_SEAL_PART,
  type PartSealPartData,
  SEAL_PART,
  type SealPartData,
  TICKET_PART,
  type TicketPartData,
  TRACE_PART,
  type TracePartData,
  traceOf,
} from './protocol.ts';
import { boundOf, partMetadataSubject, type SealedPartMetadata } from './part-seal.ts';
import { metadataSubject, sealResult } from './proofs.ts';
import { type SubCalls, subCallsPart } from './sub-calls.ts';
import type { AcceptedResult } from './verify-continuation.ts';

/** Options for {@link createProofs}. */
export interface ProofOptions {
  readonly tickets: TicketSigner;
  readonly conversationId: string;
  readonly mode: ExecutionMode;
  readonly tools: ReadonlyMap<string, AnyTool>;
  readonly sealTtlMs: number;
  /**
   * Inputs of calls from earlier responses (approved calls run now, before the first step), with the provider metadata
   * of the call when it had some (verified against its ticket's `metadataSeal`).
   */
  readonly inputs: ReadonlyMap<string, { readonly toolName: string; readonly input: unknown; readonly callMeta?: unknown }>;
  /** Client results accepted in this request: sealed right after `start`. */
  readonly accepted: readonly AcceptedResult[];
  /** Finished calls of this request, by tool call id (for trace parts). */
  readonly results: ReadonlyMap<string, ToolCallResult>;
  /** Send a trace part after each server result's seal (default true). */
  readonly traces?: boolean;
  /** The calls agent tools' sub-agents made, by the agent call's id: they go in its trace part. */
  readonly subCalls?: ReadonlyMap<string, SubCalls>;
  /** Verified approval decisions of this request (denials are sealed with their reason). */
  readonly decisions: ReadonlyMap<string, { readonly approved: boolean; readonly reason?: string | undefined; readonly input?: unknown }>;
  /** The arguments calls of this request ran with where a human's edit was applied, by tool call id (see {@link editedInput}). */
  readonly ranWith: ReadonlyMap<string, unknown>;
  /** Seals started when a call finished (see {@link createEarlySeals}); used when they cover exactly the chunk. */
  readonly early?: EarlySeals;
}

/**
 * The arguments a finished call ran with, which its seal covers: those a human edited before approving (`ranWith`, what
 * the executor applied), else the model's. The early seal and the stream's seal must get the very same object.
 */
export function sealedInput(ranWith: ProofOptions['ranWith'], toolCallId: string, input: unknown): unknown {
  return ranWith.has(toolCallId) ? ranWith.get(toolCallId) : input;
}

/**
 * The arguments a call ran with: the model's with the edits the executor applied (`ToolCallResult.edits`). Not the
 * client's request: the executor refuses edits the tool does not allow, and reads JSON text as the object it spells.
 */
export function editedInput(input: unknown, edits: readonly ArgumentEdit[]): unknown {
  const whole = edits.find((edit) => edit.key === '');
  if (whole !== undefined || typeof input !== 'object' || input === null) return whole?.to;
  const ran: Record<string, unknown> = { ...input };
  for (const { key, to } of edits) {
    if (to === undefined) delete ran[key];
    else Object.defineProperty(ran, key, { value: to, enumerable: true, writable: true, configurable: true });
  }
  return ran;
}

/** A seal computed as soon as a server call finished, keyed by call id, with what it covers. */
interface EarlySeal {
  readonly input: unknown;
  /** The model's arguments, for a call a human edited (see `SealedCall.proposed`). */
  readonly proposed: { readonly value: unknown } | undefined;
  readonly result: { readonly output: unknown } | { readonly errorText: string };
  readonly seal: Promise<string>;
}

/** Seals started early, while the AI SDK is still carrying the result to the UI stream. */
export interface EarlySeals {
  /**
   * Starts the seal of a finished call (the input object the tool received, what it returned or the error text, and
   * for a call a human edited the model's arguments).
   */
  start(toolCallId: string, toolName: string, input: unknown, result: EarlySeal['result'], proposed?: { readonly value: unknown }): void;
  /** The early seal when it covers exactly this input, result and proposal (same objects, same error text), and forgets it. */
  take(toolCallId: string, input: unknown, result: EarlySeal['result'], proposed?: { readonly value: unknown }): Promise<string> | undefined;
}

/**
 * Starts each seal when the call finishes instead of when its chunk reaches the turn stream, so the
 * seal is ready when the chunk arrives (a long one goes through WebCrypto, asynchronously) and the
 * stream does not wait. A seal is only reused for the very objects it was computed from; anything
 * else is sealed afresh.
 */
export function createEarlySeals(tickets: TicketSigner, conversationId: string, sealTtlMs: number): EarlySeals {
  const started = new Map<string, EarlySeal>();
  return {
    start(toolCallId, toolName, input, result, proposed) {
      const call = { toolName, toolCallId, input, result, conversationId, ...(proposed === undefined ? {} : { proposed: proposed.value }) };
      const seal = sealResult(tickets, call, sealTtlMs);
      seal.catch(() => {}); // a failure surfaces when the turn stream awaits it, or is re-done there
      started.set(toolCallId, { input, proposed, result, seal });
    },
    take(toolCallId, input, result, proposed) {
      const early = started.get(toolCallId);
      started.delete(toolCallId);
      if (early === undefined || early.input !== input || !sameProposal(early.proposed, proposed)) return undefined;
      const same =
        'output' in result ? 'output' in early.result && early.result.output === result.output : 'errorText' in early.result && early.result.errorText === result.errorText;
      return same ? early.seal : undefined;
    },
  };
}

/** Whether two calls' proposals (the model's arguments of a call a human edited) are the same: both none, or one value. */
function sameProposal(a: EarlySeal['proposed'], b: EarlySeal['proposed']): boolean {
  return a === undefined || b === undefined ? a === b : a.value === b.value;
}

/**
 * A call of a tool of this server that the model's provider says it ran itself (`providerExecuted`): only this server
 * runs its tools, so the result is made up (a broken or hostile provider) and must not be sealed as the tool's.
 */
function ranByProvider(toolName: string, toolCallId: string): ToolError {
  return new ToolError('execution-failed', `The model's provider reported running "${clipped(toolName)}" (${clipped(toolCallId)}) itself, but it is a tool of this server: its result was not taken.`, {
    toolName,
    callId: toolCallId,
  });
}

/** A `data-*` chunk of the UI message protocol (the proofs are data parts). */
type DataChunk = Extract<UIMessageChunk, { type: `data-${string}` }>;

/** The proofs of one turn's stream, chunk by chunk (see {@link createProofs}). */
export interface TurnProofs {
  /**
   * The proof chunks that go out before `chunk` (for `start`: right after it), or `undefined` when the chunk has
   * none and goes out at once (most chunks). Call it for every chunk, in order: it also records the calls' inputs.
   */
  before(chunk: UIMessageChunk): Promise<UIMessageChunk[]> | undefined;
}

/**
 * edgetool's proofs for the AI SDK's UI message stream, using exactly what the client will hold:
 * a ticket beside each approval request and each call handed to the client, a seal beside each
 * result this server produced or accepted, the call's trace for UIs, and a part seal before the end of each step whose
 * text, reasoning, file, reasoning-file or custom parts carry provider metadata.
 */
export function createProofs(options: ProofOptions): TurnProofs {
  const { tickets, conversationId, mode, tools, sealTtlMs, results, early } = options;
  const inputs = new Map(options.inputs);
  // The provider metadata of each call, as the client's part holds it: the last a call's chunks carried (the AI SDK keeps
  // the last that is not null). Seals and tickets cover it, so a client can send back only what the server issued.
  const metas = new Map<string, unknown>();
  for (const [id, call] of options.inputs) if (call.callMeta !== undefined) metas.set(id, call.callMeta);
  const noteMeta = (toolCallId: string, meta: unknown) => {
    if (meta != null) metas.set(toolCallId, meta);
  };
  let started = false;
  // The parts of the current step whose metadata the AI SDK sends back (text, reasoning, file, reasoning-file, custom), in
  // the order the client adds them: text and reasoning by their chunks' ids (apart, as the AI SDK keeps them), the others
  // one chunk each. Of those that had provider metadata, the last that was not null, as the client's part keeps it. A
  // step with any gets a part seal before its end; one without costs no seal.
  let stepParts = 0;
  const textIndex = new Map<string, number>();
  const reasoningIndex = new Map<string, number>();
  let stepMetas: Map<number, SealedPartMetadata> | undefined;
  const newStep = () => {
    stepParts = 0;
    textIndex.clear();
    reasoningIndex.clear();
    stepMetas = undefined;
  };
  const notePartMeta = (index: number | undefined, type: SealedPartMetadata['type'], meta: unknown, bound: readonly unknown[] = []) => {
    if (meta == null || index === undefined) return;
    stepMetas ??= new Map();
    stepMetas.set(index, { index, type, meta, bound });
  };
  const partSeal = async (metas: ReadonlyMap<number, SealedPartMetadata>): Promise<DataChunk[]> => {
    const id = crypto.randomUUID();
    const parts = [...metas.values()].sort((a, b) => a.index - b.index);
    const data: PartSealPartData = { id, seal: await tickets.seal(partMetadataSubject({ id, parts, conversationId }), { ttlMs: sealTtlMs }) };
    return [{ type: PART_SEAL_PART, id, data }];
  };

  /** A result's seal part, and after it (`traced`) the call's trace part when it has one: one promise for both. */
  const seal = async (
    toolCallId: string,
    toolName: string,
    input: unknown,
    result: { output: unknown } | { errorText: string } | { deniedReason: string | null },
    resultMeta?: unknown,
    traced = false,
  ): Promise<DataChunk[]> => {
    // A call a human edited before approving ran with the edited arguments: the seal covers and records them, and the
    // model's arguments the tool part keeps (what the model reads it proposed).
    const ran = 'deniedReason' in result ? input : sealedInput(options.ranWith, toolCallId, input);
    const edited = ran !== input;
    const proposed = edited ? { value: input } : undefined;
    const callMeta = metas.get(toolCallId);
    // An early seal covers no provider metadata: a call that has some is sealed here.
    const plain = callMeta === undefined && resultMeta == null;
    const ready = 'deniedReason' in result || !plain ? undefined : early?.take(toolCallId, ran, result, proposed);
    // What the seal covers is spelled out only when the early seal does not cover it (most results have one ready).
    const sealed = await (ready ??
      sealResult(
        tickets,
        {
          toolName,
          toolCallId,
          input: ran,
          result,
          conversationId,
          ...(edited ? { proposed: input } : {}),
          ...(callMeta === undefined ? {} : { callMeta }),
          ...(resultMeta == null ? {} : { resultMeta }),
        },
        sealTtlMs,
      ));
    const data: SealPartData =
      edited || !plain
        ? { toolCallId, toolName, seal: sealed, ...(edited ? { input: ran } : {}), ...(plain ? {} : { metadata: true as const }) }
        : { toolCallId, toolName, seal: sealed };
    const part: DataChunk = { type: SEAL_PART, id: toolCallId, data };
    const t = traced ? trace(toolCallId) : undefined;
    return t === undefined ? [part] : [part, t];
  };

  const ticket = async (toolCallId: string, toolName: string, input: unknown, purpose: TicketPartData['purpose']): Promise<DataChunk> => {
    const tool = tools.get(toolName);
    const editable = purpose === 'approval' ? editableArguments(tool) : undefined;
    const meta = metas.get(toolCallId);
    const metadataSeal = meta === undefined ? undefined : await tickets.seal(metadataSubject({ toolName, toolCallId, meta, conversationId }), { ttlMs: sealTtlMs });
    const data: TicketPartData = {
      toolCallId,
      toolName,
      purpose,
      runsOn: tool?.policy.runsOn ?? 'server',
      ticket: await tickets.sign({ purpose, toolName, callId: toolCallId, args: input, conversationId }),
      ...(editable === undefined ? {} : { editable }),
      ...(metadataSeal === undefined ? {} : { metadataSeal }),
    };
    return { type: TICKET_PART, id: toolCallId, data };
  };

  const traces = options.traces !== false;
  const trace = (toolCallId: string): DataChunk | undefined => {
    const result = traces ? results.get(toolCallId) : undefined;
    if (!result) return undefined;
    const data: TracePartData = { toolCallId, toolName: result.call.name, ...traceOf(result, 'server'), ...subCallsPart(options.subCalls?.get(toolCallId)) };
    return { type: TRACE_PART, id: toolCallId, data };
  };

  /** The proofs that go out before `chunk` (none for most chunks: those pass straight through). */
  const proofsFor = (chunk: UIMessageChunk): Promise<DataChunk[]> | undefined => {
    switch (chunk.type) {
      case 'start':
        if (started) return undefined;
        started = true;
        return options.accepted.length === 0
          ? undefined
          : Promise.all(options.accepted.map((a) => seal(a.toolCallId, a.toolName, a.input, a.result))).then((parts) => parts.flat());
      case 'text-delta':
      case 'text-end':
        if (chunk.providerMetadata != null) notePartMeta(textIndex.get(chunk.id), 'text', chunk.providerMetadata);
        return undefined;
      case 'reasoning-delta':
      case 'reasoning-end':
        if (chunk.providerMetadata != null) notePartMeta(reasoningIndex.get(chunk.id), 'reasoning', chunk.providerMetadata);
        return undefined;
      case 'text-start':
        textIndex.set(chunk.id, stepParts);
        notePartMeta(stepParts++, 'text', chunk.providerMetadata);
        return undefined;
      case 'reasoning-start':
        reasoningIndex.set(chunk.id, stepParts);
        notePartMeta(stepParts++, 'reasoning', chunk.providerMetadata);
        return undefined;
      case 'file':
      case 'reasoning-file':
      case 'custom':
        // One chunk, one part: its metadata is all the part will hold.
        notePartMeta(stepParts++, chunk.type, chunk.providerMetadata, chunk.providerMetadata == null ? [] : boundOf(chunk.type, chunk));
        return undefined;
      case 'start-step':
      case 'reset-step':
        newStep();
        return undefined;
      case 'finish-step': {
        const metas = stepMetas;
        stepMetas = undefined;
        return metas === undefined ? undefined : partSeal(metas);
      }
      case 'tool-input-start':
        noteMeta(chunk.toolCallId, chunk.providerMetadata);
        return undefined;
      case 'tool-input-available': {
        noteMeta(chunk.toolCallId, chunk.providerMetadata);
        if (chunk.providerExecuted === true && tools.has(chunk.toolName)) return Promise.reject(ranByProvider(chunk.toolName, chunk.toolCallId));
        inputs.set(chunk.toolCallId, { toolName: chunk.toolName, input: chunk.input });
        const tool = tools.get(chunk.toolName);
        return tool && runsOnCaller(tool, mode) ? ticket(chunk.toolCallId, chunk.toolName, chunk.input, 'client-result').then((t) => [t]) : undefined;
      }
      case 'tool-approval-request': {
        const call = inputs.get(chunk.toolCallId);
        return call && !('isAutomatic' in chunk && chunk.isAutomatic) ? ticket(chunk.toolCallId, call.toolName, call.input, 'approval').then((t) => [t]) : undefined;
      }
      case 'tool-output-available':
      case 'tool-output-error': {
        if (chunk.type === 'tool-output-available' && chunk.preliminary) return undefined;
        const call = inputs.get(chunk.toolCallId);
        if (!call) return undefined;
        if (chunk.providerExecuted === true && tools.has(call.toolName)) return Promise.reject(ranByProvider(call.toolName, chunk.toolCallId));
        const result = chunk.type === 'tool-output-available' ? { output: chunk.output } : { errorText: chunk.errorText };
        return seal(chunk.toolCallId, call.toolName, call.input, result, chunk.providerMetadata, true);
      }
      case 'tool-output-denied': {
        const call = inputs.get(chunk.toolCallId);
        const reason = options.decisions.get(chunk.toolCallId)?.reason ?? null;
        return call ? seal(chunk.toolCallId, call.toolName, call.input, { deniedReason: reason }) : undefined;
      }
      case 'tool-input-error':
        // A call the AI SDK could not parse (not JSON, no such tool), answered with the executor's error (see
        // invalid-calls.ts): the part becomes `output-error` in history, so it needs a seal and a trace like any result.
        // The AI SDK keeps this chunk's metadata as the part's result metadata (its state is `output-error`).
        inputs.set(chunk.toolCallId, { toolName: chunk.toolName, input: chunk.input });
        return seal(chunk.toolCallId, chunk.toolName, chunk.input, { errorText: chunk.errorText }, chunk.providerMetadata, true);
      default:
        return undefined;
    }
  };

  return { before: proofsFor };
}
