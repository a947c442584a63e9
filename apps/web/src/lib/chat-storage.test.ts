import type { EdgetoolUIMessage } from '@edgetool/ai';
import { type BrowserState, EMPTY_BROWSER_STATE } from '@edgetool/react';
import { describe, expect, it } from 'vitest';
import {
  CHAT_KEY_PREFIX,
  type ChatStorage,
  cutShort,
  LEGACY_CHAT_KEY,
  MAX_SAVED_CHATS,
  MAX_STORED_CHARS,
  openChatStore,
  parseLegacyChat,
  parseSavedChat,
  type SavedChat,
  TAB_SLOT_KEY,
  type TabStorage,
} from './chat-storage.ts';

/** A `Storage` over a Map; `quota` makes `setItem` throw once all values together pass that many characters, as browsers do. */
function memoryStorage(quota = Number.POSITIVE_INFINITY): ChatStorage & TabStorage & { readonly items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      const used = [...items].reduce((n, [k, v]) => n + (k === key ? 0 : v.length), 0);
      if (used + value.length > quota) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      items.set(key, value);
    },
    removeItem: (key) => {
      items.delete(key);
    },
    key: (index) => [...items.keys()][index] ?? null,
    get length() {
      return items.size;
    },
  };
}

const messages: EdgetoolUIMessage[] = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Change the delivery date of order A-1001 to 2027-01-20' }] },
  {
    id: 'a1',
    role: 'assistant',
    metadata: { model: { provider: 'edgetool.offline', modelId: 'edgetool-offline', offline: true }, mode: 'internal' },
    parts: [
      { type: 'step-start' },
      {
        type: 'tool-update_delivery_date',
        toolCallId: 'call_1',
        state: 'approval-requested',
        input: { order_id: 'A-1001', new_date: '2027-01-20' },
        approval: { id: 'approval_1' },
      },
      {
        type: 'data-edgetool-ticket',
        id: 'call_1',
        data: { toolCallId: 'call_1', toolName: 'update_delivery_date', purpose: 'approval', ticket: 'et1.k.x.y', runsOn: 'server' },
      },
    ],
  } as EdgetoolUIMessage,
];
const browser: BrowserState = {
  stopped: ['a1'],
  expired: [],
  traces: { call_1: [{ side: 'client', outcome: 'approval-required', errorCode: undefined, durationMs: 1, spans: [] }] },
  progress: { call_1: { message: 'Checked 3 of 9', completed: 3, total: 9 } },
};
const chat: SavedChat = { id: '1b4e28ba-2fa1-11d2-883f-0016d3cca427', mode: 'manual', messages, browser };
const more = (text: string): SavedChat => ({ ...chat, messages: [...messages, { id: `u-${text.length}`, role: 'user', parts: [{ type: 'text', text }] }] });

/** A browser: one localStorage, and a sessionStorage per tab; slots are numbered so tests can name them. */
function browserWithTabs(quota?: number) {
  const local = memoryStorage(quota);
  let slots = 0;
  let clock = 1_000;
  const tab = (session = memoryStorage()) => ({ session, store: openChatStore({ local, session, newSlot: () => `s${++slots}`, now: () => ++clock }) });
  return { local, tab };
}

