import type { LanguageModelV4ToolResultPart } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { editNote } from '@edgetool/core';
import { summarizeToolResults } from './summarize-results.ts';
import { WORDINGS } from './wording.ts';

const result = (toolName: string, output: LanguageModelV4ToolResultPart['output']): LanguageModelV4ToolResultPart => ({
  type: 'tool-result',
  toolCallId: `call-${toolName}`,
  toolName,
  output,
});

describe('summarizeToolResults', () => {
  it('names the key fields of an object result', () => {
    const text = summarizeToolResults([
      result('getCustomer', {
        type: 'json',
        value: { id: 'C-1', tier: 'gold', customer: { name: 'Ana', vip: true }, items: [1, 2, 3] },
      }),
    ]);
    expect(text).toBe('getCustomer returned id C-1, tier gold, customer: name Ana, vip true, items: 3 items.');
  });

  it('counts list results and labels their items', () => {
    const list = [
      { id: 'A-2', status: 'delayed' },
      { id: 'A-3', status: 'delayed' },
    ];
    expect(summarizeToolResults([result('listDelayed', { type: 'json', value: list })])).toBe(
      'listDelayed returned 2 results: A-2 (status delayed); A-3 (status delayed).',
    );
    expect(summarizeToolResults([result('listDelayed', { type: 'json', value: { orders: list } })])).toContain(
      'returned 2 results',
    );
    expect(summarizeToolResults([result('listDelayed', { type: 'json', value: [] })])).toBe(
      'listDelayed returned no results.',
    );
  });

  it('reports primitives and text', () => {
    expect(summarizeToolResults([result('calculator', { type: 'json', value: 42 })])).toBe('calculator returned 42.');
    expect(summarizeToolResults([result('time', { type: 'text', value: '14:05 in Paris' })])).toBe(
      'time: 14:05 in Paris',
    );
  });

  it('names the images of a result with parts', () => {
    const output = {
      type: 'content' as const,
      value: [
        { type: 'text' as const, text: 'Sales in May:' },
        { type: 'file' as const, mediaType: 'image/png', data: { type: 'data' as const, data: 'AAAA' } },
      ],
    };
    expect(summarizeToolResults([result('sales_chart', output)])).toBe('sales_chart (with an image): Sales in May:');
    const image = { type: 'file' as const, mediaType: 'image/jpeg', data: { type: 'data' as const, data: 'AAAA' } };
    expect(summarizeToolResults([result('camera', { type: 'content', value: [image, image] })])).toBe('camera returned 2 images.');
  });

  it('names the documents of a result with parts, by their file names when they have them', () => {
    const pdf = (filename?: string) => ({
      type: 'file' as const,
      mediaType: 'application/pdf',
      data: { type: 'data' as const, data: 'JVBERi0x' },
      ...(filename === undefined ? {} : { filename }),
    });
    const image = { type: 'file' as const, mediaType: 'image/png', data: { type: 'data' as const, data: 'AAAA' } };
    const text = { type: 'text' as const, text: 'Invoice INV-7:' };
    const summary = (...value: (typeof text | typeof image | ReturnType<typeof pdf>)[]) => summarizeToolResults([result('invoice', { type: 'content', value })]);
    expect(summary(text, pdf('INV-7.pdf'))).toBe('invoice (with the document INV-7.pdf): Invoice INV-7:');
    expect(summary(text, pdf('INV-7.pdf'), image)).toBe('invoice (with the document INV-7.pdf and an image): Invoice INV-7:');
    expect(summary(pdf())).toBe('invoice returned a document.');
    expect(summary(pdf('a.pdf'), pdf('b.pdf'), image, image)).toBe('invoice returned 2 documents (a.pdf, b.pdf) and 2 images.');
    expect(summary(pdf('a.pdf'), pdf())).toBe('invoice returned 2 documents.');
  });

  it('acknowledges failures honestly', () => {
    expect(summarizeToolResults([result('getOrder', { type: 'error-text', value: 'Error: Order B-1 not found' })])).toBe(
      'The tool failed: getOrder reported "Order B-1 not found".',
    );
    expect(
      summarizeToolResults([
        result('getOrder', { type: 'json', value: { ok: false, error: { code: 'timeout', message: 'Timed out' } } }),
      ]),
    ).toBe('The tool failed: getOrder reported "Timed out".');
  });

  it('says a denied action was not performed', () => {
    expect(summarizeToolResults([result('sendEmail', { type: 'execution-denied', reason: 'too risky' })])).toBe(
      'sendEmail was not run because the request was denied (too risky), so the action was not performed.',
    );
    expect(
      summarizeToolResults([
        result('sendEmail', { type: 'json', value: { error: { code: 'approval-denied', message: 'No' } } }),
      ]),
    ).toContain('not performed');
  });

  it('writes one line per result when there are several', () => {
    const text = summarizeToolResults([
      result('a', { type: 'json', value: 1 }),
      result('b', { type: 'execution-denied' }),
    ]);
    expect(text.split('\n')).toEqual([
      'Here is what happened:',
      '- a returned 1.',
      '- b was not run because the request was denied, so the action was not performed.',
    ]);
  });
});

