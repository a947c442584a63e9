import { createExecutor, defineTool } from '@edgetool/core';
import { describe, expect, it } from 'vitest';
import { pickDateSpec } from './declarations.ts';

describe('pick_date declaration', () => {
  const pickDate = defineTool({ ...pickDateSpec, policy: { ...pickDateSpec.policy, runsOn: 'anywhere' }, execute: ({ question }) => question });
  const executor = createExecutor({ registry: [pickDate] });
  const call = (args: Record<string, unknown>) => executor.execute({ id: 'c1', name: 'pick_date', arguments: { question: 'When?', ...args } });

  it('refuses a day the calendar does not have and a range with no day in it, so the user is never left with nothing to choose', async () => {
    const impossible = await call({ max: '2027-02-30' });
    expect(impossible.content).toContain('max: That day does not exist');
    const empty = await call({ min: '2027-03-10', max: '2027-03-01' });
    expect(empty.content).toContain('max: max is before min: no day can be chosen');
    expect((await call({ min: '2027-03-01', max: '2027-03-01' })).outcome.type).toBe('success');
    expect((await call({ max: '2028-02-29' })).outcome.type).toBe('success');
  });

  it('the model still sees min and max as optional dates in the JSON Schema', () => {
    const schema = pickDate.jsonSchema as { properties: Record<string, { type?: string; format?: string }>; required: string[] };
    expect(schema.required).toEqual(['question']);
    expect(schema.properties.max).toMatchObject({ type: 'string', format: 'date' });
  });
});
