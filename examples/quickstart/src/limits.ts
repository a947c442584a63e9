import { createExecutor, createRunContext, defineTool, memoryRateLimiter } from '@edgetool/core';
import * as v from 'valibot';

// At most 2 searches per request: a model that loops on the tool is told to answer with what it has.
const search = defineTool({
  name: 'search_docs',
  description: 'Search the documentation',
  input: v.object({ query: v.string() }),
  policy: { maxCallsPerRun: 2 },
  execute: ({ query }) => `3 pages about ${query}`,
});

// 1 SMS per user per minute. In a Worker, pass the Rate Limiting binding instead: limiter: (ctx) => ctx.run.deps.limiter.
const sendSms = defineTool({
  name: 'send_sms',
  description: 'Text the user a link',
  input: v.object({ link: v.string() }),
  policy: { effects: 'write', needsApproval: false, rateLimit: { limiter: memoryRateLimiter({ limit: 1, periodMs: 60_000 }) } },
  execute: ({ link }) => `Sent ${link}`,
});

const executor = createExecutor({ registry: [search, sendSms] });
const run = createRunContext({ userId: 'ada' });
for (const query of ['tickets', 'seals', 'nonces']) {
  const result = await executor.execute({ id: query, name: 'search_docs', arguments: { query } }, { run });
  console.log(result.content); // 3 pages about tickets, … seals, then Error (rate-limited): … at most 2 times per request …
}

const sms = (id: string) => executor.execute({ id, name: 'send_sms', arguments: { link: 'https://example.com' } }, { run: createRunContext({ userId: 'ada' }) });
console.log((await sms('s1')).content); // Sent https://example.com
console.log((await sms('s2')).content); // Error (rate-limited): Tool "send_sms" is rate limited: …
