// The plain-AI-SDK baseline of apps/worker (see ../wrangler.jsonc): the same routes (POST /api/chat,
// GET /api/health, GET /api/tools, static assets), the same router and body limits, the same model
// module, the same tools; `streamText` + `toUIMessageStream` instead of edgetool's chat agent.
import { createModelFromEnv } from '@edgetool/ai';
import { asSchema, convertToModelMessages, createUIMessageStreamResponse, isStepCount, streamText, toUIMessageStream, validateUIMessages } from 'ai';
import type { Env as DemoEnv } from '../../../apps/worker/src/env.ts';
import { createApiRouter, json, jsonError, readLimited } from '../../../apps/worker/src/http/index.ts';
import { APPROVAL, createPlainTools } from './tools.ts';

/** The demo Worker's bindings, less the ticket secrets this Worker has no use for. */
type Env = Omit<DemoEnv, 'TICKET_SECRET' | 'TICKET_SECRET_PREVIOUS'>;

const INSTRUCTIONS = `You are the order desk of a small shop. Use the tools to look up orders, find delayed ones,
change delivery dates and email customers (changes and emails need the user's approval), tell the time in a time zone,
calculate, and use the user's browser for their time zone, a date picker and their cart. Be brief and concrete.`;

const MAX_CHAT_BODY_BYTES = 512 * 1024;

function chooseModel(env: Env) {
  const ms = Number(env.OFFLINE_DELAY_MS ?? 0);
  return createModelFromEnv(env, { offline: { delayMs: Number.isFinite(ms) && ms > 0 ? Math.min(ms, 2000) : 0 } });
}

async function chat(request: Request, env: Env): Promise<Response> {
  const text = await readLimited(request, MAX_CHAT_BODY_BYTES);
  if (text === undefined) return jsonError(413, 'payload-too-large', `The request body is larger than ${MAX_CHAT_BODY_BYTES} bytes.`);
  let body: { id?: unknown; messages?: unknown; mode?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    return jsonError(400, 'invalid-json', 'The request body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return jsonError(400, 'invalid-request', 'The body must be an object { id, messages, mode }.');
  const { id, messages, mode = 'internal' } = body;
  if (typeof id !== 'string' || id.length === 0 || id.length > 200) return jsonError(400, 'invalid-request', '`id` (the conversation id) must be a non-empty string.');
  if (!Array.isArray(messages) || messages.length === 0) return jsonError(400, 'invalid-request', '`messages` must be a non-empty array of UI messages.');
  if (mode !== 'internal' && mode !== 'manual') return jsonError(400, 'unknown-mode', `Unknown mode ${JSON.stringify(mode)}: use "internal" or "manual".`);

  const choice = chooseModel(env);
  const tools = createPlainTools(env.DB, choice.model, mode);
  let uiMessages: Awaited<ReturnType<typeof validateUIMessages>>;
  try {
    uiMessages = await validateUIMessages({ messages });
  } catch (error) {
    return jsonError(400, 'invalid-input', `Invalid messages: ${error instanceof Error ? error.message : String(error)}`);
  }
  const result = streamText({
    model: choice.model,
    instructions: INSTRUCTIONS,
    messages: await convertToModelMessages(uiMessages, { tools, ignoreIncompleteToolCalls: true }),
    tools,
    toolApproval: APPROVAL,
    stopWhen: isStepCount(8),
    abortSignal: request.signal,
    onError: () => {},
  });
  const metadata = { model: { provider: choice.provider, modelId: choice.modelId, offline: choice.offline }, mode };
  return createUIMessageStreamResponse({
    stream: toUIMessageStream({
      stream: result.stream,
      tools,
      originalMessages: uiMessages,
      messageMetadata: ({ part }) => (part.type === 'start' ? metadata : undefined),
      onError: (error) => (error instanceof Error ? error.message : 'The model call failed.'),
    }),
  });
}

const api = createApiRouter<Env>([
  { method: 'POST', path: '/api/chat', handler: chat },
  {
    method: 'GET',
    path: '/api/health',
    handler: (_request, env) => {
      const { provider, modelId, offline } = chooseModel(env);
      return json({ ok: true, model: { provider, modelId, offline } });
    },
  },
  {
    method: 'GET',
    path: '/api/tools',
    handler: async (_request, env) => {
      const choice = chooseModel(env);
      const tools = createPlainTools(env.DB, choice.model, 'internal');
      const list = await Promise.all(
        Object.entries(tools).map(async ([name, t]) => ({ name, description: t.description ?? '', inputSchema: await asSchema(t.inputSchema).jsonSchema })),
      );
      return json({ tools: list });
    },
  },
]);

export default {
  async fetch(request, env, ctx): Promise<Response> {
    return (await api(request, env, ctx)) ?? env.ASSETS.fetch(request);
  },
} satisfies ExportedHandler<Env>;
