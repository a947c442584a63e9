import type { RunContext } from '../context/run-context.ts';
import type { AnyTool } from './types.ts';

/**
 * Whether `run` may see and call `tool` (its `policy.available`; every tool without one is). A throw or a rejection
 * counts as `false`: a broken check hides the tool rather than exposing it. Synchronous when the check is.
 */
export function isToolAvailable(tool: AnyTool, run: RunContext): boolean | Promise<boolean> {
  const { available } = tool.policy;
  if (available === undefined) return true;
  let answer: boolean | Promise<boolean>;
  try {
    answer = available(run);
  } catch {
    return false;
  }
  return answer instanceof Promise ? answer.then((yes) => yes === true, () => false) : answer === true;
}

/** The tools `run` may see and call, in their order (see `policy.available`). */
export async function availableTools(tools: readonly AnyTool[], run: RunContext): Promise<AnyTool[]> {
  const answers = tools.map((tool) => isToolAvailable(tool, run));
  const resolved = answers.some((answer) => answer instanceof Promise) ? await Promise.all(answers) : (answers as boolean[]);
  return tools.filter((_, i) => resolved[i]);
}
