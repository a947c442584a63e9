// useEdgeChat({ resume: true }) against a resumable server (the chat agent's `toResponse({ resumable })`, a memory
// store, `resumeResponse` and `cancelResumable` behind one fetch): a reload mid-answer gets the answer, the browser
// call and the approval the replay brings act once, and stop() stops the turn at the server too.
import { cancelResumable, createChatAgent, createMemoryResumableStore, RESUMABLE_TURN_HEADER, resumeResponse } from '@edgetool/ai';
import { type AnyTool, createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import { MockLanguageModelV4 } from 'ai/test';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type BrowserState, parseBrowserState } from './browser-state.ts';
import { callsStep, textStep } from './test-support/chat-server.ts';
import { renderHook } from './test-support/render-hook.ts';
import { createUserInput } from './user-input.ts';
import { type UseEdgeChatOptions, useEdgeChat } from './use-edge-chat.ts';

const LOADED = { timeout: 5_000 } as const;

function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** A resumable server for one test: the chat agent over `steps`, a slow export tool held by `held`, a browser tool. */
function resumableServer(steps: ReturnType<typeof textStep>[], held: Promise<void>, extra: readonly AnyTool[] = []) {
  const seen = { exports: 0, exported: 0, aborted: 0 };
  const moves: string[] = [];
  const slowExport = defineTool({
    name: 'slow_export',
    description: 'A long export',
    input: v.object({ rows: v.number() }),
    execute: async ({ rows }, ctx) => {
      seen.exports++;
      await Promise.race([held, new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))]);
      if (ctx.signal.aborted) {
        seen.aborted++;
        throw ctx.signal.reason;
      }
      seen.exported++;
      return { exported: rows };
    },
  });
  const note = defineTool({ name: 'note_down', description: 'Notes in the browser', input: v.object({ text: v.string() }), policy: { runsOn: 'client' } });
  const move = defineTool({
    name: 'move_delivery',
    description: 'Moves a delivery',
    input: v.object({ date: v.string() }),
    policy: { effects: 'write', editable: ['date'] },
    execute: ({ date }) => {
      moves.push(date);
      return { moved: date };
    },
  });
  const erase = defineTool({ name: 'erase_all', description: 'Erases', input: v.object({}), policy: { effects: 'destructive' }, execute: () => 'erased' });
  const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'resume-test-secret-resume-test-secret!!' }] });
  const agent = createChatAgent({ model: new MockLanguageModelV4({ doStream: steps }), tools: [slowExport, note, erase, move, ...extra], tickets });
  const store = createMemoryResumableStore();
  const detached: Promise<unknown>[] = [];
  const requests: { method: string; turn: string | null }[] = [];
  const owner = 'browser-1';
  const fetch = async (url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const method = init?.method ?? 'GET';
    const headers = new Headers(init?.headers);
    const turnId = headers.get(RESUMABLE_TURN_HEADER);
    requests.push({ method, turn: turnId });
    const path = String(url);
    if (method === 'POST') {
      const body = JSON.parse(String(init?.body)) as { id: string; messages: unknown[]; mode: 'internal' };
      const turn = await agent.stream({ messages: body.messages, mode: body.mode, run: createRunContext({ conversationId: body.id }) });
      const response = turn.toResponse(turnId === null ? {} : { resumable: { store, owner, chatId: body.id, turnId, waitUntil: (p) => detached.push(p), intervalMs: 5 } });
      // As a real fetch: aborting the request cancels its body (the server sees the client go).
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      init?.signal?.addEventListener('abort', () => void reader.cancel('aborted').catch(() => {}));
      const body2 = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const read = await reader.read().catch(() => ({ done: true as const, value: undefined }));
          if (read.done) return controller.close();
          controller.enqueue(read.value);
        },
        cancel: (reason) => reader.cancel(reason),
      });
      return new Response(body2, { headers: response.headers });
    }
    const chatId = decodeURIComponent(path.split('/').at(-2) ?? '');
    if (method === 'DELETE') {
      await cancelResumable({ store, owner, chatId });
      return new Response(null, { status: 204 });
    }
    return resumeResponse({ store, owner, chatId, turnId, pollMs: 5, signal: init?.signal ?? undefined });
  };
  return { fetch: fetch as typeof globalThis.fetch, requests, seen, moves, detached, store };
}

