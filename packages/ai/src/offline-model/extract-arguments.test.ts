import { describe, expect, it } from 'vitest';
import { describeArgument, extractArgumentSets, extractArguments, MAX_ARGUMENT_SETS, suggestedId, unacceptedIds } from './extract-arguments.ts';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});

describe('extractArguments', () => {
  describe('a minimum and a cap said in words', () => {
    const delayed = object({
      days_threshold: { type: 'integer', minimum: 1, description: 'Minimum delay in days (default 1)', default: 1 },
      limit: { type: 'integer', minimum: 1, description: 'How many of the most delayed orders to list (default all)' },
    });

    it.each([
      ['orders delayed more than a week', { days_threshold: 8 }],
      ['late by over 10 days', { days_threshold: 11 }],
      ['Which orders are delayed by more than 3 days?', { days_threshold: 4 }],
      ['delayed at least 5 days', { days_threshold: 5 }],
      ['late for two weeks or more', { days_threshold: 14 }],
      ['seit mehr als einer Woche verspätet', { days_threshold: 8 }],
      ['the three most delayed orders', { limit: 3 }],
      ['top 5 orders late by over 2 days', { limit: 5, days_threshold: 3 }],
      ['the 2 latest orders delayed by 3 days', { limit: 2, days_threshold: 3 }],
    ])('%j → %j', (text, input) => {
      expect(extractArguments(text, delayed)).toEqual({ input, missing: [] });
    });

    it('reads a bound with a fraction whole, as the whole days it bounds: "at least 2.5 days" is 3, not 2', () => {
      expect(extractArguments('orders late at least 2.5 days', delayed).input).toEqual({ days_threshold: 3 });
      expect(extractArguments('orders late more than 2.5 days', delayed).input).toEqual({ days_threshold: 3 });
      expect(extractArguments('orders late more than 1.5 weeks', delayed).input).toEqual({ days_threshold: 11 });
      expect(extractArguments('orders late at least 1.5 weeks', delayed).input).toEqual({ days_threshold: 11 });
      expect(extractArguments('orders late 1.5 weeks or more', delayed).input).toEqual({ days_threshold: 11 });
    });

    it('reads no count from a date or an id ("since 2026-11-23, latest first" asks for no 23)', () => {
      expect(extractArguments('delayed orders since 2026-11-23 latest first', delayed).input).toEqual({});
      expect(extractArguments('is order A-12 most delayed', delayed).input).toEqual({});
      expect(extractArguments('orders late over 2026-11-03 days', delayed).input).toEqual({});
    });

    it('reads weeks as days only for an argument counted in days, and a bare "more than" as it is for a fraction', () => {
      const amount = object({ min_amount: { type: 'number', description: 'Minimum order total' } });
      expect(extractArguments('orders over a week old', amount).input).toEqual({});
      expect(extractArguments('orders over 50', amount).input).toEqual({ min_amount: 50 });
    });
  });

  it.each([
    ['Where is order #1234?', '1234'],
    ['Where is order A-1001?', 'A-1001'],
    ['status of ORD-7 please', 'ORD-7'],
    ['order 55 is late', '55'],
  ])('finds the order id in %j', (text, id) => {
    const schema = object({ order_id: { type: 'string' } }, ['order_id']);
    expect(extractArguments(text, schema)).toEqual({ input: { order_id: id }, missing: [] });
  });

  it('prefers a token that matches the property pattern', () => {
    const schema = object({ orderId: { type: 'string', pattern: '^ORD-\\d+$' } }, ['orderId']);
    expect(extractArguments('Compare A-1 with ORD-99.', schema).input).toEqual({ orderId: 'ORD-99' });
  });

  it('reads an id typed in another case than its pattern asks for, in the case the pattern accepts', () => {
    const schema = object({ order_id: { type: 'string', pattern: '^A-\\d{4}$' } }, ['order_id']);
    expect(extractArguments('where is order a-1002', schema).input).toEqual({ order_id: 'A-1002' });
    expect(extractArguments('invoice for #a-1001 please', schema).input).toEqual({ order_id: 'A-1001' });
    const lower = object({ ref: { type: 'string', pattern: '^ord-\\d+$' } }, ['ref']);
    expect(extractArguments('Status of ORD-7?', lower).input).toEqual({ ref: 'ord-7' });
    // A word without a digit is no id typed in the wrong case: the id written as the pattern asks is found instead.
    const currency = object({ currency_code: { type: 'string', pattern: '^[A-Z]{3}$' } }, ['currency_code']);
    expect(extractArguments('how much is 5 in EUR', currency).input).toEqual({ currency_code: 'EUR' });
  });

  it('reads an id typed with a space, a dash or an underscore for its hyphen, when its pattern makes it one id', () => {
    const schema = object({ order_id: { type: 'string', pattern: '^A-\\d{4}$' } }, ['order_id']);
    for (const text of ['status of a 1006', 'A 1006?', 'ordr a–1006', 'where is A_1006']) {
      expect(extractArguments(text, schema).input, text).toEqual({ order_id: 'A-1006' });
    }
    // Not when the joined word is no id of the pattern's: "a 100" has three digits, "B 1006" another letter.
    expect(extractArguments('a 100 euro order', schema).input).toEqual({});
    expect(extractArguments('is there a 1006 order', object({ order_id: { type: 'string', pattern: '^B-\\d{4}$' } }, ['order_id'])).input).toEqual({});
  });

  it('reads an id typed without (or with) the hyphen its pattern asks for, as the pattern writes it', () => {
    const schema = object({ order_id: { type: 'string', pattern: '^A-\\d{4}$' } }, ['order_id']);
    expect(extractArguments('Where is A1002?', schema).input).toEqual({ order_id: 'A-1002' });
    expect(extractArguments('status a1001', schema).input).toEqual({ order_id: 'A-1001' });
    const joined = object({ sku: { type: 'string', pattern: '^SKU\\d+$' } }, ['sku']);
    expect(extractArguments('price of sku-42', joined).input).toEqual({ sku: 'SKU42' });
    // Several ids typed so still make one call each.
    expect(extractArgumentSets('Where are A1002 and A1003?', schema).map((set) => set.input)).toEqual([{ order_id: 'A-1002' }, { order_id: 'A-1003' }]);
  });

  it('makes one set of arguments per id when the text names several ids of one shape, sharing the other arguments', () => {
    const schema = object({ order_id: { type: 'string', pattern: '^A-\\d{4}$' }, new_date: { type: 'string', format: 'date' } }, ['order_id', 'new_date']);
    const inputs = (text: string) => extractArgumentSets(text, schema).map((set) => set.input);
    expect(inputs('Move A-1003 and a-1004 to 2026-12-24')).toEqual([
      { order_id: 'A-1003', new_date: '2026-12-24' },
      { order_id: 'A-1004', new_date: '2026-12-24' },
    ]);
    // The same id twice is one call; an id of another shape is no second order; a bare number is no id here.
    expect(inputs('Move A-1003 (yes, A-1003) to 2026-12-24')).toEqual([{ order_id: 'A-1003', new_date: '2026-12-24' }]);
    const free = object({ order_id: { type: 'string' } }, ['order_id']);
    expect(extractArgumentSets('Where are A-1002, B-7 and ORD12?', free).map((set) => set.input)).toEqual([{ order_id: 'A-1002' }, { order_id: 'B-7' }]);
    expect(extractArgumentSets('Where is order A-1002? I paid 55 for 2', free).map((set) => set.input)).toEqual([{ order_id: 'A-1002' }]);
    expect(extractArgumentSets('order 55 and order 56', free).map((set) => set.input)).toEqual([{ order_id: '55' }]);
    const many = Array.from({ length: 15 }, (_, i) => `A-${1000 + i}`).join(' ');
    expect(extractArgumentSets(many, schema)).toHaveLength(MAX_ARGUMENT_SETS);
    // Nothing found: one set that says what is missing, as extractArguments.
    expect(extractArgumentSets('Move it to 2026-12-24', schema)).toEqual([extractArguments('Move it to 2026-12-24', schema)]);
  });

  it('makes one set per place of a list for a time zone argument, not for a place and its country or places apart', () => {
    const clock = object({ time_zone: { type: 'string', description: 'IANA time zone, e.g. Europe/Berlin' } }, ['time_zone']);
    const zones = (text: string) => extractArgumentSets(text, clock).map((set) => set.input.time_zone);
    expect(zones('time in new york, london and paris')).toEqual(['America/New_York', 'Europe/London', 'Europe/Paris']);
    // The first one written comes first, whatever the order of the city list.
    expect(zones('time in Tokyo, Sydney')).toEqual(['Asia/Tokyo', 'Australia/Sydney']);
    expect(zones('time in Tokyo or in Berlin?')).toEqual(['Asia/Tokyo', 'Europe/Berlin']);
    expect(zones('time in Berlin, Germany')).toEqual(['Europe/Berlin']);
    expect(zones('time in Paris, London, Paris')).toEqual(['Europe/Paris', 'Europe/London']);
    expect(zones('what time is it in Tokyo when it is 9 in Berlin')).toEqual(['Asia/Tokyo']);
    // A tool that also takes an id reads one place per call of its own.
    const both = object({ order_id: { type: 'string' }, time_zone: { type: 'string' } }, ['order_id', 'time_zone']);
    expect(extractArgumentSets('A-1002 in Tokyo and Berlin', both)).toHaveLength(1);
  });

  it("passes the request on whole as an agent tool's task (agentTool's input), not as a missing argument", () => {
    const schema = object({ task: { type: 'string', minLength: 1, description: 'What the agent should do, in plain words' } }, ['task']);
    expect(extractArguments('  Ask the delay analyst for a report on late orders.  ', schema)).toEqual({
      input: { task: 'Ask the delay analyst for a report on late orders.' },
      missing: [],
    });
    expect(extractArguments('Ask the analyst', object({ task: { type: 'string' } })).input).toEqual({});
  });

  it('turns an id into a number for integer id properties', () => {
    const schema = object({ customerId: { type: 'integer' } }, ['customerId']);
    expect(extractArguments('customer #42', schema).input).toEqual({ customerId: 42 });
  });

  it('finds ISO dates by format, by pattern and by property name', () => {
    const text = 'move it from 2025-01-31 to 2025-02-14';
    expect(extractArguments(text, object({ when: { type: 'string', format: 'date' } })).input).toEqual({
      when: '2025-01-31',
    });
    expect(
      extractArguments(text, object({ day: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } })).input,
    ).toEqual({ day: '2025-01-31' });
    expect(extractArguments(text, object({ fromDate: { type: 'string' }, toDate: { type: 'string' } })).input).toEqual({
      fromDate: '2025-01-31',
      toDate: '2025-02-14',
    });
    expect(extractArguments('at 2025-03-01T10:30Z', object({ at: { type: 'string', format: 'date-time' } })).input).toEqual(
      { at: '2025-03-01T10:30Z' },
    );
  });

  it('ignores impossible dates', () => {
    const schema = object({ date: { type: 'string', format: 'date' } }, ['date']);
    expect(extractArguments('on 2025-13-45', schema)).toEqual({ input: {}, missing: ['date'] });
  });

  it('does not read an id or a date as a number', () => {
    const schema = object({ orderId: { type: 'string' }, date: { type: 'string' }, quantity: { type: 'integer' } });
    expect(extractArguments('order A-1001 on 2025-04-01, 3 boxes', schema).input).toEqual({
      orderId: 'A-1001',
      date: '2025-04-01',
      quantity: 3,
    });
  });

  it('does not reuse a bare-number id as a quantity', () => {
    const schema = object({ orderId: { type: 'string' }, quantity: { type: 'integer' } });
    expect(extractArguments('order 55, 3 boxes', schema).input).toEqual({ orderId: '55', quantity: 3 });
  });

  it('omits an optional integer with a default when the text has no number', () => {
    const schema = object({ limit: { type: 'integer', default: 10 } });
    expect(extractArguments('list delayed orders', schema)).toEqual({ input: {}, missing: [] });
    expect(extractArguments('list 5 delayed orders', schema).input).toEqual({ limit: 5 });
  });

  it('reports a required number with a default as not missing', () => {
    const schema = object({ limit: { type: 'integer', default: 10 } }, ['limit']);
    expect(extractArguments('list delayed orders', schema)).toEqual({ input: {}, missing: [] });
  });

  it('matches numbers to properties by nearby words', () => {
    const schema = object({ width: { type: 'number' }, height: { type: 'number' } });
    expect(extractArguments('height 20 and width 7.5', schema).input).toEqual({ width: 7.5, height: 20 });
  });

  it('skips decimals for integer properties', () => {
    const schema = object({ count: { type: 'integer' } }, ['count']);
    expect(extractArguments('about 2.5 of them', schema)).toEqual({ input: {}, missing: ['count'] });
  });

  it('picks enum values, including multi-word and numeric ones', () => {
    const schema = object({
      status: { type: 'string', enum: ['pending', 'in_transit', 'delivered'] },
      speed: { enum: ['standard', 'express'] },
      priority: { type: 'integer', enum: [1, 2, 3] },
    });
    expect(extractArguments('mark it In Transit, express, priority 2', schema).input).toEqual({
      status: 'in_transit',
      speed: 'express',
      priority: 2,
    });
  });

  it('reads anyOf-of-const unions as enums and arrays of enums as lists', () => {
    const schema = object({
      unit: { anyOf: [{ const: 'celsius' }, { const: 'fahrenheit' }] },
      tags: { type: 'array', items: { type: 'string', enum: ['red', 'green', 'blue'] } },
    });
    expect(extractArguments('in fahrenheit, tags blue and red', schema).input).toEqual({
      unit: 'fahrenheit',
      tags: ['blue', 'red'],
    });
  });

  it('finds emails', () => {
    const schema = object({ to: { type: 'string', format: 'email' }, subject: { type: 'string' } }, ['to', 'subject']);
    expect(extractArguments('email ana@example.com about the late delivery', schema).input).toEqual({
      to: 'ana@example.com',
      subject: 'the late delivery',
    });
  });

  it('finds time zones by IANA name, by UTC and by city', () => {
    const schema = object({ timezone: { type: 'string' } }, ['timezone']);
    expect(extractArguments('time in America/New_York?', schema).input).toEqual({ timezone: 'America/New_York' });
    expect(extractArguments('what time is it in Paris', schema).input).toEqual({ timezone: 'Europe/Paris' });
    expect(extractArguments('and in new york?', object({ zone: { type: 'string' } })).input).toEqual({
      zone: 'America/New_York',
    });
    expect(extractArguments('in UTC', schema).input).toEqual({ timezone: 'UTC' });
  });

  it('extracts an arithmetic expression for calculator tools', () => {
    const schema = object({ expression: { type: 'string' } }, ['expression']);
    expect(extractArguments('what is 12 * (3 + 4)?', schema).input).toEqual({ expression: '12 * (3 + 4)' });
    expect(extractArguments('compute 7 times 6 minus 2', schema).input).toEqual({ expression: '7 * 6 - 2' });
    // In German and French words, and with a function of one number kept whole.
    expect(extractArguments('Was ist 17 mal 23 geteilt durch 2?', schema).input).toEqual({ expression: '17 * 23 / 2' });
    expect(extractArguments('combien font 6 fois 7 moins 1', schema).input).toEqual({ expression: '6 * 7 - 1' });
    expect(extractArguments('sqrt(16)+2', schema).input).toEqual({ expression: 'sqrt(16)+2' });
  });

  it('reads no topic from "for me": a question names something more than its asker', () => {
    const schema = object({ question: { type: 'string' } }, ['question']);
    expect(extractArguments('Pick a date for me', schema).input).toEqual({ question: 'Pick date' });
    expect(extractArguments('Ask me for my birthday', schema).input).toEqual({ question: 'my birthday' });
  });

  it('reads booleans from the flag word and from yes/no', () => {
    const schema = object({ notifyCustomer: { type: 'boolean' } });
    expect(extractArguments('and notify the customer', schema).input).toEqual({ notifyCustomer: true });
    expect(extractArguments("but don't notify anyone", schema).input).toEqual({ notifyCustomer: false });
    expect(extractArguments('yes', schema).input).toEqual({ notifyCustomer: true });
    expect(extractArguments('no', schema).input).toEqual({ notifyCustomer: false });
    expect(extractArguments('order no. 5', schema).input).toEqual({});
  });

  it('uses quoted strings, cities and message text', () => {
    expect(extractArguments('search for "red shoes"', object({ query: { type: 'string' } }, ['query'])).input).toEqual({
      query: 'red shoes',
    });
    expect(extractArguments('weather in Lisbon', object({ city: { type: 'string' } }, ['city'])).input).toEqual({
      city: 'Lisbon',
    });
    expect(extractArguments('weather in Springfield', object({ city: { type: 'string' } }, ['city'])).input).toEqual({
      city: 'Springfield',
    });
    expect(extractArguments('tell them: it ships Monday', object({ message: { type: 'string' } })).input).toEqual({
      message: 'it ships Monday',
    });
  });

  it("reads what someone is to be told after 'that', and writes a required subject from that message", () => {
    // send_email's schema as the demo Worker gives it: the subject's pattern only forbids line breaks.
    const email = object(
      {
        order_id: { type: 'string', pattern: '^A-\\d{4}$' },
        subject: { type: 'string', pattern: '^[^\\r\\n\\u2028\\u2029]*$' },
        body: { type: 'string' },
      },
      ['order_id', 'subject', 'body'],
    );
    expect(extractArguments('Email the customer of A-1002 that it is late', email)).toEqual({
      input: { order_id: 'A-1002', body: 'it is late', subject: 'It is late' },
      missing: [],
    });
    // A pattern that any line of words passes is no shape to look for: the first word is no subject.
    expect(extractArguments('Can you send the customer of A-1001 an email saying it has shipped', email).input).toEqual({
      order_id: 'A-1001',
      body: 'it has shipped',
      subject: 'It has shipped',
    });
    expect(extractArguments('Let the customer of A-1003 know that the parcel left our warehouse today.', email).input.body).toBe(
      'the parcel left our warehouse today.',
    );
    // A subject the text gives is kept; with no message there is nothing to write one from.
    expect(extractArguments('Email A-1002 about the delay saying sorry', email).input).toEqual({ order_id: 'A-1002', subject: 'the delay', body: 'sorry' });
    expect(extractArguments('Email the customer of A-1002', email).missing).toEqual(['subject', 'body']);
    // The reply to "I still need the body" (the request, then the reply, as the model reads them) is the message.
    expect(extractArguments('Notify the customer of A-1002 about the delay\nSorry, your parcel is a week late.', email).input).toEqual({
      order_id: 'A-1002',
      subject: 'the delay',
      body: 'Sorry, your parcel is a week late.',
    });
    // "that" with no telling verb before it is no message.
    expect(extractArguments('Is that order A-1002?', email).input.body).toBeUndefined();
  });

  it('lists required properties it could not find and ignores unsupported shapes', () => {
    const schema = object(
      { orderId: { type: 'string' }, address: { type: 'object' }, note: { type: 'string' } },
      ['orderId', 'address'],
    );
    expect(extractArguments('change the address', schema)).toEqual({ input: {}, missing: ['orderId', 'address'] });
  });

  it('sends null for a required argument it did not find that accepts null, as a model in strict mode does', () => {
    // policy.strict's rewrite: the optional `note` and `tags` are required and nullable; `order_id` is required.
    const schema = object(
      {
        order_id: { type: 'string' },
        new_date: { type: 'string', format: 'date' },
        note: { type: ['string', 'null'] },
        tags: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
      },
      ['order_id', 'new_date', 'note', 'tags'],
    );
    expect(extractArguments('Change the delivery date of order A-1001 to 2026-12-24', schema)).toEqual({
      input: { order_id: 'A-1001', new_date: '2026-12-24', note: null, tags: null },
      missing: [],
    });
    expect(extractArguments('Change the delivery date to 2026-12-24', schema)).toEqual({
      input: { new_date: '2026-12-24', note: null, tags: null },
      missing: ['order_id'],
    });
  });

  it('tolerates schemas that are not objects', () => {
    expect(extractArguments('anything', undefined)).toEqual({ input: {}, missing: [] });
    expect(extractArguments('anything', { type: 'string' })).toEqual({ input: {}, missing: [] });
  });

  it('sets const properties', () => {
    expect(extractArguments('x', object({ kind: { const: 'order' } })).input).toEqual({ kind: 'order' });
  });
});

