import { describe, expect, it } from 'vitest';
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
});
