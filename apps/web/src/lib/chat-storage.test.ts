import type { EdgetoolUIMessage } from '@edgetool/ai';
import { describe, expect, it } from 'vitest';
import { CHAT_STORAGE_KEY, type ChatStorage, clearChat, loadChat, MAX_STORED_CHARS, parseSavedChat, type SavedChat, saveChat } from './chat-storage.ts';

/** A `Storage` over a Map; `quota` makes `setItem` throw past that many characters, as browsers do. */
function memoryStorage(quota = Number.POSITIVE_INFINITY): ChatStorage & { readonly items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      if (value.length > quota) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      items.set(key, value);
    },
    removeItem: (key) => {
      items.delete(key);
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
const chat: SavedChat = { id: '1b4e28ba-2fa1-11d2-883f-0016d3cca427', mode: 'manual', messages };

const stored = (value: unknown) => JSON.stringify(value);
const record = (overrides: Record<string, unknown> = {}) => stored({ v: 1, id: chat.id, mode: chat.mode, messages, ...overrides });

describe('saveChat and loadChat', () => {
  it('round-trip the id, the mode and the messages with their tickets as they were', () => {
    const storage = memoryStorage();
    expect(saveChat(storage, chat)).toBe('saved');
    expect(loadChat(storage)).toEqual(chat);
    expect(JSON.parse(storage.items.get(CHAT_STORAGE_KEY) ?? '')).toMatchObject({ v: 1, id: chat.id, mode: 'manual' });
  });

  it('a conversation without messages (a new chat) clears the saved one, and so does clearChat', () => {
    const storage = memoryStorage();
    saveChat(storage, chat);
    expect(saveChat(storage, { ...chat, messages: [] })).toBe('cleared');
    expect(storage.items.size).toBe(0);
    saveChat(storage, chat);
    expect(clearChat(storage)).toBe(true);
    expect(loadChat(storage)).toBeUndefined();
  });

  it('a conversation that cannot be saved whole leaves nothing saved, not an older copy', () => {
    const storage = memoryStorage(5_000);
    expect(saveChat(storage, chat)).toBe('saved');
    const long: SavedChat = { ...chat, messages: [...messages, { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'x'.repeat(6_000) }] }] };
    expect(saveChat(storage, long)).toBe('failed');
    expect(loadChat(storage)).toBeUndefined();

    saveChat(storage, chat);
    const huge: SavedChat = { ...chat, messages: [...messages, { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'x'.repeat(MAX_STORED_CHARS) }] }] };
    expect(saveChat(memoryStorage(), huge)).toBe('too-large');
    expect(saveChat(storage, huge)).toBe('too-large');
    expect(loadChat(storage)).toBeUndefined();
  });

  it('a storage that throws (blocked, sandboxed) or is missing reads as nothing saved and never throws', () => {
    const throwing: ChatStorage = {
      getItem: () => {
        throw new DOMException('Access is denied', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('Access is denied', 'SecurityError');
      },
      removeItem: () => {
        throw new DOMException('Access is denied', 'SecurityError');
      },
    };
    expect(loadChat(throwing)).toBeUndefined();
    expect(saveChat(throwing, chat)).toBe('failed');
    expect(clearChat(throwing)).toBe(false);
    expect(loadChat(undefined)).toBeUndefined();
    expect(saveChat(undefined, chat)).toBe('failed');
  });
});

describe('parseSavedChat ignores what it cannot trust', () => {
  it('reads a well-formed record', () => {
    expect(parseSavedChat(record())).toEqual(chat);
  });

  it.each([
    ['nothing stored', null],
    ['text that is not JSON', '{"v":1,"id":'],
    ['JSON that is not an object', '"hello"'],
    ['an array (an older format: the messages alone)', stored(messages)],
    ['no version', stored({ id: chat.id, mode: 'internal', messages })],
    ['another version', record({ v: 2 })],
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
    ['metadata that is not an object', record({ messages: [{ id: 'u1', role: 'user', metadata: 'x', parts: [] }] })],
    ['more than the size limit', record({ padding: 'x'.repeat(MAX_STORED_CHARS) })],
  ])('%s', (_label, text) => {
    expect(parseSavedChat(text)).toBeUndefined();
  });

  it('one bad message drops the whole conversation, not just that message', () => {
    expect(parseSavedChat(record({ messages: [...messages, { id: 'u2', role: 'user', parts: [{ type: 'text' }] }] }))).toBeUndefined();
  });
});
