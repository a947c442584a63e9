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

  it('a tool name no model can call is refused where it is decorated, not at a scan that `only` may skip', () => {
    // It was refused by scanTools alone, without the method's name, and never when `only` left the method out.
    expect(() => {
      class Spaced {
        @tool({ description: 'Weather', input: v.object({}) })
        'get weather'() {
          return 'sunny';
        }
      }
      return Spaced;
    }).toThrow(new TypeError('@tool() on the method get weather: "get weather" is no tool name (1-64 letters, digits, "_" or "-"): give it a `name`.'));
    expect(() => {
      class Dotted {
        @tool({ name: 'weather.get', description: 'Weather', input: v.object({}) })
        static weather() {
          return 'sunny';
        }

        /** Not a tool. */
        label() {
          return 'dotted';
        }
      }
      return Dotted;
    }).toThrow(new TypeError('@tool() on the method weather: "weather.get" is no tool name (1-64 letters, digits, "_" or "-").'));
    class Renamed {
      @tool({ name: 'get_weather', description: 'Weather', input: v.object({}) })
      'get weather'() {
        return 'sunny';
      }
    }
    expect(scanTools(new Renamed()).map((t) => t.name)).toEqual(['get_weather']);
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

  it('a subclass override without @tool keeps the tool and runs the override (as a decorator above @tool would)', async () => {
    class Overridden extends OrderTools {
      override query_order({ order_id }: { order_id: string }) {
        return `overridden: ${JSON.stringify(super.query_order({ order_id }))}`;
      }
    }
    const tools = scanTools(new Overridden());
    expect(tools.map((t) => t.name).sort()).toEqual(['query_order', 'server_zone', 'update_delivery_date']);
    const result = await createExecutor({ registry: tools }).execute({ id: '1', name: 'query_order', arguments: { order_id: 'A-1001' } });
    expect(result.content).toBe('overridden: {"status":"shipped","delivery_date":"2026-12-01"}');
    expect(scanTools(new Overridden(), { only: ['update_delivery_date'] }).map((t) => t.name)).toEqual(['update_delivery_date']); // drop one with only
  });
});

/** A decorator that wraps a method, as logging, caching or auth decorators do; each call through the wrapper is recorded. */
function logged<This, A extends unknown[], R>(calls: string[]) {
  return (method: (this: This, ...args: A) => R, context: ClassMethodDecoratorContext<This>) =>
    function (this: This, ...args: A): R {
      calls.push(`${String(context.name)} ${JSON.stringify(args[0])}`);
      return method.apply(this, args);
    };
}

const run = async (tools: ReturnType<typeof scanTools>, name: string, args: object = {}) =>
  (await createExecutor({ registry: tools }).execute({ id: '1', name, arguments: args })).content;

