// Not in the barrel: the default report of a tool left out of what the model is shown, shared by registries and
// `availableTools`.

/** The default `onLoadError` of a registry and `onLateCheck` of `availableTools`: the server's log, since the model is not told. */
export function logLeftOut(error: unknown, name: string): void {
  console.error(`edgetool: the tool "${name}" is left out of the tools the model is shown:`, error);
}
