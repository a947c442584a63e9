import { cache, createExecutor, createRunContext, defineTool } from '@edgetool/core';
import * as v from 'valibot';

let lookups = 0;
const rate = defineTool({
  name: 'exchange_rate',
  description: 'The exchange rate between two currencies',
  input: v.object({ from: v.string(), to: v.string() }),
  execute: ({ from, to }) => ({ from, to, rate: 1.08, lookup: ++lookups }),
});
const saveNote = defineTool({
  name: 'save_note',
  description: 'Save a note for the user',
  input: v.object({ text: v.string() }),
  policy: { effects: 'write', needsApproval: false },
  execute: ({ text }) => `Saved "${text}"`,
});

// The same read tool with the same input for the same user, within a minute: served from the cache.
const executor = createExecutor({ registry: [rate, saveNote], interceptors: [cache({ ttlMs: 60_000 })] });
const run = createRunContext({ userId: 'ada' });
const ask = (id: string) => executor.execute({ id, name: 'exchange_rate', arguments: { from: 'EUR', to: 'USD' } }, { run });
console.log((await ask('r1')).content); // {"from":"EUR","to":"USD","rate":1.08,"lookup":1}
console.log((await ask('r2')).content); // the same text: lookup 1, from the cache

// A write that runs through the cache empties it: the next read runs the tool again.
await executor.execute({ id: 'n1', name: 'save_note', arguments: { text: 'rates checked' } }, { run });
console.log((await ask('r3')).content); // {"from":"EUR","to":"USD","rate":1.08,"lookup":2}
