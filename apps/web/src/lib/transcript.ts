/** A piece of a message as a copy of the conversation reads it. */
export type TranscriptPart =
  | { readonly kind: 'text'; readonly text: string }
  /** A tool call: its name, the arguments' text as its card shows them, and the state its card names. */
  | { readonly kind: 'tool'; readonly name: string; readonly input: string; readonly state: string };

/** One message of a copy: who said it, and what of it was selected. */
export interface TranscriptTurn {
  readonly role: 'user' | 'assistant';
  readonly parts: readonly TranscriptPart[];
}

const SPEAKERS: Readonly<Record<TranscriptTurn['role'], string>> = { user: 'You', assistant: 'Assistant' };

/** Arguments on one line: JSON as compact JSON, any other text with its whitespace runs made one space. */
function oneLine(input: string): string {
  try {
    return JSON.stringify(JSON.parse(input));
  } catch {
    return input.replace(/\s+/g, ' ').trim();
  }
}

/**
 * A selection across messages as the conversation reads: each message after who said it ("You: …", "Assistant: …"),
 * a blank line between messages, a tool call as one bracketed line (`[query_order({"order_id":"A-1001"}): done]`).
 * A copy used to carry the avatar's "et", the cards' icons, tags, durations, trace rows and token counts.
 */
export function transcriptText(turns: readonly TranscriptTurn[]): string {
  return turns
    .map((turn) => ({
      speaker: SPEAKERS[turn.role],
      lines: turn.parts.flatMap((part) => {
        if (part.kind === 'tool') return [`[${part.name}(${oneLine(part.input)}): ${part.state}]`];
        const text = part.text.trim();
        return text === '' ? [] : [text];
      }),
    }))
    .filter((turn) => turn.lines.length > 0)
    .map((turn) => `${turn.speaker}: ${turn.lines.join('\n')}`)
    .join('\n\n');
}
