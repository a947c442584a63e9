import { type AnyTool, availableTools, defineTool, forkRunContext, idempotencyKeyOf, progressText, type Tool, type ToolContext, type ToolEffects, ToolError } from '@edgetool/core';
import * as v from 'valibot';
import { type ChatAgent, defaultErrorMessage } from './chat/chat-agent.ts';
import type { TurnLimit, TurnOutputSchema } from './chat/protocol.ts';
import { tokensOf } from './chat/loop-parts.ts';
import { addSubCall, collectSubCalls } from './chat/sub-calls.ts';
import { runInSlot, tokenMeterOf } from './chat/token-meter.ts';
import { generateTextTurn } from './chat/text-turn.ts';
import { type AgentToolOutput, messageUsage } from './chat/usage.ts';

/**
 * Options for {@link agentTool}; `TDeps` is what its agent's tools need in `run.deps` (see `withDeps`), `TOutput` what
 * its `output` schema gives (its answer's type).
 */
export interface AgentToolOptions<TDeps = unknown, TOutput = string> {
  readonly name: string;
  readonly description: string;
  /** The agent that does the work (its own model, instructions and tools). Its inner turn runs with the outer run's deps. */
  readonly agent: ChatAgent<TDeps>;
  /**
   * How long one call may take, the agent's whole turn included (`policy.timeoutMs`): at the limit the call fails with
   * `timeout` and the inner turn is aborted. Default: none (the inner agent's own `modelTimeout` step and total limits
   * still apply).
   */
  readonly timeoutMs?: number;
  /**
   * Structured output: the agent answers with data of this schema (`generateTextTurn`'s `output`), which becomes the
   * call's `answer`, typed, and the calling model reads it as JSON. An answer that still fails after the one repair
   * round fails the call with `invalid-output` and the issues, for the calling model to read. Default: the agent's text.
   */
  readonly output?: TurnOutputSchema<TOutput>;
}

/** What the model calls an agent tool with (`agentTool`): the task, in plain words, which is the inner turn's only message. */
export interface AgentToolInput {
  task: string;
}

const EFFECT_RANK: Record<ToolEffects, number> = { read: 0, write: 1, destructive: 2 };

/** What the calling model reads for an empty or blank task. */
const BLANK_TASK = 'The task is empty: say in words what the agent should do.';

/**
 * Exposes an agent as a tool. The agent runs on a copy of the conversation state (a forked run
 * context and a fresh conversation with only the task), so the caller sees only the call and its
 * answer. It runs as a text turn (`generateTextTurn`): no client reads the inner conversation, so it pays for
 * no UI stream and no seals. If any of the agent's tools may need an approval, the tool itself needs one: the approval
 * surfaces to the outer run (naming the inner tools every run may see) and, once given, covers the agent's run. Inner
 * tools only some runs may see (`policy.available`) count only for those runs, and their names are never given. While it works, the
 * call reports progress: its inner tools' own reports, and each inner call as it finishes. It reports the inner turn's
 * tokens as they are spent (`ctx.reportUsage()`: each model step, each inner call's own), so the outer turn's `usage`
 * and `tokenBudget` count them from the call's `result.usage`, also when the inner turn fails, times out or is aborted;
 * while it runs, the inner turn stops when the calling turn's budget has nothing left, and its answer says so.
 * Its output is the agent's answer, which is all the model reads (its text, with a line that says so when it was cut,
 * stopped or empty; or with `output` its data, as JSON), and the tokens its turn used ({@link AgentToolOutput}).
 * The tool is typed by its agent's deps: the inner turn runs on a fork of the outer run, with its deps, so a registry,
 * executor or chat agent made with the tool needs them in its runs. Its inner calls are traced by its agent's `onTrace`
 * (in the outer run's trace), not by the calling agent's; its agent's browser tools are left out of the inner turn.
 */
