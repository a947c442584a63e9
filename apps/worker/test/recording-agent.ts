// Shared by the reliability tests that read what the model was given: an agent built as the Worker builds it.
import { ContinuationError, createChatAgent, createOfflineModel, type EdgetoolUIMessage } from '@edgetool/ai';
import { createRegistry, createRunContext } from '@edgetool/core';
import { browserToolDeclarations } from '@edgetool/web/tool-declarations';
import { env } from 'cloudflare:workers';
import { createTickets } from '../src/agent.ts';
import { createD1CallResultStore } from '../src/call-result-store.ts';
import { type DemoDeps, demoDeps, demoTools } from '../src/tools/index.ts';

type Model = ReturnType<typeof createOfflineModel>;
/** What a model call is given: the prompt the Worker built from the history. */
export type Prompt = Parameters<Model['doStream']>[0]['prompt'];

/**
 * The Worker's agent over its D1 (the demo's tools and browser declarations, tickets, nonces and call results), on the
 * offline model with its prompts recorded; `deterministicIds` makes it repeat its call ids (llama.cpp's `call_0`).
 */
export function recordingAgent(options: { readonly deterministicIds?: boolean; readonly deps?: () => DemoDeps } = {}) {
  const offline = createOfflineModel(options.deterministicIds === true ? { deterministicIds: true } : {});
  const prompts: Prompt[] = [];
  const model: Model = {
    ...offline,
    doStream: (call) => {
      prompts.push(call.prompt);
      return offline.doStream(call);
    },
  };
  const agent = createChatAgent({
    model,
    tools: createRegistry({ tools: [...demoTools, ...browserToolDeclarations] }),
    tickets: createTickets(env),
    callResults: createD1CallResultStore(env.DB),
  });
  const deps = options.deps ?? (() => demoDeps(env));
  return {
    prompts,
    /** POST /api/chat as src/api/chat.ts answers it (a refused history: 403 with its problem). */
    async chat(id: string, messages: EdgetoolUIMessage[]): Promise<Response> {
      try {
        const turn = await agent.stream({ messages, run: createRunContext({ conversationId: id, deps: deps() }) });
        return turn.toResponse();
      } catch (error) {
        if (error instanceof ContinuationError) return Response.json({ error: { code: error.code, problem: error.problem } }, { status: 403 });
        throw error;
      }
    },
  };
}