describe('summarizeToolResults: JSON that reaches the model as text', () => {
  it('reads edgetool text content as JSON and unwraps a single nested record', () => {
    const text = JSON.stringify({ found: true, order: { id: 'A-1002', customer: 'Grace Hopper', status: 'delayed', delivery_date: '2026-12-03' } });
    const summary = summarizeToolResults([{ type: 'tool-result', toolCallId: 'c1', toolName: 'query_order', output: { type: 'text', value: text } }]);
    expect(summary).toContain('A-1002');
    expect(summary).toContain('Grace Hopper');
    expect(summary).not.toContain('{');
  });

  it('keeps plain text as is', () => {
    const summary = summarizeToolResults([{ type: 'tool-result', toolCallId: 'c1', toolName: 'pick_date', output: { type: 'text', value: '2026-12-24' } }]);
    expect(summary).toBe('pick_date: 2026-12-24');
  });
});

describe('summarizeToolResults: a list with scalar context', () => {
  it('summarises the list, not the counters beside it', () => {
    const text = JSON.stringify({ days_threshold: 3, count: 2, orders: [{ id: 'A-1006', delay_days: 9 }, { id: 'A-1012', delay_days: 14 }] });
    const summary = summarizeToolResults([{ type: 'tool-result', toolCallId: 'c', toolName: 'list_delayed_orders', output: { type: 'text', value: text } }]);
    expect(summary).toContain('A-1006');
    expect(summary).toContain('A-1012');
    expect(summary).toMatch(/2 results/);
  });
});

