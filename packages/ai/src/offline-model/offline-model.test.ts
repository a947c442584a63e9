import {
  generateText,
  isStepCount,
  jsonSchema,
  type ModelMessage,
  streamText,
  type TextStreamPart,
  type ToolSet,
  tool,
  toUIMessageStream,
} from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createOfflineModel, isOfflineModel, OFFLINE_MODEL_ID, OFFLINE_PROVIDER } from './offline-model.ts';

type Order = { id: string; status: string; deliveryDate: string; total: number };

const ORDERS: Record<string, Order> = {
  'A-1001': { id: 'A-1001', status: 'shipped', deliveryDate: '2025-03-04', total: 42.5 },
};

/** The demo's cart tools (apps/web/src/tools/declarations.ts) in the worker's order; no execute: the browser runs them. */
/**
 * A two-message conversation on `model` with `tools`: `first` (its turn run to the end, two steps at most), then `then`
 * after it; what the model says and calls on the second message.
 */
function conversation(model: ReturnType<typeof createOfflineModel>, tools: ToolSet) {
  return async (first: string, then: string): Promise<{ text: string; calls: unknown[][] }> => {
    const before = await generateText({ model, tools, prompt: first, stopWhen: isStepCount(2) });
    const messages: ModelMessage[] = [{ role: 'user', content: first }, ...before.responseMessages, { role: 'user', content: then }];
    const result = await generateText({ model, tools, messages, stopWhen: isStepCount(1) });
    return { text: result.text, calls: result.toolCalls.map((call) => [call.toolName, call.input]) };
  };
}

/**
 * A conversation of `texts` on `model` with `tools`, each turn but the last run to its end (three steps at most), the
 * last one step: what the model says and calls on the last. A text `DENY` denies the last approval asked instead.
 * `tools` as a function: a fresh set for each conversation (the cart tools keep their cart).
 */
function talker(model: ReturnType<typeof createOfflineModel>, toolSet: ToolSet | (() => ToolSet)) {
  return async (...texts: string[]): Promise<{ text: string; calls: unknown[][] }> => {
    const tools = typeof toolSet === 'function' ? toolSet() : toolSet;
    const messages: ModelMessage[] = [];
    let last: { text: string; calls: unknown[][] } = { text: '', calls: [] };
    for (const [index, text] of texts.entries()) {
      if (text === 'DENY') {
        const parts = messages.flatMap((message) => (message.role === 'assistant' && Array.isArray(message.content) ? message.content : []));
        const request = parts.filter((part) => part.type === 'tool-approval-request').at(-1);
        if (request?.type !== 'tool-approval-request') throw new Error('no approval asked');
        messages.push({ role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: false }] });
      } else messages.push({ role: 'user', content: text });
      const result = await generateText({ model, tools, messages, stopWhen: isStepCount(index === texts.length - 1 ? 1 : 3) });
      messages.push(...result.responseMessages);
      last = { text: result.text, calls: result.toolCalls.map((call) => [call.toolName, call.input]) };
    }
    return last;
  };
}

function cartTools() {
  const cartOutput = z.object({ count: z.number() });
  return {
    cart_add: tool({
      description: "Add an item to the user's shopping cart (kept in their browser).",
      inputSchema: z.object({
        name: z.string().min(1).describe('Item name, e.g. "coffee beans"'),
        quantity: z.number().int().min(1).max(99).optional().describe('How many (default 1)'),
        price: z.number().min(0).optional().describe('Unit price in EUR'),
      }),
      outputSchema: cartOutput,
    }),
    cart_list: tool({ description: "List the items in the user's shopping cart.", inputSchema: z.object({}), outputSchema: cartOutput }),
    cart_clear: tool({ description: "Remove every item from the user's shopping cart.", inputSchema: z.object({}), outputSchema: z.object({ removed: z.number() }) }),
  };
}

function orderTools() {
  const getOrder = vi.fn(async ({ orderId }: { orderId: string }) => {
    const order = ORDERS[orderId];
    if (order === undefined) throw new Error(`Order ${orderId} not found`);
    return order;
  });
  const listDelayed = vi.fn(async ({ limit }: { limit?: number }) =>
    [
      { id: 'A-1002', status: 'delayed', daysLate: 3 },
      { id: 'A-1003', status: 'delayed', daysLate: 1 },
    ].slice(0, limit ?? 10),
  );
  const changeDate = vi.fn(async (input: { orderId: string; date: string }) => ({ ...input, changed: true }));
  const tools = {
    getOrder: tool({
      description: 'Look up an order by its id and return its status and delivery date.',
      inputSchema: jsonSchema<{ orderId: string }>(
        {
          type: 'object',
          properties: { orderId: { type: 'string', description: 'The order id' } },
          required: ['orderId'],
          additionalProperties: false,
        },
        {
          validate: (value) =>
            typeof value === 'object' && value !== null && typeof (value as { orderId?: unknown }).orderId === 'string'
              ? { success: true, value: value as { orderId: string } }
              : { success: false, error: new Error('orderId must be a string') },
        },
      ),
      execute: getOrder,
    }),
    listDelayedOrders: tool({
      description: 'List the orders whose delivery is delayed.',
      inputSchema: z.object({ limit: z.number().int().min(1).optional().default(10) }),
      execute: listDelayed,
    }),
    changeDeliveryDate: tool({
      description: 'Change the delivery date of an order.',
      inputSchema: z.object({
        orderId: z.string(),
        date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      }),
      execute: changeDate,
    }),
  } satisfies ToolSet;
  return { tools, getOrder, listDelayed, changeDate };
}

/**
 * The demo's order, clock and cart tools as the worker gives them (names, arguments, result shapes), on a few orders:
 * for conversations that read what an earlier answer showed (a list, an invoice, a clock's date).
 */
function shopTools() {
  const id = z.string().regex(/^A-\d{4}$/).describe('The order id, e.g. A-1001');
  const orders = [
    { id: 'A-1012', customer: 'Frances Allen', status: 'delayed', delivery_date: '2026-12-20', delay_days: 14 },
    { id: 'A-1006', customer: 'Margaret Hamilton', status: 'delayed', delivery_date: '2026-12-12', delay_days: 9 },
    { id: 'A-1002', customer: 'Grace Hopper', status: 'delayed', delivery_date: '2026-12-03', delay_days: 4 },
  ];
  const cartItems: { name: string; quantity: number }[] = [];
  return {
    query_order: tool({
      description: 'Look up one customer order by its id (format A-1001). Returns its status and delivery date.',
      inputSchema: z.object({ order_id: id }),
      execute: async ({ order_id }) => ({ found: true, order: { id: order_id, status: 'delayed', delivery_date: '2026-12-03', delay_days: 4 } }),
    }),
    list_delayed_orders: tool({
      description: 'List the open orders that are running late by at least `days_threshold` days, most delayed first.',
      inputSchema: z.object({
        days_threshold: z.number().int().min(1).optional().describe('Minimum delay in days (default 1)'),
        limit: z.number().int().min(1).optional().describe('How many of the most delayed orders to list (default all)'),
      }),
      execute: async ({ days_threshold = 1, limit }) => {
        const late = orders.filter((order) => order.delay_days >= days_threshold).slice(0, limit ?? orders.length);
        return { days_threshold, count: late.length, orders: late };
      },
    }),
    order_invoice: tool({
      description: 'Make the invoice of one order (format A-1001) as a PDF document.',
      inputSchema: z.object({ order_id: id }),
      execute: async ({ order_id }) => ({ summary: `Invoice INV-${order_id} of order ${order_id}; total 89.00 EUR.` }),
      toModelOutput: ({ output }) => ({ type: 'content', value: [{ type: 'text', text: output.summary }] }),
    }),
    update_delivery_date: tool({
      description: 'Change the delivery date of an open order (format A-1001) to a new date (YYYY-MM-DD).',
      inputSchema: z.object({ order_id: id, new_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe('The new delivery date, YYYY-MM-DD') }),
      needsApproval: true,
      execute: async ({ order_id, new_date }) => ({ order_id, delivery_date: new_date }),
    }),
    send_email: tool({
      description: "Send an e-mail about an order to that order's customer.",
      inputSchema: z.object({ order_id: id, subject: z.string().min(1).describe('Subject line'), body: z.string().min(1).describe('Plain-text message body') }),
      execute: async () => ({ queued: true }),
    }),
    world_clock: tool({
      description: 'Get the current local date, time, weekday and UTC offset in a time zone.',
      inputSchema: z.object({ time_zone: z.string().describe('IANA time zone, e.g. Europe/Berlin') }),
      execute: async ({ time_zone }) => ({ time_zone, local_date: '2026-11-21', local_time: '02:00:00', weekday: 'Saturday', utc_offset: '+09:00' }),
    }),
    browser_time_zone: tool({
      description: "The user's own time zone, locale and local time, read from their browser.",
      inputSchema: z.object({}),
      execute: async () => ({ time_zone: 'Europe/Berlin', locale: 'de-DE', local_time: 'Freitag, 20. November 2026 um 18:00' }),
    }),
    cart_add: tool({
      description: "Add an item to the user's shopping cart (kept in their browser).",
      inputSchema: z.object({ name: z.string().min(1).describe('Item name, e.g. "coffee beans"'), quantity: z.number().int().min(1).optional().describe('How many (default 1)') }),
      execute: async ({ name, quantity = 1 }) => {
        cartItems.push({ name, quantity });
        return { items: [...cartItems], count: cartItems.length };
      },
    }),
    cart_list: tool({ description: "List the items in the user's shopping cart.", inputSchema: z.object({}), execute: async () => ({ items: [...cartItems], count: cartItems.length }) }),
    cart_clear: tool({ description: "Remove every item from the user's shopping cart.", inputSchema: z.object({}), execute: async () => ({ removed: cartItems.splice(0).length }) }),
  } satisfies ToolSet;
}

/** The demo's audit_orders description (apps/worker/src/tools/audit-orders.ts): "prüfe", "vérifie", "check" reach it by "checked". */
const AUDIT_DESCRIPTION =
  'Audit every open (not yet delivered) order, a few at a time, and flag those that need attention: running late, ' +
  'marked as delayed, or past their delivery date. Returns how many orders were checked and the flagged ones ' +
  'with customer and reasons. Takes no arguments; reports its progress while it runs.';

/** The demo's calculator (apps/worker/src/tools/calculate.ts) on the four operations, for sums a conversation goes on from. */
function calculator() {
  return tool({
    description: 'Evaluate an arithmetic expression exactly instead of doing mental math.',
    inputSchema: z.object({ expression: z.string().min(1).describe('The expression, e.g. (17.5 * 4 + 3) / 2 or sqrt(2)^2') }),
    execute: async ({ expression }) => ({ expression }),
  });
}

/**
 * The inputs of the mails a conversation of `texts` sends: each message's turn runs, and its mail is approved before
 * the next message comes, as the demo's chat holds a message while one waits.
 */
async function approvedMails(model: ReturnType<typeof createOfflineModel>, tools: ToolSet, texts: readonly string[]): Promise<unknown[]> {
  const messages: ModelMessage[] = [];
  const mails: unknown[] = [];
  for (const text of texts) {
    messages.push({ role: 'user', content: text });
    const result = await generateText({ model, tools, messages, stopWhen: isStepCount(3) });
    messages.push(...result.responseMessages);
    const approval = result.content.find((part) => part.type === 'tool-approval-request');
    if (approval?.type !== 'tool-approval-request') continue;
    mails.push(approval.toolCall.input);
    messages.push({ role: 'tool', content: [{ type: 'tool-approval-response', approvalId: approval.approvalId, approved: true }] });
    messages.push(...(await generateText({ model, tools, messages, stopWhen: isStepCount(1) })).responseMessages);
  }
  return mails;
}

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

