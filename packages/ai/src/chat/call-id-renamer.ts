import type { LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { ChunkClock } from './stream-limits.ts';

type Prompt = LanguageModelV4CallOptions['prompt'];
/** What the renamer reads of a model call's options: its prompt, and the tools it offers (for {@link nameFor}). */
type CallOptions = Pick<LanguageModelV4CallOptions, 'prompt'> & { readonly tools?: LanguageModelV4CallOptions['tools'] | undefined };

/** The longest name a tool can have (`defineTool`'s rule, and OpenAI's): a longer one names no tool. */
const LONGEST_TOOL_NAME = 64;

/** The name a call gets when the model's names no tool at all (empty, blank, absurdly long): see {@link nameFor}. */
export const INVALID_TOOL_NAME = 'invalid_tool_name';

/** Whether a call's tool name can be no tool's: empty, only whitespace, or longer than any tool's name. */
export function namesNoTool(name: string): boolean {
  return name.trim() === '' || name.length > LONGEST_TOOL_NAME;
}

/**
 * The name a call goes on with: the model's, unless it is empty, only whitespace, or longer than any tool's name. Such
 * a name is no tool's: it would only break what carries it (a seal refuses an empty name; a provider the next prompt;
 * 5,000 characters in every part, trace and error text), so the call is named {@link INVALID_TOOL_NAME} (with a
 * number when a tool has that name) and answered, as any unknown tool's call is, with `unknown-tool`.
 */
export function nameFor(name: string, tools: readonly { readonly name: string }[] | undefined): string {
  if (!namesNoTool(name)) return name;
  const taken = new Set((tools ?? []).map((tool) => tool.name));
  let fresh = INVALID_TOOL_NAME;
  for (let n = 2; taken.has(fresh); n++) fresh = `${INVALID_TOOL_NAME}_${n}`;
  return fresh;
}

/**
 * Raw finish reasons with which OpenAI-compatible servers say the model ended its turn, where OpenAI says `stop` or
 * `tool_calls`: text-generation-inference's `eos_token` (and `eos`), and `end_turn` of proxies that pass Anthropic's on.
 * The provider reads them as `other`, after which the AI SDK runs no call of the step.
 */
const NATURAL_ENDS: ReadonlySet<string> = new Set(['eos', 'eos_token', 'end_turn']);

type FinishReason = { readonly unified: string; readonly raw?: string | undefined };

/**
 * A step's finish reason as OpenAI would have said it: `tool-calls` (with calls) or `stop` for a raw reason of
 * {@link NATURAL_ENDS} the provider read as `other`; `undefined` when it stays as it is.
 */
function naturalEnd<T extends FinishReason>(finish: T | undefined, withCalls: boolean): T | undefined {
  if (finish?.unified !== 'other' || finish.raw === undefined || !NATURAL_ENDS.has(finish.raw)) return undefined;
  return { ...finish, unified: withCalls ? 'tool-calls' : 'stop' };
}

/** A new id for a taken one: the model's id, `_` and 12 random hex digits (what OpenAI, Anthropic and Gemini accept). */
const rename = (id: string): string => `${id}_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;

/** Whether a call's arguments are not JSON (what a model stopped mid-call leaves: a prefix of them). */
function notJson(input: string): boolean {
  try {
    JSON.parse(input);
    return false;
  } catch {
    return true;
  }
}

/** The tool call ids a prompt holds (calls, results, approvals). */
function promptIds(prompt: Prompt, into: Set<string>): void {
  for (const message of prompt) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      const id = (part as { toolCallId?: unknown }).toolCallId;
      if (typeof id === 'string') into.add(id);
    }
  }
}

/**
 * One turn's renaming of repeated tool call ids (see `uniqueToolCallIds`), and of tool names no tool can have (see
 * {@link nameFor}): `generated` for a `doGenerate` result,
 * `streamed` for a `doStream` one. Not in the package's barrel: the chat loop's own model wrappers use it (the text turn
 * folds it into the wrapper that times its model calls, so a step pays no extra model layer for it).
 * It also tells `cut` each call whose arguments are not JSON in a step the model ended at its output token limit
 * (`finishReason` `length`): the model did not write bad JSON, the limit cut it (Anthropic's `max_tokens` in a
 * `tool_use` block). A streamed call with arguments that are not JSON is held back to the step's `finish` for this
 * (and the calls after it, to keep their order). A step whose server ended it with a raw reason of {@link NATURAL_ENDS}
 * (`eos_token`) finishes `tool-calls` (or `stop`), as OpenAI's would: read as `other`, its calls never ran.
 */
export function callIdRenamer(taken?: () => Iterable<string>, cut?: (toolCallId: string) => void) {
  // Every id the conversation holds, made at the turn's first tool call: the first request's prompt and the caller's
  // taken ones, then each id this turn's calls get. A later request of the turn adds only calls of this turn to the
  // prompt, so it is not read again (one pass over the history per turn, not per step).
  let used: Set<string> | undefined;
  /**
   * A call's id as it goes on: its own when nothing took it, else a fresh one. An empty id (a server that sends `id: ""`)
   * is never kept: a ticket or seal names a call by a non-empty id, and one refused after the call ran failed the turn.
   */
  const idFor = (prompt: Prompt, id: string): string => {
    if (used === undefined) {
      used = new Set(taken?.() ?? []);
      promptIds(prompt, used);
    }
    let name = id;
    while (name === '' || used.has(name)) name = rename(id);
    used.add(name);
    return name;
  };
  return {
    /** `result` with its calls renamed where taken; the very same object (and parts) when none was. */
    generated<T extends { readonly content: LanguageModelV4Content[]; readonly finishReason?: FinishReason }>(call: CallOptions, result: T): T {
      const { prompt, tools } = call;
      const atLimit = cut !== undefined && result.finishReason?.unified === 'length';
      // The new name of each renamed call id (a provider-executed call's result or approval request follows its call and
      // takes its new id); made only once a call is renamed, as is the copy of the content.
      let names: Map<string, string> | undefined;
      let content: LanguageModelV4Content[] | undefined;
      const parts = result.content;
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i] as LanguageModelV4Content;
        let id: string | undefined;
        if (part.type === 'tool-call') {
          id = idFor(prompt, part.toolCallId);
          if (atLimit && part.providerExecuted !== true && notJson(part.input)) cut(id);
          if (id !== part.toolCallId) {
            names ??= new Map();
            names.set(part.toolCallId, id);
          }
          // A provider-executed call names the provider's own tool: it is the provider's to name, as in `streamed`.
          const toolName = part.providerExecuted === true ? part.toolName : nameFor(part.toolName, tools);
          if (toolName !== part.toolName) {
            content ??= [...parts];
            content[i] = { ...part, toolCallId: id, toolName };
            continue;
          }
        } else if (names !== undefined && (part.type === 'tool-result' || part.type === 'tool-approval-request')) {
          id = names.get(part.toolCallId);
        }
        if (id === undefined || id === (part as { toolCallId: string }).toolCallId) continue;
        content ??= [...parts];
        content[i] = { ...part, toolCallId: id } as LanguageModelV4Content;
      }
      const finishReason = naturalEnd(result.finishReason, parts.some((part) => part.type === 'tool-call' && part.providerExecuted !== true));
      if (finishReason !== undefined) return { ...result, content: content ?? parts, finishReason };
      return content === undefined ? result : { ...result, content };
    },
    /**
     * `stream` with its calls renamed where taken, part by part (parts that need no change go on as they are). A `clock`
     * hears of each part the model sends, and of the stream's end, in the same stage (the UI turn's chunk limits).
     */
    streamed(call: CallOptions, stream: ReadableStream<LanguageModelV4StreamPart>, clock?: ChunkClock): ReadableStream<LanguageModelV4StreamPart> {
      const { prompt, tools } = call;
      // A call's id from its `tool-input-start` to its `tool-call` (its deltas and end between), and the last name each
      // id got (for a provider-executed call's result that follows its call).
      const open = new Map<string, string>();
      const last = new Map<string, string>();
      const name = (id: string): string => {
        const renamed = idFor(prompt, id);
        last.set(id, renamed);
        return renamed;
      };
      const renamed = (part: LanguageModelV4StreamPart): LanguageModelV4StreamPart => {
        switch (part.type) {
          case 'tool-input-start': {
            const id = name(part.id);
            open.set(part.id, id);
            const toolName = part.providerExecuted === true ? part.toolName : nameFor(part.toolName, tools);
            return id === part.id && toolName === part.toolName ? part : { ...part, id, toolName };
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
            const toolName = part.providerExecuted === true ? part.toolName : nameFor(part.toolName, tools);
            return id === part.toolCallId && toolName === part.toolName ? part : { ...part, toolCallId: id, toolName };
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
      // Whether the step made a call of ours (for a finish reason of NATURAL_ENDS).
      let withCalls = false;
      // Calls whose arguments are not JSON, held back until the step's `finish` says whether the token limit cut them.
      let held: Extract<LanguageModelV4StreamPart, { type: 'tool-call' }>[] | undefined;
      const release = (controller: ReadableStreamDefaultController<LanguageModelV4StreamPart>, atLimit: boolean) => {
        if (held === undefined) return;
        for (const part of held) {
          if (atLimit && part.providerExecuted !== true && notJson(part.input)) cut?.(part.toolCallId);
          controller.enqueue(part);
        }
        held = undefined;
      };
      // A pull source over the model's reader, not a TransformStream: one hop per part instead of two (the loop bench's
      // UI turn measured the TransformStream at about 1 ms for its 20 steps).
      const reader = stream.getReader();
      return new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          for (;;) {
            let next: ReadableStreamReadResult<LanguageModelV4StreamPart>;
            try {
              next = await reader.read();
            } catch (error) {
              clock?.stop();
              throw error;
            }
            if (next.done) {
              clock?.stop();
              release(controller, false);
              controller.close();
              return;
            }
            clock?.saw(next.value);
            const part = renamed(next.value);
            // The calls after a held one are held with it, so the calls keep the model's order (in the history too).
            if (cut !== undefined && part.type === 'tool-call' && (held !== undefined || (part.providerExecuted !== true && notJson(part.input)))) {
              held ??= [];
              held.push(part);
              continue;
            }
            if (part.type === 'tool-call' && part.providerExecuted !== true) withCalls = true;
            if (part.type === 'finish') {
              release(controller, part.finishReason.unified === 'length');
              const finishReason = naturalEnd(part.finishReason, withCalls);
              if (finishReason !== undefined) {
                controller.enqueue({ ...part, finishReason });
                return;
              }
            }
            controller.enqueue(part);
            return;
          }
        },
        cancel: (reason) => {
          clock?.stop();
          return reader.cancel(reason);
        },
      });
    },
  };
}
