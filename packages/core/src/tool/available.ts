import type { RunContext } from '../context/run-context.ts';
import type { ToolError } from '../errors/tool-error.ts';
import { lateError, withinCheckLimit } from './check-limit.ts';
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
  const answers = await withinCheckLimit(tools.map((tool) => isToolAvailable(tool, run)), run.signal);
  return tools.filter(({ name }, i) => {
    if (answers[i] === null) (options.onLateCheck ?? logLeftOut)(lateError(`The availability check of "${name}"`, { toolName: name }, run.signal), name);
    return answers[i] === true;
  });
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
