import { ToolError } from '@edgetool/core';

/** One line of the cart. */
export interface CartItem {
  readonly name: string;
  readonly quantity: number;
  readonly price: number | undefined;
}

/** The cart as the tools return it. */
export interface CartSummary {
  readonly items: readonly CartItem[];
  readonly count: number;
  /** Sum of priced items, in EUR (unpriced items count 0). */
  readonly total: number;
}

/** The cart kept in `localStorage` (or any `Storage`), shared by the cart tools and the UI. */
export interface CartStore {
  summary(): CartSummary;
  add(item: { readonly name: string; readonly quantity?: number | undefined; readonly price?: number | undefined }): CartSummary;
  clear(): { readonly removed: number };
  subscribe(listener: () => void): () => void;
}

/**
 * Whether a stored entry is one `cart_add` could have written: a whole quantity of at least 1, no price or a finite one
 * of at least 0. Anything else (a negative or fractional quantity, a price of 1e999) would falsify the count and total.
 */
function isItem(value: unknown): value is CartItem {
  const v = value as Partial<CartItem> | null;
  if (typeof v !== 'object' || v === null || typeof v.name !== 'string') return false;
  const { quantity, price } = v;
  return Number.isSafeInteger(quantity) && (quantity as number) >= 1 && (price === undefined || (Number.isFinite(price) && (price as number) >= 0));
}

function summarize(items: readonly CartItem[]): CartSummary {
  const count = items.reduce((n, item) => n + item.quantity, 0);
  const total = Math.round(items.reduce((sum, item) => sum + (item.price ?? 0) * item.quantity, 0) * 100) / 100;
  return { items, count, total };
}

/**
 * Creates the cart store. Same-name items merge (quantities add up, the latest price wins); corrupt storage reads as
 * an empty cart, and a corrupt entry is left out; without storage (private mode, tests) the cart lives in memory. What
 * another tab writes to the same storage shows at once: in `summary()`, and to subscribers (`storage` events).
 */
export function createCartStore(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined, key = 'edgetool.cart'): CartStore {
  let memory: readonly CartItem[] = [];
  // The summary last read, with the stored text it was read from: another tab may change that text at any time.
  let snapshot: { readonly raw: string | null; readonly summary: CartSummary } | undefined;
  const listeners = new Set<() => void>();

  const read = (): readonly CartItem[] => {
    if (!storage) return memory;
    try {
      const parsed: unknown = JSON.parse(storage.getItem(key) ?? '[]');
      return Array.isArray(parsed) ? parsed.filter(isItem) : [];
    } catch {
      return [];
    }
  };
  const write = (items: readonly CartItem[]) => {
    memory = items;
    if (storage) {
      try {
        if (items.length === 0) storage.removeItem(key);
        else storage.setItem(key, JSON.stringify(items));
      } catch (error) {
        // Words for the model and the user (a ToolError stays visible under 'hide-unexpected'): the cart did not change.
        throw new ToolError('execution-failed', "This browser's storage is full, so the cart was not changed. Deleting old chats frees room.", { cause: error });
      }
    }
    snapshot = undefined;
    for (const listener of listeners) listener();
  };

  return {
    summary() {
      let raw: string | null = null;
      try {
        raw = storage?.getItem(key) ?? null;
      } catch {}
      if (snapshot === undefined || snapshot.raw !== raw) snapshot = { raw, summary: summarize(read()) };
      return snapshot.summary;
    },
    add({ name, quantity = 1, price }) {
      const items = [...read()];
      const at = items.findIndex((item) => item.name.toLowerCase() === name.toLowerCase());
      const existing = items[at];
      if (existing) items[at] = { name: existing.name, quantity: existing.quantity + quantity, price: price ?? existing.price };
      else items.push({ name, quantity, price });
      write(items);
      return this.summary();
    },
    clear() {
      const removed = read().reduce((n, item) => n + item.quantity, 0);
      write([]);
      return { removed };
    },
    subscribe(listener) {
      listeners.add(listener);
      // Another tab's change to the cart (the same localStorage): the listener reads it anew.
      const onStorage = (event: StorageEvent) => {
        if (event.key === key || event.key === null) listener();
      };
      const target = storage !== undefined && typeof window !== 'undefined' ? window : undefined;
      target?.addEventListener('storage', onStorage);
      return () => {
        listeners.delete(listener);
        target?.removeEventListener('storage', onStorage);
      };
    },
  };
}