describe('createOfflineModel', () => {
  it('identifies itself as the offline model', () => {
    const model = createOfflineModel();
    expect(model.specificationVersion).toBe('v4');
    expect(model.provider).toBe(OFFLINE_PROVIDER);
    expect(model.modelId).toBe(OFFLINE_MODEL_ID);
    expect(isOfflineModel(model)).toBe(true);
    expect(isOfflineModel({ provider: 'openai.responses' })).toBe(false);
  });

  it('looks an order up and summarises it in a multi-step generateText loop', async () => {
    const { tools, getOrder } = orderTools();
    const result = await generateText({
      model: createOfflineModel(),
      tools,
      prompt: 'Where is my order A-1001?',
      stopWhen: isStepCount(3),
    });
    expect(getOrder).toHaveBeenCalledTimes(1);
    expect(getOrder.mock.calls[0]?.[0]).toEqual({ orderId: 'A-1001' });
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]?.finishReason).toBe('tool-calls');
    expect(result.steps[0]?.toolCalls.map((call) => call.toolName)).toEqual(['getOrder']);
    expect(result.finishReason).toBe('stop');
    expect(result.text).toMatch(/^Order A-1001 is shipped, delivery date 2025-03-04\./);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
  });

  it('reads the first 2,000 characters of a longer message, and says so in its language', async () => {
    const { tools, getOrder } = orderTools();
    const model = createOfflineModel();
    const long = `Where is my order A-1001? ${'It has not come and I have been waiting for it since last week. '.repeat(3_000)}`;
    const result = await generateText({ model, tools, prompt: long, stopWhen: isStepCount(3) });
    expect(getOrder.mock.calls.map(([input]) => input)).toEqual([{ orderId: 'A-1001' }]);
    const note = `(The offline model read the first 2,000 of your message's ${long.length.toLocaleString('en-US')} characters.)`;
    expect(result.steps[0]?.text.startsWith(note)).toBe(true);
    // A request after the limit is not read; German and French are told in their language.
    const late = await generateText({ model, tools, prompt: `${'Hello there. '.repeat(200)} Where is my order A-1001?`, stopWhen: isStepCount(3) });
    expect(getOrder).toHaveBeenCalledTimes(1);
    expect(late.text).toMatch(/^\(The offline model read the first 2,000 of your message's 2,626 characters\.\) /);
    const german = await generateText({ model, tools, prompt: `Wo ist meine Bestellung A-1001? ${'Sie ist noch nicht da. '.repeat(100)}`, stopWhen: isStepCount(1) });
    expect(german.text).toMatch(/^\(Das Offline-Modell hat die ersten 2\.000 der 2\.332 Zeichen Ihrer Nachricht gelesen\.\)/);
    const french = await generateText({ model, tools, prompt: `Où est ma commande A-1001 ? ${'Elle n’est pas encore arrivée. '.repeat(80)}`, stopWhen: isStepCount(1) });
    expect(french.text).toMatch(/^\(Le modèle hors ligne a lu les 2\s000 premiers des 2\s508 caractères de votre message\.\)/);
    // Up to the limit, nothing is said.
    const exact = await generateText({ model, tools, prompt: `Where is my order A-1001?${' '.repeat(2_000 - 25)}`, stopWhen: isStepCount(1) });
    expect(exact.text).not.toContain('offline model read');
  });

  it("cuts a message at 2,000 characters between characters, not inside one (what it quotes has no half of an emoji), and its text parts at 2,000 in all", async () => {
    const { tools } = orderTools();
    const prefix = 'Where is my order A-1001 and book a taxi to ';
    // The emoji is the 2,001st character, its two code units the 2,001st and 2,002nd: left out whole (the cut came
    // between the halves of one at 2,000 code units); as the 2,000th it is read whole.
    const prompt = `${prefix}${'x'.repeat(2_000 - prefix.length)}😀 and back`;
    const result = await generateText({ model: createOfflineModel(), tools, prompt, stopWhen: isStepCount(3) });
    const text = result.steps.map((step) => step.text).join(' ');
    expect(text).toMatch(/I did not do "book a taxi to x+"/);
    expect(text).not.toMatch(/[\ud800-\udfff]/);
    const whole = await generateText({ model: createOfflineModel(), tools, prompt: prompt.slice(0, prefix.length) + prompt.slice(prefix.length + 1), stopWhen: isStepCount(3) });
    expect(whole.steps.map((step) => step.text).join(' ')).toMatch(/I did not do "book a taxi to x+😀"/);
    // A message of many text parts is read 2,000 characters in all: a request in its tenth part is not read.
    const parts = Array.from({ length: 10 }, (_, i) => ({ type: 'text' as const, text: `${i === 9 ? 'Where is my order A-1001? ' : ''}${'x'.repeat(1_000)}` }));
    const many = await generateText({ model: createOfflineModel(), tools, messages: [{ role: 'user', content: parts }], stopWhen: isStepCount(1) });
    expect(many.toolCalls).toEqual([]);
    expect(many.text).toMatch(/^\(The offline model read the first 2,000 of your message's 10,026 characters\.\)/);
    // Characters are counted as people count them, an emoji as one (JavaScript's length counts two): 1,500 emoji and a
    // request after them are within 2,000, so the request is read and nothing is said; it was cut at 1,000 emoji.
    const emoji = await generateText({ model: createOfflineModel(), tools, prompt: `${'🎉'.repeat(1_500)} Where is my order A-1001?`, stopWhen: isStepCount(1) });
    expect(emoji.toolCalls.map((call) => call.input)).toEqual([{ orderId: 'A-1001' }]);
    const more = await generateText({ model: createOfflineModel(), tools, prompt: `${'🎉'.repeat(2_100)} Where is my order A-1001?`, stopWhen: isStepCount(1) });
    expect(more.text).toMatch(/^\(The offline model read the first 2,000 of your message's 2,126 characters\.\)/);
    expect(more.text).not.toMatch(/[\ud800-\udfff]/);
  });

  it('reads a message of many requests with a mail among them, the mail\'s words to its end left out of what the others read', async () => {
    // What is to be said runs to the message's end, and the text the other requests are read in has it blanked out: a run
    // of ~1,700 spaces, which two patterns of what someone is told went over backwards from each of its places, three
    // times each (~11 s of CPU for this message, past this test's time; 2,000 characters of other requests take ~0.1 s).
    const requests = ['where is A-1002', 'what time is it in Tokyo', 'add 2 mugs to my cart', 'email the customer of A-1002 that it is late'];
    let prompt = '';
    for (let i = 0; prompt.length < 1_950; i++) prompt += `${requests[i % requests.length]}, and `;
    const result = await generateText({ model: createOfflineModel(), tools: shopTools(), prompt: prompt.slice(0, 2_000), stopWhen: isStepCount(1) });
    expect(result.toolCalls.map((call) => call.toolName)).toEqual(['query_order', 'world_clock', 'cart_add', 'send_email']);
  });

  it('streams tool input deltas, the tool call, then the answer in several text deltas', async () => {
    const { tools } = orderTools();
    const result = streamText({
      model: createOfflineModel(),
      tools,
      prompt: 'Where is order A-1001?',
      stopWhen: isStepCount(3),
    });
    const parts: TextStreamPart<typeof tools>[] = await collect(result.stream);
    const types = parts.map((part) => part.type);
    const firstStep = types.slice(0, types.indexOf('finish-step'));
    expect(firstStep).toEqual(
      expect.arrayContaining(['tool-input-start', 'tool-input-delta', 'tool-input-end', 'tool-call', 'tool-result']),
    );
    expect(firstStep.indexOf('tool-input-start')).toBeLessThan(firstStep.indexOf('tool-call'));
    const deltas = parts.filter((part) => part.type === 'text-delta');
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.map((part) => part.text).join('')).toBe(await result.text);
    const stepFinishes = parts.flatMap((part) => (part.type === 'finish-step' ? [part.finishReason] : []));
    expect(stepFinishes).toEqual(['tool-calls', 'stop']);
  });

  it('extracts an id, a date, an optional integer and leaves defaults alone', async () => {
    const { tools, listDelayed, changeDate } = orderTools();
    const model = createOfflineModel();
    await generateText({ model, tools, prompt: 'Which orders are delayed?', stopWhen: isStepCount(2) });
    expect(listDelayed.mock.calls[0]?.[0]).toEqual({ limit: 10 }); // omitted by the model, default applied by zod
    const first = await generateText({ model, tools, prompt: 'Show the 1 most delayed order' });
    expect(first.toolCalls[0]?.input).toEqual({ limit: 1 });
    await generateText({
      model,
      tools,
      prompt: 'Please move the delivery date of order #4711 to 2025-06-30.',
      stopWhen: isStepCount(2),
    });
    expect(changeDate.mock.calls[0]?.[0]).toEqual({ orderId: '4711', date: '2025-06-30' });
  });

  it('picks an enum value that appears in the text', async () => {
    const setStatus = tool({
      description: 'Set the status of an order.',
      inputSchema: z.object({ orderId: z.string(), status: z.enum(['pending', 'in_transit', 'delivered']) }),
      outputSchema: z.object({ ok: z.boolean() }), // a client-side tool: no execute, the caller supplies the result
    });
    const result = await generateText({
      model: createOfflineModel(),
      tools: { setStatus },
      prompt: 'Set the status of ORD-7 to in transit',
    });
    expect(result.toolCalls[0]?.input).toEqual({ orderId: 'ORD-7', status: 'in_transit' });
  });

  it('calls tools in parallel from /tool_name {json} lines', async () => {
    const { tools, getOrder, listDelayed } = orderTools();
    const result = await generateText({
      model: createOfflineModel(),
      tools,
      prompt: 'Run these:\n/getOrder {"orderId":"A-1001"}\n/listDelayedOrders {"limit":1}',
      stopWhen: isStepCount(3),
    });
    expect(result.steps[0]?.toolCalls.map((call) => [call.toolName, call.input])).toEqual([
      ['getOrder', { orderId: 'A-1001' }],
      ['listDelayedOrders', { limit: 1 }],
    ]);
    expect(getOrder).toHaveBeenCalledTimes(1);
    expect(listDelayed).toHaveBeenCalledTimes(1);
    expect(result.text).toMatch(/^Here is what happened:\n- Order A-1001 is shipped.*\n- listDelayedOrders returned 1 result: A-1002/);
  });

  it('passes malformed slash arguments through, so the SDK reports invalid input', async () => {
    const { tools, getOrder } = orderTools();
    const result = await generateText({ model: createOfflineModel(), tools, prompt: '/getOrder {"orderId": 12' });
    expect(getOrder).not.toHaveBeenCalled();
    expect(result.steps[0]?.content.some((part) => part.type === 'tool-error')).toBe(true);
  });

  it('reads JSON arguments that go on over several lines, up to the next command', async () => {
    const { tools } = orderTools();
    const result = await generateText({
      model: createOfflineModel(),
      tools,
      prompt: 'Run these:\n/getOrder {\n  "orderId": "A-1001"\n}\n/listDelayedOrders {"limit":\n1}',
    });
    expect(result.steps[0]?.toolCalls.map((call) => [call.toolName, call.input])).toEqual([
      ['getOrder', { orderId: 'A-1001' }],
      ['listDelayedOrders', { limit: 1 }],
    ]);
    // A brace left open does not swallow the command after it: the first passes through as invalid input.
    const open = await generateText({ model: createOfflineModel(), tools, prompt: '/getOrder {"orderId":\n/listDelayedOrders {"limit":1}' });
    expect(open.steps[0]?.toolCalls.map((call) => call.toolName)).toEqual(['getOrder', 'listDelayedOrders']);
    expect(open.steps[0]?.content.some((part) => part.type === 'tool-error' && part.toolName === 'getOrder')).toBe(true);
  });

  it('reads a slash line as text unless it names a tool or gives JSON arguments', async () => {
    const { tools } = orderTools();
    const text = await generateText({ model: createOfflineModel(), tools, prompt: '/tmp is full, where is order A-1001?' });
    expect(text.toolCalls.map((call) => [call.toolName, call.input])).toEqual([['getOrder', { orderId: 'A-1001' }]]);
    // An unknown tool with JSON arguments is still a call, so the unknown-tool path can be tried.
    const unknown = await generateText({ model: createOfflineModel(), tools, prompt: '/nope {"a":1}' });
    expect(unknown.steps[0]?.content.some((part) => part.type === 'tool-error' && part.toolName === 'nope')).toBe(true);
  });

  it('asks for a missing required argument instead of calling, and uses the answer next turn', async () => {
    const { tools, getOrder } = orderTools();
    const model = createOfflineModel();
    const ask = await generateText({ model, tools, prompt: 'What is the status of my order?' });
    expect(ask.toolCalls).toEqual([]);
    expect(ask.finishReason).toBe('stop');
    expect(ask.text).toContain('getOrder');
    expect(ask.text).toContain('order id');

    const messages: ModelMessage[] = [
      { role: 'user', content: 'What is the status of my order?' },
      ...ask.responseMessages,
      { role: 'user', content: 'It is A-1001' },
    ];
    const answer = await generateText({ model, tools, messages, stopWhen: isStepCount(2) });
    expect(getOrder.mock.calls[0]?.[0]).toEqual({ orderId: 'A-1001' });
    expect(answer.text).toContain('shipped');
  });

  it('explains what it can do when no tool matches', async () => {
    const { tools } = orderTools();
    const result = await generateText({ model: createOfflineModel(), tools, prompt: 'Write me a poem about the sea' });
    expect(result.toolCalls).toEqual([]);
    expect(result.text).toContain('offline model');
    for (const name of ['getOrder', 'listDelayedOrders', 'changeDeliveryDate']) expect(result.text).toContain(name);

    const bare = await generateText({ model: createOfflineModel(), prompt: 'Hello' });
    expect(bare.text).toContain('No tools are available');
  });

  it('answers thanks as thanks, and a greeting or "what can you do?" with what it can do, in the language asked', async () => {
    const { tools } = orderTools();
    const answer = async (prompt: string) => (await generateText({ model: createOfflineModel(), tools, prompt })).text;
    expect(await answer('thanks!')).toBe("You're welcome. Anything else?");
    expect(await answer('Thank you very much')).toBe("You're welcome. Anything else?");
    expect(await answer('danke schön')).toBe('Gern geschehen. Noch etwas?');
    expect(await answer('Merci beaucoup !')).toBe('Je vous en prie. Autre chose ?');
    for (const prompt of ['hi', 'Good morning', 'what can you do?', 'Hallo', 'que sais-tu faire ?']) {
      const text = await answer(prompt);
      expect(text, prompt).not.toMatch(/did not find a tool|kein Werkzeug gefunden|pas trouvé d'outil/);
      expect(text, prompt).toContain('getOrder');
    }
    expect(await answer('Write me a poem')).toContain('I did not find a tool for that.');
  });

  it('reports a failing tool honestly', async () => {
    const { tools } = orderTools();
    const result = await generateText({
      model: createOfflineModel(),
      tools,
      prompt: 'Where is order B-404?',
      stopWhen: isStepCount(2),
    });
    expect(result.text).toBe('The tool failed: getOrder reported "Order B-404 not found".');
  });

  it('says the action was not performed when an approval is denied', async () => {
    const { tools, changeDate } = orderTools();
    const model = createOfflineModel();
    const prompt = 'Change the delivery date of A-1001 to 2025-07-01';
    const first = await generateText({ model, tools, prompt, toolApproval: { changeDeliveryDate: 'user-approval' } });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request?.type).toBe('tool-approval-request');
    if (request?.type !== 'tool-approval-request') return;

    const second = await generateText({
      model,
      tools,
      toolApproval: { changeDeliveryDate: 'user-approval' },
      messages: [
        { role: 'user', content: prompt },
        ...first.responseMessages,
        {
          role: 'tool',
          content: [
            { type: 'tool-approval-response', approvalId: request.approvalId, approved: false, reason: 'not today' },
          ],
        },
      ],
    });
    expect(changeDate).not.toHaveBeenCalled();
    expect(second.text).toContain('denied (not today)');
    expect(second.text).toContain('not performed');
  });

  it('honours toolChoice none and required', async () => {
    const { tools } = orderTools();
    const none = await generateText({ model: createOfflineModel(), tools, toolChoice: 'none', prompt: 'Order A-1001?' });
    expect(none.toolCalls).toEqual([]);
    const forced = await generateText({
      model: createOfflineModel(),
      tools,
      toolChoice: { type: 'tool', toolName: 'listDelayedOrders' },
      prompt: 'anything',
    });
    expect(forced.toolCalls.map((call) => call.toolName)).toEqual(['listDelayedOrders']);
  });

  it('keeps a slash command within toolChoice: a forced tool is not replaced by another one the text names', async () => {
    const { tools, getOrder } = orderTools();
    const forced = await generateText({
      model: createOfflineModel(),
      tools,
      toolChoice: { type: 'tool', toolName: 'listDelayedOrders' },
      prompt: '/getOrder {"orderId": "A-1001"}',
    });
    expect(forced.toolCalls.map((call) => call.toolName)).toEqual(['listDelayedOrders']);
    expect(getOrder).not.toHaveBeenCalled();
  });

  it('evaluates custom rules first', async () => {
    const { tools, getOrder } = orderTools();
    const model = createOfflineModel({
      rules: [
        ({ userText }) => (userText === 'ping' ? 'pong' : undefined),
        ({ userText, toolResults }) =>
          userText.includes('magic') && toolResults.length === 0
            ? { type: 'tool-calls', calls: [{ toolName: 'getOrder', input: { orderId: 'A-1001' } }] }
            : undefined,
      ],
    });
    expect((await generateText({ model, tools, prompt: 'ping' })).text).toBe('pong');
    await generateText({ model, tools, prompt: 'do the magic', stopWhen: isStepCount(2) });
    expect(getOrder).toHaveBeenCalledWith({ orderId: 'A-1001' }, expect.anything());
  });

  it('is deterministic (with deterministicIds, its call ids too) and gives each step its own tool call id', async () => {
    const { tools } = orderTools();
    const run = (deterministicIds?: boolean) =>
      generateText({
        model: createOfflineModel(deterministicIds === undefined ? {} : { deterministicIds }),
        tools,
        prompt: '/getOrder {"orderId":"A-1001"}',
        stopWhen: isStepCount(2),
      });
    const [a, b] = await Promise.all([run(true), run(true)]);
    expect(a.text).toBe(b.text);
    expect(a.toolCalls[0]?.toolCallId).toBe(b.toolCalls[0]?.toolCallId);
    expect(a.steps[1]?.response.id).not.toBe(a.steps[0]?.response.id);
    // By default the same prompt (a regenerated answer) gets other call ids: the answer it replaces may have recorded
    // results under its ids, which the history no longer shows.
    const [c, d] = await Promise.all([run(), run()]);
    expect(c.text).toBe(a.text);
    expect(c.toolCalls[0]?.toolCallId).toMatch(/^call_\w+_0_[0-9a-f]{8}$/);
    expect(c.toolCalls[0]?.toolCallId).not.toBe(d.toolCalls[0]?.toolCallId);
  });

  it('stops streaming when aborted mid-answer', async () => {
    const controller = new AbortController();
    const onAbort = vi.fn();
    const result = streamText({
      model: createOfflineModel({ delayMs: 20, wordsPerChunk: 1 }),
      prompt: 'Tell me everything you can do for me today, in detail',
      abortSignal: controller.signal,
      onAbort,
    });
    const chunks: string[] = [];
    for await (const chunk of toUIMessageStream({ stream: result.stream })) {
      chunks.push(chunk.type);
      if (chunks.filter((type) => type === 'text-delta').length === 2) controller.abort();
    }
    expect(chunks.filter((type) => type === 'text-delta')).toHaveLength(2);
    expect(chunks.at(-1)).toBe('abort');
    expect(onAbort).toHaveBeenCalledTimes(1);
    await expect(result.text).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('aborts promptly, without waiting out the pause between chunks', async () => {
    const controller = new AbortController();
    // An hour's pause: a stream that waited it out would not end within the test's time limit. No clock is read (a
    // busy machine can stall any wall-clock bound).
    const result = streamText({
      model: createOfflineModel({ delayMs: 3_600_000 }),
      prompt: 'hello',
      abortSignal: controller.signal,
    });
    const chunks: string[] = [];
    for await (const chunk of toUIMessageStream({ stream: result.stream })) {
      chunks.push(chunk.type);
      controller.abort();
    }
    expect(chunks.at(-1)).toBe('abort');
  });

  it('errors its own stream with the abort reason as soon as the signal fires', async () => {
    const controller = new AbortController();
    // As above: the hour's pause is what a stream that ignored the signal would wait out.
    const { stream } = await createOfflineModel({ delayMs: 3_600_000 }).doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      abortSignal: controller.signal,
    });
    const reader = stream.getReader();
    expect((await reader.read()).value?.type).toBe('stream-start');
    const next = reader.read();
    controller.abort(new Error('stop pressed'));
    await expect(next).rejects.toThrow('stop pressed');
  });

  it('answers a new question even when earlier turns ended with tool results', async () => {
    const { tools, listDelayed } = orderTools();
    const model = createOfflineModel();
    const first = await generateText({ model, tools, prompt: 'Where is order A-1001?', stopWhen: isStepCount(2) });
    const second = await generateText({
      model,
      tools,
      messages: [
        { role: 'user', content: 'Where is order A-1001?' },
        ...first.responseMessages,
        { role: 'user', content: 'Which orders are delayed?' },
      ],
      stopWhen: isStepCount(2),
    });
    expect(listDelayed).toHaveBeenCalledTimes(1);
    expect(second.text).toContain('listDelayedOrders returned 2 results');
  });

  it('adds the item the placeholder suggests to the cart, and reads the item from a reply', async () => {
    const { cart_add, cart_list } = cartTools();
    const tools = { cart_list, cart_add };
    const model = createOfflineModel();
    const calls = async (prompt: string) =>
      (await generateText({ model, tools, prompt })).toolCalls.map((call) => [call.toolName, call.input]);
    expect(await calls('add 2 coffee beans to my cart')).toEqual([['cart_add', { quantity: 2, name: 'coffee beans' }]]);
    expect(await calls('put 3 mugs in my cart')).toEqual([['cart_add', { quantity: 3, name: 'mugs' }]]);
    expect(await calls('add a notebook to the cart')).toEqual([['cart_add', { name: 'notebook' }]]);

    const ask = await generateText({ model, tools, prompt: 'add something to my cart' });
    expect(ask.text).toContain('I still need the name');
    const reply = await generateText({
      model,
      tools,
      messages: [{ role: 'user', content: 'add something to my cart' }, ...ask.responseMessages, { role: 'user', content: 'coffee beans' }],
    });
    expect(reply.toolCalls.map((call) => call.input)).toEqual([{ name: 'coffee beans' }]);
  });

  it('shows the cart when asked what is in it, and still adds or empties when asked to', async () => {
    // In the order the demo's worker lists them: a tie between the cart tools must not fall to cart_add.
    const tools = cartTools();
    expect(Object.keys(tools)).toEqual(['cart_add', 'cart_list', 'cart_clear']);
    const model = createOfflineModel();
    const calls = async (prompt: string) =>
      (await generateText({ model, tools, prompt })).toolCalls.map((call) => [call.toolName, call.input]);
    for (const prompt of ['show my cart', "what's in my cart", 'What is in my cart?', 'Show me my cart, please', 'view my basket', 'how many items are in my cart?']) {
      expect(await calls(prompt), prompt).toEqual([['cart_list', {}]]);
    }
    expect(await calls('add 2 coffee beans to my cart')).toEqual([['cart_add', { quantity: 2, name: 'coffee beans' }]]);
    expect(await calls('put 3 mugs in my basket')).toEqual([['cart_add', { quantity: 3, name: 'mugs' }]]);
    expect(await calls('empty my cart')).toEqual([['cart_clear', {}]]);
    expect(await calls('remove everything from my cart')).toEqual([['cart_clear', {}]]);
  });

  it('answers a status question with the status and the delivery date, and an unknown id in plain words', async () => {
    const order = {
      id: 'A-1001',
      customer: 'Ada Lovelace',
      items: [{ sku: 'KB-87', name: 'Mechanical keyboard', qty: 1, unit_price: 89 }],
      status: 'shipped',
      delivery_date: '2026-11-28',
      delay_days: 0,
    };
    const queryOrder = tool({
      description: 'Look up one customer order by its id (format A-1001). Returns the customer, items, status and delivery date.',
      inputSchema: z.object({ order_id: z.string().regex(/^A-\d{4}$/) }),
      execute: async ({ order_id }) =>
        order_id === order.id
          ? { found: true, order }
          : { found: false, order_id, message: `No order "${order_id}" exists. Ask the user to check the id.` },
    });
    const ask = (prompt: string) =>
      generateText({ model: createOfflineModel(), tools: { query_order: queryOrder }, prompt, stopWhen: isStepCount(2) });
    const found = await ask('What is the status of order A-1001?');
    expect(found.text).toMatch(/^Order A-1001 is shipped, delivery date 2026-11-28\./);
    expect(found.text).not.toMatch(/\bresults?\b/);
    const missing = await ask('What is the status of order A-9999?');
    expect(missing.text).toBe("I couldn't find order A-9999. Could you check the id?");
  });

  it('reads a relative day against its clock (now) and says the date it read before the call', async () => {
    const { tools, changeDate } = orderTools();
    const model = createOfflineModel({ now: () => new Date('2026-11-20T23:30:00Z') });
    const result = await generateText({ model, tools, prompt: 'Postpone A-1001 to next Monday', stopWhen: isStepCount(2) });
    expect(changeDate.mock.calls.map((call) => call[0])).toEqual([{ orderId: 'A-1001', date: '2026-11-23' }]);
    expect(result.steps[0]?.text).toBe('Reading "next Monday" as 2026-11-23 (today is 2026-11-20 UTC).');
    // Without a clock of its own it reads the real one: tomorrow is one day after today, whatever today is.
    const { tools: others, changeDate: realChange } = orderTools();
    const before = new Date();
    await generateText({ model: createOfflineModel(), tools: others, prompt: 'Move A-1001 to tomorrow', stopWhen: isStepCount(1) });
    const tomorrow = (date: Date) => new Date(date.getTime() + 86_400_000).toISOString().slice(0, 10);
    expect([tomorrow(before), tomorrow(new Date())]).toContain(realChange.mock.calls[0]?.[0].date);
  });

  it('moves a date "by a week": looks the order up first, then changes it to its date plus seven days', async () => {
    const { tools, getOrder, changeDate } = orderTools();
    const result = await generateText({ model: createOfflineModel(), tools, prompt: 'Move A-1001 by a week', stopWhen: isStepCount(4) });
    expect(result.steps.map((step) => step.toolCalls.map((call) => call.toolName))).toEqual([['getOrder'], ['changeDeliveryDate'], []]);
    expect(getOrder.mock.calls.map((call) => call[0])).toEqual([{ orderId: 'A-1001' }]);
    // getOrder's A-1001 is due 2025-03-04.
    expect(changeDate.mock.calls.map((call) => call[0])).toEqual([{ orderId: 'A-1001', date: '2025-03-11' }]);
    expect(result.steps[0]?.text).toBe('Reading "by a week" as 7 days later than the date it has now, which I look up first.');
    expect(result.steps[1]?.text).toBe('A-1001 is due 2025-03-04; 7 days later is 2025-03-11.');
    expect(result.text).toContain('2025-03-11');
  });

  it('reads days added to a date or taken off it as a move from the date it has ("add 5 days", "two days earlier")', async () => {
    for (const [prompt, date, read] of [
      ['add 5 days to A-1001', '2025-03-09', 'Reading "add 5 days" as 5 days later'],
      ['A-1001 two days earlier', '2025-03-02', 'Reading "two days earlier" as 2 days earlier'],
      ['delay A-1001 by two weeks', '2025-03-18', 'Reading "by two weeks" as 14 days later'],
      ['push A-1001 back 3 days', '2025-03-07', 'Reading "back 3 days" as 3 days later'],
      ['take 2 days off A-1001', '2025-03-02', 'Reading "take 2 days off" as 2 days earlier'],
      ['Verschiebe A-1001 um 2 Tage nach vorne', '2025-03-02', 'Ich lese „um 2 Tage“ als 2 Tage früher'],
      ['décale A-1001 de trois jours', '2025-03-07', 'Je lis « de trois jours » comme 3 jours plus tard'],
    ] as const) {
      const { tools, changeDate } = orderTools();
      const result = await generateText({ model: createOfflineModel(), tools, prompt, stopWhen: isStepCount(3) });
      expect(result.steps.map((step) => step.toolCalls.map((call) => call.toolName)), prompt).toEqual([['getOrder'], ['changeDeliveryDate'], []]);
      expect(changeDate.mock.calls.map((call) => call[0]), prompt).toEqual([{ orderId: 'A-1001', date }]);
      expect(result.steps[0]?.text, prompt).toContain(read);
    }
    // With no order named, only the order is asked for: the days give the date once its own is read.
    const { tools, getOrder } = orderTools();
    const ask = await generateText({ model: createOfflineModel(), tools, prompt: 'add 5 days', stopWhen: isStepCount(1) });
    expect(ask.text).toBe('I can do that with changeDeliveryDate, but I still need the order id (for example #1234 or A-1001). Could you tell me?');
    const reply = await generateText({
      model: createOfflineModel(),
      tools,
      messages: [{ role: 'user', content: 'add 5 days' }, ...ask.responseMessages, { role: 'user', content: 'A-1001' }],
      stopWhen: isStepCount(1),
    });
    expect(reply.toolCalls.map((call) => [call.toolName, call.input])).toEqual([['getOrder', { orderId: 'A-1001' }]]);
    expect(getOrder).toHaveBeenCalledTimes(1);
  });

  it('names an id the tool does not take and says what its ids look like, from the schema, instead of asking for one again', async () => {
    const lookUp = vi.fn(async ({ order_id }: { order_id: string }) => ({ id: order_id, status: 'shipped' }));
    const tools = {
      query_order: tool({
        description: 'Look up one order by its id.',
        inputSchema: z.object({ order_id: z.string().regex(/^A-\d{4}$/).describe('The order id, e.g. A-1001') }),
        execute: lookUp,
      }),
    };
    const ask = await generateText({ model: createOfflineModel(), tools, prompt: 'What is the status of order Z-9999?', stopWhen: isStepCount(1) });
    expect(ask.toolCalls).toEqual([]);
    expect(ask.text).toBe('I can do that with query_order, but "Z-9999" is not an order id it takes: order ids look like A-1001. I still need the order id; could you check it?');
    // The reply is read with the request: the id it gives is looked up.
    const reply = await generateText({
      model: createOfflineModel(),
      tools,
      messages: [{ role: 'user', content: 'What is the status of order Z-9999?' }, ...ask.responseMessages, { role: 'user', content: 'oh, A-1003' }],
      stopWhen: isStepCount(1),
    });
    expect(reply.toolCalls.map((call) => [call.toolName, call.input])).toEqual([['query_order', { order_id: 'A-1003' }]]);
    // With no example in the schema, its pattern says it; in German, in German.
    const bare = { query_order: tool({ description: 'Look up one order.', inputSchema: z.object({ order_id: z.string().regex(/^ORD-\d+$/) }), execute: lookUp }) };
    const patterned = await generateText({ model: createOfflineModel(), tools: bare, prompt: 'where is order 1002', stopWhen: isStepCount(1) });
    expect(patterned.text).toBe('I can do that with query_order, but "1002" is not an order id it takes: order ids look like ^ORD-\\d+$. I still need the order id; could you check it?');
    const german = await generateText({ model: createOfflineModel(), tools, prompt: 'Wo ist meine Bestellung B-12?', stopWhen: isStepCount(1) });
    expect(german.text).toContain('„B-12“ hat nicht die Form, die es annimmt (so sieht sie aus: A-1001); dafür brauche ich noch die Bestellnummer.');
    // Only the id the tool takes was ever looked up.
    expect(lookUp.mock.calls.map((call) => call[0])).toEqual([{ order_id: 'A-1003' }]);
  });

  it('asks whether a number given for an id is the id of that number, and a yes looks that one up, in the language asked', async () => {
    const lookUp = vi.fn(async ({ order_id }: { order_id: string }) => ({ id: order_id, status: 'shipped' }));
    const tools = {
      query_order: tool({
        description: 'Look up one order by its id.',
        inputSchema: z.object({ order_id: z.string().regex(/^A-\d{4}$/).describe('The order id, e.g. A-1001') }),
        execute: lookUp,
      }),
    };
    const talk = async (request: string, reply: string) => {
      const ask = await generateText({ model: createOfflineModel(), tools, prompt: request, stopWhen: isStepCount(1) });
      const messages: ModelMessage[] = [{ role: 'user', content: request }, ...ask.responseMessages, { role: 'user', content: reply }];
      return { ask: ask.text, answer: await generateText({ model: createOfflineModel(), tools, messages, stopWhen: isStepCount(2) }) };
    };
    // A text that names no tool but gives an id is for the lookup of one order ("where is #1002" got the help text).
    const hash = await talk('where is #1002', 'yes');
    expect(hash.ask).toBe('I can do that with query_order, but "#1002" is not an order id it takes: order ids look like A-1001. Did you mean A-1002? If not, I still need the order id.');
    expect(hash.answer.toolCalls.map((call) => call.input)).toEqual([{ order_id: 'A-1002' }]);
    const german = await talk('Wo ist Bestellung 1002?', 'ja');
    expect(german.ask).toContain('„1002“ hat nicht die Form, die es annimmt (so sieht sie aus: A-1001). Meinst du A-1002? Wenn nicht, brauche ich noch die Bestellnummer.');
    expect(german.answer.text).toMatch(/^Bestellung A-1002 ist shipped/);
    const french = await talk('Où est la commande n° 1002 ?', 'oui');
    expect(french.ask).toContain('Vouliez-vous dire A-1002 ? Sinon, il me manque encore le numéro de commande.');
    // No guess for digits no such id has, or an id with letters of its own; a yes then asks again, and so does no yes.
    const short = await talk('status of #42', 'yes');
    expect(short.ask).toBe('I can do that with query_order, but "#42" is not an order id it takes: order ids look like A-1001. I still need the order id; could you check it?');
    expect(short.answer.toolCalls).toEqual([]);
    expect((await talk('where is order B-2001', 'yes')).answer.toolCalls).toEqual([]);
    expect((await talk('where is #1002', 'no, A-1004')).answer.toolCalls.map((call) => call.input)).toEqual([{ order_id: 'A-1004' }]);
    expect(lookUp.mock.calls.map((call) => call[0])).toEqual([{ order_id: 'A-1002' }, { order_id: 'A-1002' }, { order_id: 'A-1002' }, { order_id: 'A-1004' }]);
  });

  it('reads an id given as a thing to add ("put A-1001 in my cart") by looking it up, and adds nothing by that name', async () => {
    const lookUp = vi.fn(async ({ order_id }: { order_id: string }) => ({ id: order_id, items: [{ name: 'Desk mat', qty: 1 }] }));
    const query_order = tool({
      description: 'Look up one order by its id.',
      inputSchema: z.object({ order_id: z.string().regex(/^A-\d{4}$/) }),
      execute: lookUp,
    });
    const result = await generateText({ model: createOfflineModel(), tools: { ...cartTools(), query_order }, prompt: 'put A-1001 in my cart', stopWhen: isStepCount(1) });
    expect(result.toolCalls.map((call) => [call.toolName, call.input])).toEqual([['query_order', { order_id: 'A-1001' }]]);
    expect(result.text).toBe('A-1001 is an id, not an item for cart_add: I look it up with query_order first; then tell me which of its items to add.');
    // A name with a number in it is still a thing.
    const phone = await generateText({ model: createOfflineModel(), tools: { ...cartTools(), query_order }, prompt: 'add an iPhone 15 to my cart', stopWhen: isStepCount(1) });
    expect(phone.toolCalls.map((call) => [call.toolName, call.input])).toEqual([['cart_add', { name: 'iPhone 15' }]]);
  });

  it('clears no cart to take one item out of it, and clears it for all of them', async () => {
    const one = await generateText({ model: createOfflineModel(), tools: cartTools(), prompt: 'remove 2 coffee beans from my cart', stopWhen: isStepCount(1) });
    expect(one.toolCalls).toEqual([]);
    expect(one.text).toMatch(/^cart_clear removes everything at once, and no tool removes just "coffee beans"/);
    for (const prompt of ['remove everything from my cart', 'remove all the items from my basket', 'empty my cart']) {
      const all = await generateText({ model: createOfflineModel(), tools: cartTools(), prompt, stopWhen: isStepCount(1) });
      expect(all.toolCalls.map((call) => call.toolName), prompt).toEqual(['cart_clear']);
    }
  });

  it('makes one call per request of a message that makes several, and reads it as one when a request names no tool', async () => {
    const { tools, getOrder, listDelayed } = orderTools();
    await generateText({ model: createOfflineModel(), tools, prompt: 'Get order A-1001 and list the delayed orders', stopWhen: isStepCount(1) });
    expect([getOrder.mock.calls.length, listDelayed.mock.calls.length]).toEqual([1, 1]);
    const single = await generateText({ model: createOfflineModel(), tools, prompt: 'Get order A-1001 and hello', stopWhen: isStepCount(1) });
    expect(single.steps[0]?.toolCalls.map((call) => call.toolName)).toEqual(['getOrder']);
    expect(single.text).toBe('');
  });

  it('does the requests of a message that it reads, and names the ones no tool does, in the language asked', async () => {
    const { tools, getOrder } = orderTools();
    const run = (prompt: string) => generateText({ model: createOfflineModel(), tools: { ...tools, ...cartTools() }, prompt, stopWhen: isStepCount(1) });
    const taxi = await run('Get order A-1001 and book a taxi');
    expect(getOrder).toHaveBeenCalledWith({ orderId: 'A-1001' }, expect.anything());
    expect(taxi.text).toBe('I did not do "book a taxi": none of my tools does that.');
    expect((await run('Get order A-1001 and cancel A-1002')).text).toBe('I did not do "cancel A-1002": I have no tool for cancelling orders.');
    expect((await run('Zeig Bestellung A-1001 und buche ein Taxi')).text).toBe('„buche ein Taxi“ habe ich nicht erledigt: Das kann keines meiner Werkzeuge.');
    // An adding request with nothing after it that says where things go is a request of its own; "to my cart" after it
    // makes one list.
    const mugs = await run('Get order A-1001 and add 2 mugs');
    expect(mugs.toolCalls.map((call) => [call.toolName, call.input])).toEqual([
      ['getOrder', { orderId: 'A-1001' }],
      ['cart_add', { name: 'mugs', quantity: 2 }],
    ]);
    const list = await run('add 2 mugs and a notebook to my cart');
    expect(list.toolCalls.map((call) => call.input)).toEqual([{ name: 'mugs', quantity: 2 }, { name: 'notebook' }]);
    expect(list.text).toBe('');
  });

  it('does a request left without its message after a change ("… and email the customer") once the change is made, with what changed', async () => {
    const id = z.string().regex(/^A-\d{4}$/);
    const sent = vi.fn(async (input: { order_id: string; subject: string; body: string }) => ({ queued: true, ...input }));
    const mailer = tool({
      description: "Send an e-mail about an order to that order's customer.",
      inputSchema: z.object({ order_id: id, subject: z.string().min(1).describe('Subject line'), body: z.string().min(1).describe('Plain-text message body') }),
      execute: sent,
    });
    // The date the order has after the change, as its result gives it: an approver may have picked another one.
    const mover = (execute: (input: { order_id: string; new_date: string }) => Promise<unknown>) =>
      tool({
        description: 'Change the delivery date of an order to a new date.',
        inputSchema: z.object({ order_id: id, new_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
        execute,
      });
    const tools = { update_delivery_date: mover(async ({ order_id }) => ({ order_id, previous_date: '2026-11-25', delivery_date: '2026-12-28' })), send_email: mailer };
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const prompt = 'Move order A-1004 to next Friday and email the customer';
    const result = await generateText({ model, tools, prompt, stopWhen: isStepCount(3) });
    expect(result.steps.map((step) => step.toolCalls.map((call) => call.toolName))).toEqual([['update_delivery_date'], ['send_email'], []]);
    expect(result.steps[0]?.text).toBe(
      'Reading "next Friday" as 2026-11-27 (today is 2026-11-20 UTC). Once the change is made, I\'ll email the customer (send_email), saying what changed.',
    );
    expect(sent.mock.calls[0]?.[0]).toEqual({
      order_id: 'A-1004',
      body: 'The delivery date of your order A-1004 is now 2026-12-28.',
      subject: 'The delivery date of your order A-1004 is now 2026-12-28',
    });
    expect(result.steps[1]?.text).toMatch(/\n\nAs you asked, I now email the customer, saying what changed: "The delivery date of your order A-1004 is now 2026-12-28\."$/);
    // A change that fails sends nothing, and says so.
    sent.mockClear();
    const failing = { ...tools, update_delivery_date: mover(async () => Promise.reject(new Error('A-1004 is delivered'))) };
    const failed = await generateText({ model, tools: failing, prompt, stopWhen: isStepCount(3) });
    expect(sent).not.toHaveBeenCalled();
    expect(failed.text).toMatch(/\n\nI did not email the customer: the change was not made, so there is nothing new to say\.$/);
  });

  it('does "… and email the customer" after a lookup of one order once it is in, with the status and date it shows', async () => {
    const id = z.string().regex(/^A-\d{4}$/);
    const sent = vi.fn(async (input: { order_id: string; subject: string; body: string }) => ({ queued: true, ...input }));
    const orders: Record<string, unknown> = { 'A-1002': { order_id: 'A-1002', status: 'delayed', delivery_date: '2026-12-03', updated_at: '2026-11-20' } };
    const tools = {
      query_order: tool({
        description: 'Look up one customer order by its id.',
        inputSchema: z.object({ order_id: id }),
        execute: async ({ order_id }) => orders[order_id] ?? { found: false, order_id, message: 'No such order.' },
      }),
      send_email: tool({
        description: "Send an e-mail about an order to that order's customer.",
        inputSchema: z.object({ order_id: id, subject: z.string().min(1).describe('Subject line'), body: z.string().min(1).describe('Plain-text message body') }),
        execute: sent,
      }),
    };
    const model = createOfflineModel();
    const result = await generateText({ model, tools, prompt: 'Look up A-1002 and email the customer', stopWhen: isStepCount(3) });
    expect(result.steps.map((step) => step.toolCalls.map((call) => call.toolName))).toEqual([['query_order'], ['send_email'], []]);
    expect(result.steps[0]?.text).toBe("Once I have looked it up, I'll email the customer (send_email), saying what it shows.");
    expect(sent.mock.calls[0]?.[0]).toEqual({
      order_id: 'A-1002',
      body: 'Your order A-1002 is delayed, delivery date 2026-12-03.',
      subject: 'Your order A-1002 is delayed, delivery date 2026-12-03',
    });
    expect(result.steps[1]?.text).toMatch(/\n\nAs you asked, I now email the customer, saying what the lookup shows: "Your order A-1002 is delayed, delivery date 2026-12-03\."$/);
    // A lookup that finds nothing mails nothing, and says so; a list is no one order to write about.
    sent.mockClear();
    const missing = await generateText({ model, tools, prompt: 'check A-1009 and let the customer know', stopWhen: isStepCount(3) });
    expect(sent).not.toHaveBeenCalled();
    expect(missing.text).toMatch(/\n\nI did not let the customer know: the lookup gave nothing to tell them\.$/);
  });

  it('looks the order up first for a mail that says what it is for ("to apologise for the delay", in German and French too), and mails that with what it shows', async () => {
    const id = z.string().regex(/^A-\d{4}$/);
    const sent = vi.fn(async (input: { order_id: string; subject: string; body: string }) => ({ queued: true, ...input }));
    const tools = {
      query_order: tool({
        description: 'Look up one customer order by its id.',
        inputSchema: z.object({ order_id: id }),
        execute: async ({ order_id }) => ({ order_id, status: 'delayed', delivery_date: '2026-12-03' }),
      }),
      send_email: tool({
        description: "Send an e-mail about an order to that order's customer.",
        inputSchema: z.object({ order_id: id, subject: z.string().min(1).describe('Subject line'), body: z.string().min(1).describe('Plain-text message body') }),
        execute: sent,
      }),
    };
    const model = createOfflineModel();
    const result = await generateText({ model, tools, prompt: 'email the customer of A-1002 to apologise for the delay', stopWhen: isStepCount(3) });
    expect(result.steps.map((step) => step.toolCalls.map((call) => call.toolName))).toEqual([['query_order'], ['send_email'], []]);
    expect(sent.mock.calls[0]?.[0]).toEqual({
      order_id: 'A-1002',
      body: 'We apologise for the delay. Your order A-1002 is delayed, delivery date 2026-12-03.',
      subject: 'We apologise for the delay',
    });
    const mail = async (prompt: string) => {
      sent.mockClear();
      await generateText({ model, tools, prompt, stopWhen: isStepCount(3) });
      return sent.mock.calls[0]?.[0].body;
    };
    expect(await mail('write to the customer of A-1002 to say sorry for the wait')).toBe('We are sorry for the wait. Your order A-1002 is delayed, delivery date 2026-12-03.');
    expect(await mail('email the customer of A-1002 to thank them for their patience')).toBe(
      'Thank you for your patience. Your order A-1002 is delayed, delivery date 2026-12-03.',
    );
    // In German and French, worded in that language (the values are the tool's).
    expect(await mail('Schreib dem Kunden von A-1002, um sich für die Verspätung zu entschuldigen')).toBe(
      'Wir entschuldigen uns für die Verspätung. Ihre Bestellung A-1002 ist delayed, Lieferdatum 2026-12-03.',
    );
    expect(await mail('Schreib dem Kunden von A-1002, um ihm für seine Geduld zu danken')).toBe('Vielen Dank für Ihre Geduld. Ihre Bestellung A-1002 ist delayed, Lieferdatum 2026-12-03.');
    expect(await mail("Écris au client de A-1002 pour s'excuser du retard")).toBe('Nous nous excusons du retard. Votre commande A-1002 est delayed, date de livraison 2026-12-03.');
    expect(await mail('Écris au client de A-1002 pour le remercier de sa patience')).toBe('Merci de votre patience. Votre commande A-1002 est delayed, date de livraison 2026-12-03.');
    // What to say, given after "dass" (in a main clause's order) or "que", is the mail itself, with no lookup.
    expect(await mail('Schreib dem Kunden von A-1002, dass die Lieferung sich verzögert')).toBe('die Lieferung verzögert sich');
    expect(await mail('Écris au client de A-1002 que la livraison est retardée')).toBe('la livraison est retardée');
    // After a message about the order, "the customer" is its customer.
    const first = await generateText({ model, tools, prompt: 'where is A-1002', stopWhen: isStepCount(2) });
    const messages: ModelMessage[] = [
      { role: 'user', content: 'where is A-1002' },
      ...first.responseMessages,
      { role: 'user', content: 'email the customer to apologise for the delay' },
    ];
    const referred = await generateText({ model, tools, messages, stopWhen: isStepCount(1) });
    expect(referred.text).toMatch(/^Reading "the customer" as A-1002, from earlier in our conversation\. Once I have looked it up/);
    expect(referred.toolCalls.map((call) => [call.toolName, call.input])).toEqual([['query_order', { order_id: 'A-1002' }]]);
  });

  it('reads "it", "its", "that order", "the customer" as the one order named before in the conversation ("both" as the two), and says so', async () => {
    const id = z.string().regex(/^A-\d{4}$/).describe('The order id, e.g. A-1001');
    const tools = {
      query_order: tool({
        description: 'Look up one order by its id.',
        inputSchema: z.object({ order_id: id }),
        execute: async ({ order_id }) => ({ id: order_id, status: 'delayed', delivery_date: '2026-12-03' }),
      }),
      order_invoice: tool({ description: 'Make the invoice of one order.', inputSchema: z.object({ order_id: id }), execute: async () => ({ total: 10 }) }),
      update_delivery_date: tool({
        description: 'Change the delivery date of an order to a new date.',
        inputSchema: z.object({ order_id: id, new_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
        execute: async ({ order_id, new_date }) => ({ order_id, delivery_date: new_date }),
      }),
      send_email: tool({
        description: "Send an e-mail about an order to that order's customer.",
        inputSchema: z.object({ order_id: id, subject: z.string().min(1).describe('Subject line'), body: z.string().min(1).describe('Plain-text message body') }),
        execute: async () => ({ queued: true }),
      }),
    };
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const followUp = conversation(model, tools);
    const moved = await followUp('where is A-1002', 'move it to Friday');
    expect(moved.calls).toEqual([['update_delivery_date', { order_id: 'A-1002', new_date: '2026-11-27' }]]);
    expect(moved.text).toBe('Reading "it" as A-1002, from earlier in our conversation. Reading "Friday" as 2026-11-27 (today is 2026-11-20 UTC).');
    expect((await followUp('where is A-1002', 'and its invoice?')).calls).toEqual([['order_invoice', { order_id: 'A-1002' }]]);
    expect((await followUp('show me A-1003', 'email the customer that it is late')).calls).toEqual([
      ['send_email', { order_id: 'A-1003', body: 'it is late', subject: 'It is late' }],
    ]);
    // A shift of that order looks it up first, as for an order named in the text.
    const shift = await followUp('show me A-1003', 'push that order back a week');
    expect(shift.calls).toEqual([['query_order', { order_id: 'A-1003' }]]);
    expect(shift.text).toMatch(/^Reading "that" as A-1003, from earlier in our conversation\. Reading "back a week" as 7 days later/);
    expect((await followUp('Wo ist A-1002?', 'Verschiebe sie auf Freitag')).text).toMatch(/^Ich lese „sie“ als A-1002 aus unserem Gespräch\./);
    // Two orders named before, or none: the order is asked for, as before.
    const asked = 'I can do that with update_delivery_date, but I still need the order id (for example A-1001). Could you tell me?';
    expect((await followUp('where are A-1002 and A-1003?', 'move it to Friday')).text).toBe(asked);
    expect((await followUp('what time is it in Tokyo', 'move it to Friday')).text).toBe(asked);
    // No word that refers back: the one order of the last message, when it was about that order and nothing else.
    const bare = await followUp('where is A-1002', 'move to Friday');
    expect(bare.calls).toEqual([['update_delivery_date', { order_id: 'A-1002', new_date: '2026-11-27' }]]);
    expect(bare.text).toBe('Reading this as about A-1002, as your last message was. Reading "Friday" as 2026-11-27 (today is 2026-11-20 UTC).');
    expect((await followUp('Wo ist A-1002?', 'Verschiebe auf Freitag')).text).toMatch(/^Ich beziehe das auf A-1002, wie deine letzte Nachricht\./);
    expect((await followUp('where are A-1002 and A-1003?', 'move to Friday')).text).toBe(asked);
    expect((await followUp('where is A-1002 and what time is it in Tokyo?', 'move to Friday')).text).toBe(asked);
    // Thanks or a greeting beside the request is no other request.
    for (const first of ['where is A-1002 and thanks', 'hello and where is A-1002', 'where is A-1002 and good day', 'Wo ist A-1002 und vielen Dank']) {
      expect((await followUp(first, 'move to Friday')).calls, first).toEqual([['update_delivery_date', { order_id: 'A-1002', new_date: '2026-11-27' }]]);
    }
    // "both", "them" after two orders: each of them, in one call each (each approved as usual).
    const both = await followUp('where are A-1002 and A-1003?', 'move both to Dec 1');
    expect(both.calls).toEqual([
      ['update_delivery_date', { order_id: 'A-1002', new_date: '2026-12-01' }],
      ['update_delivery_date', { order_id: 'A-1003', new_date: '2026-12-01' }],
    ]);
    expect(both.text).toBe('Reading "both" as A-1002 and A-1003, from earlier in our conversation. Reading "Dec 1" as 2026-12-01 (today is 2026-11-20 UTC).');
    expect((await followUp('Wo sind A-1002 und A-1003?', 'Verschiebe beide auf Freitag')).text).toMatch(/^Ich lese „beide“ als A-1002 und A-1003 aus unserem Gespräch\./);
    expect((await followUp('where are A-1002 and A-1003?', 'and their invoices?')).calls).toEqual([
      ['order_invoice', { order_id: 'A-1002' }],
      ['order_invoice', { order_id: 'A-1003' }],
    ]);
    // "both" after two messages of one order each: those two.
    const asked1 = await generateText({ model, tools, prompt: 'where is A-1002', stopWhen: isStepCount(2) });
    const history: ModelMessage[] = [{ role: 'user', content: 'where is A-1002' }, ...asked1.responseMessages, { role: 'user', content: 'and A-1003?' }];
    const asked2 = await generateText({ model, tools, messages: history, stopWhen: isStepCount(2) });
    const moved2 = await generateText({ model, tools, messages: [...history, ...asked2.responseMessages, { role: 'user', content: 'move both to Friday' }], stopWhen: isStepCount(1) });
    expect(moved2.toolCalls.map((call) => call.input)).toEqual([
      { order_id: 'A-1002', new_date: '2026-11-27' },
      { order_id: 'A-1003', new_date: '2026-11-27' },
    ]);
    // One order named before: "both" is that one, read as the last message's.
    expect((await followUp('where is A-1002', 'move both to Friday')).calls).toEqual([['update_delivery_date', { order_id: 'A-1002', new_date: '2026-11-27' }]]);
  });

  it('reads a question about "it" or with no tool of its own as about the one order of the conversation ("is it late?")', async () => {
    const id = z.string().regex(/^A-\d{4}$/);
    const tools = {
      query_order: tool({
        description: 'Look up one order by its id; returns its status, delivery date and how many days it is delayed.',
        inputSchema: z.object({ order_id: id }),
        execute: async ({ order_id }) => ({ order_id, status: 'delayed', delivery_date: '2026-12-05', delay_days: 1 }),
      }),
      list_delayed_orders: tool({ description: 'List the orders running late.', inputSchema: z.object({}), execute: async () => [] }),
      browser_time_zone: tool({ description: "The user's own time zone and local time.", inputSchema: z.object({}), execute: async () => ({ zone: 'UTC' }) }),
      update_delivery_date: tool({
        description: 'Change the delivery date of an order to a new date.',
        inputSchema: z.object({ order_id: id, new_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
        execute: async ({ order_id, new_date }) => ({ order_id, delivery_date: new_date }),
      }),
    };
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const next = conversation(model, tools);
    expect(await next('status of A-1010', 'is it late?')).toEqual({
      text: 'Reading "it" as A-1010, from earlier in our conversation.',
      calls: [['query_order', { order_id: 'A-1010' }]],
    });
    expect((await next('status of A-1010', 'when will it arrive?')).calls).toEqual([['query_order', { order_id: 'A-1010' }]]);
    expect((await next('status of A-1010', 'by how many days?')).calls).toEqual([['query_order', { order_id: 'A-1010' }]]);
    // The list itself, a clock's "it", or no question: read as before.
    expect((await next('status of A-1010', 'any other late orders?')).calls).toEqual([['list_delayed_orders', {}]]);
    expect((await next('status of A-1010', 'what time is it?')).calls).toEqual([['browser_time_zone', {}]]);
    expect((await next('status of A-1010', 'never mind')).calls).toEqual([]);
    // A question with a word of a change ("delivered") asks what is, not for a change it lacks a date for.
    expect((await next('where is A-1009', 'when was it delivered?')).calls).toEqual([['query_order', { order_id: 'A-1009' }]]);
    expect((await next('where is A-1009', 'move it?')).text).toMatch(/I still need the new date/);
  });

  it('mails what the last message changed, looked up or made when a mail of the next one says nothing ("email the customer about it")', async () => {
    const id = z.string().regex(/^A-\d{4}$/);
    const tools = {
      query_order: tool({
        description: 'Look up one order by its id.',
        inputSchema: z.object({ order_id: id }),
        execute: async ({ order_id }) => ({ order_id, status: 'delayed', delivery_date: '2026-12-03' }),
      }),
      update_delivery_date: tool({
        description: 'Change the delivery date of an order to a new date.',
        inputSchema: z.object({ order_id: id, new_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
        execute: async ({ order_id, new_date }) => ({ order_id, previous_date: '2026-12-10', delivery_date: new_date }),
      }),
      send_email: tool({
        description: "Send an e-mail about an order to that order's customer.",
        inputSchema: z.object({ order_id: id, subject: z.string().min(1).describe('Subject line'), body: z.string().min(1).describe('Plain-text message body') }),
        execute: async () => ({ queued: true }),
      }),
    };
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const next = conversation(model, tools);
    const moved = await next('move A-1003 to Friday', 'and email the customer about it');
    expect(moved.calls).toEqual([
      ['send_email', { order_id: 'A-1003', body: 'The delivery date of your order A-1003 is now 2026-11-27.', subject: 'The delivery date of your order A-1003 is now 2026-11-27' }],
    ]);
    expect(moved.text).toBe(
      'Reading "the customer" as A-1003, from earlier in our conversation. Using send_email, I say what changed: "The delivery date of your order A-1003 is now 2026-11-27."',
    );
    // "them" after two changes: a mail each, saying what changed for it.
    expect((await next('move A-1003 to friday and A-1004 to monday', 'email them about it')).calls).toEqual([
      ['send_email', { order_id: 'A-1003', body: 'The delivery date of your order A-1003 is now 2026-11-27.', subject: 'The delivery date of your order A-1003 is now 2026-11-27' }],
      ['send_email', { order_id: 'A-1004', body: 'The delivery date of your order A-1004 is now 2026-11-23.', subject: 'The delivery date of your order A-1004 is now 2026-11-23' }],
    ]);
    // In German and French, the sentence is theirs (the date is the tool's).
    expect((await next('Verschiebe A-1003 auf Freitag', 'Schreib dem Kunden davon')).calls).toEqual([
      ['send_email', { order_id: 'A-1003', body: 'Neues Lieferdatum für Ihre Bestellung A-1003: 2026-11-27.', subject: 'Neues Lieferdatum für Ihre Bestellung A-1003: 2026-11-27' }],
    ]);
    expect((await next('Reporte A-1003 à vendredi', 'Écris au client pour le prévenir')).calls[0]?.[1]).toMatchObject({ body: 'Nouvelle date de livraison pour votre commande A-1003 : 2026-11-27.' });
    const looked = await next('where is A-1002', 'let the customer know');
    expect(looked.calls).toEqual([
      ['send_email', { order_id: 'A-1002', body: 'Your order A-1002 is delayed, delivery date 2026-12-03.', subject: 'Your order A-1002 is delayed, delivery date 2026-12-03' }],
    ]);
    // What to say, when given, is said; nothing changed or looked up before: the message is asked for.
    expect((await next('where is A-1002', 'email the customer that it ships soon')).calls).toEqual([
      ['send_email', { order_id: 'A-1002', body: 'it ships soon', subject: 'It ships soon' }],
    ]);
    expect((await next('what time is it', 'email the customer of A-1002')).text).toMatch(/I still need the subject \(Subject line\) and the body/);
    // After an invoice was made: what it holds (the text it gave the model), under a subject that names it.
    const invoiced = async (text: string) => {
      const offline = createOfflineModel({ deterministicIds: true });
      const summary = 'Invoice INV-A-1001 of order A-1001 for Ada Lovelace, dated 2026-11-20: 1 x Mechanical keyboard (KB-87); total 89.00 EUR.';
      const { content } = await offline.doGenerate({
        prompt: [
          { role: 'user', content: [{ type: 'text', text: 'invoice for A-1001' }] },
          { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'order_invoice', input: { order_id: 'A-1001' } }] },
          {
            role: 'tool',
            content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'order_invoice', output: { type: 'content', value: [{ type: 'text', text: `${summary}\n[document: invoice-A-1001.pdf, application/pdf, 1.9 KB]` }, { type: 'file-data', data: 'JVBERi0=', mediaType: 'application/pdf' }] } }],
          },
          { role: 'assistant', content: [{ type: 'text', text: summary }] },
          { role: 'user', content: [{ type: 'text', text }] },
        ],
        tools: [
          { type: 'function', name: 'order_invoice', description: 'Make the invoice of one order as a PDF.', inputSchema: { type: 'object', properties: { order_id: { type: 'string', pattern: '^A-\\d{4}$' } }, required: ['order_id'] } },
          {
            type: 'function',
            name: 'send_email',
            description: "Send an e-mail about an order to that order's customer.",
            inputSchema: {
              type: 'object',
              properties: { order_id: { type: 'string', pattern: '^A-\\d{4}$' }, subject: { type: 'string', description: 'Subject line' }, body: { type: 'string', description: 'Plain-text message body' } },
              required: ['order_id', 'subject', 'body'],
            },
          },
        ],
      } as Parameters<typeof offline.doGenerate>[0]);
      return content.flatMap((part) => (part.type === 'tool-call' ? [[part.toolName, JSON.parse(part.input)]] : []));
    };
    const body = 'Invoice INV-A-1001 of order A-1001 for Ada Lovelace, dated 2026-11-20: 1 x Mechanical keyboard (KB-87); total 89.00 EUR.';
    expect(await invoiced('email it to the customer')).toEqual([['send_email', { order_id: 'A-1001', subject: 'Your invoice for order A-1001', body }]]);
    expect(await invoiced('send it to the customer')).toEqual([['send_email', { order_id: 'A-1001', subject: 'Your invoice for order A-1001', body }]]);
    expect(await invoiced('schick sie dem Kunden')).toEqual([['send_email', { order_id: 'A-1001', subject: 'Ihre Rechnung für Bestellung A-1001', body }]]);
  });

  it('makes the last call again with the value a follow-up gives ("and for A-1001?", "ok then Dec 15", "the day after then" after a denial), and says so', async () => {
    const id = { type: 'string', pattern: '^A-\\d{4}$' };
    const tools = [
      { type: 'function' as const, name: 'query_order', description: 'Look up one order by its id.', inputSchema: { type: 'object', properties: { order_id: id }, required: ['order_id'] } },
      { type: 'function' as const, name: 'order_invoice', description: 'Make the invoice of one order.', inputSchema: { type: 'object', properties: { order_id: id }, required: ['order_id'] } },
      {
        type: 'function' as const,
        name: 'update_delivery_date',
        description: 'Change the delivery date of an order to a new date.',
        inputSchema: { type: 'object', properties: { order_id: id, new_date: { type: 'string', format: 'date' } }, required: ['order_id', 'new_date'] },
      },
    ];
    const model = createOfflineModel({ deterministicIds: true, now: () => new Date('2026-11-20T12:00:00Z') });
    const turn = async (before: { readonly call: string; readonly input: object; readonly output: object }, asked: string, next: string) => {
      const { content } = await model.doGenerate({
        prompt: [
          { role: 'user', content: [{ type: 'text', text: asked }] },
          { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: before.call, input: before.input }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: before.call, output: before.output as never }] },
          { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
          { role: 'user', content: [{ type: 'text', text: next }] },
        ],
        tools,
      } as Parameters<typeof model.doGenerate>[0]);
      const text = content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
      return { text, calls: content.flatMap((part) => (part.type === 'tool-call' ? [[part.toolName, JSON.parse(part.input)]] : [])) };
    };
    const invoice = { call: 'order_invoice', input: { order_id: 'A-1003' }, output: { type: 'json', value: { total: 10 } } };
    expect(await turn(invoice, 'invoice for A-1003', 'and for A-1001?')).toEqual({
      text: 'As before with order_invoice, now with A-1001.',
      calls: [['order_invoice', { order_id: 'A-1001' }]],
    });
    expect((await turn(invoice, 'Rechnung für A-1003', 'und für A-1001?')).text).toBe('Wie zuvor mit order_invoice, jetzt mit A-1001.');
    const denied = { call: 'update_delivery_date', input: { order_id: 'A-1012', new_date: '2026-12-10' }, output: { type: 'execution-denied' } };
    expect(await turn(denied, 'move A-1012 to Dec 10', 'ok then Dec 15')).toEqual({
      text: 'Reading "Dec 15" as 2026-12-15 (today is 2026-11-20 UTC). As before with update_delivery_date, now with 2026-12-15.',
      calls: [['update_delivery_date', { order_id: 'A-1012', new_date: '2026-12-15' }]],
    });
    expect((await turn(denied, 'move A-1012 to Dec 10', 'Saturday')).calls).toEqual([['update_delivery_date', { order_id: 'A-1012', new_date: '2026-11-21' }]]);
    // A request of its own, or a value the call does not take, is read as it is.
    expect((await turn(denied, 'move A-1012 to Dec 10', 'where is A-1004')).calls).toEqual([['query_order', { order_id: 'A-1004' }]]);
    expect((await turn(invoice, 'invoice for A-1003', 'A1006')).calls).toEqual([['query_order', { order_id: 'A-1006' }]]);
    expect((await turn(invoice, 'invoice for A-1003', 'and tomorrow?')).calls).toEqual([]);
    // A move still waiting for approval is not in what the model reads: its request is read again, with the new value.
    const waiting = async (asked: string, next: string) => {
      const { content } = await model.doGenerate({
        prompt: [
          { role: 'user', content: [{ type: 'text', text: asked }] },
          { role: 'assistant', content: [{ type: 'text', text: 'Reading "tomorrow" as 2026-11-21 (today is 2026-11-20 UTC).' }] },
          { role: 'user', content: [{ type: 'text', text: next }] },
        ],
        tools,
      } as Parameters<typeof model.doGenerate>[0]);
      return content.flatMap((part) => (part.type === 'tool-call' ? [[part.toolName, JSON.parse(part.input)]] : []));
    };
    expect(await waiting('move A-1003 to tomorrow', 'no wait, Friday')).toEqual([['update_delivery_date', { order_id: 'A-1003', new_date: '2026-11-27' }]]);
    expect(await waiting('Verschiebe A-1003 auf morgen', 'nein, lieber Sonntag')).toEqual([['update_delivery_date', { order_id: 'A-1003', new_date: '2026-11-22' }]]);
    expect(await waiting('move A-1003', 'no wait, Friday')).toEqual([]);
    expect(await waiting('Verschiebe A-1003 auf morgen', 'nein, doch lieber Montag')).toEqual([['update_delivery_date', { order_id: 'A-1003', new_date: '2026-11-23' }]]);
    // The day next to the one asked: the same order, a day after (or before) the date the denied move asked for.
    expect(await turn(denied, 'move A-1012 to Dec 10', 'the day after then')).toEqual({
      text: 'As before with update_delivery_date, now with 2026-12-11.',
      calls: [['update_delivery_date', { order_id: 'A-1012', new_date: '2026-12-11' }]],
    });
    const failed = { ...denied, output: { type: 'error-text', value: 'Order A-1012 is already scheduled for 2026-12-10.' } };
    expect((await turn(failed, 'move A-1012 to Dec 10', 'ok, the day before')).calls).toEqual([['update_delivery_date', { order_id: 'A-1012', new_date: '2026-12-09' }]]);
    expect((await turn(denied, 'verschiebe A-1012 auf den 10. Dezember', 'dann am Tag danach')).calls).toEqual([['update_delivery_date', { order_id: 'A-1012', new_date: '2026-12-11' }]]);
    expect((await turn(denied, 'move A-1012 to Dec 10', 'two days later then')).calls).toEqual([['update_delivery_date', { order_id: 'A-1012', new_date: '2026-12-12' }]]);
    // A day of its own, or another order, is read as it is; after a call that took no day there is nothing to move.
    expect((await turn(denied, 'move A-1012 to Dec 10', 'the day after tomorrow then')).calls).toEqual([['update_delivery_date', { order_id: 'A-1012', new_date: '2026-11-22' }]]);
    expect((await turn(invoice, 'invoice for A-1003', 'the day after then')).calls).not.toContainEqual(expect.arrayContaining(['order_invoice']));
  });

  it('asks the list the message before asked for again with a bound ("top 3 only", "which one is the worst?", "more than a week?")', async () => {
    const tools = [
      {
        type: 'function' as const,
        name: 'list_delayed_orders',
        description: 'List the orders running late, most delayed first.',
        inputSchema: { type: 'object', properties: { days_threshold: { type: 'integer', description: 'Minimum delay in days' }, limit: { type: 'integer', description: 'How many to list' } } },
      },
      { type: 'function' as const, name: 'query_order', description: 'Look up one order by its id.', inputSchema: { type: 'object', properties: { order_id: { type: 'string', pattern: '^A-\\d{4}$' } }, required: ['order_id'] } },
    ];
    const model = createOfflineModel({ deterministicIds: true });
    const next = async (call: string, input: object, text: string) => {
      const { content } = await model.doGenerate({
        prompt: [
          { role: 'user', content: [{ type: 'text', text: 'first' }] },
          { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: call, input }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: call, output: { type: 'json', value: { count: 6 } } }] },
          { role: 'assistant', content: [{ type: 'text', text: 'Six are late.' }] },
          { role: 'user', content: [{ type: 'text', text }] },
        ],
        tools,
      } as Parameters<typeof model.doGenerate>[0]);
      const said = content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
      return { said, calls: content.flatMap((part) => (part.type === 'tool-call' ? [[part.toolName, JSON.parse(part.input)]] : [])) };
    };
    expect(await next('list_delayed_orders', {}, 'top 3 only')).toEqual({
      said: 'As before with list_delayed_orders, now with limit 3.',
      calls: [['list_delayed_orders', { limit: 3 }]],
    });
    expect((await next('list_delayed_orders', { days_threshold: 4 }, 'just the first two')).calls).toEqual([['list_delayed_orders', { days_threshold: 4, limit: 2 }]]);
    expect((await next('list_delayed_orders', {}, 'which one is the worst?')).calls).toEqual([['list_delayed_orders', { limit: 1 }]]);
    expect((await next('list_delayed_orders', {}, 'welche ist am schlimmsten?')).calls).toEqual([['list_delayed_orders', { limit: 1 }]]);
    expect(await next('list_delayed_orders', {}, 'die ersten zwei reichen')).toEqual({
      said: 'Wie zuvor mit list_delayed_orders, jetzt mit limit 2.',
      calls: [['list_delayed_orders', { limit: 2 }]],
    });
    expect((await next('list_delayed_orders', {}, 'nur die ersten drei')).calls).toEqual([['list_delayed_orders', { limit: 3 }]]);
    expect((await next('list_delayed_orders', {}, 'seulement les deux premières')).calls).toEqual([['list_delayed_orders', { limit: 2 }]]);
    // A minimum, said in words of what it bounds, too.
    expect(await next('list_delayed_orders', { limit: 3 }, 'what about more than a week?')).toEqual({
      said: 'As before with list_delayed_orders, now with days threshold 8.',
      calls: [['list_delayed_orders', { limit: 3, days_threshold: 8 }]],
    });
    expect((await next('list_delayed_orders', {}, 'and 2 bananas')).calls).toEqual([]);
    expect((await next('list_delayed_orders', {}, 'only 3')).calls).toEqual([['list_delayed_orders', { limit: 3 }]]);
    // A member of the list by its place: "the worst one" is the first (most delayed first), "the second one" the next.
    const member = async (text: string) => {
      const { content } = await model.doGenerate({
        prompt: [
          { role: 'user', content: [{ type: 'text', text: 'show me the delays' }] },
          { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'list_delayed_orders', input: {} }] },
          {
            role: 'tool',
            content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'list_delayed_orders', output: { type: 'json', value: { count: 2, orders: [{ id: 'A-1012' }, { id: 'A-1006' }] } } }],
          },
          { role: 'user', content: [{ type: 'text', text }] },
        ],
        tools: [
          ...tools,
          {
            type: 'function' as const,
            name: 'send_email',
            description: "Send an e-mail about an order to that order's customer.",
            inputSchema: {
              type: 'object',
              properties: { order_id: { type: 'string', pattern: '^A-\\d{4}$' }, subject: { type: 'string' }, body: { type: 'string' } },
              required: ['order_id', 'subject', 'body'],
            },
          },
        ],
      } as Parameters<typeof model.doGenerate>[0]);
      return content.flatMap((part) => (part.type === 'tool-call' ? [[part.toolName, JSON.parse(part.input)]] : []));
    };
    expect(await member("email the worst one's customer that we are sorry")).toEqual([['send_email', { order_id: 'A-1012', body: 'we are sorry', subject: 'We are sorry' }]]);
    expect(await member('where is the second one?')).toEqual([['query_order', { order_id: 'A-1006' }]]);
    expect((await next('list_delayed_orders', {}, 'only 3 days late')).calls).not.toContainEqual(['list_delayed_orders', { limit: 3 }]);
    // After a lookup there is no list to cut, and a plural superlative is no one record.
    expect((await next('query_order', { order_id: 'A-1002' }, 'top 3 only')).calls).toEqual([]);
    expect((await next('list_delayed_orders', {}, 'which orders are most late?')).calls).toEqual([['list_delayed_orders', {}]]);
  });

  it('leaves a request undone on "never mind", "cancel that", "lass es", "laisse tomber", and says so in the language asked', async () => {
    const id = { type: 'string', pattern: '^A-\\d{4}$' };
    const tools = [
      { type: 'function' as const, name: 'query_order', description: 'Look up one order by its id.', inputSchema: { type: 'object', properties: { order_id: id }, required: ['order_id'] } },
      {
        type: 'function' as const,
        name: 'update_delivery_date',
        description: 'Change the delivery date of an order to a new date.',
        inputSchema: { type: 'object', properties: { order_id: id, new_date: { type: 'string', format: 'date' } }, required: ['order_id', 'new_date'] },
      },
    ];
    const model = createOfflineModel({ deterministicIds: true, now: () => new Date('2026-11-20T12:00:00Z') });
    const say = async (asked: string, answer: readonly object[], next: string) => {
      const { content } = await model.doGenerate({
        prompt: [
          { role: 'user', content: [{ type: 'text', text: asked }] },
          ...answer,
          { role: 'user', content: [{ type: 'text', text: next }] },
        ],
        tools,
      } as Parameters<typeof model.doGenerate>[0]);
      const calls = content.filter((part) => part.type === 'tool-call');
      return calls.length > 0 ? calls.map((part) => part.toolName).join(' ') : content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
    };
    const text = (value: string) => ({ role: 'assistant', content: [{ type: 'text', text: value }] });
    const called = (name: string, input: object, output: object) => [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: name, input }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: name, output }] },
      text('Done.'),
    ];
    // A call left waiting for approval is not in what the model reads (the chat loop drops it): only the text before it.
    const waiting = [text('Reading "Dec 24" as 2026-12-24 (today is 2026-11-20 UTC).')];
    expect(await say('move A-1003 to Dec 24', waiting, 'never mind')).toBe('OK, I left "move A-1003 to Dec 24" undone: nothing was changed.');
    expect(await say('move A-1003 to Dec 24', waiting, 'cancel that')).toBe('OK, I left "move A-1003 to Dec 24" undone: nothing was changed.');
    const question = [text('Das geht mit update_delivery_date, aber dafür brauche ich noch das neue Datum (als JJJJ-MM-TT). Kannst du es mir sagen?')];
    expect(await say('Verschiebe A-1003', question, 'lass es')).toBe('Gut, ich lasse „Verschiebe A-1003“ sein: Es wurde nichts geändert.');
    expect(await say('Décale A-1003', [text('Je peux le faire avec update_delivery_date, mais il me manque encore la nouvelle date.')], 'laisse tomber')).toBe(
      "D'accord, je laisse « Décale A-1003 » de côté : rien n'a été modifié.",
    );
    const denied = called('update_delivery_date', { order_id: 'A-1003', new_date: '2026-12-24' }, { type: 'execution-denied' });
    expect(await say('move A-1003 to Dec 24', denied, 'ok forget it')).toBe('OK, I left "move A-1003 to Dec 24" undone: nothing was changed.');
    // After a request that was done: an acknowledgement, and "cancel that" may be about the order (read as before).
    const looked = called('query_order', { order_id: 'A-1003' }, { type: 'json', value: { status: 'pending' } });
    expect(await say('where is A-1003', looked, 'never mind')).toBe("OK, I'll leave it there. Anything else?");
    expect(await say('where is A-1003', looked, 'cancel that')).toMatch(/^I have no tool for cancelling orders/);
    expect(await say('hi', [text('Hello!')], 'never mind')).toBe("OK, I'll leave it there. Anything else?");
    expect(await say('move A-1003 to Dec 24', waiting, 'never mind, where is A-1004?')).toBe('query_order');
    // Thanks after a question are thanks, not its answer; said in leaving, a goodbye ("Anything else?" before).
    const asking = [text('I can do that with update_delivery_date, but I still need the new date (as YYYY-MM-DD). Could you tell me?')];
    expect(await say('move A-1003', asking, 'thanks, bye')).toBe("You're welcome. Goodbye!");
  });

  it('says a country with parts elsewhere is read as its mainland time, and names the zones those parts keep, in the language asked', async () => {
    const tools = [{ type: 'function' as const, name: 'world_clock', description: 'The local time in a time zone.', inputSchema: { type: 'object', properties: { time_zone: { type: 'string' } }, required: ['time_zone'] } }];
    const model = createOfflineModel({ deterministicIds: true });
    const ask = async (text: string) => {
      const { content } = await model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text }] }], tools } as Parameters<typeof model.doGenerate>[0]);
      const said = content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
      return [said, ...content.flatMap((part) => (part.type === 'tool-call' ? [part.input] : []))];
    };
    expect(await ask('time in Spain')).toEqual([
      'Reading "Spain" as its mainland time (Europe/Madrid); other parts of it keep another time (Atlantic/Canary).',
      '{"time_zone":"Europe/Madrid"}',
    ]);
    expect((await ask('Wie spät ist es in Neuseeland?'))[0]).toBe('Ich lese „Neuseeland“ als die Zeit des Festlands (Pacific/Auckland); andere Landesteile haben eine andere Uhrzeit (Pacific/Chatham).');
    expect((await ask('Quelle heure est-il au Portugal ?'))[0]).toMatch(/^Je lis « Portugal » comme l'heure de la métropole \(Europe\/Lisbon\)/);
    // A city of it, or a country of one zone: no such note.
    expect(await ask('time in Madrid')).toEqual(['', '{"time_zone":"Europe/Madrid"}']);
    expect(await ask('time in Japan')).toEqual(['', '{"time_zone":"Asia/Tokyo"}']);
    // A place alone after a question of the time goes on from it: a country of several zones is said to be one.
    const { content } = await model.doGenerate({
      prompt: [
        { role: 'user', content: [{ type: 'text', text: 'time in France' }] },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'world_clock', input: { time_zone: 'Europe/Paris' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'world_clock', output: { type: 'json', value: { time: '13:00' } } }] },
        { role: 'user', content: [{ type: 'text', text: 'and in the USA?' }] },
      ],
      tools,
    } as Parameters<typeof model.doGenerate>[0]);
    expect(content).toEqual([{ type: 'text', text: expect.stringMatching(/^The USA has several time zones/) }]);
    expect(await ask('and in the USA?')).toEqual([expect.stringMatching(/^I'm the offline model/)]);
  });

  it('takes the last sum on with an operator and a number ("times 3"), and reads "times 3" as no time', async () => {
    const tools = [
      { type: 'function' as const, name: 'calculate', description: 'Evaluate an arithmetic expression.', inputSchema: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] } },
      { type: 'function' as const, name: 'browser_time_zone', description: "The user's own time zone and local time.", inputSchema: { type: 'object', properties: {} } },
    ];
    const model = createOfflineModel({ deterministicIds: true });
    const next = async (expression: string | undefined, text: string) => {
      const before = expression === undefined ? [] : [
        { role: 'user', content: [{ type: 'text', text: 'a sum' }] },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'calculate', input: { expression } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'calculate', output: { type: 'json', value: { result: 12 } } }] },
        { role: 'assistant', content: [{ type: 'text', text: 'It is 12.' }] },
      ];
      const { content } = await model.doGenerate({ prompt: [...before, { role: 'user', content: [{ type: 'text', text }] }], tools } as Parameters<typeof model.doGenerate>[0]);
      return content.flatMap((part) => (part.type === 'tool-call' ? [[part.toolName, JSON.parse(part.input)]] : []));
    };
    expect(await next('15 / 100 * 80', 'times 3')).toEqual([['calculate', { expression: '(15 / 100 * 80) * 3' }]]);
    expect(await next('12 * 7', 'and divide it by 4')).toEqual([['calculate', { expression: '(12 * 7) / 4' }]]);
    expect(await next('17 * 23', 'mal 2')).toEqual([['calculate', { expression: '(17 * 23) * 2' }]]);
    // No sum before: nothing to take on, and no clock either.
    expect(await next(undefined, 'times 3')).toEqual([]);
  });

  it('adds more of what the message before added ("and 3 spoons", "also a teapot" after "add 2 mugs"), and nothing after a lookup', async () => {
    const tools = [
      {
        type: 'function' as const,
        name: 'cart_add',
        description: "Add an item to the user's shopping cart.",
        inputSchema: { type: 'object', properties: { name: { type: 'string', description: 'Item name' }, quantity: { type: 'integer', description: 'How many (default 1)' } }, required: ['name'] },
      },
      { type: 'function' as const, name: 'get_order', description: 'Look up one order by its id.', inputSchema: { type: 'object', properties: { order_id: { type: 'string', pattern: '^A-\\d{4}$' } }, required: ['order_id'] } },
    ];
    const model = createOfflineModel({ deterministicIds: true });
    const next = async (call: string, input: object, text: string) => {
      const { content } = await model.doGenerate({
        prompt: [
          { role: 'user', content: [{ type: 'text', text: 'first' }] },
          { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: call, input }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: call, output: { type: 'json', value: { ok: true } } }] },
          { role: 'user', content: [{ type: 'text', text }] },
        ],
        tools,
      } as Parameters<typeof model.doGenerate>[0]);
      return content.flatMap((part) => (part.type === 'tool-call' ? [[part.toolName, JSON.parse(part.input)]] : []));
    };
    expect(await next('cart_add', { name: 'mugs', quantity: 2 }, 'and 3 spoons')).toEqual([['cart_add', { quantity: 3, name: 'spoons' }]]);
    expect(await next('cart_add', { name: 'mugs', quantity: 2 }, 'und 3 Birnen und 2 Äpfel')).toEqual([
      ['cart_add', { quantity: 3, name: 'Birnen' }],
      ['cart_add', { quantity: 2, name: 'Äpfel' }],
    ]);
    // No count is one, as "add a teapot" reads it.
    expect(await next('cart_add', { name: 'mugs', quantity: 2 }, 'also a teapot')).toEqual([['cart_add', { name: 'teapot' }]]);
    expect(await next('cart_add', { name: 'mugs', quantity: 2 }, 'und einen Teller')).toEqual([['cart_add', { name: 'Teller' }]]);
    expect(await next('cart_add', { name: 'pommes', quantity: 3 }, 'et aussi une baguette')).toEqual([['cart_add', { name: 'baguette' }]]);
    expect(await next('get_order', { order_id: 'A-1002' }, 'and 3 spoons')).toEqual([]);
    expect(await next('get_order', { order_id: 'A-1002' }, 'also a teapot')).toEqual([]);
    // "empty it", "clear it": the thing of the last call, named by reference (cart_clear is one of the cart's tools).
    const withClear = [...tools, { type: 'function' as const, name: 'cart_clear', description: "Remove every item from the user's shopping cart.", inputSchema: { type: 'object', properties: {} } }];
    const afterAdding = async (text: string) => {
      const { content } = await model.doGenerate({
        prompt: [
          { role: 'user', content: [{ type: 'text', text: 'add 2 mugs' }] },
          { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'cart_add', input: { name: 'mugs', quantity: 2 } }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'cart_add', output: { type: 'json', value: { count: 2 } } }] },
          { role: 'user', content: [{ type: 'text', text }] },
        ],
        tools: withClear,
      } as Parameters<typeof model.doGenerate>[0]);
      return content.flatMap((part) => (part.type === 'tool-call' ? [part.toolName] : []));
    };
    expect(await afterAdding('empty it')).toEqual(['cart_clear']);
    expect(await afterAdding('leere ihn')).toEqual(['cart_clear']);
    expect(await afterAdding('vide-le')).toEqual(['cart_clear']);
    expect(await afterAdding('empty')).toEqual([]);
  });

  it('reads "let the customer know", "tell them", "inform the buyer" after a change as the mail it leaves for later', async () => {
    const id = z.string().regex(/^A-\d{4}$/);
    const sent = vi.fn(async (input: { order_id: string; subject: string; body: string }) => ({ queued: true, ...input }));
    const tools = {
      update_delivery_date: tool({
        description: 'Change the delivery date of an order to a new date.',
        inputSchema: z.object({ order_id: id, new_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
        execute: async ({ order_id, new_date }) => ({ order_id, delivery_date: new_date }),
      }),
      send_email: tool({
        description: "Send an e-mail about an order to that order's customer.",
        inputSchema: z.object({ order_id: id, subject: z.string().min(1).describe('Subject line'), body: z.string().min(1).describe('Plain-text message body') }),
        execute: sent,
      }),
      world_clock: tool({ description: 'The local time in a time zone.', inputSchema: z.object({ time_zone: z.string() }), execute: async () => ({ time: '12:00' }) }),
    };
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const asks = ['let the customer know', 'tell them', 'inform the buyer', 'notify the customer', 'give the customer a heads-up', 'keep the customer posted'];
    for (const ask of asks) {
      sent.mockClear();
      const result = await generateText({ model, tools, prompt: `push A-1003 to next Monday and ${ask}`, stopWhen: isStepCount(3) });
      expect(result.steps.map((step) => step.toolCalls.map((call) => call.toolName)), ask).toEqual([['update_delivery_date'], ['send_email'], []]);
      expect(result.steps[0]?.text, ask).toContain(`Once the change is made, I'll ${ask} (send_email), saying what changed.`);
      expect(sent.mock.calls[0]?.[0].body, ask).toBe('The delivery date of your order A-1003 is now 2026-11-23.');
    }
    // The user asking to be told is no mail.
    const told = await generateText({ model, tools, prompt: 'let me know the time in Tokyo', stopWhen: isStepCount(1) });
    expect(told.toolCalls.map((call) => call.toolName)).toEqual(['world_clock']);
  });

  it("answers a German or French request with its fixed phrases in that language, and reads a reply to a German question", async () => {
    const id = z.string().regex(/^A-\d{4}$/);
    const tools = {
      update_delivery_date: tool({
        description: 'Change the delivery date of an order to a new date.',
        inputSchema: z.object({ order_id: id, new_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe('The new date') }),
        execute: async ({ order_id, new_date }) => ({ order_id, status: 'pending', delivery_date: new_date }),
      }),
    };
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const moved = await generateText({ model, tools, prompt: 'Verschiebe A-1003 auf morgen', stopWhen: isStepCount(2) });
    expect(moved.steps[0]?.text).toBe('Ich lese „morgen“ als 2026-11-21 (heute ist 2026-11-20 UTC).');
    expect(moved.text).toBe('Bestellung A-1003 ist pending, Lieferdatum 2026-11-21.');
    const reporte = await generateText({ model, tools, prompt: 'Reporte la commande A-1003 à demain', stopWhen: isStepCount(2) });
    expect(reporte.text).toBe('La commande A-1003 est pending, date de livraison 2026-11-21.');
    // The German question for a missing date, and the reply read with the request it answers.
    const asked: ModelMessage[] = [{ role: 'user', content: 'Verschiebe A-1003' }];
    const question = await generateText({ model, tools, messages: asked, stopWhen: isStepCount(1) });
    expect(question.text).toBe('Das geht mit update_delivery_date, aber dafür brauche ich noch das neue Datum (als JJJJ-MM-TT). Kannst du es mir sagen?');
    const replied = await generateText({
      model,
      tools,
      messages: [...asked, { role: 'assistant', content: question.text }, { role: 'user', content: 'übermorgen' }],
      stopWhen: isStepCount(1),
    });
    expect(replied.toolCalls.map((call) => call.input)).toEqual([{ order_id: 'A-1003', new_date: '2026-11-22' }]);
    // English stays English.
    const english = await generateText({ model, tools, prompt: 'move A-1003 to tomorrow', stopWhen: isStepCount(2) });
    expect(english.text).toBe('Order A-1003 is pending, delivery date 2026-11-21.');
  });

  it('says it has no tool for the weather (or a cancellation) instead of calling the nearest tool', async () => {
    const { tools } = orderTools();
    const clock = tool({
      description: 'The local time in a time zone such as Europe/Berlin.',
      inputSchema: z.object({ time_zone: z.string() }),
      execute: async () => ({ time: '12:00' }),
    });
    const result = await generateText({ model: createOfflineModel(), tools: { ...tools, clock }, prompt: "What's the weather in Berlin?" });
    expect(result.toolCalls).toEqual([]);
    expect(result.text).toMatch(/^I have no tool for the weather, so I can't answer that\. I can tell you the local time in Berlin with clock, if that helps\.\nI can use these tools:/);
    const cancel = await generateText({ model: createOfflineModel(), tools, prompt: 'Cancel order A-1001' });
    expect(cancel.toolCalls).toEqual([]);
    expect(cancel.text).toMatch(/^I have no tool for cancelling orders/);
    // A tool that covers it is called as before.
    const weather = tool({ description: 'Weather for a city.', inputSchema: z.object({ city: z.string() }), execute: async () => ({ sunny: true }) });
    const withWeather = await generateText({ model: createOfflineModel(), tools: { weather }, prompt: "What's the weather in Berlin?", stopWhen: isStepCount(1) });
    expect(withWeather.toolCalls.map((call) => [call.toolName, call.input])).toEqual([['weather', { city: 'Berlin' }]]);
  });

  it('says the help text, a topic no tool covers, what no tool lists, a place it does not know and maths it cannot do in German and French', async () => {
    const { tools } = orderTools();
    const clock = tool({
      description: 'The local time in a time zone such as Europe/Berlin.',
      inputSchema: z.object({ time_zone: z.string() }),
      execute: async () => ({ time: '12:00' }),
    });
    const answer = async (prompt: string, offered: ToolSet = { ...tools, clock }) => (await generateText({ model: createOfflineModel(), tools: offered, prompt })).text;
    expect(await answer('Hallo, was kannst du?')).toBe(
      'Ich bin das Offline-Modell: ein kleiner regelbasierter Ersatz, der ohne API-Schlüssel läuft. Dafür habe ich kein Werkzeug gefunden. ' +
        'Diese Werkzeuge kann ich verwenden:\n- getOrder (Look up an order by its id and return its status and delivery date)\n' +
        '- listDelayedOrders (List the orders whose delivery is delayed)\n- changeDeliveryDate (Change the delivery date of an order)\n' +
        '- clock (The local time in a time zone such as Europe/Berlin)\nFrag in einfachen Worten, oder tippe /tool_name {"arg": "value"}, um eines direkt aufzurufen.',
    );
    expect(await answer('Wie ist das Wetter in Berlin?')).toMatch(
      /^Ich habe kein Werkzeug für das Wetter, also kann ich das nicht beantworten\. Ich kann dir mit clock die Ortszeit in Berlin sagen, wenn das hilft\.\nDiese Werkzeuge kann ich verwenden:/,
    );
    expect(await answer('Quelle est la météo à Paris ?')).toMatch(/^Je n'ai pas d'outil pour la météo, je ne peux donc pas répondre\. Je peux vous donner l'heure locale à Paris avec clock/);
    expect(await answer('Zeig alle Bestellungen', tools)).toMatch(/^Kein Werkzeug listet alle Bestellungen auf\. Stattdessen habe ich: getOrder \(.*\) und listDelayedOrders/);
    // Maths beyond the calculator's arithmetic: said in the language, what the calculator can do in its description's words.
    const calculator = tool({
      description: 'Evaluate an arithmetic expression. Supports + - * / and sqrt.',
      inputSchema: z.object({ expression: z.string() }),
      execute: async () => ({ result: 0 }),
    });
    expect(await answer('Was ist die Fakultät von 5?', { calculator })).toBe('Dafür habe ich kein Werkzeug („Fakultät“): calculator rechnet nur Arithmetik aus. Supports + - * / and sqrt.');
    expect(await answer('la factorielle de 5', { calculator })).toBe("Je n'ai pas d'outil pour cela (« factorielle ») : calculator ne fait que de l'arithmétique. Supports + - * / and sqrt.");
    expect(await answer('Uhrzeit in Atlantis')).toMatch(/^Ich weiß nicht, wo „Atlantis“ liegt, also kann ich die Uhrzeit dort nicht sagen\..* dann frage ich clock\.$/);
    expect(await answer('Bonjour, que sais-tu faire ?', {})).toBe(
      "Je suis le modèle hors ligne : un petit substitut à base de règles qui fonctionne sans clé d'API. Aucun outil n'est disponible dans cette conversation, " +
        'je ne peux donc discuter que de façon limitée. Vous avez écrit : « Bonjour, que sais-tu faire ? ».',
    );
  });

  it('moves a delivery to a holiday named in German or French as in English ("Liefere A-1002 am Muttertag"), through the approval', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    for (const [prompt, date, note] of [
      ['Liefere A-1002 am Muttertag', '2027-05-09', 'Ich lese „Muttertag“ als 2027-05-09 (heute ist 2026-11-20 UTC).'],
      ["deliver A-1002 on Mother's Day", '2027-05-09', 'Reading "Mother\'s Day" as 2027-05-09 (today is 2026-11-20 UTC).'],
      ['Livre A-1002 pour la fête des mères', '2027-05-30', 'Je lis « la fête des mères » comme le 2027-05-30 (nous sommes le 2026-11-20 UTC).'],
    ] as const) {
      const result = await generateText({ model, tools: shopTools(), prompt });
      const approval = result.content.find((part) => part.type === 'tool-approval-request');
      expect(approval?.type === 'tool-approval-request' ? [approval.toolCall.toolName, approval.toolCall.input] : undefined, prompt).toEqual([
        'update_delivery_date',
        { order_id: 'A-1002', new_date: date },
      ]);
      expect(result.text, prompt).toBe(note);
    }
    // A day it does not know, after "liefere": named, and the date asked for (it looked the order up).
    const unknown = await generateText({ model, tools: shopTools(), prompt: 'Liefere A-1002 am Schützenfest' });
    expect(unknown.toolCalls).toEqual([]);
    expect(unknown.text).toBe(
      'Ich weiß nicht, welcher Tag „Schützenfest“ ist, also rate ich keinen. Das geht mit update_delivery_date, aber dafür brauche ich noch das neue Datum (als JJJJ-MM-TT). Kannst du es mir sagen?',
    );
  });

  it('mails the one order a list showed ("mail the customer" after a list of one), and "both" after a list of two', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const followUp = conversation(model, shopTools());
    const mail = ['send_email', { order_id: 'A-1012', subject: 'Your order A-1012 is delayed, delivery date 2026-12-20', body: 'Your order A-1012 is delayed, delivery date 2026-12-20.' }];
    for (const first of ['orders delayed more than 10 days', 'only the top 1 delayed order']) {
      const one = await followUp(first, 'mail the customer');
      expect(one.calls, first).toEqual([mail]);
      expect(one.text, first).toBe('Reading "the customer" as A-1012, from earlier in our conversation. Using send_email, I say what the list showed: "Your order A-1012 is delayed, delivery date 2026-12-20."');
    }
    expect((await followUp('orders delayed more than 10 days', 'move it to Friday')).calls).toEqual([['update_delivery_date', { order_id: 'A-1012', new_date: '2026-11-27' }]]);
    // Two: "the customer" is asked for, "both" is each of them.
    expect((await followUp('top 2 delayed orders', 'mail the customer')).calls).toEqual([]);
    const both = await followUp('top 2 delayed orders', 'email both customers');
    expect(both.calls.map(([name, input]) => [name, (input as { order_id: string }).order_id])).toEqual([
      ['send_email', 'A-1012'],
      ['send_email', 'A-1006'],
    ]);
    expect(both.text).toBe(
      'Reading "both" as A-1012 and A-1006, from earlier in our conversation. Using send_email, I say what the list showed: ' +
        '"Your order A-1012 is delayed, delivery date 2026-12-20." and "Your order A-1006 is delayed, delivery date 2026-12-12."',
    );
  });

  it('makes the invoices of "A-1001 and A-1003" both, and the mails of them say what each invoice holds', async () => {
    const model = createOfflineModel();
    const tools = shopTools();
    for (const prompt of ['invoices for A-1001 and A-1003', 'Rechnungen für A-1001 und A-1003', 'factures de A-1001 et A-1003', 'invoice for A-1001 and order A-1003']) {
      const { toolCalls } = await generateText({ model, tools, prompt, stopWhen: isStepCount(1) });
      expect(toolCalls.map((call) => [call.toolName, call.input]), prompt).toEqual([
        ['order_invoice', { order_id: 'A-1001' }],
        ['order_invoice', { order_id: 'A-1003' }],
      ]);
    }
    // A request of its own after the ids is still one.
    const asked = await generateText({ model, tools, prompt: 'invoice for A-1001 and where is A-1003', stopWhen: isStepCount(1) });
    expect(asked.toolCalls.map((call) => call.toolName)).toEqual(['order_invoice', 'query_order']);
    const mails = await conversation(model, tools)('invoices for A-1001 and A-1003', 'email them to the customers');
    expect(mails.calls).toEqual([
      ['send_email', { order_id: 'A-1001', subject: 'Your invoice for order A-1001', body: 'Invoice INV-A-1001 of order A-1001; total 89.00 EUR.' }],
      ['send_email', { order_id: 'A-1003', subject: 'Your invoice for order A-1003', body: 'Invoice INV-A-1003 of order A-1003; total 89.00 EUR.' }],
    ]);
    expect(mails.text).toBe(
      'Reading "them" as A-1001 and A-1003, from earlier in our conversation. Using send_email, I say what they hold: ' +
        '"Invoice INV-A-1001 of order A-1001; total 89.00 EUR." and "Invoice INV-A-1003 of order A-1003; total 89.00 EUR."',
    );
  });

  it('says which day "the day after" a clock\'s date is, and which day a named day is, with no tool and in the language asked', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const followUp = conversation(model, shopTools());
    const tokyo = await followUp('What time is it in Tokyo?', 'and the day after?');
    expect(tokyo).toEqual({ text: '"the day after" is 2026-11-22, a Sunday (from 2026-11-21 in Asia/Tokyo). No tool was needed for that.', calls: [] });
    // The browser's clock gives no date in figures: the day after today's UTC date.
    expect((await followUp("what's the date today?", 'and the day after?')).text).toBe(
      '"the day after" is 2026-11-21, a Saturday (today is 2026-11-20 UTC). No tool was needed for that.',
    );
    expect((await followUp('what day is it?', 'and tomorrow?')).text).toBe('"tomorrow" is 2026-11-21, a Saturday (today is 2026-11-20 UTC). No tool was needed for that.');
    expect((await followUp('Wie spät ist es in Tokio?', 'und am Tag danach?')).text).toBe(
      '„am Tag danach“ ist der 2026-11-22, ein Sonntag (ab 2026-11-21 in Asia/Tokyo). Dafür brauchte ich kein Werkzeug.',
    );
    expect((await followUp('Quelle heure est-il à Tokyo ?', 'et le lendemain ?')).text).toBe(
      "« le lendemain » est le 2026-11-22, un dimanche (à partir du 2026-11-21 à Asia/Tokyo). Je n'ai eu besoin d'aucun outil pour cela.",
    );
    // A question of which day a day is: no date picker, no clock.
    const asked = async (prompt: string) => {
      const { text, toolCalls } = await generateText({ model, tools: shopTools(), prompt, stopWhen: isStepCount(1) });
      return { text, calls: toolCalls.length };
    };
    expect(await asked("what's the date tomorrow?")).toEqual({ text: '"tomorrow" is 2026-11-21, a Saturday (today is 2026-11-20 UTC). No tool was needed for that.', calls: 0 });
    expect((await asked("when is Mother's Day?")).text).toBe('"Mother\'s Day" is 2027-05-09, a Sunday (today is 2026-11-20 UTC). No tool was needed for that.');
    // Anything else asked with the day is read as before.
    expect((await asked('which orders are late tomorrow?')).calls).toBe(1);
    expect((await asked('what time is it tomorrow in Tokyo?')).calls).toBe(1);
  });

  it('says no tool takes one thing out of the cart when "remove the pears" names no cart, after they were added', async () => {
    const model = createOfflineModel();
    const tools = shopTools();
    const removes = 'cart_clear removes everything at once, and no tool removes just "pears", so I left it as it is. Ask me to empty it all if that is what you want.';
    expect(await conversation(model, tools)('add 2 pears and 3 apples to my cart', 'remove the pears')).toEqual({ text: removes, calls: [] });
    expect((await conversation(model, tools)('Leg 2 Birnen in den Warenkorb', 'nimm die Birnen raus')).text).toBe(
      'cart_clear entfernt alles auf einmal, und kein Werkzeug entfernt nur „Birnen“, also habe ich alles gelassen, wie es ist. Sag mir, wenn ich alles leeren soll.',
    );
    expect((await conversation(model, tools)('Ajoute 2 poires au panier', 'enlève les poires')).text).toMatch(/^cart_clear retire tout d'un coup, et aucun outil ne retire seulement « poires »/);
    // All of it right after: the cart is emptied, as "remove everything from my cart" empties it.
    expect((await conversation(model, tools)('add 2 pears to my cart', 'remove everything')).calls).toEqual([['cart_clear', {}]]);
    // Never added: nothing says what it is taken out of.
    const alone = await generateText({ model, tools, prompt: 'remove the pears', stopWhen: isStepCount(1) });
    expect(alone.text).toMatch(/^I have no tool for deleting things/);
  });

  it('reads prompts found in a new round: a change of mind in German and French, every customer of a list, "quel jour sommes-nous demain ?"', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const followUp = conversation(model, shopTools());
    // "nein, auf Samstag" got the help text ("auf" asked for something of its own); "non, plutôt lundi" was answered in English.
    // The move waits for approval when the next message comes: the chat loop leaves its call out of what the model reads.
    const approvals = async (first: string, then: string) => {
      const tools = shopTools();
      const before = await generateText({ model, tools, prompt: first });
      const messages: ModelMessage[] = [{ role: 'user', content: first }, { role: 'assistant', content: before.text }, { role: 'user', content: then }];
      const after = await generateText({ model, tools, messages });
      const request = after.content.find((part) => part.type === 'tool-approval-request');
      return { text: after.text, input: request?.type === 'tool-approval-request' ? request.toolCall.input : undefined };
    };
    expect(await approvals('Verschiebe A-1003 auf Freitag', 'nein, auf Samstag')).toEqual({
      text: 'Ich lese „Samstag“ als 2026-11-21 (heute ist 2026-11-20 UTC). Wie zuvor mit update_delivery_date, jetzt mit 2026-11-21.',
      input: { order_id: 'A-1003', new_date: '2026-11-21' },
    });
    expect(await approvals('décale A-1003 à vendredi', 'non, plutôt lundi')).toEqual({
      text: 'Je lis « lundi » comme le 2026-11-23 (nous sommes le 2026-11-20 UTC). Comme avant avec update_delivery_date, cette fois avec 2026-11-23.',
      input: { order_id: 'A-1003', new_date: '2026-11-23' },
    });
    // "schreib allen Kunden", "email every customer" after a list asked for an order id: each order of the list.
    for (const [first, then] of [
      ['welche Bestellungen sind verspätet?', 'schreib allen Kunden'],
      ['which orders are late', 'email every customer'],
      ['commandes en retard', 'écris à tous les clients'],
    ] as const) {
      const mails = await followUp(first, then);
      expect(mails.calls.map(([, input]) => (input as { order_id: string }).order_id), then).toEqual(['A-1012', 'A-1006', 'A-1002']);
      // What a list showed is said as the list's, not a lookup's.
      expect(mails.text, then).toMatch(/what the list showed: |was die Liste gezeigt hat: |ce que la liste a montré : /);
    }
    const tomorrow = await generateText({ model, tools: shopTools(), prompt: 'quel jour sommes-nous demain ?', stopWhen: isStepCount(1) });
    expect(tomorrow.text).toBe("« demain » est le 2026-11-21, un samedi (nous sommes le 2026-11-20 UTC). Je n'ai eu besoin d'aucun outil pour cela.");
  });

  it('says a calendar day that does not exist is none ("31st of february"), in the language asked, and asks for a date', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    for (const [prompt, text] of [
      ['move A-1003 to 31st of february', '"31st of february" does not exist: that month has fewer days. I can do that with update_delivery_date, but I still need'],
      ['Verschiebe A-1003 auf den 30. Februar', '„30. Februar“ gibt es nicht: Der Monat hat weniger Tage. Das geht mit update_delivery_date'],
      ['décale A-1003 au 31 avril', "« 31 avril » n'existe pas : ce mois a moins de jours. Je peux le faire avec update_delivery_date"],
    ] as const) {
      const result = await generateText({ model, tools: shopTools(), prompt, stopWhen: isStepCount(1) });
      expect(result.toolCalls, prompt).toEqual([]);
      expect(result.text.startsWith(text), result.text).toBe(true);
    }
    // The last day of a month is one.
    const last = await generateText({ model, tools: shopTools(), prompt: 'move A-1003 to Feb 28', stopWhen: isStepCount(1) });
    expect(last.content.some((part) => part.type === 'tool-approval-request')).toBe(true);
  });

  it('answers "how many?" after a list with its count, "and of 300?" after "15% of 240" with that sum, and "ok" as an acknowledgement', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const followUp = conversation(model, { ...shopTools(), calculate: calculator() });
    // Each got the help text.
    expect(await followUp('which orders are late?', 'how many?')).toEqual({ text: 'The list showed 3: A-1012, A-1006 and A-1002. No tool was needed for that.', calls: [] });
    expect((await followUp('Welche Bestellungen sind verspätet?', 'wie viele?')).text).toBe('Die Liste zeigte 3: A-1012, A-1006 und A-1002. Dafür brauchte ich kein Werkzeug.');
    expect((await followUp('commandes en retard', 'combien ?')).text).toBe("La liste en montrait 3 : A-1012, A-1006 et A-1002. Je n'ai eu besoin d'aucun outil pour cela.");
    // Things as a person counts them, and their kinds (it said "The list showed 2: bananas and apples").
    expect((await followUp('add 3 bananas and 2 apples', 'how many items?')).text).toBe('That is 5 items in all, of 2 kinds: 3 bananas and 2 apples. No tool was needed for that.');
    expect((await conversation(model, shopTools())('Leg 3 Bananen und 2 Äpfel in den Warenkorb', 'wie viele?')).text).toBe('Das sind 5 Stück in 2 Sorten: 3 Bananen und 2 Äpfel. Dafür brauchte ich kein Werkzeug.');
    expect((await conversation(model, shopTools())('add a mug and a teapot', 'how many?')).text).toBe('The list showed 2: mug and teapot. No tool was needed for that.');
    expect((await followUp('15% of 240', 'and of 300?')).calls).toEqual([['calculate', { expression: '15 / 100 * 300' }]]);
    expect((await followUp('20 percent of 80', 'und von 120?')).calls).toEqual([['calculate', { expression: '20 / 100 * 120' }]]);
    expect((await followUp('half of 90', 'and of 300?')).calls).toEqual([['calculate', { expression: '300 / 2' }]]);
    expect(await followUp('where is A-1002', 'ok')).toEqual({ text: 'OK. Anything else?', calls: [] });
    expect((await followUp('where is A-1002', 'alles klar')).text).toBe('Gut. Noch etwas?');
    expect((await followUp('where is A-1002', "d'accord")).text).toBe("D'accord. Autre chose ?");
    // With no list before, "how many?" is still no request of its own.
    expect((await generateText({ model, tools: shopTools(), prompt: 'how many?' })).text).toMatch(/^I'm the offline model/);
  });

  it('says no tool sets an amount for "actually make it 5" after 3 bananas were added, and what adding or emptying can do', async () => {
    const model = createOfflineModel();
    const followUp = conversation(model, shopTools());
    // It listed the cart.
    expect(await followUp('add 3 bananas', 'actually make it 5')).toEqual({
      text:
        'No tool sets how many "bananas" the cart holds (cart_add only adds), so I left it as it is. ' +
        'I can add 2 more to make 5, or empty the cart with cart_clear (all of it) and add 5 again: tell me which.',
      calls: [],
    });
    expect((await followUp('add 3 bananas', 'make that 2')).text).toBe(
      'No tool sets how many "bananas" the cart holds (cart_add only adds), so I left it as it is. I can empty the cart with cart_clear (all of it) and add 2 again, if you want that.',
    );
    expect((await followUp('Leg 3 Bananen in den Warenkorb', 'nein, mach 5 daraus')).text).toMatch(/^Kein Werkzeug legt fest, wie viele „Bananen“ im Warenkorb sind .* Ich kann 2 dazulegen \(dann sind es 5\) oder/);
    expect((await followUp('Ajoute 3 bananes au panier', 'en fait, mets-en 5')).text).toMatch(/^Aucun outil ne fixe combien de « bananes » contient le panier .* Je peux en ajouter 2 pour arriver à 5, ou/);
    // "2 more" (it got the help text) adds them, also after that answer.
    expect((await followUp('add 3 bananas', 'and 2 more')).calls).toEqual([['cart_add', { name: 'bananas', quantity: 2 }]]);
    expect((await followUp('Leg 3 Bananen in den Warenkorb', 'noch 2')).calls).toEqual([['cart_add', { name: 'Bananen', quantity: 2 }]]);
    expect((await followUp('Ajoute 3 bananes au panier', 'encore 2')).calls).toEqual([['cart_add', { name: 'bananes', quantity: 2 }]]);
    const tools = shopTools();
    const first = await generateText({ model, tools, prompt: 'add 3 bananas', stopWhen: isStepCount(2) });
    const messages: ModelMessage[] = [{ role: 'user', content: 'add 3 bananas' }, ...first.responseMessages, { role: 'user', content: 'make it 5' }];
    const answer = await generateText({ model, tools, messages });
    messages.push(...answer.responseMessages, { role: 'user', content: 'ok, add 2 more' });
    const more = await generateText({ model, tools, messages, stopWhen: isStepCount(1) });
    expect(more.toolCalls.map((call) => [call.toolName, call.input])).toEqual([['cart_add', { name: 'bananas', quantity: 2 }]]);
  });

  it('makes the invoice "send the invoice for A-1003 to the customer" asks for and mails it once it is in, through the approval (EN/DE/FR)', async () => {
    const model = createOfflineModel();
    const body = (id: string) => `Invoice INV-${id} of order ${id}; total 89.00 EUR.`;
    for (const [prompt, once, subject, now] of [
      [
        'send the invoice for A-1003 to the customer',
        "Once it is made, I'll send the invoice for A-1003 to the customer (send_email), saying what it holds.",
        'Your invoice for order A-1003',
        'As you asked, I now send the invoice for A-1003 to the customer, saying what it holds: "Invoice INV-A-1003 of order A-1003; total 89.00 EUR."',
      ],
      [
        'Schick die Rechnung für A-1003 an den Kunden',
        'Sobald es erstellt ist, erledige ich „schick die Rechnung für A-1003 an den Kunden“ (send_email) und sage, was darin steht.',
        'Ihre Rechnung für Bestellung A-1003',
        'Wie gewünscht erledige ich jetzt „schick die Rechnung für A-1003 an den Kunden“ und sage, was darin steht: "Invoice INV-A-1003 of order A-1003; total 89.00 EUR."',
      ],
      [
        'Envoie la facture de A-1003 au client',
        "Une fois le document fait, je m'occupe de « envoie la facture de A-1003 au client » (send_email), en disant ce qu'il contient.",
        'Votre facture pour commande A-1003',
        `Comme demandé, je m'occupe maintenant de « envoie la facture de A-1003 au client », en disant ce qu'il contient : "Invoice INV-A-1003 of order A-1003; total 89.00 EUR."`,
      ],
    ] as const) {
      // The demo's send_email needs approval (effects: destructive): the mail waits for it, as any mail does.
      const tools = { ...shopTools(), send_email: { ...shopTools().send_email, needsApproval: true } };
      const result = await generateText({ model, tools, prompt, stopWhen: isStepCount(3) });
      expect(result.steps[0]?.toolCalls.map((call) => [call.toolName, call.input]), prompt).toEqual([['order_invoice', { order_id: 'A-1003' }]]);
      expect(result.steps[0]?.text, prompt).toBe(once);
      const approval = result.content.find((part) => part.type === 'tool-approval-request');
      expect(approval?.type === 'tool-approval-request' ? approval.toolCall.input : undefined, prompt).toEqual({ order_id: 'A-1003', subject, body: body('A-1003') });
      expect(result.text.endsWith(now), result.text).toBe(true);
    }
    // Two: each is made, and each mailed; the invoice named beside "email" too.
    const two = await generateText({ model, tools: shopTools(), prompt: 'send the invoices for A-1001 and A-1003 to the customers', stopWhen: isStepCount(2) });
    expect(two.steps.map((step) => step.toolCalls.map((call) => [call.toolName, (call.input as { order_id: string }).order_id]))).toEqual([
      [['order_invoice', 'A-1001'], ['order_invoice', 'A-1003']],
      [['send_email', 'A-1001'], ['send_email', 'A-1003']],
    ]);
    expect(two.steps[0]?.text).toMatch(/^Once they are made, .* saying what they hold\.$/);
    expect(two.text).toMatch(/saying what they hold: "Invoice INV-A-1001 .*" and "Invoice INV-A-1003 .*"$/);
    for (const prompt of ['email the invoice of A-1002 to the customer', 'sned the invoice for A-1002 to the customer']) {
      const emailed = await generateText({ model, tools: shopTools(), prompt, stopWhen: isStepCount(2) });
      expect(emailed.steps.map((step) => step.toolCalls.map((call) => call.toolName)), prompt).toEqual([['order_invoice'], ['send_email']]);
    }
    // A mail that names no such thing still asks for what to say.
    expect((await generateText({ model, tools: shopTools(), prompt: 'Email Grace about her order A-1002' })).text).toMatch(/^I can do that with send_email, but I still need the subject/);
  });

  it('writes the mail "tell the customer of A-1006 we\'re sorry" asks for, and a German "dass" clause in a main clause\'s order', async () => {
    const model = createOfflineModel();
    const mail = async (prompt: string) => (await generateText({ model, tools: shopTools(), prompt, stopWhen: isStepCount(1) })).toolCalls.map((call) => call.input);
    // It asked for a subject and a body.
    expect(await mail("tell the customer of A-1006 we're sorry for the delay")).toEqual([
      { order_id: 'A-1006', subject: "We're sorry for the delay", body: "we're sorry for the delay" },
    ]);
    expect(await mail("tell A-1006's customer we're sorry")).toEqual([{ order_id: 'A-1006', subject: "We're sorry", body: "we're sorry" }]);
    // "es uns leid tut" was mailed word for word.
    expect(await mail('sag dem Kunden von A-1006, dass es uns leid tut')).toEqual([{ order_id: 'A-1006', subject: 'Es tut uns leid', body: 'es tut uns leid' }]);
    expect(await mail('schreib dem Kunden von A-1006, dass die Lieferung sich verspätet')).toEqual([
      { order_id: 'A-1006', subject: 'Die Lieferung verspätet sich', body: 'die Lieferung verspätet sich' },
    ]);
    expect(await mail('sag dem Kunden von A-1006, dass seine Bestellung bald ankommt')).toEqual([
      { order_id: 'A-1006', subject: 'Ihre Bestellung kommt bald an', body: 'Ihre Bestellung kommt bald an' },
    ]);
    // Their order is the customer's own, in French and English too.
    expect(await mail('dis au client de A-1006 que sa commande arrive bientôt')).toEqual([
      { order_id: 'A-1006', subject: 'Votre commande arrive bientôt', body: 'votre commande arrive bientôt' },
    ]);
    expect(await mail('email the customer of A-1002 that their order is late')).toEqual([{ order_id: 'A-1002', subject: 'Your order is late', body: 'your order is late' }]);
  });

  it('mails "remind the customer of A-1002 their order ships on friday" (it moved the delivery), and a German clause with no "dass"', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const mail = async (prompt: string) => (await generateText({ model, tools: shopTools(), prompt, stopWhen: isStepCount(1) })).toolCalls.map((call) => [call.toolName, call.input]);
    // The day keeps its "on": "ships 2026-11-27" read as if the customer were told a bare date.
    expect(await mail('remind the customer of A-1002 their order ships on friday')).toEqual([
      ['send_email', { order_id: 'A-1002', subject: 'Your order ships on 2026-11-27', body: 'your order ships on 2026-11-27' }],
    ]);
    expect(await mail("inform the customer of A-1002 we're out of stock")).toEqual([['send_email', { order_id: 'A-1002', subject: "We're out of stock", body: "we're out of stock" }]]);
    // It looked the order up.
    expect(await mail('sag dem Kunden von A-1002 es tut uns leid')).toEqual([['send_email', { order_id: 'A-1002', subject: 'Es tut uns leid', body: 'es tut uns leid' }]]);
  });

  it('reads follow-ups found in a new round: "actually the 6th" after a move, "half of that" after a sum, "remove them" after an add', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const followUp = conversation(model, { ...shopTools(), calculate: calculator() });
    // Each got the help text ("the 6th" with no "to" was no day), or asked for an expression, or said no tool deletes.
    // The move waits for approval when the next message comes: the chat loop leaves its call out of what the model reads.
    for (const [first, then] of [
      ['move A-1002 to the 5th of december', 'actually the 6th'],
      ['move A-1002 to the 5th of december', 'no, the 6th'],
      ['Verschiebe A-1002 auf den 5. Dezember', 'nein, den 6.'],
      // French writes the day bare ("le 6"): these got the help text.
      ['Change la date de livraison de A-1002 au 5 décembre', 'plutôt le 6'],
      ['Change la date de livraison de A-1002 au 5 décembre', 'non, le 6'],
      ['Change la date de livraison de A-1002 au 5 décembre', 'alors au 6 ?'],
    ] as const) {
      const tools = shopTools();
      const before = await generateText({ model, tools, prompt: first });
      const messages: ModelMessage[] = [{ role: 'user', content: first }, { role: 'assistant', content: before.text }, { role: 'user', content: then }];
      const request = (await generateText({ model, tools, messages })).content.find((part) => part.type === 'tool-approval-request');
      expect(request?.type === 'tool-approval-request' ? request.toolCall.input : undefined, then).toEqual({ order_id: 'A-1002', new_date: '2026-12-06' });
    }
    expect((await followUp('what is 12*7', 'and half of that?')).calls).toEqual([['calculate', { expression: '(12*7) / 2' }]]);
    expect((await followUp('what is 12*7', 'double it')).calls).toEqual([['calculate', { expression: '(12*7) * 2' }]]);
    expect((await followUp('Was ist 12 mal 7?', 'die Hälfte davon')).calls).toEqual([['calculate', { expression: '(12 * 7) / 2' }]]);
    expect((await followUp('combien font 6 fois 7', 'et le double ?')).calls).toEqual([['calculate', { expression: '(6 * 7) * 2' }]]);
    expect(await followUp('add 2 mugs to my cart', 'remove them')).toEqual({
      text: 'cart_clear removes everything at once, and no tool removes just "mugs", so I left it as it is. Ask me to empty it all if that is what you want.',
      calls: [],
    });
    expect((await followUp('Leg 2 Tassen in den Warenkorb', 'nimm sie raus')).text).toMatch(/^cart_clear entfernt alles auf einmal, und kein Werkzeug entfernt nur „Tassen“/);
  });

  it('does not mail one order\'s invoice to another\'s customer on "and A-1002?", and reads "dem ersten Kunden", "la dernière commande" after a list', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const followUp = conversation(model, shopTools());
    // It mailed A-1006's invoice to A-1002's customer (and then, session 32, made A-1002's invoice and mailed nothing).
    expect(await followUp('send the invoice of A-1006', 'and A-1002?')).toEqual({
      text: "As before with order_invoice, now with A-1002. Once it is made, I'll send the invoice of A-1002 (send_email), saying what it holds.",
      calls: [['order_invoice', { order_id: 'A-1002' }]],
    });
    // What the user worded goes to the next one as before.
    expect((await followUp('email the customer of A-1002 that it is late', 'and A-1003?')).calls).toEqual([
      ['send_email', { order_id: 'A-1003', subject: 'It is late', body: 'it is late' }],
    ]);
    // German and French places in a list asked for an order id.
    const ids = async (first: string, then: string) => (await followUp(first, then)).calls.map(([name, input]) => [name, (input as { order_id: string }).order_id]);
    expect(await ids('Zeig mir verspätete Bestellungen', 'schreib dem ersten Kunden')).toEqual([['send_email', 'A-1012']]);
    expect(await ids('Zeig mir verspätete Bestellungen', 'verschiebe die letzte Bestellung auf Montag')).toEqual([['update_delivery_date', 'A-1002']]);
    expect(await ids('montre les commandes en retard', 'écris au premier client')).toEqual([['send_email', 'A-1012']]);
    expect(await ids('montre les commandes en retard', 'décale la dernière commande à lundi')).toEqual([['update_delivery_date', 'A-1002']]);
  });

  it('counts "what\'s the date there tomorrow?" after a clock from the date there, and takes "and 20%?" as the last sum\'s new rate', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const followUp = conversation(model, { ...shopTools(), calculate: calculator() });
    // It counted from today's UTC date (2026-11-20), though Tokyo's was 2026-11-21.
    expect((await followUp('time in tokyo', "what's the date there tomorrow?")).text).toBe(
      '"tomorrow" is 2026-11-22, a Sunday (from 2026-11-21 in Asia/Tokyo). No tool was needed for that.',
    );
    expect((await followUp('Wie spät ist es in Tokio?', 'welcher Tag ist dort morgen?')).text).toBe(
      '„morgen“ ist der 2026-11-22, ein Sonntag (ab 2026-11-21 in Asia/Tokyo). Dafür brauchte ich kein Werkzeug.',
    );
    // With no "there", today's UTC date as before.
    expect((await followUp('time in tokyo', "what's the date tomorrow?")).text).toMatch(/^"tomorrow" is 2026-11-21, a Saturday \(today is 2026-11-20 UTC\)/);
    // It got the help text.
    expect((await followUp("what's 15% of 80", 'and 20%?')).calls).toEqual([['calculate', { expression: '20 / 100 * 80' }]]);
    expect((await followUp('add 17% VAT to 120', 'and 7%?')).calls).toEqual([['calculate', { expression: '120 * (1 + 7 / 100)' }]]);
  });

  it('mails "an apology" as "to apologise" does, and reads "nur 2", "only 2", "seulement 2" after an add as an amount no tool sets', async () => {
    const model = createOfflineModel();
    const followUp = conversation(model, shopTools());
    // The mail said the status with no apology ("email them an apology"), or got the help text ("send them an apology").
    for (const then of ['email them an apology', 'send them an apology']) {
      const tools = shopTools();
      const first = await generateText({ model, tools, prompt: 'where is A-1002', stopWhen: isStepCount(2) });
      const messages: ModelMessage[] = [{ role: 'user', content: 'where is A-1002' }, ...first.responseMessages, { role: 'user', content: then }];
      const result = await generateText({ model, tools, messages, stopWhen: isStepCount(2) });
      expect(result.steps.at(-1)?.toolCalls.map((call) => call.input), then).toEqual([
        { order_id: 'A-1002', subject: 'We apologise', body: 'We apologise. Your order A-1002 is delayed, delivery date 2026-12-03.' },
      ]);
    }
    const delay = await generateText({ model, tools: shopTools(), prompt: 'send the customer of A-1002 an apology for the delay', stopWhen: isStepCount(2) });
    expect(delay.steps.at(-1)?.toolCalls.map((call) => (call.input as { body: string }).body)).toEqual(['We apologise for the delay. Your order A-1002 is delayed, delivery date 2026-12-03.']);
    // In German and French it only looked the order up.
    for (const [prompt, body] of [
      ['Schick dem Kunden von A-1006 eine Entschuldigung für die Verspätung', 'Wir entschuldigen uns für die Verspätung. Ihre Bestellung A-1006 ist delayed, Lieferdatum 2026-12-03.'],
      ['envoie des excuses au client de A-1006', 'Nous nous excusons. Votre commande A-1006 est delayed, date de livraison 2026-12-03.'],
      ['envoie nos excuses au client de A-1006 pour le retard', 'Nous nous excusons pour le retard. Votre commande A-1006 est delayed, date de livraison 2026-12-03.'],
    ] as const) {
      const result = await generateText({ model, tools: shopTools(), prompt, stopWhen: isStepCount(2) });
      expect(result.steps.at(-1)?.toolCalls.map((call) => (call.input as { body: string }).body), prompt).toEqual([body]);
    }
    // They got the help text.
    expect((await followUp('add 3 bananas', 'only 2')).text).toMatch(/^No tool sets how many "bananas" the cart holds/);
    expect((await followUp('add 3 bananas', 'nein, nur 2')).text).toMatch(/^Kein Werkzeug legt fest, wie viele „bananas“/);
    expect((await followUp('Ajoute 3 bananes au panier', 'non, seulement 2')).text).toMatch(/^Aucun outil ne fixe combien de « bananes »/);
  });

  it('says the date a clock just gave on "and the date?", and today\'s on "welcher Tag ist heute?", "quel jour sommes-nous ?", with no tool', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const followUp = conversation(model, shopTools());
    // It asked for update_delivery_date's order id and date.
    expect(await followUp('What time is it in Tokyo?', 'and the date?')).toEqual({ text: 'In Asia/Tokyo it is 2026-11-21, a Saturday. No tool was needed for that.', calls: [] });
    expect((await followUp('Wie spät ist es in Tokio?', 'und das Datum?')).text).toBe('In Asia/Tokyo ist heute der 2026-11-21, ein Samstag. Dafür brauchte ich kein Werkzeug.');
    expect((await followUp('Quelle heure est-il à Tokyo ?', 'et la date ?')).text).toBe("À Asia/Tokyo, nous sommes le 2026-11-21, un samedi. Je n'ai eu besoin d'aucun outil pour cela.");
    // They got the help text.
    const asked = async (prompt: string) => (await generateText({ model, tools: shopTools(), prompt, stopWhen: isStepCount(1) })).text;
    expect(await asked('welcher Tag ist heute?')).toBe('In UTC ist heute der 2026-11-20, ein Freitag. Dafür brauchte ich kein Werkzeug.');
    expect(await asked('quel jour sommes-nous ?')).toBe("En UTC, nous sommes le 2026-11-20, un vendredi. Je n'ai eu besoin d'aucun outil pour cela.");
  });

  it('says an ISO date no calendar has is none ("2027-02-31"), as it does "31st of february", instead of passing it on', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const move = async (prompt: string) => {
      const result = await generateText({ model, tools: shopTools(), prompt, stopWhen: isStepCount(2) });
      return { text: result.text, calls: result.toolCalls.map((call) => [call.toolName, call.input]) };
    };
    // It asked to move A-1002 to 2027-02-31, for the tool to refuse once approved.
    expect(await move('move A-1002 to 2027-02-31')).toEqual({
      text: '"2027-02-31" does not exist: that month has fewer days. I can do that with update_delivery_date, but I still need the new date (as YYYY-MM-DD). Could you tell me?',
      calls: [],
    });
    expect((await move('Verschiebe A-1002 auf 2027-02-29')).text).toMatch(/^„2027-02-29“ gibt es nicht: Der Monat hat weniger Tage\. /);
    expect((await move('déplace A-1002 au 2027-04-31')).text).toMatch(/^« 2027-04-31 » n'existe pas : ce mois a moins de jours\. /);
    // A leap year's 29 February is a day.
    expect((await move('move A-1002 to 2028-02-29')).calls).toEqual([['update_delivery_date', { order_id: 'A-1002', new_date: '2028-02-29' }]]);
  });

  it('says an ISO date of a month no year has ("2026-13-01") is no date, in the language asked, and asks for one', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const move = async (prompt: string) => (await generateText({ model, tools: shopTools(), prompt, stopWhen: isStepCount(2) })).text;
    // It asked for the new date as if none had been given.
    expect(await move('move A-1002 to 2026-13-01')).toBe(
      '"2026-13-01" is not a date: a year has 12 months, and there is no month 13. ' +
        'I can do that with update_delivery_date, but I still need the new date (as YYYY-MM-DD). Could you tell me?',
    );
    expect(await move('Verschiebe A-1002 auf 2026-13-01')).toMatch(/^„2026-13-01“ ist kein Datum: Ein Jahr hat 12 Monate, einen Monat 13 gibt es nicht\. Das geht/);
    expect(await move('déplace A-1002 au 2026-00-10')).toMatch(/^« 2026-00-10 » n'est pas une date : une année a 12 mois, il n'y a pas de mois 00\. Je peux/);
  });

  it('adds one on "add a teapot" (no count), in German and French too, and a list that begins so; "add a discount" adds nothing', async () => {
    const model = createOfflineModel();
    const added = async (prompt: string) => {
      const result = await generateText({ model, tools: shopTools(), prompt, stopWhen: isStepCount(2) });
      return { calls: result.steps[0]?.toolCalls.map((call) => [call.toolName, call.input]), text: result.text };
    };
    // They got the help text.
    expect(await added('add a teapot')).toEqual({ calls: [['cart_add', { name: 'teapot' }]], text: 'cart_add returned 1 result: teapot (quantity 1).' });
    expect((await added('Füge eine Teekanne hinzu')).calls).toEqual([['cart_add', { name: 'Teekanne' }]]);
    expect((await added('Ajoute une théière')).calls).toEqual([['cart_add', { name: 'théière' }]]);
    // It added "an apple" alone and said "2 pears" was no request it could do; read as one list, the apple took the pears' 2.
    expect((await added('add an apple and 2 pears')).calls).toEqual([
      ['cart_add', { name: 'apple' }],
      ['cart_add', { name: 'pears', quantity: 2 }],
    ]);
    // It did "a tea to my cart" as showing the cart and said "add a coffee" was no request it could do.
    expect((await added('add a coffee and a tea to my cart')).calls).toEqual([
      ['cart_add', { name: 'coffee' }],
      ['cart_add', { name: 'tea' }],
    ]);
    expect((await added('leg eine Teekanne und 2 Tassen in den Warenkorb')).calls).toEqual([
      ['cart_add', { name: 'Teekanne' }],
      ['cart_add', { name: 'Tassen', quantity: 2 }],
    ]);
    // A thing no cart holds is not added to it; nor is a request of its own a member of the list.
    expect((await added('add a discount')).calls).toEqual([]);
    expect(await added('add a teapot and book a taxi')).toMatchObject({ calls: [['cart_add', { name: 'teapot' }]] });
  });

  it('looks up, makes the invoice and mails it on "where is A-1002 and send the invoice" (EN/DE/FR), the mail through its approval', async () => {
    const model = createOfflineModel();
    const subjects = { en: 'Your invoice for order A-1002', de: 'Ihre Rechnung für Bestellung A-1002', fr: 'Votre facture pour commande A-1002' };
    for (const [prompt, subject] of [
      ['where is A-1002 and send the invoice', subjects.en],
      ['Wo ist A-1002 und schick die Rechnung an den Kunden', subjects.de],
      ['où est A-1002 et envoie la facture au client', subjects.fr],
    ] as const) {
      const tools = { ...shopTools(), send_email: { ...shopTools().send_email, needsApproval: true } };
      const result = await generateText({ model, tools, prompt, stopWhen: isStepCount(3) });
      // It made the invoice beside the lookup and mailed nothing (in German it mailed what the lookup showed).
      expect(result.steps[0]?.toolCalls.map((call) => call.toolName), prompt).toEqual(['query_order', 'order_invoice']);
      const approval = result.content.find((part) => part.type === 'tool-approval-request');
      expect(approval?.type === 'tool-approval-request' ? approval.toolCall.input : undefined, prompt).toEqual({
        order_id: 'A-1002',
        subject,
        body: 'Invoice INV-A-1002 of order A-1002; total 89.00 EUR.',
      });
    }
    expect((await generateText({ model, tools: shopTools(), prompt: 'where is A-1002 and send the invoice' })).text).toBe(
      "Once it is made, I'll send the invoice (send_email), saying what it holds.",
    );
  });

  it('goes on from a whole request on "and A-1002?": makes A-1002\'s invoice and mails it to its customer, in each language and again after that', async () => {
    const model = createOfflineModel();
    const tools = { ...shopTools(), send_email: { ...shopTools().send_email, needsApproval: true } };
    const invoice = (id: string) => `Invoice INV-${id} of order ${id}; total 89.00 EUR.`;
    const turns = (texts: readonly string[]) => approvedMails(model, tools, texts);
    // "and A-1002?" made A-1002's invoice and mailed nothing.
    expect(await turns(['send the invoice for A-1003 to the customer', 'and A-1002?', 'and A-1006?'])).toEqual(
      ['A-1003', 'A-1002', 'A-1006'].map((id) => ({ order_id: id, subject: `Your invoice for order ${id}`, body: invoice(id) })),
    );
    expect(await turns(['Schick die Rechnung für A-1003 an den Kunden', 'und für A-1002?'])).toEqual(
      ['A-1003', 'A-1002'].map((id) => ({ order_id: id, subject: `Ihre Rechnung für Bestellung ${id}`, body: invoice(id) })),
    );
    expect(await turns(['Envoie la facture de A-1003 au client', 'et A-1002 ?'])).toEqual(
      ['A-1003', 'A-1002'].map((id) => ({ order_id: id, subject: `Votre facture pour commande ${id}`, body: invoice(id) })),
    );
    // Each tool the request made calls of is named.
    const looked = await generateText({
      model,
      tools,
      messages: [
        { role: 'user', content: 'where is A-1002 and send the invoice' },
        { role: 'assistant', content: 'Done.' },
        { role: 'user', content: 'and A-1004?' },
      ],
    });
    expect(looked.text).toBe("As before with query_order and order_invoice, now with A-1004. Once it is made, I'll send the invoice (send_email), saying what it holds.");
    // A mail that says what it is for looks the next order up too, and opens with that purpose.
    expect(await turns(['email the customer of A-1002 to apologise for the delay', 'and A-1006?'])).toEqual(
      ['A-1002', 'A-1006'].map((id) => ({
        order_id: id,
        subject: 'We apologise for the delay',
        body: `We apologise for the delay. Your order ${id} is delayed, delivery date 2026-12-03.`,
      })),
    );
  });

  it('makes and mails the invoice of the order a lookup showed on "send the invoice to the customer" (EN/DE/FR)', async () => {
    const model = createOfflineModel();
    for (const [first, then, subject] of [
      ['where is A-1002', 'send the invoice to the customer', 'Your invoice for order A-1002'],
      ['Wo ist A-1002?', 'schick ihm die Rechnung', 'Ihre Rechnung für Bestellung A-1002'],
      ['où en est la commande A-1002 ?', 'envoie la facture au client', 'Votre facture pour commande A-1002'],
    ] as const) {
      const tools = { ...shopTools(), send_email: { ...shopTools().send_email, needsApproval: true } };
      const before = await generateText({ model, tools, prompt: first, stopWhen: isStepCount(2) });
      const messages: ModelMessage[] = [{ role: 'user', content: first }, ...before.responseMessages, { role: 'user', content: then }];
      const result = await generateText({ model, tools, messages, stopWhen: isStepCount(3) });
      // It made the invoice and mailed nothing.
      expect(result.steps[0]?.toolCalls.map((call) => [call.toolName, call.input]), then).toEqual([['order_invoice', { order_id: 'A-1002' }]]);
      const approval = result.content.find((part) => part.type === 'tool-approval-request');
      expect(approval?.type === 'tool-approval-request' ? approval.toolCall.input : undefined, then).toEqual({
        order_id: 'A-1002',
        subject,
        body: 'Invoice INV-A-1002 of order A-1002; total 89.00 EUR.',
      });
    }
  });

  it('answers "how many?" after a lookup by id with what it showed, and that it was no list (EN/DE/FR), with no tool', async () => {
    const model = createOfflineModel();
    const followUp = conversation(model, shopTools());
    // They got the help text.
    expect(await followUp('where is A-1002', 'how many?')).toEqual({
      text: 'That was a lookup by id, not a list: it showed 1 (A-1002, with query_order), and nothing more was counted. No tool was needed for that.',
      calls: [],
    });
    expect((await followUp('where are A-1002 and A-1003', 'how many?')).text).toMatch(/^That was a lookup by id, not a list: it showed 2 \(A-1002 and A-1003, with query_order\)/);
    expect((await followUp('Wo ist A-1002?', 'wie viele?')).text).toMatch(/^Das war eine Abfrage nach Nummer, keine Liste: Sie zeigte 1 \(A-1002, mit query_order\)/);
    expect((await followUp('où est A-1002 ?', 'combien ?')).text).toMatch(/^C'était une recherche par identifiant, pas une liste : elle en montrait 1 \(A-1002, avec query_order\)/);
    // After a list, its count as before.
    expect((await followUp('show me the late orders', 'how many?')).text).toBe('The list showed 3: A-1012, A-1006 and A-1002. No tool was needed for that.');
  });

  it('counts "quel jour sera-t-il là-bas demain ?" after a clock from the date there, with no tool, as it does in English and German', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const followUp = conversation(model, shopTools());
    // It asked for world_clock's time zone ("il", "t" of "sera-t-il" were words of a request of their own).
    expect(await followUp('quelle heure est-il à Tokyo ?', 'quel jour sera-t-il là-bas demain ?')).toEqual({
      text: "« demain » est le 2026-11-22, un dimanche (à partir du 2026-11-21 à Asia/Tokyo). Je n'ai eu besoin d'aucun outil pour cela.",
      calls: [],
    });
    expect((await followUp('quelle heure est-il à Tokyo ?', 'quelle date serons-nous là-bas demain ?')).calls).toEqual([]);
    expect((await followUp('Wie spät ist es in Tokio?', 'was für ein Tag ist dort morgen?')).text).toBe(
      '„morgen“ ist der 2026-11-22, ein Sonntag (ab 2026-11-21 in Asia/Tokyo). Dafür brauchte ich kein Werkzeug.',
    );
  });

  it('says a clock\'s time and a sum\'s result as sentences, not as the fields the tools returned (EN/DE/FR)', async () => {
    const model = createOfflineModel();
    const sum = tool({
      description: 'Evaluate an arithmetic expression exactly instead of doing mental math.',
      inputSchema: z.object({ expression: z.string().min(1) }),
      execute: async ({ expression }) => ({ expression, result: 36 }),
    });
    const tools = { ...shopTools(), calculate: sum };
    const answer = async (prompt: string) => (await generateText({ model, tools, prompt, stopWhen: isStepCount(2) })).text;
    // "world_clock returned time_zone Asia/Tokyo, local_date 2026-11-21, local_time 02:00:00, weekday Saturday, utc_offset +09:00."
    expect(await answer('What time is it in Tokyo?')).toBe('In Asia/Tokyo it is 02:00 on Saturday, 2026-11-21 (UTC+09:00).');
    expect(await answer('Wie spät ist es in Tokio?')).toBe('In Asia/Tokyo ist es 02:00 Uhr am Samstag, dem 2026-11-21 (UTC+09:00).');
    expect(await answer('Quelle heure est-il à Tokyo ?')).toBe('À Asia/Tokyo, il est 02:00, le samedi 2026-11-21 (UTC+09:00).');
    // "calculate returned expression 15 / 100 * 240, result 36."
    expect(await answer('what is 15% of 240')).toBe('15 / 100 * 240 = 36.');
  });

  it('asks for the order on "send the invoice to the customer" alone, then makes the invoice and mails it once "A-1002" answers (EN/DE/FR)', async () => {
    const model = createOfflineModel();
    const followUp = conversation(model, shopTools());
    for (const [first, question, subject] of [
      ['send the invoice to the customer', 'I can do that with order_invoice, but I still need the order id (for example A-1001). Could you tell me?', 'Your invoice for order A-1002'],
      // It asked for send_email's order id, subject and text, and after the id for the subject and the text.
      [
        'Schick die Rechnung an den Kunden',
        'Das geht mit order_invoice, aber dafür brauche ich noch die Bestellnummer (zum Beispiel A-1001). Kannst du es mir sagen?',
        'Ihre Rechnung für Bestellung A-1002',
      ],
      ['envoie la facture au client', 'Je peux le faire avec order_invoice', 'Votre facture pour commande A-1002'],
    ] as const) {
      const tools = { ...shopTools(), send_email: { ...shopTools().send_email, needsApproval: true } };
      const asked = await generateText({ model, tools, prompt: first });
      expect(asked.text.startsWith(question), asked.text).toBe(true);
      const messages: ModelMessage[] = [{ role: 'user', content: first }, ...asked.responseMessages, { role: 'user', content: 'A-1002' }];
      const result = await generateText({ model, tools, messages, stopWhen: isStepCount(3) });
      // It made the invoice and mailed nothing.
      expect(result.steps[0]?.toolCalls.map((call) => [call.toolName, call.input]), first).toEqual([['order_invoice', { order_id: 'A-1002' }]]);
      const approval = result.content.find((part) => part.type === 'tool-approval-request');
      expect(approval?.type === 'tool-approval-request' ? approval.toolCall.input : undefined, first).toEqual({
        order_id: 'A-1002',
        subject,
        body: 'Invoice INV-A-1002 of order A-1002; total 89.00 EUR.',
      });
    }
    // An invoice alone is made alone, as before.
    expect((await followUp('invoice please', 'A-1002')).calls).toEqual([['order_invoice', { order_id: 'A-1002' }]]);
  });

  it('writes the apology "envoie-lui des excuses", "sende ihm eine Entschuldigung" ask for after a lookup in that language, not half in English', async () => {
    const model = createOfflineModel();
    for (const [first, then, body] of [
      ['où est ma commande A-1006', 'envoie-lui des excuses', 'Nous nous excusons. Votre commande A-1006 est delayed, date de livraison 2026-12-03.'],
      ['Wo ist A-1006?', 'sende ihm eine Entschuldigung', 'Wir entschuldigen uns. Ihre Bestellung A-1006 ist delayed, Lieferdatum 2026-12-03.'],
    ] as const) {
      const tools = shopTools();
      const before = await generateText({ model, tools, prompt: first, stopWhen: isStepCount(2) });
      const messages: ModelMessage[] = [{ role: 'user', content: first }, ...before.responseMessages, { role: 'user', content: then }];
      const result = await generateText({ model, tools, messages, stopWhen: isStepCount(2) });
      // "Nous nous excusons. Your order A-1006 is delayed, delivery date 2026-12-03." under an English answer.
      expect(result.steps.at(-1)?.toolCalls.map((call) => (call.input as { body: string }).body), then).toEqual([body]);
    }
  });

  it('reads "why is it late?" after a lookup as about that order, as "why is A-1010 late?" is, not as a task for the analyst', async () => {
    const model = createOfflineModel();
    const analyst = tool({
      description: 'A sub-agent that reviews delayed orders and writes a short report. Give it the task in plain words.',
      inputSchema: z.object({ task: z.string().min(1).describe('What to do, in plain words') }),
      execute: async () => ({ answer: 'A report on every delayed order.' }),
    });
    const followUp = conversation(model, { ...shopTools(), delay_analyst: analyst });
    // The analyst got "why is it late?" as its task, with nothing that says which order.
    expect(await followUp("where's A-1010", 'why is it late?')).toEqual({
      text: 'Reading "it" as A-1010, from earlier in our conversation.',
      calls: [['query_order', { order_id: 'A-1010' }]],
    });
    expect((await followUp('Wo ist A-1010?', 'warum ist sie verspätet?')).calls).toEqual([['query_order', { order_id: 'A-1010' }]]);
    // A question about the orders in general is still the analyst's, and a clock's question a clock's.
    expect((await followUp("where's A-1010", 'why are orders late?')).calls).toEqual([['delay_analyst', { task: 'why are orders late?' }]]);
    expect((await followUp("where's A-1010", 'what time is it in Tokyo?')).calls).toEqual([['world_clock', { time_zone: 'Asia/Tokyo' }]]);
  });

  it('makes and mails the next invoice on "and A-1003?" after "email it to the customer" mailed an invoice, and says the same words again otherwise', async () => {
    const model = createOfflineModel();
    const tools = { ...shopTools(), send_email: { ...shopTools().send_email, needsApproval: true } };
    const mails = async (texts: readonly string[]) =>
      (await approvedMails(model, tools, texts)).map((input) => [(input as { order_id: string }).order_id, (input as { body: string }).body]);
    // It looked A-1003 up and mailed nothing.
    expect(await mails(['show the invoice of A-1002', 'email it to the customer', 'and A-1003?'])).toEqual([
      ['A-1002', 'Invoice INV-A-1002 of order A-1002; total 89.00 EUR.'],
      ['A-1003', 'Invoice INV-A-1003 of order A-1003; total 89.00 EUR.'],
    ]);
    expect(await mails(['Zeig mir die Rechnung für A-1002', 'schick sie dem Kunden', 'und A-1003?'])).toEqual([
      ['A-1002', 'Invoice INV-A-1002 of order A-1002; total 89.00 EUR.'],
      ['A-1003', 'Invoice INV-A-1003 of order A-1003; total 89.00 EUR.'],
    ]);
    // Words the user gave go to the next customer as they were.
    expect(await mails(['show the invoice of A-1002', 'email the customer of A-1002 that it is ready', 'and A-1003?'])).toEqual([
      ['A-1002', 'it is ready'],
      ['A-1003', 'it is ready'],
    ]);
  });

  it('mails the customer a request names, each of a list, with what the mail is for: "where is A-1002 and email the customer of A-1003 to apologise"', async () => {
    const model = createOfflineModel();
    const mailed = async (prompt: string) => {
      const result = await generateText({ model, tools: shopTools(), prompt, stopWhen: isStepCount(2) });
      return result.steps.at(-1)?.toolCalls.map((call) => [(call.input as { order_id: string }).order_id, (call.input as { body: string }).body]);
    };
    // It looked A-1002 up alone and mailed A-1002's customer what that showed, with no apology.
    expect(await mailed('where is A-1002 and email the customer of A-1003 to apologise')).toEqual([
      ['A-1003', 'We apologise. Your order A-1003 is delayed, delivery date 2026-12-03.'],
    ]);
    // The mail opened with no apology.
    expect(await mailed('where is A-1002 and email the customer to apologise for the delay')).toEqual([
      ['A-1002', 'We apologise for the delay. Your order A-1002 is delayed, delivery date 2026-12-03.'],
    ]);
    // They asked for a subject and a body.
    const apology = (id: string) => [id, `We apologise for the delay. Your order ${id} is delayed, delivery date 2026-12-03.`];
    expect(await mailed('email the customers of A-1006 and A-1004 to apologise for the delay')).toEqual([apology('A-1006'), apology('A-1004')]);
    // Said of one ("Once I have looked it up, …").
    expect((await generateText({ model, tools: shopTools(), prompt: 'email the customers of A-1006 and A-1004 to apologise for the delay' })).text).toBe(
      "Once I have looked them up, I'll email the customers of A-1006 and A-1004 to apologise for the delay (send_email), saying what they show.",
    );
    const followUp = await generateText({
      model,
      tools: shopTools(),
      messages: [
        { role: 'user', content: 'email the customer of A-1002 to apologise for the delay' },
        { role: 'assistant', content: 'Done.' },
        { role: 'user', content: 'and A-1006 and A-1004?' },
      ],
      stopWhen: isStepCount(2),
    });
    expect(followUp.steps.at(-1)?.toolCalls.map((call) => [(call.input as { order_id: string }).order_id, (call.input as { body: string }).body])).toEqual([
      apology('A-1006'),
      apology('A-1004'),
    ]);
  });

  it('makes the invoice and mails it on "invoice for A-1002 and send it" (EN/DE/FR), "it" being what the request before makes', async () => {
    const model = createOfflineModel();
    for (const [prompt, subject] of [
      ['invoice for A-1002 and send it', 'Your invoice for order A-1002'],
      ['make the invoice for A-1002 and send it to the customer', 'Your invoice for order A-1002'],
      ['Rechnung für A-1002 und schick sie dem Kunden', 'Ihre Rechnung für Bestellung A-1002'],
      ['facture de A-1002 et envoie-la au client', 'Votre facture pour commande A-1002'],
    ] as const) {
      const result = await generateText({ model, tools: shopTools(), prompt, stopWhen: isStepCount(2) });
      // It made the invoice and said "send it" was no request it could do.
      expect(result.steps[0]?.text, prompt).toMatch(/^(?:Once it is made|Sobald es erstellt ist|Une fois le document fait)/);
      expect(result.steps.map((step) => step.toolCalls.map((call) => call.toolName)), prompt).toEqual([['order_invoice'], ['send_email']]);
      expect((result.steps[1]?.toolCalls[0]?.input as { subject?: string } | undefined)?.subject, prompt).toBe(subject);
    }
    // With nothing made before it, "send it" is named as not done.
    expect((await generateText({ model, tools: shopTools(), prompt: 'where is A-1002 and send it' })).text).toBe('I did not do "send it": none of my tools does that.');
  });

  it('counts "et demain ?", "and tomorrow?" after "et la date ?" after a clock from the date there, with no tool', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const third = async (texts: readonly [string, string, string]) => {
      const messages: ModelMessage[] = [];
      const answers: { text: string; calls: number }[] = [];
      for (const text of texts) {
        messages.push({ role: 'user', content: text });
        const result = await generateText({ model, tools: shopTools(), messages, stopWhen: isStepCount(2) });
        messages.push(...result.responseMessages);
        answers.push({ text: result.text, calls: result.toolCalls.length });
      }
      return answers.at(-1);
    };
    // It got the help text ("et demain ?"), or counted from today's UTC date ("and tomorrow?").
    expect(await third(['quelle heure est-il à Tokyo', 'et la date ?', 'et demain ?'])).toEqual({
      text: "« demain » est le 2026-11-22, un dimanche (à partir du 2026-11-21 à Asia/Tokyo). Je n'ai eu besoin d'aucun outil pour cela.",
      calls: 0,
    });
    expect((await third(['what time is it in Tokyo', 'and the date?', 'and tomorrow?']))?.text).toBe(
      '"tomorrow" is 2026-11-22, a Sunday (from 2026-11-21 in Asia/Tokyo). No tool was needed for that.',
    );
  });

  it('makes the invoice once the move is made and mails it then, on "move A-1002 to friday and send the invoice" (EN/DE/FR)', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    // The invoice reads the order as it is when it is made: after the move, it carries the new date.
    let date = '2026-12-03';
    const shop = shopTools();
    const tools = {
      ...shop,
      update_delivery_date: tool({
        ...shop.update_delivery_date,
        execute: async ({ order_id, new_date }: { order_id: string; new_date: string }) => {
          date = new_date;
          return { order_id, delivery_date: new_date };
        },
      }),
      order_invoice: tool({ ...shop.order_invoice, execute: async ({ order_id }) => ({ summary: `Invoice INV-${order_id}, delivery ${date}; total 89.00 EUR.` }) }),
      send_email: { ...shop.send_email, needsApproval: true },
    };
    // Each approval is answered as `decide` says; the calls of each request and the last answer's words.
    const run = async (prompt: string, decide: (name: string) => boolean) => {
      const messages: ModelMessage[] = [{ role: 'user', content: prompt }];
      const calls: unknown[][] = [];
      let text = '';
      for (let round = 0; round < 4; round++) {
        const result = await generateText({ model, tools, messages, stopWhen: isStepCount(3) });
        messages.push(...result.responseMessages);
        calls.push(...result.steps.map((step) => step.toolCalls.map((call) => call.toolName)).filter((names) => names.length > 0));
        text = result.text;
        const approval = result.content.find((part) => part.type === 'tool-approval-request');
        if (approval?.type !== 'tool-approval-request') break;
        const approved = decide(approval.toolCall.toolName);
        messages.push({ role: 'tool', content: [{ type: 'tool-approval-response', approvalId: approval.approvalId, approved }] });
        if (approval.toolCall.toolName === 'send_email') calls.push([approval.toolCall.input]);
      }
      return { calls, text };
    };
    for (const [prompt, subject] of [
      ['move A-1002 to friday and send the invoice', 'Your invoice for order A-1002'],
      ['verschiebe A-1002 auf Freitag und schick die Rechnung', 'Ihre Rechnung für Bestellung A-1002'],
      ['décale A-1002 à vendredi et envoie la facture', 'Votre facture pour commande A-1002'],
    ] as const) {
      date = '2026-12-03';
      // It made the invoice beside the move (with the old date) and mailed nothing.
      const done = await run(prompt, () => true);
      expect(done.calls, prompt).toEqual([
        ['update_delivery_date'],
        ['order_invoice'],
        ['send_email'],
        [{ order_id: 'A-1002', subject, body: 'Invoice INV-A-1002, delivery 2026-11-27; total 89.00 EUR.' }],
      ]);
    }
    const first = await generateText({ model, tools, prompt: 'move A-1002 to friday and send the invoice', stopWhen: isStepCount(1) });
    expect(first.text).toBe(
      'Reading "friday" as 2026-11-27 (today is 2026-11-20 UTC). ' +
        "Once the change is made, I'll make it with order_invoice, then send the invoice (send_email), saying what it holds, so it is up to date.",
    );
    // A move that is denied makes no invoice and mails nothing, and says so.
    const denied = await run('move A-1002 to friday and send the invoice', () => false);
    expect(denied.calls).toEqual([['update_delivery_date']]);
    expect(denied.text).toMatch(/\n\nI did not send the invoice: the change was not made, so there is nothing new to say\.$/);
  });

  it('puts "19% VAT" on the total an invoice showed ("how much is that with 19% VAT?"), with the calculator or said, not a new invoice', async () => {
    const model = createOfflineModel();
    const talk = conversation(model, { ...shopTools(), calculate: calculator() });
    // It read "that" as A-1002 and made its invoice again.
    expect(await talk('invoice for A-1002', 'how much is that with 19% VAT?')).toEqual({
      text: 'Reading "that" as 89.00 EUR, from earlier in our conversation.',
      calls: [['calculate', { expression: '89.00 * (1 + 19 / 100)' }]],
    });
    expect((await talk('Rechnung für A-1002', 'wie viel ist das mit 19 % MwSt?')).calls).toEqual([['calculate', { expression: '89.00 * (1 + 19 / 100)' }]]);
    expect((await talk('facture de A-1002', 'combien ça fait avec 20 % de TVA ?')).calls).toEqual([['calculate', { expression: '89.00 * (1 + 20 / 100)' }]]);
    // A part of it, and a sum's result taken on as its expression.
    expect((await talk('invoice for A-1002', 'what is 19% of it?')).calls).toEqual([['calculate', { expression: '19 / 100 * 89.00' }]]);
    expect((await talk('what is 17*23', 'how much is that with 19% VAT?')).calls).toEqual([['calculate', { expression: '(17*23) * (1 + 19 / 100)' }]]);
    // A rate taken off is taken off ("of that" says what it is of): it was added, or taken as a part.
    expect((await talk('what is 250 + 50', 'take 10% off that')).calls).toEqual([['calculate', { expression: '(250 + 50) * (1 - 10 / 100)' }]]);
    expect((await talk('what is 80 * 1.5', 'minus 20% of that')).calls).toEqual([['calculate', { expression: '(80 * 1.5) * (1 - 20 / 100)' }]]);
    expect((await talk('invoice for A-1002', 'what is that with a 10% discount?')).calls).toEqual([['calculate', { expression: '89.00 * (1 - 10 / 100)' }]]);
    // With no calculator it is worked out and said.
    expect(await conversation(model, shopTools())('invoice for A-1002', 'how much is that with 19% VAT?')).toEqual({
      text: 'Reading "that" as 89.00 EUR, from earlier in our conversation. 89.00 * (1 + 19 / 100) = 105.91',
      calls: [],
    });
    // After a lookup, which shows no amount, say so and what shows one (it looked the order up again: nothing asked).
    expect(await talk('where is A-1002', 'what is 19% of it?')).toEqual({
      text:
        'What query_order showed for A-1002 has no amount that "what is 19% of it" could be put on (it gives a status and dates). ' +
        'order_invoice shows a total: ask me for it first, or give me the amount, as in "120 with 19%".',
      calls: [],
    });
    expect((await talk('where is A-1002', 'and with 19% VAT?')).text).toMatch(/^What query_order showed for A-1002 has no amount that "and with 19% VAT" /);
    expect((await talk('wo ist A-1002', 'und mit 19% MwSt?')).text).toMatch(/^Was query_order für A-1002 zeigte, hat keinen Betrag, auf den „und mit 19% MwSt“ käme/);
    expect((await talk('où en est A-1002 ?', 'et avec 20 % de TVA ?')).text).toMatch(/ par exemple « 120 avec 20 % »\.$/);
    // With no tool that shows a total, only how to give the amount.
    const { order_invoice: _, ...lookups } = { ...shopTools(), calculate: calculator() };
    expect((await conversation(model, lookups)('where is A-1002', 'and with 19% VAT?')).text).toMatch(/dates\)\. Give me the amount, as in "120 with 19%"\.$/);
  });

  it('answers "how many?" after the chart with the total and the counts its caption gave (EN/DE/FR), with no tool', async () => {
    const model = createOfflineModel();
    // The demo's chart reaches the model as its caption and the image (apps/worker/src/tools/orders-chart.ts).
    const caption = 'Bar chart of the 12 orders by status, left to right: pending 2 (amber), shipped 3 (blue), delayed 6 (red), delivered 1 (green).';
    const chart = tool({
      description: 'Draw a bar chart (PNG image) of all orders by status: pending, shipped, delayed, delivered.',
      inputSchema: z.object({}),
      execute: async () => ({ caption }),
      toModelOutput: ({ output }) => ({ type: 'content', value: [{ type: 'text', text: output.caption }] }),
    });
    const talk = conversation(model, { ...shopTools(), orders_chart: chart });
    // It got the help text ("I did not find a tool for that").
    expect(await talk('show me a chart of the orders', 'how many?')).toEqual({
      text: 'orders_chart counted 12 orders in all: pending 2, shipped 3, delayed 6, delivered 1. No tool was needed for that.',
      calls: [],
    });
    expect((await talk('zeig mir ein Diagramm der Bestellungen', 'wie viele?')).text).toBe(
      'orders_chart zählte insgesamt 12: pending 2, shipped 3, delayed 6, delivered 1. Dafür brauchte ich kein Werkzeug.',
    );
    expect((await talk('montre-moi un graphique des commandes', 'combien ?')).text).toMatch(/^orders_chart en comptait 12 en tout : pending 2, /);
    // After a list, still the list's count.
    expect((await talk('which orders are delayed?', 'how many?')).text).toBe('The list showed 3: A-1012, A-1006 and A-1002. No tool was needed for that.');
  });

  it('says the reasons an audit flagged each order for, in its words, not "2 items"', async () => {
    // The demo's audit_orders result (apps/worker/src/tools/order-store.ts: auditReasons).
    const audit = tool({
      description: 'Audit every open (not yet delivered) order and flag those that need attention. Takes no arguments.',
      inputSchema: z.object({}),
      execute: async () => ({
        checked: 10,
        flagged: [
          { id: 'A-1002', customer: 'Grace Hopper', reasons: ['running 4 days late'] },
          { id: 'A-1006', customer: 'Margaret Hamilton', reasons: ['status is delayed', 'running 9 days late'] },
        ],
      }),
    });
    const result = await generateText({ model: createOfflineModel(), tools: { audit_orders: audit }, prompt: 'Audit the open orders', stopWhen: isStepCount(2) });
    expect(result.steps[0]?.toolCalls.map((call) => call.toolName)).toEqual(['audit_orders']);
    // It said "reasons: 1 item" and "reasons: 2 items".
    expect(result.text).toBe(
      'audit_orders returned 2 results: A-1002 (customer Grace Hopper, reasons: running 4 days late); ' +
        'A-1006 (customer Margaret Hamilton, reasons: status is delayed, running 9 days late).',
    );
  });

  it('takes the value a message corrects itself to ("friday, no wait, saturday", "A-1003, sorry I meant A-1002"), EN/DE/FR', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const calls = async (prompt: string) => {
      const result = await generateText({ model, tools: shopTools(), prompt, stopWhen: isStepCount(1) });
      return { text: result.text, calls: result.toolCalls.map((call) => [call.toolName, call.input]) };
    };
    // It asked to move A-1002 to Friday (2026-11-27), the day taken back.
    expect(await calls('move A-1002 to friday, no wait, saturday')).toEqual({
      text: 'Reading "saturday" as 2026-11-21 (today is 2026-11-20 UTC).',
      calls: [['update_delivery_date', { order_id: 'A-1002', new_date: '2026-11-21' }]],
    });
    const saturday = [['update_delivery_date', { order_id: 'A-1002', new_date: '2026-11-21' }]];
    expect((await calls('move A-1002 to friday. Actually, make it saturday')).calls).toEqual(saturday);
    expect((await calls('Verschiebe A-1002 auf Freitag, nein lieber Samstag')).calls).toEqual(saturday);
    expect((await calls('décale A-1002 à vendredi, non plutôt samedi')).calls).toEqual(saturday);
    // A day of the month after the correction, read as after "to" (it kept the 5th).
    const sixth = [['update_delivery_date', { order_id: 'A-1002', new_date: '2026-12-06' }]];
    expect((await calls('move A-1002 to the 5th, no sorry, the 6th')).calls).toEqual(sixth);
    expect((await calls('décale A-1002 au 5, non plutôt le 6')).calls).toEqual(sixth);
    expect((await calls('move A-1002 to 2026-12-01, I mean 2026-12-02')).calls).toEqual([['update_delivery_date', { order_id: 'A-1002', new_date: '2026-12-02' }]]);
    // It looked both orders up.
    expect((await calls('where is A-1003, sorry I meant A-1002')).calls).toEqual([['query_order', { order_id: 'A-1002' }]]);
    // Words after "I mean" that are no value are read as they are.
    expect((await calls('where is A-1002, I mean, what is its status')).calls).toEqual([['query_order', { order_id: 'A-1002' }]]);
  });

  it('reads "tiem" as "time" ("what is the tiem in tokyo", "and in london"), and a clock follows it', async () => {
    const model = createOfflineModel();
    const result = await generateText({ model, tools: shopTools(), prompt: 'what is the tiem in tokyo', stopWhen: isStepCount(2) });
    // It got the help text.
    expect(result.steps[0]?.toolCalls.map((call) => call.input)).toEqual([{ time_zone: 'Asia/Tokyo' }]);
    expect(result.text).toMatch(/^In Asia\/Tokyo it is 02:00 on Saturday, 2026-11-21/);
    const cities = await generateText({ model, tools: shopTools(), prompt: 'whats the tiem in new york and london', stopWhen: isStepCount(1) });
    expect(cities.toolCalls.map((call) => call.input)).toEqual([{ time_zone: 'America/New_York' }, { time_zone: 'Europe/London' }]);
  });

  it('puts the calculator\'s functions on the last sum ("round that to 1 digit", "square root of that", "runde das", "arrondis ça")', async () => {
    const talk = conversation(createOfflineModel(), { ...shopTools(), calculate: calculator() });
    // It asked for an expression.
    expect(await talk('what is 12.5% of 81', 'round that to 1 digit')).toEqual({ text: '', calls: [['calculate', { expression: 'round((12.5 / 100 * 81), 1)' }]] });
    expect((await talk('what is 17*23', 'square root of that')).calls).toEqual([['calculate', { expression: 'sqrt((17*23))' }]]);
    expect((await talk('was ist 10 durch 3', 'runde das auf 2 Stellen')).calls).toEqual([['calculate', { expression: 'round((10 / 3), 2)' }]]);
    expect((await talk('combien font 10 divisé par 3', 'arrondis ça à 2 décimales')).calls).toEqual([['calculate', { expression: 'round((10 / 3), 2)' }]]);
    expect((await talk('what is 10/3', 'round it')).calls).toEqual([['calculate', { expression: 'round((10/3))' }]]);
    // With no sum before, no sum is made up.
    expect((await talk('where is A-1002', 'round that to 2 digits')).calls.filter(([name]) => name === 'calculate')).toEqual([]);
  });

  it('says how far apart the clocks of the message before are on "what is the time difference?" (EN/DE/FR), with no tool', async () => {
    const offsets: Record<string, string> = {
      'America/New_York': '-05:00',
      'Asia/Tokyo': '+09:00',
      'Asia/Kolkata': '+05:30',
      'Asia/Kathmandu': '+05:45',
      'Europe/Berlin': '+01:00',
      'Europe/Paris': '+01:00',
      'Europe/London': '+00:00',
    };
    const clock = tool({
      description: 'Get the current local date, time, weekday and UTC offset in a time zone.',
      inputSchema: z.object({ time_zone: z.string().describe('IANA time zone, e.g. Europe/Berlin') }),
      execute: async ({ time_zone }) => ({ time_zone, local_date: '2026-11-20', local_time: '12:00:00', weekday: 'Friday', utc_offset: offsets[time_zone] ?? '+00:00' }),
    });
    const talk = conversation(createOfflineModel(), { ...shopTools(), world_clock: clock });
    // It got the help text.
    expect(await talk('what time is it in New York and Tokyo?', 'what is the time difference?')).toEqual({
      text: 'Against America/New_York (UTC-05:00), Asia/Tokyo is 14 hours ahead (UTC+09:00). No tool was needed for that.',
      calls: [],
    });
    expect((await talk('time in Tokyo, Delhi and Berlin', 'how many hours apart are they?')).text).toBe(
      'Against Europe/Berlin (UTC+01:00), Asia/Kolkata is 4 hours 30 minutes ahead (UTC+05:30) and Asia/Tokyo is 8 hours ahead (UTC+09:00). ' +
        'No tool was needed for that.',
    );
    expect((await talk('Wie spät ist es in Tokio und New York?', 'Wie groß ist der Zeitunterschied?')).text).toMatch(
      /^Gegenüber America\/New_York \(UTC-05:00\): Asia\/Tokyo ist 14 Stunden voraus \(UTC\+09:00\)\./,
    );
    // Asked whether they agree (it asked for a time zone).
    expect((await talk('time in London and in Tokyo', 'are they the same?')).text).toMatch(/^Against Europe\/London \(UTC\+00:00\), Asia\/Tokyo is 9 hours ahead/);
    expect((await talk('time in Berlin and Paris', 'is it the same time?')).text).toBe(
      'Against Europe/Berlin (UTC+01:00), Europe/Paris keeps the same time (UTC+01:00). No tool was needed for that.',
    );
    expect((await talk('Quelle heure est-il à Tokyo et à Berlin ?', 'quel est le décalage horaire ?')).text).toMatch(
      /^Par rapport à Europe\/Berlin \(UTC\+01:00\), Asia\/Tokyo a 8 heures d'avance \(UTC\+09:00\)\./,
    );
    // Under an hour apart, in minutes alone: it said "0 hours 15 minutes ahead".
    expect((await talk('time in Kolkata and Kathmandu', 'what is the time difference?')).text).toBe(
      'Against Asia/Kolkata (UTC+05:30), Asia/Kathmandu is 15 minutes ahead (UTC+05:45). No tool was needed for that.',
    );
  });

  it('reads "the customers of the flagged orders", "those customers", "diesen Kunden" after an audit or a list as each of them', async () => {
    const audit = tool({
      description: AUDIT_DESCRIPTION,
      inputSchema: z.object({}),
      execute: async () => ({ checked: 10, flagged: [{ id: 'A-1002', customer: 'Grace Hopper', reasons: ['running 4 days late'] }, { id: 'A-1006', customer: 'Margaret Hamilton', reasons: ['status is delayed'] }] }),
    });
    const talk = conversation(createOfflineModel(), { ...shopTools(), audit_orders: audit });
    const lookups = (...ids: string[]) => ids.map((id) => ['query_order', { order_id: id }]);
    // It ran the audit again.
    const flagged = await talk('audit the open orders', 'email the customers of the flagged orders to apologise');
    expect(flagged.calls).toEqual(lookups('A-1002', 'A-1006'));
    expect(flagged.text).toMatch(/^Reading "the flagged orders" as A-1002 and A-1006, from earlier in our conversation\. Once I have looked them up, /);
    // It asked for the order id, a subject and a body.
    expect((await talk('which orders are delayed?', 'email those customers to apologise')).calls).toEqual(lookups('A-1012', 'A-1006', 'A-1002'));
    expect((await talk('Prüfe die offenen Bestellungen', 'schreib diesen Kunden, um sich zu entschuldigen')).calls).toEqual(lookups('A-1002', 'A-1006'));
  });

  it('answers "which status has the most?" and "and the fewest?" after the chart from its caption\'s counts (EN/DE/FR), with no tool', async () => {
    const caption = 'Bar chart of the 12 orders by status, left to right: pending 2 (amber), shipped 3 (blue), delayed 6 (red), delivered 1 (green).';
    const chart = tool({
      description: 'Draw a bar chart (PNG image) of all orders by status: pending, shipped, delayed, delivered.',
      inputSchema: z.object({}),
      execute: async () => ({ caption }),
      toModelOutput: ({ output }) => ({ type: 'content', value: [{ type: 'text', text: output.caption }] }),
    });
    const model = createOfflineModel();
    const tools = { ...shopTools(), orders_chart: chart };
    const talk = conversation(model, tools);
    // It got the help text.
    expect(await talk('show me a chart of the orders', 'which status has the most?')).toEqual({ text: 'delayed has the most: 6 of 12. No tool was needed for that.', calls: [] });
    expect((await talk('zeig mir ein Diagramm der Bestellungen', 'welcher Status hat die meisten?')).text).toMatch(/^delayed hat die meisten: 6 von 12\./);
    expect((await talk('montre-moi un graphique des commandes', 'quel statut en a le plus ?')).text).toMatch(/^delayed en a le plus : 6 sur 12\./);
    // A third message goes on from the chart the conversation showed.
    const messages: ModelMessage[] = [{ role: 'user', content: 'show me a chart of the orders' }];
    messages.push(...(await generateText({ model, tools, messages, stopWhen: isStepCount(2) })).responseMessages, { role: 'user', content: 'which status has the most?' });
    messages.push(...(await generateText({ model, tools, messages, stopWhen: isStepCount(1) })).responseMessages, { role: 'user', content: 'and the fewest?' });
    expect((await generateText({ model, tools, messages, stopWhen: isStepCount(1) })).text).toBe('delivered has the fewest: 1 of 12. No tool was needed for that.');
    // A request for a tool is still that request.
    expect((await talk('show me a chart of the orders', 'which orders are delayed the most?')).calls).toEqual([['list_delayed_orders', {}]]);
  });

  it('says the date a clock just gave on "and what day is it there?" (EN/DE/FR), with no tool', async () => {
    const talk = conversation(createOfflineModel(), shopTools());
    // It called the clock again, or asked for a time zone (with the demo's tools).
    expect(await talk('time in Tokyo', 'and what day is it there?')).toEqual({ text: 'In Asia/Tokyo it is 2026-11-21, a Saturday. No tool was needed for that.', calls: [] });
    expect((await talk('Uhrzeit in Tokio', 'welcher Tag ist es dort?')).text).toMatch(/^In Asia\/Tokyo ist heute der 2026-11-21, ein Samstag\./);
    expect((await talk("l'heure à Tokyo", 'quel jour est-il là-bas ?')).text).toMatch(/^À Asia\/Tokyo, nous sommes le 2026-11-21, un samedi\./);
  });

  it('writes the apology "pour nous excuser" (and "pour s excuser", typed with no apostrophe) asks for, after a lookup', async () => {
    const model = createOfflineModel();
    const first = async (prompt: string) => {
      const result = await generateText({ model, tools: shopTools(), prompt, stopWhen: isStepCount(2) });
      return result.steps.flatMap((step) => step.toolCalls.map((call) => [call.toolName, call.input]));
    };
    const mail = (body: string) => ['send_email', { order_id: 'A-1002', subject: 'Nous nous excusons', body }];
    const body = 'Nous nous excusons. Votre commande A-1002 est delayed, date de livraison 2026-12-03.';
    // Both asked for a subject and a body.
    expect(await first('écris au client de A-1002 pour nous excuser')).toEqual([['query_order', { order_id: 'A-1002' }], mail(body)]);
    expect(await first('écris au client de A-1002 pour s excuser')).toEqual([['query_order', { order_id: 'A-1002' }], mail(body)]);
  });

  it('answers "which one is the worst?" after an audit, "which one is later?" after two clocks or orders, "what is the total?" after an invoice, from what they showed (EN/DE/FR)', async () => {
    const audit = tool({
      description: AUDIT_DESCRIPTION,
      inputSchema: z.object({}),
      execute: async () => ({
        checked: 10,
        flagged: [
          { id: 'A-1002', customer: 'Grace Hopper', reasons: ['status is delayed', 'running 4 days late'] },
          { id: 'A-1006', customer: 'Margaret Hamilton', reasons: ['status is delayed', 'running 9 days late'] },
          { id: 'A-1009', customer: 'Alan Turing', reasons: ['delivery date 2026-11-18 has passed'] },
        ],
      }),
    });
    const dates: Record<string, [string, number]> = { 'A-1002': ['2026-12-03', 4], 'A-1006': ['2026-12-12', 9] };
    const lookup = tool({
      description: 'Look up one customer order by its id (format A-1001). Returns its status and delivery date.',
      inputSchema: z.object({ order_id: z.string().regex(/^A-\d{4}$/).describe('The order id, e.g. A-1001') }),
      execute: async ({ order_id }) => ({ found: true, order: { id: order_id, status: 'delayed', delivery_date: dates[order_id]?.[0], delay_days: dates[order_id]?.[1] } }),
    });
    const clocks: Record<string, [string, string, string]> = {
      'Asia/Tokyo': ['2026-11-21', '02:00:00', '+09:00'],
      'America/New_York': ['2026-11-20', '12:00:00', '-05:00'],
      'Europe/Berlin': ['2026-11-20', '18:00:00', '+01:00'],
    };
    const clock = tool({
      description: 'Get the current local date, time, weekday and UTC offset in a time zone.',
      inputSchema: z.object({ time_zone: z.string().describe('IANA time zone, e.g. Europe/Berlin') }),
      execute: async ({ time_zone }) => {
        const [local_date, local_time, utc_offset] = clocks[time_zone] ?? ['2026-11-20', '17:00:00', '+00:00'];
        return { time_zone, local_date, local_time, utc_offset };
      },
    });
    const tools = { ...shopTools(), query_order: lookup, world_clock: clock, audit_orders: audit, calculate: calculator() };
    const talk = conversation(createOfflineModel(), tools);
    // It looked A-1002 up (the first order the audit named).
    expect(await talk('Audit the open orders', 'which one is the worst?')).toEqual({
      text:
        'A-1006 is the furthest behind (status is delayed, running 9 days late); A-1002: status is delayed, running 4 days late; ' +
        'A-1009: delivery date 2026-11-18 has passed. No tool was needed for that.',
      calls: [],
    });
    expect((await talk('Prüfe die offenen Bestellungen', 'welche ist am schlimmsten?')).text).toMatch(/^A-1006 ist am weitesten im Verzug \(status is delayed, running 9 days late\); /);
    expect((await talk('audite les commandes ouvertes', 'laquelle est la pire ?')).text).toMatch(/^A-1006 a le plus de retard \(status is delayed, running 9 days late\) ; /);
    // Two lookups: by the days late each shows, or by its date (it got the help text).
    expect((await talk('where are A-1002 and A-1006', 'which one is the worst?')).text).toBe('A-1006 is the furthest behind (9 days late); A-1002: 4 days late. No tool was needed for that.');
    expect(await talk('where are A-1002 and A-1006', 'which one is later?')).toEqual({ text: 'A-1006 is later: 2026-12-12, against 2026-12-03 (A-1002). No tool was needed for that.', calls: [] });
    // Two clocks, by the date and time each shows there (it got the help text).
    expect((await talk('time in Tokyo and New York', 'which one is later?')).text).toBe(
      'Asia/Tokyo is later: 2026-11-21 02:00, against 2026-11-20 12:00 (America/New_York). No tool was needed for that.',
    );
    expect((await talk('Wie spät ist es in Tokio und Berlin?', 'wo ist es früher?')).text).toMatch(/^Europe\/Berlin ist früher: 2026-11-20 18:00, gegenüber 2026-11-21 02:00 \(Asia\/Tokyo\)\./);
    expect((await talk('Quelle heure est-il à Tokyo et à Berlin ?', 'laquelle est plus tard ?')).text).toMatch(/^Asia\/Tokyo est plus tard : 2026-11-21 02:00, contre /);
    // Of three, the latest; a request for several ("the best ones", "the latest orders") is no question of one.
    expect((await talk('time in Tokyo, New York and Berlin', 'which one is the latest?')).text).toMatch(/^Asia\/Tokyo is the latest: 2026-11-21 02:00, against /);
    expect((await talk('where are A-1002 and A-1006', 'the best ones')).text).not.toMatch(/least behind/);
    expect((await talk('which orders are delayed?', 'the latest orders please')).text).not.toMatch(/ is later: /);
    // A list a bound cuts is asked again with it, as before; one clock is nothing to compare.
    expect((await talk('which orders are delayed?', 'which one is the worst?')).calls).toEqual([['list_delayed_orders', { limit: 1 }]]);
    expect((await talk('time in Tokyo', 'which one is later?')).text).not.toMatch(/later:/);
    // The total an invoice showed (it looked A-1002 up).
    expect(await talk('invoice for A-1002', 'what is the total?')).toEqual({ text: 'order_invoice showed a total of 89.00 EUR. No tool was needed for that.', calls: [] });
    expect((await talk('Rechnung für A-1002', 'wie hoch ist die Summe?')).text).toBe('order_invoice zeigte eine Summe von 89.00 EUR. Dafür brauchte ich kein Werkzeug.');
    expect((await talk('facture de A-1002', 'quel est le total ?')).text).toBe("order_invoice indiquait un total de 89.00 EUR. Je n'ai eu besoin d'aucun outil pour cela.");
    // "round that" after a lookup: no number to round, said plainly (it looked A-1002 up again); after a sum, rounded.
    expect(await talk('where is A-1002', 'round that')).toEqual({
      text: 'What query_order showed for A-1002 has no number that "round that" could work on (it gives a status and dates). Give me the number, as in "round 3.14159 to 2 digits".',
      calls: [],
    });
    expect((await talk('wo ist A-1002', 'runde das')).text).toMatch(/^Was query_order für A-1002 zeigte, hat keine Zahl, mit der „runde das“ rechnen könnte/);
    expect((await talk('what is 10 / 3', 'round that')).calls).toEqual([['calculate', { expression: 'round((10 / 3))' }]]);
  });

  it('plays the demo\'s user: follow-ups across turns, the worst of an audit by its reasons, a rate alone, "vérifie", a day read once', async () => {
    const audit = tool({
      description: AUDIT_DESCRIPTION,
      inputSchema: z.object({}),
      execute: async () => ({
        checked: 10,
        flagged: [
          { id: 'A-1002', customer: 'Grace Hopper', reasons: ['status is delayed', 'running 4 days late'] },
          { id: 'A-1006', customer: 'Margaret Hamilton', reasons: ['status is delayed', 'running 9 days late'] },
        ],
      }),
    });
    const dates: Record<string, [string, number]> = { 'A-1002': ['2026-12-03', 4], 'A-1006': ['2026-12-12', 9] };
    const lookup = tool({
      description: 'Look up one customer order by its id (format A-1001). Returns its status and delivery date.',
      inputSchema: z.object({ order_id: z.string().regex(/^A-\d{4}$/).describe('The order id, e.g. A-1001') }),
      execute: async ({ order_id }) => ({ found: true, order: { id: order_id, status: 'delayed', delivery_date: dates[order_id]?.[0], delay_days: dates[order_id]?.[1] } }),
    });
    const offsets: Record<string, string> = { 'Europe/Berlin': '+01:00', 'Asia/Kathmandu': '+05:45' };
    const clock = tool({
      description: 'Get the current local date, time, weekday and UTC offset in a time zone.',
      inputSchema: z.object({ time_zone: z.string().describe('IANA time zone, e.g. Europe/Berlin') }),
      execute: async ({ time_zone }) => ({ time_zone, local_date: '2026-11-20', local_time: '12:00:00', utc_offset: offsets[time_zone] ?? '+00:00' }),
    });
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const tools = { ...shopTools(), query_order: lookup, world_clock: clock, audit_orders: audit, calculate: calculator() };
    const talk = talker(model, tools);
    // The clocks of two turns: it read the browser's time zone (one clock in the message before).
    expect((await talk('time in Berlin', 'and in Kathmandu?', 'what is the time difference?')).text).toBe(
      'Against Europe/Berlin (UTC+01:00), Asia/Kathmandu is 4 hours 45 minutes ahead (UTC+05:45). No tool was needed for that.',
    );
    // Two lookups of two turns: it looked A-1006 up again; "and the worst?" after that answer reads them still.
    expect(await talk('where is A-1002', 'and A-1006?', 'which one is later?')).toEqual({
      text: 'A-1006 is later: 2026-12-12, against 2026-12-03 (A-1002). No tool was needed for that.',
      calls: [],
    });
    expect((await talk('where is A-1002', 'and A-1006?', 'which one is later?', 'and the worst?')).text).toMatch(/^A-1006 is the furthest behind \(9 days late\)/);
    // A lookup and a clock are nothing to compare.
    expect((await talk('time in Berlin', 'where is A-1002', 'which one is later?')).text).not.toMatch(/ is later: /);
    // "the worst one" of an audit is the one furthest behind, not the first it named (A-1002).
    expect((await talk('audit the orders', 'email the customer of the worst one to apologise')).calls).toEqual([['query_order', { order_id: 'A-1006' }]]);
    // A rate alone after an invoice is put on its total (it looked the order up), in each language.
    expect(await talk('Rechnung für A-1002', 'und mit 19% MwSt?')).toEqual({
      text: 'Ich rechne es auf 89.00 EUR aus unserem Gespräch.',
      calls: [['calculate', { expression: '89.00 * (1 + 19 / 100)' }]],
    });
    expect((await talk('invoice for A-1002', 'and with 19% VAT?')).calls).toEqual([['calculate', { expression: '89.00 * (1 + 19 / 100)' }]]);
    expect((await talk('facture de A-1002', 'et avec 20 % de TVA ?')).calls).toEqual([['calculate', { expression: '89.00 * (1 + 20 / 100)' }]]);
    // "vérifie", "überprüfe", "prüfe" are "check": it asked for an order id, or ran the audit for one order.
    expect((await talk('Vérifie les commandes ouvertes')).calls).toEqual([['audit_orders', {}]]);
    expect((await talk('Vérifie les commandes ouvertes', 'laquelle est la pire ?')).text).toMatch(/^A-1006 a le plus de retard \(status is delayed, running 9 days late\) ; /);
    expect((await talk('Prüfe A-1002')).calls).toEqual([['query_order', { order_id: 'A-1002' }]]);
    expect((await talk('vérifie mon panier')).calls).toEqual([['cart_list', {}]]);
    // "check all orders" is the audit ("No tool lists all orders").
    expect((await talk('check all orders')).calls).toEqual([['audit_orders', {}]]);
    // A day read once, however often it is said ("Reading "friday" as 2026-11-27 and "friday" as 2026-11-27").
    expect((await talk('move A-1002 to friday and A-1003 to friday')).text).toMatch(/^Reading "friday" as 2026-11-27 \(today is 2026-11-20 UTC\)\./);
  });

  it('plays the demo\'s user: a list member after a question between, a rate taken off, the total again, "tokyo I mean", a city typed wrong', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const tools = { ...shopTools(), calculate: calculator() };
    const talk = talker(model, tools);
    // The list of the turn before "combien ?" (it asked for an order id, a subject and a body); "those customers" alike.
    expect((await talk('montre-moi les commandes en retard', 'combien ?', 'écris au premier client pour nous excuser')).calls).toEqual([['query_order', { order_id: 'A-1012' }]]);
    expect((await talk('which orders are delayed?', 'thanks', 'where is the second one?')).calls).toEqual([['query_order', { order_id: 'A-1006' }]]);
    expect((await talk('which orders are delayed?', 'how many?', 'email those customers that we are sorry')).calls.map((call) => call[0])).toEqual([
      'send_email',
      'send_email',
      'send_email',
    ]);
    // A rate taken off alone (it asked for an expression), and the sum goes on from it.
    expect((await talk('what is 250 + 50', 'minus 10%')).calls).toEqual([['calculate', { expression: '(250 + 50) * (1 - 10 / 100)' }]]);
    expect((await talk('what is 250 + 50', 'minus 10%', 'and divide by 3')).calls).toEqual([['calculate', { expression: '((250 + 50) * (1 - 10 / 100)) / 3' }]]);
    expect((await talk('Rechnung für A-1002', 'abzüglich 5 %')).calls).toEqual([['calculate', { expression: '89.00 * (1 - 5 / 100)' }]]);
    // "what was the total again?" after the invoice was mailed (it looked the order up).
    expect((await talk('invoice for A-1002', 'send it to the customer', 'what was the total again?')).text).toBe(
      'order_invoice showed a total of 89.00 EUR. No tool was needed for that.',
    );
    // A correction after its value: "tokyo I mean" (it got the help text), "A-1003 I meant"; "what I mean" is no correction.
    expect((await talk('time in Berlin', 'tokyo I mean')).calls).toEqual([['world_clock', { time_zone: 'Asia/Tokyo' }]]);
    expect((await talk('Uhrzeit in Berlin', 'Tokio meinte ich')).calls).toEqual([['world_clock', { time_zone: 'Asia/Tokyo' }]]);
    expect((await talk('where is A-1002', 'A-1003 I meant')).calls).toEqual([['query_order', { order_id: 'A-1003' }]]);
    expect((await talk('tell them what I mean')).calls).toEqual([]);
    // A city typed with two letters swapped or one left out is read as it, and said so (it did not know the place); a
    // place one slip from none is still not known.
    expect(await talk('time in new yrok')).toEqual({ text: 'Reading "new yrok" as New York.', calls: [['world_clock', { time_zone: 'America/New_York' }]] });
    expect((await talk('time in new yrok', 'and londn?')).calls).toEqual([['world_clock', { time_zone: 'Europe/London' }]]);
    expect((await talk('Uhrzeit in Berln')).text).toBe('Ich lese „Berln“ als Berlin.');
    expect((await talk('time in Bolton')).text).toMatch(/^I don't know where "Bolton" is/);
    // What was made or looked up before a question answered with no tool is mailed (it asked for a subject and a body).
    expect((await talk('invoice for A-1002', 'what is the total?', 'send it to the customer')).calls).toEqual([
      ['send_email', { order_id: 'A-1002', subject: 'Your invoice for order A-1002', body: 'Invoice INV-A-1002 of order A-1002; total 89.00 EUR.' }],
    ]);
    expect((await talk('Rechnung für A-1002', 'wie hoch ist die Summe?', 'schick sie dem Kunden')).calls.map((call) => call[0])).toEqual(['send_email']);
    // A calculator's function alone goes on from the sum (it got the help text).
    expect((await talk('what is 7 x 8', 'and the square root?')).calls).toEqual([['calculate', { expression: 'sqrt((7 * 8))' }]]);
    expect((await talk('what is 2.345 * 3', 'rounded?')).calls).toEqual([['calculate', { expression: 'round((2.345 * 3))' }]]);
    expect((await talk('what is 2.345 * 3', 'und die Wurzel?')).calls).toEqual([['calculate', { expression: 'sqrt((2.345 * 3))' }]]);
    // "that day" is the day the answer before gave (it asked for a date), and said so.
    expect(await talk('when is christmas?', 'move A-1002 to that day')).toEqual({
      text: 'Reading "that day" as 2026-12-25, from earlier in our conversation.',
      calls: [['update_delivery_date', { order_id: 'A-1002', new_date: '2026-12-25' }]],
    });
    expect((await talk('wann ist Pfingsten?', 'verschieb A-1002 auf diesen Tag')).calls).toEqual([['update_delivery_date', { order_id: 'A-1002', new_date: '2027-05-16' }]]);
    // Another bound for the list, whatever tool "days" scores for (it read the browser's time zone).
    expect((await talk('which orders are late by more than a week', 'and by more than 3 days?')).calls).toEqual([['list_delayed_orders', { days_threshold: 4 }]]);
    expect((await talk('zeig die verspäteten Bestellungen', 'und mehr als 5 Tage?')).calls).toEqual([['list_delayed_orders', { days_threshold: 6 }]]);
    // "that customer" is who is mailed, not what is said (it mailed "customer that we are sorry"), and a mail's clause
    // needs no "that" (it asked for a subject and a body); "their invoice" is still the invoice, made and mailed.
    const sorry = ['send_email', { order_id: 'A-1002', body: 'we are sorry', subject: 'We are sorry' }];
    expect((await talk('where is A-1002', 'email that customer that we are sorry')).calls).toEqual([sorry]);
    expect((await talk('email the customer of A-1002 we are sorry')).calls).toEqual([sorry]);
    expect((await talk('which orders are delayed?', 'email the first one\'s customer we are sorry')).calls).toEqual([[
      'send_email',
      { order_id: 'A-1012', body: 'we are sorry', subject: 'We are sorry' },
    ]]);
    expect((await talk('email the customer of A-1002 their invoice')).calls).toEqual([['order_invoice', { order_id: 'A-1002' }]]);
    // Another rate after another "of", and the other way round (it got the help text: the message before named no rate).
    expect((await talk('what is 19% of 250', 'and of 300?', 'and 21%?')).calls).toEqual([['calculate', { expression: '21 / 100 * 300' }]]);
    expect((await talk('15% of 80', 'and 20%?', 'and of 100?')).calls).toEqual([['calculate', { expression: '20 / 100 * 100' }]]);
    // How late the order of the conversation is, asked in German or French (the browser's time zone; the late list).
    expect((await talk('wo ist A-1002', 'wie viele Tage ist sie zu spät?')).calls).toEqual([['query_order', { order_id: 'A-1002' }]]);
    expect((await talk('où en est A-1002 ?', 'elle a combien de jours de retard ?')).calls).toEqual([['query_order', { order_id: 'A-1002' }]]);
  });

  it('plays the demo\'s user: thanks in leaving, a correction\'s language, the higher total, one clock against UTC or the browser\'s zone', async () => {
    const totals: Record<string, string> = { 'A-1002': '89.00', 'A-1006': '142.50', 'A-1003': '23.10' };
    const invoice = tool({
      description: 'Make the invoice of one order (format A-1001) as a PDF document.',
      inputSchema: z.object({ order_id: z.string().regex(/^A-\d{4}$/) }),
      execute: async ({ order_id }) => ({ summary: `Invoice INV-${order_id} of order ${order_id}; total ${totals[order_id] ?? '50.00'} EUR.` }),
      toModelOutput: ({ output }) => ({ type: 'content', value: [{ type: 'text', text: output.summary }] }),
    });
    const offsets: Record<string, string> = { 'Asia/Tokyo': '+09:00', 'America/New_York': '-05:00', 'Europe/Berlin': '+01:00' };
    const clock = tool({
      description: 'Get the current local date, time, weekday and UTC offset in a time zone.',
      inputSchema: z.object({ time_zone: z.string().describe('IANA time zone, e.g. Europe/Berlin') }),
      execute: async ({ time_zone }) => ({ time_zone, local_date: '2026-11-20', local_time: '12:00:00', utc_offset: offsets[time_zone] ?? '+00:00' }),
    });
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const talk = talker(model, () => ({ ...shopTools(), order_invoice: invoice, world_clock: clock, calculate: calculator() }));
    // Thanks said in leaving are a goodbye (they got "Noch etwas?"); good wishes are wished back.
    expect(await talk('where is A-1002', 'danke, tschüss')).toEqual({ text: 'Gern geschehen. Auf Wiedersehen!', calls: [] });
    expect((await talk('merci, au revoir')).text).toBe('Je vous en prie. Au revoir !');
    expect((await talk('thanks, bye')).text).toBe("You're welcome. Goodbye!");
    expect((await talk('thanks, have a nice day')).text).toBe("You're welcome, and you too. Goodbye!");
    expect((await talk('thanks!')).text).toBe("You're welcome. Anything else?");
    // A correction after its value is answered in its language, when the value alone is none ("Tokio"): it said "In
    // Asia/Tokyo it is …".
    const tokio = await generateText({
      model,
      tools: { world_clock: clock },
      messages: [{ role: 'user', content: 'Uhrzeit in Berlin' }, ...(await generateText({ model, tools: { world_clock: clock }, prompt: 'Uhrzeit in Berlin', stopWhen: isStepCount(2) })).responseMessages, { role: 'user', content: 'Tokio meinte ich' }],
      stopWhen: isStepCount(2),
    });
    expect(tokio.text).toBe('In Asia/Tokyo ist es 12:00 Uhr am Freitag, dem 2026-11-20 (UTC+09:00).');
    expect((await talk('heure à Berlin', 'Tokyo je veux dire')).calls).toEqual([['world_clock', { time_zone: 'Asia/Tokyo' }]]);
    // Two invoices: the higher (or lower) total, read from their words (it looked the last order up).
    expect(await talk('invoice for A-1002', 'and for A-1006?', 'which one is higher?')).toEqual({
      text: 'The total of A-1006 is higher: 142.50 EUR, against 89.00 EUR (A-1002). No tool was needed for that.',
      calls: [],
    });
    expect((await talk('Rechnung für A-1002', 'und für A-1006?', 'welche ist teurer?')).text).toMatch(/^Die Summe von A-1006 ist höher: 142\.50 EUR, gegenüber 89\.00 EUR \(A-1002\)\./);
    expect((await talk('facture de A-1002', 'et pour A-1006 ?', 'laquelle est la moins chère ?')).text).toMatch(/^Le total de A-1002 est plus bas : 89\.00 EUR, contre 142\.50 EUR \(A-1006\)\./);
    expect((await talk('invoices for A-1002, A-1006 and A-1003', 'which is the cheapest?')).text).toMatch(/^The total of A-1003 is the lowest: 23\.10 EUR, against 89\.00 EUR \(A-1002\) and 142\.50 EUR \(A-1006\)\./);
    // One clock: against UTC, said so (it asked for a time zone), or against the browser's zone once it was read.
    expect(await talk('time in Tokyo', 'how far ahead is it?')).toEqual({
      text: 'Against UTC, Asia/Tokyo is 9 hours ahead (UTC+09:00): I do not know your own time zone, so I compared with UTC. No tool was needed for that.',
      calls: [],
    });
    expect((await talk('time in New York', 'how far behind is it?')).text).toMatch(/^Against UTC, America\/New_York is 5 hours behind \(UTC-05:00\)/);
    expect((await talk('Uhrzeit in Tokio', 'wie viele Stunden voraus ist das?')).text).toMatch(/^Gegenüber UTC: Asia\/Tokyo ist 9 Stunden voraus \(UTC\+09:00\)\. Deine eigene Zeitzone/);
    expect((await talk('what is my time zone?', 'time in Tokyo', 'how far ahead is it?')).text).toBe(
      'Against your time zone Europe/Berlin (UTC+01:00), Asia/Tokyo is 8 hours ahead (UTC+09:00). No tool was needed for that.',
    );
    expect((await talk('what is my time zone?', 'time in New York', 'how far behind is it?')).text).toMatch(/^Against your time zone Europe\/Berlin \(UTC\+01:00\), America\/New_York is 6 hours behind/);
    // Two places named: each clock is read, and the difference said once they are in (the German one left
    // "Zeitunterschied zwischen Berlin" undone; the English one only listed the clocks); not the clocks shown before.
    const between = await talk('what is the time difference between Berlin and New York?');
    expect(between.calls).toEqual([['world_clock', { time_zone: 'Europe/Berlin' }], ['world_clock', { time_zone: 'America/New_York' }]]);
    const apart = async (...texts: string[]) => {
      const tools = { world_clock: clock };
      const messages: ModelMessage[] = [];
      let text = '';
      for (const content of texts) {
        messages.push({ role: 'user', content });
        const result = await generateText({ model, tools, messages, stopWhen: isStepCount(2) });
        messages.push(...result.responseMessages);
        text = result.text;
      }
      return text;
    };
    expect(await apart('what is the time difference between Berlin and New York?')).toMatch(
      /\n\nAgainst America\/New_York \(UTC-05:00\), Europe\/Berlin is 6 hours ahead \(UTC\+01:00\)\.$/,
    );
    expect(await apart('Zeitunterschied zwischen Berlin und Tokio?')).toMatch(/\n\nGegenüber Europe\/Berlin \(UTC\+01:00\): Asia\/Tokyo ist 8 Stunden voraus \(UTC\+09:00\)\.$/);
    expect(await apart('time in Tokyo', 'and in London?', 'what is the time difference between Berlin and New York?')).toMatch(/Europe\/Berlin is 6 hours ahead \(UTC\+01:00\)\.$/);
    // One place named against the clock shown before: that place's clock, then the difference (help text).
    expect(await apart('time in Berlin', 'what is the difference to New York?')).toMatch(/\n\nAgainst America\/New_York \(UTC-05:00\), Europe\/Berlin is 6 hours ahead \(UTC\+01:00\)\.$/);
    // After an answer that called no tool ("what day is it there?"), the clock before it still (it got the help text).
    expect(await apart('time in Tokyo', 'what day is it there?', 'how far ahead of me is that?')).toMatch(/^Against UTC, Asia\/Tokyo is 9 hours ahead \(UTC\+09:00\): /);
    // The demo's browser gives its offset too: taken as given (an own zone of +05:30 against Tokyo's +09:00).
    const browser = tool({
      description: "The user's own time zone, locale and local time, read from their browser.",
      inputSchema: z.object({}),
      execute: async () => ({ time_zone: 'Asia/Kolkata', locale: 'en-IN', utc_offset: '+05:30', local_time: 'Friday, 20 November 2026 at 17:30' }),
    });
    const messages: ModelMessage[] = [];
    for (const text of ['what is my time zone?', 'time in Tokyo', 'how far ahead is it?']) {
      messages.push({ role: 'user', content: text });
      const result = await generateText({ model, tools: { world_clock: clock, browser_time_zone: browser }, messages, stopWhen: isStepCount(2) });
      messages.push(...result.responseMessages);
      if (text.startsWith('how')) expect(result.text).toBe('Against your time zone Asia/Kolkata (UTC+05:30), Asia/Tokyo is 3 hours 30 minutes ahead (UTC+09:00). No tool was needed for that.');
    }
  });

  it('adds "and a mug for 8 euros" after coffee beans as a mug at that price, not the coffee beans again at it', async () => {
    const model = createOfflineModel();
    const cart = () => {
      const tools = shopTools();
      const adder = tool({
        description: "Add an item to the user's shopping cart (kept in their browser).",
        inputSchema: z.object({ name: z.string().min(1).describe('Item name, e.g. "coffee beans"'), quantity: z.number().int().min(1).optional().describe('How many (default 1)'), price: z.number().min(0).optional().describe('Unit price in EUR') }),
        execute: async () => ({ count: 1 }),
      });
      return { ...tools, cart_add: adder };
    };
    // It called cart_add for 2 coffee beans at 8 ("As before with cart_add, now with price 8").
    expect((await conversation(model, cart())('add 2 coffee beans at 4.50 each', 'and a mug for 8 euros')).calls).toEqual([['cart_add', { name: 'mug', price: 8 }]]);
    expect((await conversation(model, cart())('Leg 2 Tassen für 3 Euro in den Warenkorb', 'und eine Teekanne für 20 Euro')).calls).toEqual([['cart_add', { name: 'Teekanne', price: 20 }]]);
    expect((await conversation(model, cart())('ajoute 2 baguettes à 1,20 €', 'et un croissant à 1 €')).calls).toEqual([['cart_add', { name: 'croissant', price: 1 }]]);
    // A bare amount ending the text is one thing's price (it got the help text, then dropped the price); after a count
    // of more than one it may be the price of all of them together, and is not read.
    const added = async (prompt: string) =>
      (await generateText({ model, tools: cart(), prompt, stopWhen: isStepCount(1) })).toolCalls.map((call) => call.input);
    expect(await added('add a mug for 8')).toEqual([{ name: 'mug', price: 8 }]);
    expect(await added('leg eine Tasse für 8 rein')).toEqual([{ name: 'Tasse', price: 8 }]);
    expect(await added('ajoute une tasse à 8')).toEqual([{ name: 'tasse', price: 8 }]);
    expect(await added('add 2 mugs for 8')).toEqual([{ name: 'mugs', quantity: 2 }]);
    // A cart that takes no price: the amount is no count (it added 20 teapots), after a thing added before too.
    const talk = talker(model, shopTools);
    expect((await talk('add a teapot for 20')).calls).toEqual([['cart_add', { name: 'teapot' }]]);
    expect((await talk('add a mug', 'and a teapot for 20')).calls).toEqual([['cart_add', { name: 'teapot' }]]);
    expect((await talk('Leg eine Teekanne für 20 rein')).calls).toEqual([['cart_add', { name: 'Teekanne' }]]);
  });

  it('adds "Leg 2 Bananen rein", "… dazu", "Füg 2 Bananen hinzu" as Bananen: the end of a German separable verb is no part of the thing', async () => {
    const model = createOfflineModel();
    const added = async (prompt: string) =>
      (await generateText({ model, tools: shopTools(), prompt, stopWhen: isStepCount(1) })).toolCalls.map((call) => [call.toolName, call.input]);
    // It added "Bananen rein" and "Bananen dazu", and "Füg …" (no e) got the help text.
    for (const prompt of ['Leg 2 Bananen rein', 'Leg 2 Bananen dazu', 'Füg 2 Bananen hinzu', 'Pack 2 Bananen dazu']) {
      expect(await added(prompt), prompt).toEqual([['cart_add', { name: 'Bananen', quantity: 2 }]]);
    }
    expect(await added('Füg eine Teekanne hinzu')).toEqual([['cart_add', { name: 'Teekanne' }]]);
  });

  it('plays the demo\'s user: a count corrected, "which is worse?", a sum in dollars, "keep it then" and "why not?" after a denial', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const dates: Record<string, [string, number]> = { 'A-1012': ['2026-12-20', 14], 'A-1006': ['2026-12-12', 9] };
    const lookup = tool({
      description: 'Look up one customer order by its id (format A-1001). Returns its status and delivery date.',
      inputSchema: z.object({ order_id: z.string().regex(/^A-\d{4}$/).describe('The order id, e.g. A-1001') }),
      execute: async ({ order_id }) => ({ found: true, order: { id: order_id, status: 'delayed', delivery_date: dates[order_id]?.[0], delay_days: dates[order_id]?.[1] } }),
    });
    const talk = talker(model, () => ({ ...shopTools(), query_order: lookup, cart_clear: { ...shopTools().cart_clear, needsApproval: true }, calculate: calculator() }));
    // The count after a correction replaces the one before: it added 2 mugs, "no wait" and 3 mugs.
    expect((await talk('add 2 mugs, no wait, 3 mugs')).calls).toEqual([['cart_add', { name: 'mugs', quantity: 3 }]]);
    expect((await talk('add 2 mugs to my cart, sorry I meant 3')).calls).toEqual([['cart_add', { name: 'mugs', quantity: 3 }]]);
    expect((await talk('Leg 2 Tassen in den Warenkorb, nein lieber 3')).calls).toEqual([['cart_add', { name: 'Tassen', quantity: 3 }]]);
    expect((await talk('ajoute 2 tasses, non plutôt 4')).calls).toEqual([['cart_add', { name: 'tasses', quantity: 4 }]]);
    expect((await talk('add 2 mugs, no wait, 3 cups')).calls).toEqual([['cart_add', { name: 'cups', quantity: 3 }]]);
    // "worse" is "worst" of two (it looked the last order up again).
    expect((await talk('how late is A-1012?', 'and A-1006?', 'which is worse?')).text).toBe(
      'A-1012 is the furthest behind (14 days late); A-1006: 9 days late. No tool was needed for that.',
    );
    // No tool knows exchange rates (it made the invoice again).
    expect(await talk('invoice for A-1002', 'how much is that in dollars?')).toEqual({ text: expect.stringMatching(/^I have no tool for converting currencies, so I can't answer that\./), calls: [] });
    expect((await talk('rechne 89 Euro in Dollar um')).text).toMatch(/^Ich habe kein Werkzeug für das Umrechnen von Währungen,/);
    // "keep it then" after a denied "empty it" leaves it (it listed the cart).
    expect(await talk('show my cart', 'empty it', 'DENY', 'ok keep it then')).toEqual({ text: 'OK, I left "empty it" undone: nothing was changed.', calls: [] });
    // The last sum added to a number, or taken from one (it asked for an expression).
    expect((await talk('what is 15% of 89', 'and add that to 89')).calls).toEqual([['calculate', { expression: '(15 / 100 * 89) + 89' }]]);
    expect((await talk('what is 19 * 3', 'subtract that from 100')).calls).toEqual([['calculate', { expression: '100 - (19 * 3)' }]]);
    expect((await talk('was ist 15% von 89', 'zieh das von 100 ab')).calls).toEqual([['calculate', { expression: '100 - (15 / 100 * 89)' }]]);
    expect((await talk('combien font 12 * 4', 'ajoute ça à 10')).calls).toEqual([['calculate', { expression: '(12 * 4) + 10' }]]);
    // "why not?" after a declined move says why, and how to have it done (it looked the order up).
    expect(await talk('move A-1002 to the 24th', 'DENY', 'why not?')).toEqual({
      text: 'update_delivery_date did not run because its approval was declined, so nothing was changed. To have it done after all, ask again ("move A-1002 to the 24th") and approve it.',
      calls: [],
    });
    expect((await talk('Verschiebe A-1002 auf Freitag', 'DENY', 'warum nicht?')).text).toMatch(/^update_delivery_date lief nicht, weil die Freigabe abgelehnt wurde/);
    expect((await talk('where is A-1002', 'why?')).calls).toEqual([['query_order', { order_id: 'A-1002' }]]);
  });

  it('plays the demo\'s user: an example after a question, "see you", a feast "this year", the day before that day', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const talk = talker(model, () => ({ ...shopTools(), calculate: calculator() }));
    // "like the 1st of december" after a question is its example, not a request of its own ("make" made the invoice).
    const earlier = ['update_delivery_date', { order_id: 'A-1002', new_date: '2026-12-01' }];
    expect((await talk('can you make A-1002 earlier? like the 1st of december')).calls).toEqual([earlier]);
    expect((await talk('when is A-1002 arriving', 'can you make it earlier? like the 1st of december')).calls).toEqual([earlier]);
    expect((await talk('Kannst du A-1002 früher liefern? Vielleicht am 1. Dezember')).calls).toEqual([earlier]);
    expect((await talk('where is A-1002? also add 2 mugs to my cart')).calls.map((call) => call[0])).toEqual(['query_order', 'cart_add']);
    // Taking leave in other words ("à plus" added "plus" to a sum; "see you later" got the help text).
    expect((await talk('merci !', 'à plus')).text).toBe('Merci, vous aussi. Au revoir !');
    expect((await talk('see you later')).text).toBe('Thank you, you too. Goodbye!');
    expect((await talk('thanks, see you')).text).toBe("You're welcome. Goodbye!");
    expect((await talk('danke, bis bald')).text).toBe('Gern geschehen. Auf Wiedersehen!');
    expect((await talk('what is 2 plus 2')).calls).toEqual([['calculate', { expression: '2 + 2' }]]);
    // A feast "this year" (it read the browser's time zone), "Noël" after "quand est" (help text).
    expect((await talk('what day is christmas this year?')).text).toBe('"christmas" is 2026-12-25, a Friday (today is 2026-11-20 UTC). No tool was needed for that.');
    expect((await talk('quand est Noël ?')).text).toMatch(/^« Noël » est le 2026-12-25, un vendredi/);
    // The day before or after the one an answer gave (it asked for a date); a question of it is still the day asked.
    expect((await talk('when is christmas?', 'move A-1006 to the day before that')).calls).toEqual([['update_delivery_date', { order_id: 'A-1006', new_date: '2026-12-24' }]]);
    expect((await talk('wann ist Weihnachten?', 'verschieb A-1006 auf den Tag danach')).calls).toEqual([['update_delivery_date', { order_id: 'A-1006', new_date: '2026-12-26' }]]);
    expect((await talk('quand est Noël ?', 'décale A-1006 à la veille')).calls).toEqual([['update_delivery_date', { order_id: 'A-1006', new_date: '2026-12-24' }]]);
  });

  it('plays the demo\'s user: the same mail to another order, "whats the total", "mail it to them", "which one arrives first?", "combien d\'articles ?"', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const dates: Record<string, string> = { 'A-1002': '2026-12-03', 'A-1006': '2026-12-12' };
    const lookup = tool({
      description: 'Look up one customer order by its id (format A-1001). Returns its status and delivery date.',
      inputSchema: z.object({ order_id: z.string().regex(/^A-\d{4}$/).describe('The order id, e.g. A-1001') }),
      execute: async ({ order_id }) => ({ found: true, order: { id: order_id, status: 'delayed', delivery_date: dates[order_id] ?? '2026-12-01' } }),
    });
    const talk = talker(model, () => ({ ...shopTools(), query_order: lookup }));
    // The user's words as the customer reads them ("their" → "your") are still the user's: the same mail to A-1006 (it
    // looked A-1006 up, taking the mail for words a result gave).
    const delayed = { order_id: 'A-1006', subject: 'Your order is delayed', body: 'your order is delayed' };
    for (const then of ['and A-1006?', 'same for A-1006', 'and the same to A-1006']) {
      expect((await talk('email the customer of A-1012 that their order is delayed', then)).calls, then).toEqual([['send_email', delayed]]);
    }
    // "whats" asks the total too (help text); "to them" is who the invoice goes to (it asked for an id, a subject, a body).
    expect((await talk('invoice for A-1002', 'whats the total')).text).toBe('order_invoice showed a total of 89.00 EUR. No tool was needed for that.');
    expect((await talk('invoice for A-1002', 'what is the total?', 'mail it to them')).calls).toEqual([
      ['send_email', { order_id: 'A-1002', subject: 'Your invoice for order A-1002', body: 'Invoice INV-A-1002 of order A-1002; total 89.00 EUR.' }],
    ]);
    expect((await talk('which orders are late', 'email them that we are sorry')).calls.map((call) => (call[1] as { order_id: string }).order_id)).toEqual(['A-1012', 'A-1006', 'A-1002']);
    // Which one arrives first: the earlier date (help text).
    expect((await talk('what is the status of A-1002 and A-1006', 'which one arrives first?')).text).toBe(
      'A-1002 is earlier: 2026-12-03, against 2026-12-12 (A-1006). No tool was needed for that.',
    );
    expect((await talk('wo sind A-1002 und A-1006?', 'welche kommt zuerst?')).text).toMatch(/^A-1002 ist früher: 2026-12-03/);
    // "combien d'articles ?", "how many items are in it?" after adding (help text); one kind is no kind said.
    expect((await talk('ajoute 2 cafés', 'combien d articles ?')).text).toBe("Cela fait 2 articles en tout : 2 cafés. Je n'ai eu besoin d'aucun outil pour cela.");
    expect((await talk('add 3 apples', 'how many items are in it?')).text).toBe('That is 3 items in all: 3 apples. No tool was needed for that.');
  });

  it('reads "17,5 mal 4" with its decimal comma, "1,000 + 5" with its thousands, and "add 3 more bananas" as bananas', async () => {
    const model = createOfflineModel();
    const calls = async (prompt: string) =>
      (await generateText({ model, tools: { ...shopTools(), calculate: calculator() }, prompt, stopWhen: isStepCount(1) })).toolCalls.map((call) => [call.toolName, call.input]);
    // It read "5 * 4", "000 + 5" and an item called "more bananas".
    expect(await calls('Wie viel ist 17,5 mal 4?')).toEqual([['calculate', { expression: '17.5 * 4' }]]);
    expect(await calls('combien font 2,25 fois 4 ?')).toEqual([['calculate', { expression: '2.25 * 4' }]]);
    expect(await calls('what is 1,000 + 5')).toEqual([['calculate', { expression: '1000 + 5' }]]);
    expect(await calls('what is 12,345.5 * 2')).toEqual([['calculate', { expression: '12345.5 * 2' }]]);
    // A function's arguments keep their comma.
    expect(await calls('what is max(1,2) * 3')).toEqual([['calculate', { expression: 'max(1,2) * 3' }]]);
    expect(await calls('add 3 more bananas')).toEqual([['cart_add', { name: 'bananas', quantity: 3 }]]);
    expect(await calls('leg 3 weitere Bananen in den Warenkorb')).toEqual([['cart_add', { name: 'Bananen', quantity: 3 }]]);
  });

  it('mails "the first two" of a list, and says how many an audit checked ("how many were checked?"), EN/DE/FR', async () => {
    const model = createOfflineModel();
    const audit = tool({
      description: AUDIT_DESCRIPTION,
      inputSchema: z.object({}),
      execute: async () => ({ checked: 10, flagged: [{ id: 'A-1002', customer: 'Grace Hopper', reasons: ['status is delayed'] }, { id: 'A-1006', customer: 'Margaret Hamilton', reasons: ['status is delayed'] }] }),
    });
    const talk = conversation(model, { ...shopTools(), audit_orders: audit });
    // It mailed the first alone.
    const two = await talk('list delayed orders', 'email the first two that we are sorry');
    expect(two.calls.map((call) => (call[1] as { order_id: string }).order_id)).toEqual(['A-1012', 'A-1006']);
    expect(two.text).toBe('Reading "the first two" as A-1012 and A-1006, from earlier in our conversation.');
    expect((await talk('zeig die verspäteten Bestellungen', 'schreib den ersten beiden, dass es uns leid tut')).calls).toHaveLength(2);
    expect((await talk('list delayed orders', 'email the first one that we are sorry')).calls).toHaveLength(1);
    // It got the help text.
    expect(await talk('audit orders', 'how many were checked?')).toEqual({ text: 'audit_orders checked 10 and flagged 2 (A-1002 and A-1006). No tool was needed for that.', calls: [] });
    expect((await talk('prüfe alle Bestellungen', 'wie viele wurden geprüft?')).text).toBe('audit_orders hat 10 geprüft und 2 markiert (A-1002 und A-1006). Dafür brauchte ich kein Werkzeug.');
    expect((await talk('vérifie les commandes', 'combien ont été vérifiées ?')).text).toMatch(/^audit_orders en a vérifié 10 et en a signalé 2 /);
  });

  it('opens the date picker for "pick a delivery date for A-1003" and moves the order to the day picked, through the approval', async () => {
    const model = createOfflineModel({ now: () => new Date('2026-11-20T12:00:00Z') });
    const picker = (date: string | undefined) =>
      tool({
        description: 'Ask the user to pick a date in a date picker (for example a delivery date). Returns the chosen date.',
        inputSchema: z.object({ question: z.string().min(1).describe('What the user is asked'), min: z.string().optional(), max: z.string().optional() }),
        execute: async () => (date === undefined ? { cancelled: true } : { date }),
      });
    const pick = async (prompt: string, date: string | undefined) => {
      const result = await generateText({ model, tools: { ...shopTools(), pick_date: picker(date) }, prompt, stopWhen: isStepCount(3) });
      const approval = result.content.find((part) => part.type === 'tool-approval-request');
      return {
        calls: result.steps.map((step) => step.toolCalls.map((call) => [call.toolName, call.input])),
        text: result.text,
        move: approval?.type === 'tool-approval-request' ? approval.toolCall.input : undefined,
      };
    };
    // It asked for the date as text.
    expect(await pick('pick a delivery date for A-1003', '2026-12-01')).toEqual({
      calls: [[['pick_date', { question: 'Which date suits you for A-1003?' }]], [['update_delivery_date', { order_id: 'A-1003', new_date: '2026-12-01' }]]],
      text: 'You picked 2026-12-01: update_delivery_date now sets it for A-1003.',
      move: { order_id: 'A-1003', new_date: '2026-12-01' },
    });
    expect((await pick('Lass mich ein Lieferdatum für A-1002 wählen', '2026-12-04')).text).toBe('Du hast 2026-12-04 gewählt: update_delivery_date setzt es jetzt für A-1002.');
    expect((await pick('choisir une date de livraison pour A-1006', '2026-12-05')).move).toEqual({ order_id: 'A-1006', new_date: '2026-12-05' });
    // Cancelled: nothing is moved. A day given is moved to at once; no id, no picker question of an order.
    expect((await pick('pick a delivery date for A-1003', undefined)).move).toBeUndefined();
    expect((await pick('pick a delivery date for A-1003, maybe friday', '2026-12-01')).move).toEqual({ order_id: 'A-1003', new_date: '2026-11-27' });
    expect((await pick('Pick a date for me', '2026-12-01')).calls[0]).toEqual([['pick_date', { question: 'Pick date' }]]);
  });

  it('counts "how many orders are late?" with the list of late orders, not the audit (which counts what it checked)', async () => {
    const model = createOfflineModel();
    const audit = tool({ description: AUDIT_DESCRIPTION, inputSchema: z.object({}), execute: async () => ({ checked: 10, flagged: [] }) });
    const calls = async (prompt: string) =>
      (await generateText({ model, tools: { ...shopTools(), audit_orders: audit }, prompt, stopWhen: isStepCount(1) })).toolCalls.map((call) => call.toolName);
    // It ran the audit: "late" is the list's word as "delayed" is (its name), not only the audit's ("running late").
    for (const prompt of ['how many orders are late?', 'wie viele Bestellungen sind zu spät?', 'combien de commandes sont en retard ?', 'how many orders are delayed?']) {
      expect(await calls(prompt), prompt).toEqual(['list_delayed_orders']);
    }
    expect(await calls('how many orders were checked?')).toEqual(['audit_orders']);
  });

  it('reads a city typed with a slip beside a known one ("time in tokio and londn") as that city, and says so', async () => {
    const model = createOfflineModel();
    const clocks = async (prompt: string) => {
      const result = await generateText({ model, tools: shopTools(), prompt, stopWhen: isStepCount(1) });
      return { text: result.text, zones: result.toolCalls.map((call) => (call.input as { time_zone: string }).time_zone) };
    };
    // It read Tokyo alone and said it did not do "londn".
    expect(await clocks('time in tokio and londn')).toEqual({ text: 'Reading "londn" as London.', zones: ['Asia/Tokyo', 'Europe/London'] });
    expect(await clocks('what time is it in new yrok and tokyo?')).toEqual({ text: 'Reading "new yrok" as New York.', zones: ['America/New_York', 'Asia/Tokyo'] });
    expect(await clocks('Uhrzeit in Berln und Tokio')).toEqual({ text: 'Ich lese „Berln“ als Berlin.', zones: ['Europe/Berlin', 'Asia/Tokyo'] });
    expect(await clocks('heure à Tokyo et à Pariss')).toEqual({ text: 'Je lis « Pariss » comme Paris.', zones: ['Asia/Tokyo', 'Europe/Paris'] });
    expect((await clocks('time in tokyo, paris and sydeny')).zones).toEqual(['Asia/Tokyo', 'Europe/Paris', 'Australia/Sydney']);
  });

  it('lists one more for "and the third?" after "top 2 delayed orders" ("und die dritte?", "et la troisième ?", "and the next one?")', async () => {
    const model = createOfflineModel();
    const talk = talker(model, shopTools);
    // It got the help text: the third was not in the list shown.
    const third = await talk('top 2 delayed orders', 'and the third?');
    expect(third).toEqual({ text: 'As before with list_delayed_orders, now with limit 3.', calls: [['list_delayed_orders', { limit: 3 }]] });
    for (const then of ['und die dritte?', 'et la troisième ?', 'and the next one?', 'what about the third one?']) {
      expect((await talk('top 2 delayed orders', then)).calls, then).toEqual([['list_delayed_orders', { limit: 3 }]]);
    }
    // A list shown whole has its third: that one is read (A-1002), as before.
    expect((await talk('show the delayed orders', 'and the third?')).calls).toEqual([['query_order', { order_id: 'A-1002' }]]);
  });

  it('rejects a non-streamed call when aborted during its delay', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    await expect(
      generateText({ model: createOfflineModel({ delayMs: 500 }), prompt: 'hi', abortSignal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});