let mounted: { unmount(): void }[] = [];
afterEach(() => {
  for (const hook of mounted) hook.unmount();
  mounted = [];
});

function mount(options: UseEdgeChatOptions, render: { readonly strict?: boolean } = {}) {
  const hook = renderHook((o: UseEdgeChatOptions) => useEdgeChat(o), options, render);
  mounted.push(hook);
  return hook;
}

const toolState = (messages: { parts: unknown[] }[], toolCallId: string) =>
  messages.flatMap((m) => m.parts as { toolCallId?: string; state?: string }[]).find((p) => p.toolCallId === toolCallId)?.state;

describe('useEdgeChat({ resume: true })', () => {
  it('a reload mid-answer gets the rest of it; the browser call the replay brings runs once', async () => {
    const held = gate();
    const server = resumableServer(
      [callsStep([['c1', 'slow_export', { rows: 3 }]]), callsStep([['c2', 'note_down', { text: 'exported' }]]), textStep('All done.')],
      held.opened,
    );
    let notes = 0;
    const noteDown = defineTool({ name: 'note_down', description: 'Notes in the browser', input: v.object({ text: v.string() }), policy: { runsOn: 'client' }, execute: () => ++notes });
    const options: UseEdgeChatOptions = { id: 'chat-r', resume: true, fetch: server.fetch, tools: [noteDown] };
    const first = mount(options);
    void first.current.sendMessage({ text: 'Export 3 rows' }).catch(() => {});
    await vi.waitFor(() => expect(toolState(first.current.messages, 'c1')).toBe('input-available'), LOADED);
    const turn = first.current.browserState.turn;
    expect(turn).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.requests).toEqual([{ method: 'POST', turn }]);
    // The page reloads: what it saved comes back (the answer it had marked stopped, as the demo's page does on pagehide).
    const saved = { messages: structuredClone(first.current.messages), browserState: parseBrowserState(JSON.parse(JSON.stringify(first.current.browserState))) };
    const cut = saved.messages.at(-1)?.id as string;
    first.unmount();
    mounted = [];
    await vi.waitFor(() => expect(server.detached).toHaveLength(1), LOADED);
    const second = mount({ ...options, messages: saved.messages, browserState: { ...saved.browserState, stopped: [cut] } });
    // (React's StrictMode mounts twice: useChat aborts the first mount's resume and asks again.)
    await vi.waitFor(() => expect(server.requests.map((r) => r.method)).toContain('GET'), LOADED);
    expect(server.requests.filter((r) => r.method === 'GET').every((r) => r.turn === turn)).toBe(true);
    held.open();
    // The replay ends on the browser call: it runs here, once, and its continuation brings the answer.
    await vi.waitFor(() => expect(second.current.messages.at(-1)?.parts.some((p) => p.type === 'text' && p.text === 'All done.')).toBe(true), LOADED);
    await Promise.all(server.detached);
    expect(notes).toBe(1);
    expect(server.seen).toEqual({ exports: 1, exported: 1, aborted: 0 });
    const posts = server.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    // The continuation is not resumable (no turn id); the answer is not stopped; one assistant message.
    expect(posts[1]?.turn).toBeNull();
    expect(second.current.browserState.stopped).toEqual([]);
    expect(second.current.browserState.turn).toBeUndefined();
    expect(second.current.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('an approval the replay brings shows once; a page with no turn left asks nothing', async () => {
    const held = gate();
    const server = resumableServer([callsStep([['c1', 'slow_export', { rows: 1 }], ['c2', 'erase_all', {}]])], held.opened);
    const options: UseEdgeChatOptions = { id: 'chat-a', resume: true, fetch: server.fetch };
    const first = mount(options);
    void first.current.sendMessage({ text: 'Export, then erase' }).catch(() => {});
    await vi.waitFor(() => expect(toolState(first.current.messages, 'c1')).toBe('input-available'), LOADED);
    const saved = { messages: structuredClone(first.current.messages), browserState: first.current.browserState };
    first.unmount();
    mounted = [];
    await vi.waitFor(() => expect(server.detached).toHaveLength(1), LOADED);
    const second = mount({ ...options, messages: saved.messages, browserState: saved.browserState });
    await vi.waitFor(() => expect(server.requests.map((r) => r.method)).toContain('GET'), LOADED);
    held.open();
    await vi.waitFor(() => expect(second.current.pendingApprovals.map((a) => a.toolCallId)).toEqual(['c2']), LOADED);
    await vi.waitFor(() => expect(second.current.status).toBe('ready'), LOADED);
    expect(second.current.pendingApprovals).toHaveLength(1);
    expect(second.current.messages.filter((m) => m.role === 'assistant')).toHaveLength(1);
    // The answer ended: a third page load asks the server nothing.
    const before = server.requests.length;
    expect(second.current.browserState.turn).toBeUndefined();
    const third = mount({ ...options, messages: structuredClone(second.current.messages), browserState: second.current.browserState });
    await vi.waitFor(() => expect(third.current.pendingApprovals).toHaveLength(1), LOADED);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests).toHaveLength(before);
    expect(third.current.pendingApprovals).toHaveLength(1);
  });

  it('stop() tells the server to stop: the detached turn aborts and nothing is resumed', async () => {
    const held = gate();
    const server = resumableServer([callsStep([['c1', 'slow_export', { rows: 3 }]]), textStep('never')], held.opened);
    const hook = mount({ id: 'chat-s', resume: true, fetch: server.fetch });
    void hook.current.sendMessage({ text: 'Export 3 rows' }).catch(() => {});
    await vi.waitFor(() => expect(toolState(hook.current.messages, 'c1')).toBe('input-available'), LOADED);
    const turn = hook.current.browserState.turn;
    await hook.current.stop();
    await vi.waitFor(() => expect(server.detached).toHaveLength(1), LOADED);
    await Promise.all(server.detached);
    expect(server.requests).toEqual([
      { method: 'POST', turn },
      { method: 'DELETE', turn },
    ]);
    expect(server.seen).toMatchObject({ exports: 1, aborted: 1, exported: 0 });
    await vi.waitFor(() => expect(hook.current.browserState.turn).toBeUndefined(), LOADED);
    expect((await resumeResponse({ store: server.store, owner: 'browser-1', chatId: 'chat-s' })).status).toBe(204);
  });

  it('a stop() the page still holds once the hook unmounted stops nothing: the turn goes on, and the reload resumes it', async () => {
    const held = gate();
    const server = resumableServer([callsStep([['c1', 'slow_export', { rows: 2 }]]), textStep('Exported.')], held.opened);
    const options: UseEdgeChatOptions = { id: 'chat-u', resume: true, fetch: server.fetch };
    const first = mount(options);
    void first.current.sendMessage({ text: 'Export 2 rows' }).catch(() => {});
    await vi.waitFor(() => expect(toolState(first.current.messages, 'c1')).toBe('input-available'), LOADED);
    const saved = { messages: structuredClone(first.current.messages), browserState: first.current.browserState };
    const stale = first.current;
    first.unmount();
    mounted = [];
    await stale.stop();
    await vi.waitFor(() => expect(server.detached).toHaveLength(1), LOADED);
    expect(server.requests.map((r) => r.method)).toEqual(['POST']);
    const second = mount({ ...options, messages: saved.messages, browserState: saved.browserState });
    await vi.waitFor(() => expect(server.requests.map((r) => r.method)).toContain('GET'), LOADED);
    held.open();
    await vi.waitFor(() => expect(second.current.messages.at(-1)?.parts.some((p) => p.type === 'text' && p.text === 'Exported.')).toBe(true), LOADED);
    await Promise.all(server.detached);
    expect(server.seen).toEqual({ exports: 1, exported: 1, aborted: 0 });
    expect(server.requests.map((r) => r.method)).not.toContain('DELETE');
  });

  it.each([false, true])(
    'a page loaded mid-answer with an approval open, decided at once (before the replay came): the replay keeps the decision, which goes out once (StrictMode: %s)',
    async (strict) => {
      const held = gate();
      const server = resumableServer([callsStep([['c1', 'slow_export', { rows: 1 }], ['c2', 'erase_all', {}]]), textStep('Erased.')], held.opened);
      const options: UseEdgeChatOptions = { id: `chat-strict-${strict}`, resume: true, fetch: server.fetch };
      const first = mount(options, { strict: false });
      void first.current.sendMessage({ text: 'Export, then erase' }).catch(() => {});
      await vi.waitFor(() => expect([toolState(first.current.messages, 'c1'), toolState(first.current.messages, 'c2')]).toEqual(['input-available', 'approval-requested']), LOADED);
      const turn = first.current.browserState.turn;
      const saved = { messages: structuredClone(first.current.messages), browserState: parseBrowserState(JSON.parse(JSON.stringify(first.current.browserState))) };
      first.unmount();
      mounted = [];
      await vi.waitFor(() => expect(server.detached).toHaveLength(1), LOADED);
      held.open();
      await Promise.all(server.detached);
      // The turn ended at the server meanwhile. The page shows the approval it saved, and the human decides at once: the
      // replay, which writes the answer again from its start, came after the decision (read from the chat, not from
      // the last render, which may not show it yet).
      const second = mount({ ...options, ...saved }, { strict });
      expect(second.current.pendingApprovals.map((a) => a.toolCallId)).toEqual(['c2']);
      second.current.approve('c2');
      await vi.waitFor(() => expect(second.current.messages.at(-1)?.parts.some((p) => p.type === 'text' && p.text === 'Erased.')).toBe(true), LOADED);
      expect(server.requests.filter((r) => r.method === 'POST')).toEqual([
        { method: 'POST', turn },
        { method: 'POST', turn: null },
      ]);
      // StrictMode's first mount asked too, and its request was aborted when the second mount asked again.
      const gets = server.requests.filter((r) => r.method === 'GET');
      expect(gets.length).toBe(strict ? 2 : 1);
      expect(gets.every((r) => r.turn === turn)).toBe(true);
      expect(second.current.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      expect(second.current.toolCalls.get('c1')).toMatchObject({ status: 'done', output: { exported: 1 } });
      expect(second.current.toolCalls.get('c2')).toMatchObject({ status: 'done', output: 'erased' });
      expect(server.seen).toEqual({ exports: 1, exported: 1, aborted: 0 });
      expect(second.current.browserState.turn).toBeUndefined();
    },
  );

  it('without resume: no turn id, no resume request, and stop() sends nothing more', async () => {
    const held = gate();
    held.open();
    const server = resumableServer([textStep('Hello.')], held.opened);
    const hook = mount({ id: 'chat-n', fetch: server.fetch });
    await hook.current.sendMessage({ text: 'Hi' }).catch(() => {});
    await vi.waitFor(() => expect(hook.current.status).toBe('ready'), LOADED);
    await hook.current.stop();
    expect(server.requests).toEqual([{ method: 'POST', turn: null }]);
    expect(hook.current.browserState.turn).toBeUndefined();
  });
});

type UIMessages = NonNullable<UseEdgeChatOptions['messages']>;

// Resume together with the rest of the hook: browser calls and approvals running when the page goes, chat switches,
// stop(), a replay cut off, regenerate().
describe('useEdgeChat({ resume: true }) with the rest of the hook', () => {
  const dates = createUserInput<{ question: string }, string>();
  const pickServer = defineTool({ name: 'pick_date', description: 'The user picks a date', input: v.object({ question: v.string() }), policy: { runsOn: 'client' } });
  let picks = 0;
  const pickDate = defineTool({
    ...pickServer,
    execute: ({ question }, ctx) => {
      picks++;
      return dates.ask(ctx, { question });
    },
  });
  const text = (messages: { role: string; parts: unknown[] }[]) =>
    messages.filter((m) => m.role === 'assistant').flatMap((m) => m.parts as { type: string; text?: string }[]).flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');

  /** Mounts, sends `prompt`, and reloads once `ready` holds: the second page, with what the first saved (and its stopped mark). */
  async function reloaded(
    options: UseEdgeChatOptions,
    prompt: string,
    ready: (hook: ReturnType<typeof mount>) => void,
    server: ReturnType<typeof resumableServer>,
    alter: (messages: UIMessages) => UIMessages = (messages) => messages,
    alterState: (state: BrowserState) => BrowserState = (state) => state,
  ) {
    const first = mount(options);
    void first.current.sendMessage({ text: prompt }).catch(() => {});
    await vi.waitFor(() => ready(first), LOADED);
    const saved = {
      messages: alter(structuredClone(first.current.messages)),
      browserState: alterState(parseBrowserState(JSON.parse(JSON.stringify(first.current.browserState)))),
    };
    expect(saved.browserState.turn).toBeDefined();
    const cut = saved.messages.at(-1)?.id as string;
    first.unmount();
    mounted = [];
    await vi.waitFor(() => expect(server.detached).toHaveLength(1), LOADED);
    return { saved, second: mount({ ...options, messages: saved.messages, browserState: { ...saved.browserState, stopped: [cut] } }) };
  }

  it('a reload while a date picker asks (its step still runs at the server): the replay asks once, its answer goes out once', async () => {
    picks = 0;
    const held = gate();
    const server = resumableServer([callsStep([['c1', 'slow_export', { rows: 1 }], ['c2', 'pick_date', { question: 'When?' }]]), textStep('Booked.')], held.opened, [pickServer]);
    const options: UseEdgeChatOptions = { id: 'chat-p', resume: true, fetch: server.fetch, tools: [pickDate] };
    const { second } = await reloaded(options, 'Export and book', () => expect(dates.questions().map((q) => q.id)).toEqual(['c2']), server);
    expect(picks).toBe(1);
    await vi.waitFor(() => expect(server.requests.map((r) => r.method)).toContain('GET'), LOADED);
    held.open();
    await vi.waitFor(() => expect(dates.questions().map((q) => q.id)).toEqual(['c2']), LOADED);
    await vi.waitFor(() => expect(second.current.status).toBe('ready'), LOADED);
    expect(dates.questions()).toHaveLength(1);
    dates.answer('c2', '2026-12-24');
    await vi.waitFor(() => expect(text(second.current.messages)).toBe('Booked.'), LOADED);
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
    expect(second.current.toolCalls.get('c2')).toMatchObject({ status: 'done', output: '2026-12-24' });
    // Once on each page: the first page's question went with it.
    expect(picks).toBe(2);
  });

  it('a reload after the date picker was answered (its step still runs at the server): the answer stays, nothing asks again', async () => {
    picks = 0;
    const held = gate();
    const server = resumableServer([callsStep([['c1', 'slow_export', { rows: 1 }], ['c2', 'pick_date', { question: 'When?' }]]), textStep('Booked.')], held.opened, [pickServer]);
    const options: UseEdgeChatOptions = { id: 'chat-q', resume: true, fetch: server.fetch, tools: [pickDate] };
    const answered = (hook: ReturnType<typeof mount>) => {
      if (dates.questions().length === 1) dates.answer('c2', '2026-12-24');
      expect(toolState(hook.current.messages, 'c2')).toBe('output-available');
    };
    const { second } = await reloaded(options, 'Export and book', answered, server);
    await vi.waitFor(() => expect(server.requests.map((r) => r.method)).toContain('GET'), LOADED);
    held.open();
    await vi.waitFor(() => expect(text(second.current.messages)).toBe('Booked.'), LOADED);
    expect(picks).toBe(1);
    expect(dates.questions()).toEqual([]);
    expect(second.current.toolCalls.get('c2')).toMatchObject({ status: 'done', output: '2026-12-24' });
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
  });

  it('a reload after an approval was decided (a server call of its step still runs): the decision stays, the card does not come back', async () => {
    const held = gate();
    const server = resumableServer([callsStep([['c1', 'slow_export', { rows: 1 }], ['c2', 'erase_all', {}]]), textStep('Erased.')], held.opened);
    const options: UseEdgeChatOptions = { id: 'chat-d', resume: true, fetch: server.fetch };
    const decided = (hook: ReturnType<typeof mount>) => {
      if (hook.current.pendingApprovals.length === 1) hook.current.approve('c2');
      expect(toolState(hook.current.messages, 'c2')).toBe('approval-responded');
    };
    const { second } = await reloaded(options, 'Export, then erase', decided, server);
    await vi.waitFor(() => expect(server.requests.map((r) => r.method)).toContain('GET'), LOADED);
    held.open();
    await vi.waitFor(() => expect(text(second.current.messages)).toBe('Erased.'), LOADED);
    expect(second.current.pendingApprovals).toEqual([]);
    expect(second.current.toolCalls.get('c2')).toMatchObject({ status: 'done', output: 'erased' });
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
  });

  it.each(['kept', 'lost', 'lost and not noted', 'none'] as const)(
    'a reload after an approval of a call with editable arguments (a server call of its step still runs), the edit part %s: the call runs once, never unedited',
    async (edit) => {
      const held = gate();
      const server = resumableServer([callsStep([['c1', 'slow_export', { rows: 1 }], ['c2', 'move_delivery', { date: '2026-12-24' }]]), textStep('Moved.')], held.opened);
      const options: UseEdgeChatOptions = { id: `chat-e-${edit}`, resume: true, fetch: server.fetch };
      const input = edit === 'none' ? undefined : { date: '2026-12-27' };
      const decided = (hook: ReturnType<typeof mount>) => {
        if (hook.current.pendingApprovals.length === 1) hook.current.approve('c2', input === undefined ? undefined : { input });
        expect(toolState(hook.current.messages, 'c2')).toBe('approval-responded');
        expect(hook.current.messages.at(-1)?.parts.some((p) => p.type === 'data-edgetool-edit')).toBe(input !== undefined);
        expect(hook.current.browserState.approvals).toEqual({ c2: input === undefined ? {} : { input } });
      };
      // Lost: a chunk that came after the approval rewrote the message from the response's own copy, without the edit.
      const alter = (messages: UIMessages) => (edit === 'kept' ? messages : messages.map((m) => ({ ...m, parts: m.parts.filter((p) => p.type !== 'data-edgetool-edit') })));
      // Not noted: an app that saved the browser state of an older version (no approvals).
      const alterState = (state: BrowserState) => (edit === 'lost and not noted' ? { ...state, approvals: {} } : state);
      const { second } = await reloaded(options, 'Export, then move', decided, server, alter, alterState);
      held.open();
      if (edit === 'lost and not noted') {
        // The human is asked again, rather than the call approved as the model made it.
        await vi.waitFor(() => expect(second.current.pendingApprovals.map((a) => a.toolCallId)).toEqual(['c2']), LOADED);
        await vi.waitFor(() => expect(second.current.status).toBe('ready'), LOADED);
        second.current.approve('c2', { input: { date: '2026-12-27' } });
      }
      await vi.waitFor(() => expect(text(second.current.messages)).toBe('Moved.'), LOADED);
      // Kept through the reload: the approval (with its edit) went out once, the call ran once.
      expect(server.moves).toEqual([input === undefined ? '2026-12-24' : '2026-12-27']);
      expect(second.current.toolCalls.get('c2')?.edits === undefined).toBe(input === undefined);
      expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
      expect(second.current.browserState.approvals).toBeUndefined();
    },
  );

  it('a load after the turn finished asks nothing and changes nothing: messages, state and status stay as saved', async () => {
    const held = gate();
    held.open();
    const server = resumableServer([textStep('Hello.')], held.opened);
    const options: UseEdgeChatOptions = { id: 'chat-f', resume: true, fetch: server.fetch };
    const first = mount(options);
    await first.current.sendMessage({ text: 'Hi' }).catch(() => {});
    await vi.waitFor(() => expect(text(first.current.messages)).toBe('Hello.'), LOADED);
    await vi.waitFor(() => expect(first.current.browserState.turn).toBeUndefined(), LOADED);
    const saved = { messages: structuredClone(first.current.messages), browserState: parseBrowserState(JSON.parse(JSON.stringify(first.current.browserState))) };
    first.unmount();
    mounted = [];
    const second = mount({ ...options, ...saved });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests.map((r) => r.method)).toEqual(['POST']);
    expect(second.current.status).toBe('ready');
    expect(second.current.messages).toEqual(saved.messages);
    expect(second.current.browserState).toEqual(saved.browserState);
  });

  /** A first page that sends `prompt` and goes away mid-answer (once `c1` shows): what it saved, with its stopped mark. */
  async function leftMidAnswer(options: UseEdgeChatOptions, prompt: string, server: ReturnType<typeof resumableServer>) {
    const first = mount(options);
    void first.current.sendMessage({ text: prompt }).catch(() => {});
    await vi.waitFor(() => expect(toolState(first.current.messages, 'c1')).toBe('input-available'), LOADED);
    const saved = { messages: structuredClone(first.current.messages), browserState: parseBrowserState(JSON.parse(JSON.stringify(first.current.browserState))) };
    first.unmount();
    mounted = [];
    await vi.waitFor(() => expect(server.detached).toHaveLength(1), LOADED);
    const cut = saved.messages.at(-1)?.id as string;
    return { messages: saved.messages, browserState: { ...saved.browserState, stopped: [cut] } };
  }

  it('an answer past maxResponseParts stops its turn at the server, as stop() does: the DELETE goes, nothing is exported', async () => {
    const held = gate();
    const server = resumableServer([callsStep([['c1', 'slow_export', { rows: 1 }]]), textStep('never')], held.opened);
    // The step's mark is the one part it takes: the call's part is past it.
    const hook = mount({ id: 'chat-bound', resume: true, fetch: server.fetch, maxResponseParts: 1 });
    await hook.current.sendMessage({ text: 'Export' });
    await vi.waitFor(() => expect(hook.current.chatError).toMatchObject({ kind: 'stream', code: 'response-too-large' }), LOADED);
    const turn = server.requests[0]?.turn;
    expect(turn).toEqual(expect.any(String));
    await vi.waitFor(() => expect(server.requests.filter((r) => r.method === 'DELETE')).toEqual([{ method: 'DELETE', turn }]), LOADED);
    held.open();
    await Promise.all(server.detached);
    expect(server.seen.exported).toBe(0);
    expect(hook.current.browserState.turn).toBeUndefined();
    expect(hook.current.browserState.stopped).toEqual([hook.current.messages.at(-1)?.id]);
    expect(hook.current.messages.at(-1)?.role).toBe('assistant');
  });

  it('stop() during the replay stops the turn at the server, keeps the answer stopped, and the next load asks nothing', async () => {
    const held = gate();
    const server = resumableServer([callsStep([['c1', 'slow_export', { rows: 1 }]]), textStep('never')], held.opened);
    const options: UseEdgeChatOptions = { id: 'chat-sr', resume: true, fetch: server.fetch };
    const saved = await leftMidAnswer(options, 'Export', server);
    const turn = saved.browserState.turn;
    const second = mount({ ...options, ...saved });
    await vi.waitFor(() => expect(second.current.status).toBe('streaming'), LOADED);
    await second.current.stop();
    await Promise.all(server.detached);
    expect(server.seen).toMatchObject({ exports: 1, aborted: 1, exported: 0 });
    expect(server.requests.filter((r) => r.method === 'DELETE')).toEqual([{ method: 'DELETE', turn }]);
    await vi.waitFor(() => expect(second.current.status).toBe('ready'), LOADED);
    expect(second.current.browserState.turn).toBeUndefined();
    expect(second.current.browserState.stopped).toEqual([saved.messages.at(-1)?.id]);
    const before = server.requests.length;
    const third = mount({ ...options, messages: structuredClone(second.current.messages), browserState: second.current.browserState });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests).toHaveLength(before);
    expect(third.current.browserState.stopped).toEqual([saved.messages.at(-1)?.id]);
  });

  it.each(['dropped', 'closed'] as const)('a replay cut off midway (%s) is an unreachable error; the turn stays, and the next load resumes it to the end', async (how) => {
    const held = gate();
    const server = resumableServer([callsStep([['c1', 'slow_export', { rows: 1 }]]), textStep('Exported.')], held.opened);
    let cutting = true;
    // Each GET's body breaks off (a dropped connection) after what the store had when it was asked, until the last load.
    const fetch: typeof globalThis.fetch = async (url, init) => {
      const response = await server.fetch(url, init);
      if ((init?.method ?? 'GET') !== 'GET' || !cutting || response.status !== 200) return response;
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const first = await reader.read();
      await reader.cancel();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          if (!first.done) controller.enqueue(first.value);
        },
        pull(controller) {
          // A dropped connection fails the body; a proxy that ends it early closes it before the `finish`.
          if (how === 'dropped') controller.error(new TypeError('network error'));
          else controller.close();
        },
      });
      return new Response(body, { headers: response.headers });
    };
    const options: UseEdgeChatOptions = { id: 'chat-cut', resume: true, fetch };
    const saved = await leftMidAnswer({ ...options, fetch: server.fetch }, 'Export', server);
    const second = mount({ ...options, ...saved });
    await vi.waitFor(() => expect(second.current.chatError?.kind).toBe('unreachable'), LOADED);
    expect(second.current.browserState.turn).toBe(saved.browserState.turn);
    expect(toolState(second.current.messages, 'c1')).toBe('input-available');
    held.open();
    await Promise.all(server.detached);
    cutting = false;
    second.unmount();
    mounted = [];
    const third = mount({ ...options, messages: structuredClone(second.current.messages), browserState: second.current.browserState });
    await vi.waitFor(() => expect(text(third.current.messages)).toBe('Exported.'), LOADED);
    expect(third.current.browserState.turn).toBeUndefined();
    expect(third.current.browserState.stopped).toEqual([]);
    expect(third.current.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('a switch to another chat during the replay leaves it there: the other chat gets nothing, and coming back resumes it', async () => {
    const held = gate();
    const server = resumableServer([callsStep([['c1', 'slow_export', { rows: 1 }]]), textStep('Exported.')], held.opened);
    const options: UseEdgeChatOptions = { id: 'chat-sw', resume: true, fetch: server.fetch };
    const saved = await leftMidAnswer(options, 'Export', server);
    const hook = mount({ ...options, ...saved });
    await vi.waitFor(() => expect(hook.current.status).toBe('streaming'), LOADED);
    hook.rerender({ ...options, id: 'chat-other' });
    held.open();
    await Promise.all(server.detached);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hook.current.messages).toEqual([]);
    expect(hook.current.browserState.turn).toBeUndefined();
    expect(server.requests.map((r) => r.method)).not.toContain('DELETE');
    hook.rerender({ ...options, ...saved });
    await vi.waitFor(() => expect(text(hook.current.messages)).toBe('Exported.'), LOADED);
    expect(hook.current.browserState).toMatchObject({ stopped: [] });
    expect(hook.current.browserState.turn).toBeUndefined();
  });

  it('regenerate() right after a resume sends a new turn of its own; the replayed answer goes', async () => {
    const held = gate();
    const server = resumableServer([callsStep([['c1', 'slow_export', { rows: 1 }]]), textStep('Exported.'), textStep('Again.')], held.opened);
    const options: UseEdgeChatOptions = { id: 'chat-rg', resume: true, fetch: server.fetch };
    const saved = await leftMidAnswer(options, 'Export', server);
    const hook = mount({ ...options, ...saved });
    held.open();
    await vi.waitFor(() => expect(text(hook.current.messages)).toBe('Exported.'), LOADED);
    await hook.current.regenerate();
    await vi.waitFor(() => expect(text(hook.current.messages)).toBe('Again.'), LOADED);
    const posts = server.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(posts[1]?.turn).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts[1]?.turn).not.toBe(saved.browserState.turn);
    expect(hook.current.browserState.turn).toBeUndefined();
    expect(hook.current.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});
