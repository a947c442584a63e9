import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../executor/executor.ts';
import { defineTool } from '../tool/define-tool.ts';
import { jsonSchema } from './json-schema.ts';

const Forecast = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } }, required: ['city'], additionalProperties: false };

describe('jsonSchema: the validator loads on first use', () => {
  it('validates synchronously once @cfworker/json-schema has loaded', async () => {
    const schema = jsonSchema<{ city: string; days?: number }>(Forecast);
    // The first result may be a promise (the module is still loading); either way it is the right answer.
    await expect(Promise.resolve(schema['~standard'].validate({ city: 'Paris' }))).resolves.toEqual({ value: { city: 'Paris' } });
    const ok = schema['~standard'].validate({ city: 'Oslo', days: 2 });
    expect(ok).not.toBeInstanceOf(Promise);
    expect(ok).toEqual({ value: { city: 'Oslo', days: 2 } });
    const bad = schema['~standard'].validate({ days: 0, extra: true });
    expect(bad).not.toBeInstanceOf(Promise);
    expect((bad as StandardSchemaV1.FailureResult).issues.map((i) => (i.path ?? []).join('.'))).toEqual(expect.arrayContaining(['days']));
  });

  it('a schema made later validates synchronously from its first call', async () => {
    await jsonSchema({ type: 'string' })['~standard'].validate('warm');
    const later = jsonSchema<number>({ type: 'integer' });
    expect(later['~standard'].validate(3)).toEqual({ value: 3 });
    expect(later['~standard'].validate('3')).toMatchObject({ issues: [{ path: [] }] });
  });

  it('the executor gives the same typed outcomes whether or not the validator had loaded', async () => {
    const tool = defineTool({ name: 'forecast', description: 'Weather', input: jsonSchema<{ city: string }>(Forecast), execute: ({ city }) => `Sunny in ${city}` });
    const executor = createExecutor({ registry: [tool] });
    const [good, bad] = await executor.executeAll([
      { id: 'a', name: 'forecast', arguments: '{"city":"Lima"}' },
      { id: 'b', name: 'forecast', arguments: '{"city":7}' },
    ]);
    expect(good?.content).toBe('Sunny in Lima');
    expect(bad?.outcome).toMatchObject({ type: 'error', error: { code: 'invalid-input', issues: [{ path: 'city' }] } });
  });
});
