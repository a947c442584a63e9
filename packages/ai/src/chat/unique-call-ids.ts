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
  // Every id this turn's model calls emitted (after renaming), and the caller's taken ones, once read.
  const emitted = new Set<string>();
  let extraRead = false;
  /** A call's id as it goes on: its own when nothing took it, else a fresh one. */
  const idFor = (prompt: LanguageModelV4CallOptions['prompt'], seen: { ids: Set<string> | undefined }, id: string): string => {
    if (!extraRead) {
      extraRead = true;
      for (const taken of options.taken?.() ?? []) emitted.add(taken);
    }
    if (seen.ids === undefined) {
      seen.ids = new Set();
      promptIds(prompt, seen.ids);
    }
    const ids = seen.ids;
    let name = id;
    while (emitted.has(name) || ids.has(name)) name = rename(id);
    emitted.add(name);
    return name;
  };
  return {
    specificationVersion: 'v4',
    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      if (!result.content.some((part) => part.type === 'tool-call')) return result;
      const seen: { ids: Set<string> | undefined } = { ids: undefined };
      const names = new Map<string, string>();
      const content = result.content.map((part): LanguageModelV4Content => {
        if (part.type === 'tool-call') {
          const name = idFor(params.prompt, seen, part.toolCallId);
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
      const seen: { ids: Set<string> | undefined } = { ids: undefined };
      // A call's id from its `tool-input-start` to its `tool-call` (its deltas and end between), and the last name each
      // id got (for a provider-executed call's result that follows its call).
      const open = new Map<string, string>();
      const last = new Map<string, string>();
      const name = (id: string): string => {
        const renamed = idFor(params.prompt, seen, id);
        last.set(id, renamed);
        return renamed;
      };
      const stream = result.stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          transform(part, controller) {
            switch (part.type) {
              case 'tool-input-start': {
                const renamed = name(part.id);
                open.set(part.id, renamed);
                controller.enqueue(renamed === part.id ? part : { ...part, id: renamed });
                return;
              }
              case 'tool-input-delta':
              case 'tool-input-end': {
                const renamed = open.get(part.id) ?? part.id;
                controller.enqueue(renamed === part.id ? part : { ...part, id: renamed });
                return;
              }
              case 'tool-call': {
                const opened = open.get(part.toolCallId);
                if (opened !== undefined) open.delete(part.toolCallId);
                const renamed = opened ?? name(part.toolCallId);
                controller.enqueue(renamed === part.toolCallId ? part : { ...part, toolCallId: renamed });
                return;
              }
              case 'tool-result':
              case 'tool-approval-request': {
                const renamed = last.get(part.toolCallId) ?? part.toolCallId;
                controller.enqueue(renamed === part.toolCallId ? part : { ...part, toolCallId: renamed });
                return;
              }
              default:
                controller.enqueue(part);
            }
          },
        }),
      );
      return { ...result, stream };
    },
  };
}

/**
 * `model` with {@link uniqueToolCallIds} for one turn. A gateway id (a string) has no object to wrap and is returned as
 * it is: the gateway's providers give unique ids.
 */
export function withUniqueToolCallIds(model: LanguageModel, options?: UniqueToolCallIdsOptions): LanguageModel {
  if (typeof model === 'string') return model;
  return wrapLanguageModel({ model, middleware: uniqueToolCallIds(options) });
}