describe('summarizeToolResults: one record with a status (query_order)', () => {
  const order = {
    id: 'A-1007',
    customer: 'Tim Berners-Lee',
    email: 'tim.bernerslee@example.org',
    items: [
      { sku: 'RT-6E', name: 'Wi-Fi 6E router', qty: 1, unit_price: 199 },
      { sku: 'CB-C6', name: 'Cat6 cable 5 m', qty: 3, unit_price: 7.5 },
    ],
    status: 'shipped',
    delivery_date: '2026-11-26',
    delay_days: 1,
    updated_at: '2026-11-20T09:00:00.000Z',
  };
  const asText = (toolName: string, value: unknown) =>
    summarizeToolResults([result(toolName, { type: 'text', value: JSON.stringify(value) })]);

  it('leads with the status and the delivery date, and does not count the items as results', () => {
    const summary = asText('query_order', { found: true, order });
    expect(summary).toMatch(/^Order A-1007 is shipped, delivery date 2026-11-26 \(1 day late\)\. /);
    expect(summary).toContain('Tim Berners-Lee');
    expect(summary).toContain('1 × Wi-Fi 6E router, 3 × Cat6 cable 5 m');
    expect(summary).not.toMatch(/\d results?\b/);
  });

  it('leaves out a delay of 0 days and names the record by its tool when nothing else does', () => {
    const onTime = { id: 'A-1001', status: 'pending', deliveryDate: '2026-11-28', delay_days: 0, total: 89 };
    expect(asText('getOrder', onTime)).toBe('Order A-1001 is pending, delivery date 2026-11-28. Details: total 89.');
  });

  it('prefers the new delivery date to the previous one in a write result', () => {
    const updated = { order_id: 'A-1003', previous_date: '2026-12-10', delivery_date: '2026-12-24', delay_days: 14, status: 'delayed', event_id: 7 };
    expect(asText('update_delivery_date', updated)).toBe(
      'Order A-1003 is delayed, delivery date 2026-12-24 (14 days late). Details: previous_date 2026-12-10, event_id 7.',
    );
  });

  it('still counts the entries of a list result', () => {
    const orders = [order, { ...order, id: 'A-1008' }];
    expect(asText('list_orders', { count: 2, orders })).toMatch(/^list_orders returned 2 results: A-1007 \(.*\); A-1008 \(/);
  });
});

describe('summarizeToolResults: what the user reads', () => {
  it('answers a lookup that found nothing with a plain sentence, not the hint meant for the model', () => {
    const missing = { found: false, order_id: 'A-9999', message: 'No order "A-9999" exists. Ask the user to check the id.' };
    const summary = summarizeToolResults([result('query_order', { type: 'text', value: JSON.stringify(missing) })]);
    expect(summary).toBe("I couldn't find order A-9999. Could you check the id?");
    expect(summarizeToolResults([result('findThing', { type: 'json', value: { found: false } })])).toBe(
      "I couldn't find anything with findThing. Could you check the details you gave?",
    );
  });

  it('does not end a sentence with a second period', () => {
    expect(summarizeToolResults([result('note', { type: 'json', value: { message: 'All set.' } })])).toBe(
      'note returned message All set.',
    );
  });
});

describe('summarizeToolResults of calls the user edited before approving', () => {
  const note = editNote([{ key: 'new_date', from: '2026-12-24', to: '2026-12-27' }]);

  it('says what the user changed, then reads the result after the note as usual', () => {
    const text = summarizeToolResults([result('update_delivery_date', { type: 'text', value: `${note}\n{"order_id":"A-1001","new_date":"2026-12-27"}` })]);
    expect(text).toBe('With your edit (new_date changed from "2026-12-24" to "2026-12-27"): update_delivery_date returned order_id A-1001, new_date 2026-12-27.');
    const failedText = summarizeToolResults([result('update_delivery_date', { type: 'error-text', value: `${note}\nError (execution-failed): the order was delivered` })]);
    expect(failedText).toMatch(/^With your edit \(new_date changed from "2026-12-24" to "2026-12-27"\): The tool failed: update_delivery_date reported/);
  });

  it('reads text that only looks like a note as text', () => {
    expect(summarizeToolResults([result('t', { type: 'text', value: `${note}` })])).toMatch(/^t: The user edited/);
  });

  it("says its fixed phrases in the user's language, and the tools' values and field names as they gave them", () => {
    const order = { order_id: 'A-1002', status: 'delayed', delivery_date: '2026-12-03', delay_days: 4, customer: 'Grace Hopper' };
    const list = [
      { id: 'A-2', status: 'delayed' },
      { id: 'A-3', status: 'delayed' },
    ];
    const [de, fr] = [WORDINGS.de, WORDINGS.fr];
    expect(summarizeToolResults([result('query_order', { type: 'json', value: order })], de)).toBe(
      'Bestellung A-1002 ist delayed, Lieferdatum 2026-12-03 (4 Tage Verspätung). Details: customer Grace Hopper.',
    );
    expect(summarizeToolResults([result('query_order', { type: 'json', value: order })], fr)).toBe(
      'La commande A-1002 est delayed, date de livraison 2026-12-03 (4 jours de retard). Détails : customer Grace Hopper.',
    );
    expect(summarizeToolResults([result('listDelayed', { type: 'json', value: list })], de)).toBe(
      'listDelayed lieferte 2 Ergebnisse: A-2 (status delayed); A-3 (status delayed).',
    );
    expect(summarizeToolResults([result('listDelayed', { type: 'json', value: [] })], fr)).toBe("listDelayed n'a renvoyé aucun résultat.");
    expect(summarizeToolResults([result('convert', { type: 'json', value: { amount: 21, unit: 'kg' } })], de)).toBe('convert lieferte amount 21, unit kg.');
    // A sum and a clock are said as a person says them (they were fields: "calculate lieferte expression 3*7, result 21.").
    expect(summarizeToolResults([result('calculate', { type: 'json', value: { expression: '3*7', result: 21 } })], de)).toBe('3*7 = 21.');
    const clock = { time_zone: 'Asia/Tokyo', local_date: '2026-11-20', local_time: '21:00:00', weekday: 'Friday', utc_offset: '+09:00' };
    expect(summarizeToolResults([result('world_clock', { type: 'json', value: clock })], de)).toBe('In Asia/Tokyo ist es 21:00 Uhr am Freitag, dem 2026-11-20 (UTC+09:00).');
    expect(summarizeToolResults([result('world_clock', { type: 'json', value: clock })], fr)).toBe('À Asia/Tokyo, il est 21:00, le vendredi 2026-11-20 (UTC+09:00).');
    expect(summarizeToolResults([result('query_order', { type: 'json', value: { found: false, order_id: 'A-9999' } })], de)).toBe(
      'Ich habe Bestellung A-9999 nicht gefunden. Kannst du die ID prüfen?',
    );
    expect(summarizeToolResults([result('query_order', { type: 'json', value: { found: false, order_id: 'A-9999' } })], fr)).toBe(
      "Je n'ai pas trouvé la commande A-9999. Pouvez-vous vérifier l'identifiant ?",
    );
    expect(summarizeToolResults([result('update_delivery_date', { type: 'error-text', value: 'Error: 2026-11-19 is in the past' })], de)).toBe(
      'Das Werkzeug ist fehlgeschlagen: update_delivery_date meldete „2026-11-19 is in the past“.',
    );
    expect(summarizeToolResults([result('update_delivery_date', { type: 'execution-denied', reason: 'nein' })], de)).toBe(
      'update_delivery_date wurde nicht ausgeführt, weil die Anfrage abgelehnt wurde (nein); es ist also nichts geschehen.',
    );
    expect(summarizeToolResults([result('cart_add', { type: 'json', value: { count: 3 } }), result('cart_list', { type: 'json', value: [] })], fr)).toBe(
      "Voici ce qui s'est passé :\n- cart_add a renvoyé count 3.\n- cart_list n'a renvoyé aucun résultat.",
    );
  });
});
