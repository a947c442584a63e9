import type { ToolContext, ToolOutcome } from '../chain/types.ts';
import type { ToolError } from '../errors/tool-error.ts';
import { checkModelContent, type ModelContent } from '../tool/model-content.ts';
import type { AnyTool } from '../tool/types.ts';

/** What the model reads when a tool returns `undefined` or `null`. */
export const NO_OUTPUT_TEXT = 'Done. The tool returned no output.';

/**
 * Default conversion: strings as is, `undefined`/`null`/`''` as an explicit "no output" (some providers
 * refuse empty tool content), the rest as JSON.
 */
export function defaultModelText(output: unknown): string {
  if (output === undefined || output === null || output === '') return NO_OUTPUT_TEXT;
  if (typeof output === 'string') return output;
  let json: string | undefined;
  try {
    json = JSON.stringify(output);
  } catch (error) {
    // V8, workerd and Chromium all stringify recursively: a value nested some thousands deep overflows the stack.
    if (error instanceof RangeError) throw new TypeError('the output is nested too deeply to convert to JSON');
    throw error;
  }
  if (json === undefined) throw new TypeError(`a ${typeof output} cannot be converted to JSON`);
  return json;
}

/**
 * A failure as text the model can act on: code, message, and the issues with their paths. `message` replaces the
 * error's own (the executor's `toolErrorMessage`).
 */
export function errorModelText(error: ToolError, message: string = error.message): string {
  const lines = [`Error (${error.code}): ${message}`];
  if (error.issues?.length) {
    for (const issue of error.issues) lines.push(`- ${issue.path}: ${issue.message}`);
    // An output schema's issues are the tool's fault: new arguments would not fix them.
    const fault = error.code === 'invalid-output' ? "These issues are in the tool's result, not in your arguments." : 'Fix these arguments and call the tool again.';
    lines.push(fault);
  }
  return lines.join('\n');
}

/** What the model reads for an outcome: text, or checked parts when the tool's `toModelOutput` returned parts. */
export function outcomeModelText(tool: AnyTool | undefined, outcome: ToolOutcome, ctx: ToolContext | undefined): ModelContent {
  switch (outcome.type) {
    case 'success':
      return !tool?.toModelOutput || !ctx ? defaultModelText(outcome.output) : checkModelContent(tool.toModelOutput(outcome.output, ctx));
    case 'error':
      return errorModelText(outcome.error);
    case 'approval-required':
      return `Waiting for the user to approve this call of "${tool?.name}".`;
    case 'client-pending':
      return `Waiting for the client to run "${tool?.name}".`;
  }
}
