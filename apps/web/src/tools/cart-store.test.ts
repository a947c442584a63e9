import { ToolError } from '@edgetool/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCartStore } from './cart-store.ts';

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

describe('cart store', () => {
  it('a full storage fails the change with words for the model, and the cart stays as it was', () => {
    const storage = memoryStorage();
    const cart = createCartStore(storage);
    cart.add({ name: 'tea' });
    storage.setItem = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    let thrown: unknown;
    try {
      cart.add({ name: 'mug' });
    } catch (error) {
      thrown = error;
    }
    expect(ToolError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: 'execution-failed', message: "This browser's storage is full, so the cart was not changed. Deleting old chats frees room." });
    expect((thrown as ToolError).unexpected).not.toBe(true);
    expect(cart.summary().items.map((item) => item.name)).toEqual(['tea']);
  });

  it('adds, merges same-name items, totals priced items, persists', () => {
    const storage = memoryStorage();
    const cart = createCartStore(storage);
    cart.add({ name: 'Coffee beans', quantity: 2, price: 12.5 });
    cart.add({ name: 'mug' });
    const summary = cart.add({ name: 'coffee beans', price: 11 });
    expect(summary).toEqual({
      items: [
        { name: 'Coffee beans', quantity: 3, price: 11 },
        { name: 'mug', quantity: 1, price: undefined },
      ],
      count: 4,
      total: 33,
    });
    expect(createCartStore(storage).summary()).toEqual({ ...summary, items: [{ name: 'Coffee beans', quantity: 3, price: 11 }, { name: 'mug', quantity: 1 }] });
  });

  it('clears, notifies, keeps a stable snapshot between changes', () => {
    const storage = memoryStorage();
    const cart = createCartStore(storage);
    let changes = 0;
    cart.subscribe(() => changes++);
    cart.add({ name: 'tea', quantity: 3 });
    expect(cart.summary()).toBe(cart.summary());
    expect(cart.clear()).toEqual({ removed: 3 });
    expect(cart.summary().items).toEqual([]);
    expect(storage.data.size).toBe(0);
    expect(changes).toBe(2);
  });

  it('reads corrupt storage as empty, and works without storage', () => {
    const storage = memoryStorage();
    storage.setItem('edgetool.cart', '{not json');
    expect(createCartStore(storage).summary().items).toEqual([]);
    storage.setItem('edgetool.cart', JSON.stringify([{ name: 'ok', quantity: 1 }, { bad: true }]));
    expect(createCartStore(storage).summary().items).toEqual([{ name: 'ok', quantity: 1 }]);
    const memory = createCartStore(undefined);
    memory.add({ name: 'x' });
    expect(memory.summary().count).toBe(1);
  });

  it('leaves out stored entries no cart_add could write: a quantity below 1 or not whole, a price that is negative or not finite', () => {
    const storage = memoryStorage();
    // 1e999 reads as Infinity; a NaN is stored as null.
    const stored = `[{"name":"ok","quantity":2,"price":1.5},{"name":"neg","quantity":-3,"price":1},{"name":"half","quantity":0.5},{"name":"zero","quantity":0},
      {"name":"huge","quantity":1,"price":1e999},{"name":"cheap","quantity":1,"price":-4},{"name":"many","quantity":1e999},{"name":"nan","quantity":1,"price":null}]`;
    storage.setItem('edgetool.cart', stored);
    const cart = createCartStore(storage);
    expect(cart.summary()).toEqual({ items: [{ name: 'ok', quantity: 2, price: 1.5 }], count: 2, total: 3 });
    expect(cart.clear()).toEqual({ removed: 2 });
  });

  describe('two tabs on one localStorage', () => {
    afterEach(() => {
      vi.unstubAllGlobals();
    });

    it('cart_list (summary) in one tab sees what the other tab added or cleared', () => {
      const storage = memoryStorage();
      const first = createCartStore(storage);
      const second = createCartStore(storage);
      expect(second.summary().count).toBe(0);
      first.add({ name: 'tea', quantity: 2 });
      expect(second.summary()).toEqual({ items: [{ name: 'tea', quantity: 2 }], count: 2, total: 0 });
      expect(second.summary()).toBe(second.summary());
      first.clear();
      expect(second.summary().items).toEqual([]);
    });

    it('tells subscribers when another tab changes the cart (a storage event), until they unsubscribe', () => {
      const window = new EventTarget();
      vi.stubGlobal('window', window);
      const cart = createCartStore(memoryStorage());
      let changes = 0;
      const unsubscribe = cart.subscribe(() => changes++);
      const storageEvent = (key: string | null) => Object.assign(new Event('storage'), { key });
      window.dispatchEvent(storageEvent('edgetool.cart'));
      window.dispatchEvent(storageEvent('edgetool.chat:s1'));
      window.dispatchEvent(storageEvent(null));
      expect(changes).toBe(2);
      unsubscribe();
      window.dispatchEvent(storageEvent('edgetool.cart'));
      expect(changes).toBe(2);
    });
  });
});
