import { describe, expect, it } from 'vitest';
import { countingTool, MIN_TOOL_SCORE, missingTopic, pickAdder, pickTool, scoreTools, splitRequests, unlistedAll } from './match-tool.ts';
import { contentWords, isReadName, splitIdentifier, stem } from './words.ts';

const tools = [
  { name: 'get_order', description: 'Look up one order by id.' },
  { name: 'listDelayedOrders', description: 'List orders whose delivery is late.' },
  { name: 'getWeather', description: 'Current weather for a city.' },
  { name: 'send-email', description: 'Queue an email to a customer.' },
  { name: 'calculator', description: 'Evaluate an arithmetic expression.' },
];

describe('pickTool', () => {
  it.each([
    ['Where is my order A-1001?', 'get_order'],
    ['Which orders are delayed?', 'listDelayedOrders'],
    ['Show me the late deliveries', 'listDelayedOrders'],
    ["What's the weather like in Paris?", 'getWeather'],
    ['Is it going to rain tomorrow?', 'getWeather'],
    ['Mail bob@example.com please', 'send-email'],
    ['Calculate 2 + 2', 'calculator'],
    ['compute 17 * 3', 'calculator'],
  ])('%j → %s', (text, name) => {
    expect(pickTool(text, tools)?.name).toBe(name);
  });

  it('returns nothing below the minimum score', () => {
    expect(pickTool('Write me a poem', tools)).toBeUndefined();
    expect(pickTool('get it', tools)).toBeUndefined();
    expect(MIN_TOOL_SCORE).toBeGreaterThan(1);
  });

  it('reads everyday cart words: put and buy add, a basket is a cart, empty clears it', () => {
    // Listed so that a tie would pick the wrong tool.
    const cart = [
      { name: 'cart_list', description: "List the items in the user's shopping cart." },
      { name: 'cart_clear', description: "Remove every item from the user's shopping cart." },
      { name: 'cart_add', description: "Add an item to the user's shopping cart (kept in their browser)." },
    ];
    expect(pickTool('put 3 mugs in my cart', cart)?.name).toBe('cart_add');
    expect(pickTool("I'd like to buy 2 coffee beans", cart)?.name).toBe('cart_add');
    expect(pickTool('add two mugs to my basket', cart)?.name).toBe('cart_add');
    expect(pickTool('empty my cart', cart)?.name).toBe('cart_clear');
  });

  it('gives a request for an analysis (why, summarize, the analyst named) to the tool that writes one, not the list it reads', () => {
    const orders = [
      { name: 'list_delayed_orders', description: 'List the orders running late, most delayed first.' },
      { name: 'query_order', description: 'Look up one order by its id.', inputSchema: { type: 'object', properties: { order_id: { type: 'string', pattern: '^A-\\d{4}$' } } } },
      { name: 'audit_orders', description: 'Audit every open order; reports its progress while it runs.' },
      { name: 'order_invoice', description: 'Make the invoice of one order; it also returns a short summary.', inputSchema: { type: 'object', properties: { order_id: { type: 'string', pattern: '^A-\\d{4}$' } } } },
      { name: 'delay_analyst', description: 'A sub-agent that reviews delayed orders and writes a short report.' },
    ];
    const pick = (text: string) => pickTool(text, orders)?.name;
    // A name's word typed with two letters swapped or one left out is that word; a short word is not read so.
    expect(['invocie for A-1001', 'invoce for A-1001', 'the invioce of A-1002'].map(pick)).toEqual(['order_invoice', 'order_invoice', 'order_invoice']);
    expect(pick('odrer A-1001')).toBe('query_order');
    expect(pick('ask the analyst why orders are late')).toBe('delay_analyst');
    expect(pick('summarize the delays')).toBe('delay_analyst');
    expect(pick('why are orders late')).toBe('delay_analyst');
    expect(pick('Warum sind Bestellungen verspätet?')).toBe('delay_analyst');
    expect(pick('ask the analyst about A-1003')).toBe('delay_analyst');
    // About one order, a why is a question about it; a list is still a list; "reports its progress" writes no report.
    expect(pick('why is A-1003 late?')).toBe('query_order');
    expect(pick('summarize A-1003')).toBe('query_order');
    expect(pick('which orders are late?')).toBe('list_delayed_orders');
    expect(pick('audit the orders')).toBe('audit_orders');
  });

  it('reads a price with the thing priced as naming the tool that adds at a price, not a price alone', () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, quantity: { type: 'integer', description: 'How many' }, price: { type: 'number', description: 'Unit price in EUR' } },
      required: ['name'],
    };
    const cart = [
      { name: 'cart_list', description: "List the items in the user's shopping cart." },
      { name: 'cart_add', description: "Add an item to the user's shopping cart.", inputSchema: schema },
    ];
    expect(pickTool('add 2 coffee beans for 12.50 each', cart)?.name).toBe('cart_add');
    expect(pickTool('add a mug for €4', cart)?.name).toBe('cart_add');
    expect(pickTool('add 2 coffee beans', cart)).toBeUndefined();
    expect(pickTool('add 5 EUR to A-1006', cart)).toBeUndefined();
  });

  it('calls no tool that changes something on its verb alone: the text must name what it changes, or give a value only it takes', () => {
    const tools = [
      { name: 'cart_add', description: "Add an item to the user's shopping cart (kept in their browser)." },
      { name: 'query_order', description: 'Look up one order by its id.', inputSchema: { type: 'object', properties: { order_id: { type: 'string', pattern: '^A-\\d{4}$' } } } },
      { name: 'send_email', description: 'Send an e-mail.', inputSchema: { type: 'object', properties: { order_id: { type: 'string' }, body: { type: 'string' } } } },
    ];
    expect(pickTool('add a discount to A-1006', tools)).toBeUndefined();
    expect(pickTool('add a mug to my basket', tools)?.name).toBe('cart_add');
    expect(pickTool('email the customer of A-1006', tools)?.name).toBe('send_email');
    expect(pickTool('send the customer of A-1006 a note saying it ships soon', tools)?.name).toBe('send_email');
  });

  it('gives a whole request of a verb, a count and a thing ("add 2 coffee beans") to the tool that adds it, and no other', () => {
    const item = { type: 'object', properties: { name: { type: 'string' }, quantity: { type: 'integer' } }, required: ['name'] };
    const adder = { name: 'cart_add', description: "Add an item to the user's shopping cart.", inputSchema: item };
    const tools = [
      adder,
      { name: 'query_order', description: 'Look up one order by its id.', inputSchema: { type: 'object', properties: { order_id: { type: 'string', pattern: '^A-\\d{4}$' } } } },
    ];
    for (const text of ['add 2 coffee beans', 'please add three mugs', 'add 3 apples and 2 bananas', 'add 3 apples, 2 pears and a melon', 'Füge 2 Äpfel hinzu', 'add 2 mugs.']) {
      expect(pickTool(text, tools), text).toBeUndefined();
      expect(pickAdder(text, tools)?.name, text).toBe('cart_add');
    }
    // No count, a measure, another thing or a place to put it: not a thing to add alone.
    for (const text of ['add milk', 'add 5 days', 'add 10 percent', 'add 2 coffee beans to A-1003', 'add 2 coffee beans and 3 days', 'show 2 coffee beans']) {
      expect(pickAdder(text, tools), text).toBeUndefined();
    }
    // A tool without a count takes no counted thing.
    expect(pickAdder('add 2 coffee beans', [{ ...adder, inputSchema: { type: 'object', properties: { name: { type: 'string' } } } }])).toBeUndefined();    // A part of a message, when the text before it names what the tool adds to ("clear my cart and add 3 apples").
    expect(pickAdder('add 3 apples', tools, 'clear my cart and')?.name).toBe('cart_add');
    expect(pickAdder('add 3 apples', tools, 'where is A-1002 and')).toBeUndefined();
  });

  it('reads a request to see the cart as cart_list, whichever cart tool is listed first', () => {
    // The worker lists cart_add first (apps/web/src/tools/declarations.ts): every cart tool scores the same here.
    const cart = [
      { name: 'cart_add', description: "Add an item to the user's shopping cart (kept in their browser)." },
      { name: 'cart_clear', description: "Remove every item from the user's shopping cart." },
      { name: 'cart_list', description: "List the items in the user's shopping cart." },
    ];
    for (const text of ['show my cart', "what's in my cart", 'What is in my cart?', 'my basket', 'how many items are in my cart?']) {
      expect(pickTool(text, cart)?.name, text).toBe('cart_list');
    }
    expect(pickTool('add 2 coffee beans to my cart', cart)?.name).toBe('cart_add');
    expect(pickTool('empty my cart', cart)?.name).toBe('cart_clear');
  });

  it('on a tie, a tool that only reads wins over one that changes something; otherwise the first listed', () => {
    const tools = [
      { name: 'delete_note', description: 'Delete a note.' },
      { name: 'get_note', description: 'Read a note.' },
      { name: 'note_export', description: '' },
    ];
    expect(scoreTools('note', tools).map((s) => s.score)).toEqual([4, 4, 3]);
    expect(pickTool('note', tools)?.name).toBe('get_note');
    const changers = [
      { name: 'delete_note', description: 'Delete a note.' },
      { name: 'archive_note', description: 'Archive a note.' },
    ];
    expect(pickTool('note', changers)?.name).toBe('delete_note');
    expect(pickTool('note', [...changers].reverse())?.name).toBe('archive_note');
  });

  it('breaks ties by tool order', () => {
    const twins = [
      { name: 'order_lookup_a', description: '' },
      { name: 'order_lookup_b', description: '' },
    ];
    expect(pickTool('order', twins)?.name).toBe('order_lookup_a');
    expect(pickTool('order', [...twins].reverse())?.name).toBe('order_lookup_b');
  });

  it('picks the tool whose argument takes a value the text holds: a time zone or city for a clock, an expression for a calculator', () => {
    // As the demo Worker lists them: its world clock first, the browser's own zone after it, a calculator that takes an expression.
    const takes = (...names: string[]) => ({ type: 'object', properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])) });
    const demo = [
      { name: 'world_clock', description: 'Get the current local date, time, weekday and UTC offset in a time zone.', inputSchema: takes('time_zone') },
      { name: 'calculate', description: 'Evaluate an arithmetic expression exactly.', inputSchema: takes('expression') },
      { name: 'browser_time_zone', description: "The user's own time zone, locale and local time, read from their browser.", inputSchema: takes() },
      { name: 'update_delivery_date', description: 'Change the delivery date of an order.', inputSchema: takes('order_id', 'new_date') },
    ];
    const zones = ['What time is it in Tokyo?', 'what time is it in new york', "What's the time zone in Tokyo?", 'Time in Europe/Paris', 'time in UTC'];
    for (const text of zones) {
      expect(pickTool(text, demo)?.name, text).toBe('world_clock');
    }
    expect(pickTool('What day is it in London?', demo)?.name).toBe('world_clock');
    for (const text of ['What is my time zone?', 'what time is it for me?']) expect(pickTool(text, demo)?.name, text).toBe('browser_time_zone');
    for (const text of ['What is 2+2?', '17 * 3', '(4 + 5) / 3 =']) expect(pickTool(text, demo)?.name, text).toBe('calculate');
    // A date and an id are no subtraction; a city alone is no question about the time (it may be about the weather).
    expect(pickTool('Change the delivery date of A-1003 to 2026-12-24', demo)?.name).toBe('update_delivery_date');
    expect(scoreTools('2026-12-24 A-1003', demo).find((s) => s.tool.name === 'calculate')?.score).toBe(0);
    expect(pickTool("What's the weather in Paris?", demo)).toBeUndefined();
  });

  it('reads the demo order requests as people type them: a date to move to, a message to send, an id alone', () => {
    // The demo Worker's order tools, in its order, with the schemas the AI SDK gives the model (apps/worker/src/tools).
    const id = { type: 'string', pattern: '^A-\\d{4}$' };
    const day = { type: 'string', format: 'date' };
    const text = { type: 'string' };
    const takes = (properties: Record<string, unknown>) => ({ type: 'object', properties, required: Object.keys(properties) });
    const demo = [
      {
        name: 'query_order',
        description:
          'Look up one customer order by its id (format A-1001). Returns the customer, e-mail, items, status, the delivery date. ' +
          'Use it before changing an order or writing to its customer.',
        inputSchema: takes({ order_id: id }),
      },
      {
        name: 'list_delayed_orders',
        description: 'List the open (not yet delivered) orders that are running late, with customer, status, delivery date and delay in days.',
        inputSchema: takes({}),
      },
      { name: 'order_invoice', description: 'Make the invoice of one order (format A-1001) as a PDF document.', inputSchema: takes({ order_id: id }) },
      {
        name: 'update_delivery_date',
        description:
          'Change the delivery date of an open order (format A-1001) to a new date (YYYY-MM-DD). Recomputes how many days the order is delayed.',
        inputSchema: takes({ order_id: id, new_date: day }),
      },
      { name: 'send_email', description: "Send an e-mail about an order to that order's customer.", inputSchema: takes({ order_id: id, subject: text, body: text }) },
      {
        name: 'pick_date',
        description: 'Ask the user to pick a date in a date picker (for example a delivery date).',
        inputSchema: takes({ question: text, min: day, max: day }),
      },
    ];
    const cases: [string, string | undefined][] = [
      ['Please postpone order A-1003 to 2027-01-10', 'update_delivery_date'],
      ['Move order A-1003 to 2027-01-10', 'update_delivery_date'],
      ['Delay order A-1003 until 2027-01-10', 'update_delivery_date'],
      ['a1003 to 2027-01-10', 'update_delivery_date'],
      ['Verschiebe Bestellung A-1003 auf 2027-01-10', 'update_delivery_date'],
      ['Email the customer of A-1002 that it is late', 'send_email'],
      ['Notify the customer of A-1002 about the delay', 'send_email'],
      ['Where is A1002?', 'query_order'],
      ['Wo ist Bestellung A-1002?', 'query_order'],
      ['Où est la commande A-1002 ?', 'query_order'],
      ['¿Dónde está el pedido A-1002?', 'query_order'],
      ['When will A-1002 arrive?', 'query_order'],
      // A question that gives no new date asks about the present one; a request, or a question that gives one, changes it.
      ["What's the delivery date of A-1002?", 'query_order'],
      ['When is A-1002 going to be delivered?', 'query_order'],
      ['Is A-1004 delivered?', 'query_order'],
      ['Can you change the delivery date of A-1003?', 'update_delivery_date'],
      ['Reschedule A-1003', 'update_delivery_date'],
      ['Can A-1003 be delivered on 2027-01-10 instead?', 'update_delivery_date'],
      // A message for the customer is evidence for the tool that sends one.
      ['Write to the customer of A-1003: your parcel is on its way', 'send_email'],
      // "delay" without a date is about late orders; a date alone is no request; neither is an id-like word in prose.
      ['Which orders are delayed?', 'list_delayed_orders'],
      ['Show me the delay of every order', 'list_delayed_orders'],
      ['Let me pick a delivery date', 'pick_date'],
      ['2027-01-10', undefined],
      ['Wie spät ist es?', undefined],
    ];
    expect(cases.map(([text]) => [text, pickTool(text, demo)?.name])).toEqual(cases);
    // The id and the date are one piece of evidence each, however many arguments take them (pick_date's min and max).
    const scores = Object.fromEntries(scoreTools('A-1003 2027-01-10', demo).map((s) => [s.tool.name, s.score]));
    expect(scores).toMatchObject({ query_order: 3, update_delivery_date: 6, send_email: 3, pick_date: 0, list_delayed_orders: 0 });
    // A pattern any word passes says nothing: only an id that the pattern sets apart counts.
    const loose = [{ name: 'lookup', description: '', inputSchema: takes({ ref_id: { type: 'string', pattern: '^.+$' } }) }];
    expect(scoreTools('Wo ist A-1002?', loose)[0]?.score).toBe(0);
  });

  it('weighs name words above description words and generic verbs below both', () => {
    const [order, delayed] = scoreTools('get delayed orders', tools);
    expect(order?.score).toBe(1 + 3 + 1); // get (verb) + order (name) + order (description)
    expect(delayed?.score).toBe(3 + 3 + 1); // delay + order (name) + order (description)
  });
});