describe('one tab: saving and loading', () => {
  it('a reload (same sessionStorage) brings back the id, the mode, the messages with their tickets, and the browser state', () => {
    const { local, tab } = browserWithTabs();
    const first = tab();
    expect(first.store.save(chat)).toBe('saved');
    expect(first.session.getItem(TAB_SLOT_KEY)).toBe('s1');
    const reloaded = tab(first.session);
    expect(reloaded.store.slot()).toBe('s1');
    expect(reloaded.store.load()).toEqual({ ...chat, slot: 's1', rev: 1, savedAt: expect.any(Number) });
    expect(JSON.parse(local.items.get(`${CHAT_KEY_PREFIX}s1`) ?? '')).toMatchObject({ v: 2, id: chat.id, mode: 'manual', rev: 1 });
  });

  it('a failed last request comes back with the conversation (the answer it ended, its error), and a save without one drops it', () => {
    const { tab } = browserWithTabs();
    const first = tab();
    const failed = { messageId: 'a1', error: { kind: 'stream', status: undefined, code: 'stream-error', message: 'The model provider failed.' } } as const;
    first.store.save({ ...chat, failed });
    const reloaded = tab(first.session).store;
    expect(reloaded.load()?.failed).toEqual(failed);
    reloaded.save(chat);
    expect(tab(first.session).store.load()?.failed).toBeUndefined();
  });

  it('a conversation without messages (a new chat) clears this tab’s copy, and so does clear()', () => {
    const { local, tab } = browserWithTabs();
    const { store } = tab();
    store.save(chat);
    expect(store.save({ ...chat, messages: [] })).toBe('cleared');
    expect(local.items.size).toBe(0);
    store.save(chat);
    expect(store.clear()).toBe(true);
    expect(store.load()).toBeUndefined();
  });

  it('saving what it already saved or loaded writes nothing; a change adds a revision', () => {
    const { local, tab } = browserWithTabs();
    const first = tab();
    first.store.save(chat);
    const before = local.items.get(`${CHAT_KEY_PREFIX}s1`);
    first.store.save(chat);
    expect(local.items.get(`${CHAT_KEY_PREFIX}s1`)).toBe(before);
    const reloaded = tab(first.session).store;
    reloaded.load();
    reloaded.save(chat);
    expect(local.items.get(`${CHAT_KEY_PREFIX}s1`)).toBe(before);
    reloaded.save(more('and A-1002?'));
    expect(reloaded.load()?.rev).toBe(2);
  });

  it('a conversation too large with its traces and progress is saved without them, keeping the stopped and expired marks', () => {
    const { tab } = browserWithTabs();
    const { store } = tab();
    const heavy: BrowserState = { ...browser, expired: ['call_1'], progress: { call_1: { message: 'x'.repeat(MAX_STORED_CHARS) } } };
    expect(store.save({ ...chat, browser: heavy })).toBe('saved');
    expect(store.load()?.browser).toEqual({ stopped: ['a1'], expired: ['call_1'], traces: {}, progress: {} });
  });

  it('a conversation saved at the size limit is one a reload reads back (its revision and save time count too)', () => {
    const { tab } = browserWithTabs();
    const first = tab();
    const size = (saved: SavedChat) => JSON.stringify({ v: 2, id: saved.id, mode: saved.mode, messages: saved.messages, browser: saved.browser }).length;
    // A conversation whose JSON (without revision and save time) has `total` characters.
    const ofSize = (total: number) => {
      const guess = more('x'.repeat(total - size(more(''))));
      return more('x'.repeat(total - size(more('')) + total - size(guess)));
    };
    for (const total of [MAX_STORED_CHARS, MAX_STORED_CHARS - 20, MAX_STORED_CHARS - 40]) {
      const large = ofSize(total);
      expect(size(large)).toBe(total);
      if (first.store.save(large) === 'saved') expect(tab(first.session).store.load()?.messages).toEqual(large.messages);
    }
    expect(first.store.save(ofSize(MAX_STORED_CHARS - 100))).toBe('saved');
  });

  it('a conversation that cannot be saved whole leaves nothing of it, not an older copy', () => {
    const { tab } = browserWithTabs(6_000);
    const { store } = tab();
    expect(store.save(chat)).toBe('saved');
    expect(store.save(more('x'.repeat(6_000)))).toBe('failed');
    expect(store.load()).toBeUndefined();
    store.save(chat);
    expect(store.save(more('x'.repeat(MAX_STORED_CHARS)))).toBe('too-large');
    expect(store.load()).toBeUndefined();
  });

  it('a conversation JSON cannot write (arguments a server sent 10,000 lists deep) is not kept, and the save does not throw', () => {
    const { tab } = browserWithTabs();
    const { store } = tab();
    expect(store.save(chat)).toBe('saved');
    let deep: unknown = 'A-1001';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const call = { type: 'tool-query_order', toolCallId: 'c9', state: 'output-available', input: { order_id: deep }, output: deep };
    const deeper: SavedChat = { ...chat, messages: [...messages, { id: 'a2', role: 'assistant', parts: [call] } as EdgetoolUIMessage] };
    expect(store.save(deeper)).toBe('failed');
    expect(store.load()).toBeUndefined();
    expect(store.save(chat)).toBe('saved');
  });

  it('a storage that throws (blocked, sandboxed) or is missing reads as nothing saved and never throws', () => {
    const fail = () => {
      throw new DOMException('Access is denied', 'SecurityError');
    };
    const throwing: ChatStorage & TabStorage = { getItem: fail, setItem: fail, removeItem: fail, key: fail, length: 0 };
    const store = openChatStore({ local: throwing, session: throwing });
    expect(store.load()).toBeUndefined();
    expect(store.save(chat)).toBe('failed');
    expect(store.clear()).toBe(false);
    expect(store.latestElsewhere()).toBeUndefined();
    const none = openChatStore({ local: undefined, session: undefined });
    expect(none.load()).toBeUndefined();
    expect(none.save(chat)).toBe('failed');
  });

  it('takes the conversation version 1 kept for all tabs into this tab’s slot, once', () => {
    const { local, tab } = browserWithTabs();
    local.setItem(LEGACY_CHAT_KEY, JSON.stringify({ v: 1, id: chat.id, mode: 'internal', messages }));
    const first = tab();
    expect(first.store.load()).toMatchObject({ id: chat.id, mode: 'internal', messages, browser: EMPTY_BROWSER_STATE, slot: 's1', rev: 1 });
    expect(local.getItem(LEGACY_CHAT_KEY)).toBeNull();
    expect(tab().store.load()).toBeUndefined();
  });
});

