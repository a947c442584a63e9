import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import type { ToolContext, ToolProgress, ToolProgressEvent } from '../chain/types.ts';
import type { ExecuteOptions } from '../executor/executor.ts';
import type { RateLimiter } from '../interceptors/limits.ts';
import { jsonSchema } from '../schema/json-schema.ts';
import type { listDelayedOrders, updateDeliveryDate } from '../test-support/order-tools.ts';
import { boundModelContent, DEFAULT_MAX_CONTENT_CHARS } from './content-bound.ts';
import { defineTool, withDeps } from './define-tool.ts';
import { imagePart, type ModelContent, type ModelContentPart } from './model-content.ts';
import type { AnyTool, InferToolInput, InferToolOutput, Tool } from './types.ts';
import type { ToolCallResult } from '../executor/executor.ts';

describe('defineTool types', () => {
  it('toModelOutput gets the typed output and returns text or parts', () => {
    defineTool({
      name: 'chart',
      description: '',
      input: v.object({}),
      execute: () => ({ caption: 'c', png: new Uint8Array(0) }),
      toModelOutput: (output) => {
        expectTypeOf(output).toEqualTypeOf<{ caption: string; png: Uint8Array<ArrayBuffer> }>();
        return [{ type: 'text', text: output.caption }, imagePart(output.png, 'image/png')];
      },
    });
    // @ts-expect-error: a part needs its fields
    defineTool({ name: 't', description: '', input: v.object({}), execute: () => 1, toModelOutput: () => [{ type: 'image', data: 'x' }] });
    // @ts-expect-error: not text, not parts
    defineTool({ name: 't', description: '', input: v.object({}), execute: () => 1, toModelOutput: () => 1 });
    expectTypeOf<ReturnType<NonNullable<AnyTool['toModelOutput']>>>().toEqualTypeOf<ModelContent>();
    expectTypeOf<ToolCallResult['parts']>().toEqualTypeOf<readonly ModelContentPart[] | undefined>();
  });

  it('infers execute input from the valibot schema (defaults applied)', () => {
    defineTool({
      name: 't',
      description: '',
      input: v.object({ a: v.string(), n: v.optional(v.number(), 1), tag: v.optional(v.picklist(['x', 'y'])) }),
      execute: (input, ctx) => {
        expectTypeOf(input).toEqualTypeOf<{ a: string; n: number; tag?: 'x' | 'y' | undefined }>();
        expectTypeOf(ctx).toEqualTypeOf<ToolContext<{ a: string; n: number; tag?: 'x' | 'y' | undefined }, unknown>>();
        return { ok: true as const };
      },
    });
  });

  it('types progress reports and their events', () => {
    defineTool({
      name: 't',
      description: '',
      input: v.object({}),
      execute: (_input, ctx) => {
        expectTypeOf(ctx.progress).parameter(0).toEqualTypeOf<ToolProgress>();
        ctx.progress({ message: 'half', completed: 1, total: 2 });
        // @ts-expect-error a percentage is not a field of a report
        ctx.progress({ percent: 50 });
        // @ts-expect-error counts are numbers
        ctx.progress({ completed: '1' });
        return null;
      },
    });
    expectTypeOf<NonNullable<ExecuteOptions['onProgress']>>().parameter(0).toEqualTypeOf<ToolProgressEvent>();
    expectTypeOf<ToolProgressEvent['progress']>().toEqualTypeOf<ToolProgress>();
  });

  it('an output schema types the result of sync and async tools alike, and must match it', () => {
    const sync = defineTool({ name: 's', description: '', input: v.object({}), output: v.object({ n: v.number() }), execute: () => ({ n: 1 }) });
    const later = defineTool({ name: 'a', description: '', input: v.object({}), output: v.object({ n: v.number() }), execute: async () => ({ n: 1 }) });
    expectTypeOf<InferToolOutput<typeof sync>>().toEqualTypeOf<{ n: number }>();
    expectTypeOf<InferToolOutput<typeof later>>().toEqualTypeOf<{ n: number }>();
    defineTool({
      name: 'b',
      description: '',
      input: v.object({}),
      output: v.object({ n: v.string() }),
      // @ts-expect-error the schema says a string, the tool returns a number
      execute: async () => ({ n: 1 }),
    });
  });

  it('carries input and output types on the tool', () => {
    expectTypeOf<InferToolInput<typeof updateDeliveryDate>>().toEqualTypeOf<{ order_id: string; new_date: string; reason?: string | undefined }>();
    expectTypeOf<InferToolOutput<typeof listDelayedOrders>>().toEqualTypeOf<{ days_threshold: number; status: string; orders: string[] }>();
    expectTypeOf<typeof updateDeliveryDate>().toExtend<AnyTool>();
  });

  it('unwraps async outputs and types raw JSON Schema tools by their generic', () => {
    const t = defineTool({ name: 'a', description: '', input: jsonSchema<{ city: string }>({ type: 'object' }), execute: async ({ city }) => city.length });
    expectTypeOf(t).toEqualTypeOf<Tool<{ city: string }, number, unknown>>();
  });

  it('types run deps through withDeps', () => {
    const { defineTool: defineWithDb } = withDeps<{ db: { query(sql: string): string } }>();
    defineWithDb({
      name: 'q',
      description: '',
      input: v.object({}),
      execute: (_input, ctx) => {
        expectTypeOf(ctx.run.deps.db.query).toEqualTypeOf<(sql: string) => string>();
        return null;
      },
    });
  });

  it('types policy.available by the run deps bound with withDeps', () => {
    const { defineTool: defineForRoles } = withDeps<{ role: 'staff' | 'guest' }>();
    defineForRoles({
      name: 'refund',
      description: '',
      input: v.object({}),
      policy: {
        available: (run) => {
          expectTypeOf(run.deps.role).toEqualTypeOf<'staff' | 'guest'>();
          return run.deps.role === 'staff';
        },
      },
      execute: () => null,
    });
    // @ts-expect-error: an answer, not a role
    defineForRoles({ name: 'r', description: '', input: v.object({}), policy: { available: (run) => run.deps.role }, execute: () => null });
    defineTool({ name: 'r', description: '', input: v.object({}), policy: { available: async () => true }, execute: () => null });
  });

  it('types the rate limit policy by the run deps bound with withDeps', () => {
    const { defineTool: defineWithLimiter } = withDeps<{ limiter: RateLimiter; tenant: string }>();
    defineWithLimiter({
      name: 'limited',
      description: '',
      input: v.object({}),
      policy: {
        check: (input, ctx) => {
          expectTypeOf(input).toEqualTypeOf<{}>();
          expectTypeOf(ctx.run.deps.tenant).toEqualTypeOf<string>();
        },
        maxCallsPerRun: 3,
        rateLimit: {
          limiter: (ctx) => {
            expectTypeOf(ctx.run.deps.limiter).toEqualTypeOf<RateLimiter>();
            return ctx.run.deps.limiter;
          },
          key: (ctx) => ctx.run.deps.tenant,
        },
      },
      execute: () => null,
    });
    // @ts-expect-error a limiter must have limit({ key })
    defineTool({ name: 'x', description: '', input: v.object({}), policy: { rateLimit: { limiter: { take: () => true } } }, execute: () => null });
    // @ts-expect-error the key is a string
    defineTool({ name: 'y', description: '', input: v.object({}), policy: { rateLimit: { limiter: { limit: () => ({ success: true }) }, key: () => 1 } }, execute: () => null });
  });

  it('types approvalReason by the input and the run deps', () => {
    const { defineTool: defineForTenant } = withDeps<{ tenant: string }>();
    defineForTenant({
      name: 'pay',
      description: '',
      input: v.object({ amount: v.number() }),
      policy: {
        effects: 'write',
        approvalReason: async (input, ctx) => {
          expectTypeOf(input).toEqualTypeOf<{ amount: number }>();
          expectTypeOf(ctx.run.deps.tenant).toEqualTypeOf<string>();
          return input.amount > 100 ? `Pays ${input.amount} for ${ctx.run.deps.tenant}.` : undefined;
        },
      },
      execute: () => null,
    });
    defineTool({ name: 'p', description: '', input: v.object({}), policy: { effects: 'write', approvalReason: 'Always asks.' }, execute: () => null });
    // @ts-expect-error words, not a number
    defineTool({ name: 'q', description: '', input: v.object({}), policy: { effects: 'write', approvalReason: () => 1 }, execute: () => null });
  });

  it('rejects an execute whose input does not match the schema', () => {
    defineTool({
      name: 'bad',
      description: '',
      input: v.object({ a: v.string() }),
      // @ts-expect-error `b` is not in the schema
      execute: (input: { b: number }) => input.b,
    });
  });
});