describe('toolbox classes with other decorators', () => {
  it('a decorator above @tool keeps the tool, and the tool runs through its wrapper with this bound', async () => {
    const calls: string[] = [];
    class Greeter {
      #greeting = 'hello';

      @logged(calls)
      @tool({ description: 'Greets', input: v.object({ who: v.string() }) })
      greet({ who }: { who: string }) {
        return `${this.#greeting} ${who}`;
      }

      @tool({ description: 'Says bye', input: v.object({ who: v.string() }) })
      @logged(calls)
      bye({ who }: { who: string }) {
        return `bye ${who} from ${this.#greeting}`;
      }

      @logged(calls)
      @tool({ description: 'The zone', input: v.object({}) })
      @logged(calls)
      static zone(this: typeof Greeter) {
        // biome-ignore lint/complexity/noThisInStatic: the test checks what a static tool's `this` is bound to.
        return `UTC (${this.name})`;
      }
    }
    const tools = scanTools(new Greeter());
    expect(tools.map((t) => t.name).sort()).toEqual(['bye', 'greet', 'zone']);
    expect(await run(tools, 'greet', { who: 'Ada' })).toBe('hello Ada');
    expect(await run(tools, 'bye', { who: 'Ada' })).toBe('bye Ada from hello');
    expect(await run(tools, 'zone')).toBe('UTC (Greeter)');
    expect(calls).toEqual(['greet {"who":"Ada"}', 'bye {"who":"Ada"}', 'zone {}', 'zone {}']);
    expect(scanTools(Greeter).map((t) => t.name)).toEqual(['zone']);
  });

  it('runs the method the object has when it is scanned, and throws if that is no function', async () => {
    class Bound {
      @tool({ description: 'Counts', input: v.object({}) })
      count() {
        return 'prototype';
      }
    }
    const instance = new Bound();
    instance.count = () => 'own';
    expect(await run(scanTools(instance), 'count')).toBe('own');
    Object.defineProperty(instance, 'count', { value: 42 });
    expect(() => scanTools(instance)).toThrow(new TypeError('scanTools: the @tool method count is not a function on this object.'));
  });

  it('a symbol-named method with a decorator above @tool', async () => {
    const ping = Symbol('ping');
    const calls: string[] = [];
    class Symbolic {
      @logged(calls)
      @tool({ name: 'ping', description: 'Ping', input: v.object({}) })
      [ping]() {
        return 'pong';
      }
    }
    const tools = scanTools(new Symbolic());
    expect(tools.map((t) => t.name)).toEqual(['ping']);
    expect(await run(tools, 'ping')).toBe('pong');
    expect(calls).toEqual(['Symbol(ping) {}']);
  });

  it('subclasses inherit wrapped @tool methods, and an override with @tool replaces the base tool', async () => {
    const calls: string[] = [];
    class Base {
      prefix = 'base';

      @logged(calls)
      @tool({ description: 'Base lookup', input: v.object({ id: v.string() }) })
      lookup({ id }: { id: string }) {
        return `${this.prefix}:${id}`;
      }

      @logged(calls)
      @tool({ description: 'Base static', input: v.object({}) })
      static kind(this: { name: string }) {
        // biome-ignore lint/complexity/noThisInStatic: the test checks what a static tool's `this` is bound to.
        return this.name;
      }
    }
    class Inherits extends Base {
      override prefix = 'inherits';
    }
    class Replaces extends Base {
      @logged(calls)
      @tool({ name: 'find', description: 'Sub lookup', input: v.object({ id: v.string(), exact: v.optional(v.boolean()) }) })
      override lookup({ id }: { id: string }) {
        return `replaced ${super.lookup({ id })}`;
      }

      @tool({ description: 'Sub static', input: v.object({}) })
      static override kind() {
        return 'sub kind';
      }
    }
    const inherited = scanTools(new Inherits());
    expect(inherited.map((t) => t.name).sort()).toEqual(['kind', 'lookup']);
    expect(await run(inherited, 'lookup', { id: '7' })).toBe('inherits:7');
    expect(await run(inherited, 'kind')).toBe('Inherits'); // a static tool is bound to the class it was scanned on
    const replaced = scanTools(new Replaces());
    expect(replaced.map((t) => [t.name, t.description]).sort()).toEqual([['find', 'Sub lookup'], ['kind', 'Sub static']]);
    expect(await run(replaced, 'find', { id: '7' })).toBe('replaced base:7');
    expect(await run(replaced, 'kind')).toBe('sub kind');
    expect(calls).toEqual(['lookup {"id":"7"}', 'kind {}', 'lookup {"id":"7"}', 'lookup {"id":"7"}']);
  });

  it('several instances of one class: each tool is bound to its own instance', async () => {
    class Counter {
      #count = 0;

      @logged([])
      @tool({ description: 'Counts up', input: v.object({}) })
      up() {
        this.#count += 1;
        return this.#count;
      }
    }
    const a = new Counter();
    const b = new Counter();
    const toolsA = scanTools(a);
    const toolsB = scanTools(b);
    expect(await run(toolsA, 'up')).toBe('1');
    expect(await run(toolsA, 'up')).toBe('2');
    expect(await run(toolsB, 'up')).toBe('1');
    expect(await run(scanTools(a), 'up')).toBe('3');
  });

  it('a class can scan itself while it is built, in a field or its constructor', () => {
    class SelfScanning {
      readonly fieldTools = scanTools(this);
      readonly ctorTools: string[];

      constructor() {
        this.ctorTools = scanTools(this).map((t) => t.name);
      }

      @logged([])
      @tool({ description: 'Ping', input: v.object({}) })
      ping() {
        return 'pong';
      }
    }
    const instance = new SelfScanning();
    expect(instance.fieldTools.map((t) => t.name)).toEqual(['ping']);
    expect(instance.ctorTools).toEqual(['ping']);
  });

  it('scanTools in a base class\'s field or constructor, before a subclass\'s @tool methods exist, fails at `new` (it missed them)', () => {
    // A base class's fields and constructor run before a subclass's: its @tool methods were missing from the scan, silently
    // the first time ([] or the base's tools only), and the next `new` was refused as a Proxy.
    class Toolbox {
      readonly tools = scanTools(this);
    }
    class Mine extends Toolbox {
      @tool({ description: 'Ping', input: v.object({}) })
      ping() {
        return 'pong';
      }
    }
    const early =
      '@tool() method ping of Mine was set up after scanTools() ran on the instance (in a base class\'s constructor or field, which run ' +
      'before a subclass\'s): scan the instance once it is built, for example in a getter: get tools() { return scanTools(this); }.';
    expect(() => new Mine()).toThrow(new TypeError(early));
    expect(() => new Mine()).toThrow(new TypeError(early));
    class WithTools {
      readonly tools: string[];

      constructor() {
        this.tools = scanTools(this).map((t) => t.name);
      }

      @tool({ description: 'Base', input: v.object({}) })
      base() {
        return 'base';
      }
    }
    class Adds extends WithTools {
      @tool({ description: 'Ping', input: v.object({}) })
      ping() {
        return 'pong';
      }
    }
    expect(new WithTools().tools).toEqual(['base']);
    expect(() => new Adds()).toThrow(new TypeError(early.replace('of Mine', 'of Adds')));
    // A subclass that adds no @tool method is built as before; a getter scans once everything is set up.
    class Same extends WithTools {}
    expect(new Same().tools).toEqual(['base']);
    class Lazy {
      get tools() {
        return scanTools(this);
      }
    }
    class LazyMine extends Lazy {
      @tool({ description: 'Ping', input: v.object({}) })
      ping() {
        return 'pong';
      }
    }
    expect(new LazyMine().tools.map((t) => t.name)).toEqual(['ping']);
  });

  it('two @tool on one method are refused with another decorator between them', () => {
    expect(() => {
      class Twice {
        @tool({ name: 'one', description: 'One', input: v.object({}) })
        @logged([])
        @tool({ name: 'two', description: 'Two', input: v.object({}) })
        both() {
          return 'x';
        }
      }
      return Twice;
    }).toThrow(new TypeError('@tool() twice on the method both: give each tool a method of its own.'));
    // A static and an instance method may share a name: two methods, two tools.
    class Both {
      @tool({ name: 'instance_ping', description: 'Ping', input: v.object({}) })
      ping() {
        return 'instance';
      }

      @tool({ name: 'static_ping', description: 'Ping', input: v.object({}) })
      static ping() {
        return 'static';
      }
    }
    expect(scanTools(new Both()).map((t) => t.name).sort()).toEqual(['instance_ping', 'static_ping']);
  });

  it('a private method is refused where it is decorated: scanTools finds methods by name', () => {
    expect(() => {
      class Private {
        @logged([])
        @tool({ description: 'Secret', input: v.object({}) })
        #secret() {
          return 's';
        }

        /** Uses the private method, for the linter. */
        reveal() {
          return this.#secret();
        }
      }
      return Private;
    }).toThrow(new TypeError('@tool() cannot decorate the private method #secret.'));
  });

  it('a Proxy of an instance (Vue reactive(), a MobX observable) or an Object.create() copy is refused, not []', () => {
    const instance = new OrderTools();
    const refused = 'scanTools: a Proxy of an instance (Vue reactive(), MobX observable) or an Object.create() copy has no tools: scan the instance.';
    // It returned [] silently: the record is the instance's, and a Proxy cannot be unwrapped.
    expect(() => scanTools(new Proxy(instance, {}))).toThrow(refused);
    expect(() => scanTools(Object.create(OrderTools.prototype) as object)).toThrow(refused);
    expect(scanTools(instance).map((t) => t.name)).toEqual(['query_order', 'update_delivery_date', 'server_zone']);
    // A class with static tools only: its instances have no record, and a Proxy of one finds the static tools as before.
    class Zones {
      @tool({ description: 'Zone', input: v.object({}) })
      static zone() {
        return 'UTC';
      }

      /** Not a tool. */
      label() {
        return 'zones';
      }
    }
    expect(scanTools(new Proxy(new Zones(), {})).map((t) => t.name)).toEqual(['zone']);
  });

  it('a plain object has no tools: @tool marks methods of classes', () => {
    const instance = new OrderTools();
    expect(scanTools({ query_order: instance.query_order })).toEqual([]);
    expect(scanTools(Object.create(null) as object)).toEqual([]);
    expect(() => scanTools({ query_order() {} }, { only: ['query_order'] })).toThrow(/no @tool method named "query_order"/);
  });
});
