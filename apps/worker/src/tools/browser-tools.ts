import { defineTool } from '@edgetool/core';
import * as v from 'valibot';

// Declarations of the tools that run in the browser (`runsOn: 'client'`). The server tells the model
// about them; apps/web gives them their `execute` (same name, description, schema and policy) and runs
// them through its own chain. Imported by the web app from `@edgetool/worker/browser-tools`.

/** The user's time zone and locale, as their browser reports them. */
export const browserTimeZone = defineTool({
  name: 'browser_time_zone',
  description: "The user's own time zone and locale, read from their browser. Use it before talking about local times or dates.",
  input: v.object({}),
  policy: { runsOn: 'client' },
});

/** Asks the user to pick a date in an interactive date picker. */
export const pickDate = defineTool({
  name: 'pick_date',
  description: 'Ask the user to pick a date in their browser (an interactive date picker). Returns the date as YYYY-MM-DD.',
  input: v.object({
    question: v.pipe(v.string(), v.minLength(1), v.description('What the date is for, shown to the user')),
    min: v.optional(v.pipe(v.string(), v.isoDate(), v.description('Earliest allowed date, YYYY-MM-DD'))),
  }),
  policy: { runsOn: 'client' },
});

const Sku = v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.description('Product code, e.g. SKU-42'));

/** Adds an item to the cart kept in the browser (localStorage). */
export const cartAdd = defineTool({
  name: 'cart_add',
  description: "Add an item to the user's shopping cart, kept in their browser.",
  input: v.object({ sku: Sku, quantity: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(99)), 1) }),
  policy: { runsOn: 'client', effects: 'write', needsApproval: false },
});

/** Lists the cart kept in the browser. */
export const cartList = defineTool({
  name: 'cart_list',
  description: "List the items in the user's shopping cart, kept in their browser.",
  input: v.object({}),
  policy: { runsOn: 'client' },
});

/** Empties the cart kept in the browser. */
export const cartClear = defineTool({
  name: 'cart_clear',
  description: "Empty the user's shopping cart, kept in their browser.",
  input: v.object({}),
  policy: { runsOn: 'client', effects: 'write', needsApproval: false },
});

/** Every browser tool declaration, in the order the model sees them. */
export const browserTools = [browserTimeZone, pickDate, cartAdd, cartList, cartClear] as const;
