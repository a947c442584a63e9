#!/usr/bin/env node
// Creates apps/worker/.dev.vars with a random TICKET_SECRET when it is missing (git-ignored; never
// overwrites). wrangler dev reads it; production uses `wrangler secret put TICKET_SECRET`.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../.dev.vars', import.meta.url);
const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
if (!/^TICKET_SECRET=/m.test(current)) {
  const line = `TICKET_SECRET=${randomBytes(32).toString('base64url')}\n`;
  writeFileSync(file, current && !current.endsWith('\n') ? `${current}\n${line}` : current + line);
  console.log('[worker] wrote a random TICKET_SECRET to apps/worker/.dev.vars');
}
