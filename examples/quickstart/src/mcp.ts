import { defineTool } from '@edgetool/core';
import { createMcpHandler } from '@edgetool/core/mcp';
import * as v from 'valibot';

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  input: v.object({ city: v.string() }),
  execute: ({ city }) => ({ city, celsius: 21 }),
});

// A fetch handler: in a Worker, `export default { fetch: mcp }` (or route /mcp to it); Bun and Deno serve it as is, Node with an adapter.
const mcp = createMcpHandler({ tools: [getWeather], name: 'weather', version: '1.0.0' });

// What an MCP client (Claude, Cursor, the MCP SDK) posts to call the tool:
const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 'Paris' } } };
const response = await mcp(new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(call) }));
console.log(JSON.stringify(await response.json()));
