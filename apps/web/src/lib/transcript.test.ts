import { describe, expect, it } from 'vitest';
import { transcriptText } from './transcript.ts';

describe('transcriptText', () => {
  it('reads as the conversation: who said what, a call as one line, a blank line between messages', () => {
    expect(
      transcriptText([
        { role: 'user', parts: [{ kind: 'text', text: 'What is the status of order A-1001?' }] },
        {
          role: 'assistant',
          parts: [
            { kind: 'tool', name: 'query_order', input: '{\n  "order_id": "A-1001"\n}', state: 'done' },
            { kind: 'text', text: 'Order A-1001 is shipped.' },
          ],
        },
        { role: 'user', parts: [{ kind: 'text', text: 'thanks!\nbye' }] },
      ]),
    ).toBe('You: What is the status of order A-1001?\n\nAssistant: [query_order({"order_id":"A-1001"}): done]\nOrder A-1001 is shipped.\n\nYou: thanks!\nbye');
  });

  it('leaves out messages of which nothing but blanks was selected, and keeps arguments that are not JSON on one line', () => {
    expect(
      transcriptText([
        { role: 'user', parts: [{ kind: 'text', text: ' \n' }] },
        { role: 'assistant', parts: [{ kind: 'tool', name: 'note', input: 'a\n  b', state: 'needs approval' }] },
        { role: 'user', parts: [] },
      ]),
    ).toBe('Assistant: [note(a b): needs approval]');
    expect(transcriptText([])).toBe('');
  });
});