describe('per-tool interceptor types', () => {
  it('see the tool input and the run deps bound with withDeps', () => {
    const { defineTool: defineWithDb } = withDeps<{ db: { query(sql: string): string } }>();
    defineWithDb({
      name: 'q2',
      description: '',
      input: v.object({ id: v.string() }),
      interceptors: [
        async (ctx, next) => {
          expectTypeOf(ctx.input).toEqualTypeOf<{ id: string }>();
          expectTypeOf(ctx.run.deps.db.query).toEqualTypeOf<(sql: string) => string>();
          return next();
        },
      ],
      execute: ({ id }) => id,
    });
  });

  it('types policy.maxContentChars as a number, and boundModelContent as content in, content out', () => {
    const tool = defineTool({ name: 't', description: '', input: v.object({}), policy: { maxContentChars: 5_000 }, execute: () => 'x' });
    expectTypeOf(tool.policy.maxContentChars).toEqualTypeOf<number>();
    // @ts-expect-error: a number of characters, not a string
    defineTool({ name: 't', description: '', input: v.object({}), policy: { maxContentChars: '5000' }, execute: () => 'x' });
    expectTypeOf(boundModelContent).parameters.toEqualTypeOf<[ModelContent, number]>();
    expectTypeOf(boundModelContent).returns.toEqualTypeOf<ModelContent>();
    expectTypeOf(DEFAULT_MAX_CONTENT_CHARS).toEqualTypeOf<number>();
  });
});
