import type { ToolContext, ToolOutcome } from '../chain/types.ts';
import type { ToolError } from '../errors/tool-error.ts';
import { boundModelContent, DEFAULT_MAX_CONTENT_CHARS } from '../tool/content-bound.ts';
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
  // Only a plain object says nothing as "{}". A Map, a generator, an Error returned rather than thrown or an instance
  // whose state is in # fields would reach the model as "{}" too (the content lost); the compare costs nothing else.
  if (json === '{}') {
    const what = opaqueKind(output as object);
    if (what !== undefined) throw new TypeError(`${what} converts to "{}" in JSON, which tells the model nothing`);
  }
  return json;
}

/** What an object that JSON writes as `{}` is, when it is not a plain empty object (see `defaultModelText`). */
function opaqueKind(output: object): string | undefined {
  const proto = Object.getPrototypeOf(output) as object | null;
  if (proto === null || proto === Object.prototype) return undefined;
  if (output instanceof Error) return 'an Error returned rather than thrown (throw it, and the model reads it as a failure)';
  if (output instanceof Map || output instanceof Set) return `a ${output instanceof Map ? 'Map' : 'Set'} (return an object or an array: Object.fromEntries(map), [...set])`;
  if (typeof (output as { next?: unknown }).next === 'function' || Symbol.asyncIterator in output) {
    return 'an iterator or a generator (return its value; report progress with ctx.progress())';
  }
  const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
  return `${typeof name === 'string' && name !== '' ? `an instance of ${name}` : 'an object'} with no JSON fields (give it a toJSON(), or return a plain object)`;
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

/** The most characters of one result `tool`'s policy lets the model read (a tool built by hand may lack the field). */
function contentBound(tool: AnyTool | undefined): number {
  return tool?.policy.maxContentChars ?? DEFAULT_MAX_CONTENT_CHARS;
}

/**
 * What the model reads for an outcome: text, or checked parts when the tool's `toModelOutput` returned parts; a success
 * is bounded by the tool's `policy.maxContentChars`.
 */
export function outcomeModelText(tool: AnyTool | undefined, outcome: ToolOutcome, ctx: ToolContext | undefined): ModelContent {
  switch (outcome.type) {
    case 'success': {
      const content = !tool?.toModelOutput || !ctx ? defaultModelText(outcome.output) : checkModelContent(tool.toModelOutput(outcome.output, ctx));
      return boundModelContent(content, contentBound(tool));
    }
    case 'error':
      return errorModelText(outcome.error);
    case 'approval-required':
      return `Waiting for the user to approve this call of "${tool?.name}".`;
    case 'client-pending':
      return `Waiting for the client to run "${tool?.name}".`;
  }
}
