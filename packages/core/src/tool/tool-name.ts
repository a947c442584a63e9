// Not in the barrel: what a tool name must be, checked by defineTool, @tool and lazyResolver where the name is written.

/** What providers accept as a function name: 1-64 letters, digits, `_` or `-`. */
export const TOOL_NAME: RegExp = /^[a-zA-Z0-9_-]{1,64}$/;

/** True for a name a model can call a tool by. */
export function isToolName(name: unknown): name is string {
  return typeof name === 'string' && TOOL_NAME.test(name);
}
