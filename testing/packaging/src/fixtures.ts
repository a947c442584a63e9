// Files of the throwaway project that installs the packed packages (written by packages.test.ts).

/** A TypeScript user's checks against the shipped declarations: types flow from the schema, no `any`. */
export const TYPES_CHECK = `import * as v from 'valibot';
import { createExecutor, createRunContext, createTicketSigner, defineTool, jsonSchema, type ToolCallResult, ToolError, withDeps } from '@edgetool/core';
import { createChatAgent, createOfflineModel } from '@edgetool/ai';
import { respondToApproval } from '@edgetool/ai/testing';
import type { JSONSchema7 } from '@ai-sdk/provider';

const quote = defineTool({
  name: 'quote',
  description: 'Quotes an order.',
  input: v.object({ order_id: v.string(), quantity: v.pipe(v.number(), v.integer()) }),
  execute: ({ order_id, quantity }) => ({ order_id, total: quantity * 3 }),
});

type QuoteInput = Parameters<NonNullable<typeof quote.execute>>[0];
export const input: QuoteInput = { order_id: 'A-1', quantity: 2 };
// @ts-expect-error quantity is a number
export const wrongInput: QuoteInput = { order_id: 'A-1', quantity: '2' };

const { defineTool: defineDbTool } = withDeps<{ readonly db: { readonly rows: number } }>();
export const count = defineDbTool({
  name: 'count',
  description: 'Counts rows.',
  input: v.object({}),
  execute: (_input, ctx) => ctx.run.deps.db.rows,
});
defineDbTool({
  name: 'broken',
  description: 'Reads a dependency that does not exist.',
  input: v.object({}),
  // @ts-expect-error deps has no "cache"
  execute: (_input, ctx) => ctx.run.deps.cache,
});

export const raw = defineTool({
  name: 'raw',
  description: 'A raw JSON Schema tool.',
  input: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
  execute: ({ city }) => city.toUpperCase(),
});

export async function run(): Promise<string> {
  const executor = createExecutor({ registry: [quote] });
  const result: ToolCallResult = await executor.execute({ id: '1', name: 'quote', arguments: '{"order_id":"A-1","quantity":2}' }, { run: createRunContext() });
  if (result.outcome.type === 'error') {
    const error: ToolError = result.outcome.error;
    // @ts-expect-error codes are a closed union
    const code: 'no-such-code' = error.code;
    return code;
  }
  return result.content;
}

export const agent = createChatAgent({
  model: createOfflineModel(),
  tools: [quote],
  tickets: createTicketSigner({ keys: [{ id: 'k1', secret: 'a-secret-of-at-least-32-characters-long' }] }),
});
export const respond: typeof respondToApproval = respondToApproval;

// The AI SDK's declarations import JSONSchema7 from "json-schema", a package without types: without @types/json-schema
// installed, skipLibCheck turns it into \`any\` everywhere the AI SDK uses it (tool schemas), and this line compiles.
// @ts-expect-error a number is no JSON Schema
export const notASchema: JSONSchema7 = 42;
`;

/** What a chat UI bundles: the React hooks and a browser tool, for the browser. */
export const BROWSER_ENTRY = `import * as v from 'valibot';
import { defineTool } from '@edgetool/core';
import { useEdgeChat } from '@edgetool/react';

export const timeZone = defineTool({
  name: 'browser_time_zone',
  description: 'The user time zone.',
  input: v.object({}),
  policy: { runsOn: 'client' },
  execute: () => Intl.DateTimeFormat().resolvedOptions().timeZone,
});
export { useEdgeChat };
`;

/** A decorated toolbox, as a Worker would bundle it. */
export const TOOLBOX_ENTRY = `import * as v from 'valibot';
import { createExecutor, scanTools, tool } from '@edgetool/core';

class Clock {
  zone = 'Europe/Paris';

  @tool({ description: 'Current zone', input: v.object({ prefix: v.optional(v.string(), 'zone') }) })
  current_zone({ prefix }: { prefix: string }): string {
    return prefix + ': ' + this.zone;
  }
}

export async function runBundled(): Promise<{ names: string[]; content: string }> {
  const tools = scanTools(new Clock());
  const result = await createExecutor({ registry: tools }).execute({ id: '1', name: 'current_zone', arguments: '{}' });
  return { names: tools.map((t) => t.name), content: result.content };
}
`;

/** The Vite plugin from \`@edgetool/core/vite\`, in plain Node. */
export const VITE_PLUGIN_CHECK = `import { decorators } from '@edgetool/core/vite';

const out = await decorators().transform('function mark() {}\\nexport class Box { @mark hello() { return 1; } }', '/app/src/box.ts');
console.log(JSON.stringify({ name: decorators().name, lowered: out !== null && !/^\\s*@mark/m.test(out.code) }));
`;

/** Drives the README's Worker example (\`worker.ts\`) as wrangler would: one \`useEdgeChat\` request to its \`fetch\`. */
export const WORKER_RUN = `import worker from './worker.ts';

const body = { id: 'conv-1', mode: 'internal', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: '/cancel_order {"order_id":"A-1001"}' }] }] };
const response = await worker.fetch(new Request('http://127.0.0.1/api/chat', { method: 'POST', body: JSON.stringify(body) }), { TICKET_SECRET: 'a-test-secret-of-at-least-32-bytes-long' });
console.log(response.status, response.headers.get('content-type')?.split(';')[0]);
const chunks = (await response.text()).split('\\n').filter((line) => line.startsWith('data: {')).map((line) => JSON.parse(line.slice(6)));
for (const chunk of chunks) if (chunk.type === 'tool-approval-request') {
  const call = chunks.find((c) => c.type === 'tool-input-available' && c.toolCallId === chunk.toolCallId);
  console.log(chunk.type, call?.toolName, JSON.stringify(call?.input));
}
console.log(chunks.some((chunk) => chunk.type === 'tool-output-available') ? 'ran' : 'no output');
const malformed = { id: 'conv-1', mode: 'internal', messages: [{ role: 'user', content: 'hi' }] };
const refused = await worker.fetch(new Request('http://127.0.0.1/api/chat', { method: 'POST', body: JSON.stringify(malformed) }), { TICKET_SECRET: 'a-test-secret-of-at-least-32-bytes-long' });
console.log(refused.status, (await refused.json()).error.code);
`;
