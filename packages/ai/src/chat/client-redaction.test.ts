// A browser's result (a client tool, or any tool in manual mode) comes back in the next request's UI messages and is
// checked by verifyContinuation, not accepted through `acceptClientResult`: the model must still read it as the
// `redact()` of the agent, the registry and the tool masks it, as it reads the same result run on the server. The seal
// covers what the browser sent; the masking is only what the model reads.
import { createRegistry, createRunContext, createTicketSigner, defineInterceptor, defineTool, redact, type ToolInterceptor, type ToolPolicyInput } from '@edgetool/core';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { addToolOutput, mapToolPart, userSays } from '../testing/client.ts';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { readInPrompt, refused } from '../test-support/chat-streams.ts';
import { createChatAgent } from './chat-agent.ts';
import type { EdgetoolUIMessage } from './protocol.ts';

const keys = [{ id: 'k1', secret: 'client-redaction-secret-client-redaction' }];
const run = () => createRunContext({ conversationId: 'conv-redact' });
/** What the browser (or the server) reads: a secret at each layer's field. */
const profile = { name: 'Ada', card: '4111 1111 1111 1111', account: { token: 't0p-s3cret', iban: 'DE00 1234' } };
/** What the model may read of it: the tool masks `card`, the registry `token`, the agent `iban`. */
const masked = { name: 'Ada', card: '[redacted]', account: { token: '[redacted]', iban: '[redacted]' } };
const readMasked = { type: 'text', value: JSON.stringify(masked) };

function fixture(options: { runsOn: NonNullable<ToolPolicyInput['runsOn']>; toolInterceptors?: readonly ToolInterceptor[]; agentInterceptors?: readonly ToolInterceptor[] }) {
  const readProfile = defineTool({
    name: 'read_profile',
    description: 'The signed-in user profile',
    input: v.object({}),
    policy: { runsOn: options.runsOn },
    interceptors: options.toolInterceptors ?? [redact({ fields: ['card'] })],
    // Only called when the server runs it.
    execute: () => structuredClone(profile),
  });
  const registry = createRegistry({ tools: [readProfile], interceptors: [redact({ fields: ['token'] })] });
  const model = scriptedModel(callsStep([['c1', 'read_profile', {}]]), ...Array.from({ length: 4 }, (_, i) => textStep(`answer ${i}`)));
  const agent = createChatAgent({
    model,
    tools: registry,
    tickets: createTicketSigner({ keys }),
    interceptors: options.agentInterceptors ?? [redact({ fields: ['iban'] })],
  });
  return { agent, model };
}

/** What the model read for call `c1` in its call number `index` (the tool-result's output), or `undefined`. */
function readFor(model: { doStreamCalls: LanguageModelV4CallOptions[] }, index: number): unknown {
  return readInPrompt(model.doStreamCalls[index]?.prompt, 'c1');
}

/** The output the history's part for `c1` holds (what the browser shows, and the seal covers). */
function partOutput(messages: readonly EdgetoolUIMessage[]): unknown {
  for (const message of messages) for (const part of message.parts) if ((part as { toolCallId?: string }).toolCallId === 'c1') return (part as { output?: unknown }).output;
  return undefined;
}

/** The model reads the server-run call of the same tool (internal mode, `runsOn: 'anywhere'`): the reference. */
async function serverRead(options: Omit<Parameters<typeof fixture>[0], 'runsOn'> = {}) {
  const fx = fixture({ ...options, runsOn: 'anywhere' });
  const turn = await fx.agent.generate({ messages: 'who am I?', run: run() });
  await fx.agent.generate({ messages: userSays(turn.messages, 'and now?'), run: run() });
  return { now: readFor(fx.model, 1), later: readFor(fx.model, 2) };
}

