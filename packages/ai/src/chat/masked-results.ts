import { type AnyTool, errorModelText, ToolError, type ToolExecutor, toToolError } from '@edgetool/core';
import { type AnyToolPart, type EdgetoolUIMessage, toolNameOf, toolParts } from './protocol.ts';

/**
 * The history as the model reads it where a client ran a call: each of its results (`clientResults`, by call id) masked
 * as the chain masks one the server runs (`executor.redactOutput`: the agent's, registry's and tool's `redact()`), so the
 * model reads the same either way. Only the model's copy changes: the seal covers what the client sent. A result the
 * masking refuses reads as `invalid-output`, as in `acceptClientResult`.
 */
export function withMaskedClientResults(
  messages: EdgetoolUIMessage[],
  clientResults: ReadonlySet<string>,
  executor: ToolExecutor,
  tools: ReadonlyMap<string, AnyTool>,
): EdgetoolUIMessage[] {
  if (clientResults.size === 0) return messages;
  return messages.map((message) => {
    if (message.role !== 'assistant') return message;
    const results = new Set(toolParts(message).filter((part) => part.state === 'output-available' && clientResults.has(part.toolCallId)));
    if (results.size === 0) return message;
    const parts = message.parts.map((part) => {
      if (!results.has(part as AnyToolPart)) return part;
      const { toolCallId: id, output, input } = part as AnyToolPart;
      const name = toolNameOf(part as AnyToolPart);
      // A tool the registry no longer has: no layer is known to mask it, and the AI SDK reads it as it does any other.
      const tool = tools.get(name);
      if (tool === undefined) return part;
      let masked: unknown;
      try {
        masked = executor.redactOutput(tool, output);
      } catch (cause) {
        const meta = { toolName: name, callId: id };
        const error = new ToolError('invalid-output', toToolError(cause).message, { ...meta, cause, unexpected: true });
        const { output: _unmasked, ...rest } = part as typeof part & { output?: unknown };
        return { ...rest, state: 'output-error', errorText: errorModelText(error, executor.errorMessage(error, { id, name, arguments: input })) } as typeof part;
      }
      // No layer masks anything (no `redactOutput`): the part as it is.
      if (masked === output) return part;
      return { ...part, output: masked } as typeof part;
    });
    return { ...message, parts };
  });
}
