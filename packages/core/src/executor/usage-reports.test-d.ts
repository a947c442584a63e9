import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import type { ToolContext, ToolUsage } from '../chain/types.ts';
import type { TraceRecord } from '../interceptors/trace.ts';
import { defineTool } from '../tool/define-tool.ts';
import type { ToolCallResult } from './executor.ts';

describe('usage report types', () => {
  it('ctx.reportUsage takes flat token counts; the context holds their sum', () => {
    expectTypeOf<ToolContext['reportUsage']>().parameter(0).toEqualTypeOf<ToolUsage>();
    expectTypeOf<ToolContext['reportUsage']>().returns.toEqualTypeOf<void>();
    expectTypeOf<ToolContext['usage']>().toEqualTypeOf<ToolUsage | undefined>();
    expectTypeOf<ToolUsage>().toEqualTypeOf<{
      readonly inputTokens?: number;
      readonly outputTokens?: number;
      readonly totalTokens?: number;
      readonly reasoningTokens?: number;
      readonly cachedInputTokens?: number;
    }>();
    defineTool({
      name: 'summarise',
      description: '',
      input: v.object({ text: v.string() }),
      execute: ({ text }, ctx) => {
        ctx.reportUsage({ inputTokens: text.length, outputTokens: 20 });
        // @ts-expect-error a count is a number
        ctx.reportUsage({ inputTokens: '40' });
        // @ts-expect-error no such count
        ctx.reportUsage({ tokens: 40 });
        // @ts-expect-error the sum is the executor's to keep
        ctx.usage = { inputTokens: 0 };
        return text;
      },
    });
  });

  it('every result and trace record has the call’s usage, or undefined', () => {
    expectTypeOf<ToolCallResult['usage']>().toEqualTypeOf<ToolUsage | undefined>();
    expectTypeOf<TraceRecord['usage']>().toEqualTypeOf<ToolUsage | undefined>();
  });
});