export async function agentTool<TDeps = unknown, TOutput = string>(
  options: AgentToolOptions<TDeps, TOutput>,
): Promise<Tool<AgentToolInput, AgentToolOutput<TOutput>, TDeps>> {
  // Every inner tool must load: one left out (as `tools()` leaves out a tool that fails to load) would not count towards
  // the approval this tool needs, and could load later and run inside the agent, whose approvals are granted.
  const { registry } = options.agent;
  // Tools that run in a browser are left out of the inner turn (`clientTools: 'omit'`): no client answers it, so they
  // count towards nothing (a browser tool that writes asked for an approval that covered nothing the agent could do).
  // A name it lists and gives no tool for is refused as well: the tool could be handed out later (a resolver waiting for
  // a config) and run inside the granted turn of an agent tool that needs no approval.
  const names = registry.names();
  const resolved = await Promise.all(names.map((name) => registry.resolve(name)));
  const missing = names.filter((_name, at) => resolved[at] === undefined);
  if (missing.length) {
    throw new TypeError(
      `agentTool "${options.name}": the agent lists ${missing.length === 1 ? 'the tool' : 'the tools'} "${missing.join('", "')}", but its registry gave none for that name; every tool of the agent must load when the agent tool is made, or it could run later without the approval the agent tool would need.`,
    );
  }
  const loaded = resolved as AnyTool[];
  const inner = loaded.filter((t) => t.policy.runsOn !== 'client');
  // A choice that forces one of the browser tools left out would force the inner model to a tool it is not given.
  const choice = options.agent.options.settings?.toolChoice;
  const forced = typeof choice === 'object' && choice !== null ? loaded.find((t) => t.name === choice.toolName && t.policy.runsOn === 'client') : undefined;
  if (forced !== undefined) {
    throw new TypeError(
      `agentTool "${options.name}": the agent's settings force the tool "${forced.name}" (toolChoice), which runs in a browser and is left out of the agent tool's turns; force one of its other tools, or leave toolChoice out.`,
    );
  }
  if (choice === 'required' && inner.length === 0 && loaded.length > 0) {
    throw new TypeError(
      `agentTool "${options.name}": the agent's settings require a tool call (toolChoice 'required'), but its tools all run in a browser and are left out of the agent tool's turns; leave toolChoice out, or give it a tool that runs on the server.`,
    );
  }
  const gated = inner.filter((t) => t.policy.needsApproval !== false);
  const effects = inner.reduce<ToolEffects>((max, t) => (EFFECT_RANK[t.policy.effects] > EFFECT_RANK[max] ? t.policy.effects : max), 'read');
  // Tools only some runs may see (`policy.available`) decide per run whether the agent needs an approval, and are never
  // named in the reason the user reads: a user who may not see a tool must not learn its name from here either.
  const forEveryone = gated.filter((t) => t.policy.available === undefined);
  const perRun = gated.length > forEveryone.length;
  const named = forEveryone.map((t) => t.name).join(', ');
  const reason = named === '' ? 'This agent may use tools that need your approval.' : `This agent may use ${named}${perRun ? ' and other tools that need your approval' : ''}.`;
  // A check that does not answer within 10 s counts as no (the agent's `onLateCheck` hears of it), as in its own turns.
  const late = { onLateCheck: options.agent.options.onLateCheck };
  const needsApproval =
    forEveryone.length > 0 || !perRun ? gated.length > 0 : async (_input: unknown, ctx: ToolContext) => (await availableTools(gated, ctx.run, late)).length > 0;
  // A task of spaces alone (or none) would start a turn with nothing to do: invalid input, in words the model can act on;
  // the schema's `pattern` tells the model before it calls.
  const input = v.object({ task: v.pipe(v.string(), v.regex(/\S/, BLANK_TASK), v.description('What the agent should do, in plain words')) });
  // The deps are the agent's: nothing in the definition names them, so they are given here.
  const structured = options.output;
  return defineTool<typeof input, AgentToolOutput<TOutput>, TDeps>({
    name: options.name,
    description: options.description,
    input,
    policy: {
      effects,
      needsApproval,
      ...(gated.length ? { approvalReason: reason } : {}),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    },
    metadata: { kind: 'agent', innerTools: inner.filter((t) => t.policy.available === undefined).map((t) => t.name) },
    execute: async ({ task }, ctx) => {
      // The calling turn's budget, while this call runs: its inner turn counts there as it spends, and stops when the
      // calling turn has no tokens left (it counted only once the call had ended, so one call could spend far past it).
      const slot = tokenMeterOf(ctx.run, ctx.call.id)?.slot(ctx.call.id);
      if (slot !== undefined && slot.left() <= 0) throw new ToolError('execution-failed', "The calling turn's token budget is used up: the agent did not start.");
      // Forked with this call as its parent: the inner calls' trace records name it and share its trace id.
      const run = forkRunContext(ctx.run, { conversationId: `${ctx.run.conversationId}/${options.name}/${ctx.call.id}`, signal: ctx.signal, parent: ctx });
      if (slot !== undefined) runInSlot(run, slot);
      // The inner calls as they end, for this call's trace part (the chat loop takes them with its result).
      const subCalls = collectSubCalls(ctx.run, ctx.call.id);
      // No client reads the inner conversation: the text loop, without a UI stream or seals. What the agent does shows
      // as this call's progress: each inner report under its tool's name, and each inner call as it finishes.
      let finished = 0;
      const turn = generateTextTurn(options.agent, {
        messages: task,
        output: structured,
        run,
        signal: ctx.signal,
        grantApprovals: true,
        clientTools: 'omit',
        // Inner calls timed layer by layer for this call's trace part (unless the agent says `trace: false`).
        spans: true,
        // Keyed under this call's key: a regenerated call given this one's id (approved anew) has inner calls with the
        // ids of this one's (a model numbers them the same way), and they must not read this one's writes as theirs.
        idempotencyKey: (id) => idempotencyKeyOf({ conversationId: run.conversationId, callId: id, nonce: ctx.idempotencyKey }),
        // The inner tool's own counts go into the text: this call counts finished inner calls, so its bar never jumps.
        onProgress: ({ toolName, progress }) => ctx.progress({ message: `${toolName}: ${progressText(progress)}`, completed: finished }),
        onToolResult: (inner) => {
          addSubCall(subCalls, run, inner);
          finished += 1;
          ctx.progress({ message: `${inner.call.name} ${inner.isError ? 'failed' : 'done'}`, completed: finished });
        },
        // The inner turn's tokens as they are spent (each model step, each inner call's own), so a turn that later
        // fails, times out or is aborted still counts what it spent: the outer loop reads this call's `result.usage`.
        onUsage: (usage) => ctx.reportUsage(usage),
      });
      const result = await turn.catch((error: unknown) => {
        throw innerFailure(options, error, ctx.signal);
      });
      if (result.pending.length) {
        // Words for the calling model (a ToolError): `toolErrorMessage: 'hide-unexpected'` keeps them.
        throw new ToolError('execution-failed', `The agent stopped with calls it cannot finish alone: ${result.pending.map((p) => p.toolName).join(', ')}.`);
      }
      const usage = messageUsage(result.usage);
      // The calling turn's budget stopped it, not its own: the calling model reads which. Its turn stops on the lower of
      // the two (between steps, or before a call whose estimated prompt is over it): the calling turn's when what that has
      // left is below what the agent's own budget has (an agent with none has all), or nothing is left there.
      const own = options.agent.options.tokenBudget;
      const ownLeft = own === undefined ? Number.POSITIVE_INFINITY : own - tokensOf(result.usage);
      const callingLeft = slot?.left();
      const calling = callingLeft !== undefined && (callingLeft <= 0 || callingLeft < ownLeft);
      const limit = result.limit === 'tokens' && calling ? 'calling' : result.limit;
      if (structured === undefined) return { answer: answerOf(result.text, limit, result.finishReason) as TOutput, usage };
      if (limit !== undefined) throw new ToolError('execution-failed', `The agent stopped ${limitName(limit)} before it gave its answer.`);
      return { answer: result.output as TOutput, usage };
    },
    // Structured data goes to the calling model as JSON (a value JSON cannot hold fails the call with `invalid-output`).
    toModelOutput: (output) => (structured === undefined ? (output.answer as string) : answerJson(output.answer)),
  });
}

