// The browser tools' contract: names, schemas and policies, without implementations.
// The worker registers `browserToolDeclarations` so the model sees these tools and the server hands
// their calls to the browser with a `client-result` ticket; `browser-tools.ts` adds `execute`.
import { type AnyTool, defineTool } from '@edgetool/core';
import * as v from 'valibot';

/** Whether a YYYY-MM-DD text names a day of the calendar (valibot's `isoDate` takes 2027-02-30). */
const isRealDay = (text: string): boolean => new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);

const isoDate = v.pipe(v.string(), v.isoDate(), v.check(isRealDay, 'That day does not exist'), v.description('A date as YYYY-MM-DD'));

/** `browser_time_zone`: the browser's time zone, locale and local time. */
export const browserTimeZoneSpec = {
  name: 'browser_time_zone',
  description: "The user's own time zone, locale and local time, read from their browser.",
  input: v.object({}),
  policy: { runsOn: 'client', effects: 'read' },
} as const;

/** `pick_date`: the user picks a date in the chat (the call waits for them). */
export const pickDateSpec = {
  name: 'pick_date',
  description: 'Ask the user to pick a date in a date picker (for example a delivery date). Returns the chosen date.',
  // A range with no day in it leaves the user nothing to choose: refused, so the model reads why.
  input: v.pipe(
    v.object({
      question: v.pipe(v.string(), v.minLength(1), v.description('What the user is asked, e.g. "Which delivery date suits you?"')),
      min: v.optional(isoDate),
      max: v.optional(isoDate),
    }),
    v.forward(
      v.check(({ min, max }) => min === undefined || max === undefined || min <= max, 'max is before min: no day can be chosen'),
      ['max'],
    ),
  ),
  policy: { runsOn: 'client', effects: 'read' },
} as const;

/** `cart_add`: adds an item to the cart kept in the browser. */
export const cartAddSpec = {
  name: 'cart_add',
  description: "Add an item to the user's shopping cart (kept in their browser).",
  input: v.object({
    name: v.pipe(v.string(), v.minLength(1), v.description('Item name, e.g. "coffee beans"')),
    quantity: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(99), v.description('How many (default 1)'))),
    price: v.optional(v.pipe(v.number(), v.minValue(0), v.description('Unit price in EUR'))),
  }),
  // Adding to your own cart is harmless: a write that needs no approval.
  policy: { runsOn: 'client', effects: 'write', needsApproval: false },
} as const;

/** `cart_list`: what is in the cart. */
export const cartListSpec = {
  name: 'cart_list',
  description: "List the items in the user's shopping cart.",
  input: v.object({}),
  policy: { runsOn: 'client', effects: 'read' },
} as const;

/** `cart_clear`: empties the cart (destructive: the browser asks the user first). */
export const cartClearSpec = {
  name: 'cart_clear',
  description: "Remove every item from the user's shopping cart.",
  input: v.object({}),
  policy: { runsOn: 'client', effects: 'destructive' },
} as const;

/** The browser tools as declarations (no `execute`): what the server registers for the model. */
export const browserToolDeclarations = [
  defineTool(browserTimeZoneSpec),
  defineTool(pickDateSpec),
  defineTool(cartAddSpec),
  defineTool(cartListSpec),
  defineTool(cartClearSpec),
] as const satisfies readonly AnyTool[];
