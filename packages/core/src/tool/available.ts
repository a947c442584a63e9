import type { RunContext } from '../context/run-context.ts';
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

/** The tools `run` may see and call, in their order (see `policy.available`). */
export async function availableTools(tools: readonly AnyTool[], run: RunContext): Promise<AnyTool[]> {
  const answers = tools.map((tool) => isToolAvailable(tool, run));
  const resolved = answers.some((answer) => answer instanceof Promise) ? await Promise.all(answers) : (answers as boolean[]);
  return tools.filter((_, i) => resolved[i]);
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
