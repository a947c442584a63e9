import { createRunContext, createTicketSigner, jsonSchema } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel } from '../testing/mock-model.ts';
import { createChatAgent } from './chat-agent.ts';
import type { TurnOutputSchema } from './protocol.ts';
import { generateTextTurn, type TextTurnResult } from './text-turn.ts';

const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'structured-output-types-secret-32!!' }] });
const agent = createChatAgent({ model: scriptedModel(), tools: [], tickets });
const run = createRunContext();

describe('generateTextTurn output types: the result’s output is the schema’s output', () => {
  it('a valibot schema: its output type (transforms included), or undefined when the turn ended without an answer', async () => {
    const Verdict = v.object({ late: v.boolean(), days: v.pipe(v.string(), v.transform(Number)), note: v.optional(v.string()) });
    const result = await generateTextTurn(agent, { messages: 'x', run, output: Verdict });
    expectTypeOf(result).toEqualTypeOf<TextTurnResult<{ late: boolean; days: number; note?: string | undefined }>>();
    expectTypeOf(result.output).toEqualTypeOf<{ late: boolean; days: number; note?: string | undefined } | undefined>();
  });

  it('zod and jsonSchema<T>() give theirs; without output there is none', async () => {
    const fromZod = await generateTextTurn(agent, { messages: 'x', run, output: z.object({ city: z.string() }) });
    expectTypeOf(fromZod.output).toEqualTypeOf<{ city: string } | undefined>();
    const fromJson = await generateTextTurn(agent, { messages: 'x', run, output: jsonSchema<{ n: number }>({ type: 'object' }) });
    expectTypeOf(fromJson.output).toEqualTypeOf<{ n: number } | undefined>();
    const plain = await generateTextTurn(agent, { messages: 'x', run });
    expectTypeOf(plain).toEqualTypeOf<TextTurnResult>();
    expectTypeOf(plain.output).toEqualTypeOf<undefined>();
  });

  it('an output is a schema, not a value', () => {
    expectTypeOf(v.object({ a: v.string() })).toExtend<TurnOutputSchema<{ a: string }>>();
    // @ts-expect-error a plain object is no schema
    void generateTextTurn(agent, { messages: 'x', run, output: { type: 'object' } });
  });
});