describe('extractArguments: item names and their count (cart_add)', () => {
  // The browser tool `cart_add` as the demo declares it (apps/web/src/tools/declarations.ts).
  const cartAdd = object(
    {
      name: { type: 'string', minLength: 1, description: 'Item name, e.g. "coffee beans"' },
      quantity: { type: 'integer', minimum: 1, maximum: 99, description: 'How many (default 1)' },
      price: { type: 'number', minimum: 0, description: 'Unit price in EUR' },
    },
    ['name'],
  );

  it.each([
    ['add 2 coffee beans to my cart', { name: 'coffee beans', quantity: 2 }],
    ['Add 2 coffee beans to my cart, please', { name: 'coffee beans', quantity: 2 }],
    ['add coffee beans', { name: 'coffee beans' }],
    ['put 3 mugs in my cart', { name: 'mugs', quantity: 3 }],
    ['add a notebook to the cart', { name: 'notebook' }],
    ['add two mugs to my basket', { name: 'mugs', quantity: 2 }],
    ['add 2x Wi-Fi 6E router to the cart', { name: 'Wi-Fi 6E router', quantity: 2 }],
    ['add 2 coffee beans to my cart for 12.5 EUR each', { name: 'coffee beans', quantity: 2, price: 12.5 }],
    ['add "oat milk" to my cart', { name: 'oat milk' }],
    // A price said as one: "each", a currency; a decimal comma read as a point.
    ['add 2 coffee beans for 12.50 each', { name: 'coffee beans', quantity: 2, price: 12.5 }],
    ['add a mug for €4', { name: 'mug', price: 4 }],
    ['Ajoute 2 baguettes à 1,20 € pièce', { name: 'baguettes', quantity: 2, price: 1.2 }],
  ])('%j', (text, input) => {
    expect(extractArguments(text, cartAdd)).toEqual({ input, missing: [] });
  });

  it('makes one set per item of a list, each with its own count, sharing the price', () => {
    const inputs = (text: string) => extractArgumentSets(text, cartAdd).map((set) => set.input);
    expect(inputs('add 3 apples and 2 bananas to my cart')).toEqual([
      { name: 'apples', quantity: 3 },
      { name: 'bananas', quantity: 2 },
    ]);
    expect(inputs('add 2 mugs, milk and a notebook to my cart for 3 EUR each')).toEqual([
      { name: 'mugs', quantity: 2, price: 3 },
      { name: 'milk', price: 3 },
      { name: 'notebook', price: 3 },
    ]);
    // What follows the cart is no item of the list; one item is one set.
    expect(inputs('add 2 coffee beans to my cart and 3 to the list')).toEqual([{ name: 'coffee beans', quantity: 2 }]);
    expect(inputs('add coffee beans')).toEqual([{ name: 'coffee beans' }]);
  });

  it.each([
    ['Füge 2 Äpfel zum Warenkorb hinzu', { name: 'Äpfel', quantity: 2 }],
    ['Leg drei Tassen in den Warenkorb', { name: 'Tassen', quantity: 3 }],
    ['Ajoute 2 pommes au panier', { name: 'pommes', quantity: 2 }],
    ['Ajoute une baguette à mon panier', { name: 'baguette' }],
  ])('reads a German or French add: %j', (text, input) => {
    expect(extractArguments(text, cartAdd)).toEqual({ input, missing: [] });
  });

  it('does not take a placeholder for the item, and reads the reply to "which item?"', () => {
    expect(extractArguments('add something to my cart', cartAdd)).toEqual({ input: {}, missing: ['name'] });
    // The offline model reads the earlier request and the reply together, one per line.
    expect(extractArguments('add something to my cart\ncoffee beans', cartAdd).input).toEqual({ name: 'coffee beans' });
    expect(extractArguments('add to my cart\n3 mugs please', cartAdd).input).toEqual({ name: 'mugs', quantity: 3 });
  });

  it('leaves other string properties alone', () => {
    expect(extractArguments('add 2 coffee beans to my cart', object({ note: { type: 'string' } }))).toEqual({
      input: {},
      missing: [],
    });
  });
});