describe("a browser's result is masked for the model as a server-run one is", () => {
  it.each([
    ['a client tool', 'client', 'internal'],
    ['a tool the browser runs in manual mode', 'anywhere', 'manual'],
  ] as const)('%s: the model reads what redact() leaves, in the continuation and in later turns; the seal covers what the browser sent', async (_, runsOn, mode) => {
    const server = await serverRead();
    expect(server).toEqual({ now: readMasked, later: readMasked });

    const fx = fixture({ runsOn });
    const first = await fx.agent.generate({ messages: 'who am I?', mode, run: run() });
    expect(first.pending).toEqual([expect.objectContaining({ toolCallId: 'c1', kind: 'client' })]);
    const answered = addToolOutput(first.messages, 'c1', profile);
    const second = await fx.agent.generate({ messages: answered, mode, run: run() });
    // It used to read the browser's output as it came: the card number, the token and the IBAN.
    expect(readFor(fx.model, 1)).toEqual(server.now);
    // The browser keeps what it sent, and the seal covers that: the sealed history goes on, and still reads masked.
    expect(partOutput(second.messages)).toEqual(profile);
    await fx.agent.generate({ messages: userSays(second.messages, 'and now?'), mode, run: run() });
    expect(readFor(fx.model, 2)).toEqual(server.later);
    // A sealed history whose output was changed to the masked one is not what the server sealed.
    const rewritten = mapToolPart(second.messages, 'c1', (p) => ({ ...p, output: masked }));
    expect((await refused(fx.agent.generate({ messages: userSays(rewritten, 'and now?'), mode, run: run() }))).problem).toBe('forged-result');
  });

  it('a result of an earlier turn taken later (its continuation got no answer) is masked too', async () => {
    const fx = fixture({ runsOn: 'client' });
    const first = await fx.agent.generate({ messages: 'who am I?', run: run() });
    // The continuation is lost on the way; the user goes on with a new message.
    await fx.agent.generate({ messages: userSays(addToolOutput(first.messages, 'c1', profile), 'did it work?'), run: run() });
    expect(readFor(fx.model, 1)).toEqual(readMasked);
  });

  it("the tool's toModelOutput gets the masked output, as for a server-run call", async () => {
    const readProfile = defineTool({
      name: 'read_profile',
      description: 'd',
      input: v.object({}),
      policy: { runsOn: 'client' },
      interceptors: [redact({ fields: ['card'] })],
      toModelOutput: (output: unknown) => `card on file: ${(output as { card?: string }).card}`,
    });
    const model = scriptedModel(callsStep([['c1', 'read_profile', {}]]), textStep('ok'));
    const agent = createChatAgent({ model, tools: [readProfile], tickets: createTicketSigner({ keys }) });
    const first = await agent.generate({ messages: 'card?', run: run() });
    await agent.generate({ messages: addToolOutput(first.messages, 'c1', profile), run: run() });
    expect(readFor(model, 1)).toEqual({ type: 'text', value: 'card on file: [redacted]' });
  });

  it('masks once: a server-run result in the history is not masked again, a browser result is masked as the chain masks', async () => {
    // An interceptor whose masking is not idempotent: applied twice, it shows.
    const wrap = (output: unknown) => ({ shown: 'summary', of: typeof output });
    const summary: ToolInterceptor = {
      ...defineInterceptor('summary', async (_ctx, next) => {
        const outcome = await next();
        return outcome.type === 'success' ? { type: 'success', output: wrap(outcome.output) } : outcome;
      }),
      redactOutput: wrap,
    };
    const once = { type: 'text', value: JSON.stringify({ shown: 'summary', of: 'object' }) };
    const server = await serverRead({ toolInterceptors: [summary], agentInterceptors: [] });
    expect(server).toEqual({ now: once, later: once });
    const fx = fixture({ runsOn: 'client', toolInterceptors: [summary], agentInterceptors: [] });
    const first = await fx.agent.generate({ messages: 'who am I?', run: run() });
    const second = await fx.agent.generate({ messages: addToolOutput(first.messages, 'c1', profile), run: run() });
    await fx.agent.generate({ messages: userSays(second.messages, 'and now?'), run: run() });
    expect([readFor(fx.model, 1), readFor(fx.model, 2)]).toEqual([once, once]);
  });

  it('a result the masking refuses reads as invalid-output, as in acceptClientResult; the turn goes on', async () => {
    const strict: ToolInterceptor = {
      ...defineInterceptor('strict', (_ctx, next) => next()),
      redactOutput: () => {
        throw new TypeError('The profile has a field this masking does not know.');
      },
    };
    const fx = fixture({ runsOn: 'client', toolInterceptors: [strict] });
    const first = await fx.agent.generate({ messages: 'who am I?', run: run() });
    const second = await fx.agent.generate({ messages: addToolOutput(first.messages, 'c1', profile), run: run() });
    expect(second.text).toBe('answer 0');
    expect(readFor(fx.model, 1)).toEqual({ type: 'error-text', value: 'Error (invalid-output): The profile has a field this masking does not know.' });
  });

  it("a browser's reported failure is its own text, as acceptClientResult keeps it", async () => {
    const fx = fixture({ runsOn: 'client' });
    const first = await fx.agent.generate({ messages: 'who am I?', run: run() });
    const failed = mapToolPart(first.messages, 'c1', (p) => ({ ...p, state: 'output-error', errorText: 'card 4111 declined' }));
    await fx.agent.generate({ messages: failed, run: run() });
    expect(readFor(fx.model, 1)).toEqual({ type: 'error-text', value: 'card 4111 declined' });
  });
});
