import { type LanguageModel, type LanguageModelMiddleware, wrapLanguageModel } from 'ai';
import { callIdRenamer } from './call-id-renamer.ts';

/** Options for {@link uniqueToolCallIds}. */
export interface UniqueToolCallIdsOptions {
  /**
   * Ids taken besides those of each request's prompt: a chat loop's UI history also holds calls its model prompt
   * leaves out (incomplete ones), which a new call must not repeat either. Read once, at the turn's first tool call.
   */
  readonly taken?: (() => Iterable<string>) | undefined;
  /** Told each call whose arguments the output token limit cut off (see `callIdRenamer`). */
  readonly cut?: ((toolCallId: string) => void) | undefined;
}

/**
 * An AI SDK middleware that gives every tool call a model emits an id not used before in the conversation, for one
 * turn: some OpenAI-compatible servers (llama.cpp, some vLLM builds) send `call_0` in every response, and a history
 * with one id twice is refused (`duplicate-call`). A call whose id is new keeps it; nothing is copied then. A call
 * whose tool name is empty, blank or longer than any tool's is named `invalid_tool_name` (an unknown tool's call).
 */
export function uniqueToolCallIds(options: UniqueToolCallIdsOptions = {}): LanguageModelMiddleware {
  const ids = callIdRenamer(options.taken, options.cut);
  return {
    specificationVersion: 'v4',
    wrapGenerate: async ({ doGenerate, params }) => ids.generated(params, await doGenerate()),
    async wrapStream({ doStream, params }) {
      const result = await doStream();
      return { ...result, stream: ids.streamed(params, result.stream) };
    },
  };
}

/**
 * Set to `true` on a model object whose every tool call id is new in any conversation (random): {@link withUniqueToolCallIds}
 * leaves such a model unwrapped, which saves a stream hop per part (the offline model sets it, unless `deterministicIds`).
 */
export const UNIQUE_TOOL_CALL_IDS: unique symbol = Symbol.for('edgetool.unique-tool-call-ids');

/** Whether a model object says its tool call ids are unique ({@link UNIQUE_TOOL_CALL_IDS}): the chat loop leaves them as they are. */
export function saysIdsUnique(model: object): boolean {
  return (model as { [UNIQUE_TOOL_CALL_IDS]?: unknown })[UNIQUE_TOOL_CALL_IDS] === true;
}

/**
 * `model` with {@link uniqueToolCallIds} for one turn. A gateway id (a string) has no object to wrap and is returned as
 * it is: the gateway's providers give unique ids. So is a model that says its ids are unique ({@link UNIQUE_TOOL_CALL_IDS}).
 */
export function withUniqueToolCallIds(model: LanguageModel, options?: UniqueToolCallIdsOptions): LanguageModel {
  if (typeof model === 'string' || saysIdsUnique(model)) return model;
  return wrapLanguageModel({ model, middleware: uniqueToolCallIds(options) });
}
