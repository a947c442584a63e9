import type { RunContext } from '../context/run-context.ts';
import { ToolError } from '../errors/tool-error.ts';
import { raceSignal } from '../executor/race-signal.ts';
import { logLeftOut } from './left-out.ts';
import { copyTool } from './copy-tool.ts';
import type { AnyTool, AvailabilityCheck } from './types.ts';

/** Asks `check` (none: yes), fail closed: a throw, a rejection or an answer that is not `true` is `false`. */
function ask(check: AvailabilityCheck | undefined, run: RunContext): boolean | Promise<boolean> {
  if (check === undefined) return true;
  let answer: boolean | Promise<boolean>;
  try {
    answer = check(run);
  } catch {
    return false;
  }
  return answer instanceof Promise ? answer.then((yes) => yes === true, () => false) : answer === true;
}

/**
 * Whether `run` may see and call `tool` (its `policy.available`; every tool without one is). A throw or a rejection
 * counts as `false`: a broken check hides the tool rather than exposing it. Synchronous when the check is.
 */
export function isToolAvailable(tool: AnyTool, run: RunContext): boolean | Promise<boolean> {
  return ask(tool.policy.available, run);
}

/** Options for {@link availableTools}. */
export interface AvailableToolsOptions {
  /**
   * Receives each tool left out because its check did not answer within 10 s (or before the run's signal aborted),
   * with a `timeout` (or `aborted`) `ToolError`, as `onLoadError` a tool that did not load. Default: `console.error`.
   */
  readonly onLateCheck?: ((error: ToolError, name: string) => void) | undefined;
}

/**
 * The tools `run` may see and call, in their order (see `policy.available`). A check that does not answer within 10 s,
 * or before the run's signal aborts, leaves its tool out (as a no) instead of holding the list, and every turn, forever.
 */
export async function availableTools(tools: readonly AnyTool[], run: RunContext, options: AvailableToolsOptions = {}): Promise<AnyTool[]> {
  const answers = tools.map((tool) => isToolAvailable(tool, run));
  if (!answers.some((answer) => answer instanceof Promise)) return tools.filter((_, i) => answers[i]);
  // One timer for the whole list. `null` is a check that did not answer; the list's end removes the abort listener.
  let end = (_late?: null) => {};
  const ended = new Promise<null | undefined>((resolve) => {
    end = resolve;
  });
  const late = raceSignal(ended, run.signal, () => null);
  const timer = setTimeout(end, 10_000, null);
  try {
    const resolved = await Promise.all(answers.map((answer) => (answer instanceof Promise ? Promise.race([answer, late]) : answer)));
    return tools.filter(({ name }, i) => {
      if (resolved[i] === null) {
        const timedOut = !run.signal?.aborted;
        const error = timedOut
          ? new ToolError('timeout', `The availability check of "${name}" did not answer within 10 s.`, { toolName: name, retryable: true })
          : new ToolError('aborted', `The availability check of "${name}" did not answer before the run's signal aborted.`, { toolName: name });
        (options.onLateCheck ?? logLeftOut)(error, name);
      }
      return resolved[i] === true;
    });
  } finally {
    clearTimeout(timer);
    end();
  }
}

/**
 * A copy of `tool` whose `policy.available` is `check` AND its own: `check` is asked first, the tool's own only when
 * `check` says yes, each fail closed. The rest of the tool is its own (the same `execute`, the same lazy JSON Schema).
 * What a registry with `available` hands out for each of its tools.
 */
export function withAvailable(tool: AnyTool, check: AvailabilityCheck): AnyTool {
  const own = tool.policy.available;
  const available = (run: RunContext) => {
    const first = ask(check, run);
    return first instanceof Promise ? first.then((yes) => yes && ask(own, run)) : first && ask(own, run);
  };
  return copyTool(tool, { policy: { value: { ...tool.policy, available }, enumerable: true } });
}