describe('describeArgument', () => {
  it('gives a hint for the expected shape', () => {
    const schema = object({
      orderId: { type: 'string' },
      date: { type: 'string', format: 'date' },
      status: { enum: ['a', 'b'] },
      note: { type: 'string', description: 'why' },
    });
    expect(describeArgument(schema, 'orderId')).toBe('the order id (for example #1234 or A-1001)');
    expect(describeArgument(schema, 'date')).toBe('the date (as YYYY-MM-DD)');
    expect(describeArgument(schema, 'status')).toBe('the status (one of a, b)');
    expect(describeArgument(schema, 'note')).toBe('the note (why)');
  });
});

describe('ids the tool does not take', () => {
  const schema = object({ order_id: { type: 'string', pattern: '^A-\\d{4}$', description: 'The order id, e.g. A-1001' } }, ['order_id']);
  it('reads a number after the noun, or a word of another language for it, with "Nr.", "n°" between', () => {
    const german = (noun: string) => (noun === 'order' ? ['bestellung', 'commande'] : []);
    expect(unacceptedIds('where is #1002', schema, 'order_id')).toEqual(['#1002']);
    expect(unacceptedIds('status of order no. 1002', schema, 'order_id')).toEqual(['1002']);
    expect(unacceptedIds('Wo ist Bestellung Nr. 1002?', schema, 'order_id', german)).toEqual(['1002']);
    expect(unacceptedIds('Où est la commande n° 1002 ?', schema, 'order_id', german)).toEqual(['1002']);
    expect(unacceptedIds('Wo ist Bestellung 1002?', schema, 'order_id')).toEqual([]);
    expect(unacceptedIds('I ordered 3 mugs', schema, 'order_id')).toEqual([]);
  });

  it('suggests the id a number stands for, in the shape of the example, when the pattern takes it', () => {
    expect(['#1002', '1002', '# 1002'].map((given) => suggestedId(schema, 'order_id', given))).toEqual(['A-1002', 'A-1002', 'A-1002']);
    // Digits no such id has, an id with letters of its own, an argument with no example: no guess.
    expect(['#42', '12345', 'B-2001', 'Z-9999'].map((given) => suggestedId(schema, 'order_id', given))).toEqual([undefined, undefined, undefined, undefined]);
    expect(suggestedId(object({ order_id: { type: 'string', pattern: '^ORD-\\d+$' } }), 'order_id', '#7')).toBeUndefined();
  });
});
