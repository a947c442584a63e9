import type { LanguageModelV4ToolResultPart } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { summarizeToolResults } from './summarize-results.ts';

const result = (toolName: string, output: LanguageModelV4ToolResultPart['output']): LanguageModelV4ToolResultPart => ({
  type: 'tool-result',
  toolCallId: `call-${toolName}`,
  toolName,
  output,
});

describe('summarizeToolResults', () => {
  it('names the key fields of an object result', () => {
    const text = summarizeToolResults([
      result('getOrder', {
        type: 'json',
        value: { id: 'A-1', status: 'shipped', customer: { name: 'Ana', vip: true }, items: [1, 2, 3] },
      }),
    ]);
    expect(text).toBe('getOrder returned id A-1, status shipped, customer: name Ana, vip true, items: 3 items.');
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
