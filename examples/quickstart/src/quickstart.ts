import { createExecutor, createRunContext, defineInterceptor, defineTool } from '@edgetool/core';
import * as v from 'valibot';

// 1. A tool: the input type of `execute` comes from the schema; the policy says how it may run.
const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  input: v.object({ city: v.pipe(v.string(), v.minLength(1), v.description('City name, e.g. Paris')) }),
  policy: { effects: 'read', timeoutMs: 2_000, retries: 1 },
  execute: async ({ city }, ctx) => ({ city, celsius: 21, askedBy: ctx.run.userId }),
});

// 2. An interceptor: wraps every call like Hono middleware (global → registry → tool → call).
const timing = defineInterceptor('timing', async (ctx, next) => {
  const started = performance.now();
  const outcome = await next();
  console.log(`${ctx.tool.name} → ${outcome.type} in ${(performance.now() - started).toFixed(2)} ms`);
  return outcome;
});

// 3. Execute calls exactly as a model sends them: raw JSON arguments, maybe wrong.
const executor = createExecutor({ registry: [getWeather], interceptors: [timing] });
const run = createRunContext({ userId: 'ada' });

const ok = await executor.execute({ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }, { run });
console.log(ok.content); // {"city":"Paris","celsius":21,"askedBy":"ada"}

const bad = await executor.execute({ id: 'call_2', name: 'get_weather', arguments: '{"town":"Paris"}' }, { run });
console.log(bad.content); // Error (invalid-input): Invalid arguments for "get_weather". - city: … (the model can fix it)