describe('several tabs', () => {
  it('each tab keeps its own conversation: saving in one never changes another’s', () => {
    const { tab } = browserWithTabs();
    const a = tab();
    const b = tab();
    a.store.save(chat);
    b.store.save({ ...more('only in b'), id: 'chat-b' });
    a.store.save(more('only in a'));
    expect(tab(a.session).store.load()?.messages.at(-1)?.id).toBe(more('only in a').messages.at(-1)?.id);
    expect(tab(b.session).store.load()).toMatchObject({ id: 'chat-b', slot: 's2' });
  });

  it('a new tab is offered the most recently saved conversation of another tab, and continuing it moves the tab there', () => {
    const { tab } = browserWithTabs();
    const a = tab();
    a.store.save(chat);
    const b = tab();
    b.store.save({ ...more('newer'), id: 'chat-b' });
    const fresh = tab();
    expect(fresh.store.load()).toBeUndefined();
    expect(fresh.store.latestElsewhere()).toEqual({ slot: 's2', id: 'chat-b', title: 'Change the delivery date of order A-1001 to 2027-01-20', messageCount: 3, savedAt: expect.any(Number) });
    expect(fresh.store.adopt('s2')).toMatchObject({ id: 'chat-b', slot: 's2' });
    expect(fresh.session.getItem(TAB_SLOT_KEY)).toBe('s2');
    expect(fresh.store.latestElsewhere()?.slot).toBe('s1');
    expect(fresh.store.adopt('../x')).toBeUndefined();
  });

  it('two tabs on one slot (a duplicated tab): the second to save moves to a new slot; neither loses what it showed', () => {
    const { tab } = browserWithTabs();
    const original = tab();
    original.store.save(chat);
    // A duplicated tab starts with a copy of the original's sessionStorage, so with its slot.
    const duplicated = memoryStorage();
    duplicated.setItem(TAB_SLOT_KEY, 's1');
    const copy = tab(duplicated);
    expect(copy.store.load()?.id).toBe(chat.id);

    expect(copy.store.save(more('asked in the copy'))).toBe('saved');
    expect(original.store.save(more('asked in the original, a longer question'))).toBe('saved');
    expect(original.store.slot()).toBe('s2');
    expect(original.session.getItem(TAB_SLOT_KEY)).toBe('s2');
    // Both copies keep the chat id: the tickets in them stay bound to it.
    expect(tab(copy.session).store.load()).toMatchObject({ id: chat.id, slot: 's1', messages: more('asked in the copy').messages });
    expect(tab(original.session).store.load()).toMatchObject({ id: chat.id, slot: 's2', messages: more('asked in the original, a longer question').messages });
  });

  it(`keeps at most ${MAX_SAVED_CHATS} conversations, dropping the least recently saved of other tabs`, () => {
    const { local, tab } = browserWithTabs();
    const tabs = Array.from({ length: MAX_SAVED_CHATS + 2 }, () => tab());
    for (const [index, t] of tabs.entries()) t.store.save({ ...chat, id: `chat-${index}` });
    const kept = [...local.items.keys()].filter((key) => key.startsWith(CHAT_KEY_PREFIX)).sort();
    expect(kept).toHaveLength(MAX_SAVED_CHATS);
    expect(kept).not.toContain(`${CHAT_KEY_PREFIX}s1`);
    expect(kept).not.toContain(`${CHAT_KEY_PREFIX}s2`);
  });

  it('on a full storage, a save drops the oldest conversations of other tabs before giving up', () => {
    // Room for two records of this size (each is the conversation plus a few fields), not three.
    const { local, tab } = browserWithTabs(JSON.stringify(chat).length * 2.5);
    tab().store.save({ ...chat, id: 'old' });
    tab().store.save({ ...chat, id: 'newer' });
    const third = tab();
    expect(third.store.save({ ...chat, id: 'now' })).toBe('saved');
    expect([...local.items.values()].map((text) => JSON.parse(text).id).filter(Boolean)).toEqual(['newer', 'now']);
  });
});

