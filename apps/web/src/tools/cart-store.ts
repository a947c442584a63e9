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

function isItem(value: unknown): value is CartItem {
  const v = value as Partial<CartItem> | null;
  return typeof v === 'object' && v !== null && typeof v.name === 'string' && typeof v.quantity === 'number' && (v.price === undefined || typeof v.price === 'number');
}

function summarize(items: readonly CartItem[]): CartSummary {
  const count = items.reduce((n, item) => n + item.quantity, 0);
  const total = Math.round(items.reduce((sum, item) => sum + (item.price ?? 0) * item.quantity, 0) * 100) / 100;
  return { items, count, total };
}

/**
 * Creates the cart store. Same-name items merge (quantities add up, the latest price wins); corrupt
 * storage reads as an empty cart; without storage (private mode, tests) the cart lives in memory.
 */
export function createCartStore(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined, key = 'edgetool.cart'): CartStore {
  let memory: readonly CartItem[] = [];
  let snapshot: CartSummary | undefined;
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
      if (items.length === 0) storage.removeItem(key);
      else storage.setItem(key, JSON.stringify(items));
    }
    snapshot = undefined;
    for (const listener of listeners) listener();
  };

  return {
    summary() {
      snapshot ??= summarize(read());
      return snapshot;
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
      return () => listeners.delete(listener);
    },
  };
}
