// Not in the chat barrel: the text is the loop's own wording, not an API.

/**
 * What the model reads for a call whose arguments its output token limit cut off (Anthropic's `max_tokens` inside a
 * `tool_use` block): not "invalid JSON", which it would write again the same way, but why, so it can write less.
 */
export const cutArgumentsText = (toolName: string): string =>
  `The arguments for "${toolName}" were cut off at the output token limit before their JSON was complete. Call the tool again with shorter arguments, or do the work in smaller calls.`;

/**
 * What the model reads for a call whose arguments were still streaming when its answer ended without a finish (a cut
 * stream) or for another reason than the token limit: it did not run, and why.
 */
export const unfinishedArgumentsText = (toolName: string): string =>
  `Not run: the model's answer ended before the arguments for "${toolName}" were complete. Call the tool again if it is still needed.`;
