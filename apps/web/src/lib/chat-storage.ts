import type { EdgetoolUIMessage, ExecutionMode } from '@edgetool/ai';
import { type BrowserState, type ChatErrorInfo, EMPTY_BROWSER_STATE, parseBrowserState, shouldContinue } from '@edgetool/react';

/**
 * How the demo keeps conversations (see docs/demo.md, "The chat UI"): every tab has its own conversation, in a slot of
 * `localStorage` (`edgetool.chat:<slot>`) whose name the tab keeps in `sessionStorage`, so a reload brings back that
 * tab's conversation and two tabs never write over each other. A tab only writes its own slot, and only over the copy
 * it last read or wrote: when another tab changed that slot meanwhile (a duplicated tab, or a conversation continued in
 * two tabs), it moves to a new slot instead. A new tab starts a new chat and offers the most recent saved one.
 */
export const CHAT_KEY_PREFIX = 'edgetool.chat:';

/** The `sessionStorage` key of this tab's slot. */
export const TAB_SLOT_KEY = 'edgetool.chat.tab';

/** Where version 1 kept the one conversation of all tabs; read once into the loading tab's slot, then removed. */
export const LEGACY_CHAT_KEY = 'edgetool.chat';

/** The format version; stored data of any other version (or none) is ignored. */
export const CHAT_STORAGE_VERSION = 2;

/**
 * The longest saved conversation (characters of JSON). Above the server's 512 KB request limit, so a conversation the
 * server still takes always fits, and far below the browser's quota.
 */
export const MAX_STORED_CHARS = 1_000_000;

/** The most conversations kept; saving one more drops the least recently saved of the other tabs. */
export const MAX_SAVED_CHATS = 8;

/**
 * The last request of a conversation, when it failed: the message that was last when it did, and the error (its kind,
 * status, code and words). Kept with the conversation, since the messages alone cannot tell an answer an error ended at
 * its calls' results from one the server's step limit or the user's stop ended there (see `goesOnAfterFailure`).
 */
export interface FailedRequest {
  readonly messageId: string;
  /** With the refused call and why, when the server named them (a refused ticket: `replayed`, `conflict`, …). */
  readonly error: Pick<ChatErrorInfo, 'kind' | 'status' | 'code' | 'message' | 'reason' | 'toolCallId'>;
}

/**
 * What a reload brings back: the chat id (tickets are bound to it), the mode, the messages as `useChat` holds them, what
 * the browser knew beside them (`useEdgeChat`'s `browserState`: stopped answers, expired calls, traces, progress), and
 * the last request when it failed (`failed`).
 */
export interface SavedChat {
  readonly id: string;
  readonly mode: ExecutionMode;
  readonly messages: EdgetoolUIMessage[];
  readonly browser: BrowserState;
  readonly failed?: FailedRequest | undefined;
}

/**
 * What a page that goes away while an answer streams saves: that answer marked stopped, since the reload cut it short
 * (its request ends with the page). Without the mark it came back looking finished. Not an answer whose continuation
 * carries the user's decisions (`shouldContinue`): those are sent again after the reload, which a stop would prevent.
 */
export function cutShort(chat: SavedChat, streaming: boolean): SavedChat {
  const last = chat.messages.at(-1);
  if (!streaming || last?.role !== 'assistant' || chat.browser.stopped.includes(last.id) || shouldContinue({ messages: chat.messages })) return chat;
  return { ...chat, browser: { ...chat.browser, stopped: [...chat.browser.stopped, last.id] } };
}

/** A saved conversation as stored: its slot, its revision (each save adds one) and when it was saved. */
export interface StoredChat extends SavedChat {
  readonly slot: string;
  readonly rev: number;
  readonly savedAt: number;
}

/** A saved conversation as a new tab offers it. */
export interface ChatSummary {
  readonly slot: string;
  readonly id: string;
  /** The first user message, shortened. */
  readonly title: string;
  readonly messageCount: number;
  readonly savedAt: number;
}

/** The part of `Storage` the chat store uses (`key` and `length` list the slots). */
export type ChatStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

/** The part of `sessionStorage` the chat store uses. */
export type TabStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** What {@link ChatStore.save} did: `too-large` and `failed` (quota, storage blocked) leave nothing saved, never an old copy. */
export type SaveResult = 'saved' | 'cleared' | 'too-large' | 'failed';

const CHAT_ID = /^[A-Za-z0-9_-]{1,100}$/;
const SLOT = /^[A-Za-z0-9_-]{1,100}$/;
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
const optional = (value: unknown, type: 'string' | 'boolean'): boolean => value === undefined || typeof value === type;

