// The assistant's row while the model thinks: the indicator stays until the current step shows something (words, a
// call's card), after the answer's `start`, between steps and after a continuation's answers went out. Rendered with
// react-dom/server: the markup is what a reader (and a screen reader) gets.
import type { EdgetoolUIMessage } from '@edgetool/ai';
import { type ToolCallView, toolCallViews } from '@edgetool/react';
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
  const one = { toolCallId: 'c1', toolName: 'query_order', messageId: 'a1', status, partState, input: { order_id: 'A-1' }, runsOn: 'server', traces: [] };
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

describe("a server's stream is drawn, never run: what a hostile one sends renders as text, and never blanks the page", () => {
  /** The row of a finished answer, with the views the hook makes of its parts. */
  function settled(parts: unknown[], metadata?: unknown): string {
    const message = { id: 'a1', role: 'assistant', parts, ...(metadata === undefined ? {} : { metadata }) } as EdgetoolUIMessage;
    const toolCalls = toolCallViews([message], { browserTools: new Map(), serverTools: new Map(), browserCalls: new Map(), streaming: false, mode: 'internal' });
    return renderToStaticMarkup(
      createElement(MessageView, { message, toolCalls, questions: [], streaming: false, stopped: false, inputSchemas: new Map(), onApprove: noop, onDeny: noop, onChooseDate: noop, onCancelDate: noop }),
    );
  }
  const done = (extra: Record<string, unknown> = {}) => ({ type: 'tool-query_order', toolCallId: 'c1', state: 'output-available', input: { order_id: 'A-1' }, output: { ok: true }, ...extra });
  const trace = (data: Record<string, unknown>) => ({ type: 'data-edgetool-trace', id: 'c1', data: { toolCallId: 'c1', toolName: 'query_order', side: 'server', outcome: 'success', durationMs: 2, spans: [], ...data } });

  it('trace parts of the wrong shape (the card shows its trace open): spans that are no list, null spans, objects for words, null counts', () => {
    const junk = [{ spans: 5 }, { spans: undefined }, { spans: [null, 'x'] }, { errorCode: { a: 1 } }, { outcome: { a: 1 } }, { usage: { totalTokens: 3, inputTokens: null } }];
    for (const data of junk) expect(settled([done(), trace(data)])).toContain('data-testid="tool-card"');
  });

  it("an approval ticket whose editable is text, an object, or a list of anything: the card asks, with fields only for names", () => {
    for (const editable of ['new_date', { new_date: true }, ['new_date', 7, null, { a: 1 }]]) {
      const asked = { type: 'tool-move', toolCallId: 'c1', state: 'approval-requested', input: { new_date: '2027-01-02' }, approval: { id: 'p1' } };
      const ticketPart = { type: 'data-edgetool-ticket', id: 'c1', data: { toolCallId: 'c1', toolName: 'move', purpose: 'approval', runsOn: 'server', ticket: 't', editable } };
      expect(settled([asked, ticketPart], { mode: 'internal' })).toContain('data-testid="approval"');
    }
  });

  it("a null token count in the answer's metadata", () => {
    expect(settled([words('A-1 ships')], { usage: { totalTokens: 3, inputTokens: null } })).toContain('3 tokens');
  });

  it('arguments and an output 10,000 lists deep', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(settled([done({ input: deep, output: deep })])).toContain('nested too deeply to show');
  });

  it('HTML, a javascript: link and markdown in a tool name, arguments, an output, an error and a trace are text', () => {
    const html = '<img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>[y](javascript:alert(1))';
    const evil = { type: `tool-${html}`, toolCallId: 'c1', state: 'output-available', input: { q: html }, output: html };
    const failed = { ...evil, toolCallId: 'c2', state: 'output-error', output: undefined, errorText: html };
    const spans = [{ name: html, kind: 'execute', depth: 0, start: 0, duration: 1, outcome: 'success' }];
    const markup = settled([words(html), evil, failed, { ...trace({ errorCode: html, spans }), id: 'c2', data: { ...trace({ errorCode: html, spans }).data, toolCallId: 'c2' } }]);
    expect(markup).not.toMatch(/<img|<a[\s>]|href="javascript|src="x"/);
    expect(markup).toContain('&lt;img src=x onerror=alert(1)&gt;');
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

describe('an approval whose continuation the server refused for good (a used ticket), after a reload', () => {
  const part = call('approval-responded', { approval: { id: 'ap1', approved: true } });
  const message = 'The ticket has already been used.';
  const refused = { kind: 'refused', status: 403, code: 'ticket-invalid', message, reason: 'replayed', toolCallId: 'c1' } as const;
  const settled = (extra: Record<string, unknown>): string => {
    const answer = { id: 'a1', role: 'assistant', parts: [{ type: 'step-start' }, part] } as EdgetoolUIMessage;
    const actions = { onApprove: noop, onDeny: noop, onChooseDate: noop, onCancelDate: noop };
    const props = { message: answer, toolCalls: view('approved', 'approval-responded'), questions: [], streaming: false, stopped: false, inputSchemas: new Map() };
    return renderToStaticMarkup(createElement(MessageView, { ...props, ...actions, ...extra })).replaceAll('&#x27;', "'");
  };

  it('the card says why and offers Ask again, not the Retry that met the same 403', () => {
    const html = settled({ refused, onAskAgain: noop, onSendAgain: undefined });
    expect(html).toContain('data-testid="tool-refused" data-decision="approval" data-reason="replayed"');
    expect(html).toContain('Your approval was refused: its ticket had already been used');
    expect(html).toContain('data-testid="ask-again"');
    expect(html).not.toContain('data-testid="send-again"');
    expect(html).not.toContain('tool-unsent');
  });

  it('its status pill says "refused", not "approved" beside the note: nothing ran', () => {
    const pill = (html: string) => html.match(/<span class="status-pill status-(\w+)" data-testid="tool-state"[^>]*>(?:<span[^>]*><\/span>)?([^<]*)</)?.slice(1);
    expect(pill(settled({ refused, onAskAgain: noop }))).toEqual(['bad', 'refused']);
    // Without the refusal (its continuation got no answer, Retry sends it) the approval stands.
    expect(pill(settled({ onSendAgain: noop }))).toEqual(['busy', 'approved']);
  });

  it('without Ask again while something else waits, and nothing said without the refusal (Retry then)', () => {
    expect(settled({ refused })).not.toContain('data-testid="ask-again"');
    const unsent = settled({ onSendAgain: noop });
    expect(unsent).not.toContain('tool-refused');
    expect(unsent).toContain('data-testid="send-again"');
  });
});

describe("a part that repeats a call's id (a hostile or buggy server)", () => {
  const done = call('output-available', { output: { status: 'shipped' } });
  const again = call('input-available', { input: { order_id: 'A-2' } });
  const render = (message: EdgetoolUIMessage, toolCalls: ReadonlyMap<string, ToolCallView>): string => {
    const actions = { onApprove: noop, onDeny: noop, onChooseDate: noop, onCancelDate: noop };
    const props = { message, toolCalls, questions: [], streaming: false, stopped: false, inputSchemas: new Map(), ...actions };
    return renderToStaticMarkup(createElement(MessageView, props)).replaceAll('&#x27;', "'");
  };

  it("shows as not run, in place of a second card of the call it repeats, in the same answer or a later one", () => {
    const parts = [{ type: 'step-start' }, done, { type: 'step-start' }, again];
    const same = render({ id: 'a1', role: 'assistant', parts } as EdgetoolUIMessage, view('done', 'output-available'));
    expect(same.match(/data-testid="tool-card"/g)).toHaveLength(1);
    expect(same).toContain('data-testid="tool-card-repeated" data-tool-name="query_order" data-tool-call-id="c1"');
    expect(same).toContain('Not run: the server sent another call with the id of the call above (c1), and this page runs one call per id.');
    expect(same.indexOf('tool-card-repeated')).toBeGreaterThan(same.indexOf('data-testid="tool-card"'));
    // The call's view names the answer of its first part (a0): in a later answer the part is a repeat.
    const later = render({ id: 'a2', role: 'assistant', parts: [{ type: 'step-start' }, again] } as EdgetoolUIMessage, view('done', 'output-available'));
    expect(later).toContain('data-testid="tool-card-repeated"');
    expect(later).not.toContain('data-testid="tool-card"');
  });
});