describe('words', () => {
  it('splits identifiers of every case', () => {
    expect(splitIdentifier('listDelayedOrders')).toEqual(['list', 'delayed', 'orders']);
    expect(splitIdentifier('send-email_now')).toEqual(['send', 'email', 'now']);
    expect(splitIdentifier('getHTTPStatus')).toEqual(['get', 'http', 'status']);
  });

  it('stems plurals and verb forms to the same word', () => {
    expect(stem('orders')).toBe(stem('order'));
    expect(stem('delayed')).toBe(stem('delay'));
    expect(stem('changing')).toBe(stem('change'));
    expect(stem('shipping')).toBe(stem('ship'));
    expect(stem('deliveries')).toBe(stem('delivery'));
    expect(stem('status')).toBe('status');
  });

  it('tells tool names that only read from names that change something', () => {
    for (const name of ['cart_list', 'query_order', 'getWeather', 'list_delayed_orders', 'findUser']) expect(isReadName(name), name).toBe(true);
    for (const name of ['cart_add', 'cart_clear', 'update_delivery_date', 'send_email', 'calculate', 'get_or_create_user', 'listAndDelete']) {
      expect(isReadName(name), name).toBe(false);
    }
  });

  it('drops stopwords and numbers', () => {
    expect(contentWords("What's the status of order 42?")).toEqual(['status', 'order']);
  });
});

