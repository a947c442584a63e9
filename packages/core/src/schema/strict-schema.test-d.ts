import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { defineTool } from '../tool/define-tool.ts';
import type { ToolPolicy, ToolPolicyInput } from '../tool/types.ts';
import type { JsonSchema } from './input-schema.ts';
import { dropOptionalNulls } from './strict-nulls.ts';
import { type StrictJsonSchema, type StrictSchemaLimit, toStrictJsonSchema } from './strict-schema.ts';

describe('strict mode types', () => {
  it('policy.strict is a boolean, optional where written and always there once resolved', () => {
    expectTypeOf<ToolPolicyInput['strict']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<ToolPolicy['strict']>().toEqualTypeOf<boolean>();
    const tool = defineTool({ name: 't', description: '', input: v.object({ a: v.optional(v.string()) }), policy: { strict: true }, execute: ({ a }) => a });
    expectTypeOf(tool.policy.strict).toEqualTypeOf<boolean>();
    // @ts-expect-error: strict is true or false
    defineTool({ name: 't', description: '', input: v.object({}), policy: { strict: 'auto' } });
  });

  it('toStrictJsonSchema gives the schema or, when the tool must go non-strict, the reason', () => {
    const result = toStrictJsonSchema({ type: 'object' });
    expectTypeOf(result).toEqualTypeOf<StrictJsonSchema>();
    if (result.strict) expectTypeOf(result.schema).toEqualTypeOf<JsonSchema>();
    else {
      expectTypeOf(result.reason).toEqualTypeOf<string>();
      // Set only when the schema is over one of OpenAI's size limits.
      expectTypeOf(result.limit).toEqualTypeOf<StrictSchemaLimit | undefined>();
    }
    expectTypeOf<StrictSchemaLimit['name']>().toEqualTypeOf<'properties' | 'nesting' | 'enum-values' | 'characters' | 'enum-characters'>();
    expectTypeOf<StrictSchemaLimit['found']>().toEqualTypeOf<number>();
    expectTypeOf(dropOptionalNulls).parameters.toEqualTypeOf<[unknown, JsonSchema | undefined]>();
    expectTypeOf(dropOptionalNulls).returns.toEqualTypeOf<unknown>();
  });
});
