import { type RefObject, useEffect } from 'react';
import { type TranscriptPart, type TranscriptTurn, transcriptText } from './transcript.ts';

/** The pieces of a message that a copy of the conversation reads: text bubbles, tool cards, the notes that it stopped. */
const PARTS = '[data-testid="message-text"], [data-testid="tool-card"], [data-testid="message-stopped"], [data-testid="message-limit"]';

/** The part of `range` inside `node` (which it intersects). */
function clipped(range: Range, node: Node): Range {
  const part = document.createRange();
  part.selectNodeContents(node);
  if (range.compareBoundaryPoints(Range.START_TO_START, part) > 0) part.setStart(range.startContainer, range.startOffset);
  if (range.compareBoundaryPoints(Range.END_TO_END, part) < 0) part.setEnd(range.endContainer, range.endOffset);
  return part;
}

/** A selected piece as the transcript reads it: a card by its call, a bubble or a note by the text selected of it. */
function partOf(element: Element, selected: string): TranscriptPart {
  if (element.getAttribute('data-testid') !== 'tool-card') return { kind: 'text', text: selected };
  return {
    kind: 'tool',
    name: element.getAttribute('data-tool-name') ?? '',
    input: element.querySelector('[data-testid="tool-input"]')?.textContent ?? '',
    state: element.querySelector('[data-testid="tool-state"]')?.textContent?.trim() ?? '',
  };
}

/** How many characters of `text` are not white space. */
const inked = (text: string): number => text.replace(/\s+/g, '').length;

/**
 * The messages under `list` a selection covers, with what of each it covers; `undefined` when the text it covers is all
 * in one piece (a part of one bubble or one card copies as the browser copies it) or in none.
 */
export function selectedTurns(range: Range, list: Element): TranscriptTurn[] | undefined {
  const turns: { element: Element; turn: { role: TranscriptTurn['role']; parts: TranscriptPart[] } }[] = [];
  let pieces = 0;
  let inPieces = 0;
  for (const element of list.querySelectorAll(PARTS)) {
    if (!range.intersectsNode(element)) continue;
    // A range that only touches a piece (a triple click's ends at the start of the next one) selects none of it.
    const selected = clipped(range, element).toString();
    if (selected.trim() === '') continue;
    const message = element.closest('[data-message-id]');
    if (message === null) continue;
    pieces++;
    inPieces += inked(selected);
    if (turns.at(-1)?.element !== message) {
      turns.push({ element: message, turn: { role: message.getAttribute('data-testid') === 'message-user' ? 'user' : 'assistant', parts: [] } });
    }
    turns.at(-1)?.turn.parts.push(partOf(element, selected));
  }
  // One piece and nothing else (a triple click's range also touches the next piece, with nothing of it) is the browser's
  // to copy; one piece with its message's heading or token count is a message.
  if (pieces === 0 || (pieces === 1 && inked(range.toString()) <= inPieces)) return undefined;
  return turns.map((entry) => entry.turn);
}

/**
 * Copying a selection across messages (or pieces of one) puts the conversation on the clipboard as plain text: who
 * said what, each call on one line (lib/transcript.ts). The copy carried the avatar's "et", the cards' icons, tags,
 * durations, traces and token counts, and the hidden headings. A selection within one piece, or in a field, is left
 * to the browser.
 */
export function useConversationCopy(list: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const onCopy = (event: ClipboardEvent) => {
      const root = list.current;
      const selection = document.getSelection();
      if (root === null || selection === null || selection.rangeCount !== 1 || event.clipboardData === null) return;
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
      const turns = selectedTurns(selection.getRangeAt(0), root);
      if (turns === undefined) return;
      event.preventDefault();
      event.clipboardData.setData('text/plain', transcriptText(turns));
    };
    document.addEventListener('copy', onCopy);
    return () => document.removeEventListener('copy', onCopy);
  }, [list]);
}