/** A part the UI can render without tripping: text has its text, a tool call its id and a known state. */
function isPart(value: unknown): boolean {
  if (!isObject(value) || typeof value.type !== 'string') return false;
  if (value.type === 'text' || value.type === 'reasoning') return typeof value.text === 'string';
  if (value.type.startsWith('tool-') || value.type === 'dynamic-tool') {
    if (typeof value.toolCallId !== 'string' || typeof value.state !== 'string' || !TOOL_STATES.has(value.state)) return false;
    if (value.type === 'dynamic-tool' && typeof value.toolName !== 'string') return false;
    // Drawn as text, and read as text (`errorText.startsWith`): anything else threw while the card rendered.
    if (!optional(value.errorText, 'string')) return false;
    if (value.approval === undefined) return true;
    const { approval } = value;
    return isObject(approval) && typeof approval.id === 'string' && optional(approval.approved, 'boolean') && optional(approval.reason, 'string');
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

const ERROR_KINDS: ReadonlySet<string> = new Set(['unreachable', 'refused', 'server', 'stream', 'unreadable']);

/**
 * A saved failed request, checked; `undefined` for anything else (none saved, a wrong shape). The conversation stays
 * either way: without it, the page only offers less (no Retry of an answer an error ended at its calls' results).
 */
export function parseFailedRequest(value: unknown): FailedRequest | undefined {
  if (!isObject(value) || typeof value.messageId !== 'string' || value.messageId === '' || !isObject(value.error)) return undefined;
  const { kind, status, code, message, reason, toolCallId } = value.error;
  if (typeof kind !== 'string' || !ERROR_KINDS.has(kind) || typeof code !== 'string' || typeof message !== 'string') return undefined;
  if (status !== undefined && !(Number.isInteger(status) && (status as number) >= 100 && (status as number) <= 599)) return undefined;
  if (!optional(reason, 'string') || !optional(toolCallId, 'string')) return undefined;
  const named = { ...(typeof reason === 'string' ? { reason } : {}), ...(typeof toolCallId === 'string' ? { toolCallId } : {}) };
  const error = { kind: kind as ChatErrorInfo['kind'], status: status as number | undefined, code, message, ...named };
  return { messageId: value.messageId, error };
}

/** The conversation fields both versions share, checked; `undefined` if any is wrong. */
function readConversation(value: Record<string, unknown>): Omit<SavedChat, 'browser'> | undefined {
  const { id, mode, messages } = value;
  if (typeof id !== 'string' || !CHAT_ID.test(id)) return undefined;
  if (mode !== 'internal' && mode !== 'manual') return undefined;
  if (!Array.isArray(messages) || messages.length === 0 || !messages.every(isMessage)) return undefined;
  return { id, mode, messages };
}

function parseJson(text: string | null): Record<string, unknown> | undefined {
  if (text === null || text.length > MAX_STORED_CHARS) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a saved conversation from its stored text. Anything else reads as `undefined`: nothing stored, text that is
 * not JSON, another format version, a wrong shape anywhere in the conversation (one bad message drops the whole
 * conversation: a partial history would not be the one the server's tickets were signed for), or more than
 * {@link MAX_STORED_CHARS}. The browser state is read entry by entry (`parseBrowserState`): a bad trace or progress
 * report is dropped, the conversation stays.
 */
export function parseSavedChat(text: string | null, slot: string): StoredChat | undefined {
  const value = parseJson(text);
  if (value === undefined || value.v !== CHAT_STORAGE_VERSION) return undefined;
  const conversation = readConversation(value);
  const { rev, savedAt } = value;
  if (conversation === undefined || !Number.isSafeInteger(rev) || (rev as number) < 1 || typeof savedAt !== 'number' || !Number.isFinite(savedAt)) return undefined;
  const failed = parseFailedRequest(value.failed);
  return { ...conversation, browser: parseBrowserState(value.browser), ...(failed === undefined ? {} : { failed }), slot, rev: rev as number, savedAt };
}

/** Reads the one conversation version 1 kept for all tabs (`{ v: 1, id, mode, messages }`), checked the same way. */
export function parseLegacyChat(text: string | null): SavedChat | undefined {
  const value = parseJson(text);
  const conversation = value?.v === 1 ? readConversation(value) : undefined;
  return conversation === undefined ? undefined : { ...conversation, browser: EMPTY_BROWSER_STATE };
}

/** This tab's conversations in `localStorage`; see {@link CHAT_KEY_PREFIX} for how tabs share it. */
export interface ChatStore {
  /** This tab's slot. A save that finds its slot changed by another tab moves the tab to a new one. */
  readonly slot: () => string;
  /** This tab's saved conversation (what a reload brings back), or `undefined`. */
  load(): StoredChat | undefined;
  /**
   * Saves this tab's conversation, or forgets it when it has no messages (a new chat). One that cannot be saved whole
   * (too large even without its traces and progress, over the quota, blocked storage) removes this tab's copy too: a
   * reload then starts afresh rather than in an older state of this conversation.
   */
  save(chat: SavedChat): SaveResult;
  /** Forgets this tab's conversation; `false` when the storage refused. */
  clear(): boolean;
  /** The most recently saved conversation of another slot (a closed tab, or another tab), to offer in a new tab. */
  latestElsewhere(): ChatSummary | undefined;
  /** Moves this tab to another slot and reads its conversation (the offer taken): this tab writes there from now on. */
  adopt(slot: string): StoredChat | undefined;
}

/** Options for {@link openChatStore}. */
export interface ChatStoreOptions {
  /** `localStorage`; `undefined` where there is none: nothing is kept. */
  readonly local: ChatStorage | undefined;
  /** `sessionStorage` (per tab, kept across reloads); without it each page load is a new tab. */
  readonly session: TabStorage | undefined;
  readonly newSlot?: () => string;
  readonly now?: () => number;
}

/**
 * The longest conversation JSON a save writes: the stored record appends `,"rev":…,"savedAt":…` (two integers of at
 * most 16 digits), and the whole must stay within {@link MAX_STORED_CHARS}, or a reload would not read it back.
 */
const MAX_BODY_CHARS = MAX_STORED_CHARS - ',"rev":,"savedAt":'.length - 2 * String(Number.MAX_SAFE_INTEGER).length;

/** A conversation's stored JSON without its revision and save time (which {@link ChatStore.save} appends). */
function bodyOf(chat: Omit<SavedChat, 'browser'>, browser: BrowserState): string {
  const { id, mode, messages, failed } = chat;
  return JSON.stringify({ v: CHAT_STORAGE_VERSION, id, mode, messages, browser, ...(failed === undefined ? {} : { failed }) });
}

/** Runs `read`, and reads a storage that throws as `fallback`. */
function attempt<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/** The store of this tab: picks its slot (a reload keeps it), and moves a version 1 conversation into it. */
export function openChatStore(options: ChatStoreOptions): ChatStore {
  const { local, session } = options;
  const newSlot = options.newSlot ?? (() => crypto.randomUUID());
  const now = options.now ?? Date.now;
  const remembered = attempt(() => session?.getItem(TAB_SLOT_KEY) ?? null, null);
  let slot = remembered !== null && SLOT.test(remembered) ? remembered : newSlot();
  // The revision of this slot this tab last read or wrote (0: none), and the conversation it holds, as written.
  let rev = 0;
  let written: string | undefined;

  const keyOf = (name: string) => `${CHAT_KEY_PREFIX}${name}`;
  const remember = (name: string) => {
    slot = name;
    attempt(() => session?.setItem(TAB_SLOT_KEY, name), undefined);
  };
  const read = (name: string) => (local === undefined ? undefined : parseSavedChat(attempt(() => local.getItem(keyOf(name)), null), name));
  /** A slot's revision and save time without checking its conversation (cheap enough to do on every save). */
  const stamp = (name: string): { rev: number; savedAt: number } | undefined => {
    const value = local === undefined ? undefined : parseJson(attempt(() => local.getItem(keyOf(name)), null));
    return value === undefined || typeof value.rev !== 'number' ? undefined : { rev: value.rev, savedAt: typeof value.savedAt === 'number' ? value.savedAt : 0 };
  };
  const slots = (): string[] => {
    if (local === undefined) return [];
    return attempt(() => {
      const names: string[] = [];
      for (let index = 0; index < local.length; index++) {
        const key = local.key(index);
        if (key?.startsWith(CHAT_KEY_PREFIX)) names.push(key.slice(CHAT_KEY_PREFIX.length));
      }
      return names;
    }, []);
  };
  /** The other slots, least recently saved first (an unreadable one counts as oldest). */
  const othersByAge = () =>
    slots()
      .filter((name) => name !== slot)
      .map((name) => ({ name, savedAt: stamp(name)?.savedAt ?? Number.NEGATIVE_INFINITY }))
      .sort((a, b) => a.savedAt - b.savedAt);
  const remove = (name: string): boolean =>
    attempt(() => {
      local?.removeItem(keyOf(name));
      return local !== undefined;
    }, false);
  const forget = (): void => {
    rev = 0;
    written = undefined;
  };

  remember(slot);
  const legacy = local === undefined ? undefined : parseLegacyChat(attempt(() => local.getItem(LEGACY_CHAT_KEY), null));
  if (legacy !== undefined && read(slot) === undefined) {
    write(legacy);
    attempt(() => local?.removeItem(LEGACY_CHAT_KEY), undefined);
  }

  /** Writes `chat` over this tab's copy; on a full storage, drops the oldest conversations of other slots first. */
  function write(chat: SavedChat): SaveResult {
    if (local === undefined) return 'failed';
    const body = (browser: BrowserState) => bodyOf(chat, browser);
    // Traces and progress are the first to go when the whole does not fit; stopped answers and expired calls change
    // what the page does, so they stay with the messages.
    let text: string;
    try {
      text = body(chat.browser);
      if (text.length > MAX_BODY_CHARS) text = body({ ...chat.browser, traces: {}, progress: {} });
    } catch {
      // A conversation this engine's JSON cannot write (arguments a server sent 10,000 lists deep, where JSON.stringify
      // recurses): not kept, as one the storage refuses. Thrown from the page's save effect, it blanked the page.
      remove(slot);
      forget();
      return 'failed';
    }
    if (text.length > MAX_BODY_CHARS) {
      remove(slot);
      forget();
      return 'too-large';
    }
    const stored = stamp(slot)?.rev ?? 0;
    if (text === written && stored === rev) return 'saved';
    // Another tab wrote this slot since this one last read or wrote it (a duplicated tab, the same conversation
    // continued in two tabs): this tab goes on in a slot of its own, and the other tab's copy stays as it is.
    if (stored !== rev) {
      remember(newSlot());
      rev = 0;
    }
    const record = `${text.slice(0, -1)},"rev":${rev + 1},"savedAt":${now()}}`;
    let evictable: { name: string }[] | undefined;
    for (;;) {
      try {
        local.setItem(keyOf(slot), record);
        break;
      } catch {
        evictable ??= othersByAge();
        const oldest = evictable.shift();
        if (oldest === undefined) {
          remove(slot);
          forget();
          return 'failed';
        }
        remove(oldest.name);
      }
    }
    rev += 1;
    written = text;
    const extra = slots().length - MAX_SAVED_CHATS;
    if (extra > 0) for (const old of othersByAge().slice(0, extra)) remove(old.name);
    return 'saved';
  }

  return {
    slot: () => slot,
    load() {
      const chat = read(slot);
      // A slot this tab cannot read is overwritten, not forked from: nothing in it could be shown.
      rev = chat?.rev ?? stamp(slot)?.rev ?? 0;
      // What it read counts as written: saving it unchanged writes nothing.
      written = chat === undefined ? undefined : bodyOf(chat, chat.browser);
      return chat;
    },
    save(chat) {
      if (local === undefined) return 'failed';
      if (chat.messages.length === 0) return this.clear() ? 'cleared' : 'failed';
      return write(chat);
    },
    clear() {
      forget();
      return remove(slot);
    },
    latestElsewhere() {
      let latest: StoredChat | undefined;
      for (const name of slots()) {
        if (name === slot) continue;
        const chat = read(name);
        if (chat !== undefined && (latest === undefined || chat.savedAt > latest.savedAt)) latest = chat;
      }
      return latest === undefined ? undefined : summarize(latest);
    },
    adopt(name) {
      const chat = SLOT.test(name) ? read(name) : undefined;
      if (chat === undefined) return undefined;
      remember(name);
      rev = chat.rev;
      written = bodyOf(chat, chat.browser);
      return chat;
    },
  };
}

/** A conversation as an offer names it. */
function summarize(chat: StoredChat): ChatSummary {
  const first = chat.messages.find((message) => message.role === 'user');
  const text = (first?.parts ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ').replace(/\s+/g, ' ').trim();
  return { slot: chat.slot, id: chat.id, title: text.length > 80 ? `${text.slice(0, 79)}…` : text, messageCount: chat.messages.length, savedAt: chat.savedAt };
}

/** `localStorage`, or `undefined` where there is none or reading it throws (blocked cookies, sandboxed frames). */
export function browserStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

/** `sessionStorage`, or `undefined` where there is none or reading it throws. */
export function tabStorage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}
