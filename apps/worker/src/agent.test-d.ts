import { createRunContext } from '@edgetool/core';
import { describe, expectTypeOf, it } from 'vitest';
import { demoAgent } from './agent.ts';
import type { Env } from './env.ts';
import { createDemoRegistry, type DemoDeps, demoDeps } from './tools/index.ts';

describe('the demo agent is typed by the deps its tools read', () => {
  it('a run without the D1 database does not compile, the delay analyst agent tool included', async () => {
    const env = {} as Env;
    const { agent } = await demoAgent(env);
    void agent.stream({ messages: 'hi', run: createRunContext({ deps: demoDeps(env) }) });
    // @ts-expect-error a run without the deps
    void agent.stream({ messages: 'hi', run: createRunContext() });
    // @ts-expect-error deps without the database
    void agent.stream({ messages: 'hi', run: createRunContext({ deps: { emailLimiter: undefined } }) });
    expectTypeOf(createDemoRegistry()['~deps']).toEqualTypeOf<DemoDeps | undefined>();
  });
});
