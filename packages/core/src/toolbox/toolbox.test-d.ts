import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import type { ToolContext } from '../chain/types.ts';
import type { AnyTool } from '../tool/types.ts';
import { type ScanOptions, scanTools, tool, type ToolMethodOptions } from './toolbox.ts';

const input = v.object({ id: v.string(), n: v.optional(v.number(), 1), count: v.pipe(v.string(), v.transform(Number)) });
type Input = { id: string; n: number; count: number };

describe('toolbox types: a @tool method is typed by its schema, as defineTool execute is', () => {
  it('the method may take the schema\'s output and the call\'s context; the policy is typed by the input', () => {
    class Typed {
      @tool({
        description: 'Typed',
        input,
        policy: {
          check: (checked, ctx) => {
            expectTypeOf(checked).toEqualTypeOf<Input>();
            expectTypeOf(ctx).toEqualTypeOf<ToolContext<Input, unknown>>();
          },
          needsApproval: (asked) => asked.count > 3,
          editable: ['id'],
        },
      })
      exact(value: Input, ctx: ToolContext<Input>): string {
        return `${value.id} ${value.n} ${value.count} ${ctx.call.id}`;
      }

      @tool({ description: 'Wider', input })
      async wider({ id }: { id: string }): Promise<string> {
        return id;
      }

      @tool({ description: 'No arguments', input: v.object({}) })
      none(): number {
        return 1;
      }

      @tool({ name: 'static_zone', description: 'Static', input: v.object({ zone: v.string() }) })
      static zone({ zone }: { zone: string }): string {
        return zone;
      }
    }
    expectTypeOf(scanTools(new Typed())).toEqualTypeOf<AnyTool[]>();
    expectTypeOf(scanTools(Typed, { only: ['static_zone'] })).toEqualTypeOf<AnyTool[]>();
    expectTypeOf<ScanOptions['only']>().toEqualTypeOf<readonly string[] | undefined>();
  });

  it('a method that wants what the schema does not give is refused', () => {
    class Wrong {
      // @ts-expect-error: the schema gives `count` as a number (after its transform), not a string
      @tool({ description: 'Wrong', input })
      count({ count }: { count: string }): string {
        return count;
      }

      // @ts-expect-error: the schema has no `missing`
      @tool({ description: 'Missing', input })
      missing({ missing }: { missing: string }): string {
        return missing;
      }

      // @ts-expect-error: the context's input is the schema's output
      @tool({ description: 'Context', input })
      context(_value: Input, ctx: ToolContext<{ other: boolean }>): boolean {
        return ctx.input.other;
      }
    }
    expectTypeOf(Wrong).toBeConstructibleWith();
  });

  it('the options: no execute (the method is the body), the policy typed by the input', () => {
    expectTypeOf<ToolMethodOptions<typeof input>['name']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ToolMethodOptions<typeof input>>().not.toHaveProperty('execute');
    // @ts-expect-error: a policy check of another input
    tool({ description: 'Policy', input, policy: { check: (checked: { other: boolean }) => void checked } });
    // @ts-expect-error: editable lists argument names (strings)
    tool({ description: 'Editable', input, policy: { editable: [1] } });
  });

  it('an output schema types what the method returns, sync or async, and what toModelOutput gets', () => {
    const output = v.object({ total: v.number() });
    class Totals {
      @tool({
        description: 'Sum',
        input,
        output,
        toModelOutput: (result) => {
          expectTypeOf(result).toEqualTypeOf<{ total: number }>();
          return `total ${result.total}`;
        },
      })
      sum({ count }: Input): { total: number } {
        return { total: count };
      }

      @tool({ description: 'Later', input, output })
      async later({ count }: Input): Promise<{ total: number }> {
        return { total: count };
      }

      // @ts-expect-error: the output schema says a number, the method returns a string
      @tool({ description: 'Wrong', input, output })
      wrong({ id }: Input): { total: string } {
        return { total: id };
      }

      // @ts-expect-error: the same, async
      @tool({ description: 'Wrong later', input, output })
      async wrongLater({ id }: Input): Promise<{ total: string }> {
        return { total: id };
      }

      @tool({ description: 'Annotated', input, toModelOutput: (text: string) => text.toUpperCase() })
      annotated({ id }: Input): string {
        return id;
      }

      // @ts-expect-error: toModelOutput reads a string, the method returns a number
      @tool({ description: 'Annotated wrong', input, toModelOutput: (text: string) => text.toUpperCase() })
      annotatedWrong({ count }: Input): number {
        return count;
      }

      @tool({ description: 'Anything', input, toModelOutput: (result) => String(result) })
      anything(): Map<string, number> {
        return new Map();
      }
    }
    expectTypeOf(Totals).toBeConstructibleWith();
  });

  it('decorates methods only', () => {
    class Fields {
      // @ts-expect-error: a field is no method
      @tool({ description: 'Field', input })
      field = (value: Input): string => value.id;

      // @ts-expect-error: a getter is no method
      @tool({ description: 'Getter', input: v.object({}) })
      get getter(): string {
        return 'x';
      }
    }
    expectTypeOf(Fields).toBeConstructibleWith();
  });
});