describe('parseSavedChat ignores what it cannot trust', () => {
  const stored = (value: unknown) => JSON.stringify(value);
  const record = (overrides: Record<string, unknown> = {}) => stored({ v: 2, id: chat.id, mode: chat.mode, messages, browser, rev: 3, savedAt: 5, ...overrides });

  it('reads a well-formed record', () => {
    expect(parseSavedChat(record(), 's1')).toEqual({ ...chat, slot: 's1', rev: 3, savedAt: 5 });
  });

  it('a browser state of the wrong shape is dropped entry by entry, the conversation stays', () => {
    const saved = parseSavedChat(record({ browser: { stopped: 'a1', expired: [7, 'call_1'], traces: { call_1: 'x' }, progress: { call_1: { completed: -2 } } } }), 's1');
    expect(saved?.messages).toEqual(messages);
    expect(saved?.browser).toEqual({ stopped: [], expired: ['call_1'], traces: {}, progress: {} });
    expect(parseSavedChat(record({ browser: undefined }), 's1')?.browser).toEqual(EMPTY_BROWSER_STATE);
  });

  it.each([
    ['nothing stored', null],
    ['text that is not JSON', '{"v":2,"id":'],
    ['JSON that is not an object', '"hello"'],
    ['an array (the messages alone)', stored(messages)],
    ['no version', stored({ id: chat.id, mode: 'internal', messages, rev: 1, savedAt: 1 })],
    ['version 1 (read only as the legacy record)', record({ v: 1 })],
    ['another version', record({ v: 3 })],
    ['no revision', record({ rev: undefined })],
    ['a revision that is not a count', record({ rev: 0.5 })],
    ['no save time', record({ savedAt: 'yesterday' })],
    ['a missing id', record({ id: undefined })],
    ['an id that is not a chat id', record({ id: '../../etc' })],
    ['an unknown mode', record({ mode: 'auto' })],
    ['no messages', record({ messages: [] })],
    ['messages that are not a list', record({ messages: { u1: messages[0] } })],
    ['a message without an id', record({ messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }] })],
    ['a system message', record({ messages: [{ id: 's1', role: 'system', parts: [{ type: 'text', text: 'obey' }] }] })],
    ['parts that are not a list', record({ messages: [{ id: 'u1', role: 'user', parts: 'hello' }] })],
    ['a text part without text', record({ messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 42 }] }] })],
    ['a part without a type', record({ messages: [{ id: 'u1', role: 'user', parts: [{ text: 'hi' }] }] })],
    ['a tool part without a call id', record({ messages: [{ id: 'a1', role: 'assistant', parts: [{ type: 'tool-x', state: 'output-available' }] }] })],
    ['a tool part in an unknown state', record({ messages: [{ id: 'a1', role: 'assistant', parts: [{ type: 'tool-x', toolCallId: 'c', state: 'done' }] }] })],
    ['an approval without an id', record({ messages: [{ id: 'a1', role: 'assistant', parts: [{ type: 'tool-x', toolCallId: 'c', state: 'approval-requested', approval: {} }] }] })],
    // Each drawn as text on the card: an object there threw while it rendered, and the page went blank on every load.
    ['a denial whose reason is not text', record({ messages: [{ id: 'a1', role: 'assistant', parts: [{ type: 'tool-x', toolCallId: 'c', state: 'output-denied', approval: { id: 'p', approved: false, reason: { a: 1 } } }] }] })],
    ['an approval whose answer is not a yes or no', record({ messages: [{ id: 'a1', role: 'assistant', parts: [{ type: 'tool-x', toolCallId: 'c', state: 'approval-responded', approval: { id: 'p', approved: 'yes' } }] }] })],
    ['an error that is not text', record({ messages: [{ id: 'a1', role: 'assistant', parts: [{ type: 'tool-x', toolCallId: 'c', state: 'output-error', errorText: 7 }] }] })],
    ['metadata that is not an object', record({ messages: [{ id: 'u1', role: 'user', metadata: 'x', parts: [] }] })],
    ['more than the size limit', record({ padding: 'x'.repeat(MAX_STORED_CHARS) })],
  ])('%s', (_label, text) => {
    expect(parseSavedChat(text, 's1')).toBeUndefined();
  });

  it('a failed request of the wrong shape is dropped, the conversation stays', () => {
    const error = { kind: 'server', status: 502, code: 'http-502', message: 'Bad gateway' };
    expect(parseSavedChat(record({ failed: { messageId: 'a1', error } }), 's1')?.failed).toEqual({ messageId: 'a1', error });
    // A refused ticket keeps why and which call: the card says so after a reload instead of offering Retry.
    const refused = { kind: 'refused', status: 403, code: 'ticket-invalid', message: 'The ticket has already been used.', reason: 'replayed', toolCallId: 'c1' };
    expect(parseSavedChat(record({ failed: { messageId: 'a1', error: refused } }), 's1')?.failed).toEqual({ messageId: 'a1', error: refused });
    for (const failed of [
      'a1',
      { error },
      { messageId: '', error },
      { messageId: 'a1' },
      { messageId: 'a1', error: { ...error, kind: 'teapot' } },
      { messageId: 'a1', error: { ...error, status: '502' } },
      { messageId: 'a1', error: { ...error, status: 42 } },
      { messageId: 'a1', error: { ...error, code: undefined } },
      { messageId: 'a1', error: { ...error, message: 7 } },
      { messageId: 'a1', error: { ...error, reason: { toString: 'replayed' } } },
      { messageId: 'a1', error: { ...error, toolCallId: 7 } },
    ]) {
      const saved = parseSavedChat(record({ failed }), 's1');
      expect(saved?.messages).toEqual(messages);
      expect(saved?.failed).toBeUndefined();
    }
  });

  it('one bad message drops the whole conversation, not just that message', () => {
    expect(parseSavedChat(record({ messages: [...messages, { id: 'u2', role: 'user', parts: [{ type: 'text' }] }] }), 's1')).toBeUndefined();
  });

  it('parseLegacyChat reads only a version 1 record, checked the same way', () => {
    expect(parseLegacyChat(stored({ v: 1, id: chat.id, mode: 'internal', messages }))).toEqual({ id: chat.id, mode: 'internal', messages, browser: EMPTY_BROWSER_STATE });
    expect(parseLegacyChat(record())).toBeUndefined();
    expect(parseLegacyChat(stored({ v: 1, id: chat.id, mode: 'internal', messages: [{ id: 'm', role: 'user', parts: 'x' }] }))).toBeUndefined();
  });
});

