// The assistant's row while the model thinks: the indicator stays until the current step shows something (words, a
// call's card), after the answer's `start`, between steps and after a continuation's answers went out. Rendered with
// react-dom/server: the markup is what a reader (and a screen reader) gets.
import type { EdgetoolUIMessage } from '@edgetool/ai';
import type { ToolCallView } from '@edgetool/react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { awaitsContent } from '../lib/messages.ts';
import { MessageView } from './message-view.tsx';

const noop = () => {};
/** The answer's row as the app renders the last message while it streams: thinking when its current step shows nothing new. */
function row(parts: unknown[], toolCalls: ReadonlyMap<string, ToolCallView> = new Map()): string {
  const message = { id: 'a1', role: 'assistant', parts } as EdgetoolUIMessage;
  return renderToStaticMarkup(
    createElement(MessageView, {
      message,
      toolCalls,
      questions: [],
      streaming: true,
      stopped: false,
      thinking: awaitsContent(message),
      inputSchemas: new Map(),
      onApprove: noop,
      onDeny: noop,
      onChooseDate: noop,
      onCancelDate: noop,
    }),
  );
}
const THINKING = 'The model is thinking…';
const words = (text: string) => ({ type: 'text', text, state: 'streaming' });
const call = (state: string, extra: Record<string, unknown> = {}) => ({ type: 'tool-query_order', toolCallId: 'c1', state, input: { order_id: 'A-1' }, ...extra });
const view = (status: string, partState: string): ReadonlyMap<string, ToolCallView> => {
  const one = { toolCallId: 'c1', toolName: 'query_order', status, partState, input: { order_id: 'A-1' }, runsOn: 'server', traces: [] };
  return new Map([['c1', one as unknown as ToolCallView]]);
};

describe('the thinking indicator in the answer', () => {
  it('shows after the answer began and before its first word (the row stood empty), as words, not a live region', () => {
    for (const parts of [[], [{ type: 'step-start' }], [{ type: 'step-start' }, words('  ')]]) {
      const html = row(parts);
      expect(html).toContain(THINKING);
      expect(html).toContain('data-testid="thinking"');
      expect(html).not.toContain('role="status"');
      // The dots are decoration.
      expect(html).toMatch(/class="typing" aria-hidden="true"/);
    }
  });

  it('goes once the current step shows something: words, or a call in progress', () => {
    expect(row([{ type: 'step-start' }, words('A-1 ships')])).not.toContain(THINKING);
    expect(row([{ type: 'step-start' }, call('input-streaming')], view('input-streaming', 'input-streaming'))).not.toContain(THINKING);
    expect(row([{ type: 'step-start' }, call('input-available')], view('running', 'input-available'))).not.toContain(THINKING);
  });

  it('shows again between steps, after the cards and words of the step before', () => {
    const parts = [{ type: 'step-start' }, words('Let me look.'), call('output-available', { output: { status: 'shipped' } }), { type: 'step-start' }];
    const html = row(parts, view('done', 'output-available'));
    expect(html).toContain('Let me look.');
    expect(html).toContain('data-testid="tool-card"');
    expect(html).toContain(THINKING);
    // After the card, where the next words will be.
    expect(html.indexOf(THINKING)).toBeGreaterThan(html.indexOf('data-testid="tool-card"'));
  });

  it("shows while a continuation's answers are out (a browser result, a decision): the model reads them next", () => {
    expect(row([{ type: 'step-start' }, call('output-available', { output: { cleared: 2 } })], view('done', 'output-available'))).toContain(THINKING);
    const denied = call('approval-responded', { approval: { id: 'ap1', approved: false } });
    expect(row([{ type: 'step-start' }, denied], view('denied', 'approval-responded'))).toContain(THINKING);
  });

  it('not while the server runs a call the user approved: its card says "running"; back once its result came', () => {
    const approved = call('approval-responded', { approval: { id: 'ap1', approved: true } });
    const html = row([{ type: 'step-start' }, approved], view('approved', 'approval-responded'));
    expect(html).not.toContain(THINKING);
    expect(html).toMatch(/data-testid="tool-state"[^>]*>(<span[^>]*><\/span>)?running<\/span>/);
    // Beside a denial in the same step: the approved call still runs first.
    const denied = { ...call('approval-responded', { approval: { id: 'ap2', approved: false } }), toolCallId: 'c2' };
    expect(row([{ type: 'step-start' }, approved, denied], view('approved', 'approval-responded'))).not.toContain(THINKING);
    const done = row([{ type: 'step-start' }, call('output-available', { output: { moved: true } })], view('done', 'output-available'));
    expect(done).toContain(THINKING);
  });

  it('none in a row without the flag (the answer is over), and a message of the user never awaits', () => {
    const message = { id: 'a1', role: 'assistant', parts: [{ type: 'step-start' }] } as EdgetoolUIMessage;
    const actions = { onApprove: noop, onDeny: noop, onChooseDate: noop, onCancelDate: noop };
    const props = { message, toolCalls: new Map(), questions: [], streaming: false, stopped: false, inputSchemas: new Map(), ...actions };
    expect(renderToStaticMarkup(createElement(MessageView, props))).not.toContain(THINKING);
    expect(awaitsContent({ id: 'u1', role: 'user', parts: [] })).toBe(false);
  });
});

describe("the Retry of an answer an error ended at its calls' results", () => {
  const parts = [{ type: 'step-start' }, call('output-available', { output: { status: 'shipped' } }), { type: 'step-start' }];
  const settled = (onGoOn?: () => void): string => {
    const message = { id: 'a1', role: 'assistant', parts } as EdgetoolUIMessage;
    const actions = { onApprove: noop, onDeny: noop, onChooseDate: noop, onCancelDate: noop };
    const props = { message, toolCalls: view('done', 'output-available'), questions: [], streaming: false, stopped: true, inputSchemas: new Map(), onGoOn, ...actions };
    // React writes an apostrophe as &#x27;.
    return renderToStaticMarkup(createElement(MessageView, props)).replaceAll('&#x27;', "'");
  };

  it('shows under the answer, after its cut-short mark, with words the button is described by', () => {
    const html = settled(noop);
    expect(html).toContain('data-testid="answer-retry"');
    expect(html).toContain("An error stopped the answer after its calls' results came, before the model's words on them.");
    expect(html.indexOf('data-testid="answer-retry"')).toBeGreaterThan(html.indexOf('data-testid="message-stopped"'));
    const [, id] = html.match(/<p id="([^"]+)">An error stopped/) ?? [];
    expect(html).toContain(`data-testid="answer-retry-button" aria-describedby="${id}"`);
  });

  it('not without it (an answer the step limit or a stop ended there), and never in a message of the user', () => {
    expect(settled()).not.toContain('answer-retry');
    const question = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Where is A-1?' }] } as EdgetoolUIMessage;
    const props = { message: question, toolCalls: new Map(), questions: [], streaming: false, stopped: false, inputSchemas: new Map(), onGoOn: noop };
    const actions = { onApprove: noop, onDeny: noop, onChooseDate: noop, onCancelDate: noop };
    expect(renderToStaticMarkup(createElement(MessageView, { ...props, ...actions }))).not.toContain('answer-retry');
  });
});
