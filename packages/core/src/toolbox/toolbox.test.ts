import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createRunContext } from '../context/run-context.ts';
import { createExecutor } from '../executor/executor.ts';
import { tool, scanTools } from './toolbox.ts';

class OrderTools {
  #orders = new Map([['A-1001', { status: 'shipped', delivery_date: '2026-12-01' }]]);

  @tool({
    description: 'Look up an order by id',
    input: v.object({ order_id: v.string() }),
  })
  query_order({ order_id }: { order_id: string }) {
    return this.#orders.get(order_id) ?? `No order ${order_id}`;
  }

  @tool({
    name: 'update_delivery_date',
    description: 'Change the delivery date',
    input: v.object({ order_id: v.string(), new_date: v.pipe(v.string(), v.isoDate()) }),
    policy: { effects: 'write', needsApproval: false },
  })
  changeDate({ order_id, new_date }: { order_id: string; new_date: string }) {
    const order = this.#orders.get(order_id);
    if (!order) throw new Error(`No order ${order_id}`);
    order.delivery_date = new_date;
    return order;
  }

  @tool({ description: 'Current server time zone', input: v.object({}) })
  static server_zone() {
    return 'UTC';
  }

  /** Not a tool: no decorator. */
  helper() {
    return 'not exposed';
  }
}

class SpecialOrderTools extends OrderTools {
  @tool({ description: 'Greets with the conversation id', input: v.object({}) })
  greet(_input: object, ctx: { run: { conversationId: string } }) {
    return `hello ${ctx.run.conversationId}`;
  }
}

describe('toolbox classes', () => {
  it('scans decorated instance and static methods; names default to the method name', () => {
    const tools = scanTools(new OrderTools());
    expect(tools.map((t) => t.name).sort()).toEqual(['query_order', 'server_zone', 'update_delivery_date']);
    expect(tools.find((t) => t.name === 'update_delivery_date')?.policy.effects).toBe('write');
    expect(tools.find((t) => t.name === 'query_order')?.jsonSchema).toMatchObject({ required: ['order_id'] });
  });

  it('binds methods to the instance (private state works) and runs them through the executor', async () => {
    const instance = new OrderTools();
    const executor = createExecutor({ registry: scanTools(instance) });
    const changed = await executor.execute({ id: '1', name: 'update_delivery_date', arguments: { order_id: 'A-1001', new_date: '2026-12-24' } });
    expect(changed.outcome).toEqual({ type: 'success', output: { status: 'shipped', delivery_date: '2026-12-24' } });
    const read = await executor.execute({ id: '2', name: 'query_order', arguments: { order_id: 'A-1001' } });
    expect(read.content).toBe('{"status":"shipped","delivery_date":"2026-12-24"}');
    const invalid = await executor.execute({ id: '3', name: 'update_delivery_date', arguments: { order_id: 'A-1001', new_date: 'tomorrow' } });
    expect(invalid.outcome.type === 'error' && invalid.outcome.error.code).toBe('invalid-input');
  });

  it('filters with only, includes inherited tools, and scans a class for its static tools', async () => {
    expect(scanTools(new OrderTools(), { only: ['query_order'] }).map((t) => t.name)).toEqual(['query_order']);
    expect(() => scanTools(new OrderTools(), { only: ['nope'] })).toThrow(/no @tool method named "nope"/);
    const sub = scanTools(new SpecialOrderTools());
    expect(sub.map((t) => t.name).sort()).toEqual(['greet', 'query_order', 'server_zone', 'update_delivery_date']);
    const result = await createExecutor({ registry: sub }).execute({ id: '1', name: 'greet', arguments: {} }, { run: createRunContext({ conversationId: 'c-42' }) });
    expect(result.content).toBe('hello c-42');
    expect(scanTools(OrderTools).map((t) => t.name)).toEqual(['server_zone']);
  });

  it('says what to change when called the legacy way (experimentalDecorators)', () => {
    class Legacy {
      ping() {
        return 'pong';
      }
    }
    const decorate = tool({ description: 'Ping', input: v.object({}) }) as unknown as (target: object, key: string, descriptor?: PropertyDescriptor) => void;
    const descriptor = Object.getOwnPropertyDescriptor(Legacy.prototype, 'ping');
    expect(() => decorate(Legacy.prototype, 'ping', descriptor)).toThrow(TypeError);
    expect(() => decorate(Legacy.prototype, 'ping', descriptor)).toThrow(/standard \(TC39\) decorator.*turn off `experimentalDecorators`/);
    expect(() => decorate(Legacy.prototype, 'ping')).toThrow(/experimentalDecorators/); // a legacy property decorator
  });

  it('scans a method named by a symbol; one without a name is refused where it is decorated', async () => {
    const ping = Symbol('ping');
    class Symbolic {
      @tool({ name: 'ping', description: 'Ping', input: v.object({}) })
      [ping]() {
        return 'pong';
      }
    }
    const tools = scanTools(new Symbolic());
    expect(tools.map((t) => t.name)).toEqual(['ping']);
    expect((await createExecutor({ registry: tools }).execute({ id: '1', name: 'ping', arguments: {} })).content).toBe('pong');
    const decorate = tool({ description: 'Nameless', input: v.object({}) });
    const context = { kind: 'method', name: Symbol('nameless'), static: false, private: false } as unknown as ClassMethodDecoratorContext;
    expect(() => decorate(() => 1, context)).toThrow(new TypeError('@tool() on the method Symbol(nameless) needs a `name`: a symbol is no tool name.'));
  });

  it('two @tool decorators on one method are refused: one of the two tools was silently lost', () => {
    expect(() => {
      class Twice {
        @tool({ name: 'one', description: 'One', input: v.object({}) })
        @tool({ name: 'two', description: 'Two', input: v.object({}) })
        both() {
          return 'x';
        }
      }
      return Twice;
    }).toThrow(new TypeError('@tool() twice on the method both: give each tool a method of its own.'));
  });

  it('finds static tools named like a function\'s own properties (name, length)', async () => {
    class Named {
      @tool({ description: 'The name', input: v.object({}) })
      static name() {
        return 'Ada';
      }

      @tool({ description: 'The length', input: v.object({}) })
      static length() {
        return 3;
      }

      /** Not a tool: no decorator. */
      greeting() {
        return 'hello';
      }
    }
    const tools = scanTools(Named);
    expect(tools.map((t) => t.name).sort()).toEqual(['length', 'name']);
    expect((await createExecutor({ registry: tools }).execute({ id: '1', name: 'name', arguments: {} })).content).toBe('Ada');
  });

  it('a subclass override without the decorator hides the tool', () => {
    class Hidden extends OrderTools {
      override query_order() {
        return 'overridden';
      }
    }
    expect(scanTools(new Hidden()).map((t) => t.name)).not.toContain('query_order');
  });
});
