import type { LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { type LanguageModel, type LanguageModelMiddleware, wrapLanguageModel } from 'ai';

/** Options for {@link uniqueToolCallIds}. */
export interface UniqueToolCallIdsOptions {
  /**
   * Ids taken besides those of each request's prompt: a chat loop's UI history also holds calls its model prompt
   * leaves out (incomplete ones), which a new call must not repeat either. Read once, at the turn's first tool call.
   */
  readonly taken?: (() => Iterable<string>) | undefined;
}

/** A new id for a taken one: the model's id, `_` and 12 random hex digits (what OpenAI, Anthropic and Gemini accept). */
const rename = (id: string): string => `${id}_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;

/** The tool call ids a prompt holds (calls, results, approvals). */
function promptIds(prompt: LanguageModelV4CallOptions['prompt'], into: Set<string>): void {
  for (const message of prompt) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      const id = (part as { toolCallId?: unknown }).toolCallId;
      if (typeof id === 'string') into.add(id);
    }
  }
}

/**
 * An AI SDK middleware that gives every tool call a model emits an id not used before in the conversation, for one
 * turn: some OpenAI-compatible servers (llama.cpp, some vLLM builds) send `call_0` in every response, and a history
 * with one id twice is refused (`duplicate-call`). A call whose id is new keeps it; nothing is copied then.
 */
export function uniqueToolCallIds(options: UniqueToolCallIdsOptions = {}): LanguageModelMiddleware {
  // Every id the conversation holds, made at the turn's first tool call: the first request's prompt and the caller's
  // taken ones, then each id this turn's calls get. A later request of the turn adds only calls of this turn to the
  // prompt, so it is not read again (one pass over the history per turn, not per step).
  let used: Set<string> | undefined;
  /** A call's id as it goes on: its own when nothing took it, else a fresh one. */
  const idFor = (prompt: LanguageModelV4CallOptions['prompt'], id: string): string => {
    if (used === undefined) {
      used = new Set(options.taken?.() ?? []);
      promptIds(prompt, used);
    }
    let name = id;
    while (used.has(name)) name = rename(id);
    used.add(name);
    return name;
  };
  return {
    specificationVersion: 'v4',
    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      if (!result.content.some((part) => part.type === 'tool-call')) return result;
      const names = new Map<string, string>();
      const content = result.content.map((part): LanguageModelV4Content => {
        if (part.type === 'tool-call') {
          const name = idFor(params.prompt, part.toolCallId);
          names.set(part.toolCallId, name);
          return name === part.toolCallId ? part : { ...part, toolCallId: name };
        }
        // A provider-executed call's result or approval request follows its call: it takes the call's new id.
        if ((part.type === 'tool-result' || part.type === 'tool-approval-request') && names.has(part.toolCallId)) {
          return { ...part, toolCallId: names.get(part.toolCallId) as string };
        }
        return part;
      });
      return { ...result, content };
    },
    async wrapStream({ doStream, params }) {
      const result = await doStream();
      // A call's id from its `tool-input-start` to its `tool-call` (its deltas and end between), and the last name each
      // id got (for a provider-executed call's result that follows its call).
      const open = new Map<string, string>();
      const last = new Map<string, string>();
      const name = (id: string): string => {
        const renamed = idFor(params.prompt, id);
        last.set(id, renamed);
        return renamed;
      };
      const renamed = (part: LanguageModelV4StreamPart): LanguageModelV4StreamPart => {
        switch (part.type) {
          case 'tool-input-start': {
            const id = name(part.id);
            open.set(part.id, id);
            return id === part.id ? part : { ...part, id };
          }
          case 'tool-input-delta':
          case 'tool-input-end': {
            const id = open.get(part.id) ?? part.id;
            return id === part.id ? part : { ...part, id };
          }
          case 'tool-call': {
            const opened = open.get(part.toolCallId);
            if (opened !== undefined) open.delete(part.toolCallId);
            const id = opened ?? name(part.toolCallId);
            return id === part.toolCallId ? part : { ...part, toolCallId: id };
          }
          case 'tool-result':
          case 'tool-approval-request': {
            const id = last.get(part.toolCallId) ?? part.toolCallId;
            return id === part.toolCallId ? part : { ...part, toolCallId: id };
          }
          default:
            return part;
        }
      };
      // A pull source over the model's reader, not a TransformStream: one hop per part instead of two (the loop bench's
      // UI turn measured the TransformStream at about 1 ms for its 20 steps).
      const reader = result.stream.getReader();
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          const next = await reader.read();
          if (next.done) controller.close();
          else controller.enqueue(renamed(next.value));
        },
        cancel: (reason) => reader.cancel(reason),
      });
      return { ...result, stream };
    },
  };
}

/**
 * Set to `true` on a model object whose every tool call id is new in any conversation (random): {@link withUniqueToolCallIds}
 * leaves such a model unwrapped, which saves a stream hop per part (the offline model sets it, unless `deterministicIds`).
 */
export const UNIQUE_TOOL_CALL_IDS: unique symbol = Symbol.for('edgetool.unique-tool-call-ids');

/**
 * `model` with {@link uniqueToolCallIds} for one turn. A gateway id (a string) has no object to wrap and is returned as
 * it is: the gateway's providers give unique ids. So is a model that says its ids are unique ({@link UNIQUE_TOOL_CALL_IDS}).
 */
export function withUniqueToolCallIds(model: LanguageModel, options?: UniqueToolCallIdsOptions): LanguageModel {
  if (typeof model === 'string' || (model as { [UNIQUE_TOOL_CALL_IDS]?: unknown })[UNIQUE_TOOL_CALL_IDS] === true) return model;
  return wrapLanguageModel({ model, middleware: uniqueToolCallIds(options) });
}
