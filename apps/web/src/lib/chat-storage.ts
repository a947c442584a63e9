import type { EdgetoolUIMessage, ExecutionMode } from '@edgetool/ai';

/** The `localStorage` key of the saved conversation. */
export const CHAT_STORAGE_KEY = 'edgetool.chat';

/** The format version; stored data of any other version (or none) is ignored. */
export const CHAT_STORAGE_VERSION = 1;

/**
 * The longest saved conversation (characters of JSON). Above the server's 512 KB request limit, so a conversation the
 * server still takes always fits, and far below the browser's quota, so one tab cannot fill it.
 */
export const MAX_STORED_CHARS = 1_000_000;

/** What a reload brings back: the chat id (tickets are bound to it), the mode and the messages as `useChat` holds them. */
export interface SavedChat {
  readonly id: string;
  readonly mode: ExecutionMode;
  readonly messages: EdgetoolUIMessage[];
}

/** The part of `Storage` the chat store uses. */
export type ChatStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** What {@link saveChat} did: `too-large` and `failed` (quota, storage blocked) leave nothing saved, never an old copy. */
export type SaveResult = 'saved' | 'cleared' | 'too-large' | 'failed';

const CHAT_ID = /^[A-Za-z0-9_-]{1,100}$/;
const TOOL_STATES: ReadonlySet<string> = new Set([
  'input-streaming',
  'input-available',
  'approval-requested',
  'approval-responded',
  'output-available',
  'output-error',
  'output-denied',
]);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A part the UI can render without tripping: text has its text, a tool call its id and a known state. */
function isPart(value: unknown): boolean {
  if (!isObject(value) || typeof value.type !== 'string') return false;
  if (value.type === 'text' || value.type === 'reasoning') return typeof value.text === 'string';
  if (value.type.startsWith('tool-') || value.type === 'dynamic-tool') {
    if (typeof value.toolCallId !== 'string' || typeof value.state !== 'string' || !TOOL_STATES.has(value.state)) return false;
    if (value.type === 'dynamic-tool' && typeof value.toolName !== 'string') return false;
    return value.approval === undefined || (isObject(value.approval) && typeof value.approval.id === 'string');
  }
  return true;
}

function isMessage(value: unknown): value is EdgetoolUIMessage {
  return (
    isObject(value) &&
    typeof value.id === 'string' &&
    value.id !== '' &&
    (value.role === 'user' || value.role === 'assistant') &&
    (value.metadata === undefined || isObject(value.metadata)) &&
    Array.isArray(value.parts) &&
    value.parts.every(isPart)
  );
}

/**
 * Reads a saved conversation from its stored text. Anything else reads as `undefined`: nothing stored, text that is
 * not JSON, an older format, a wrong shape anywhere (one bad message drops the whole conversation: a partial history
 * would not be the one the server's tickets were signed for), or more than {@link MAX_STORED_CHARS}.
 */
export function parseSavedChat(text: string | null): SavedChat | undefined {
  if (text === null || text.length > MAX_STORED_CHARS) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || value.v !== CHAT_STORAGE_VERSION) return undefined;
  const { id, mode, messages } = value;
  if (typeof id !== 'string' || !CHAT_ID.test(id)) return undefined;
  if (mode !== 'internal' && mode !== 'manual') return undefined;
  if (!Array.isArray(messages) || messages.length === 0 || !messages.every(isMessage)) return undefined;
  return { id, mode, messages };
}

/** The saved conversation, or `undefined` (see {@link parseSavedChat}); a storage that throws reads as nothing saved. */
export function loadChat(storage: ChatStorage | undefined): SavedChat | undefined {
  if (storage === undefined) return undefined;
  try {
    return parseSavedChat(storage.getItem(CHAT_STORAGE_KEY));
  } catch {
    return undefined;
  }
}

/**
 * Saves the conversation, or clears the saved one when it has no messages (a new chat). One that cannot be saved
 * whole (too large, quota, blocked storage) clears the saved copy too: a reload then starts afresh rather than in
 * an older state of this conversation.
 */
export function saveChat(storage: ChatStorage | undefined, chat: SavedChat): SaveResult {
  if (storage === undefined) return 'failed';
  if (chat.messages.length === 0) return clearChat(storage) ? 'cleared' : 'failed';
  const text = JSON.stringify({ v: CHAT_STORAGE_VERSION, id: chat.id, mode: chat.mode, messages: chat.messages });
  if (text.length > MAX_STORED_CHARS) {
    clearChat(storage);
    return 'too-large';
  }
  try {
    storage.setItem(CHAT_STORAGE_KEY, text);
    return 'saved';
  } catch {
    clearChat(storage);
    return 'failed';
  }
}

/** Forgets the saved conversation; `false` when the storage refused. */
export function clearChat(storage: ChatStorage | undefined): boolean {
  try {
    storage?.removeItem(CHAT_STORAGE_KEY);
    return storage !== undefined;
  } catch {
    return false;
  }
}

/** `localStorage`, or `undefined` where there is none or reading it throws (blocked cookies, sandboxed frames). */
export function browserStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}
