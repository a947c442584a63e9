import { createExecutor, defineTool, toStrictJsonSchema } from '@edgetool/core';
import * as v from 'valibot';

const searchFlights = defineTool({
  name: 'search_flights',
  description: 'Search flights between two airports',
  input: v.object({ from: v.string(), to: v.string(), date: v.optional(v.pipe(v.string(), v.isoDate())), maxStops: v.optional(v.number()) }),
  // Offered in OpenAI's strict mode: the model's arguments always match the schema.
  policy: { strict: true },
  execute: (input) => input,
});

// What the chat loop sends: every argument required, the optional ones nullable, every object closed.
const wire = toStrictJsonSchema(searchFlights.jsonSchema);
console.log(wire.strict ? JSON.stringify(wire.schema.properties) : wire.reason);

// A model in strict mode sends null for the arguments it leaves out: the tool gets them absent.
const executor = createExecutor({ registry: [searchFlights] });
const result = await executor.execute({ id: 'c1', name: 'search_flights', arguments: '{"from":"CDG","to":"JFK","date":null,"maxStops":null}' });
console.log(result.content);
