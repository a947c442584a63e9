/** Splits text into word deltas ("Sunny ", "in ", "Paris.") the way a model streams tokens. */
export function splitText(text: string | readonly string[]): string[] {
  if (typeof text !== 'string') return [...text];
  if (text === '') return [];
  return text.match(/\s*\S+\s*/g) ?? [text];
}

/** Splits a JSON arguments string after each `:` and `,` (`{"city":`, `"Paris"}`), as the API streams them. */
export function splitArguments(args: string): string[] {
  if (args === '') return [];
  return args.match(/[^,:]+[,:]?|[,:]/g) ?? [args];
}

/** Serialises tool-call arguments: strings are sent verbatim, anything else as JSON. */
export function argumentsToString(args: unknown): string {
  return typeof args === 'string' ? args : JSON.stringify(args ?? {});
}