describe('cutShort', () => {
  const fresh: SavedChat = { ...chat, browser: EMPTY_BROWSER_STATE };
  const approved = (state: 'approval-responded' | 'output-available'): SavedChat => {
    const [user, answer] = messages as [EdgetoolUIMessage, EdgetoolUIMessage];
    const parts = answer.parts.map((part) =>
      part.type === 'tool-update_delivery_date'
        ? ({ ...part, state, approval: { id: 'approval_1', approved: true }, ...(state === 'output-available' ? { output: { ok: true } } : {}) } as typeof part)
        : part,
    );
    return { ...fresh, messages: [user, { ...answer, parts }] };
  };

  it('marks an answer that streamed when the page went away as stopped', () => {
    expect(cutShort(fresh, true).browser.stopped).toEqual(['a1']);
    const text: SavedChat = { ...fresh, messages: [...messages, { id: 'a2', role: 'assistant', parts: [{ type: 'step-start' }, { type: 'text', text: 'It has' }] }] };
    expect(cutShort(text, true).browser.stopped).toEqual(['a2']);
  });

  it('leaves a settled answer, one already stopped, a question not answered yet, and decisions still to be sent', () => {
    expect(cutShort(fresh, false)).toBe(fresh);
    expect(cutShort(chat, true)).toBe(chat);
    const asked = more('hello');
    expect(cutShort(asked, true)).toBe(asked);
    // The approval's continuation had not brought its outcome: after the reload Retry sends it, which a stop would not.
    const unsent = approved('approval-responded');
    expect(cutShort(unsent, true)).toBe(unsent);
  });
});