describe('what the matcher reads besides words', () => {
  const clock = { name: 'world_clock', description: 'Local time in a time zone such as "Europe/Berlin".', inputSchema: { type: 'object', properties: { time_zone: { type: 'string' } } } };
  const id = { type: 'string', pattern: '^A-\\d{4}$' };
  const orders = [
    { name: 'list_delayed_orders', description: 'List the orders running late.', inputSchema: { type: 'object', properties: {} } },
    { name: 'query_order', description: 'Look up one order by id.', inputSchema: { type: 'object', properties: { order_id: id }, required: ['order_id'] } },
  ];

  it('reads a place alone, or named in German or French, as a question about its time, but not a place in a description', () => {
    for (const text of ['Tokio', 'in Berlin?', 'Uhrzeit in München', "l'heure à Genève"]) expect(pickTool(text, [clock])?.name, text).toBe('world_clock');
    expect(scoreTools("What's the weather in Berlin?", [clock])[0]?.score).toBe(0);
  });

  it('answers about the one order a text names with the tool that reads it, not with a list', () => {
    expect(pickTool('Which orders are late?', orders)?.name).toBe('list_delayed_orders');
    expect(pickTool('How late is A-1002?', orders)?.name).toBe('query_order');
  });

  it('finds a topic no tool covers, and none once a tool covers it', () => {
    expect(missingTopic('Wetter in Berlin', [clock])).toBe('the weather');
    expect(missingTopic('Cancel order A-1003', orders)).toBe('cancelling orders');
    expect(missingTopic('delete order A-1006', orders)).toBe('deleting things');
    expect(missingTopic('Lösche Bestellung A-1006', orders)).toBe('deleting things');
    expect(missingTopic("What's the weather in Berlin?", [{ name: 'get_forecast', description: 'The weather forecast for a city.' }])).toBeUndefined();
    expect(missingTopic('Where is A-1002?', orders)).toBeUndefined();
  });

  it('finds a request to set a status that no tool takes, and no question about one', () => {
    for (const text of ['set A-1003 to shipped', 'mark A-1003 as delivered', 'mark A-1003 shipped', 'change the status of A-1003 to urgent', 'Markiere A-1003 als geliefert']) {
      expect(missingTopic(text, orders), text).toBe('changing a status');
    }
    for (const text of ['what is the status of A-1003', 'show the status of A-1003 to me', 'set a reminder to check open orders', 'Which orders are marked as delayed?']) {
      expect(missingTopic(text, orders), text).toBeUndefined();
    }
    const withStatus = { name: 'set_order_status', inputSchema: { type: 'object', properties: { order_id: id, status: { type: 'string' } } } };
    expect(missingTopic('set A-1003 to shipped', [...orders, withStatus])).toBeUndefined();
  });

  it('finds a request for all of a thing that no tool lists whole, and offers the tools that work on it', () => {
    const names = (text: string, set = orders) => unlistedAll(text, set)?.tools.map((tool) => tool.name);
    expect(unlistedAll('show all orders', orders)).toEqual({ all: 'all orders', every: false, thing: 'orders', tools: orders });
    expect(unlistedAll('list every order', orders)?.all).toBe('every order');
    expect(unlistedAll('list orders', orders)?.all).toBe('all orders');
    expect(names('list all orders')).toEqual(['list_delayed_orders', 'query_order']);
    expect(names('Zeig alle Bestellungen')).toEqual(['list_delayed_orders', 'query_order']);
    expect(names('show me my orders')).toEqual(['list_delayed_orders', 'query_order']);
    // A plural alone, or beside words for having or seeing it, asks for all of them too; one order is not all of them.
    for (const text of ['what orders do I have', 'my orders', 'orders?', 'do I have any orders?', 'meine Bestellungen', 'mes commandes', 'Welche Bestellungen habe ich?']) {
      expect(names(text), text).toEqual(['list_delayed_orders', 'query_order']);
    }
    expect(names('my order')).toBeUndefined();
    expect(names('cancel my orders')).toBeUndefined();
    // A list of the delayed orders is one of all delays.
    expect(names('show all delays')).toBeUndefined();
    expect(names('delays')).toBeUndefined();
    // The part the list covers, a tool that does something else with all of them, a tool that lists them all: no such answer.
    expect(names('list all delayed orders')).toBeUndefined();
    expect(names('show all late orders')).toBeUndefined();
    expect(names('audit all orders', [...orders, { name: 'audit_orders', description: 'Audit every open order.', inputSchema: { type: 'object', properties: {} } }])).toBeUndefined();
    expect(names('show all orders', [...orders, { name: 'list_orders', description: 'List every order.', inputSchema: { type: 'object', properties: {} } }])).toBeUndefined();
    // A tool that does something else with every one of them is reached by its description's "every order", but is no
    // list of them all unless the text names what it does ("audit"); "jede", "chaque" ask for every one too.
    const audit = { name: 'audit_orders', description: 'Audit every open order and flag those running late.', inputSchema: { type: 'object', properties: {} } };
    for (const text of ['show me every order', 'every order', 'show every order please']) expect(unlistedAll(text, [...orders, audit])?.all, text).toBe('every order');
    expect(names('audit every order', [...orders, audit])).toBeUndefined();
    expect(unlistedAll('zeig mir jede Bestellung', orders)).toMatchObject({ every: true, thing: 'Bestellung' });
    expect(unlistedAll('montre chaque commande', orders)).toMatchObject({ every: true, thing: 'commande' });
  });

  it('reads "note" as no "not", and a message as evidence only beside a word of the tool\'s', () => {
    const mail = {
      name: 'send_email',
      description: 'Send an e-mail to the customer (the address is not chosen by you).',
      inputSchema: { type: 'object', properties: { order_id: id, body: { type: 'string' } }, required: ['order_id', 'body'] },
    };
    expect(scoreTools('a note', [mail])[0]?.score).toBe(0);
    // The id counts; the colon's message does not, with no word of the tool's beside it.
    expect(scoreTools('A-1003: fragile', [mail])[0]?.score).toBe(3);
    expect(scoreTools('email A-1003: fragile', [mail])[0]?.score).toBe(3 + 3 + 3);
    expect(missingTopic('add a note to A-1003: fragile', [...orders, mail])).toBe('notes on orders');
    expect(missingTopic('send a note to the customer of A-1002 saying it is late', [...orders, mail])).toBeUndefined();
  });

  it('finds deleting missing unless the tool the text is for deletes: a cart that is cleared is no order that is removed', () => {
    const clear = { name: 'cart_clear', description: "Remove every item from the user's shopping cart.", inputSchema: { type: 'object', properties: {} } };
    expect(missingTopic('remove order A-1006', [...orders, clear])).toBe('deleting things');
    expect(missingTopic('delete order A-1006', [...orders, clear])).toBe('deleting things');
    expect(missingTopic('remove everything from my cart', [...orders, clear])).toBeUndefined();
    expect(missingTopic('delete my cart', [...orders, clear])).toBeUndefined();
  });

  it('splits a message into its requests at "and", "then", "und", "et", ";" and "?"', () => {
    expect(splitRequests('Where is A-1002 and what time is it in Tokyo?').map((request) => request.text)).toEqual(['Where is A-1002', 'what time is it in Tokyo?']);
    expect(splitRequests('Zeig A-1001 und dann die Rechnung; et puis Tokio').map((request) => request.text)).toEqual(['Zeig A-1001', 'die Rechnung', 'Tokio']);
    expect(splitRequests('Where is A-1002?')).toEqual([{ text: 'Where is A-1002?', end: 16 }]);
  });

  it('answers how many of a thing there are with the tool that returns their counts, or in a state they are counted by', () => {
    const chart = { name: 'orders_chart', description: 'Draw a bar chart of all orders by status: pending, shipped, delayed, delivered. It also returns the counts.' };
    const set = [...orders, chart];
    for (const text of ['how many orders are there', 'How many orders do I have?', 'how many orders in total', 'Wie viele Bestellungen gibt es?', 'combien de commandes y a-t-il ?', 'how many orders are shipped?']) {
      expect(countingTool(text, set)?.name, text).toBe('orders_chart');
    }
    // Some of them asked about in another way, or by a word another tool's name says: that tool answers.
    for (const text of ['how many orders are late', 'how many orders are delayed', 'how many orders does Grace have', 'how many days late is A-1012', 'show all orders']) {
      expect(countingTool(text, set), text).toBeUndefined();
    }
    // No tool that counts: none.
    expect(countingTool('how many orders are there', orders)).toBeUndefined();
  });
});