/** A structured answer as the calling model reads it; one JSON cannot write (a transform's `undefined`) says why. */
function answerJson(answer: unknown): string {
  const json = JSON.stringify(answer);
  if (json !== undefined) return json;
  throw new TypeError(
    `the agent's answer is ${typeof answer} after its output schema, which JSON cannot hold: have the schema give a JSON value (null for none)`,
  );
}

/**
 * What a failed inner turn throws to the calling model (and so to the browser, which reads the same text): a `ToolError`
 * as it is (its words are written for a model: a timeout, a refused setting), an abort as it is (the executor reports
 * it), and anything else (a provider's error, whose message can carry internal details) as the agent's `errorMessage`
 * text, as a UI turn's client reads a model error, with the error itself to the agent's `onError`.
 */
function innerFailure<TDeps>(options: Pick<AgentToolOptions<TDeps>, 'name' | 'agent'>, error: unknown, signal: AbortSignal): unknown {
  if (ToolError.isInstance(error) || signal.aborted) return error;
  const { onError, errorMessage = defaultErrorMessage } = options.agent.options;
  try {
    (onError ?? (({ error: failure }) => console.error(`edgetool: the agent of the tool "${options.name}" failed:`, failure)))({ error });
  } catch {
    // A broken listener must not change what the calling model reads.
  }
  return new ToolError('execution-failed', errorMessage(error), { cause: error });
}

/**
 * What the calling model reads as the agent's answer: its text, and a line that says so when the text is not the whole
 * answer: its turn stopped at a limit (`maxSteps`, its `tokenBudget`) before it answered, the output token limit cut the
 * answer (`length`), a content filter stopped it, or it ended with no text. Without it the model took a cut or empty
 * text for the answer.
 */
function answerOf(text: string, limit: StopLimit | undefined, finishReason: string): string {
  const note =
    limit !== undefined
      ? `(The agent stopped ${limitName(limit)} before it finished its answer.)`
      : finishReason === 'length'
        ? "(The agent's answer was cut off at its output token limit.)"
        : finishReason === 'content-filter'
          ? "(The provider's content filter stopped the agent's answer.)"
          : text.trim() === ''
            ? '(The agent ended without an answer.)'
            : undefined;
  if (note === undefined) return text;
  return text.trim() === '' ? note : `${text}\n\n${note}`;
}

/** A limit an inner turn stopped at: its own, or the calling turn's token budget (`'calling'`). */
type StopLimit = TurnLimit | 'calling';

/** A limit as the calling model reads it. */
const limitName = (limit: StopLimit): string =>
  limit === 'calling' ? "when the calling turn's token budget ran out" : `at its ${limit === 'tokens' ? 'token budget' : 'step limit'}`;
