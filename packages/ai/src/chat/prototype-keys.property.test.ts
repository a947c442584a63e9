// Property: the core's executor refuses exactly the tool arguments the AI SDK's JSON parser (secure-json-parse in
// @ai-sdk/provider-utils) refuses, so both tiers answer such a call alike: the chat loop (where the AI SDK parses) and
// the executor on its own (MCP, the browser). 1,000 random JSON texts with keys like `__proto__`, `constructor` and
// `prototype` at any depth, some key characters written as `\uXXXX` escapes, per runtime.
import { parseArguments } from '@edgetool/core';
import { jsonSchema, parseJsonEventStream } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** Whether the AI SDK reads `text` as JSON: its SSE parser uses the same secure parse as its tool calls. */
async function aiSdkReads(text: string): Promise<boolean> {
  const body = new TextEncoder().encode(`data: ${text}\n\n`);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(body);
      controller.close();
    },
  });
  const { value } = await parseJsonEventStream({ stream, schema: jsonSchema({}) }).getReader().read();
  return value?.success === true;
}

const key = fc.constantFrom('__proto__', 'constructor', 'prototype', 'a', 'proto', '__proto', '_proto_', 'Constructor', 'name');
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constantFrom(null, 1, true, 'x', '__proto__', 'constructor'), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  // Object.fromEntries makes own keys, `__proto__` included, as JSON.parse does.
  object: fc.uniqueArray(fc.tuple(key, tie('value')), { selector: ([k]) => k, maxLength: 4 }).map((entries) => Object.fromEntries(entries) as unknown),
}));

/** Writes some characters of each key as `\u00XX` escapes (lower or upper case hex), chosen by `mask`. */
function escapeKeys(text: string, mask: number, upper: boolean): string {
  return text.replace(/"((?:[^"\\]|\\.)*)":/g, (_match, name: string) => {
    const spelled = [...name].map((ch, i) => {
      if (!((mask >>> (i % 31)) & 1) || !/[a-z_]/i.test(ch)) return ch;
      const hex = ch.charCodeAt(0).toString(16).padStart(4, '0');
      return `\\u${upper ? hex.toUpperCase() : hex}`;
    });
    return `"${spelled.join('')}":`;
  });
}

describe('prototype keys: the executor refuses what the AI SDK refuses', () => {
  it('parseArguments accepts a JSON text exactly when the AI SDK’s parser does', async () => {
    await fc.assert(
      fc.asyncProperty(value, fc.integer(), fc.boolean(), fc.boolean(), async (json, mask, escaped, upper) => {
        const text = escaped ? escapeKeys(JSON.stringify(json), mask, upper) : JSON.stringify(json);
        const parsed = parseArguments(text, { toolName: 't', callId: 'c' });
        expect(parsed.ok, text).toBe(await aiSdkReads(text));
        if (!parsed.ok) expect(parsed.error.code).toBe('invalid-json');
      }),
      {
        numRuns: 1000,
        examples: [
          [JSON.parse('{"__proto__":null}'), 0, false, false],
          [JSON.parse('{"a":[{"constructor":{"prototype":1}}]}'), -1, true, true],
          [JSON.parse('{"constructor":{"name":{"prototype":1}}}'), 0, false, false],
        ],
      },
    );
    // 1,000 runs, each awaiting the AI SDK's parser: well under a second alone, but it passed vitest's 5 s default
    // under a busy machine's load (a helper's run at load 13). The bound is for a hang, not for speed.
  }, 60_000);
});
