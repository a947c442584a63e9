// The browser tools with their implementations. They run through the browser's edgetool chain
// (`useEdgeChat`) when the server hands a call over; their contract lives in `declarations.ts`.
import { type AnyTool, defineTool } from '@edgetool/core';
import { createUserInput } from '@edgetool/react';
import { browserStorage } from '../lib/chat-storage.ts';
import { formatOffset } from '../lib/format.ts';
import { type CartStore, createCartStore } from './cart-store.ts';
import { browserTimeZoneSpec, cartAddSpec, cartClearSpec, cartListSpec, pickDateSpec } from './declarations.ts';

/** A question `pick_date` asks in the chat. */
export interface DateQuestion {
  readonly question: string;
  readonly min: string | undefined;
  readonly max: string | undefined;
}

/** Where `pick_date` waits for the user; the date picker in the tool card answers it. */
export const dateInput = createUserInput<DateQuestion, string>();

/** The cart kept in this browser's localStorage. */
export const cart: CartStore = createCartStore(browserStorage());

const browserTimeZone = defineTool({
  ...browserTimeZoneSpec,
  execute: () => {
    const now = new Date();
    const { timeZone, locale } = Intl.DateTimeFormat().resolvedOptions();
    return {
      time_zone: timeZone,
      locale: typeof navigator === 'undefined' ? locale : navigator.language || locale,
      utc_offset: formatOffset(-now.getTimezoneOffset()),
      local_time: now.toLocaleString(locale, { dateStyle: 'full', timeStyle: 'short' }),
    };
  },
});

const pickDate = defineTool({
  ...pickDateSpec,
  execute: async ({ question, min, max }, ctx) => ({ date: await dateInput.ask(ctx, { question, min, max }) }),
});

const cartAdd = defineTool({ ...cartAddSpec, execute: (item) => cart.add(item) });
const cartList = defineTool({ ...cartListSpec, execute: () => cart.summary() });
const cartClear = defineTool({ ...cartClearSpec, execute: () => cart.clear() });

/** Every browser tool of the demo (defined once, at module level: `useEdgeChat` keys its chain on it). */
export const browserTools: readonly AnyTool[] = [browserTimeZone, pickDate, cartAdd, cartList, cartClear] as readonly AnyTool[];
